"""Darkboard 2.0's Monte Carlo tree search player (pyrope.kriegspiel.mcts, ext/kriegspiel_mcts.pxi;
issue 16 item 3, approach C of thesis 5.8): the search spends its budget of metapositions, is
deterministic, saves a man in danger, takes what surely stands on a square its pawn attacks, and
in whole games tries only what it cannot rule out, never a refused try again, and converts
against the random player."""
import chess
import pytest

from test_kriegspiel_players import fair_seeded_wins

from pyrope._kriegspiel import Mcts
from pyrope.kriegspiel.endgame import packed
from pyrope.kriegspiel.mcts import MctsPlayer
from pyrope.kriegspiel.metaposition import Metaposition
from pyrope.kriegspiel.roster import builtin

FAST = {"positions": 600}


def move(uci: str) -> int:
    return packed(chess.Move.from_uci(uci))


def test_the_search_is_deterministic_and_spends_its_budget():
    meta = Metaposition(chess.STARTING_FEN, chess.WHITE)
    moves = sorted(meta.core.pseudomoves(False))
    search = Mcts()
    first = search.best(meta.core, moves, [False] * len(moves), 3000)
    assert first[0] in moves and search.positions >= 3000 and search.nodes > 10
    assert search.best(meta.core, moves, [False] * len(moves), 3000) == first
    assert search.best(meta.core, [], []) is None


def test_the_search_saves_a_queen_two_pawns_attack():
    meta = Metaposition("4k3/pp5p/8/2p1p3/3Q4/8/8/4K3 w - - 0 1", chess.WHITE)
    moves = sorted(meta.core.pseudomoves(False))
    found, _ = Mcts().best(meta.core, moves, [False] * len(moves), 2000)
    assert found & 63 == chess.D4


def test_a_pawn_takes_the_queen_that_surely_stands_on_its_square():
    """Pawn tries are announced and the enemy queen is known on d5: exd5 is legal and takes it."""
    meta = Metaposition("4k3/8/8/3q4/4P3/8/8/4K3 w - - 0 1", chess.WHITE)
    moves = sorted(meta.core.pseudomoves(True))
    assert move("e4d5") in moves
    found, _ = Mcts().best(meta.core, moves, [False] * len(moves), 2000)
    assert found == move("e4d5")


@pytest.mark.parametrize("bad", [{"exploration": -1.0}, {"alpha": 0.0}, {"alpha": 1.0}])
def test_bad_settings_are_refused(bad):
    with pytest.raises(ValueError):
        Mcts(**bad)


def test_bad_arguments_to_the_search_are_refused():
    meta = Metaposition(chess.STARTING_FEN, chess.WHITE)
    with pytest.raises(ValueError, match="bad move"):
        Mcts().best(meta.core, [1 << 20], [False])
    with pytest.raises(ValueError, match="positions"):
        Mcts().best(meta.core, [move("e2e4")], [False], 0)


def test_the_player_takes_its_settings_from_the_builtin_table():
    player = builtin("mcts", "x", positions=123, exploration=10, endgame=0)
    assert isinstance(player, MctsPlayer) and player.positions == 123


def test_games_against_the_random_player_are_fair_seeded_and_mostly_won():
    """As the maximax player's test: only tries it cannot rule out, never a refused one twice, the
    same seed the same game, and most games won at a small budget."""
    assert fair_seeded_wins("mcts", **FAST) >= 4
