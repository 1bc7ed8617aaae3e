"""The search's tunable parameters (ext/search_params.pxi, issue 62 item 4): the table and its
refusals, each parameter moving the search it names, defaults restoring it node for node, and a
search with every margin at an extreme still answering legal moves (python-chess judges)."""
import chess
import pytest

import pyrope
from pyrope import _core
from pyrope._core import Search
from pyrope.play.bench import POSITIONS

MIDDLEGAME = "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QKB1R w KQ - 0 8"


@pytest.fixture(autouse=True)
def defaults():
    yield
    _core.set_search_params(_core.default_search_params())


def nodes(fen: str = MIDDLEGAME, depth: int = 9) -> int:
    return Search(threads=1, hash_mb=16).run(pyrope.Board(fen), depth=depth)["nodes"]


def test_the_table_and_its_refusals():
    defaults = _core.default_search_params()
    assert list(defaults) == _core.search_param_names() and _core.search_params() == defaults
    assert defaults["lmr_base"] == 75 and defaults["aspiration_delta"] == 25
    for bad, says in (({"no_such": 1}, "unknown search parameter 'no_such'"),
                      ({"nmp_eval_divisor": 0}, "within 1..1048576, not 0"),
                      ({"rfp_depth": 65}, "within 1..64, not 65"),
                      ({"aspiration_delta": 1}, "within 2..1048576, not 1"),
                      ({"razor_margin": 2.5}, "not 2.5"), ({"lmp_base": True}, "not True"),
                      ({"rfp_margin": 60, "futility_base": -1}, "'futility_base' needs an integer within 0..")):
        with pytest.raises(ValueError, match=says):
            _core.set_search_params(bad)
        assert _core.search_params() == defaults      # nothing changed, not even the valid half


def test_every_parameter_moves_the_search_and_the_defaults_restore_it():
    """Each parameter, doubled (or halved, or one more, or at its lowest, where the change before
    leaves the tree alone), changes the node count of fixed-depth searches of bench positions;
    back at its default, the count is the default's again, exactly."""
    positions = POSITIONS[:6]
    before = [nodes(fen, 8) for fen in positions]
    unmoved = []
    for name, default in _core.default_search_params().items():
        lowest = _core.search_param_limits()[name][0]
        # Last, the lowest value: the history terms matter only where the histories have grown.
        for value in (default * 2, default // 2, default + 1, lowest):
            if value < lowest:
                continue
            _core.set_search_params({name: value})
            moved = [nodes(fen, 8) for fen in positions] != before
            _core.set_search_params({name: default})
            if moved:
                break
        else:
            unmoved.append(name)
    assert unmoved == []
    assert [nodes(fen, 8) for fen in positions] == before


def test_extreme_settings_still_play_legal_moves():
    limits = _core.search_param_limits()
    extremes = [{name: low for name, (low, _) in limits.items()},
                {name: min(high, 100000) for name, (_, high) in limits.items()}]
    for values in extremes:
        _core.set_search_params(values)
        for fen in POSITIONS[:12]:
            result = Search(threads=1, hash_mb=16).run(pyrope.Board(fen), depth=7)
            board = chess.Board(fen)
            assert chess.Move.from_uci(result["move"]) in board.legal_moves, (values, fen)
            for move in result["pv"]:
                assert chess.Move.from_uci(move) in board.legal_moves
                board.push_uci(move)
