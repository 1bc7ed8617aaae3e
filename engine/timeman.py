"""Time allocation: how long to think about one move, from the clock the GUI sends.

Glaurung 2.2's budget (the numbers of its `get_search_time`):
  sudden death, t ms left:   max_time = t/40,          absolute_max = t/8
  with increment i:          max_time = t/30 + i,      absolute_max = max(t/4, i - 100)
  m moves to the control:    max_time = t/min(m, 20),  absolute_max = min(4t/m, t/3)
  one move to the control:   max_time = t/2,           absolute_max = min(t/2, t - 500)
The search does not start a new iteration after max_time * 80/128 (the soft limit) and aborts at
absolute_max (the hard limit). Move Overhead and a safety margin come off the clock first, so
that the engine never flags because of its own latency.
"""
from __future__ import annotations

from dataclasses import dataclass, field

SAFETY_MS = 20          # pipe and scheduling latency beyond what Move Overhead covers
MINIMUM_MS = 1          # even with no time left, think a moment and move


@dataclass
class Limits:
    """What a `go` asked for; None or 0 means no such limit."""
    wtime: int | None = None
    btime: int | None = None
    winc: int = 0
    binc: int = 0
    movestogo: int = 0
    depth: int = 0
    nodes: int = 0
    mate: int = 0
    movetime: int = 0
    infinite: bool = False
    searchmoves: list[str] = field(default_factory=list)

    def uses_clock(self) -> bool:
        return self.wtime is not None or self.btime is not None


@dataclass
class Budget:
    soft_ms: int    # no new iteration after this
    hard_ms: int    # abort the search here


def glaurung_budget(time_left: int, increment: int, moves_to_go: int) -> tuple[int, int]:
    """(max_time, absolute_max) in ms, Glaurung 2.2's formulas."""
    t, i, m = time_left, increment, moves_to_go
    if m == 1:
        return t // 2, min(t // 2, t - 500)
    if m > 1:
        return t // min(m, 20), min(4 * t // m, t // 3)
    if i > 0:
        return t // 30 + i, max(t // 4, i - 100)
    return t // 40, t // 8


def allocate(limits: Limits, white_to_move: bool, move_overhead: int) -> Budget:
    """Soft and hard limits in ms for this move (0 = none)."""
    if limits.infinite:
        return Budget(0, 0)
    if limits.movetime > 0:
        hard = max(MINIMUM_MS, limits.movetime - move_overhead)
        return Budget(hard, hard)
    if not limits.uses_clock():
        return Budget(0, 0)
    clock = limits.wtime if white_to_move else limits.btime
    increment = limits.winc if white_to_move else limits.binc
    usable = max(0, (clock or 0) - move_overhead - SAFETY_MS)
    max_time, absolute_max = glaurung_budget(usable, max(0, increment), max(0, limits.movestogo))
    # Never plan beyond what is on the clock, however the formulas come out.
    hard = max(MINIMUM_MS, min(absolute_max, usable))
    soft = max(MINIMUM_MS, min(max_time * 80 // 128, hard))
    return Budget(soft, hard)
