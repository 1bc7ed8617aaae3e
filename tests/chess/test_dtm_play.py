"""Pyrope's own tables in play, through the protocols (chess.engine drives the real process): the
shortest mate at once with its whole line, `go mate N`, probes counted in the search, the
PyropeTBPath option and CECP's egtpath, and a bad path or file that leaves the engine playing."""
from __future__ import annotations

import shutil
import subprocess
import time

import chess
import chess.engine
import pytest

from engine_command import PYROPE
from pyrope._core import Board, DtmTables
from pyrope.play.tablebases import DEFAULT_DTM_PATH

pytestmark = [
    pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed"),
    pytest.mark.skipif(not (DEFAULT_DTM_PATH / "KQvK.ptb").exists(), reason="the shipped tables are not installed"),
]
KBN = "8/8/8/8/8/2k5/8/KBN5 w - - 0 1"       # KBNvK: mate in 30-odd moves


def dtm(fen: str) -> tuple[int, int]:
    return DtmTables(str(DEFAULT_DTM_PATH)).probe(Board(fen))


def test_a_won_ending_is_answered_at_once_with_the_shortest_mate():
    result, plies = dtm(KBN)
    assert result == 1
    board = chess.Board(KBN)
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as engine:
        engine.configure({"OwnBook": False})
        info = engine.analyse(board, chess.engine.Limit(time=5))
        assert info["score"].relative == chess.engine.Mate((plies + 1) // 2)
        assert info["tbhits"] > 0 and info["time"] < 1
        line = board.copy()
        for move in info["pv"]:
            line.push(move)
        assert line.is_checkmate() and len(info["pv"]) == plies
        # Played out against the longest defence, on a clock, every move keeps to the count.
        start = time.monotonic()
        while not board.is_game_over():
            before = dtm(board.fen())[1]
            played = engine.play(board, chess.engine.Limit(white_clock=60, black_clock=60), info=chess.engine.INFO_SCORE)
            board.push(played.move)
            assert board.is_checkmate() or dtm(board.fen())[1] == before - 1
            if not board.is_game_over():
                board.push(engine.play(board, chess.engine.Limit(time=0.01)).move)
        assert board.is_checkmate() and board.turn == chess.BLACK and len(board.move_stack) == plies
        assert time.monotonic() - start < 30


def test_go_mate_answers_at_once_and_a_lost_side_resists_longest():
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as engine:
        board = chess.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1")
        started = time.monotonic()
        info = engine.analyse(board, chess.engine.Limit(mate=3))
        assert time.monotonic() - started < 1
        assert info["score"].relative == chess.engine.Mate((dtm(board.fen())[1] + 1) // 2)
        lost = chess.Board("8/8/8/8/8/2k5/8/KR6 b - - 0 1")
        reply = engine.play(lost, chess.engine.Limit(time=1))
        result, plies = dtm(lost.fen())
        lost.push(reply.move)
        assert result == -1 and dtm(lost.fen()) == (1, plies - 1)


def test_the_search_probes_our_tables_after_captures():
    # Five men; every capture leaves four, which the shipped tables hold.
    board = chess.Board("8/8/3k4/8/2r5/8/1Q6/K5N1 w - - 0 1")
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as engine:
        info = engine.analyse(board, chess.engine.Limit(depth=10))
        assert info["tbhits"] > 0
        engine.configure({"PyropeTBPath": "<empty>"})
        info = engine.analyse(board, chess.engine.Limit(depth=10))
        assert info["tbhits"] == 0


def test_option_messages_and_a_bad_path_keep_the_engine_playing(tmp_path):
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "KQvK.ptb").write_bytes(b"PyropeTB" + bytes(30))
    script = (f"uci\nsetoption name PyropeTBPath value {tmp_path / 'nope'}:{broken}\n"
              "position fen 8/8/8/8/8/2k5/8/KQ6 w - - 0 1\ngo depth 6\nisready\n"
              "setoption name PyropeTBPath value <default>\nquit\n")
    out = subprocess.run([PYROPE], input=script, capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert f"option name PyropeTBPath type string default <default>" in out
    assert f"info string error: Pyrope table directory {tmp_path / 'nope'}: no such directory" in out
    assert f"info string Pyrope tables: 1 of up to 3 men found in {tmp_path / 'nope'}:{broken}" in out
    assert any(line.startswith("bestmove ") for line in out)       # searched: the file is unusable
    assert "readyok" in out
    assert any(line.startswith("info string Pyrope tables: 25 of up to 4 men found in") for line in out)
    cecp = subprocess.run([PYROPE], input=f"xboard\nprotover 2\negtpath pyrope {tmp_path / 'nope'}\n"
                                          f"option PyropeTBPath={DEFAULT_DTM_PATH}\nquit\n",
                          capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert any('egt="syzygy,pyrope"' in line for line in cecp)
    # (a comment: xboard sends its default paths unasked)
    assert f"# Pyrope table directory {tmp_path / 'nope'}: no such directory" in cecp
    assert f"# Pyrope tables: 25 of up to 4 men found in {DEFAULT_DTM_PATH}" in cecp


def test_a_corrupt_table_is_named_and_the_game_goes_on(tmp_path):
    shutil.copy(DEFAULT_DTM_PATH / "KRvK.ptb", tmp_path / "KRvK.ptb")
    data = bytearray((tmp_path / "KRvK.ptb").read_bytes())
    data[-1] ^= 0xFF
    (tmp_path / "KRvK.ptb").write_bytes(bytes(data))
    script = (f"uci\nsetoption name PyropeTBPath value {tmp_path}\nposition fen 8/8/8/8/8/2k5/8/KR6 w - - 0 1\n"
              "go depth 6\nisready\ngo depth 6\nisready\nquit\n")
    out = subprocess.run([PYROPE], input=script, capture_output=True, text=True, timeout=60).stdout.splitlines()
    faults = [line for line in out if line.startswith("info string error: Pyrope table")]
    assert faults == [f"info string error: Pyrope table {tmp_path / 'KRvK.ptb'}: checksum mismatch: the file is "
                      "corrupt; playing on without that table"]      # told once
    moves = [line.split()[1] for line in out if line.startswith("bestmove ")]
    assert len(moves) == 2 and all(chess.Move.from_uci(m) in chess.Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1").legal_moves
                                   for m in moves)
