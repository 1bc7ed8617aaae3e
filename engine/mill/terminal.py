"""Terminal mode for Mill (`pyrope --game mill`): play a person, the board drawn with coordinates
after every turn. Reading lines, searching and taking turns back are every game's
(protocol.terminal_base); this adds Mill's commands and how its turns are read and shown.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from ..play.timeman import Limits
from ..protocol.terminal_base import TerminalBase, TerminalError
from .display import describe
from .rules import VARIANTS, MillRules
from .search import WEIGHTS, SearchInfo
from .session import MillSession


HELP = f"""\
Type a turn to play it: d6 places a stone, d6-d5 slides (or flies) one, and a turn that closes a
mill names the stone it takes: d6xb4 (or d6 xb4). Pyrope then answers with its turn. Commands:
  go [depth N | movetime MS | nodes N | infinite]
                 Pyrope plays now; limits given here also apply to its later replies (at first
                 it thinks {TerminalBase.default_limits.movetime // 1000} s a turn)
  stop           play now, with the best turn found so far
  force          Pyrope stops answering your turns: you play both sides (go still works)
  play           Pyrope answers each turn you play (the default)
  undo           take back the last turn, and your turn before it if that was Pyrope's answer
  new            a new game under the rules set
  variant [NAME [Option=value ...]]
                 show the rules; or a new game of nine, twelve, lasker or morabaraba, with
                 Sanmill's rule options changed, like: variant nine MayFly=false NMoveRule=50
  fen [FEN]      show the position's FEN, or set one up
  d              the board, the FEN and the position key
  eval           the static evaluation and its weights
  perft N        count the complete turns N ahead (1 to 8)
  db             the endgame databases in use
  help           this list
  quit           leave
Scores are in stones from White's point of view; #3 means White wins with its third turn, #-3 Black.
Start pyrope --game mill with ugi or uci as the first line to speak that protocol instead."""


def rules_text(rules: MillRules) -> str:
    name = next((name for name, preset in VARIANTS.items() if preset == rules), "custom rules")
    values = " ".join(f"{key}={str(value).lower()}" for key, value in dataclasses.asdict(rules).items())
    return f"{name}: {values}"


class MillTerminalFrontEnd(TerminalBase):
    errors = (ValueError,)      # TerminalError, and the board's own sentences
    max_perft = 8
    cancelling = (*TerminalBase.cancelling, "variant")

    def __init__(self, session: MillSession, write: Callable[[str], None]) -> None:
        super().__init__(session, write)
        self.commands.update({
            "help": lambda args: self.write(HELP),
            "new": self.new,
            "variant": self.variant,
            "fen": self.fen,
            "d": self.draw,
            "eval": self.eval,
            "db": self.database,
        })

    def database(self, args: list[str]) -> None:
        """The endgame databases the game's rules use, and this position's value if they hold it."""
        board = self.session.board
        database = self.session.manager.database(board.rules)
        if database is None or not database.classes:
            where = self.session.manager.db_path or "no directory (MillDBPath is empty)"
            self.write(f"No Mill endgame database is loaded for these rules from {where}; "
                       "play comes from the search alone.")
        else:
            classes = ", ".join(f"{a}-{b}" for a, b in database.classes)
            self.write(f"Mill endgame databases from {self.session.manager.db_path}: classes {classes}.")
        for error in database.errors if database is not None else ():
            self.write(error)
        value = self.session.database_value()
        if value is not None:
            distance = f" in {value.distance} turns" if value.distance is not None else ""
            self.write(f"This position: {board.turn} to move, {value.result}{distance}.")

    # --- the game's hooks -----------------------------------------------------------------

    def is_move(self, words: list[str]) -> bool:
        return len(self.session.board.join_turns(words)) == 1      # `d6 xb4` is one turn

    def parse_move(self, text: str) -> str:
        board = self.session.board
        try:
            turn = board.push(text)
        except ValueError as error:
            raise TerminalError(f"{error} Type help for the commands and how turns are written.") from None
        board.pop()
        return turn

    def move_text(self, move: str) -> str:
        board = self.session.board
        return f"{board.fen().split()[6]}. {board.turn} {move}"

    def show_position(self) -> None:
        self.write(describe(self.session.board))

    def info_writer(self) -> Callable[[list[SearchInfo]], None]:
        sign = 1 if self.session.board.white_to_move else -1

        def show(infos: list[SearchInfo]) -> None:
            for info in infos:
                score = f"#{info.mate * sign}" if info.mate is not None else f"{info.score * sign / 100:+.2f}"
                self.write(f"depth {info.depth:2}  {score:>6}  {info.time_ms / 1000:6.2f} s  "
                           f"{info.nodes:>10,} nodes  {' '.join(info.pv)}")
        return show

    def checked_limits(self, limits: Limits) -> Limits:
        if limits.searchmoves or limits.mate:
            raise TerminalError("go searchmoves and go mate are not available for Mill.")
        return limits

    # --- commands -------------------------------------------------------------------------

    def new(self, args: list[str]) -> None:
        self.session.new_game()
        self.engine_plies.clear()
        self.write(f"New game ({rules_text(self.session.rules)}): you have White "
                   "(type go to make Pyrope play White).")
        self.show_position()

    def variant(self, args: list[str]) -> None:
        session = self.session
        if not args:
            self.write(f"Rules of this game: {rules_text(session.board.rules)}\n"
                       f"Variants: {', '.join(VARIANTS)}")
            return
        before = session.rules
        try:
            session.set_rule("Variant", args[0])
            for option in args[1:]:
                name, equals, value = option.partition("=")
                if not equals:
                    raise ValueError(f"'{option}' is not Option=value.")
                session.set_rule(name, value)
        except ValueError as error:
            session.rules = before
            raise TerminalError(f"{error} The rules stay as they were.") from None
        self.new([])

    def fen(self, args: list[str]) -> None:
        if not args:
            self.write(self.session.board.fen())
            return
        try:
            self.set_up(" ".join(args))
        except ValueError as error:
            raise TerminalError(f"That FEN cannot be used: {error}") from None

    def draw(self, args: list[str]) -> None:
        board = self.session.board
        self.write(f"{describe(board)}\nFEN: {board.fen()}\nKey: {board.key:016X}")

    def eval(self, args: list[str]) -> None:
        if self.thinking:
            raise TerminalError("Pyrope is thinking: type stop first.")
        board = self.session.board
        score = self.session.manager.evaluate(board) * (1 if board.white_to_move else -1)
        weights = ", ".join(f"{name} {value}" for name, value in WEIGHTS.items())
        self.write(f"Static evaluation: {score / 100:+.2f} stones, White's point of view.\n"
                   f"Weights (100 = a stone): {weights}")
