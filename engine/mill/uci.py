"""Mill over UGI and over Sanmill's UCI dialect: chess's UCI and UGI front-ends with Mill's hooks
(its options, its info and bestmove lines, its board for `d`, its bench).

UGI (cutegames): one complete turn per bestmove (`d6xb4`), since cutegames alternates turns and
trusts the engine as referee. Sanmill's dialect (`uci`): a removal is a token of its own, so a
turn that closes a mill is answered in parts -- `bestmove d6`, then, once the GUI has played it
(`position ... moves ... d6`), a second `go` answers `bestmove xb4`.

Rule options (Sanmill's names) are checked at once and act from the next `position`,
`ucinewgame` or `uginewgame`; `Variant` loads a preset and resets the other rule options to it.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from .._mill import ALGORITHMS
from ..protocol.uci import (ENGINE_AUTHOR, ENGINE_NAME, SPIN_OPTIONS, SpinOption, UciError, UciFrontEnd,
                            check_value, parse_setoption, spin_value)
from ..protocol.ugi import UgiFrontEnd
from ..play.timeman import Limits
from .bench import DEFAULT_DEPTH as BENCH_DEPTH, run_bench
from .display import describe
from .notation import split
from .rules import VARIANTS, MillRules
from .session import MillSession

NINE = MillRules()
# Spin options: the engine's, then the rules' (defaults: nine men's morris). Values a spin's range
# allows but the rules do not (PiecesCount 11) are refused by the rules.
SPINS = {
    "Hash": SPIN_OPTIONS["Hash"],
    "Move Overhead": SPIN_OPTIONS["Move Overhead"],
    "PiecesCount": SpinOption(NINE.PiecesCount, 9, 12),
    "FlyPieceCount": SpinOption(NINE.FlyPieceCount, 3, 4),
    "BoardFullAction": SpinOption(NINE.BoardFullAction, 0, 4),
    "StalemateAction": SpinOption(NINE.StalemateAction, 0, 4),
    "NMoveRule": SpinOption(NINE.NMoveRule, 0, 1000),
    "EndgameNMoveRule": SpinOption(NINE.EndgameNMoveRule, 0, 1000),
    "MoveTime": SpinOption(1, 0, 60),
}
CHECKS = {field.name: getattr(NINE, field.name) for field in dataclasses.fields(MillRules)
          if isinstance(getattr(NINE, field.name), bool)}
COMBOS = {"Algorithm": ("pvs", tuple(ALGORITHMS)), "Variant": ("nine", tuple(VARIANTS))}
OPTIONS = (*SPINS, *CHECKS, *COMBOS, "Clear Hash", "MillDBPath")


class MillUciFrontEnd(UciFrontEnd):
    """Sanmill's dialect: each bestmove one token of a turn."""
    errors = (ValueError,)      # UciError, and every rule, notation and FEN fault, is a ValueError
    null_move = "none"
    bench_runner = staticmethod(run_bench)
    bench_depth, bench_maximum = BENCH_DEPTH, 30
    split_turns = True

    def __init__(self, session: MillSession, write: Callable[[str], None]) -> None:
        super().__init__(session, write)
        session.split_turns = self.split_turns
        self.move_time = SPINS["MoveTime"].default      # seconds for a `go` without limits (0: until stop)

    def uci(self, args: list[str]) -> None:
        self.write(f"id name {ENGINE_NAME}")
        self.write(f"id author {ENGINE_AUTHOR}")
        for name, spin in SPINS.items():
            self.write(f"option name {name} type spin default {spin.default} min {spin.minimum} max {spin.maximum}")
        for name, default in CHECKS.items():
            self.write(f"option name {name} type check default {str(default).lower()}")
        for name, (default, values) in COMBOS.items():
            self.write(f"option name {name} type combo default {default} " + " ".join(f"var {v}" for v in values))
        self.write("option name Clear Hash type button")
        self.write(f"option name MillDBPath type string default {self.manager.db_path or '<empty>'}")
        self.write("uciok")

    def setoption(self, args: list[str]) -> None:
        name, value = parse_setoption(args)
        canonical = {key.lower(): key for key in OPTIONS}.get(name.lower())
        if canonical is None:
            raise UciError(f"no such option: {name}")
        if canonical == "Clear Hash":
            self.manager.clear()
        elif canonical == "Hash":
            number = spin_value(canonical, SPINS[canonical], value)
            granted = self.manager.set_hash(number)
            if granted < number:
                self.write(f"info string Hash {number} MB cannot be used here; using {granted} MB")
        elif canonical == "Move Overhead":
            self.manager.move_overhead = spin_value(canonical, SPINS[canonical], value)
        elif canonical == "MoveTime":
            self.move_time = spin_value(canonical, SPINS[canonical], value)
        elif canonical == "MillDBPath":
            for error in self.manager.set_db_path(value, self.session.rules):
                self.write(f"info string {error}")
        elif canonical == "Algorithm":
            if value.lower() not in ALGORITHMS:
                raise UciError(f"Algorithm takes {' or '.join(ALGORITHMS)}, not {value!r}")
            self.manager.set_algorithm(value.lower())
        else:
            self.set_rule(canonical, value)

    def set_rule(self, name: str, value: str) -> None:
        if name in CHECKS:
            value = str(check_value(name, value)).lower()
        elif name in SPINS:
            value = str(spin_value(name, SPINS[name], value))
        if self.session.set_rule(name, value):
            self.write(f"info string {name} {value} applies from the next position or new game; "
                       "the game in progress keeps its rules")

    def checked_limits(self, limits: Limits) -> Limits:
        # The Mill search has no root move list and no mate search of its own.
        if limits.searchmoves or limits.mate:
            self.error("go searchmoves and go mate are not supported for Mill; ignored")
        limits = dataclasses.replace(limits, searchmoves=[], mate=0)
        if limits == Limits() and self.move_time:
            # Sanmill's GUI sends a bare `go` and waits for the move: think MoveTime seconds.
            limits.movetime = 1000 * self.move_time
        return limits

    def start_search(self, limits: Limits) -> None:
        session = self.session
        key, given = session.board.key, len(split(session.partial)) if session.partial else 0
        self.manager.start(session.board, limits, self.send_infos,
                           lambda result: self.send_bestmove(result, key, given), among=session.choices())

    def tokens(self, turns: list[str]) -> list[str]:
        """Turns as this dialect writes them."""
        return [token for turn in turns for token in split(turn)] if self.split_turns else turns

    def send_infos(self, infos: list[dict]) -> None:
        for info in infos:
            score = f"mate {info['mate']}" if info["mate"] is not None else f"cp {info['score']}"
            self.write(f"info depth {info['depth']} score {score} nodes {info['nodes']} nps {info['nps']} "
                       f"time {info['time_ms']} tbhits {info['tbhits']} pv {' '.join(self.tokens(info['pv']))}")

    def send_bestmove(self, result: dict, key: int, given: int) -> None:
        """`given`: the tokens of the turn the GUI has played already (split form)."""
        move = result["move"]
        if not self.split_turns:
            self.write(f"bestmove {move}")
            return
        tokens = split(move)
        if len(tokens) > given + 1:
            self.session.remember(key, move)     # the next `go` in this turn answers the rest
        self.write(f"bestmove {tokens[given]}")

    def describe(self) -> str:
        board = self.session.board
        partial = f"\nBegun turn: {self.session.partial}" if self.session.partial else ""
        return f"{describe(board)}{partial}\n\nFen: {board.fen()}\nKey: {board.key:016X}"


class MillUgiFrontEnd(UgiFrontEnd, MillUciFrontEnd):
    """UGI for Mill: the handshake, clocks and `query` of UGI, one complete turn per bestmove."""
    split_turns = False


PROTOCOLS = {"uci": MillUciFrontEnd, "position": MillUciFrontEnd, "setoption": MillUciFrontEnd,
             "ucinewgame": MillUciFrontEnd, "ugi": MillUgiFrontEnd}
