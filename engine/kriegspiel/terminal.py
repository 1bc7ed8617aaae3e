"""`pyrope kriegspiel play`: Kriegspiel at the terminal against a built-in player. You see your own
men only; the referee's words are appendix A's ("Illegal move", "Pawn at e5 captured", "Rank
check", "White's move", "2 pawn tries", "White mates (1-0)"); the opponent's refused tries are its
own business. At the end: the full board and the referee's PGN."""
from __future__ import annotations

from typing import Callable, Iterable, Iterator, Optional

import chess

from ..play.timeman import Limits
from .._kriegspiel import KriegspielError
from .budget import MoveBudget
from .own import OwnBoard
from .pgn import game_from_referee
from .roster import builtin
from .referee import Referee

HELP = """\
Type a try: e2e4, e2-e4, o-o, o-o-o, f7g8=N, or px (the one pawn capture, when one pawn try is
announced). The referee answers "Illegal move" to you alone, or plays it and announces to both
what the rules say. Other commands: board (your men), history (your game as you know it, in
Kriegspiel PGN), resign, help, quit."""


def board_text(board: chess.Board) -> str:
    """Your men alone, White's side at the bottom, files and ranks named."""
    rows = str(board).splitlines()
    return "\n".join(f"{8 - index} {row}" for index, row in enumerate(rows)) + "\n  a b c d e f g h"


class KriegspielTerminal:
    """One game: you as `color` against `opponent` (a built-in kind), from `fen`; the opponent
    thinks `movetime` seconds a move (None: its own node budget)."""

    def __init__(self, write: Callable[[str], None], color: chess.Color, opponent: str,
                 fen: Optional[str] = None, seed: int = 0, prompt: bool = False,
                 movetime: Optional[float] = None) -> None:
        self.write, self.color, self.prompt = write, color, prompt
        self.limits = Limits(movetime=max(1, round(1000 * movetime))) if movetime else Limits()
        self.referee = Referee(fen) if fen else Referee()
        # The opponent converts its won endings with the bare-king search where it can.
        self.opponent = builtin(opponent, "terminal", seed=seed, endgame=1)
        self.opponent.start(not color, self.referee.start_fen)
        self.opponent.hear(self.referee.opening)
        self.own = OwnBoard(self.referee.start_fen, color)
        self.resigned = False

    def run(self, lines: Iterable[str]) -> None:
        side = "White" if self.color == chess.WHITE else "Black"
        self.write(f"Kriegspiel: you are {side}; type help for the commands.")
        self.write(board_text(self.own.board))
        self.write("Referee: " + ", ".join(self.referee.opening.messages()))
        inputs: Iterator[str] = iter(lines)
        while self.referee.outcome is None and not self.resigned:
            if self.referee.turn != self.color:
                self.opponent_moves()
                continue
            if self.prompt:
                self.write("Your try:")
            line = next(inputs, None)
            if line is None or line.strip() == "quit":
                self.write("Game abandoned.")
                break
            self.command(line.strip())
        self.finish()

    def command(self, line: str) -> None:
        if not line:
            return
        if line == "help":
            self.write(HELP)
        elif line == "board":
            self.write(board_text(self.own.board))
        elif line == "history":
            self.write(game_from_referee(self.referee).filtered(self.color).pgn())
        elif line == "resign":
            self.resigned = True
        else:
            self.try_move(line)

    def try_move(self, text: str) -> None:
        try:
            answer = self.referee.try_move(text)
        except KriegspielError as error:
            self.write(f"Not a try: {error}")
            return
        self.write("Referee: " + ", ".join(answer.messages()))
        if answer.legal:
            self.own.play(chess.Move.from_uci(answer.move))
            self.opponent.hear(answer.announcement)

    def opponent_moves(self) -> None:
        """The opponent tries until the referee plays one; you hear only its announcement."""
        self.opponent.go(MoveBudget(self.limits, not self.color))
        while True:
            text = self.opponent.next_try()
            answer = self.referee.try_move(text)
            self.opponent.answered(text, answer.legal)
            if answer.legal:
                break
        announcement = answer.announcement
        self.opponent.hear(announcement)
        if announcement.capture is not None:
            self.own.lose(announcement.capture.square)
        self.write("Referee: " + ", ".join(announcement.messages()))

    def finish(self) -> None:
        result = None
        if self.resigned:
            result = "0-1" if self.color == chess.WHITE else "1-0"
            self.write(f"You resign ({result}).")
        self.write("The full board:")
        self.write(board_text(chess.Board(self.referee.fen())))
        headers = {"White": "you" if self.color == chess.WHITE else "Pyrope",
                   "Black": "you" if self.color == chess.BLACK else "Pyrope"}
        if result is not None:
            headers["Result"] = result
        self.write(game_from_referee(self.referee, headers).pgn())
