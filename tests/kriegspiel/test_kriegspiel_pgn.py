"""Kriegspiel PGN (pyrope.kriegspiel.pgn, issue 16 item 2): hand-made games for each referee code,
the full and filtered games of seeded random games written, read back and written again, python-chess
reading a full game as chess, the privacy of filtered games, and bad PGNs named by game and ply."""
import io
import logging
import random
import re

import chess
import chess.pgn
import pytest

from kriegspiel_tries import candidate_moves, written
from pyrope.kriegspiel import Referee
from pyrope.kriegspiel.pgn import OwnBoard, PgnError, PgnReader, game_from_referee, read_game

RANDOM_GAMES = 200


def played(fen, *tries, headers=None):
    """The full game of `tries` from fen (None: the start), and its referee."""
    referee = Referee(fen) if fen else Referee()
    for text in tries:
        referee.try_move(text)
    return game_from_referee(referee, headers), referee


def movetext(game):
    return game.pgn().split("\n\n")[1].replace("\n", " ")


# --- Hand-made games ----------------------------------------------------------------------------

# The example of docs/kriegspiel.md: refused tries (one blocked by a hidden knight, one not
# answering a check), pawn tries, captures and a check.
EXAMPLE_TRIES = ["e2e5", "e2e4", "d7d5", "px", "d8d5", "b1c3", "d5e5", "d2d4", "g1e2", "e5b2", "c8g4"]
EXAMPLE_TAGS = {"Event": "Example", "Round": "1", "White": "Alice", "Black": "Bob"}
EXAMPLE_FULL = """\
[Event "Example"]
[Site "?"]
[Date "????.??.??"]
[Round "1"]
[White "Alice"]
[Black "Bob"]
[Result "*"]
[Variant "Kriegspiel"]

1. e4 { : e2e5} 1... d5 {P1 : } 2. exd5 {Xd5 : } 2... Qxd5 {Xd5 : } 3. Nc3
{ : } 3... Qe5+ {CF : } 4. Nge2 { : d2d4} 4... Bg4 { : e5b2} *

"""
EXAMPLE_WHITE = EXAMPLE_FULL.replace('[Variant "Kriegspiel"]', '[Variant "Kriegspiel"]\n[Narrator "White"]').replace(
    """1... d5 {P1 : } 2. exd5 {Xd5 : } 2... Qxd5 {Xd5 : } 3. Nc3
{ : } 3... Qe5+ {CF : } 4. Nge2 { : d2d4} 4... Bg4 { : e5b2} *""",
    """1... ?? {P1 : ??} 2. exd5 {Xd5 : } 2... ?? {Xd5 : ??} 3. Nc3
{ : } 3... ?? {CF : ??} 4. Nge2 { : d2d4} 4... ?? { : ??} *""")


def test_the_documented_example():
    game, _ = played(None, *EXAMPLE_TRIES, headers=EXAMPLE_TAGS)
    assert game.pgn() == EXAMPLE_FULL
    assert game.filtered(chess.WHITE).pgn() == EXAMPLE_WHITE != EXAMPLE_FULL


@pytest.mark.parametrize("fen, tries, expected", [
    ("4k3/7p/5b2/8/8/8/P7/4K3 b - - 0 1", ["f6h4"], "1... Bh4+ {CS : } *"),
    ("4k3/2b4p/8/8/8/8/P7/4K3 b - - 0 1", ["c7a5"], "1... Ba5+ {CL : } *"),
    ("4k3/8/8/8/8/8/P6r/4K3 b - - 0 1", ["h2h1"], "1... Rh1+ {CR : } *"),
    # a refused try, blocked by a man Black cannot see
    ("q6k/8/8/8/8/8/P6P/1K6 b - - 0 1", ["a8a1", "a8b8"], "1... Qb8+ {CF : a8a1} *"),
    ("4k3/8/8/6n1/8/8/P7/4K3 b - - 0 1", ["g5f3"], "1... Nf3+ {CN : } *"),
    # a double check: two codes
    ("4k3/8/8/8/4N3/8/P7/K3R3 w - - 0 1", ["e4d6"], "1. Nd6+ {CF, CN : } *"),
    # en passant: the taken pawn's square; the double step gave a pawn try
    ("4k3/4p3/8/3P4/8/8/8/4K3 b - - 0 1", ["e7e5", "d5e6"], "1... e5 {P1 : } 2. dxe6 {Xe5 : } *"),
    # a promotion (unwritten: a queen) taking a piece; pawn tries before the first move
    ("3rk3/2P5/8/8/8/8/1p6/B3K3 w - - 0 1", ["e1f1", "b2a1"], "{P1} 1. Kf1 {P1 : } 1... bxa1=Q+ {Xa1, CR : } *"),
    # two pawn tries (promotion captures, each counted once), an underpromotion taking a piece
    ("rnbbk3/2P5/8/8/8/8/8/4K3 w - - 0 1", ["c7c8r", "c7d8n"], "{P2} 1. cxd8=N {Xd8 : c7c8r} *"),
    # castling both ways, a refused castling through an attacked square
    ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1", ["e1e3", "o-o-o", "O-O"], "1. O-O-O { : e1e3} 1... O-O { : } *"),
    ("r3k2r/8/8/8/8/8/6r1/R3K2R w KQkq - 0 1", ["o-o", "e1c1"], "1. O-O-O { : O-O} *"),
])
def test_each_code(fen, tries, expected):
    game, _ = played(fen, *tries)
    assert movetext(game) == expected
    assert read_game(game.pgn()).pgn() == game.pgn()


@pytest.mark.parametrize("tries, result, last", [
    (["f2f3", "e7e5", "g2g4", "d8h4"], "0-1", "2... Qh4# {CS : } 0-1"),
    (["e2e4", "e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"], "1-0", "4. Qxf7# {Xf7, CS : } 1-0"),
])
def test_a_mate_gives_the_result(tries, result, last):
    game, referee = played(None, *tries)
    assert game.headers["Result"] == result == referee.outcome.result()
    assert movetext(game).endswith(last)
    assert read_game(game.pgn()).pgn() == game.pgn()


def test_a_draw_gives_the_result_and_a_start_position_its_tags():
    game, _ = played("7k/5Q2/8/8/8/8/8/K7 w - - 0 1", "a1c3", "f7g6")
    assert game.headers["Result"] == "1/2-1/2"
    assert (game.headers["SetUp"], game.headers["FEN"]) == ("1", "7k/5Q2/8/8/8/8/8/K7 w - - 0 1")
    assert movetext(game) == "1. Qg6 { : a1c3} 1/2-1/2"


def test_an_unfinished_game_keeps_a_given_result_but_a_finished_one_only_its_own():
    game, referee = played(None, "e2e4", headers={"Result": "0-1"})
    assert game.headers["Result"] == "0-1"      # Black won outside the rules of play, say by a fault
    assert read_game(game.pgn()).headers["Result"] == "0-1"
    for text in ("e7e5", "d1h5", "b8c6", "f1c4", "g8f6", "h5f7"):
        referee.try_move(text)
    with pytest.raises(ValueError, match="The referee ended the game 1-0, not 0-1."):
        game_from_referee(referee, {"Result": "0-1"})


def test_the_opening_announcement_is_written_before_the_first_move():
    game, _ = played("4k3/8/8/8/8/3p4/4P3/4K3 w - - 0 1", "e2d3")
    assert game.opening == ("P1",)
    assert movetext(game) == "{P1} 1. exd3 {Xd3 : } *"
    assert read_game(game.pgn()).pgn() == game.pgn()


# --- The narrator's disambiguation --------------------------------------------------------------

def test_a_move_ambiguous_only_to_its_narrator_carries_the_disambiguation():
    # The c3 knight is pinned by the black bishop on b4, so the referee writes Ne2; White, not
    # seeing the bishop, might have moved either knight there: Nge2.
    game, _ = played("4k3/8/8/8/1b6/2N5/8/4K1N1 w - - 0 1", "g1e2")
    assert movetext(game) == "1. Ne2 { : } *"
    assert movetext(game.filtered(chess.WHITE)) == "1. Nge2 { : } *"
    assert read_game(game.filtered(chess.WHITE).pgn()).plies[0].move == "g1e2"


def test_a_rook_blocked_by_a_hidden_man_still_counts_for_the_narrator():
    # Rooks a1 and h1, a black knight on c1 between: the referee writes Rf1, White Rhf1.
    game, _ = played("4k3/8/8/8/8/8/6K1/R1n4R w - - 0 1", "h1f1")
    assert movetext(game) == "1. Rf1 { : } *"
    assert movetext(game.filtered(chess.WHITE)) == "1. Rhf1 { : } *"


def test_own_board_candidates_hold_every_pawn_capture_and_rank_file_rules():
    own = OwnBoard("4k3/8/8/8/8/8/4P3/R3K2R w KQ - 0 1", chess.WHITE)
    moves = {move.uci() for move in own.candidates()}
    assert {"e2d3", "e2f3", "e2e3", "e2e4", "e1g1", "e1c1"} <= moves
    assert own.san(chess.Move.from_uci("a1d1"), (), False) == "Rd1"
    assert own.san(chess.Move.from_uci("h1f1"), ("Xf1", "CF"), False) == "Rxf1+"


# --- python-chess reads a full game as chess ----------------------------------------------------

def python_chess_reads(text, referee):
    logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)     # it logs the unknown variant
    game = chess.pgn.read_game(io.StringIO(text))
    assert [str(error) for error in game.errors] == ["unsupported variant: Kriegspiel"]
    assert [move.uci() for move in game.mainline_moves()] == referee.moves()
    del game.headers["Variant"]                                   # game.board() needs a known variant
    assert game.end().board().fen() == referee.fen()


def test_python_chess_reads_the_example():
    game, referee = played(None, *EXAMPLE_TRIES)
    python_chess_reads(game.pgn(), referee)


# --- Random games -------------------------------------------------------------------------------

def random_game(seed):
    """A seeded random game on the referee: the mover's tries from its own men, in random written
    forms, `px` now and then; half the turns take men first (so games end sooner)."""
    rng = random.Random(seed)
    referee, board = Referee(), chess.Board()
    while referee.outcome is None and len(referee.turns) < 300:
        if referee.pawn_tries == 1 and rng.random() < 0.3:
            referee.try_move("px")
        else:
            for move in candidate_moves(board, rng, captures_first=rng.random() < 0.5):
                text, _ = written(move, board, rng)
                if referee.try_move(text).legal:
                    break
        board.push(chess.Move.from_uci(referee.moves()[-1]))
    return referee


def test_random_games_round_trip_and_python_chess_reads_them():
    ends, texts = set(), []
    for seed in range(RANDOM_GAMES):
        referee = random_game(seed)
        game = game_from_referee(referee, {"Round": str(seed)})
        text = game.pgn()
        assert read_game(text).pgn() == text
        python_chess_reads(text, referee)
        for color in chess.COLORS:
            filtered = game.filtered(color).pgn()
            back = read_game(filtered)
            assert back.pgn() == filtered
            # the narrator's own moves, refused tries and every announcement read back
            assert [(p.move, p.refused, p.codes) for p in back.plies if p.mover == color] == \
                [(t.move, t.refused, game.plies[i].codes) for i, t in enumerate(referee.turns) if t.mover == color]
        ends.add(referee.outcome.termination if referee.outcome else None)
        texts.append(text)
    assert {chess.Termination.CHECKMATE, chess.Termination.STALEMATE} <= ends
    # a file of all of them reads back whole
    reader = PgnReader("".join(texts))
    assert [game.pgn() for game in reader] == texts and reader.errors == []


def knowledge(referee, color):
    """All `color` knows of a game, gathered from the referee's record directly: its own tries
    and moves, and every announcement."""
    return (referee.start_fen, announcement_messages(referee.opening),
            tuple((t.mover, t.refused if t.mover == color else None, t.move if t.mover == color else None,
                   announcement_messages(t.announcement)) for t in referee.turns))


def announcement_messages(announcement):
    return tuple(announcement.messages())


def game_with_blind_white(white_seed, black_seed, plies=6):
    """White chooses its tries from its own knowledge only (its generator is seeded by it), Black
    at random: games with the same White knowledge differ only in what White cannot know."""
    referee, board = Referee(), chess.Board()
    black = random.Random(black_seed)
    while len(referee.turns) < plies and referee.outcome is None:
        rng = black if board.turn == chess.BLACK else random.Random(repr((white_seed, knowledge(referee, chess.WHITE))))
        for move in candidate_moves(board, rng, nonsense=1):
            if referee.try_move(move.uci()).legal:
                break
        board.push(chess.Move.from_uci(referee.moves()[-1]))
    return referee


def test_a_filtered_game_holds_exactly_what_its_side_knows():
    by_knowledge = {}
    for white_seed in range(6):
        for black_seed in range(40):
            referee = game_with_blind_white(white_seed, black_seed)
            game = game_from_referee(referee)
            by_knowledge.setdefault(knowledge(referee, chess.WHITE), set()).add(
                (game.filtered(chess.WHITE).pgn(), game.pgn()))
    filtered_texts = {}
    for known, games in by_knowledge.items():
        assert len({filtered for filtered, _ in games}) == 1      # nothing White cannot know
        filtered_texts.setdefault(next(iter(games))[0], known)
    assert len(filtered_texts) == len(by_knowledge)               # everything White knows
    # the check can fail: many groups hold games that differ in Black's moves
    assert sum(len({full for _, full in games}) > 1 for games in by_knowledge.values()) >= 10


def test_no_enemy_move_piece_or_refused_try_appears():
    """Token by token: each opponent's ply is `?? {codes : ??}`, and the refused tries written are
    exactly the narrator's own."""
    for seed in range(40):
        game = game_from_referee(random_game(seed))
        for color in chess.COLORS:
            tokens = re.findall(r"\{[^}]*\}|[^\s{}]+", movetext(game.filtered(color)))
            tokens = [token for token in tokens if not re.fullmatch(r"\d+\.(\.\.)?", token)][:-1]
            assert len(tokens) == 2 * len(game.plies)
            for ply, move, comment in zip(game.plies, tokens[::2], tokens[1::2]):
                codes, refused = comment[1:-1].split(" : ")
                assert codes == ", ".join(ply.codes)                 # public: both hear it
                if ply.mover == color:
                    assert refused == ", ".join(ply.refused)
                else:
                    assert (move, refused) == ("??", "??")


# --- Bad PGNs -----------------------------------------------------------------------------------

def three_games():
    return [game_from_referee(random_game(seed), {"White": f"W{seed}", "Round": str(seed)}).pgn()
            for seed in (1, 2, 3)]


def read_with_middle(middle):
    first, _, last = three_games()
    reader = PgnReader(first + middle + last)
    games = list(reader)
    assert [game.headers["White"] for game in games] == ["W1", "W3"]
    assert len(reader.errors) == 1
    return str(reader.errors[0])


def test_a_bad_code():
    middle = three_games()[1].replace("{ : }", "{CQ : }", 1)
    assert "Game 2 (W2 - ?, round 2), ply 1: 'CQ' is not a referee's code" in read_with_middle(middle)


def test_p0_is_not_a_code():
    middle = three_games()[1].replace("{ : }", "{P0 : }", 1)
    assert "Game 2 (W2 - ?, round 2), ply 1: 'P0' is not a referee's code" in read_with_middle(middle)


def test_an_announcement_contradicting_the_moves():
    middle = three_games()[1].replace("{ : }", "{CF : }", 1)
    assert read_with_middle(middle).startswith(
        "Game 2 (W2 - ?, round 2), ply 1: the record says {CF}, but the referee announces {}.")


def test_an_illegal_move():
    middle = three_games()[1].replace("1. ", "1. Ke4 { : } 1... ", 1)
    assert read_with_middle(middle).startswith("Game 2 (W2 - ?, round 2), ply 1: Ke4 is not a legal move")


def test_a_refused_try_that_is_legal():
    text = three_games()[1]
    game = read_game(text)
    second = game.plies[1]
    middle = text.replace(f"{second.san} {{{', '.join(second.codes)} : ", f"{second.san} {{{', '.join(second.codes)} : "
                          f"{second.move}{', ' if second.refused else ''}", 1)
    assert read_with_middle(middle) == f"Game 2 (W2 - ?, round 2), ply 2: the refused try {second.move} is legal."


def test_a_truncated_game():
    text = three_games()[1]
    cut = text[:len(text) // 2].rsplit("{", 1)[0]            # after a move, before its comment
    ply = cut.count("{") + 1
    for middle in (cut + "\n\n", cut + "{Xe4 \n\n"):
        error = read_with_middle(middle)
        assert error.startswith(f"Game 2 (W2 - ?, round 2), ply {ply}: the game stops at ")
        assert error.endswith("the text is cut short.")
    after_comment = text[:text.index("}", len(text) // 2) + 1]
    assert read_with_middle(after_comment + "\n\n") == (
        f"Game 2 (W2 - ?, round 2), ply {after_comment.count('{')}: the game stops here without a result: "
        "the text is cut short.")


def test_a_wrong_result_and_a_bad_fen():
    game, _ = played(None, "f2f3", "e7e5", "g2g4", "d8h4")
    with pytest.raises(PgnError, match=r"Game 1 \(\? - \?, round \?\), ply 4: the movetext ends 1-0"):
        read_game(game.pgn().replace(" 0-1", " 1-0"))
    with pytest.raises(PgnError, match=r"ply 4: the referee ends the game 0-1, but the Result says 1-0."):
        read_game(game.pgn().replace("0-1", "1-0"))
    with pytest.raises(PgnError, match="its tags: the FEN is not a position"):
        read_game('[FEN "8/8/8/8/8/8/8/8 w - - 0 1"]\n\n*\n')


def test_a_filtered_game_that_shows_the_opponents_move_or_a_move_its_narrator_cannot_make():
    game, _ = played(None, "e2e4", "d7d5", "e4d5")
    black = game.filtered(chess.BLACK).pgn()
    with pytest.raises(PgnError, match="ply 1: Black's record shows what only White knows."):
        read_game(black.replace("1. ??", "1. e4", 1))
    white = game.filtered(chess.WHITE).pgn()
    with pytest.raises(PgnError, match=r"ply 3: exd6 is not a move of White's men"):
        read_game(white.replace("exd5", "exd6"))
    with pytest.raises(PgnError, match="ply 2: a capture is announced where White has no man."):
        read_game(white.replace("1... ?? {P1 : ??}", "1... ?? {Xh5, P1 : ??}"))
    with pytest.raises(ValueError, match="Only a full game can be filtered"):
        game.filtered(chess.WHITE).filtered(chess.BLACK)
