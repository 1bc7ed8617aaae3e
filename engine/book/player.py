"""The book in play: which file, whether and how deep it is used, and which of its moves is played.

The search manager asks `BookPlayer.choose` before it searches a move on the clock. Weights are
Polyglot's: with variety a move is drawn with probability weight / total (as Polyglot and
python-chess's `weighted_choice` do), without it the heaviest move is played (the first of equals,
as `chess.polyglot` `find`). Entries that name no legal move are reported and never played.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .._core import Board, Book, BookError
from ..data import shipped

DEFAULT_BOOK = shipped("books") / "pyrope.bin"     # the book shipped with Pyrope
DEFAULT_DEPTH = 256         # the last game ply asked; books end long before
MAX_DEPTH = 1024
DEFAULT_VARIETY = True      # a move drawn by weight, not always the heaviest


@dataclass
class BookPick:
    """A move taken from the book, with what the book held in that position."""
    move: str | None                                # None: every entry was illegal
    ponder: str | None
    moves: list[tuple[str, int]]                    # (move, weight), file order
    illegal: list[tuple[int, str]] = field(default_factory=list)    # (entry index, stored move)
    path: str = ""

    @property
    def total(self) -> int:
        return sum(weight for _, weight in self.moves)

    def share(self, move: str) -> float:
        return dict(self.moves)[move] / self.total


def game_ply(board: Board) -> int:
    return 2 * (board.fullmove_number - 1) + (0 if board.white_to_move else 1)


def ranked(moves: list[tuple[str, int]]) -> list[tuple[str, int, float]]:
    """(move, weight, share of the total weight), heaviest first: how book moves are listed."""
    total = sum(weight for _, weight in moves)
    return [(move, weight, weight / total) for move, weight in sorted(moves, key=lambda entry: -entry[1])]


def best_entry(moves: list[tuple[str, int]]) -> str:
    return max(moves, key=lambda entry: entry[1])[0]


class BookPlayer:
    """The UCI options OwnBook, BookFile, BookDepth and BookVariety, and the choice they make."""

    def __init__(self) -> None:
        self.book: Book | None = None
        self.path = ""
        self.problem: str | None = None     # why the default book could not be opened, if it could not
        self.depth = DEFAULT_DEPTH
        self.variety = DEFAULT_VARIETY
        try:
            self.load(str(DEFAULT_BOOK))
        except BookError as error:
            if DEFAULT_BOOK.exists():
                self.problem = str(error)
        # On by default when a book is found.
        self.enabled = self.book is not None

    def load(self, path: str) -> None:
        """Use the book at `path` ('' : none). A file that cannot be used raises BookError and
        the book in use stays."""
        book = Book(path) if path else None
        self.book, self.path = book, path

    def entries(self, board: Board) -> tuple[list[tuple[str, int]], list[tuple[int, str]]]:
        """(move, weight) of the book's moves in this position and its illegal entries."""
        if self.book is None:
            return [], []
        legal, illegal = self.book.probe(board)
        return [(move, weight) for move, weight, _ in legal], illegal

    def choose(self, board: Board, rng: random.Random) -> BookPick | None:
        """The book move to play in `board`, or None (book off, too deep, or not in the book).
        A position whose entries are all illegal gives a pick with no move, for the report."""
        if not self.enabled or self.book is None or game_ply(board) >= self.depth:
            return None
        moves, illegal = self.entries(board)
        if not moves:
            return BookPick(None, None, [], illegal, self.path) if illegal else None
        if self.variety:
            move = rng.choices([m for m, _ in moves], weights=[w for _, w in moves])[0]
        else:
            move = best_entry(moves)
        after = board.copy()
        after.push(move)
        replies, _ = self.entries(after)
        return BookPick(move, best_entry(replies) if replies else None, moves, illegal, self.path)
