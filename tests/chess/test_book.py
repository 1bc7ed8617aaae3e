"""The opening book: the compiled Polyglot probe against chess.polyglot on thousands of random
walks (a real book, the default book, a Chess960 book), the builder read back by chess.polyglot,
merge, the move choice, and bad book files."""
from __future__ import annotations

import io
import random
import struct
import subprocess
from pathlib import Path

import chess
import chess.pgn
import chess.polyglot
import pytest

import pyrope
from engine_command import PYROPE
from pyrope.book.builder import BuildOptions, build, merge, write_book
from pyrope.book.player import DEFAULT_BOOK, BookPlayer, game_ply

ENTRY = struct.Struct(">QHHI")


def our_entries(book: pyrope.Book, board: pyrope.Board) -> list[tuple[str, int]]:
    legal, _ = book.probe(board)
    return [(move, weight) for move, weight, _ in legal]


def both_boards(start: chess.Board) -> tuple[chess.Board, pyrope.Board]:
    # The two boards then follow the same moves: a FEN cannot carry an en-passant square whose
    # capture is illegal, yet Polyglot's key counts it (a pawn merely stands ready).
    return start.copy(), pyrope.Board(start.fen(), chess960=start.chess960)


def their_entries(reader, board: chess.Board) -> list[tuple[str, int]]:
    return [(entry.move.uci(), entry.weight) for entry in reader.find_all(board)]


def random_walks(path: Path, walks: int, seed: int, start: chess.Board | None = None) -> int:
    """Follow random book moves (and, with some chance, a random legal move off the book) from the
    start, comparing our probe with chess.polyglot at every position; returns positions compared."""
    rng = random.Random(seed)
    book = pyrope.Book(path)
    compared = 0
    with chess.polyglot.open_reader(path) as reader:
        for _ in range(walks):
            board, ours = both_boards(start or chess.Board())
            for _ in range(40):
                theirs = their_entries(reader, board)
                assert our_entries(book, ours) == theirs, board.fen()
                compared += 1
                if not theirs or rng.random() < 0.05:
                    moves = list(board.legal_moves)
                    if not moves or not theirs and rng.random() < 0.5:
                        break
                    move = rng.choice(moves)
                else:
                    move = chess.Move.from_uci(rng.choice(theirs)[0])
                board.push(move)
                ours.push(move.uci())
    return compared


def test_probe_matches_python_chess_on_a_real_book(polyglot_book):
    assert random_walks(polyglot_book, walks=2000, seed=1) > 20_000


def test_the_real_book_has_castling_entries_and_the_probe_returns_them(polyglot_book):
    # performance.bin stores castling king-takes-rook (e1h1); we must give e1g1 in standard chess.
    book = pyrope.Book(polyglot_book)
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/1B2p3/4P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    with chess.polyglot.open_reader(polyglot_book) as reader:
        assert any(entry.raw_move & 0xFFF == (chess.E1 << 6 | chess.H1) for entry in reader.find_all(board))
    assert "e1g1" in dict(our_entries(book, pyrope.Board(board.fen())))


@pytest.mark.skipif(not DEFAULT_BOOK.exists(), reason="the default book is not installed")
def test_probe_matches_python_chess_on_the_default_book():
    assert random_walks(DEFAULT_BOOK, walks=2000, seed=2) > 10_000


def random_games(count: int, seed: int, chess960: bool) -> str:
    """PGN text of random games (Chess960 from random start positions), with random results."""
    rng = random.Random(seed)
    out = io.StringIO()
    for number in range(count):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        game = chess.pgn.Game.from_board(board)
        node = game
        for _ in range(rng.randrange(8, 30)):
            moves = list(board.legal_moves)
            if not moves:
                break
            # Castle whenever possible, so that the book holds castling entries.
            castles = [move for move in moves if board.is_castling(move)]
            move = rng.choice(castles or moves)
            node = node.add_variation(move)
            board.push(move)
        game.headers["Result"] = rng.choice(["1-0", "0-1", "1/2-1/2"])
        game.headers["Round"] = str(number + 1)
        print(game, file=out, end="\n\n")
    return out.getvalue()


def test_a_chess960_book_built_by_us_probes_like_python_chess(tmp_path):
    pgn = tmp_path / "960.pgn"
    pgn.write_text(random_games(300, seed=3, chess960=True))
    entries, summary = build([str(pgn)], BuildOptions(max_ply=30, min_games=1, uniform=True))
    assert summary.games_used == 300 and not summary.skipped
    path = tmp_path / "960.bin"
    write_book(str(path), entries)
    castling = 0
    book = pyrope.Book(path)
    with chess.polyglot.open_reader(path) as reader:
        text = io.StringIO(pgn.read_text())
        while (game := chess.pgn.read_game(text)) is not None:
            board, ours = both_boards(game.board())
            for move in game.mainline_moves():
                theirs = their_entries(reader, board)
                assert our_entries(book, ours) == theirs
                assert move.uci() in dict(theirs)
                castling += board.is_castling(move)
                board.push(move)
                ours.push(move.uci())
    assert castling > 50


def pgn_game(moves: str, result: str, white_elo: int = 2000, black_elo: int = 2000, **headers: str) -> str:
    tags = {"Result": result, "WhiteElo": str(white_elo), "BlackElo": str(black_elo), **headers}
    return "".join(f'[{key} "{value}"]\n' for key, value in tags.items()) + f"\n{moves} {result}\n\n"


def book_moves(path: Path, board: chess.Board) -> dict[str, int]:
    with chess.polyglot.open_reader(path) as reader:
        return {entry.move.uci(): entry.weight for entry in reader.find_all(board, minimum_weight=0)}


def test_built_book_weights_follow_the_results(tmp_path):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(
        pgn_game("1. e4 e5 2. Nf3 Nc6", "1-0")
        + pgn_game("1. e4 c5 2. Nf3 d6", "0-1")
        + pgn_game("1. e4 e5 2. Nf3 Nf6", "1/2-1/2")
        + pgn_game("1. d4 d5", "1/2-1/2"))
    entries, summary = build([str(pgn)], BuildOptions(min_games=1))
    path = tmp_path / "book.bin"
    summary.file_size = write_book(str(path), entries)
    start = chess.Board()
    # e4: won, lost, drawn -> 2 + 0 + 1; d4: drawn -> 1.
    assert book_moves(path, start) == {"e2e4": 3, "d2d4": 1}
    after_e4 = chess.Board()
    after_e4.push_san("e4")
    # e5 lost once and drew once (0 + 1); c5 won (2).
    assert book_moves(path, after_e4) == {"e7e5": 1, "c7c5": 2}
    after_e4.push_san("e5")
    # Nf3 won once, drew once: 3. Black's Nc6 lost: weight 0, left out.
    assert book_moves(path, after_e4) == {"g1f3": 3}
    after_e4.push_san("Nf3")
    assert book_moves(path, after_e4) == {"g8f6": 1}
    assert summary.games_used == 4 and summary.file_size == path.stat().st_size == 16 * summary.moves


def test_builder_options(tmp_path):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(pgn_game("1. e4 e5 2. Nf3 Nc6", "1-0", 2500, 1500)
                   + pgn_game("1. e4 e5 2. Nf3 Nc6", "0-1", 2500, 1500)
                   + pgn_game("1. d4 d5 2. c4", "1-0", 1500, 2500))
    start, after = chess.Board(), chess.Board()
    after.push_san("e4")

    def built(**options) -> Path:
        path = tmp_path / "out.bin"
        entries, _ = build([str(pgn)], BuildOptions(**{"min_games": 1, **options}))
        write_book(str(path), entries)
        return path

    assert book_moves(built(), start) == {"e2e4": 2, "d2d4": 2}
    assert book_moves(built(min_games=2), start) == {"e2e4": 2}
    assert book_moves(built(uniform=True), start) == {"e2e4": 1, "d2d4": 1}
    assert book_moves(built(uniform=True), after) == {"e7e5": 1}
    assert book_moves(built(only="white", uniform=True), after) == {}
    assert book_moves(built(only="black", uniform=True), start) == {}
    assert book_moves(built(only="black", uniform=True), after) == {"e7e5": 1}
    # Only the moves of players rated 2000 or more: White's in the e4 games, Black's in the d4 game.
    assert book_moves(built(min_elo=2000, uniform=True), start) == {"e2e4": 1}
    assert book_moves(built(min_elo=2000, uniform=True), after) == {}
    # max_ply 1: only White's first moves.
    assert book_moves(built(max_ply=1, uniform=True), after) == {}
    assert book_moves(built(max_ply=1, uniform=True), start) == {"e2e4": 1, "d2d4": 1}


def test_broken_games_are_reported_by_number_and_the_rest_is_used(tmp_path):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(pgn_game("1. e4 e5", "1-0")
                   + pgn_game("1. e4 e5 2. Ke3", "1-0")                   # 2: an illegal move
                   + pgn_game("1. d4 d5", "*")                            # 3: no result
                   + pgn_game("1. e4 e5", "1-0", Variant="Crazyhouse")    # 4: another game
                   + pgn_game("1. c4", "1/2-1/2"))
    entries, summary = build([str(pgn)], BuildOptions(min_games=1))
    assert summary.games_read == 5 and summary.games_used == 2
    assert [number for number, _ in summary.skipped] == [2, 3, 4]
    reasons = dict(summary.skipped)
    assert "unreadable" in reasons[2] and "result" in reasons[3] and "variant" in reasons[4]
    path = tmp_path / "book.bin"
    write_book(str(path), entries)
    # Game 2's legal first moves are not counted either: a broken game is skipped whole.
    assert book_moves(path, chess.Board()) == {"e2e4": 2, "c2c4": 1}


def test_merge_keeps_the_first_book_where_both_have_a_position(tmp_path):
    first, second = tmp_path / "a.bin", tmp_path / "b.bin"
    start = pyrope.Board()
    after = pyrope.Board()
    after.push("e2e4")
    code = pyrope._core.polyglot_move_code
    write_book(str(first), [(start.key, code(start, "e2e4"), 5, 0)])
    write_book(str(second), [(start.key, code(start, "d2d4"), 9, 0), (after.key, code(after, "c7c5"), 4, 0)])
    out = tmp_path / "c.bin"
    write_book(str(out), merge(str(first), str(second)))
    e4 = chess.Board()
    e4.push_san("e4")
    assert book_moves(out, chess.Board()) == {"e2e4": 5}
    assert book_moves(out, e4) == {"c7c5": 4}


def test_write_book_sorts_entries_and_heaviest_first(tmp_path):
    board = pyrope.Board()
    code = pyrope._core.polyglot_move_code
    path = tmp_path / "book.bin"
    write_book(str(path), [(board.key, code(board, "d2d4"), 1, 0), (board.key, code(board, "e2e4"), 7, 0), (1, 0, 1, 0)])
    keys = [entry[0] for entry in ENTRY.iter_unpack(path.read_bytes())]
    assert keys == sorted(keys)
    with chess.polyglot.open_reader(path) as reader:
        assert reader.find(chess.Board()).move.uci() == "e2e4"


# --- choosing a move ------------------------------------------------------------------------

def test_without_variety_the_heaviest_move_is_played_as_polyglot_find(polyglot_book):
    player = BookPlayer()
    player.load(str(polyglot_book))
    player.enabled, player.variety = True, False
    board = chess.Board()
    board.push_san("e4")
    with chess.polyglot.open_reader(polyglot_book) as reader:
        expected = reader.find(board).move.uci()
    assert player.choose(pyrope.Board(board.fen()), random.Random(1)).move == expected


def test_with_variety_moves_are_drawn_in_proportion_to_their_weights(tmp_path):
    board = pyrope.Board()
    code = pyrope._core.polyglot_move_code
    path = tmp_path / "book.bin"
    write_book(str(path), [(board.key, code(board, "e2e4"), 3, 0), (board.key, code(board, "d2d4"), 1, 0)])
    player = BookPlayer()
    player.load(str(path))
    player.enabled = player.variety = True
    rng = random.Random(7)
    picks = [player.choose(board, rng).move for _ in range(4000)]
    assert 0.72 < picks.count("e2e4") / len(picks) < 0.78


def test_book_depth_is_the_last_game_ply_asked(polyglot_book):
    player = BookPlayer()
    player.load(str(polyglot_book))
    player.enabled = True
    board = pyrope.Board()
    board.push("e2e4")      # game ply 1: Black's first move is ply 2
    assert game_ply(board) == 1
    player.depth = 1
    assert player.choose(board, random.Random()) is None
    player.depth = 2
    assert player.choose(board, random.Random()).move in ("e7e5", "c7c5")
    player.depth = 0
    assert player.choose(pyrope.Board(), random.Random()) is None


# --- bad book files -------------------------------------------------------------------------

def test_bad_book_files_are_named_with_what_is_wrong(tmp_path, polyglot_book):
    cases = {"missing.bin": None, "empty.bin": b"", "truncated.bin": polyglot_book.read_bytes()[:1000],
             "unsorted.bin": ENTRY.pack(5, 0, 1, 0) + ENTRY.pack(4, 0, 1, 0)}
    messages = {"missing.bin": "no such file", "empty.bin": "empty", "truncated.bin": "not a multiple of 16",
                "unsorted.bin": "not sorted"}
    for name, data in cases.items():
        path = tmp_path / name
        if data is not None:
            path.write_bytes(data)
        with pytest.raises(pyrope.BookError) as error:
            pyrope.Book(path)
        assert str(path) in str(error.value) and messages[name] in str(error.value)
    with pytest.raises(pyrope.BookError, match="directory"):
        pyrope.Book(tmp_path)


def test_a_failed_load_keeps_the_book_in_use(tmp_path, polyglot_book):
    player = BookPlayer()
    player.load(str(polyglot_book))
    with pytest.raises(pyrope.BookError):
        player.load(str(tmp_path / "missing.bin"))
    assert player.path == str(polyglot_book) and player.entries(pyrope.Board())[0]


def test_illegal_entries_are_reported_and_never_played(tmp_path):
    board = pyrope.Board()
    code = pyrope._core.polyglot_move_code
    path = tmp_path / "book.bin"
    e2e5 = (chess.E2 << 6) | chess.E5
    write_book(str(path), [(board.key, e2e5, 50, 0), (board.key, code(board, "g1f3"), 1, 0)])
    legal, illegal = pyrope.Book(path).probe(board)
    assert [move for move, _, _ in legal] == ["g1f3"] and illegal == [(0, "e2e5")]
    player = BookPlayer()
    player.load(str(path))
    player.enabled = True
    assert {player.choose(board, random.Random(seed)).move for seed in range(20)} == {"g1f3"}


@pytest.mark.skipif(not DEFAULT_BOOK.exists(), reason="the default book is not installed")
def test_the_default_book_is_found_without_options_and_is_sound():
    player = BookPlayer()
    assert player.enabled and player.path == str(DEFAULT_BOOK)
    book = pyrope.Book(DEFAULT_BOOK)
    # Every entry names a legal move of a position reachable in the book; main lines are deep.
    reached, frontier, longest = set(), [pyrope.Board()], 0
    while frontier:
        board = frontier.pop()
        if board.key in reached:
            continue
        reached.add(board.key)
        legal, illegal = book.probe(board)
        assert not illegal
        for move, _, _ in legal:
            child = board.copy()
            child.push(move)
            frontier.append(child)
            longest = max(longest, len(child.move_stack))
    assert len(reached) >= 500 and longest >= 16
    assert len({entry[0] for entry in ENTRY.iter_unpack(DEFAULT_BOOK.read_bytes())}) <= len(reached)


def test_book_command_line(tmp_path, polyglot_book):
    pgn = tmp_path / "games.pgn"
    pgn.write_text(pgn_game("1. e4 e5", "1-0") + pgn_game("1. e4 e5 2. Ke3", "1-0"))
    out = tmp_path / "book.bin"
    result = subprocess.run([PYROPE, "book", "build", str(pgn), "-o", str(out), "--min-games", "1"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    assert "games read: 2, used: 1, skipped: 1" in result.stdout and "game 2:" in result.stdout
    assert f"file size: {out.stat().st_size} bytes" in result.stdout
    shown = subprocess.run([PYROPE, "book", "show", "--book", str(out)], capture_output=True, text=True, timeout=60)
    assert "e4" in shown.stdout and "100.0%" in shown.stdout
    merged = subprocess.run([PYROPE, "book", "merge", str(out), str(polyglot_book), "-o", str(tmp_path / "m.bin")],
                            capture_output=True, text=True, timeout=60)
    assert merged.returncode == 0 and book_moves(tmp_path / "m.bin", chess.Board()) == {"e2e4": 2}
    bad = subprocess.run([PYROPE, "book", "show", "--book", str(pgn)], capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and str(pgn) in bad.stderr and "multiple of 16" in bad.stderr
