"""The strength limit's arithmetic: node budgets that follow the calibration rows and the clock,
and the Skill's choice among lines (engine/play/strength.py)."""
import random

import pytest

from pyrope.play.result import Score, SearchLine
from pyrope.play.strength import CALIBRATION, LINES, MAX_ELO, MIN_ELO, REFERENCE_MS, TIME_CAP_MS, Skill


@pytest.mark.parametrize("elo, nodes, weakness, exponent", CALIBRATION)
def test_each_calibration_row_is_met_exactly(elo, nodes, weakness, exponent):
    skill = Skill(elo)
    assert skill.nodes() == skill.nodes(REFERENCE_MS) == nodes and skill.weakness == weakness
    # Four times the time: the budget times 4 ** exponent.
    assert skill.nodes(4 * REFERENCE_MS) == pytest.approx(nodes * 4 ** exponent, rel=1e-3)


def test_budgets_rise_with_the_level_and_with_the_time():
    levels = range(MIN_ELO, MAX_ELO + 1, 50)
    for move_ms in (30, REFERENCE_MS, 431, 2600):
        budgets = [Skill(elo).nodes(move_ms) for elo in levels]
        assert budgets == sorted(budgets)
    for elo in levels:
        times = [Skill(elo).nodes(ms) for ms in (10, REFERENCE_MS, 1000, 10000)]
        assert times == sorted(times) and times[0] >= 1


def test_the_budget_stops_growing_past_the_time_cap():
    # The top level (its budget grows with the time) gets its budget at TIME_CAP_MS and no more.
    skill = Skill(MAX_ELO)
    capped = round(skill.nodes() * (TIME_CAP_MS / REFERENCE_MS) ** skill.exponent)
    assert skill.nodes(TIME_CAP_MS // 2) < skill.nodes(TIME_CAP_MS) == capped
    assert skill.nodes(2 * TIME_CAP_MS) == skill.nodes(60_000) == capped


def test_levels_out_of_range_take_the_nearest_end():
    assert Skill(MIN_ELO - 500).nodes() == Skill(MIN_ELO).nodes()
    assert Skill(MAX_ELO + 500).nodes() == Skill(MAX_ELO).nodes()


def test_only_a_level_that_errs_searches_several_lines():
    assert Skill(MIN_ELO).lines == LINES and Skill(MAX_ELO).lines == 1


def test_a_weak_level_sometimes_plays_a_worse_line_but_never_walks_into_mate():
    lines = [SearchLine(["e2e4"], Score(cp=50)), SearchLine(["d2d4"], Score(cp=30)),
             SearchLine(["c2c4"], Score(cp=20)), SearchLine(["f2f3"], Score(mate=-2))]
    rng = random.Random(1)
    weak = [Skill(MIN_ELO).choose(lines, rng).pv[0] for _ in range(500)]
    assert {"e2e4", "d2d4"} <= set(weak) and "f2f3" not in weak
    assert {Skill(MAX_ELO).choose(lines, rng).pv[0] for _ in range(100)} == {"e2e4"}
