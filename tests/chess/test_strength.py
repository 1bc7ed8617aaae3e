"""The strength limit's arithmetic: node budgets that follow the calibration rows and the clock,
and the Skill's choice among lines (engine/play/strength.py)."""
import random

import pytest

from pyrope.play.result import Score, SearchLine
from pyrope.play.strength import CALIBRATION, LINES, MAX_ELO, MAX_WEAKNESS, MIN_ELO, REFERENCE_MS, Skill


@pytest.mark.parametrize("elo, nodes, weakness, exponent, fade, cap_ms", CALIBRATION)
def test_each_calibration_row_is_met_exactly(elo, nodes, weakness, exponent, fade, cap_ms):
    skill = Skill(elo)
    assert skill.nodes == Skill(elo, REFERENCE_MS).nodes == nodes and skill.weakness == weakness
    assert skill.cap_ms == cap_ms >= 4 * REFERENCE_MS
    # Four times the time: the budget times 4 ** exponent, the weakness less by two fades.
    four = Skill(elo, 4 * REFERENCE_MS)
    assert four.nodes == pytest.approx(nodes * 4 ** exponent, rel=1e-3)
    assert four.weakness == round(weakness - 2 * fade)


def test_budgets_rise_and_weakness_falls_with_the_level_and_with_the_time():
    levels = range(MIN_ELO, MAX_ELO + 1, 50)
    for move_ms in (30, REFERENCE_MS, 431, 2600):
        budgets = [Skill(elo, move_ms).nodes for elo in levels]
        weaknesses = [Skill(elo, move_ms).weakness for elo in levels]
        assert budgets == sorted(budgets) and weaknesses == sorted(weaknesses, reverse=True)
    for elo in levels:
        times = [Skill(elo, ms) for ms in (10, REFERENCE_MS, 1000, 10000)]
        budgets, weaknesses = [skill.nodes for skill in times], [skill.weakness for skill in times]
        assert budgets == sorted(budgets) and budgets[0] >= 1
        assert weaknesses == sorted(weaknesses, reverse=True) and 0 <= min(weaknesses) <= max(weaknesses) <= MAX_WEAKNESS


def test_the_setting_stops_following_the_time_past_the_levels_cap():
    # The top level's budget grows with the time, the bottom level's weakness falls with it; each
    # stops at its level's cap, and a level between two rows has a cap between theirs.
    top, bottom = Skill(MAX_ELO), Skill(MIN_ELO)
    capped = round(top.nodes * (top.cap_ms / REFERENCE_MS) ** top.exponent)
    assert Skill(MAX_ELO, top.cap_ms // 2).nodes < Skill(MAX_ELO, top.cap_ms).nodes == capped
    assert Skill(MAX_ELO, 2 * top.cap_ms).nodes == Skill(MAX_ELO, 60_000).nodes == capped
    assert bottom.fade > 0 and Skill(MIN_ELO, bottom.cap_ms // 2).weakness > Skill(MIN_ELO, bottom.cap_ms).weakness
    assert Skill(MIN_ELO, 60_000).weakness == Skill(MIN_ELO, bottom.cap_ms).weakness
    for low, high in zip(CALIBRATION, CALIBRATION[1:]):
        middle = Skill((low[0] + high[0]) // 2).cap_ms
        assert min(low[5], high[5]) <= middle <= max(low[5], high[5])


def test_levels_out_of_range_take_the_nearest_end():
    assert Skill(MIN_ELO - 500).nodes == Skill(MIN_ELO).nodes
    assert Skill(MAX_ELO + 500).nodes == Skill(MAX_ELO).nodes


def test_only_a_level_that_errs_searches_several_lines():
    assert Skill(MIN_ELO).lines == LINES and Skill(MAX_ELO).lines == 1


def test_a_weak_level_sometimes_plays_a_worse_line_but_never_walks_into_mate():
    lines = [SearchLine(["e2e4"], Score(cp=50)), SearchLine(["d2d4"], Score(cp=30)),
             SearchLine(["c2c4"], Score(cp=20)), SearchLine(["f2f3"], Score(mate=-2))]
    rng = random.Random(1)
    for move_ms in (None, 1, Skill(MIN_ELO).cap_ms):     # the weakest setting (the shortest time) too
        weak = [Skill(MIN_ELO, move_ms).choose(lines, rng).pv[0] for _ in range(500)]
        assert {"e2e4", "d2d4"} <= set(weak) and "f2f3" not in weak
    assert {Skill(MAX_ELO).choose(lines, rng).pv[0] for _ in range(100)} == {"e2e4"}
