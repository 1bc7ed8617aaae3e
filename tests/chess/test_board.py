"""Board API: FEN in/out and its error rules, moves and their errors, castling notation,
move codes, game-ending rules, copy(). python-chess is the reference where it applies."""
import chess
import chess.polyglot
import pytest

import pyrope
from perftfile import load

START = pyrope.STARTING_FEN
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
CASTLES = "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R3K2R w KQkq - 0 1"
PROMOTIONS = "r3k2r/1P6/8/3pP3/8/8/8/R3K2R w KQkq d6 0 1"


def sq(name):
    return chess.parse_square(name)


def snapshot(board):
    return board.fen(), board.key, board.move_stack, sorted(board.legal_moves())


def board_after(moves, fen=START):
    board = pyrope.Board(fen)
    for uci in moves.split():
        board.push(uci)
    return board


def test_exports():
    assert pyrope.STARTING_FEN == chess.STARTING_FEN
    assert issubclass(pyrope.FenError, ValueError)
    assert issubclass(pyrope.IllegalMoveError, ValueError)
    board = pyrope.Board()
    assert board.fen() == START and not board.chess960 and board.move_stack == []


# --- FEN output ------------------------------------------------------------------------------

ROUND_TRIP_FENS = [
    START,
    KIWIPETE,
    PROMOTIONS,                                                           # legal e.p.
    "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",        # e.p. square, no capturer
    "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3",
    "1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1",                                # capturer pinned
    "8/8/8/1k6/3Pp3/8/8/4KQ2 b - d3 0 1",                                 # e.p. would not stop check
    "rnbqk1nr/bb3p1p/1q2r3/2pPp3/3P4/7P/1PP1NpPP/R1BQKBNR w KQkq c6 0 1", # e.p. unrelated to check
    "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 37 112",
    "r3k2r/8/8/8/8/8/8/R3K2R w - - 99 50",
    "r3k2r/8/8/8/8/8/8/R3K2R w HAha - 0 1",                               # Shredder-FEN input
    "rk5r/8/8/8/8/8/8/RK5R w AHah - 0 1",
    "1r2k1r1/8/8/8/8/8/8/RR2K1RR w BGbg - 0 1",                           # inner rooks: file letters
    "1r2k1r1/8/8/8/8/8/8/RR2K1RR w KQkq - 0 1",                           # X-FEN: outermost rooks
    "2nnrbkr/p1qppppp/8/1ppb4/6PP/3PP3/PPP2P2/BQNNRBKR w HEhe - 0 1",
    "2r5/8/8/8/8/8/6PP/k2KR3 w K - 0 1",
    "r2r3k/p7/3p4/8/8/P6P/8/R3K2R b KQq - 0 1",
    "8/8/8/4k3/8/8/8/4K3 w - - 0 1",
] + [p.fen for p in load("tricky")] + [p.fen for p in load("chess960")[::64]]


@pytest.mark.parametrize("chess960", [False, True], ids=["standard", "960"])
@pytest.mark.parametrize("fen", ROUND_TRIP_FENS)
def test_fen_matches_python_chess(fen, chess960):
    # python-chess keeps non-corner castling rights only in chess960 mode; pyrope's flag changes
    # move notation only, so its FEN and key must match python-chess's 960 board either way.
    theirs = chess.Board(fen, chess960=True)
    ours = pyrope.Board(fen, chess960=chess960)
    assert ours.fen() == theirs.fen()
    assert ours.fen(shredder=True) == theirs.fen(shredder=True)
    assert ours.key == chess.polyglot.zobrist_hash(theirs)
    assert ours.white_to_move == (theirs.turn == chess.WHITE)
    assert (ours.halfmove_clock, ours.fullmove_number) == (theirs.halfmove_clock, theirs.fullmove_number)
    # Our own output reads back as the same FEN. (Not always the same key: a FEN omits an
    # en-passant square nobody can legally use, which Polyglot still hashes if a pawn is beside.)
    for text in (ours.fen(), ours.fen(shredder=True)):
        assert pyrope.Board(text, chess960=chess960).fen() == ours.fen()


def test_epd_gets_default_counters():
    board = pyrope.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3")
    assert board.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    assert pyrope.Board(START.rsplit(" ", 1)[0]).fen() == START  # five fields


def test_xfen_and_shredder_fen_name_the_same_position():
    xfen = pyrope.Board("1r2k1r1/8/8/8/8/8/8/RR2K1RR w GBkq - 0 1", chess960=True)
    shredder = pyrope.Board("1r2k1r1/8/8/8/8/8/8/RR2K1RR w BGbg - 0 1", chess960=True)
    assert (xfen.fen(), xfen.key, sorted(xfen.legal_moves())) == \
        (shredder.fen(), shredder.key, sorted(shredder.legal_moves()))


# --- FEN errors ------------------------------------------------------------------------------

BAD_FENS = [
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq", "fields"),
    (START + " 1", "fields"),
    ("", "fields"),
    ("rnbqkbnr/pppppppp/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks"),
    ("rnbqkbnr/pppppppp/8/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "ranks"),
    ("rnbqkbnr/pppppppp/8/8/4X3/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "piece"),
    ("rnbqkbnr/pppppppp/8/8/7/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank"),
    ("rnbqkbnr/pppppppp/8/8/4p4/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank"),
    ("rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "rank"),
    ("4k3/8/8/8/8/8/8/8 w - - 0 1", "king"),
    ("3kk3/8/8/8/8/8/8/4K3 w - - 0 1", "king"),
    ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", "king"),
    ("3Pk3/8/8/8/8/8/8/4K3 w - - 0 1", "pawn"),
    ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", "pawn"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "side"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR W KQkq - 0 1", "side"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkx - 0 1", "castling"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ1q - 0 1", "castling"),
    ("r3k2r/8/8/8/8/8/4K3/R6R w KQkq - 0 1", ("castling", "king")),
    ("r3k2r/8/8/8/8/8/4K3/R6R w H - 0 1", ("castling", "king")),
    ("r3k2r/8/8/8/8/8/8/R3K3 w KQkq - 0 1", ("castling", "rook")),
    ("r3k2r/8/8/8/8/8/8/R3K2R w Gkq - 0 1", ("castling", "rook")),
    ("4k3/8/8/8/8/8/8/4K2B w H - 0 1", ("castling", "rook")),
    ("4k3/8/8/8/8/8/8/4K2r w H - 0 1", ("castling", "rook")),
    ("r3k1rr/8/8/8/8/8/8/R3K1RR w KGkq - 0 1", ("castling", "two")),
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkqk - 0 1", ("castling", "two")),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e3 0 1", "passant"),      # wrong rank
    ("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e4 0 1", "passant"),    # wrong rank
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "passant"),      # no pawn
    ("rnbqkbnr/pppp1ppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq d6 0 1", "passant"),    # no pawn
    ("rnbqkbnr/pppp1ppp/8/4P3/8/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 1", "passant"),    # own pawn
    ("rnbqkb1r/ppppnppp/8/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "passant"),    # e7 taken
    ("rnbqkb1r/pppp1ppp/4n3/4p3/8/8/PPPPPPPP/RNBQKBNR w KQkq e6 0 1", "passant"),  # e6 taken
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq z9 0 1", "passant"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e 0 1", "passant"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - x 1", "halfmove"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1.5", "fullmove"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - -1 1", "negative"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 -3", "negative"),
    ("4k3/8/8/8/8/8/4R3/4K3 w - - 0 1", "check"),
    ("k7/8/8/8/8/8/8/RK6 w Q - 0 1", "check"),
]


@pytest.fixture
def played_board():
    """A board with some history, to show a failed set_fen keeps all of it."""
    return board_after("e2e4 e7e5 g1f3")


@pytest.mark.parametrize("fen, keywords", BAD_FENS)
def test_bad_fen_rejected(fen, keywords, played_board):
    keywords = (keywords,) if isinstance(keywords, str) else keywords
    with pytest.raises(pyrope.FenError) as error:
        pyrope.Board(fen)
    message = str(error.value).lower()
    assert all(word in message for word in keywords), message

    before = snapshot(played_board)
    with pytest.raises(pyrope.FenError):
        played_board.set_fen(fen)
    assert snapshot(played_board) == before
    assert played_board.pop() == "g1f3"


@pytest.mark.parametrize("counters", ["2147483648 1", "0 2147483648", "0 1073741825",
                                      "99999999999999999999 1"])
def test_huge_counters_accepted_or_fen_error(counters):
    """Whatever the engine's limit, a FEN it cannot hold must give a FenError."""
    fen = f"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - {counters}"
    try:
        board = pyrope.Board(fen)
    except pyrope.FenError:
        return
    assert board.fen() == fen


def test_set_fen_replaces_position_and_history(played_board):
    played_board.set_fen(KIWIPETE)
    assert played_board.fen() == KIWIPETE and played_board.move_stack == []
    with pytest.raises(IndexError):
        played_board.pop()


# --- moves -----------------------------------------------------------------------------------

ILLEGAL_MOVES = [
    (START, "e2e5"), (START, ""), (START, "zz"), (START, "e2e4q"), (START, "e7e5"),
    (START, "a1a1"), (START, "e1g1"), (START, "e1h1"), (START, "e2e4e5"), (START, "E2E4 x"),
    ("4r2k/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8q"),      # promotion square blocked
    ("k7/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8"),         # promotion piece missing
    ("k7/4P3/8/8/8/8/8/K7 w - - 0 1", "e7e8k"),
    ("k7/8/8/8/8/8/4P3/K7 w - - 0 1", "e2e3q"),        # not a promotion
    ("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1g1"),  # through an attacked square
    ("r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1", "e1h1"),
    ("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "e1g1"),      # no right
    ("r3k2r/8/8/8/8/8/8/R3K2R w kq - 0 1", "e1c1"),
    ("r3k2r/8/8/8/8/8/8/R3K2R b KQ - 0 1", "e8g8"),
    ("4k3/8/8/8/8/8/4r3/4K3 w - - 0 1", "e1d2"),        # into check
    ("1b1k4/8/8/1rPpK3/8/8/8/8 w - d6 0 1", "c5d6"),    # pinned e.p. capture
]


@pytest.mark.parametrize("fen, uci", ILLEGAL_MOVES)
def test_illegal_move_rejected(fen, uci):
    board = pyrope.Board(fen)
    before = snapshot(board)
    with pytest.raises(pyrope.IllegalMoveError) as error:
        board.push(uci)
    assert uci in str(error.value)
    with pytest.raises(pyrope.IllegalMoveError):
        board.move_code(uci)
    assert snapshot(board) == before


def test_push_pop_and_move_stack():
    board = pyrope.Board()
    moves = ["e2e4", "c7c5", "g1f3", "d7d6"]
    fens = []
    for uci in moves:
        fens.append(board.fen())
        board.push(uci)
    assert board.move_stack == moves
    for uci in reversed(moves):
        assert board.pop() == uci
        assert board.fen() == fens.pop()
    with pytest.raises(IndexError):
        board.pop()


@pytest.mark.parametrize("kind", ["bogus", "", "ALL"])
def test_unknown_move_kind(kind):
    with pytest.raises(ValueError):
        pyrope.Board().legal_moves(kind)


def test_evasions_only_in_check():
    with pytest.raises(ValueError):
        pyrope.Board().legal_moves("evasions")
    board = board_after("e2e4 f7f6 d2d4 g7g5 d1h5")
    assert board.is_check()
    assert sorted(board.legal_moves("evasions")) == sorted(board.legal_moves()) == []


# --- castling notation -----------------------------------------------------------------------

def spec_uci(board960, move, chess960):
    """python-chess 960 notation, with the one standard-mode exception: a castling with the king
    on the e-file and the rook on a corner is written e1g1/e1c1 (e8g8/e8c8)."""
    uci = board960.uci(move)
    if not chess960 and board960.is_castling(move) and chess.square_file(move.from_square) == 4:
        rook_file = chess.square_file(move.to_square)
        if rook_file in (0, 7):
            king_to = chess.square(6 if rook_file == 7 else 2, chess.square_rank(move.from_square))
            uci = uci[:2] + chess.square_name(king_to)
    return uci


CASTLING_FENS = [
    CASTLES,
    CASTLES.replace(" w ", " b "),
    "rk5r/8/8/8/8/8/8/RK5R w KQkq - 0 1",            # king on b1: king takes rook
    "1r2k1r1/8/8/8/8/8/8/RR2K1RR w BGbg - 0 1",      # e-file king, inner rook
    "r3k2r/8/8/8/8/8/5r2/R3K2R w KQkq - 0 1",
] + [p.fen for p in load("tricky")] + [p.fen for p in load("chess960")[::32]]


@pytest.mark.parametrize("chess960", [False, True], ids=["standard", "960"])
@pytest.mark.parametrize("fen", CASTLING_FENS)
def test_castling_notation(fen, chess960):
    theirs = chess.Board(fen, chess960=True)
    expected = sorted(spec_uci(theirs, m, chess960) for m in theirs.legal_moves)
    assert sorted(pyrope.Board(fen, chess960=chess960).legal_moves()) == expected


@pytest.mark.parametrize("fen, canonical, alias", [
    (CASTLES, "e1g1", "e1h1"),
    (CASTLES, "e1c1", "e1a1"),
    (CASTLES.replace(" w ", " b "), "e8g8", "e8h8"),
    (CASTLES.replace(" w ", " b "), "e8c8", "e8a8"),
])
@pytest.mark.parametrize("spelling", ["canonical", "alias"])
def test_standard_castling_accepts_both_notations(fen, canonical, alias, spelling):
    theirs = chess.Board(fen)
    theirs.push_uci(canonical)
    board = pyrope.Board(fen)
    assert canonical in board.legal_moves() and alias not in board.legal_moves()
    assert board.move_code(alias) == board.move_code(canonical)
    board.push(canonical if spelling == "canonical" else alias)
    assert board.fen() == theirs.fen()
    assert board.key == chess.polyglot.zobrist_hash(theirs)
    assert board.pop() == canonical
    assert board.fen() == fen


@pytest.mark.parametrize("fen, moves", [
    (CASTLES.replace(" w ", " b "), "e8g8 e1c1"),
    (CASTLES.replace(" w ", " b "), "e8c8 e1g1"),
    ("4k3/8/8/8/8/8/r7/4K2R w K - 0 1", "e1g1 a2a1 g1h2 a1e1"),  # later a black rook on e1
])
def test_move_stack_keeps_the_pushed_notation(fen, moves):
    assert board_after(moves, fen).move_stack == moves.split()


def test_chess960_flag_switches_notation():
    board = pyrope.Board(CASTLES)
    board.chess960 = True
    assert board.chess960 and {"e1h1", "e1a1"} <= set(board.legal_moves())
    assert not {"e1g1", "e1c1"} & set(board.legal_moves())
    board.push("e1h1")
    assert board.fen() == "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"
    board.chess960 = False
    assert board.fen() == "r3k2r/pppppppp/8/8/8/8/PPPPPPPP/R4RK1 b kq - 1 1"
    assert board.pop() == "e1g1"
    assert board.fen() == CASTLES


# --- move codes ------------------------------------------------------------------------------
# to | from << 6 | promotion << 12 | kind << 14, with the engine's Stockfish-style values:
# kind 1 promotion (piece n, b, r, q = 0..3), 2 en passant, 3 castling (to = the rook's square).

def code(frm, to, promo=0, kind=0):
    return sq(to) | sq(frm) << 6 | promo << 12 | kind << 14


@pytest.mark.parametrize("fen, uci, expected", [
    (START, "e2e4", 28 | 12 << 6),
    (START, "g1f3", code("g1", "f3")),
    (START, "b1a3", code("b1", "a3")),
    (PROMOTIONS, "b7b8n", code("b7", "b8", 0, 1)),
    (PROMOTIONS, "b7b8b", code("b7", "b8", 1, 1)),
    (PROMOTIONS, "b7b8r", code("b7", "b8", 2, 1)),
    (PROMOTIONS, "b7a8q", code("b7", "a8", 3, 1)),
    (PROMOTIONS, "e5d6", code("e5", "d6", 0, 2)),
    (PROMOTIONS, "e1g1", code("e1", "h1", 0, 3)),
    (PROMOTIONS, "e1h1", code("e1", "h1", 0, 3)),
    (PROMOTIONS, "e1c1", code("e1", "a1", 0, 3)),
    (PROMOTIONS, "a1a8", code("a1", "a8")),
])
def test_move_code(fen, uci, expected):
    board = pyrope.Board(fen)
    before = snapshot(board)
    assert board.move_code(uci) == expected
    assert snapshot(board) == before


@pytest.mark.parametrize("fen", [START, KIWIPETE, PROMOTIONS])
def test_move_codes_distinct_and_16_bit(fen):
    board = pyrope.Board(fen)
    codes = [board.move_code(uci) for uci in board.legal_moves()]
    assert len(set(codes)) == len(codes)
    assert all(0 < c < 1 << 16 for c in codes)


# --- game end --------------------------------------------------------------------------------

def test_threefold_repetition():
    cycle = "g1f3 g8f6 f3g1 f6g8"
    board = board_after(cycle)
    assert board.is_repetition(2) and not board.is_repetition(3) and not board.is_repetition()
    assert board.outcome() is None
    for uci in cycle.split():
        board.push(uci)
    assert board.is_repetition(3) and board.is_repetition()
    assert board.outcome() == ("1/2-1/2", "Threefold repetition")
    board.pop()
    assert board.is_repetition(2) and not board.is_repetition(3)


def test_repetition_ignores_impossible_en_passant():
    """After e2e4 the pinned d4 pawn cannot take en passant, so the position after the knight
    shuffle is the same position (as python-chess and FIDE count it), though Polyglot keys differ."""
    fen = "1n6/8/8/8/k2p3R/8/4P3/4K1N1 w - - 0 1"
    moves = "e2e4 b8c6 g1f3 c6b8 f3g1 b8c6 g1f3 c6b8 f3g1".split()
    theirs, ours = chess.Board(fen), pyrope.Board(fen)
    for ply, uci in enumerate(moves, 1):
        theirs.push_uci(uci)
        ours.push(uci)
        for count in (2, 3):
            assert ours.is_repetition(count) == theirs.is_repetition(count), (ply, count)
    assert ours.outcome() == ("1/2-1/2", "Threefold repetition")


def test_fifty_move_rule():
    board = pyrope.Board("8/8/4k3/8/8/4K3/8/R7 w - - 99 80")
    assert board.halfmove_clock == 99 and not board.is_fifty_moves() and board.outcome() is None
    board.push("a1a2")
    assert board.halfmove_clock == 100 and board.is_fifty_moves()
    assert board.outcome() == ("1/2-1/2", "Fifty-move rule")
    board.pop()
    board.push("e3e4")
    assert board.is_fifty_moves()


def test_checkmate_beats_fifty_moves():
    board = pyrope.Board("7k/6Q1/6K1/8/8/8/8/8 b - - 100 80")
    assert board.is_checkmate() and not board.is_fifty_moves()
    assert board.outcome() == ("1-0", "White mates")


@pytest.mark.parametrize("fen, uci, clock", [
    ("4k3/8/8/8/8/8/4P3/R3K3 w - - 10 20", "a1a5", 11),
    ("4k3/8/8/8/8/8/4P3/R3K3 w - - 10 20", "e2e4", 0),
    ("r3k3/8/8/8/8/8/4P3/R3K3 w - - 10 20", "a1a8", 0),
])
def test_halfmove_clock(fen, uci, clock):
    board = pyrope.Board(fen)
    board.push(uci)
    assert board.halfmove_clock == clock
    assert board.fullmove_number == 20 and not board.white_to_move


@pytest.mark.parametrize("moves, fen, outcome", [
    ("f2f3 e7e5 g2g4 d8h4", START, ("0-1", "Black mates")),
    ("e2e4 e7e5 f1c4 b8c6 d1h5 g8f6 h5f7", START, ("1-0", "White mates")),
    ("", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", ("1/2-1/2", "Stalemate")),
    ("", "8/8/8/4k3/8/8/8/4K3 w - - 0 1", ("1/2-1/2", "Insufficient material")),
    ("", "8/8/8/4k3/8/8/8/2B1K3 b - - 0 1", ("1/2-1/2", "Insufficient material")),
    ("a1b3", "8/8/8/4k3/8/1r6/8/N3K3 w - - 0 1", ("1/2-1/2", "Insufficient material")),
    ("", START, None),
    ("", KIWIPETE, None),
])
def test_outcome(moves, fen, outcome):
    board = board_after(moves, fen)
    assert board.outcome() == outcome
    decisive = outcome is not None and outcome[0] != "1/2-1/2"
    assert board.is_checkmate() == decisive
    assert board.is_stalemate() == (outcome == ("1/2-1/2", "Stalemate"))
    assert board.has_legal_moves() == (outcome is None or outcome[1] == "Insufficient material")


@pytest.mark.parametrize("fen", [
    "8/3k4/8/8/8/8/8/4K3 w - - 0 1",        # K v K
    "8/3k4/8/8/8/8/8/2B1K3 w - - 0 1",      # KB v K
    "8/3k4/8/8/8/8/8/1N2K3 w - - 0 1",      # KN v K
    "8/3k4/8/8/8/8/8/NN2K3 w - - 0 1",      # KNN v K
    "8/3k4/8/8/8/8/8/B1B1K3 w - - 0 1",     # bishops all on dark squares
    "8/3k4/8/8/8/8/8/1B2KB2 w - - 0 1",     # bishops all on light squares
    "8/3k4/8/8/8/8/8/BB2K3 w - - 0 1",      # bishops on both colours
    "1b6/3k4/8/8/8/8/8/2B1K3 w - - 0 1",    # KB v KB, both dark
    "2b5/3k4/8/8/8/8/8/2B1K3 w - - 0 1",    # KB v KB, opposite colours
    "b1b5/3k4/8/8/8/8/8/4K3 w - - 0 1",     # K v KBB, same colour
    "1n6/3k4/8/8/8/8/8/1N2K3 w - - 0 1",    # KN v KN
    "1n6/3k4/8/8/8/8/8/2B1K3 w - - 0 1",    # KB v KN
    "8/3k4/8/8/8/8/4P3/4K3 w - - 0 1",      # pawn
    "8/3k4/8/8/8/8/8/R3K3 w - - 0 1",       # rook
    "8/3k4/8/8/8/8/8/Q3K3 w - - 0 1",       # queen
    "7k/8/8/8/8/8/8/6bK w - - 0 1",
])
def test_insufficient_material_as_python_chess(fen):
    assert pyrope.Board(fen).is_insufficient_material() == chess.Board(fen).is_insufficient_material()


# --- copy ------------------------------------------------------------------------------------

def test_copy_is_independent():
    board = board_after("e2e4 e7e5")
    board.chess960 = True
    clone = board.copy()
    assert snapshot(clone) == snapshot(board) and clone.chess960
    clone.push("g1f3")
    clone.chess960 = False
    assert board.move_stack == ["e2e4", "e7e5"] and board.chess960
    assert board.fen() == "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2"
    board.pop()
    board.pop()
    assert board.fen() == START
    assert clone.move_stack == ["e2e4", "e7e5", "g1f3"]
    assert [clone.pop() for _ in range(3)] == ["g1f3", "e7e5", "e2e4"]
    assert clone.fen() == START
