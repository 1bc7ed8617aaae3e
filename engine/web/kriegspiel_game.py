"""One Kriegspiel game between a person in a browser and one of Pyrope's Kriegspiel players, behind
one WebSocket (app.py), as `pyrope kriegspiel play` plays it at the terminal: the person sees only
their own men, makes tries, and reads the referee's announcements; at the end the full board and
the referee's PGN are shown.

The game is kriegspiel.terminal's KriegspielTerminal, its lines collected as the game's log: the
referee, the player, the person's own board and the flow of tries and turns are all its. The
player thinks on a worker thread (its tries are searched with the GIL held now and then, but they
must not hold the event loop); while it does, the person's messages are refused.
"""
from __future__ import annotations

import asyncio
import random
from dataclasses import dataclass

import chess

from .._kriegspiel import KriegspielError
from ..kriegspiel.pgn import game_from_referee
from ..kriegspiel.referee import outcome_message
from ..kriegspiel.roster import BUILTINS
from ..kriegspiel.terminal import KriegspielTerminal
from ..kriegspiel.tries import parse_try
from .chess_game import MOVETIME_MS
from .engine_game import MessageError, PageGame, Send, whole

DEFAULT_OPPONENT = "maximax"


@dataclass(frozen=True)
class KriegspielSettings:
    human_white: bool
    opponent: str
    movetime_ms: int        # 0: the player's own node budget


def kriegspiel_settings_from(message: dict) -> KriegspielSettings:
    colour, opponent = message.get("color", "white"), message.get("opponent", DEFAULT_OPPONENT)
    if colour not in ("white", "black"):
        raise MessageError(f"color must be white or black, not {colour!r}")
    if opponent not in BUILTINS:
        raise MessageError(f"opponent must be one of {', '.join(BUILTINS)}, not {opponent!r}")
    movetime = 0 if message.get("movetime_ms") is None else whole(message, "movetime_ms", *MOVETIME_MS)
    return KriegspielSettings(colour == "white", opponent, movetime)


class KriegspielGame(PageGame):
    def __init__(self, send: Send, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(send, loop)
        self.game: KriegspielTerminal | None = None
        self.log: list[str] = []            # the person's tries and the referee's words as they hear them
        self.opponent_move: asyncio.Future | None = None

    def handlers(self) -> dict:
        return {"new": self.new_game, "try": self.try_move, "resign": self.resign}

    def new_game(self, message: dict) -> None:
        if self.thinking:
            raise MessageError("wait until the opponent has moved")
        settings = kriegspiel_settings_from(message)
        self.settings, self.outcome, self.log = settings, None, []
        colour = chess.WHITE if settings.human_white else chess.BLACK
        self.game = KriegspielTerminal(self.log.append, colour, settings.opponent, seed=random.randrange(2 ** 31),
                                       movetime=settings.movetime_ms / 1000 or None)
        self.log.append("Referee: " + ", ".join(self.game.referee.opening.messages()))
        self.next_turn()

    def try_move(self, message: dict) -> None:
        self.check_playing()
        if self.thinking:
            raise MessageError("it is the opponent's move, not yours")
        text = message.get("text")
        try:
            parse_try(text if isinstance(text, str) else "")
        except KriegspielError as error:
            raise MessageError(str(error)) from None
        self.log.append(f"You: {text}")
        self.game.try_move(text)
        self.next_turn()

    def resign(self, message: dict) -> None:
        # The players' searches cannot be stopped: the move they are making is played out first.
        if self.thinking:
            raise MessageError("wait until the opponent has moved")
        super().resign(message)

    def next_turn(self) -> None:
        referee = self.game.referee
        if referee.outcome is not None:
            self.outcome = (referee.outcome.result(), outcome_message(referee.outcome))
        elif referee.turn != self.game.color:
            # The state goes first: while the player thinks, only its thread touches the game.
            self.thinking = True
            self.send_state()
            self.opponent_move = self.loop.run_in_executor(None, self.game.opponent_moves)
            self.opponent_move.add_done_callback(self.opponent_moved)
            return
        self.send_state()

    def opponent_moved(self, future: asyncio.Future) -> None:
        self.thinking = False
        if future.cancelled():
            return
        if future.exception() is not None:
            self.outcome = ("*", f"the opponent failed: {future.exception()}")
            self.send_state()
            return
        self.next_turn()

    async def close(self) -> None:
        """The socket closed: a move the player is thinking of is waited for (it cannot be stopped)."""
        if self.opponent_move is not None:
            await asyncio.wait([self.opponent_move])

    def send_state(self) -> None:
        game, referee = self.game, self.game.referee
        your_move = self.outcome is None and not self.thinking
        state = {"type": "state", "human": "white" if self.settings.human_white else "black",
                 "opponent": self.settings.opponent, "fen": game.own.board.fen(), "log": self.log,
                 "tries": [move.uci() for move in game.own.candidates()] if your_move else [],
                 "pawn_tries": referee.pawn_tries if your_move else None, "thinking": self.thinking,
                 "result": None if self.outcome is None else self.outcome[0],
                 "reason": None if self.outcome is None else self.outcome[1]}
        if self.outcome is not None:
            you, them = "You", f"Pyrope {self.settings.opponent}"
            headers = {"White": you if self.settings.human_white else them,
                       "Black": them if self.settings.human_white else you, "Result": self.outcome[0]}
            state.update(full_fen=referee.fen(), pgn=game_from_referee(referee, headers).pgn())
        self.send(state)
