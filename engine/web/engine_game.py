"""What every game behind a WebSocket does, whatever the game: its messages dispatched and refused
once it is over (PageGame); against a session's search (EngineGame: chess_game, mill_game), the
search started on its own thread, its reports brought back onto the event loop, and searches that
no longer count ignored.

The search thread reaches the loop through call_soon_threadsafe, each report tagged with the
search's token; taking back, a new game or a closed socket bumps the token, so a report of a
search that no longer counts changes nothing, and the event loop never waits for a search.
"""
from __future__ import annotations

import asyncio
from typing import Any, Callable

from ..play.game import GameSession
from ..play.timeman import Limits

Send = Callable[[dict], None]


class MessageError(ValueError):
    """A message from the page that cannot be used; nothing was changed."""


def whole(message: dict, name: str, lowest: int, highest: int) -> int:
    value = message.get(name)
    if isinstance(value, bool) or not isinstance(value, int) or not lowest <= value <= highest:
        raise MessageError(f"{name} must be a whole number from {lowest} to {highest}, not {value!r}")
    return value


def set_up(fen, board_of: Callable[[str], Any], kind: str) -> str:
    """The start position a page gave (lichess's "from position"), as `board_of` reads it (a
    ValueError naming the fault); a move must be left to play there."""
    if not isinstance(fen, str):
        raise MessageError(f"fen must be a {kind} string, not {fen!r}")
    try:
        board = board_of(fen.strip())
    except ValueError as error:
        raise MessageError(f"fen: {error}") from None
    outcome = board.outcome()
    if outcome is not None:
        raise MessageError(f"fen: the game is already over there ({', '.join(outcome)})")
    return board.fen()


class PageGame:
    """A game's socket side, any game: a subclass names its messages' handlers (`handlers`).
    Every method runs on the event loop."""

    def __init__(self, send: Send, loop: asyncio.AbstractEventLoop) -> None:
        self.send = send
        self.loop = loop
        self.settings: Any = None       # the game the page asked for; None until its first "new"
        self.outcome: tuple[str, str] | None = None     # (result, reason) once the game is over
        self.thinking = False           # the opponent is thinking

    def handlers(self) -> dict[str, Callable[[dict], None]]:
        """The game's messages by type."""
        raise NotImplementedError

    def handle(self, message: dict) -> None:
        handlers = self.handlers()
        handler = handlers.get(message.get("type"))
        if handler is None:
            raise MessageError(f"unknown message type {message.get('type')!r}; known: {', '.join(handlers)}")
        handler(message)

    def check_playing(self) -> None:
        """MessageError unless a game is in progress."""
        if self.settings is None:
            raise MessageError('no game: start one with {"type": "new", ...}')
        if self.outcome is not None:
            raise MessageError(f"the game is over ({self.outcome[0]}, {self.outcome[1]}); start a new one")

    def resign(self, message: dict) -> None:
        """The person gives up: the game is the other side's."""
        self.check_playing()
        self.end("0-1" if self.settings.human_white else "1-0", "resignation")

    def end(self, result: str, reason: str) -> None:
        self.cancel()
        self.outcome = (result, reason)
        self.send_state()

    def cancel(self) -> None:
        """End what the opponent is doing that counts now (a game without a search has nothing to end)."""

    def send_state(self) -> None:
        """The game as the page shows it."""
        raise NotImplementedError


class EngineGame(PageGame):
    """A game against a session's search: a subclass also says what the engine's reports mean
    (`thinking_shown`, `engine_moved`)."""

    def __init__(self, session: GameSession, send: Send, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(send, loop)
        self.session = session
        self.token = 0              # the search that counts

    def plies_to_take_back(self) -> int:
        """How many turns to take back to be before the person's last one (White starts and the
        sides alternate); MessageError when the person has made none."""
        played = len(self.session.board.move_stack)
        own = [ply for ply in range(played) if (ply % 2 == 0) == self.settings.human_white]
        if not own:
            raise MessageError("you have made no move to take back")
        return played - own[-1]

    def think(self, limits: Limits) -> None:
        self.token += 1
        token, loop = self.token, self.loop
        self.thinking = True
        self.session.search(limits, lambda infos: loop.call_soon_threadsafe(self._reported, token, infos),
                            lambda result: loop.call_soon_threadsafe(self._finished, token, result))

    def _reported(self, token: int, infos: list) -> None:
        if token == self.token:
            self.thinking_shown(infos)

    def _finished(self, token: int, result: Any) -> None:
        if token == self.token:
            self.thinking = False
            self.engine_moved(result)

    def thinking_shown(self, infos: list) -> None:
        """The search's reports, for the page."""
        raise NotImplementedError

    def engine_moved(self, result: Any) -> None:
        """The search's result: play its move."""
        raise NotImplementedError

    def cancel(self) -> None:
        """End the search that counts now; its late reports change nothing."""
        self.token += 1
        self.thinking = False
        self.session.stop()

    async def close(self) -> None:
        """The socket closed: the game ends, and its search thread is joined off the event loop."""
        self.cancel()
        await asyncio.to_thread(self.session.finish)
