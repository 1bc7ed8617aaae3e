"""UGI (kz04px/cutegames ugi.md) over the installed `pyrope`: the handshake, options, new games,
positions, every form of go and every query, and errors in UGI's (UCI's) form."""
from __future__ import annotations

import subprocess

import chess
import pytest

from engine_process import PYROPE, EngineProcess

pytestmark = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")

FOOLS_MATE = "position startpos moves f2f3 e7e5 g2g4 d8h4"
WHITE_MATES = "7k/6Q1/6K1/8/8/8/8/8 b - - 0 1"
STALEMATE = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"
REPETITION = "position startpos moves g1f3 g8f6 f3g1 f6g8 g1f3 g8f6 f3g1 f6g8"


def is_ready(engine: EngineProcess) -> list[str]:
    """Lines the engine wrote before answering isready."""
    engine.send("isready")
    return engine.read_until(lambda line: line == "readyok")[:-1]


def ugi_engine() -> EngineProcess:
    engine = EngineProcess()
    engine.send("ugi")
    engine.read_until(lambda line: line == "ugiok")
    assert is_ready(engine) == []
    return engine


def ask(engine: EngineProcess, question: str) -> str:
    engine.send(f"query {question}")
    return engine.read_until(lambda line: line.startswith(("response ", "info string error")))[-1]


def best_move(engine: EngineProcess, go: str, board: chess.Board, timeout: float = 20) -> list[str]:
    """Send `go ...`; check the bestmove is legal on `board`; return the lines up to it."""
    engine.send(go)
    lines = engine.read_until(lambda line: line.startswith("bestmove "), timeout)
    assert chess.Move.from_uci(lines[-1].split()[1]) in board.legal_moves, lines[-1]
    return lines


def test_handshake_names_the_engine_lists_the_uci_options_and_ends_with_ugiok():
    with EngineProcess() as engine:
        engine.send("ugi")
        lines = engine.read_until(lambda line: line == "ugiok")
        assert lines[0].startswith("id name Pyrope") and lines[1].startswith("id author ")
        uci = subprocess.run([PYROPE], input="uci\nquit\n", capture_output=True, text=True, timeout=30,
                             check=True).stdout.splitlines()
        assert lines[:-1] == uci[:-1] and uci[-1] == "uciok"        # the same id and options
        assert {"option name Hash type spin default 16 min 1 max 65536",
                "option name UCI_Chess960 type check default false"} <= set(lines)
        engine.send("setoption name Hash value 32", "setoption name Threads value 2", "setoption name MultiPV value 1",
                    "setoption name Clear Hash")
        assert is_ready(engine) == []
        assert engine.quit() == ""


BAD_COMMANDS = [
    ("setoption name Hash value lots", "whole number"),
    ("setoption name Threads value 0", "between 1 and 256"),
    ("setoption name MultiPV value 65", "between 1 and 64"),
    ("setoption name UCI_Chess960 value perhaps", "true or false"),
    ("setoption name Colour value red", "no such option"),
    ("setoption Hash 16", "setoption needs"),
    ("uci", "unknown command"),
    ("ucinewgame", "unknown command"),
    ("position startpos moves e2e5", "e2e5"),
    ("position fen 8/8/8/8/8/8/8/8 w - - 0 1", "kings"),
    ("query", "query takes"),
    ("query colour", "query takes"),
    ("go p1time soon depth 1", "whole number, not 'soon'"),
]


def test_a_bad_command_gets_one_error_line_and_changes_nothing():
    with ugi_engine() as engine:
        engine.send("position startpos moves e2e4")
        for bad, says in BAD_COMMANDS:
            engine.send(bad)
            errors = [line for line in is_ready(engine) if line.startswith("info string")]
            assert len(errors) == 1 and errors[0].startswith("info string error: ") and says in errors[0], bad
            assert ask(engine, "p1turn") == "response false"      # still after 1. e4
        engine.send("d")
        assert any(line.startswith("Fen: rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq")
                   for line in is_ready(engine))
        engine.quit()


def test_queries_follow_the_game_to_its_end():
    with ugi_engine() as engine:
        engine.send("uginewgame", "position startpos")
        assert [ask(engine, q) for q in ("p1turn", "gameover", "result")] == \
            ["response true", "response false", "response none"]
        engine.send("position startpos moves e2e4")
        assert [ask(engine, q) for q in ("p1turn", "gameover", "result")] == \
            ["response false", "response false", "response none"]
        engine.send(FOOLS_MATE)
        assert [ask(engine, q) for q in ("p1turn", "gameover", "result")] == \
            ["response true", "response true", "response p2win"]
        engine.send(f"position fen {WHITE_MATES}")
        assert [ask(engine, q) for q in ("p1turn", "gameover", "result")] == \
            ["response false", "response true", "response p1win"]
        for drawn in (REPETITION, f"position fen {STALEMATE}"):
            engine.send(drawn)
            assert [ask(engine, q) for q in ("gameover", "result")] == ["response true", "response draw"]
        engine.send("go depth 3")           # stalemate: no move to play
        assert engine.read_until(lambda line: line.startswith("bestmove"))[-1] == "bestmove 0000"
        engine.quit()


def test_every_form_of_go_gives_a_legal_bestmove():
    board = chess.Board()
    board.push_uci("e2e4")
    with ugi_engine() as engine:
        engine.send("position startpos moves e2e4")
        lines = best_move(engine, "go depth 4", board)
        assert any(line.startswith("info depth 4 ") and " pv " in line for line in lines)
        best_move(engine, "go nodes 3000", board)
        best_move(engine, "go movetime 200", board)
        # p2 is Black, to move here with 300 ms left: a long think would mean the clocks were swapped.
        best_move(engine, "go p1time 3600000 p2time 300 p1inc 0 p2inc 0", board, timeout=15)
        engine.send("position startpos")
        best_move(engine, "go p1time 300 p2time 3600000 p1inc 10 p2inc 10", chess.Board(), timeout=15)
        engine.send("go infinite")
        engine.read_until(lambda line: line.startswith("info depth 3 "))
        assert ask(engine, "p1turn") == "response true"      # answered while it searches
        assert is_ready(engine) is not None
        best_move(engine, "stop", chess.Board())
        engine.quit()
