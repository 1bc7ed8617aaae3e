"""Time management pinned with numbers: Glaurung 2.2's and Gerbil's formulas, the combined plan, and
the rules that stop or extend a search."""
import pytest

from pyrope.play.timeman import (DEFAULT_FACTORS, RESERVE_MAX_MS, SAFETY_MS, Limits, Plan, TimeFactors, TimeManager,
                                 factor_table, factors_from, gerbil_budget, glaurung_budget, make_clock, plan_move)


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


@pytest.mark.parametrize("left, inc, moves_left, expected", [
    (60_000, 1000, 0, (2450, 7350)),       # above the 31 s target: i + (t - target)/20, extra 3x
    (20_000, 2000, 0, (1000, 3000)),       # below the 32 s target: i - 1200 -> never under i/2
    (900_000, 0, 0, (30000, 90000)),       # no increment: t/30 above 10 minutes
    (120_000, 0, 0, (3000, 9000)),         # t/40 above one minute
    (30_000, 0, 0, (500, 1500)),           # t/60 below
    (10_000, 0, 0, (166, 0)),              # no emergency time under 20 s
    (60_000, 0, 10, (5714, 17142)),        # moves per period: 4t / (3m + 12)
    (60_000, 0, 1, (16000, 14000)),        # base + extra capped at t/2
])
def test_gerbil_budget(left, inc, moves_left, expected):
    assert gerbil_budget(left, inc, moves_left) == expected


def test_plan_for_blitz_takes_glaurung_target_and_no_emergency_time():
    # 10 s + 0.1 s: t = 10000 - 30 - 20 = 9950; Glaurung 331 + 100 and max(2487, 0);
    # Gerbil has no emergency time under 20 s.
    assert plan_move(Limits(wtime=10_000, btime=10_000, winc=100, binc=100), True, 30) == Plan(431, 2487, 0)


def test_plan_for_rapid_adds_gerbil_emergency_time():
    # 5 min + 3 s: t = 299950; Glaurung 9998 + 3000, max(74987, 2900); Gerbil base
    # 3000 + (299950 - 33000)/20 = 16347, extra 3 * 16347.
    limits = Limits(wtime=300_000, btime=300_000, winc=3000, binc=3000)
    assert plan_move(limits, True, 30) == Plan(12998, 74987, 49041)


def test_plan_caps_the_ceiling_at_half_the_clock():
    # An increment larger than the clock: Glaurung's i - 100 would spend 1900 of 3000 - 50 ms.
    plan = plan_move(Limits(wtime=3000, btime=3000, winc=2000, binc=2000), True, 30)
    assert plan.absolute_max == (3000 - 30 - SAFETY_MS) // 2
    assert plan.max_time <= plan.absolute_max


def test_an_increment_keeps_ten_of_itself_in_hand():
    """With an increment, t/30 + i spends the whole increment each move; without a reserve a long
    2s+0.02s game ran the clock down to ~0.09 s. The ceiling now leaves 10 increments (at most
    1 s) untouched, so the clock hovers above them, each move still getting about the increment."""
    def plan(clock: int, increment: int) -> Plan:
        return plan_move(Limits(wtime=clock, btime=clock, winc=increment, binc=increment), True, 30)

    assert plan(300, 20).absolute_max == 300 - 50 - 200                  # the reserve binds
    assert plan(200, 20) == Plan(1, 1, 0)                                 # under it: move at once
    assert plan(1900, 20).absolute_max == (1900 - 50) // 4               # far above it: Glaurung's t/4
    assert plan(1500, 0).absolute_max == (1500 - 50) // 8                # sudden death: no reserve
    assert plan(1200, 500).absolute_max == 1200 - 50 - RESERVE_MAX_MS     # at most a second
    clock = 2000
    for _ in range(300):                # a long game at 2s+0.02s, 10 ms lost a move to the pipe
        budget = plan(clock, 20)
        assert budget.absolute_max <= max(1, clock - 50 - 200)
        clock += 20 - budget.max_time - 10
    assert 250 <= clock <= 300          # hovering above the reserve, every move near the increment
    assert plan(clock, 20).max_time >= 5


def test_black_uses_its_own_clock():
    assert plan_move(Limits(wtime=100_000, btime=4_000), False, 0).absolute_max == (4_000 - SAFETY_MS) // 8


def test_an_empty_clock_still_gets_a_moment():
    assert plan_move(Limits(wtime=10, btime=10), True, 30) == Plan(1, 1, 0)


@pytest.mark.parametrize("limits, expected", [
    (Limits(movetime=500), Plan(470, 470, 0, fixed=True)),
    (Limits(infinite=True, wtime=1000, btime=1000), None),
    (Limits(depth=5), None),
    (Limits(nodes=1000), None),
])
def test_fixed_and_unlimited_searches(limits, expected):
    assert plan_move(limits, True, move_overhead=30) == expected


def clock(max_time=1000, absolute_max=5000, emergency=3000, **kwargs) -> TimeManager:
    return TimeManager(Plan(max_time, absolute_max, emergency, **kwargs))


def test_no_new_iteration_after_five_eighths_of_the_target():
    tm = clock()
    assert tm.hard_ms == 5000 and tm.check_ms == 1000
    assert not tm.iteration_done(3, 625, 0, 0.5, 20, 0)     # 1000 * 80/128 = 625
    assert tm.iteration_done(3, 626, 0, 0.5, 20, 0)


def test_best_move_changes_buy_extra_time_from_iteration_six():
    tm = clock()
    assert not tm.iteration_done(5, 100, 3, 0.5, 20, 0)
    assert tm.extra_time == 0                                # not before iteration 6
    assert not tm.iteration_done(6, 1000, 2, 0.5, 20, 0)    # 2 * 333 + 3 * 167 per mille = 1167 extra
    assert tm.extra_time == 1167 and tm.check_ms == 2167
    assert not tm.iteration_done(7, 833, 0, 0.5, 20, 0)     # 0 + 2 * 167: limit 1334 * 80/128
    assert tm.extra_time == 334
    assert tm.iteration_done(8, 834, 0, 0.5, 20, 0)         # 0 + 0: limit back to 625


def test_easy_move_stops_early():
    assert not clock().iteration_done(4, 100, 0, 0.99, 20, 0)     # not before iteration 5
    assert not clock().iteration_done(5, 63, 0, 0.90, 20, 0)      # max_time/16, 63 per mille, not passed
    assert clock().iteration_done(5, 64, 0, 0.90, 20, 0)
    assert not clock().iteration_done(5, 31, 0, 0.995, 20, 0)     # max_time/32 = 31
    assert clock().iteration_done(5, 32, 0, 0.995, 20, 0)
    assert not clock().iteration_done(5, 300, 0, 0.85, 20, 0)     # 85% is not more than 85%


def test_forced_moves_and_clear_mates_end_even_fixed_time_searches():
    fixed = clock(500, 500, 0, fixed=True)
    assert fixed.check_ms == 0 and not fixed.iteration_done(9, 400, 0, 0.99, 20, 0)
    assert fixed.iteration_done(2, 1, 0, 1.0, 1, 0)
    assert fixed.iteration_done(10, 1, 0, 1.0, 20, 3)              # mate in 3 plies, depth 10
    assert not fixed.iteration_done(9, 1, 0, 1.0, 20, -3)


def test_deadlines_abort_on_the_first_root_move_or_when_not_failing_high():
    tm = clock()
    assert tm.deadline(1001, 1, 0, 20) == 0                        # first root move past the target
    assert tm.deadline(1001, 7, 0, 20) == 1006                      # a later move: look again soon
    assert tm.deadline(6001, 7, 1, 20) == 6006                      # failing high: keep going
    assert tm.deadline(6001, 7, 0, 20) == 0                         # not failing high past 6x


def test_a_failing_root_gets_gerbil_emergency_time_unless_won_or_lost():
    tm = clock()
    assert tm.deadline(1001, 1, -1, 20) == 1001 + 1500             # half of the 3000 ms reserve
    assert tm.deadline(2502, 1, -1, 20) == 2502 + 750              # half of what is left
    assert tm.deadline(3253, 1, -1, 20) == 3253 + 750              # under a second: all of it
    assert tm.deadline(4004, 1, -1, 20) == 0                        # nothing left
    assert clock().deadline(1001, 1, 1, 500) == 0                   # a rook up: won, no extra
    assert clock().deadline(1001, 1, -1, -301) == 0                 # a minor down: lost, no extra


def test_a_ponder_search_never_stops_but_remembers_it_could_have():
    tm = TimeManager(Plan(1000, 5000, 0), pondering=True)
    assert not tm.iteration_done(8, 2000, 0, 0.5, 20, 0)
    assert tm.ponderhit() is True and not tm.pondering
    fresh = TimeManager(Plan(1000, 5000, 0), pondering=True)
    assert not fresh.iteration_done(3, 10, 0, 0.5, 20, 0)
    assert fresh.ponderhit() is False


def test_make_clock_follows_the_limits():
    assert make_clock(Limits(depth=4), True, 0) is None
    tm = make_clock(Limits(wtime=60_000, btime=60_000, ponder=True), True, 0)
    assert tm.pondering and tm.plan.max_time == (60_000 - SAFETY_MS) // 40


def test_the_factors_are_the_published_rules_and_a_table_sets_them():
    """The defaults are Glaurung's and Gerbil's numbers (the thirds, sixths, sixteenths and
    thirty-seconds per mille); a tuning table's time_ entries replace them, within their limits."""
    assert factor_table()["time_increment_target"] == 30 and factor_table()["time_next_iteration"] == 1000 * 80 // 128
    assert factors_from({"tempo_mg": 5}) == DEFAULT_FACTORS
    tuned = factors_from({"time_increment_target": 15, "time_emergency_multiple": 2, "lmr_base": 9})
    assert tuned == TimeFactors(increment_target=15, emergency_multiple=2)
    assert factors_from(factor_table(tuned)) == tuned
    with pytest.raises(ValueError, match="time_increment_ceiling = 1 is outside 2..100"):
        factors_from({"time_increment_ceiling": 1})


def test_tuned_factors_move_the_budget_and_the_stops():
    limits = Limits(wtime=300_000, btime=300_000, winc=3000, binc=3000)
    tuned = TimeFactors(increment_target=15, emergency_multiple=2)
    assert plan_move(limits, True, 30, tuned) == Plan(299950 // 15 + 3000, 74987, 2 * 16347)
    assert glaurung_budget(60_000, 0, 0, TimeFactors(sudden_death_target=20, sudden_death_ceiling=4)) == (3000, 15000)
    quick = TimeManager(Plan(1000, 5000, 0), factors=TimeFactors(next_iteration=500, easy_share=60, easy_time=10))
    assert quick.iteration_done(3, 501, 0, 0.5, 20, 0)                    # past 500 per mille
    assert TimeManager(Plan(1000, 5000, 0), factors=TimeFactors(easy_share=60, easy_time=10)).iteration_done(
        5, 11, 0, 0.61, 20, 0)                                           # an easy move by the tuned share and time
    patient = TimeManager(Plan(1000, 5000, 0), factors=TimeFactors(unresolved_multiple=3))
    assert patient.deadline(3001, 7, 0, 20) == 0                        # not failing high past 3x
    extra = TimeManager(Plan(1000, 5000, 0), factors=TimeFactors(change_extra=500, previous_change_extra=0))
    extra.iteration_done(6, 100, 2, 0.5, 20, 0)
    assert extra.extra_time == 1000
    clock = make_clock(limits, True, 30, factors=tuned)
    assert clock.factors == tuned and clock.plan.max_time == 299950 // 15 + 3000
