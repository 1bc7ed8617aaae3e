"""The metaposition (engine/kriegspiel/metaposition.py) against the referee's truth: over random games
the enemy's real men always lie inside each player's metaposition (thesis section 4.1: I <= M), and
the updates learn what the messages say for certain (hand-made cases)."""
import chess
import pytest

from kriegspiel_metaposition_oracle import diagonal_check
from pyrope.kriegspiel.metaposition import Metaposition
from pyrope.kriegspiel.players import RandomPlayer, SemiRandomPlayer, play_game
from pyrope.kriegspiel.referee import Check, Referee


class Tracked:
    """A player that keeps a metaposition from what it hears and checks it against the referee
    after every update (the test's only use of the referee's position). `metaposition` makes it
    (test_kriegspiel_meta_core keeps two there and compares them instead)."""
    metaposition = Metaposition

    def __init__(self, player, referee: Referee, failures: list):
        self.player, self.referee, self.failures = player, referee, failures
        self.updates = 0

    def start(self, color, fen):
        self.player.start(color, fen)
        self.meta = self.metaposition(fen, color)
        self.opening = True
        self.last = None
        self._check("start")

    def hear(self, announcement):
        self.player.hear(announcement)
        if self.opening:
            self.opening = False
            return
        if announcement.to_move == self.meta.color:
            self.meta.their_move(announcement)
            self._check("their move")
        else:
            self.meta.our_move(self.last, announcement)
            self._check("our move")

    def go(self, budget):
        self.player.go(budget)

    def next_try(self):
        text = self.player.next_try()
        self.pending = self.player._tried
        return text

    def answered(self, text, legal):
        self.player.answered(text, legal)
        if legal:
            self.last = self.pending
        elif self.pending is not None:
            self.meta.refused(self.pending, bool(self.player.announcement.checks))
            self._check("refused")

    def _check(self, when):
        self.updates += 1
        enemy = self.referee.piece_map(not self.meta.color)
        if not self.meta.contains(enemy) and len(self.failures) < 5:
            self.failures.append((when, self.referee.fen(), self.meta.color, self.referee.moves()[-6:]))


def tracked_games(count: int, seed: int, semi: bool = False):
    failures, updates = [], 0
    kind = SemiRandomPlayer if semi else RandomPlayer
    for game in range(count):
        referee = Referee()
        white = Tracked(kind(seed=seed + 2 * game), referee, failures)
        black = Tracked(kind(seed=seed + 2 * game + 1), referee, failures)
        play_game(white, black, referee)
        updates += white.updates + black.updates
    return failures, updates


@pytest.mark.parametrize("semi", [False, True])
def test_the_true_position_is_always_inside_the_metaposition(semi):
    failures, updates = tracked_games(40, seed=7 if semi else 1, semi=semi)
    assert updates > 1000
    assert failures == []


@pytest.mark.slow
@pytest.mark.parametrize("semi", [False, True])
def test_the_true_position_is_inside_over_a_thousand_games(semi):
    failures, updates = tracked_games(1000, seed=70 if semi else 10, semi=semi)
    assert failures == []


def test_start_position_is_known_exactly():
    meta = Metaposition(chess.STARTING_FEN, chess.WHITE)
    assert meta.possible[chess.KING] == chess.BB_E8
    assert meta.possible[chess.PAWN] == chess.BB_RANK_7
    assert meta.surely_empty == chess.BB_RANK_3 | chess.BB_RANK_4 | chess.BB_RANK_5 | chess.BB_RANK_6
    assert meta.pawns_min == meta.pawns_max == [1] * 8


def test_enemy_men_spread_like_pseudo_pieces_after_their_move():
    referee = Referee()
    meta = Metaposition(chess.STARTING_FEN, chess.BLACK)
    answer = referee.try_move("g1f3")
    meta.their_move(answer.announcement)
    knights = chess.SquareSet(meta.possible[chess.KNIGHT])
    assert {chess.B1, chess.G1, chess.A3, chess.C3, chess.F3, chess.H3} <= set(knights)
    assert not meta.possible[chess.BISHOP] & ~chess.BB_RANK_1   # bishops are still shut in
    assert meta.possible[chess.PAWN] & chess.BB_E4                # e2-e4 was possible
    assert not meta.possible[chess.KING] & ~chess.BB_RANK_1
    assert meta.empty & chess.BB_G1 and meta.empty & chess.BB_E2  # a man may have left
    assert not meta.empty & chess.BB_A1                           # the rook could not move


def test_a_capture_on_our_man_puts_the_capturer_there():
    fen = "4k3/8/8/8/3p4/4P3/8/4K3 w - - 0 1"
    referee = Referee(fen)
    white = Metaposition(fen, chess.WHITE)
    black = Metaposition(fen, chess.BLACK)
    answer = referee.try_move("e1d2")
    white.our_move(chess.Move.from_uci("e1d2"), answer.announcement)
    black.their_move(answer.announcement)
    answer = referee.try_move("d4e3")                 # Pawn at e3 captured
    assert answer.legal and answer.announcement.capture.square == chess.E3
    white.their_move(answer.announcement)
    # Only the d4 pawn could take there, and e3 surely holds the capturer. Which pseudo-piece moved
    # is not known, but the count is: Black has its king and one man, the pawn surely on e3, so
    # d4 is empty (the pawns surely on the board are all the men left besides the king).
    assert white.possible[chess.PAWN] == chess.BB_E3
    assert not any(white.possible[t] & chess.BB_E3 for t in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN))
    assert not white.empty & chess.BB_E3
    assert white.empty & chess.BB_D4
    assert white.pawns_max[chess.FILE_NAMES.index("e")] == 1


def test_checks_narrow_the_enemy_king():
    # White's rook gives a file check from a1: the black king is on the a-file, nowhere else.
    meta = Metaposition("k7/8/8/8/8/8/8/1R2K3 w - - 0 1", chess.WHITE)
    meta.believe({chess.KING: chess.BB_ALL & ~chess.BB_RANK_1 & ~chess.BB_RANK_2},    # forget where it is
                 chess.BB_ALL & ~meta.mine)
    referee = Referee("k7/8/8/8/8/8/8/1R2K3 w - - 0 1")
    answer = referee.try_move("b1a1")
    assert answer.announcement.checks == (Check.FILE,)
    meta.our_move(chess.Move.from_uci("b1a1"), answer.announcement)
    assert set(chess.SquareSet(meta.possible[chess.KING])) <= set(chess.SquareSet(chess.BB_FILE_A))
    assert meta.possible[chess.KING] & chess.BB_A8


def test_no_check_clears_the_squares_our_men_surely_attack():
    meta = Metaposition("7k/8/8/8/8/8/8/R3K3 w - - 0 1", chess.WHITE)
    meta.believe({t: chess.BB_ALL & ~meta.mine if t == chess.KING else 0 for t in meta.possible},
                 chess.BB_ALL & ~meta.mine)
    referee = Referee("7k/8/8/8/8/8/8/R3K3 w - - 0 1")
    answer = referee.try_move("e1d1")
    meta.our_move(chess.Move.from_uci("e1d1"), answer.announcement)
    kings = meta.possible[chess.KING]
    assert not kings & chess.BB_FILE_A & ~chess.BB_A1       # the rook sees the whole a-file
    assert not kings & (chess.BB_B1 | chess.BB_C1)            # and the first rank up to our king
    assert kings & chess.BB_H1                              # which hides the rest
    assert not kings & chess.BB_KING_ATTACKS[chess.D1]      # kings never touch


def test_diagonal_kinds_follow_the_referee():
    assert diagonal_check(chess.E1, chess.H4) == Check.SHORT_DIAGONAL
    assert diagonal_check(chess.E1, chess.A5) == Check.LONG_DIAGONAL


def test_no_pawn_tries_for_the_enemy_clear_the_pawns_that_would_attack_our_men():
    # Black's d-pawn may be on d6 or d5; after our king's step Black is told of no pawn try, so it
    # is not on d5, from where it would attack our knight on e4.
    fen = "4k3/3p4/8/8/4N3/8/8/4K3 w - - 0 1"
    meta = Metaposition(fen, chess.WHITE)
    meta.believe({chess.PAWN: chess.BB_D5 | chess.BB_D6}, meta.empty | chess.BB_D5 | chess.BB_D6 | chess.BB_D7)
    referee = Referee("4k3/8/3p4/8/4N3/8/8/4K3 w - - 0 1")
    answer = referee.try_move("e1f1")
    assert answer.announcement.pawn_tries == 0
    meta.our_move(chess.Move.from_uci("e1f1"), answer.announcement)
    assert meta.possible[chess.PAWN] == chess.BB_D6


def test_a_pawn_our_slider_may_pin_to_its_king_is_not_cleared_by_no_pawn_tries():
    # Our bishop on a2 and a black king that may stand on e6: a pawn on d5 would be pinned, so
    # "no pawn try" does not rule it out (its capture of our knight on e4 would be illegal).
    meta = Metaposition("4k3/3p4/8/8/4N3/8/B7/4K3 w - - 0 1", chess.WHITE)
    meta.believe({chess.PAWN: chess.BB_D5, chess.KING: chess.BB_E6 | chess.BB_E8},
                 meta.empty | chess.BB_D5 | chess.BB_E6 | chess.BB_E8)
    referee = Referee("4k3/8/8/8/4N3/8/B7/4K3 w - - 0 1")
    answer = referee.try_move("e1f1")
    assert answer.announcement.pawn_tries == 0
    meta.our_move(chess.Move.from_uci("e1f1"), answer.announcement)
    assert meta.possible[chess.PAWN] == chess.BB_D5
    # With the king surely off that diagonal there is no pin, and the pawn is ruled out.
    meta = Metaposition("4k3/3p4/8/8/4N3/8/B7/4K3 w - - 0 1", chess.WHITE)
    meta.believe({chess.PAWN: chess.BB_D5}, meta.empty | chess.BB_D5)
    meta.our_move(chess.Move.from_uci("e1f1"), answer.announcement)
    assert meta.possible[chess.PAWN] == 0


def test_our_having_no_pawn_tries_clears_the_squares_our_pawns_attack():
    # After Black's move we are told of no pawn try: nothing stands on d5 or f5, where our e4 pawn
    # would take it. (Black's knight makes the believed knights possible: with its king alone, no
    # piece could be.)
    fen = "4k3/8/8/8/4P3/8/8/n3K3 b - - 0 1"
    meta = Metaposition(fen, chess.WHITE)
    everywhere = chess.BB_ALL & ~meta.mine & ~chess.BB_RANK_1 & ~chess.BB_RANK_8
    meta.believe({chess.KNIGHT: everywhere, chess.PAWN: 0}, chess.BB_ALL & ~meta.mine)
    referee = Referee(fen)
    answer = referee.try_move("e8d8")
    assert answer.announcement.pawn_tries == 0
    meta.their_move(answer.announcement)
    assert not meta.maybe_enemy & (chess.BB_D5 | chess.BB_F5)
    assert meta.possible[chess.KNIGHT] & chess.BB_D6


def test_a_refused_pawn_step_shows_a_man_on_its_square_and_the_count_places_the_pawn():
    """Journal game 123 (maximax vs random, fifty moves): Black has its king and its a-pawn, on a5,
    a6 or a7, and our a4 pawn's step is refused. Not in check, the pawn not pinnable: a man stands
    on a5; no piece is left (the count), so it is the pawn, and a6 and a7 are empty."""
    fen = "1N1Q4/k7/8/p1K5/P7/QN6/8/3R4 w - - 0 1"
    a_pawn = chess.BB_A5 | chess.BB_A6 | chess.BB_A7
    kings = chess.BB_A7 | chess.BB_B7 | chess.BB_A8

    def believing():
        meta = Metaposition(fen, chess.WHITE)
        meta.believe({chess.PAWN: a_pawn, chess.KING: kings}, meta.empty | a_pawn | kings)
        return meta

    meta = believing()
    meta.refused(chess.Move.from_uci("a4a5"), in_check=False)
    assert meta.possible[chess.PAWN] == chess.BB_A5 and not meta.empty & chess.BB_A5
    assert meta.empty & (chess.BB_A6 | chess.BB_A7)
    # In check, the step may have been refused for not answering it: nothing is learnt.
    meta = believing()
    meta.refused(chess.Move.from_uci("a4a5"), in_check=True)
    assert meta.possible[chess.PAWN] == a_pawn
    # A rook that may stand on the fourth rank beyond the pawn may pin it to our king on e4.
    pinned = "k7/8/2p5/8/r1P1K3/8/8/3Q4 w - - 0 1"
    c_pawn, rooks = chess.BB_C5 | chess.BB_C6 | chess.BB_C7, chess.BB_A4 | chess.BB_B4
    meta = Metaposition(pinned, chess.WHITE)
    meta.believe({chess.PAWN: c_pawn, chess.ROOK: rooks}, meta.empty | c_pawn | rooks)
    meta.refused(chess.Move.from_uci("c4c5"), in_check=False)
    assert meta.possible[chess.PAWN] == c_pawn and meta.empty & chess.BB_C5
