"""The Kriegspiel referee (pyrope.kriegspiel, issue 16 item 1): hand-made cases from the thesis's
appendix A (check kinds, pawn tries, captures, castling, privacy of refused tries, `px`, the try
forms, every end of the game, any start position, bad input), the compiled core's own methods, and
the PyPI `kriegspiel` package's Wild16Game as an oracle over seeded random games."""
import array
import random
from collections import namedtuple

import chess
import pytest

from kriegspiel_tries import candidate_moves, written
from pyrope import FenError
from pyrope._kriegspiel import RefereeCore
from pyrope.kriegspiel import Capture, Check, KriegspielError, Referee


def answer_after(fen, *tries):
    """The answer to the last of `tries`, played in order from fen."""
    referee = Referee(fen)
    for text in tries:
        answer = referee.try_move(text)
    return answer


def announced(fen, *tries):
    return answer_after(fen, *tries).announcement


# --- Checks -------------------------------------------------------------------------------------

def diagonal_length(square, file_step, rank_step):
    """Squares on the diagonal through square with that direction, counted by walking it."""
    count = 1
    for sign in (1, -1):
        f, r = chess.square_file(square), chess.square_rank(square)
        while 0 <= f + sign * file_step <= 7 and 0 <= r + sign * rank_step <= 7:
            f, r, count = f + sign * file_step, r + sign * rank_step, count + 1
    return count


def test_king_on_e1_h4_is_the_short_diagonal_a5_the_long():
    # Black's bishop moves to give the check; pawns keep the material sufficient.
    assert announced("4k3/7p/5b2/8/8/8/P7/4K3 b - - 0 1", "f6h4").checks == (Check.SHORT_DIAGONAL,)
    assert announced("4k3/2b4p/8/8/8/8/P7/4K3 b - - 0 1", "c7a5").checks == (Check.LONG_DIAGONAL,)


@pytest.mark.parametrize("king", ["d4", "e4", "b6", "g2", "a1", "h5"])
def test_long_and_short_diagonals_of_mid_board_and_edge_kings(king):
    """A bishop next to the king on each diagonal: long on the diagonal with more squares."""
    ksq = chess.parse_square(king)
    for file_step, rank_step in ((1, 1), (-1, -1), (1, -1), (-1, 1)):
        f, r = chess.square_file(ksq) + file_step, chess.square_rank(ksq) + rank_step
        if not (0 <= f <= 7 and 0 <= r <= 7):
            continue
        board = chess.Board(None)
        board.set_piece_at(ksq, chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(chess.square(f, r), chess.Piece(chess.BISHOP, chess.BLACK))
        board.set_piece_at(chess.H8 if ksq != chess.H8 and chess.square(f, r) != chess.H8 else chess.A8,
                           chess.Piece(chess.KING, chess.BLACK))
        board.set_piece_at(chess.A2 if ksq not in (chess.A2, chess.A1) else chess.H2, chess.Piece(chess.PAWN, chess.WHITE))
        this = diagonal_length(ksq, file_step, rank_step)
        other = diagonal_length(ksq, file_step, -rank_step)
        assert this != other
        expected = Check.LONG_DIAGONAL if this > other else Check.SHORT_DIAGONAL
        assert Referee(board.fen()).opening.checks == (expected,), (king, chess.square_name(chess.square(f, r)))


def test_pawn_checks_are_diagonal_checks():
    # King d4: e5 is on a1-h8 (8 squares, long), c5 on a7-g1 (7 squares, short); king d3: e4 is
    # on b1-h7 (7 squares, long against f1-a6's 6).
    assert announced("8/8/8/4p3/8/3K4/8/7k b - - 0 1", "e5e4").checks == (Check.LONG_DIAGONAL,)
    assert announced("8/4p3/8/8/3K4/8/8/7k b - - 0 1", "e7e5").checks == (Check.LONG_DIAGONAL,)
    assert announced("8/2p5/8/8/3K4/8/8/7k b - - 0 1", "c7c5").checks == (Check.SHORT_DIAGONAL,)


def test_rank_file_and_knight_checks():
    assert announced("7k/8/8/8/8/8/R7/K7 w - - 0 1", "a2a8").checks == (Check.RANK,)
    assert announced("7k/8/8/8/8/8/R7/K7 w - - 0 1", "a2h2").checks == (Check.FILE,)
    assert announced("7k/8/8/4N3/8/8/P7/K7 w - - 0 1", "e5c6").checks == ()
    assert announced("7k/8/8/4N3/8/8/P7/K7 w - - 0 1", "e5f7").checks == (Check.KNIGHT,)


def test_double_check_announces_both_kinds_and_discovered_check_its_own():
    fen = "4k3/8/8/8/4N3/8/8/K3R3 w - - 0 1"
    double = announced(fen, "e4d6")
    assert set(double.checks) == {Check.FILE, Check.KNIGHT}
    assert double.messages() == ["File check", "Knight check", "Black's move"]
    assert announced(fen, "e4g5").checks == (Check.FILE,)
    # The rook steps off the bishop's diagonal a4-e8 (five squares against e8-h5's four) onto the
    # king's file.
    assert set(announced("4k3/8/2R5/8/B7/8/8/4K3 w - - 0 1", "c6e6").checks) == {Check.FILE, Check.LONG_DIAGONAL}
    assert announced("4k3/8/2R5/8/B7/8/8/4K3 w - - 0 1", "c6c5").checks == (Check.LONG_DIAGONAL,)


# --- Captures and pawn tries ----------------------------------------------------------------------

def test_en_passant_names_the_taken_pawns_square_and_counts_as_a_pawn_try():
    referee = Referee("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1")
    assert referee.pawn_tries == 1
    answer = referee.try_move("e5d6")
    assert answer.move == "e5d6"
    assert answer.announcement.capture == Capture(chess.D5, pawn=True)
    assert answer.messages()[0] == "Pawn at d5 captured"


def test_en_passant_is_a_pawn_try_only_right_after_the_double_step():
    referee = Referee("4k3/3p4/8/4P3/8/8/8/4K2R b K - 0 1")
    assert referee.try_move("d7d5").announcement.pawn_tries == 1
    assert referee.try_move("h1h2").announcement.pawn_tries == 0
    referee.try_move("e8e7")
    assert referee.pawn_tries == 0
    assert not referee.try_move("e5d6").legal


def test_promotion_capture_counts_once_and_a_push_not_at_all():
    referee = Referee("r1r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1")
    assert referee.pawn_tries == 2
    assert referee.opening.messages() == ["White's move", "2 pawn tries"]
    answer = referee.try_move("b7a8=N")
    assert answer.move == "b7a8n"
    assert answer.announcement.capture == Capture(chess.A8, pawn=False)


def test_a_promoted_man_is_taken_as_a_piece():
    referee = Referee("8/1P5k/8/8/8/8/4K3/1r6 w - - 0 1")
    referee.try_move("b7b8")                 # no piece named: a queen
    assert referee.moves() == ["b7b8q"]
    answer = referee.try_move("b1b8")
    assert answer.announcement.capture == Capture(chess.B8, pawn=False)
    assert answer.messages()[0] == "Piece at b8 captured"


def test_pawn_tries_count_only_legal_pawn_captures():
    # The g2 pawn has two captures, the d4 pawn two more unless the rook on d8 pins it.
    assert Referee("4r1k1/8/8/2p1p3/3P4/5n1n/6P1/3K4 w - - 0 1").pawn_tries == 4
    assert Referee("3r2k1/8/8/2p1p3/3P4/5n1n/6P1/3K4 w - - 0 1").pawn_tries == 2
    # In check from the knight on f2 (no pawn captures it), no pawn capture is legal.
    assert Referee("6k1/8/8/2p5/3P4/8/5n2/7K w - - 0 1").pawn_tries == 0


# --- Castling -------------------------------------------------------------------------------------

def test_castling_through_an_attacked_square_is_refused():
    fen = "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1"
    for text in ("e1g1", "o-o", "O-O", "0-0"):
        referee = Referee(fen)
        assert not referee.try_move(text).legal
        assert referee.fen() == chess.Board(fen).fen()
    assert answer_after(fen, "o-o-o").move == "e1c1"
    assert answer_after(fen, "e1-c1").move == "e1c1"


def test_castling_past_a_hidden_man_or_without_the_right_is_refused():
    assert not answer_after("4k3/8/8/8/8/8/8/R3K1nR w KQ - 0 1", "o-o").legal
    assert answer_after("4k3/8/8/8/8/8/8/R3K1nR w KQ - 0 1", "o-o-o").legal
    assert not answer_after("4k3/8/8/8/8/8/8/R3K2R w Q - 0 1", "e1g1").legal
    assert not answer_after("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", "e1h1").legal     # not a king's step


def test_castling_from_any_start_position_with_the_king_off_the_e_file():
    referee = Referee("1k6/8/8/8/8/8/8/RK5R w A - 0 1")
    assert referee.try_move("o-o-o").legal
    assert referee.piece_map(chess.WHITE) == {chess.C1: chess.Piece.from_symbol("K"),
                                              chess.D1: chess.Piece.from_symbol("R"),
                                              chess.H1: chess.Piece.from_symbol("R")}


# --- Privacy of refused tries ---------------------------------------------------------------------

def test_a_refused_try_changes_nothing_public_and_is_told_only_to_the_mover():
    fen = "4k3/8/8/8/8/3b4/3P4/4K3 w - - 0 1"
    referee = Referee(fen)
    before = (referee.fen(), referee.announcement, list(referee.turns))
    refused = ("d2d4", "e1f1", "e5e6", "d3d4", "a1a2", "d2d2", "e1e3", "d2c3")
    for text in refused:  # blocked, into check, from empty, the enemy's man, ..., a pawn try
        answer = referee.try_move(text)
        assert (answer.legal, answer.move, answer.announcement) == (False, None, None)
        assert answer.messages() == ["Illegal move"]
        assert (referee.fen(), referee.announcement, list(referee.turns)) == before
    assert referee.tries_this_turn == len(refused)
    answer = referee.try_move("e1f2")
    # The opponent's view of the turn equals that of a game where the refused tries never happened.
    assert answer.announcement == Referee(fen).try_move("e1f2").announcement
    assert referee.turns[-1].refused == refused
    assert referee.tries_this_turn == 0


def test_tries_blocked_by_hidden_men_get_the_same_answer_as_impossible_ones():
    referee = Referee("4k3/8/8/8/4p3/8/4P3/4K3 w - - 0 1")
    blocked = referee.try_move("e2e4")          # the hidden pawn on e4 is in the way
    impossible = referee.try_move("e2e5")       # not a pawn's move at all
    enemy = referee.try_move("e4e3")            # the enemy's man, which White cannot see
    assert blocked.messages() == impossible.messages() == enemy.messages() == ["Illegal move"]
    assert (blocked.announcement, impossible.announcement, enemy.announcement) == (None, None, None)


# --- px -------------------------------------------------------------------------------------------

def test_px_plays_the_one_pawn_capture():
    referee = Referee("4k3/8/8/3p4/4P3/8/8/4K3 w - - 0 1")
    answer = referee.try_move("px")
    assert answer.move == "e4d5"
    assert answer.messages() == ["Pawn at d5 captured", "Black's move"]
    assert answer_after("4k3/8/8/8/8/8/1p6/R3K3 b - - 0 1", "PX").move == "b2a1q"


@pytest.mark.parametrize("fen, count", [("4k3/8/8/8/4P3/8/8/4K3 w - - 0 1", 0),
                                        ("4k3/8/8/3p1p2/4P3/8/8/4K3 w - - 0 1", 2)])
def test_px_without_exactly_one_pawn_try_is_refused_as_a_request(fen, count):
    referee = Referee(fen)
    with pytest.raises(KriegspielError, match=f"exactly one pawn try.*there are {count}"):
        referee.try_move("px")
    assert (referee.fen(), referee.tries_this_turn, referee.turns) == (chess.Board(fen).fen(), 0, [])


# --- Try forms and bad input ----------------------------------------------------------------------

@pytest.mark.parametrize("text, move", [
    ("e2e4", "e2e4"), ("e2-e4", "e2e4"), ("E2E4", "e2e4"), (" e2e4 ", "e2e4"),
    ("f7g8=N", "f7g8n"), ("f7g8n", "f7g8n"), ("f7g8=q", "f7g8q"), ("f7-g8=R", "f7g8r"), ("f7g8", "f7g8q"),
    ("o-o", "e1g1"), ("O-O", "e1g1"), ("0-0", "e1g1"), ("o-o-o", "e1c1"), ("O-O-O", "e1c1"), ("0-0-0", "e1c1"),
    ("px", "f7g8q"),
])
def test_every_try_form(text, move):
    referee = Referee("2k3n1/5P2/8/8/8/8/4P3/R3K2R w KQ - 0 1")
    assert referee.try_move(text).move == move


@pytest.mark.parametrize("text", ["", "e2", "e2e", "e9e4", "i2i4", "Nf3", "e2xe4", "nxq", "e2e4k", "e2e4=P",
                                  "0000", "o-o-o-o", "p", "e2e4 e7e5", "e2--e4"])
def test_malformed_tries_get_one_sentence_and_change_nothing(text):
    referee = Referee()
    with pytest.raises(KriegspielError) as error:
        referee.try_move(text)
    message = str(error.value)
    assert message.endswith(".") and message.count(". ") == 0 and repr(text) in message
    assert (referee.fen(), referee.tries_this_turn, referee.turns) == (chess.STARTING_FEN, 0, [])


def test_a_promotion_piece_on_a_move_that_does_not_promote_is_just_illegal():
    referee = Referee()
    assert referee.try_move("e2e4=Q").messages() == ["Illegal move"]
    assert referee.try_move("g1f3n").messages() == ["Illegal move"]
    assert referee.tries_this_turn == 2


def test_bad_fen_gives_the_cores_reason():
    with pytest.raises(FenError, match="white has 0 kings"):
        Referee("8/8/8/8/8/8/8/k7 w - - 0 1")
    with pytest.raises(FenError, match="side not to move is in check"):
        Referee("4k3/4R3/8/8/8/8/8/4K3 w - - 0 1")
    core = RefereeCore()
    core.try_move(chess.E2, chess.E4)
    with pytest.raises(FenError, match="expected 4 to 6"):
        core.set_fen("not a fen")
    assert core.moves() == ["e2e4"]


# --- The game's end -------------------------------------------------------------------------------

def test_mate_ends_the_game_and_no_try_is_taken_after():
    referee = Referee("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1")
    answer = referee.try_move("a1a8")
    assert answer.announcement.checks == (Check.RANK,)
    assert referee.outcome == chess.Outcome(chess.Termination.CHECKMATE, chess.WHITE)
    assert answer.messages() == ["Rank check", "White mates (1-0)"]
    assert answer.announcement.pawn_tries is None
    fen = referee.fen()
    with pytest.raises(KriegspielError, match=r"^The game is over \(White mates \(1-0\)\)"):
        referee.try_move("g8h8")
    assert referee.fen() == fen and referee.tries_this_turn == 0


def test_stalemate():
    answer = answer_after("7k/8/8/5Q2/8/8/8/K7 w - - 0 1", "f5f7")
    assert answer.announcement.outcome == chess.Outcome(chess.Termination.STALEMATE, None)
    assert answer.messages() == ["Stalemate (1/2-1/2)"]


def test_insufficient_material():
    answer = answer_after("7k/8/8/8/8/8/6r1/K5B1 w - - 0 1", "g1h2")
    assert answer.announcement.outcome is None
    answer = answer_after("7k/8/8/8/8/8/6r1/K4B2 w - - 0 1", "f1g2")
    assert answer.announcement.outcome == chess.Outcome(chess.Termination.INSUFFICIENT_MATERIAL, None)
    assert answer.messages() == ["Piece at g2 captured", "Insufficient material (1/2-1/2)"]


def test_threefold_repetition_counts_the_start_position():
    referee = Referee()
    for text in ["g1f3", "g8f6", "f3g1", "f6g8"] * 2:
        assert referee.outcome is None
        referee.try_move(text)
    assert referee.outcome == chess.Outcome(chess.Termination.THREEFOLD_REPETITION, None)


def test_fifty_move_rule_and_a_mate_on_the_hundredth_half_move():
    fen = "6k1/5ppp/8/8/8/8/1R6/R5K1 w - - 99 80"
    assert Referee(fen).opening.outcome is None
    assert answer_after(fen, "b2b3").announcement.outcome.termination == chess.Termination.FIFTY_MOVES
    assert answer_after(fen, "a1a8").announcement.outcome.termination == chess.Termination.CHECKMATE
    # A capture or a pawn's move on the hundredth half-move starts the count again.
    assert answer_after("6k1/5ppp/8/8/8/8/1R5p/R5K1 w - - 99 80", "b2h2").announcement.outcome is None


def test_a_start_position_that_is_already_over():
    referee = Referee("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert referee.opening.messages() == ["Stalemate (1/2-1/2)"]
    with pytest.raises(KriegspielError, match="over"):
        referee.try_move("h8g8")


def test_any_start_position_and_its_opening_announcement():
    fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
    referee = Referee(fen)
    assert referee.start_fen == fen and referee.turn == chess.WHITE
    assert referee.pawn_tries == chess_pawn_tries(chess.Board(fen))
    assert referee.try_move("o-o").move == "e1g1"
    referee = Referee("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1")
    assert referee.opening.messages() == ["White's move"]
    referee = Referee("4k3/7p/8/8/8/5n2/8/4K3 w - - 0 1")
    assert referee.opening.checks == (Check.KNIGHT,)


def chess_pawn_tries(board):
    """Pawn tries counted by python-chess: legal pawn captures as distinct from-to pairs."""
    return len({(m.from_square, m.to_square) for m in board.legal_moves
                if board.piece_type_at(m.from_square) == chess.PAWN and board.is_capture(m)})


def test_piece_map_shows_one_sides_men_or_all():
    referee = Referee()
    assert set(referee.piece_map(chess.WHITE)) == set(chess.SquareSet(chess.BB_RANK_1 | chess.BB_RANK_2))
    assert referee.piece_map() == chess.Board().piece_map()


# --- The compiled core ----------------------------------------------------------------------------

@pytest.mark.parametrize("fen", ["r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                                 "r3k2r/1P4P1/8/3pP3/8/8/6p1/R3K2R w KQkq d6 0 1"])
def test_core_probe_answers_as_try_move_and_undo_restores(fen):
    """Every from-to pair with every promotion value: probe and try_move agree, the legal ones are
    python-chess's legal moves (a pawn's unwritten promotion being the queen's), and neither probe
    nor undo leaves a trace."""
    core = RefereeCore(fen)
    report = core.report
    tries = [frm | to << 6 | piece << 12 for frm in range(64) for to in range(64) for piece in (0, 2, 3, 4, 5)]
    answers = array.array("i", [0] * len(tries))
    legal = core.probe(array.array("H", tries), answers)
    assert (core.fen(), core.report) == (fen, report)
    board = chess.Board(fen)
    promotions = sum(1 for move in board.legal_moves if move.promotion == chess.QUEEN)
    assert legal == board.legal_moves.count() + promotions
    for packed, answer in zip(tries, answers):
        assert core.try_move(packed & 63, packed >> 6 & 63, packed >> 12) == answer
        if answer:
            core.undo()
    assert (core.fen(), core.report, core.moves()) == (fen, report, [])
    with pytest.raises(IndexError):
        core.undo()


# --- The oracle: the PyPI kriegspiel package's Wild16Game -------------------------------------------
#
# Each game is played by Pyrope's referee alone, its driver trying random moves made from the
# mover's own men (tests/support/kriegspiel_tries.py) until one is legal, half of the turns taking men
# first (shorter games with more endings), `px` now and then when one pawn try is announced; every
# answer is recorded. The oracle is then asked the same tries over a stretch of the game and must
# answer each alike: legal or not, the capture's square and pawn or piece, the check kinds, the
# next side's pawn tries, the game's end.
#
# How the oracle is driven, and where it differs from appendix A (read from its source, 1.7.3):
# - It is asked only KriegspielMove(COMMON, move): Wild16 has no "Are there any?", so no pawn
#   capture is ever forced. A try it finds impossible on the mover's own board it answers
#   ILLEGAL_MOVE, as the rules say.
# - It has no `px` and no promotion by default: our `px` and our queen for an unwritten piece are
#   asked of it as the move they stand for.
# - It stops at 2,000 reversible half-moves and has no repetition rule: at our fifty-move or
#   threefold end only the move's own part is compared, and the game stops there.
# - When a move ends the game it announces only the end (CHECKMATE_*, DRAW_*), not the checks that
#   came with it, and no pawn tries; our answer keeps the checks, which are then not compared.
# - It starts only from the standard position: for a stretch that begins later, its board is set
#   from our FEN (its private _board; castling rights and en passant come with the FEN).
#
# Each stretch is ORACLE_PLIES long: from the start in a third of the games, ending at the game's
# end in another third, anywhere in the rest. Whole games (184 half-moves on average) would take
# the oracle well over a minute for 1,000 on a busy machine; they are checked with --runslow.

try:
    import kriegspiel
except ImportError:
    kriegspiel = None
needs_oracle = pytest.mark.skipif(kriegspiel is None,
                                  reason="the PyPI package kriegspiel (a test extra) is not installed")

ORACLE_GAMES = 1_000
ORACLE_PLIES = 40
SLOW_ORACLE_GAMES = 10_000
# What both referees' answers are compared on; `end` is (kind, winner) or None.
Summary = namedtuple("Summary", "legal capture pawn checks pawn_tries end")
REFUSED = Summary(False, None, None, frozenset(), None, None)
END_NAMES = {chess.Termination.CHECKMATE: "checkmate", chess.Termination.STALEMATE: "stalemate",
             chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
             chess.Termination.FIFTY_MOVES: "fifty moves", chess.Termination.THREEFOLD_REPETITION: "repetition"}


def our_summary(answer):
    if not answer.legal:
        return REFUSED
    news = answer.announcement
    capture = news.capture
    end = None
    if news.outcome is not None:
        end = (END_NAMES[news.outcome.termination], news.outcome.winner)
    return Summary(True, capture.square if capture else None, capture.pawn if capture else None,
                   frozenset(check.name for check in news.checks), news.pawn_tries, end)


def oracle_summary(answer):
    MA, SCA = kriegspiel.MainAnnouncement, kriegspiel.SpecialCaseAnnouncement
    if answer.main_announcement not in (MA.REGULAR_MOVE, MA.CAPTURE_DONE):
        assert answer.main_announcement == MA.ILLEGAL_MOVE, answer
        return REFUSED
    special = answer.special_announcement
    checks, end = frozenset(), None
    if special == SCA.CHECK_DOUBLE:
        checks = frozenset(check.name.removeprefix("CHECK_") for check in (answer.check_1, answer.check_2))
    elif special.name.startswith("CHECK_"):
        checks = frozenset([special.name.removeprefix("CHECK_")])
    elif special != SCA.NONE:
        end = {SCA.CHECKMATE_WHITE_WINS: ("checkmate", chess.WHITE), SCA.CHECKMATE_BLACK_WINS: ("checkmate", chess.BLACK),
               SCA.DRAW_STALEMATE: ("stalemate", None), SCA.DRAW_INSUFFICIENT: ("insufficient material", None)}[special]
    pawn = None if answer.capture_at_square is None \
        else answer.captured_piece_announcement == kriegspiel.CapturedPieceAnnouncement.PAWN
    return Summary(True, answer.capture_at_square, pawn, checks, answer.next_turn_pawn_tries, end)


def random_game(seed):
    """One game on our referee: [(fen, [(text, move asked of the oracle, our summary), ...])]."""
    rng = random.Random(seed)
    referee, board = Referee(), chess.Board()
    record = []
    while referee.outcome is None:
        asked = []
        if referee.pawn_tries == 1 and rng.random() < 0.3:
            capture = next(m for m in board.legal_moves if board.piece_type_at(m.from_square) == chess.PAWN
                           and board.is_capture(m) and m.promotion in (None, chess.QUEEN))
            tries = [("px", capture)]
        else:
            tries = (written(move, board, rng)
                     for move in candidate_moves(board, rng, captures_first=rng.random() < 0.5))
        for text, move in tries:
            answer = referee.try_move(text)
            asked.append((text, move, our_summary(answer)))
            if answer.legal:
                assert answer.move == move.uci(), (board.fen(), text, answer.move, move.uci())
                break
        record.append((board.fen(), asked))
        board.push(move)
    return record


def check_with_oracle(record, start, stop):
    oracle = kriegspiel.Wild16Game()
    if start > 0:
        oracle._board = chess.Board(record[start][0])     # see above: it starts only from the standard position
        oracle._generate_possible_to_ask_list()
    for fen, asked in record[start:stop]:
        for text, move, ours in asked:
            question = kriegspiel.KriegspielMove(kriegspiel.QuestionAnnouncement.COMMON, move)
            theirs = oracle_summary(oracle.ask_for(question))
            if ours.end is not None and ours.end[0] in ("fifty moves", "repetition"):
                assert ours[:4] == theirs[:4], f"{fen}: try {text!r}: ours {ours}, the oracle's {theirs}"
                return ours.end[0]
            if ours.end is not None:
                ours = ours._replace(checks=frozenset())
            assert ours == theirs, f"{fen}: try {text!r}: ours {ours}, the oracle's {theirs}"
    return ours.end[0] if ours.end else None


def run_oracle(games, plies=None):
    """Check `games` seeded games over stretches of `plies` half-moves (None: whole games);
    return how the stretches ended ({end or None: count}) and how many tries the oracle answered."""
    ends, tries = {}, 0
    for seed in range(games):
        record = random_game(seed)
        start, stop = 0, len(record)
        if plies is not None:
            start = [0, max(0, stop - plies), random.Random(seed).randrange(stop)][seed % 3]
            stop = min(stop, start + plies)
        end = check_with_oracle(record, start, stop)
        tries += sum(len(asked) for _, asked in record[start:stop])
        ends[end] = ends.get(end, 0) + 1
    return ends, tries


@needs_oracle
@pytest.mark.long       # some 30 s of one core; CI runs it
def test_the_oracle_answers_every_try_alike():
    ends, tries = run_oracle(ORACLE_GAMES, ORACLE_PLIES)
    # The stretches that reach the game's end meet every kind of end (with these seeds).
    assert set(ends) >= {None, "checkmate", "stalemate", "insufficient material", "fifty moves", "repetition"}, ends
    assert tries > 50_000


@needs_oracle
@pytest.mark.slow
def test_the_oracle_answers_every_try_alike_over_whole_games():
    ends, _ = run_oracle(SLOW_ORACLE_GAMES)
    assert set(ends) >= {"checkmate", "stalemate", "insufficient material", "fifty moves", "repetition"}, ends
