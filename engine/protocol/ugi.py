"""UGI front-end (the Universal Game Interface of kz04px/cutegames): UCI for any two-player game.

UGI differs from UCI only in its greeting (`ugi` / `ugiok`), `uginewgame`, clocks named by player
(`p1time p2time p1inc p2inc`, player 1 being White) and `query` for the state of the game. All the
rest -- options, positions, info and bestmove lines, errors as `info string error: ...` -- is the
UCI front-end's, so this class only translates what differs.
"""
from __future__ import annotations

from typing import Callable

from ..play.game import GameSession
from .uci import UciError, UciFrontEnd

# UGI's go words and the UCI words (Limits fields) they stand for.
GO_WORDS = {"p1time": "wtime", "p2time": "btime", "p1inc": "winc", "p2inc": "binc"}
RESULTS = {"1-0": "p1win", "0-1": "p2win", "1/2-1/2": "draw"}


class UgiFrontEnd(UciFrontEnd):
    go_aliases = GO_WORDS

    def __init__(self, session: GameSession, write: Callable[[str], None]) -> None:
        super().__init__(session, write)
        del self.commands["uci"], self.commands["ucinewgame"]
        self.commands.update(ugi=self.ugi, uginewgame=lambda args: self.session.new_game(), query=self.query)

    def ugi(self, args: list[str]) -> None:
        # The identity and option lines are UCI's (this game's); only the closing word differs. A
        # separate collector keeps them apart from info lines a running search may be writing.
        greeting: list[str] = []
        type(self)(self.session, greeting.append).uci(args)
        for line in greeting:
            self.write("ugiok" if line == "uciok" else line)

    def query(self, args: list[str]) -> None:
        board = self.session.board
        outcome = board.outcome()
        answers = {
            "gameover": lambda: "true" if outcome else "false",
            "p1turn": lambda: "true" if board.white_to_move else "false",
            "result": lambda: RESULTS[outcome[0]] if outcome else "none",
        }
        if len(args) != 1 or args[0] not in answers:
            raise UciError(f"query takes one of {', '.join(answers)}, not {' '.join(args) or 'nothing'!r}")
        self.write(f"response {answers[args[0]]()}")
