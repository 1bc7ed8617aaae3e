"""MillDatabase: the database classes of one rule set found in a directory, memory-mapped, probed by
position, and the perfect turn: a win by the fastest turn, a draw never into a loss, a loss by the
turn that resists longest. Files that cannot be used are named in .errors and left out."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from ..._mill import MillCore
from ..rules import MillRules
from . import tables
from .build import new_core

DEFAULT_DIR = Path(__file__).with_name("tables")      # the classes shipped with Pyrope


@dataclass(frozen=True)
class Value:
    """A position's value for the side to move: result 'win', 'draw' or 'loss'; distance in turns
    to the game's end (None for a draw)."""
    result: str
    distance: int | None

    @classmethod
    def from_entry(cls, entry: int) -> "Value":
        if entry == 0:
            return cls("draw", None)
        d = entry - 1
        return cls("win" if d % 2 else "loss", d)

    def after(self) -> "Value":
        """The value one turn earlier for the side that played into this position."""
        if self.result == "draw":
            return self
        return Value("loss" if self.result == "win" else "win", self.distance + 1)

    def rank(self) -> tuple:
        """Larger is better for the side to move: fast wins, then draws, then slow losses."""
        if self.result == "win":
            return (2, -self.distance)
        return (1, 0) if self.result == "draw" else (0, self.distance)


LOST = Value("loss", 0)


def fits_move_count(rules: MillRules, position, value: Value) -> bool:
    """Whether a database win or loss ends the game before the move-count rule would (tables
    ignore that rule); draws always fit. position: MillCore.position()'s tuple."""
    if value.distance is None:
        return True
    white, black, hand_w, hand_b, _, _, quiet = position[:7]
    limit = rules.NMoveRule
    three = 3 in (bin(white).count("1"), bin(black).count("1"))
    if 0 < rules.EndgameNMoveRule < limit and not hand_w and not hand_b and three:
        limit = rules.EndgameNMoveRule      # as the core's move_limit
    return limit == 0 or value.distance <= limit - quiet


class MillDatabase:
    def __init__(self, rules: MillRules, directory: str | Path | None = None):
        self.rules = rules
        self.core = new_core(rules)
        self.tables: dict[tuple[int, int], tables.Table] = {}
        self.errors: list[str] = []
        self._moves = MillCore()
        self._moves.set_rules(rules.core_values(), rules.lines())
        if directory is not None:
            self.load(directory)

    def load(self, directory: str | Path) -> None:
        """Map every class of these rules in directory; each unusable file becomes one line in errors."""
        directory = Path(directory)
        suffix = tables.fingerprint(self.rules).hex()[:8]
        if not directory.is_dir():
            self.errors.append(f"{directory}: no such directory; no Mill database loaded from it.")
            return
        for path in sorted(directory.glob(f"mill-*-*-{suffix}.mdb")):
            match = re.fullmatch(rf"mill-(\d+)-(\d+)-{suffix}\.mdb", path.name)
            try:
                a, b = int(match[1]), int(match[2])
                sizes = (self.core.section_size(a, b), self.core.section_size(b, a) if a != b else 0)
                table = tables.open_table(path, self.rules, sizes)
                if (table.a, table.b) != (a, b):
                    raise tables.TableError(f"{path}: holds class {table.a}-{table.b}, not {a}-{b} as named.")
            except (tables.TableError, ValueError, TypeError) as error:
                self.errors.append(f"{error} Left unused." if isinstance(error, tables.TableError)
                                   else f"{path}: not a usable class ({error}). Left unused.")
                continue
            for (m, o), view in table.sections().items():
                self.core.attach(m, o, view)
            self.tables[(a, b)] = table

    @property
    def classes(self) -> list[tuple[int, int]]:
        return sorted(self.tables)

    def probe_sets(self, mover: int, other: int) -> Value | None:
        """The value of a placement-free position (bit sets, mover to play); None if not loaded."""
        if bin(other).count("1") < 3:
            return LOST.after()
        if bin(mover).count("1") < 3:
            return LOST
        entry = self.core.probe(mover, other)
        return None if entry < 0 else Value.from_entry(entry)

    def probe(self, position) -> Value | None:
        """position: MillCore.position()'s tuple; None unless both hands are empty, no removal is
        owed and its class is loaded."""
        white, black, hand_w, hand_b, side, pending = position[:6]
        if hand_w or hand_b or pending:
            return None
        mover, other = (white, black) if side == 0 else (black, white)
        return self.probe_sets(mover, other)

    def turn_values(self, position) -> list[tuple[tuple[int, int, int], Value]] | None:
        """Every turn (MillCore's (from, to, removed)) with its value for the side playing it; None
        if the position or a successor is not in the loaded classes."""
        if self.probe(position) is None:
            return None
        white, black, _, _, side = position[:5]
        mover, other = (white, black) if side == 0 else (black, white)
        self._moves.set_position(mover, other, 0, 0, 0, 0, 0, 1)
        out = []
        for frm, to, removed in self._moves.moves():
            own = mover ^ (1 << frm) | (1 << to)
            child = self.probe_sets(other & ~removed, own)
            if child is None:
                return None
            out.append(((frm, to, removed), child.after()))
        return out

    def best_turn(self, position) -> tuple[tuple[int, int, int], Value] | None:
        """The perfect turn and the position's value through it; None outside the loaded classes
        (or when the side to move has no turn)."""
        turns = self.turn_values(position)
        if not turns:
            return None
        return max(turns, key=lambda item: item[1].rank())
