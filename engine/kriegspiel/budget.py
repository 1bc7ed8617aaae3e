"""One move's thinking for the Kriegspiel players: what a `go` allows (a time per move, a clock, a
node budget: play.timeman.Limits, as for chess) and how a move's time is spent across its tries.

A Kriegspiel move may take several tries -- the referee refuses one and the player tries again --
and the clock runs for the move, not the try. The move's time is the chess time manager's
(play.timeman.plan_move: a fixed time less Move Overhead; on a clock t/30 plus the increment, t/40
in sudden death, never more than a safe share of what is left, Move Overhead and a margin taken
off first). Each try may spend half of the move's time still left (TRY_SHARE): the first try half
of it, a second a quarter, and so on, so no number of tries overruns the move, and the tries
after a refusal -- 37% of all tries in maximax-MCTS games, each searched anew from a metaposition
that knows more -- still get time. What a try leaves unspent goes to the move's later tries, and
what the move leaves stays on the clock. A node budget (`go nodes`) is the search's for each try.
"""
from __future__ import annotations

import time
from typing import Optional

from ..play.timeman import DEFAULT_MOVE_OVERHEAD_MS, Limits, plan_move

TRY_SHARE = 0.5         # of the move's time left, what one try may spend


class MoveBudget:
    """The limits of one move, made as it begins (before its first try) for the side `white`."""

    def __init__(self, limits: Optional[Limits] = None, white: bool = True,
                 move_overhead_ms: int = DEFAULT_MOVE_OVERHEAD_MS) -> None:
        self.limits = limits or Limits()
        plan = plan_move(self.limits, white, move_overhead_ms)
        self.deadline = None if plan is None else time.monotonic() + plan.max_time / 1000.0
        self.nodes = self.limits.nodes or None

    def seconds(self) -> Optional[float]:
        """This try's time: TRY_SHARE of the move's time left (0 once it is spent); None without
        a time limit."""
        if self.deadline is None:
            return None
        return TRY_SHARE * max(0.0, self.deadline - time.monotonic())

    def search(self, own_nodes: int) -> tuple[Optional[int], Optional[float]]:
        """(nodes, seconds) for this try's search: the budget's nodes if it gives them; else a
        player's own `own_nodes` when no time is given, and no node limit (None) when it is --
        time alone then decides, however long."""
        seconds = self.seconds()
        return self.nodes or (own_nodes if seconds is None else None), seconds
