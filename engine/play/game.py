"""The game interface: what the front-ends (protocol/) and the search thread need of a game.

Chess (play.session.Session over _core.Board and play.manager.SearchManager) and Mill
(mill.session.MillSession over MillBoard and mill.manager.MillManager) both provide it, so the
UCI/UGI front-end, `go` parsing (protocol.uci.parse_go), the clock (play.timeman) and the
search thread (play.manager.SearchThread) serve both games. These classes are for reading and
type checking; nothing inherits from them.
"""
from __future__ import annotations

from typing import Callable, Protocol

from .timeman import Limits


class GameBoard(Protocol):
    @property
    def white_to_move(self) -> bool: ...        # player 1 (White) is to move

    @property
    def key(self) -> int: ...

    def fen(self) -> str: ...

    def has_legal_moves(self) -> bool: ...

    def outcome(self) -> tuple[str, str] | None: ...       # (result "1-0"/"0-1"/"1/2-1/2", reason) once over

    def copy(self) -> GameBoard: ...


class GameManager(Protocol):
    move_overhead: int

    def start(self, board: GameBoard, limits: Limits, on_info: Callable[[list[dict]], None],
              on_done: Callable[[dict], None]) -> None: ...

    def stop(self) -> None: ...

    def ponderhit(self) -> None: ...

    def finish(self) -> None: ...

    def clear(self) -> None: ...

    def set_hash(self, megabytes: int) -> int: ...


class GameSession(Protocol):
    """The position a front-end talks about; every method validates before it changes anything."""
    board: GameBoard
    manager: GameManager

    def new_game(self) -> None: ...

    def set_position(self, fen: str | None, moves: list[str]) -> None: ...    # None: the start

    def perft_divide(self, depth: int) -> list[tuple[str, int]]: ...
