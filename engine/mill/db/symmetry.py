"""The board symmetries that hold under a rule set: of the square's eight and the swap of the inner and
outer rings (16 candidates), those that map every line of the rules onto a line."""
from __future__ import annotations

from ..geometry import INDEX, POINTS

_RING_SWAP = {0: 2, 2: 0, 4: 6, 6: 4, 1: 1, 3: 3, 5: 5}   # grid coordinate of the outer ring <-> inner


def _square(x: int, y: int, k: int) -> tuple[int, int]:
    """The k-th of the square's eight symmetries on the 7x7 grid (k 0: identity)."""
    if k & 4:
        x, y = y, x
    if k & 2:
        y = 6 - y
    if k & 1:
        x = 6 - x
    return x, y


def candidates() -> list[tuple[int, ...]]:
    """The 16 point permutations, identity first: perm[i] is where point i goes."""
    perms = []
    for swap in (False, True):
        for k in range(8):
            perm = []
            for name in POINTS:
                x, y = "abcdefg".index(name[0]), int(name[1]) - 1
                if swap:
                    x, y = _RING_SWAP[x], _RING_SWAP[y]
                x, y = _square(x, y, k)
                perm.append(INDEX["abcdefg"[x] + str(y + 1)])
            perms.append(tuple(perm))
    return perms


def symmetries(lines) -> list[tuple[int, ...]]:
    """The candidates that keep the set of lines (and so adjacency and mills), identity first."""
    line_set = {frozenset(line) for line in lines}
    return [perm for perm in candidates() if {frozenset(perm[p] for p in line) for line in line_set} == line_set]
