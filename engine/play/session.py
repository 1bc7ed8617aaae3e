"""The game a front-end is talking about: the position, its options and the search manager.

Front-ends translate protocol text into calls on a Session; a Session validates everything
before changing anything, so a rejected command leaves the previous state intact.
"""
from __future__ import annotations

from .._core import STARTING_FEN, Board
from .manager import SearchManager
from .perft import divide


class Session:
    def __init__(self) -> None:
        self.chess960 = False
        self.board = Board()
        self.manager = SearchManager()

    def new_game(self) -> None:
        self.board = Board(chess960=self.chess960)
        self.manager.clear()

    def set_chess960(self, enabled: bool) -> None:
        self.chess960 = enabled
        self.board.chess960 = enabled

    def set_position(self, fen: str | None, moves: list[str]) -> None:
        """Replace the position with `fen` (None: the start position) followed by `moves`.
        Raises FenError or IllegalMoveError and keeps the old position if anything is wrong."""
        board = Board(STARTING_FEN if fen is None else fen, chess960=self.chess960)
        for move in moves:
            board.push(move)
        self.board = board

    def perft_divide(self, depth: int) -> list[tuple[str, int]]:
        return divide(self.board, depth)     # with a progress bar when a person watches
