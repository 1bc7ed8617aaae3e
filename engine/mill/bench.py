"""`pyrope mill bench`: search fixed Mill positions to a fixed depth and report nodes and speed.

The node count is the Mill search's signature: deterministic (one thread, a cleared table per
position), it changes only when the search's behaviour changes.
"""
from __future__ import annotations

import time
from typing import Callable

from .. import console
from ..play.bench import write_totals
from .board import MillBoard
from .search import MillSearcher

DEFAULT_DEPTH = 9

# (variant, FEN): starts, placement, moving and flying phases, from seeded random games.
POSITIONS = [
    ("nine", ".../.../.../....../.../.../... w 9 9 0 0 1"),
    ("nine", "..O/.O./.../.@..../.O./@@@/... w 5 5 0 0 9"),
    ("nine", ".OO/@O./.O./.@@@@O/..@/@O./O.O w 0 0 0 0 19"),
    ("nine", ".../.../.../@...../@.@/..O/OOO b 0 0 0 0 88"),
    ("nine", ".../.../@../.O@O../@O./.../... w 0 0 0 0 165"),
    ("twelve", ".../.../.../....../.../.../... w 12 12 0 0 1"),
    ("twelve", "@.O/..O/.@@/@..O@./..O/OO./..@ w 6 6 0 0 13"),
    ("twelve", "@@@/@.@/OOO/@.OO.O/@O./@O@/@O. w 0 0 0 0 25"),
    ("lasker", "..O/@@@/O../....@O/.O./.@./.O@ w 3 4 0 0 15"),
    ("morabaraba", "O@./O@./.OO/@O@..O/.@O/O.@/@.. w 4 4 0 0 17"),
]


def run_bench(write: Callable[[str], None], depth: int = DEFAULT_DEPTH, hash_mb: int = 16,
              algorithm: str = "pvs") -> int:
    """Search every position to `depth` with a cleared table; print and return the node total."""
    searcher = MillSearcher(hash_mb=hash_mb, algorithm=algorithm)
    write = console.above_progress(write)
    nodes = 0
    elapsed = 0.0
    for number, (variant, fen) in enumerate(console.progress(POSITIONS, desc="mill bench", unit="position",
                                                             leave=False), 1):
        board = MillBoard(fen, variant=variant)
        searcher.new_game()     # each position starts cold, so the count does not depend on the order
        start = time.perf_counter()
        result = console.interruptible(lambda: searcher.search(board, depth=depth), searcher.stop)
        elapsed += time.perf_counter() - start
        write(f"Position {number}/{len(POSITIONS)}: {variant} {fen}  bestmove {result.move}  nodes {result.nodes}")
        nodes += result.nodes
    write_totals(write, nodes, elapsed)
    return nodes
