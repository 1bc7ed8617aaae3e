"""The installed `pyrope` driven as a UCI engine by python-chess: games under clocks with pondering,
MultiPV analysis, Chess960, options set and read back, ponder/ponderhit transcripts, strength limit."""
from __future__ import annotations

import queue

import chess
import chess.engine
import pytest

from engine_process import PYROPE, EngineProcess
from pyrope.play.strength import MAX_ELO, Skill

pytestmark = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")


@pytest.fixture
def engine():
    engine = chess.engine.SimpleEngine.popen_uci(PYROPE)
    yield engine
    engine.quit()


def test_the_shipped_net_plays_by_default(engine):
    """The installed command and the built executable (tests/package/test_executable.py runs this module
    against it) both find the net they ship: NNUEFile names it, an existing file."""
    from pathlib import Path
    shipped = Path(engine.options["NNUEFile"].default)
    assert shipped.name == "pyrope.nnue" and shipped.parent.name == "nets" and shipped.is_file()
    assert engine.options["Use NNUE"].default is True


def play_game(engine: chess.engine.SimpleEngine, board: chess.Board, limit: chess.engine.Limit,
              ponder: bool = False, plies: int = 30) -> chess.Board:
    while not board.is_game_over() and board.ply() < plies:
        result = engine.play(board, limit, ponder=ponder)
        assert result.move in board.legal_moves
        if result.ponder is not None:
            board.push(result.move)
            assert result.ponder in board.legal_moves
            board.pop()
        board.push(result.move)
    return board


def test_options_are_announced_with_their_types(engine):
    options = engine.options
    for name in ("Hash", "Threads", "MultiPV", "Move Overhead", "UCI_Elo"):
        assert options[name].type == "spin"
    for name in ("Ponder", "UCI_Chess960", "UCI_AnalyseMode", "UCI_LimitStrength", "UCI_ShowWDL"):
        assert options[name].type == "check" and options[name].default is False
    assert options["Clear Hash"].type == "button"
    assert options["UCI_Elo"].min < options["UCI_Elo"].default < options["UCI_Elo"].max


def test_a_game_on_the_clock_with_pondering(engine):
    engine.configure({"Hash": 8})
    board = play_game(engine, chess.Board(), chess.engine.Limit(white_clock=2, black_clock=2,
                                                                 white_inc=0.02, black_inc=0.02), ponder=True)
    assert board.ply() == 30 or board.is_game_over()


def test_moves_per_period_game(engine):
    board = play_game(engine, chess.Board(), chess.engine.Limit(white_clock=1, black_clock=1, remaining_moves=10))
    assert board.ply() == 30 or board.is_game_over()


def test_multipv_analysis_gives_distinct_lines_best_first_with_wdl(engine):
    engine.configure({"UCI_ShowWDL": True})
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    infos = engine.analyse(board, chess.engine.Limit(depth=8), multipv=3)
    assert len(infos) == 3
    firsts = [info["pv"][0] for info in infos]
    assert len(set(firsts)) == 3 and all(move in board.legal_moves for move in firsts)
    scores = [info["score"].relative.score(mate_score=100000) for info in infos]
    assert scores == sorted(scores, reverse=True)
    for info in infos:
        wdl = info["wdl"].relative
        assert wdl.wins + wdl.draws + wdl.losses == 1000


def test_chess960_game(engine):
    board = chess.Board.from_chess960_pos(418)     # python-chess turns UCI_Chess960 on itself
    board = play_game(engine, board, chess.engine.Limit(time=0.02), plies=20)
    assert board.ply() == 20 or board.is_game_over()


def test_mate_is_found_and_reported(engine):
    info = engine.analyse(chess.Board("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"), chess.engine.Limit(mate=1))
    assert info["score"].relative.mate() == 1


def test_limited_strength_plays_legal_moves_within_its_node_budget(engine):
    # The book off: its moves come without a search (and so without a node count).
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1000, "OwnBook": False})
    board = chess.Board()
    for _ in range(10):
        result = engine.play(board, chess.engine.Limit(time=1), info=chess.engine.INFO_ALL)
        assert result.move in board.legal_moves
        assert result.info["nodes"] < 1000      # the 1000-Elo budget is tens of nodes
        board.push(result.move)


def test_analysis_mode_lifts_the_strength_limit(engine):
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": 1000, "UCI_AnalyseMode": True})
    info = engine.analyse(chess.Board(), chess.engine.Limit(depth=6))
    assert info["depth"] == 6 and info["nodes"] > 1000


def test_bestmove_waits_for_ponderhit_then_the_clock_applies():
    with EngineProcess() as pyrope:
        pyrope.send("uci", "position startpos moves e2e4", "go ponder wtime 1000 btime 1000")
        with pytest.raises(queue.Empty):
            while True:     # half a second of pondering: no bestmove may appear
                line = pyrope.lines.get(timeout=0.5)
                assert not line.startswith("bestmove")
        pyrope.send("ponderhit")
        lines = pyrope.read_until(lambda line: line.startswith("bestmove"), timeout=2)
        move = lines[-1].split()[1]
        assert chess.Move.from_uci(move) in chess.Board("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1").legal_moves
        pyrope.send("go ponder depth 1")    # a ponder search that finishes early still waits
        with pytest.raises(queue.Empty):
            while True:
                assert not pyrope.lines.get(timeout=0.3).startswith("bestmove")
        pyrope.send("stop")
        pyrope.read_until(lambda line: line.startswith("bestmove"), timeout=2)
        assert pyrope.quit() == ""


@pytest.mark.parametrize("threads", [1, 2])
def test_a_stop_right_after_go_always_ends_the_search(threads):
    # The stop can reach the manager before the search thread has started: it must still count.
    with EngineProcess() as pyrope:
        pyrope.send("uci", f"setoption name Threads value {threads}")
        for _ in range(200):
            pyrope.send("position startpos", "go infinite", "stop")
            pyrope.read_until(lambda line: line.startswith("bestmove"), timeout=5)
        assert pyrope.quit() == ""


def test_the_limits_node_budget_grows_with_the_time_the_clock_gives(engine):
    # The top level's budget grows with the time the clock plans for the move (as time ** its
    # exponent, up to its cap): less than its 128 ms budget with 0.1 s a move, the capped one
    # with 3 s. The nodes reported are those of the last iteration finished within the budget,
    # so the deeper search is what shows the larger budget.
    top = Skill(MAX_ELO)
    assert top.exponent > 0 and Skill(MAX_ELO, top.cap_ms).nodes > top.nodes
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": MAX_ELO, "OwnBook": False})
    board = chess.Board("r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4")
    fast = engine.play(board, chess.engine.Limit(time=0.1), info=chess.engine.INFO_ALL)
    slow = engine.play(board, chess.engine.Limit(time=3), info=chess.engine.INFO_ALL)
    assert fast.info["nodes"] < top.nodes and slow.info["depth"] > fast.info["depth"]


def test_the_top_uci_elo_searches_one_line_within_a_budget(engine):
    # The top UCI_Elo never errs on purpose (no MultiPV forced on) but is still a node budget:
    # full strength is UCI_LimitStrength off.
    engine.configure({"UCI_LimitStrength": True, "UCI_Elo": MAX_ELO, "OwnBook": False})
    result = engine.play(chess.Board(), chess.engine.Limit(nodes=1_500_000), info=chess.engine.INFO_ALL)
    assert result.info["nodes"] <= Skill(MAX_ELO).nodes and result.info.get("multipv", 1) == 1
    engine.configure({"UCI_LimitStrength": False})
    result = engine.play(chess.Board(), chess.engine.Limit(nodes=1_500_000), info=chess.engine.INFO_ALL)
    # The nodes reported are those of the last iteration finished within the 1,500,000, which
    # may end anywhere from a third of them on (an iteration costs up to about three times the
    # one before): far above the budget either way.
    assert result.info["nodes"] > 400_000
