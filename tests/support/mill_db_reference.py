"""A slow, independent solver of Mill database classes, to check pyrope's compiled one against.

Turns come from tests/support/mill_reference.py's Referee (written from the rules, no table shared with the
core); symmetries from the grid coordinates; values by plain levels over the explicit graph of
turns: a position is won in d turns if a turn reaches one lost in d - 1, lost in d if every turn
reaches a win and the slowest takes d - 1. No un-moves, no orbit counting.
A position is (mover, other) as bit sets over the points in name order, both hands empty.
"""
from __future__ import annotations

from itertools import combinations

from mill_reference import Referee, board_points, geometry, name

SWAP = {0: 2, 2: 0, 4: 6, 6: 4, 1: 1, 3: 3, 5: 5}
POINTS = sorted(name(x, y) for x, y in board_points())
BIT = {p: 1 << i for i, p in enumerate(POINTS)}


def grid_symmetries(diagonals: bool) -> list[list[int]]:
    """Point-index maps under the square's symmetries and the ring swap that keep every mill."""
    _, mills = geometry(diagonals)
    mill_set = set(mills)
    out = []
    for swap in (False, True):
        for transpose in (False, True):
            for fx in (False, True):
                for fy in (False, True):
                    mapping = {}
                    for x, y in board_points():
                        u, v = (SWAP[x], SWAP[y]) if swap else (x, y)
                        u, v = (v, u) if transpose else (u, v)
                        mapping[name(x, y)] = name(6 - u if fx else u, 6 - v if fy else v)
                    if {frozenset(mapping[p] for p in m) for m in mills} == mill_set:
                        out.append([POINTS.index(mapping[p]) for p in POINTS])
    return out


def names(bits: int) -> list[str]:
    return [p for i, p in enumerate(POINTS) if bits >> i & 1]


class ReferenceSolver:
    """solve(a, b) sets self.value[(mover, other)] = ('W' | 'L', distance) or ('D', None) for every
    canonical position of sections a-b and b-a; value_of() answers any position."""

    def __init__(self, rules: dict):
        self.rules = rules
        self.referee = Referee(rules)
        self.maps = grid_symmetries(rules["HasDiagonalLines"])
        self.value: dict[tuple[int, int], tuple[str, int | None]] = {}
        self._sets: dict[int, tuple[int, list]] = {}

    def apply(self, g: list[int], bits: int) -> int:
        out = 0
        while bits:
            low = bits & -bits
            out |= 1 << g[low.bit_length() - 1]
            bits ^= low
        return out

    def canonical(self, mover: int, other: int) -> tuple[int, int]:
        """The least (mover, other) image, the mover's set compared first."""
        if mover not in self._sets:
            images = [(self.apply(g, mover), g) for g in self.maps]
            least = min(i for i, _ in images)
            self._sets[mover] = (least, [g for i, g in images if i == least])
        least, maps = self._sets[mover]
        return least, min(self.apply(g, other) for g in maps)

    def value_of(self, mover: int, other: int):
        return self.value[self.canonical(mover, other)]

    def children(self, mover: int, other: int) -> list:
        """Each turn's child (canonical), or None when the opponent falls under three stones."""
        ref = self.referee
        ref.stones = {p: 0 for p in names(mover)}
        ref.stones.update({p: 1 for p in names(other)})
        ref.hand, ref.side, ref.pending = [0, 0], 0, 0
        out = []
        for f, t, removed in ref.generate():
            own = mover ^ BIT[f] | BIT[t]
            opp = other
            for r in removed:
                opp ^= BIT[r]
            out.append(None if bin(opp).count("1") < 3 else self.canonical(opp, own))
        return out

    def solve(self, a: int, b: int) -> None:
        keys = set()
        for m, o in {(a, b), (b, a)}:
            for mv in combinations(range(24), m):
                mover = sum(1 << i for i in mv)
                if self.canonical(mover, 0)[0] != mover:
                    continue
                rest = [i for i in range(24) if i not in mv]
                for ot in combinations(rest, o):
                    keys.add(self.canonical(mover, sum(1 << i for i in ot)))
        self.solve_positions(keys)

    def solve_positions(self, keys) -> None:
        """Solve these canonical positions together: a class, or (in a test) a few positions whose
        turns out of the set lead to positions self.value already holds."""
        kids = {key: self.children(*key) for key in keys}
        parents: dict = {}
        count = dict.fromkeys(kids, 0)
        by_level: dict[int, list] = {}      # keys settled at each distance, each key once
        removal_wins: dict[int, list] = {}  # keys a removal wins by then at the latest
        known: dict = {}

        def settle(key, result, d):
            known[key] = (result, d)
            by_level.setdefault(d, []).append(key)

        for key, children in kids.items():
            values = []
            for child in children:
                if child is None:
                    values.append(("L", 0))
                elif child in kids:
                    parents.setdefault(child, []).append(key)
                    count[key] += 1
                else:
                    values.append(self.value[child])
            key_lower = values
            wins = [d + 1 for r, d in values if r == "L"]
            if wins:
                removal_wins.setdefault(min(wins), []).append(key)
            elif not children:
                if self.rules["StalemateAction"] == 0:
                    settle(key, "L", 0)
                else:
                    known[key] = ("D", None)
            elif count[key] == 0 and all(r == "W" for r, _ in key_lower):
                settle(key, "L", max(d for _, d in key_lower) + 1)
            count[key] = (count[key], key_lower)
        d = 0
        while d <= max([*by_level, *removal_wins], default=0):
            # A removal's win is settled at its level unless a same-class turn won sooner or as soon,
            # so settle() is the only way into by_level and a key passes its value on once. Queued in
            # by_level itself, a key also settled there through a same-class turn was passed on
            # twice: two turns off each parent's count for one, and parents lost while a turn still
            # drew or won slower (7,809 positions of twelve's 4-3).
            for key in removal_wins.get(d, []):
                if key not in known:
                    settle(key, "W", d)
            for key in by_level.get(d, []):
                for parent in parents.get(key, []):
                    if parent in known:
                        continue
                    if d % 2 == 0:
                        settle(parent, "W", d + 1)
                        continue
                    left, lower = count[parent]
                    count[parent] = (left - 1, lower)
                    if left == 1 and all(r == "W" for r, _ in lower):
                        settle(parent, "L", max([d + 1] + [x + 1 for _, x in lower]))
            d += 1
        for key in kids:
            self.value[key] = known.get(key, ("D", None))
