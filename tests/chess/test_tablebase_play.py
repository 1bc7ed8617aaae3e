"""Syzygy tables in play: the root keeps exactly the moves that keep the tables' result (checked
move by move against chess.syzygy), the search scores and counts its probes, the options and
their messages in UCI and CECP, and won endings converted within the fifty-move rule."""
from __future__ import annotations

import random
import subprocess

import chess
import chess.engine
import chess.syzygy
import pytest

import pyrope
from engine_command import PYROPE
from pyrope._core import Search
from pyrope.play.result import CurrentMove
from pyrope.play.tablebases import RootRanking, TablebasePlayer, outcome, ranked_line
from pyrope.selfplay.endgames import random_endgame
from paths import REPOSITORY, SYZYGY, needs

pytestmark = needs(SYZYGY)
TB_WIN_FLOOR = 31000        # tablebase win scores sit above every evaluation, below mates


@pytest.fixture(scope="module")
def player():
    tables = TablebasePlayer()
    messages = tables.load(str(SYZYGY))
    assert messages == [f"Syzygy: 35 WDL and 35 DTZ tables of up to 4 pieces found in {SYZYGY}"]
    return tables


@pytest.fixture(scope="module")
def oracle():
    with chess.syzygy.open_tablebase(str(SYZYGY)) as tablebase:
        yield tablebase


def oracle_distance(oracle, board: chess.Board, move: chess.Move) -> int:
    """chess.syzygy's view of a root move, in TablebasePlayer.distance_after's terms."""
    board.push(move)
    try:
        if board.is_checkmate():
            return 1
        if board.is_game_over():
            return 0
        if board.halfmove_clock == 0:
            return {2: 1, 1: 101, 0: 0, -1: -101, -2: -1}[-oracle.probe_wdl(board)]
        dtz = -oracle.probe_dtz(board)
        return dtz + 1 if dtz > 0 else dtz - 1 if dtz < 0 else 0
    finally:
        board.pop()


@pytest.mark.parametrize("material", ["Q:", "R:", "P:", "BN:", "R:R", "Q:R", "P:P", "R:B", "N:P", "BB:"])
def test_the_root_keeps_exactly_the_moves_that_keep_the_result(player, oracle, material):
    white, black = material.split(":")
    rng = random.Random(material)
    for _ in range(40):
        board = random_endgame(rng, white, black)
        board.halfmove_clock = rng.choice([0, 0, 30, 90])
        ranking = player.rank_root(pyrope.Board(board.fen()))
        distances = {move.uci(): oracle_distance(oracle, board, move) for move in board.legal_moves}
        results = {move: outcome(d, board.halfmove_clock, True) for move, d in distances.items()}
        best = max(results.values())
        expected = [move for move in distances if results[move] == best]
        if best:
            target = min(distances[move] for move in expected)
            expected = [move for move in expected if distances[move] == target]
        assert ranking is not None and ranking.result == best, board.fen()
        assert sorted(ranking.moves) == sorted(expected), board.fen()


def test_the_root_is_left_to_the_search_beyond_the_tables(player):
    assert player.rank_root(pyrope.Board()) is None
    assert player.rank_root(pyrope.Board("4k3/8/8/8/8/8/8/R3K2R w K - 0 1")) is None      # castling


def test_the_search_probes_after_captures_and_scores_a_tablebase_win(player):
    # White takes the rook: King and queen against king, won in the tables.
    board = pyrope.Board("4k3/8/8/8/8/8/1r6/KQ6 w - - 0 1")
    result = Search(threads=1, hash_mb=16).run(board, depth=8, tb_cardinality=player.cardinality)
    assert result["tbhits"] > 0 and result["score"]["cp"] > TB_WIN_FLOOR and result["move"] == "a1b2"
    result = Search(threads=1, hash_mb=16).run(board, depth=8)
    assert result["tbhits"] == 0


def test_a_win_the_fifty_move_rule_spoils_is_a_draw_only_with_the_rule(player, oracle):
    # No 3-4 piece table holds a cursed win, but a counter near 100 spoils a long win just as a
    # cursed one: KRvK with more plies to the capture or mate than the counter leaves.
    rng = random.Random(5)
    while True:
        board = random_endgame(rng, "R", "")
        if board.turn == chess.WHITE and oracle.probe_dtz(board) > 30:
            break
    board.halfmove_clock = 90
    ours = pyrope.Board(board.fen())
    player.rule50 = True
    assert player.rank_root(ours).result == 0
    player.rule50 = False
    try:
        assert player.rank_root(ours).result == 1
    finally:
        player.rule50 = True


def play_out(player: TablebasePlayer, board: chess.Board, winner: chess.Color) -> chess.Board:
    """The side with the tables (`winner`) against the search without them, to the end."""
    search = Search(threads=1, hash_mb=16)
    while not board.is_game_over(claim_draw=True):
        ours = pyrope.Board(board.fen())
        if board.turn == winner:
            ranking = player.rank_root(ours)
            result = search.run(ours, nodes=2000, searchmoves=ranking.moves, tb_cardinality=player.cardinality)
        else:
            result = search.run(ours, nodes=2000)
        board.push_uci(result["move"])
    return board


@pytest.mark.parametrize("material", ["Q", "R", "BN", "P"])
def test_won_endings_are_converted_within_the_fifty_move_rule(player, oracle, material):
    rng = random.Random(material)
    for _ in range(3):
        while True:
            board = random_endgame(rng, material, "")
            if oracle.probe_wdl(board) == (2 if board.turn == chess.WHITE else -2):
                break
        end = play_out(player, board, chess.WHITE)
        assert end.is_checkmate() and end.turn == chess.BLACK, end.fen()


@pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")
def test_uci_and_cecp_options_and_messages(tmp_path):
    empty = tmp_path / "empty"
    empty.mkdir()
    uci = subprocess.run([PYROPE], input=f"uci\nsetoption name SyzygyPath value {SYZYGY}:{tmp_path / 'nope'}\n"
                         f"setoption name SyzygyPath value {empty}\nquit\n", capture_output=True, text=True,
                         timeout=60).stdout.splitlines()
    assert "option name SyzygyPath type string default <empty>" in uci
    assert "option name SyzygyProbeLimit type spin default 7 min 0 max 7" in uci
    assert "option name Syzygy50MoveRule type check default true" in uci
    assert f"info string error: syzygy directory {tmp_path / 'nope'}: no such directory" in uci
    assert f"info string Syzygy: 35 WDL and 35 DTZ tables of up to 4 pieces found in {SYZYGY}:{tmp_path / 'nope'}" in uci
    assert any(line.startswith(f"info string error: syzygy directory {empty}: no Syzygy tables") for line in uci)
    cecp = subprocess.run([PYROPE], input=f"xboard\nprotover 2\negtpath syzygy {SYZYGY}\negtpath gaviota /x\nquit\n",
                          capture_output=True, text=True, timeout=60).stdout.splitlines()
    assert any('egt="syzygy,pyrope"' in line for line in cecp)
    assert f"# Syzygy: 35 WDL and 35 DTZ tables of up to 4 pieces found in {SYZYGY}" in cecp
    assert any(line.startswith("Error (unsupported tablebase kind 'gaviota'; Pyrope reads syzygy and pyrope)")
               for line in cecp)


def test_without_dtz_the_root_keeps_the_moves_that_keep_the_wdl(player, oracle, tmp_path):
    (tmp_path / "KRvK.rtbw").write_bytes((SYZYGY / "KRvK.rtbw").read_bytes())
    rng = random.Random(9)
    try:
        assert player.load(str(tmp_path))[-1].startswith("Syzygy: 1 WDL and 0 DTZ tables")
        for _ in range(30):
            board = random_endgame(rng, "R", "")
            ranking = player.rank_root(pyrope.Board(board.fen()))
            winning = []
            for move in board.legal_moves:
                board.push(move)
                if board.is_checkmate() or (not board.is_game_over() and oracle.probe_wdl(board) == -2):
                    winning.append(move.uci())
                board.pop()
            if board.turn == chess.WHITE:
                assert ranking.result == 1 and sorted(ranking.moves) == sorted(winning), board.fen()
            else:
                assert ranking.result in (-1, 0)
    finally:
        player.load(str(SYZYGY))


@pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")
def test_the_root_shows_the_tables_verdict():
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as engine:
        # Syzygy alone (Pyrope's own tables would answer with the mate itself: test_dtm_play.py)
        engine.configure({"SyzygyPath": str(SYZYGY), "PyropeTBPath": "<empty>"})
        won = engine.analyse(chess.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"), chess.engine.Limit(depth=6))
        lost = engine.analyse(chess.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1"), chess.engine.Limit(depth=6))
        drawn = engine.analyse(chess.Board("8/8/8/4k3/8/2r5/8/KR6 w - - 0 1"), chess.engine.Limit(depth=6))
    assert won["score"].relative.score() == pyrope._core.TB_WIN_SCORE
    assert lost["score"].relative.score() == -pyrope._core.TB_WIN_SCORE
    assert drawn["score"].relative.score() == 0


def test_the_root_move_being_searched_passes_a_ranked_root_unchanged():
    """After 1 s the search names the root move it is on; at a root the tables ranked that report
    once raised KeyError on the search thread (it has no score or tbhits to rank)."""
    current = CurrentMove(depth=19, move="d2d1", number=2)
    assert ranked_line(current, RootRanking(moves=["d2d1"], result=0, probes=5)) is current


@pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")
@pytest.mark.parametrize("options", [{}, {"SyzygyPath": str(SYZYGY)}], ids=["default options", "SyzygyPath"])
def test_table_moves_keep_the_result_and_report_their_probes_in_tbhits(options):
    """bench/tablebase_check.py's check on 100 random 3-4 man positions at 50 ms a move, through
    python-chess's UCI client: chess.syzygy says every move kept the result, and the last info
    reports probes (tbhits > 0) in at least 90% of the positions, as Stockfish's does. Before the
    root's own probes were counted, the same check gave 80% (default options) and 72%."""
    import sys
    sys.path.insert(0, str(REPOSITORY / "bench"))
    from tablebase_check import check, random_positions
    outcome = check([PYROPE], options, random_positions(100, random.Random(7)), 0.05, SYZYGY)
    assert outcome.faults == []
    assert outcome.reported_share >= 0.9, outcome.reported
