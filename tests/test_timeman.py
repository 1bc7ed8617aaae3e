"""Time allocation pinned with numbers: Glaurung 2.2's formulas, overhead and safety margin."""
import pytest

from pyrope.timeman import SAFETY_MS, Limits, allocate, glaurung_budget


@pytest.mark.parametrize("left, inc, mtg, expected", [
    (60_000, 0, 0, (1500, 7500)),          # sudden death: t/40, t/8
    (60_000, 1000, 0, (3000, 15000)),      # increment: t/30 + i, max(t/4, i - 100)
    (1000, 2000, 0, (2033, 1900)),         # increment larger than the clock: i - 100 wins
    (60_000, 0, 40, (3000, 6000)),         # moves to go: t/min(m, 20), min(4t/m, t/3)
    (60_000, 0, 10, (6000, 20000)),
    (60_000, 0, 1, (30000, 30000)),        # last move of the period: t/2, min(t/2, t - 500)
    (800, 0, 1, (400, 300)),
])
def test_glaurung_budget(left, inc, mtg, expected):
    assert glaurung_budget(left, inc, mtg) == expected


def test_clock_budget_subtracts_overhead_and_never_exceeds_the_clock():
    budget = allocate(Limits(wtime=10_000, btime=5_000, winc=100, binc=100), True, move_overhead=30)
    usable = 10_000 - 30 - SAFETY_MS
    assert budget.hard_ms == max(usable // 4, 0)
    assert budget.soft_ms == (usable // 30 + 100) * 80 // 128
    tiny = allocate(Limits(wtime=10, btime=10), True, move_overhead=30)
    assert tiny.hard_ms == 1 and tiny.soft_ms == 1


def test_black_uses_its_own_clock():
    limits = Limits(wtime=100_000, btime=4_000)
    assert allocate(limits, False, 0).hard_ms == (4_000 - SAFETY_MS) // 8


@pytest.mark.parametrize("limits, expected", [
    (Limits(movetime=500), (470, 470)),
    (Limits(infinite=True, wtime=1000, btime=1000), (0, 0)),
    (Limits(depth=5), (0, 0)),
    (Limits(nodes=1000), (0, 0)),
])
def test_fixed_and_unlimited_searches(limits, expected):
    budget = allocate(limits, True, move_overhead=30)
    assert (budget.soft_ms, budget.hard_ms) == expected
