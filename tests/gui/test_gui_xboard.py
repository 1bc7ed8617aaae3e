"""xboard, the real GUI under Xvfb, plays Pyrope against Fairy-Max: Pyrope speaking CECP itself and
Pyrope speaking UCI through Polyglot (xboard's -fUCI). Two games each at 10 s + 0.1 s; the saved
PGN is read back with python-chess and xboard's debug log is searched for engine errors. Skipped
when xboard, Xvfb, Fairy-Max or Polyglot is missing (bench/install_gui_peers.sh installs them).
The engine is tests/support/engine_command.py's, so this also runs against the built executable."""
from __future__ import annotations

import pytest

from engine_command import PYROPE
from gui_games import problems, read_games, reason_of
from gui_support import missing_programs, start_gui, stop_gui, virtual_display, wait_until
from xboard_gui import PROGRAMS, XboardMatch

GAMES = 2
MATCH_TIMEOUT = 900     # seconds; two games take about 40-60 s here. A hang guard, not a measure.

pytestmark = [pytest.mark.skipif(bool(missing_programs(*PROGRAMS)),
                                 reason=f"needs {', '.join(missing_programs(*PROGRAMS))} "
                                        "(Debian: bash bench/install_gui_peers.sh)"),
              pytest.mark.xdist_group("gui")]      # one GUI at a time: timed games under Xvfb


@pytest.fixture(scope="module")
def display():
    with virtual_display() as name:
        yield name


@pytest.mark.parametrize("protocol", ["cecp", "uci"])
def test_xboard_plays_pyrope_against_fairymax(display, tmp_path, protocol):
    match = XboardMatch(tmp_path, protocol)
    xboard = start_gui(match.command(PYROPE, games=GAMES), display, home=tmp_path,
                       log=tmp_path / "xboard.out", cwd=tmp_path)
    try:
        wait_until(lambda: xboard.poll() is not None, MATCH_TIMEOUT, f"xboard to finish the {protocol} match")
    finally:
        stop_gui(xboard)
    assert xboard.returncode == 0, (tmp_path / "xboard.out").read_text(errors="replace")[-2000:]

    games = read_games(match.games)
    assert len(games) == GAMES, f"{len(games)} games saved in {match.games}"
    assert {game.headers["White"].split()[0] for game in games} == {"Pyrope", "Fairy-Max"}, \
        "Pyrope played both colours"
    found = {f"game {number}": problems(game, "Pyrope", reason_of(game))
             for number, game in enumerate(games, 1)}
    assert not any(found.values()), found
    assert all(len(list(game.mainline_moves())) >= 2 for game in games)
    assert match.engine_errors() == []
