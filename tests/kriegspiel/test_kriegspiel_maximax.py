"""Darkboard 1.0's maximax player (pyrope.kriegspiel.maximax, ext/kriegspiel_maximax.pxi; issue 16
item 3): the umpire prediction of our move (4.4.2), power moves (4.3.3), an evaluation that sees
material in danger (4.5.1), both searches (4.4.3-4.4.4), and the player in whole games: it tries only
what it cannot rule out, never a refused try again, repeats a game from the same seed, avoids a
third placement of its men, and converts against the random player."""
import chess
import pytest

from test_kriegspiel_players import fair_seeded_wins

from pyrope._kriegspiel import Maximax
from pyrope.kriegspiel.endgame import packed
from pyrope.kriegspiel.maximax import MaximaxPlayer
from pyrope.kriegspiel.metaposition import Metaposition
from pyrope.kriegspiel.own import OwnBoard
from pyrope.kriegspiel.roster import builtin

# A small budget keeps whole games quick; the player's defaults are measured in bench/kriegspiel.py.
FAST = {"positions": 600}


def move(uci: str) -> int:
    return packed(chess.Move.from_uci(uci))


def meta_of(fen: str, color: chess.Color = chess.WHITE) -> Metaposition:
    return Metaposition(fen, color)


# --- The umpire's prediction and power moves ----------------------------------------------------

def test_our_move_is_predicted_legal_silent_and_capturing_only_where_a_man_surely_stands():
    # Black's pawn on a4 is known (the start shows it); b1 surely holds nothing.
    # (MetaCore.state()'s lists run PAWN..KING from index 0.)
    meta = meta_of("4k3/8/8/8/p7/8/8/R3K3 w - - 0 1")
    search = Maximax()
    took = search.pseudo(meta.core, move("a1a4")).state()
    assert took["captured"] == (1, 0) and took["possible"][chess.PAWN - 1] == 0
    quiet = search.pseudo(meta.core, move("a1b1")).state()
    assert quiet["captured"] == (0, 0) and quiet["possible"][chess.PAWN - 1] == chess.BB_A4
    # A power move is searched as the capture it hopes for, even where the man is not sure.
    meta.believe({chess.PAWN: chess.BB_A4 | chess.BB_A5}, meta.empty | chess.BB_A4 | chess.BB_A5)
    assert search.pseudo(meta.core, move("a1a4")).state()["captured"] == (0, 0)
    assert search.pseudo(meta.core, move("a1a4"), True).state()["captured"] == (1, 0)


def test_a_refused_slide_gives_the_power_move_to_the_farthest_square_that_may_hold_a_man():
    meta = meta_of("4k2n/8/8/8/p7/8/8/R3K3 w - - 0 1")     # the knight: the count allows one
    meta.believe({chess.PAWN: chess.BB_A3 | chess.BB_A5, chess.KNIGHT: chess.BB_A6})
    assert meta.core.power_move(move("a1a8")) == move("a1a6")
    assert meta.core.power_move(move("a1a5")) == move("a1a3")
    assert meta.core.power_move(move("a1a2")) == -1         # a single step: nothing between
    assert meta.core.power_move(move("e1e2")) == -1         # not a slider


# --- The evaluation and the search --------------------------------------------------------------

def test_a_man_attacked_by_men_seen_there_is_valued_as_in_danger():
    meta = meta_of("4k3/pp5p/8/2p1p3/3Q4/8/8/4K3 w - - 0 1")
    search = Maximax()
    attacked = search.evaluate(search.pseudo(meta.core, move("e1f1")), move("e1f1"))
    safe = search.evaluate(search.pseudo(meta.core, move("d4a1")), move("d4a1"))
    assert safe > attacked + 300


def test_a_pawn_that_may_stand_on_many_squares_of_its_file_endangers_each_less():
    """The density: Black's one d-pawn, believed on d5 alone, threatens our knight on e4 with the
    whole of its presence; believed anywhere on d3-d7, with the little of it the density puts on
    d5 (it keeps the pawn on d7, where the start showed it, until a move may have taken it away)."""
    search = Maximax()
    values = []
    for squares in (chess.BB_D5, chess.BB_D3 | chess.BB_D4 | chess.BB_D5 | chess.BB_D6 | chess.BB_D7):
        meta = meta_of("4k3/3p4/8/8/4N3/8/8/4K3 w - - 0 1")
        meta.believe({chess.PAWN: squares}, meta.empty | squares)
        values.append(search.evaluate(search.pseudo(meta.core, move("e1f1")), move("e1f1")))
    concentrated, spread = values
    assert spread > concentrated + 30


def test_a_pawn_taken_by_a_pawn_is_lost_whole_and_the_kings_open_lines_cost():
    """A pawn's capture is no gamble (the enemy is told of its pawn tries): a knight next to a
    surely-placed pawn keeps far less of its value than 0.6 of it at stake would leave. And the
    king's open lines: pushing the f-pawn, which opens the diagonal to h5, costs more than pushing
    the e-pawn while the enemy has its queen."""
    search = Maximax()
    meta = meta_of("4k3/8/3p4/8/8/8/8/4K1N1 w - - 0 1")
    hung = search.evaluate(search.pseudo(meta.core, move("g1e5")), move("g1e5"))
    kept = search.evaluate(search.pseudo(meta.core, move("g1f3")), move("g1f3"))
    assert kept - hung > 0.6 * 300
    meta = meta_of(chess.STARTING_FEN, chess.BLACK)
    plain = Maximax(king_lines=0)
    def lines_cost(uci):
        after = search.pseudo(meta.core, move(uci))
        return plain.evaluate(after, move(uci)) - search.evaluate(after, move(uci))
    assert lines_cost("f7f6") > lines_cost("e7e6") > lines_cost("b8c6") == 0.0


def stalemate_chance(fen: str, pawns: int, kings: int, uci: str) -> float:
    """The stalemate chance Maximax sees after our silent `uci`, Black's pawns and king believed
    anywhere on `pawns` and `kings`."""
    meta = meta_of(fen)
    meta.believe({chess.PAWN: pawns, chess.KING: kings}, meta.empty | pawns | kings)
    search = Maximax()
    search.evaluate(search.pseudo(meta.core, move(uci)), move(uci))
    return search.stalemated


def test_the_stalemate_test_leans_to_stalemate_where_a_possible_pawn_may_shield_or_be_stuck():
    """Journal games lost to stalemate (maximax vs random, games 111 and 401). Black's king on g8,
    its pawn on g4, g5 or g6: the queen on g3 checks g8 only if the pawn is not in the line -- it is,
    blocked by the queen, and every square around the king is covered: any quiet move but one that
    frees a square stalemates. Black's king on b7 beside its a-pawn, on a6 or a7: a6 is no square
    to go to if the pawn is stuck there (White's pawn on a5)."""
    g8 = "6k1/8/3N3Q/4p3/1Q2P1p1/3Q2Q1/6K1/1RB5 w - - 0 1"
    g_pawn = chess.BB_G4 | chess.BB_G5 | chess.BB_G6 | chess.BB_E5
    assert stalemate_chance(g8, g_pawn, chess.BB_G8 | chess.BB_E7, "d3b5") > 0.9
    assert stalemate_chance(g8, g_pawn, chess.BB_G8 | chess.BB_E7, "h6h5") == 0.0   # f8 is free
    b7 = "8/1k1B4/p1N5/P2RQ2Q/8/1P4P1/1B4P1/3QK1NQ w - - 0 1"
    a_pawn = chess.BB_A6 | chess.BB_A7
    assert stalemate_chance(b7, a_pawn, chess.BB_B7 | chess.BB_C7 | chess.BB_G7, "h5e8") > 0.9
    assert stalemate_chance(b7, a_pawn, chess.BB_B7 | chess.BB_C7 | chess.BB_G7, "h5h1") == 0.0


@pytest.mark.parametrize("shallow", [True, False])
def test_a_pawn_is_not_pushed_through_an_unmoved_pawn_to_promote(shallow):
    """Below the root the prediction lets every pawn push through; one onto a square the enemy's
    unmoved pawn holds (by the density) is worth its line only as often as the square is free, so
    h5-h6, taken by g7 and promising h7 and h8 only through the h7 pawn, loses to a king move."""
    meta = meta_of("4k3/6pp/8/7P/8/8/8/4K3 w - - 0 1")
    moves = [move("h5h6"), move("e1d2")]
    found, _ = Maximax().best(meta.core, moves, [False, False], shallow, 5000, 3)
    assert found == move("e1d2")


@pytest.mark.parametrize("shallow", [True, False])
def test_the_search_saves_a_queen_two_pawns_attack(shallow):
    meta = meta_of("4k3/pp5p/8/2p1p3/3Q4/8/8/4K3 w - - 0 1")
    moves = sorted(meta.core.pseudomoves(False))
    found, _ = Maximax().best(meta.core, moves, [False] * len(moves), shallow, 2000, 2)
    assert found & 63 == chess.D4


def test_the_search_is_deterministic_and_counts_its_metapositions():
    meta = meta_of(chess.STARTING_FEN)
    moves = sorted(meta.core.pseudomoves(False))
    search = Maximax()
    first = search.best(meta.core, moves, [False] * len(moves), False, 5000, 2)
    count = search.positions
    assert first[0] in moves and count >= 5000
    assert search.best(meta.core, moves, [False] * len(moves), False, 5000, 2) == first and search.positions == count
    # The basic search one move deep evaluates each move once.
    search.best(meta.core, moves, [False] * len(moves), True, 5000, 1)
    assert search.positions == len(moves)
    assert search.best(meta.core, [], [], False) is None


@pytest.mark.parametrize("bad", [{"alpha": 0.0}, {"alpha": 1.0}, {"new_moves": 0, "old_moves": 0}])
def test_bad_settings_are_refused(bad):
    with pytest.raises(ValueError):
        Maximax(**bad)


def test_bad_arguments_to_the_search_are_refused():
    meta = meta_of(chess.STARTING_FEN)
    with pytest.raises(ValueError, match="bad move"):
        Maximax().best(meta.core, [1 << 20], [False], False)
    with pytest.raises(ValueError, match="positions"):
        Maximax().best(meta.core, [move("e2e4")], [False], False, 0)
    with pytest.raises(ValueError, match="depth"):
        Maximax().best(meta.core, [move("e2e4")], [False], True, 100, 0)


# --- Whole games --------------------------------------------------------------------------------

def test_our_men_placed_as_twice_before_would_repeat():
    own = OwnBoard(chess.STARTING_FEN, chess.WHITE)
    out, back = chess.Move.from_uci("g1f3"), chess.Move.from_uci("f3g1")
    own.play(out)
    assert not own.repeats(back)           # the start placement has been seen once
    own.play(back)
    own.play(out)
    assert own.repeats(back)               # the start placement twice already


def test_games_against_the_random_player_are_fair_seeded_and_mostly_won():
    """The maximax player tries only what its side cannot rule out and never a refused try twice
    (test_kriegspiel_players.Checked), the same seed plays the same game, and at a small budget it
    still wins most games against the random player (the full budget's 1,000-game figure is
    measured by bench/kriegspiel.py)."""
    assert fair_seeded_wins("maximax", **FAST) >= 4


def test_the_player_takes_its_settings_from_the_builtin_table():
    player = builtin("maximax", "x", positions=123, depth=1, alpha=30, endgame=0)
    assert isinstance(player, MaximaxPlayer) and (player.positions, player.depth) == (123, 1)
