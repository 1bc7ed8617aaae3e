"""Time management: how long to think about one move, and when to stop, in pure Python.

One policy built from Glaurung 2.2's and Gerbil's rules, its numbers a TimeFactors table (the
defaults are the published rules; `pyrope tune` tunes them in clocked games by the names
FACTOR_NAMES gives). t is the clock left after Move Overhead and a safety margin (pipe and
scheduling latency) are taken off, so the engine never flags through its own overhead. With an
increment, a reserve of ten increments (at most a second) is never spent: t/30 + i a move runs
the clock down in a long game until only Move Overhead and the margin -- under 0.1 s at 2s+0.02s --
stand between a scheduling hiccup and a lost game. The reserve caps
the ceiling alone, so it binds only near the end of the clock, which then hovers above it, each
move getting about the increment as before.

The budget, fixed when the search starts:
  Glaurung (`glaurung_budget`): the target max_time and the ceiling absolute_max --
    sudden death: t/40 and t/8; increment i: t/30 + i and max(t/4, i - 100);
    m moves to go: t/min(m, 20) and min(4t/m, t/3); the last move of a period: t/2 and min(t/2, t - 500).
  Gerbil (`gerbil_budget`): a base time and emergency time -- with increment, a target reserve of
    max(i + 30 s, 6i); base = i + (t - target)/20 above it, i - (target - t)/10 below it, never
    under i/2; without increment t/30 above 10 min, t/40 above 1 min, t/60 below; m moves left:
    4t / (3m + 12). Base is capped at t/2; emergency extra = 3 * base (none under 20 s), and
    base + extra at most t/2.
  Which rule wins where: Glaurung's max_time is the target (Gerbil's increment rule keeps a 30 s
  reserve, which at blitz would leave almost nothing per move); the ceiling is Glaurung's
  absolute_max, never more than t/2 (Gerbil's cap) except on the last move of a period where
  Glaurung's own min(t/2, t - 500) applies; Gerbil's emergency extra is the only time given
  beyond Glaurung's deadlines, and only for a root that is failing high or low.
  When the GUI may ponder (UCI option Ponder, CECP `hard`), the target grows by a quarter.

While searching (`TimeManager`, called by the C search with the GIL):
  extra_time (Glaurung): from iteration 6, when the best move changed in the last two iterations,
    changes_this_iteration * max_time/3 + changes_previous_iteration * max_time/6, else 0 (the
    thirds and sixths as 333 and 167 per mille).
  At the end of an iteration, stop when (Glaurung) more than (max_time + extra_time) * 80/128 has
    passed -- the next iteration would not finish --, or on an easy move: from iteration 5 the best
    move holds > 85% of the nodes and max_time/16 (63 per mille) has passed, or > 99% and
    max_time/32 (31 per mille); also on the only legal move, or a mate found with depth to spare.
  During an iteration, abort (Glaurung) past absolute_max (the C search checks this itself), on
    the first root move past max_time + extra_time, or when not failing high past
    6 * (max_time + extra_time). When one of the last two fires while the root is failing high or
    low and the score is neither won nor lost (between -minor and +rook, Gerbil's test), Gerbil's
    emergency time moves the deadline instead: all of it when under a second is left, else half.
  Never before iteration 2 completes and never while pondering: the C search only consults the
  clock from iteration 2 on, and not at all until `ponderhit`. A ponder search that would have
  stopped by these rules stops at once on ponderhit.
Fixed time per move (`movetime`, xboard `st`) uses all the time (Gerbil) but stops early on the
only legal move or a clear mate; depth, nodes, mate and infinite searches have no clock at all.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Mapping

DEFAULT_MOVE_OVERHEAD_MS = 30   # Move Overhead's default: what a move costs beyond the search
SAFETY_MS = 20          # pipe and scheduling latency beyond what Move Overhead covers
RESERVE_INCREMENTS = 10 # with an increment, the clock kept in hand: ten increments ...
RESERVE_MAX_MS = 1000   # ... but at most a second
MINIMUM_MS = 1          # even with no time left, think a moment and move
ROOK_CP = 500           # Gerbil's "won" standard: no emergency time at or above a rook up
MINOR_CP = 300          # ... and none when a minor piece or more down ("dead lost")
EMERGENCY_FLOOR_MS = 20_000     # Gerbil keeps no emergency time with less than 20 s left
RECHECK_MS = 5          # how soon to look again when a deadline passed but no rule fired


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
    ponder: bool = False
    searchmoves: list[str] = field(default_factory=list)

    def uses_clock(self) -> bool:
        return self.wtime is not None or self.btime is not None


@dataclass(frozen=True)
class TimeFactors:
    """The rules' numbers, whole numbers so that SPSA can tune them; fractions of a time are per
    mille (the published rules' thirds, sixths and sixteenths rounded to the nearest one)."""
    sudden_death_target: int = 40       # Glaurung: max_time t/40 without increment ...
    sudden_death_ceiling: int = 8       # ... absolute_max t/8
    increment_target: int = 30          # with increment: max_time t/30 + i ...
    increment_ceiling: int = 4          # ... absolute_max max(t/4, i - 100)
    change_extra: int = 333             # extra time per best-move change this iteration, per mille of max_time ...
    previous_change_extra: int = 167    # ... and per change in the iteration before (Glaurung's 1/3 and 1/6)
    next_iteration: int = 625           # no new iteration past this share of max_time + extra (Glaurung's 80/128)
    easy_share: int = 85                # an easy move: the best move holds more than this % of the nodes ...
    easy_time: int = 63                 # ... and this per mille of max_time has passed (1/16) ...
    very_easy_share: int = 99           # ... or more than this % ...
    very_easy_time: int = 31            # ... and this per mille (1/32)
    unresolved_multiple: int = 6        # abort when not failing high past this many times max_time + extra
    emergency_multiple: int = 3         # Gerbil's emergency time: this many times its base time


DEFAULT_FACTORS = TimeFactors()
FACTOR_PREFIX = "time_"     # a factor's name in a tuning table: time_easy_share
FACTOR_NAMES = {FACTOR_PREFIX + name: name for name in DEFAULT_FACTORS.__dataclass_fields__}
# What keeps play sound whatever a tuner tries (by table name): the ceiling at most half the clock,
# shares and fractions within their scales.
FACTOR_LIMITS = {FACTOR_PREFIX + name: limits for name, limits in {
    "sudden_death_target": (4, 200), "sudden_death_ceiling": (2, 100), "increment_target": (4, 200),
    "increment_ceiling": (2, 100), "change_extra": (0, 2000), "previous_change_extra": (0, 2000),
    "next_iteration": (100, 1000), "easy_share": (50, 100), "easy_time": (0, 1000), "very_easy_share": (50, 100),
    "very_easy_time": (0, 1000), "unresolved_multiple": (1, 20), "emergency_multiple": (0, 10)}.items()}


def factor_table(factors: TimeFactors = DEFAULT_FACTORS) -> dict[str, int]:
    """The factors as a tuning table's entries (time_NAME = value)."""
    return {FACTOR_PREFIX + name: value for name, value in dataclasses.asdict(factors).items()}


def factors_from(table: Mapping[str, int]) -> TimeFactors:
    """The factors a tuning table's time_NAME entries give, every other at its default; a value
    outside FACTOR_LIMITS is a ValueError."""
    given = {name: value for name, value in table.items() if name in FACTOR_NAMES}
    for name, value in given.items():
        low, high = FACTOR_LIMITS[name]
        if not low <= value <= high:
            raise ValueError(f"{name} = {value} is outside {low}..{high}")
    return dataclasses.replace(DEFAULT_FACTORS, **{FACTOR_NAMES[name]: value for name, value in given.items()})


def glaurung_budget(time_left: int, increment: int, moves_to_go: int,
                    factors: TimeFactors = DEFAULT_FACTORS) -> tuple[int, int]:
    """(max_time, absolute_max) in ms, Glaurung 2.2's formulas."""
    t, i, m = time_left, increment, moves_to_go
    if m == 1:
        return t // 2, min(t // 2, t - 500)
    if m > 1:
        return t // min(m, 20), min(4 * t // m, t // 3)
    if i > 0:
        return t // factors.increment_target + i, max(t // factors.increment_ceiling, i - 100)
    return t // factors.sudden_death_target, t // factors.sudden_death_ceiling


def gerbil_budget(time_left: int, increment: int, moves_left: int,
                  factors: TimeFactors = DEFAULT_FACTORS) -> tuple[int, int]:
    """(base, extra) in ms, Gerbil's formulas: base is its normal time, extra its emergency time."""
    t, i = time_left, increment
    if moves_left > 0:
        base = 4 * t // (3 * moves_left + 12)
    elif i > 0:
        target = max(i + 30_000, 6 * i)
        base = i + (t - target) // 20 if t >= target else i - (target - t) // 10
        base = max(base, i // 2)
    elif t >= 600_000:
        base = t // 30
    elif t > 60_000:
        base = t // 40
    else:
        base = t // 60
    base = min(base, t // 2)
    extra = 0 if t < EMERGENCY_FLOOR_MS else factors.emergency_multiple * base
    extra = max(0, min(extra, t // 2 - base))
    return base, extra


@dataclass(frozen=True)
class Plan:
    """The budget of one move in ms: target, ceiling and emergency reserve."""
    max_time: int
    absolute_max: int
    emergency: int
    fixed: bool = False     # a fixed time per move: use all of it


def plan_move(limits: Limits, white_to_move: bool, move_overhead: int,
              factors: TimeFactors = DEFAULT_FACTORS) -> Plan | None:
    """The budget for this move, or None when the search has no clock (depth, nodes, infinite)."""
    if limits.infinite:
        return None
    if limits.movetime > 0:
        hard = max(MINIMUM_MS, limits.movetime - move_overhead)
        return Plan(hard, hard, 0, fixed=True)
    if not limits.uses_clock():
        return None
    clock = limits.wtime if white_to_move else limits.btime
    increment = max(0, limits.winc if white_to_move else limits.binc)
    moves_to_go = max(0, limits.movestogo)
    usable = max(0, (clock or 0) - move_overhead - SAFETY_MS)
    max_time, absolute_max = glaurung_budget(usable, increment, moves_to_go, factors)
    if moves_to_go != 1:
        absolute_max = min(absolute_max, usable // 2)
    # Never plan beyond what is on the clock, less the reserve, however the formulas come out.
    reserve = min(RESERVE_INCREMENTS * increment, RESERVE_MAX_MS)
    absolute_max = max(MINIMUM_MS, min(absolute_max, usable - reserve))
    max_time = max(MINIMUM_MS, min(max_time, absolute_max))
    _, emergency = gerbil_budget(usable, increment, moves_to_go, factors)
    return Plan(max_time, absolute_max, emergency)


class TimeManager:
    """The clock of one search. The C search reads `hard_ms` and `check_ms` (ms since the start,
    0 = none) and calls the methods below, with the GIL, at iteration ends and deadlines."""

    def __init__(self, plan: Plan, pondering: bool = False, factors: TimeFactors = DEFAULT_FACTORS) -> None:
        self.plan = plan
        self.factors = factors
        self.pondering = pondering
        self.hard_ms = plan.absolute_max
        self.extra_time = 0
        self.emergency_left = plan.emergency
        self.emergency_granted = 0
        self.previous_changes = 0
        self.satisfied = False      # a ponder search that would have stopped already
        self.check_ms = 0 if plan.fixed else self._deadline()

    def _deadline(self) -> int:
        # Both in-flight rules start at max_time + extra_time (the first-root-move rule); the
        # 6x rule can only fire later.
        return self.plan.max_time + self.extra_time + self.emergency_granted

    def iteration_done(self, depth: int, elapsed: int, best_move_changes: int, best_node_share: float,
                       legal_moves: int, mate_plies: int) -> bool:
        """Whether to stop after completing iteration `depth`. best_node_share is the fraction of
        the nodes spent on the best move, mate_plies the plies to a mate found (0: none)."""
        stop = self._iteration_rules(depth, elapsed, best_move_changes, best_node_share, legal_moves,
                                     mate_plies)
        self.previous_changes = best_move_changes
        if self.pondering:
            self.satisfied = self.satisfied or stop
            return False
        return stop

    def _iteration_rules(self, depth: int, elapsed: int, changes: int, share: float, legal_moves: int,
                         mate_plies: int) -> bool:
        if legal_moves == 1:
            return True         # a forced move needs no thought
        if mate_plies and depth >= 2 * abs(mate_plies) + 4:
            return True         # a mate seen this clearly will not change with more depth
        if self.plan.fixed:
            return False
        plan, factors = self.plan, self.factors
        if depth >= 6:
            self.extra_time = (changes * factors.change_extra
                               + self.previous_changes * factors.previous_change_extra) * plan.max_time // 1000
        self.check_ms = self._deadline()
        if elapsed > (plan.max_time + self.extra_time) * factors.next_iteration // 1000:
            return True
        if depth >= 5 and ((share > factors.easy_share / 100 and elapsed > plan.max_time * factors.easy_time // 1000)
                           or (share > factors.very_easy_share / 100
                               and elapsed > plan.max_time * factors.very_easy_time // 1000)):
            return True
        return False

    def deadline(self, elapsed: int, root_move_number: int, failing: int, score: int) -> int:
        """Called once elapsed >= check_ms, during an iteration. failing: +1 the root is failing
        high, -1 failing low, 0 neither. Returns the next check time, or 0 to abort now."""
        budget = self.plan.max_time + self.extra_time
        first_move_over = root_move_number == 1 and elapsed > budget + self.emergency_granted
        not_failing_high_over = (failing <= 0
                                 and elapsed > self.factors.unresolved_multiple * budget + self.emergency_granted)
        if not (first_move_over or not_failing_high_over):
            # An aspiration re-search starts the root moves again, so look again soon.
            self.check_ms = elapsed + RECHECK_MS
            return self.check_ms
        if failing and -MINOR_CP <= score < ROOK_CP and self.emergency_left > 0:
            grant = self.emergency_left if self.emergency_left < 1000 else self.emergency_left // 2
            self.emergency_left -= grant
            self.emergency_granted += grant
            self.check_ms = elapsed + grant
            return self.check_ms
        return 0

    def ponderhit(self) -> bool:
        """The opponent played the expected move: the clock starts now. True: stop at once."""
        self.pondering = False
        return self.satisfied


def make_clock(limits: Limits, white_to_move: bool, move_overhead: int, ponder_allowed: bool = False,
               factors: TimeFactors = DEFAULT_FACTORS) -> TimeManager | None:
    """The time manager for a `go`, or None when the search has no clock. When the GUI lets us
    ponder, part of each move's thinking happens on the opponent's time, so the target grows by a
    quarter (Stockfish's old Ponder rule), still within absolute_max."""
    plan = plan_move(limits, white_to_move, move_overhead, factors)
    if plan is None:
        return None
    if ponder_allowed and not plan.fixed:
        plan = dataclasses.replace(plan, max_time=min(plan.max_time + plan.max_time // 4, plan.absolute_max))
    return TimeManager(plan, pondering=limits.ponder, factors=factors)
