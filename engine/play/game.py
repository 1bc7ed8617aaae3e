"""The game interface: what the front-ends (protocol/) and the search thread need of a game.

Chess (play.session.Session over _core.Board and play.manager.SearchManager) and Mill
(mill.session.MillSession over MillBoard and mill.manager.MillManager) both provide it, so the
UCI/UGI front-end, `go` parsing (protocol.uci.parse_go), the clock (play.timeman) and the
search thread (play.manager.SearchThread) serve both games. GameBoard and GameManager are
for reading and type checking; both games' sessions inherit GameSession.
"""
from __future__ import annotations

from typing import Callable, Protocol

from .options import Registry
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


class GameSession:
    """What every game's session does: it holds the board, the options (a play.options Registry)
    and the search manager, and passes the front-end's stop, ponderhit and finish on. A game's
    session (play.session.Session, mill.session.MillSession) adds new_game, set_position,
    search(limits, on_info, on_done) and perft_divide; each validates before it changes anything."""
    board: GameBoard
    manager: GameManager
    options: Registry

    def start_problems(self) -> list[str]:
        """What the engine could not find at start and what it plays with instead, to be told."""
        return []

    def stop(self) -> None:
        """The search in progress moves now (an infinite or ponder search reports too)."""
        self.manager.stop()

    def ponderhit(self) -> None:
        self.manager.ponderhit()

    def finish(self) -> None:
        """End any search and join its thread (its result is still handed on)."""
        self.manager.finish()
