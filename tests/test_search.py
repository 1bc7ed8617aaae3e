"""The search: mates found and scored, limits honoured, results legal (python-chess as oracle)."""
from __future__ import annotations

import random

import chess
import pytest

import pyrope
from pyrope._core import Search
from pyrope.play.bench import POSITIONS
from pyrope.play.timeman import Limits, make_clock


@pytest.fixture(scope="module")
def search():
    return Search(threads=1, hash_mb=16)


@pytest.mark.parametrize("fen, mate, move", [
    ("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 1, "a1a8"),
    ("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4", 1, "h5f7"),
    ("6k1/pp4p1/2p5/2bp4/8/P5Pb/1P3rrP/2BRRN1K b - - 0 1", 2, "g2g1"),
    ("r5rk/5p1p/5R2/4B3/8/8/7P/7K w - - 0 1", 3, "f6a6"),
])
def test_finds_forced_mates(search, fen, mate, move):
    result = search.run(pyrope.Board(fen), depth=12)
    assert result["score"] == {"mate": mate}
    board = chess.Board(fen)
    board.push_uci(result["move"])
    assert board.is_legal(board.parse_uci(result["pv"][1])) if len(result["pv"]) > 1 else board.is_checkmate()


def test_mated_side_reports_negative_mate(search):
    # Black to move, mated next move whatever it does.
    result = search.run(pyrope.Board("7k/8/6K1/8/8/8/8/R7 b - - 0 1"), depth=6)
    assert result["score"] == {"mate": -1}


def test_no_legal_moves_gives_no_move(search):
    result = search.run(pyrope.Board("7k/7P/6K1/8/3B4/8/8/8 b - - 0 1"), depth=5)
    assert result["move"] is None


def test_best_moves_and_pvs_are_legal(search):
    rng = random.Random(7)
    for fen in rng.sample(POSITIONS, 12):
        result = search.run(pyrope.Board(fen), depth=6)
        board = chess.Board(fen)
        for move in result["pv"]:
            assert chess.Move.from_uci(move) in board.legal_moves, (fen, result["pv"])
            board.push_uci(move)


def test_searchmoves_restricts_the_root(search):
    result = search.run(pyrope.Board(), depth=5, searchmoves=["a2a3", "h2h3"])
    assert result["move"] in ("a2a3", "h2h3")


def test_multipv_gives_distinct_lines_in_order(search):
    lines = []
    search.run(pyrope.Board(), depth=6, multipv=4, info=lambda infos: lines.append(infos))
    final = [info for info in lines[-1]]
    assert [info["multipv"] for info in final] == [1, 2, 3, 4]
    assert len({info["pv"][0] for info in final}) == 4
    scores = [info["cp"] for info in final]
    assert scores == sorted(scores, reverse=True)


def test_node_and_depth_limits(search):
    result = search.run(pyrope.Board(POSITIONS[1]), nodes=20000)
    assert result["nodes"] < 20000 + 4096
    assert search.run(pyrope.Board(POSITIONS[1]), depth=3)["depth"] == 3


def test_time_limit_is_kept(search):
    result = search.run(pyrope.Board(POSITIONS[1]), clock=make_clock(Limits(movetime=100), True, 0))
    assert result["move"] is not None and result["time_ms"] < 1000


def test_single_thread_node_count_is_deterministic():
    counts = []
    for _ in range(2):
        search = Search(threads=1, hash_mb=4)
        counts.append([search.run(pyrope.Board(fen), depth=7)["nodes"] for fen in POSITIONS[:8]])
    assert counts[0] == counts[1]


def test_two_threads_search_and_agree_on_a_mate():
    search = Search(threads=2, hash_mb=16)
    result = search.run(pyrope.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), depth=8)
    assert result["move"] == "a1a8" and result["score"] == {"mate": 1}


def test_draw_by_repetition_is_recognised(search):
    # White is a rook down but can repeat: perpetual check with the queen.
    board = pyrope.Board("6k1/5p1p/8/8/8/8/5q2/3Q2K1 w - - 0 1")
    result = search.run(board, depth=10)
    assert result["move"] is not None


def test_bad_limits_are_rejected(search):
    with pytest.raises(ValueError):
        search.run(pyrope.Board(), depth=-1)
    with pytest.raises(pyrope.IllegalMoveError):
        search.run(pyrope.Board(), depth=2, searchmoves=["e2e5"])


def test_hash_request_beyond_memory_falls_back():
    search = Search(threads=1, hash_mb=1)
    granted = search.set_hash(10_000_000)
    assert 1 <= granted < 10_000_000
    search.set_hash(1)
