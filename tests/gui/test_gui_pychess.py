"""PyChess, the real GUI under Xvfb, with Pyrope installed as a UCI engine: its engine discovery
accepts Pyrope (UCI handshake, options recorded), and a one-minute game Pyrope - Fairy-Max started
from the New Game dialog (keys typed with xdotool) is played to the end and saved by PyChess. The
saved PGN is read back with python-chess; PyChess's log must hold no engine error. Skipped when
PyChess, Xvfb, xdotool or Fairy-Max is missing (bench/install_gui_peers.sh installs them). The
engine is tests/support/engine_command.py's, so this also runs against the built executable."""
from __future__ import annotations

import pytest

from engine_command import PYROPE
from gui_games import problems, read_games
from gui_support import missing_programs, virtual_display, wait_until
from pychess_gui import ENGINE_NAME, OPPONENT_NAME, PROGRAMS, PychessGame

GAME_TIMEOUT = 900      # seconds; a one-minute game takes about 2 minutes. A hang guard only.

pytestmark = [pytest.mark.skipif(bool(missing_programs(*PROGRAMS)),
                                 reason=f"needs {', '.join(missing_programs(*PROGRAMS))} "
                                        "(Debian: bash bench/install_gui_peers.sh)"),
              pytest.mark.xdist_group("gui")]      # one GUI at a time: timed games under Xvfb


@pytest.fixture(scope="module")
def pychess_game(tmp_path_factory):
    """Pyrope installed in a PyChess of its own, discovered once."""
    with virtual_display() as display:
        game = PychessGame(tmp_path_factory.mktemp("pychess-home"), display)
        game.install_engines(PYROPE)
        engine = game.discover()
        yield game, engine


def test_pychess_engine_discovery_accepts_pyrope(pychess_game):
    _, engine = pychess_game
    assert engine["protocol"] == "uci"
    options = {option["name"]: option for option in engine.get("options", [])}
    assert {"Hash", "Threads", "MultiPV", "UCI_Elo", "SyzygyPath"} <= set(options), sorted(options)
    assert options["UCI_Elo"]["min"] < options["UCI_Elo"]["max"]


def test_pychess_plays_a_game_with_pyrope_to_the_end(pychess_game):
    game, _ = pychess_game
    game.preset_new_game(minutes=1)
    pychess = game.start_game()
    reason = wait_until(game.end_reason, GAME_TIMEOUT, "the PyChess game to end")
    game.save_and_quit(pychess)

    games = read_games(game.saved_game)
    assert len(games) == 1, f"{len(games)} games in {game.saved_game}"
    saved = games[0]
    assert saved.headers["White"].startswith(ENGINE_NAME) and saved.headers["Black"] == OPPONENT_NAME
    assert problems(saved, ENGINE_NAME, reason) == []
    assert len(list(saved.mainline_moves())) >= 2
    assert game.engine_errors() == []
