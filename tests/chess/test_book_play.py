"""The book in play, through the installed `pyrope`: UCI driven by python-chess's chess.engine
(book moves on a clock, never in analysis; OwnBook, BookFile, BookDepth, BookVariety), CECP's
`bk` and book thinking line, the terminal's `book`, and bad book files named in each protocol."""
from __future__ import annotations

import struct
import subprocess
from pathlib import Path

import chess
import chess.engine
import chess.polyglot
import pytest

from engine_command import PYROPE
from engine_process import EngineProcess
from pyrope.book.player import DEFAULT_BOOK

pytestmark = [pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed"),
              pytest.mark.skipif(not DEFAULT_BOOK.exists(), reason="the default book is not installed")]
ENTRY = struct.Struct(">QHHI")
CLOCK = chess.engine.Limit(white_clock=60, black_clock=60)


def book_moves(path: Path, board: chess.Board) -> dict[str, int]:
    with chess.polyglot.open_reader(path) as reader:
        return {entry.move.uci(): entry.weight for entry in reader.find_all(board)}


def converse(text: str) -> list[str]:
    result = subprocess.run([PYROPE], input=text, capture_output=True, text=True, timeout=60, check=True)
    return result.stdout.splitlines()


@pytest.fixture
def engine():
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as uci:
        yield uci


def test_the_default_book_plays_on_the_clock_and_says_so(engine):
    assert engine.options["OwnBook"].default is True
    # The shipped book, wherever the engine keeps it (a built executable carries its own copy).
    assert Path(engine.options["BookFile"].default).read_bytes() == DEFAULT_BOOK.read_bytes()
    board = chess.Board()
    for _ in range(6):
        result = engine.play(board, CLOCK, info=chess.engine.INFO_ALL)
        assert result.move.uci() in book_moves(DEFAULT_BOOK, board)
        assert result.info["string"].startswith(f"book move {result.move.uci()}")
        board.push(result.move)


def test_analysis_and_fixed_depth_searches_never_use_the_book(engine):
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=6))
    assert info["depth"] == 6 and "score" in info
    result = engine.play(chess.Board(), chess.engine.Limit(depth=4), info=chess.engine.INFO_ALL)
    assert "string" not in result.info and result.info["depth"] == 4
    engine.configure({"UCI_AnalyseMode": True})
    result = engine.play(chess.Board(), CLOCK, info=chess.engine.INFO_ALL)
    assert "string" not in result.info and result.info["depth"] >= 1


def test_go_infinite_searches_even_in_the_book():
    lines = converse("uci\nposition startpos\ngo infinite\nisready\n")
    assert any(line.startswith("info depth") for line in lines)
    assert not any("book move" in line for line in lines)


def test_own_book_off_and_book_depth_make_it_search(engine):
    engine.configure({"OwnBook": False})
    assert "string" not in engine.play(chess.Board(), CLOCK, info=chess.engine.INFO_ALL).info
    engine.configure({"OwnBook": True, "BookDepth": 0})
    assert "string" not in engine.play(chess.Board(), CLOCK, info=chess.engine.INFO_ALL).info
    engine.configure({"BookDepth": 2})
    board = chess.Board()
    board.push_san("e4")        # ply 2 is the last one asked: Black's first move
    assert "book move" in engine.play(board, CLOCK, info=chess.engine.INFO_ALL).info["string"]
    board.push_san("e5")
    assert "string" not in engine.play(board, CLOCK, info=chess.engine.INFO_ALL).info


def test_book_file_and_variety_off_play_the_heaviest_move(engine, polyglot_book):
    engine.configure({"BookFile": str(polyglot_book), "BookVariety": False})
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with chess.polyglot.open_reader(polyglot_book) as reader:
        expected = reader.find(board).move
    assert engine.play(board, chess.engine.Limit(time=1)).move == expected


def test_a_bad_book_file_is_named_and_the_book_in_use_stays(tmp_path, polyglot_book):
    truncated = tmp_path / "truncated.bin"
    truncated.write_bytes(polyglot_book.read_bytes()[:100])
    lines = converse(f"uci\nsetoption name BookFile value {polyglot_book}\nsetoption name BookFile value {truncated}\n"
                     f"setoption name BookFile value {tmp_path / 'missing.bin'}\nsetoption name BookVariety value false\n"
                     "position startpos moves e2e4 e7e5 g1f3 b8c6\ngo movetime 5000\n")
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 2
    assert str(truncated) in errors[0] and "multiple of 16" in errors[0]
    assert str(tmp_path / "missing.bin") in errors[1] and "no such file" in errors[1]
    board = chess.Board()
    for move in ("e4", "e5", "Nf3", "Nc6"):
        board.push_san(move)
    with chess.polyglot.open_reader(polyglot_book) as reader:
        assert lines[-1].split()[1] == reader.find(board).move.uci()


def test_illegal_entries_are_reported_and_the_engine_searches(tmp_path):
    board = chess.Board()
    path = tmp_path / "bad.bin"
    path.write_bytes(ENTRY.pack(chess.polyglot.zobrist_hash(board), (chess.E2 << 6) | chess.E5, 10, 0))
    lines = converse(f"uci\nsetoption name BookFile value {path}\nposition startpos\ngo movetime 300\n")
    assert any(f"book file {path}: entry 0 (e2e5) is not a legal move here" in line for line in lines)
    assert any(line.startswith("info depth") for line in lines)
    assert chess.Move.from_uci(lines[-1].split()[1]) in board.legal_moves


def test_xboard_bk_lists_the_book_as_xboard_shows_it(polyglot_book):
    lines = converse(f"xboard\nprotover 2\noption BookFile={polyglot_book}\nforce\nusermove e2e4\nbk\nquit\n")
    start = lines.index(next(line for line in lines if line.endswith("% ") or "%" in line))
    listed = lines[start:lines.index("", start)]
    board = chess.Board()
    board.push_san("e4")
    weights = book_moves(polyglot_book, board)
    total = sum(weights.values())
    expected = [f" {100 * w / total:5.1f}% {w:5d} {m}" for m, w in sorted(weights.items(), key=lambda e: -e[1])]
    assert sorted(listed) == sorted(expected)


def test_xboard_book_move_thinking_line_and_bad_file():
    with EngineProcess() as engine:
        engine.send("xboard", "protover 2", "post", "option BookFile=/no/such.bin")
        error = engine.read_until(lambda line: line.startswith("Error"))[-1]
        assert error == "Error (book file /no/such.bin: no such file): option BookFile=/no/such.bin"
        engine.send("new", "level 0 1 0", "go")
        lines = engine.read_until(lambda line: line.startswith("move "))
        move = lines[-1].split()[1]
        assert lines[-2].startswith(f"0 0 0 0 {move} {{book, ")
        assert move in book_moves(DEFAULT_BOOK, chess.Board())
        assert engine.quit() == ""


def test_xboard_plays_book_moves_through_python_chess():
    with chess.engine.SimpleEngine.popen_xboard(PYROPE) as engine:
        board = chess.Board()
        for _ in range(4):
            move = engine.play(board, chess.engine.Limit(white_clock=30, black_clock=30)).move
            assert move.uci() in book_moves(DEFAULT_BOOK, board)
            board.push(move)


def test_terminal_book_command_and_book_replies():
    with EngineProcess() as engine:
        engine.send("book")
        lines = engine.read_until(lambda line: line.startswith("  Nf3"))
        assert lines[0].startswith("Book moves (") and "%  weight" in lines[1]
        engine.send("e4")
        reply = engine.read_until(lambda line: line.startswith("Pyrope plays"))[-1]
        engine.send("book off", "book")
        lines = engine.read_until(lambda line: line.endswith(", not in use):"))
        assert "Pyrope does not use its opening book." in lines
        assert engine.quit() == ""
    assert reply.startswith("Pyrope plays 1...") and reply.endswith("(from the book)")
    after_e4 = chess.Board()
    after_e4.push_san("e4")
    san = reply.split("...")[1].split()[0]
    assert after_e4.parse_san(san).uci() in book_moves(DEFAULT_BOOK, after_e4)


def test_a_pondered_book_move_waits_for_ponderhit():
    with EngineProcess() as engine:
        engine.send("uci", "setoption name Ponder value true", "position startpos moves e2e4",
                    "go ponder wtime 60000 btime 60000", "isready")
        lines = engine.read_until(lambda line: line == "readyok")
        assert not any(line.startswith("bestmove") for line in lines)
        engine.send("ponderhit")
        lines = engine.read_until(lambda line: line.startswith("bestmove"))
        assert lines[-2].startswith("info string book move")
        after_e4 = chess.Board()
        after_e4.push_san("e4")
        assert lines[-1].split()[1] in book_moves(DEFAULT_BOOK, after_e4)
        assert engine.quit() == ""


def test_the_default_books_provenance_names_what_ships_now():
    """books/pyrope.bin.provenance (written by books/build_default_book.py) names the book, the net
    and the hand-crafted weights by SHA-256: each must be the file that ships, so the book is the
    shipped engine's own. (A rebuild from the record gives the same book: the build is
    deterministic; docs say how it was checked.)"""
    import hashlib
    from pyrope.nnue.loader import DEFAULT_NET
    import pyrope.weights
    record = dict(line.split(": ", 1) for line in
                  Path(str(DEFAULT_BOOK) + ".provenance").read_text().splitlines())
    sha = lambda path: hashlib.sha256(Path(path).read_bytes()).hexdigest()  # noqa: E731
    assert record["output"].startswith(f"sha256 {sha(DEFAULT_BOOK)},")
    assert record["net"].startswith(f"pyrope.nnue sha256 {sha(DEFAULT_NET)} ")
    weights = Path(pyrope.weights.__file__).with_name("default.params")
    assert record["weights"].startswith(f"default.params sha256 {sha(weights)} ")
