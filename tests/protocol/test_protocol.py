"""The installed `pyrope` command: UCI transcripts (go perft in Stockfish's format, errors that
keep the previous state) and the perft subcommand."""
from __future__ import annotations

import subprocess
import sys

import chess
import chess.engine
import pytest

from engine_command import PYROPE

pytestmark = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"


def converse(*commands: str) -> list[str]:
    """Send UCI commands (then quit) and return the engine's output lines."""
    text = "\n".join(commands + ("quit",)) + "\n"
    result = subprocess.run([PYROPE], input=text, capture_output=True, text=True, timeout=60, check=True)
    return result.stdout.splitlines()


def parse_divide(lines: list[str]) -> tuple[dict[str, int], int]:
    """Split Stockfish-style perft output into {move: nodes} and the total."""
    blank = lines.index("")
    moves = dict((move, int(nodes)) for move, nodes in (line.split(": ") for line in lines[:blank]))
    assert lines[blank + 1].startswith("Nodes searched: ")
    return moves, int(lines[blank + 1].split(": ")[1])


def reference_divide(board: chess.Board, depth: int) -> dict[str, int]:
    def count(depth: int) -> int:
        if depth == 0:
            return 1
        total = 0
        for move in list(board.legal_moves):
            board.push(move)
            total += count(depth - 1)
            board.pop()
        return total

    result = {}
    for move in list(board.legal_moves):
        board.push(move)
        result[board.peek().uci()] = count(depth - 1)
        board.pop()
    return result


def test_go_perft_matches_stockfish_format_and_python_chess():
    lines = converse(f"position fen {KIWIPETE}", "go perft 2")
    moves, total = parse_divide(lines)
    assert moves == reference_divide(chess.Board(KIWIPETE), 2)
    assert total == 2039


def test_go_perft_after_moves_in_chess960_notation():
    # f1g1 is king-takes-rook castling: the king lands on g1, the rook on f1.
    fen = "b1q1rrkb/pppppppp/3nn3/8/P7/1PPP4/4PPPP/BQNNRKRB w GE - 0 1"
    lines = converse("setoption name UCI_Chess960 value true", f"position fen {fen} moves f1g1", "go perft 1")
    board = chess.Board(fen, chess960=True)
    board.push_uci("f1g1")
    assert board.king(chess.WHITE) == chess.G1
    moves, total = parse_divide(lines)
    assert set(moves) == {board.uci(m) for m in board.legal_moves}
    assert total == board.legal_moves.count()


@pytest.mark.parametrize("bad", [
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1",
    "position startpos moves e2e4 e7e5 e1e3",
    "position fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1",
    "position sideways",
    "go perft zero",
    "setoption name UCI_Chess960 value maybe",
    "setoption name NoSuchOption value 1",
    "flurb",
])
def test_bad_command_reports_and_keeps_previous_position(bad):
    lines = converse("position startpos moves e2e4", bad, "go perft 1")
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1
    moves, total = parse_divide(lines[lines.index(errors[0]) + 1:])
    assert total == 20 and "e7e5" in moves


def test_python_chess_drives_the_engine_over_uci():
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as engine:
        assert engine.id["name"].startswith("Pyrope")
        assert "UCI_Chess960" in engine.options
        engine.ping()


def test_perft_subcommand_prints_nodes_seconds_and_speed():
    result = subprocess.run([PYROPE, "perft", "4", "--fen", KIWIPETE],
                            capture_output=True, text=True, timeout=60, check=True)
    fields = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert int(fields["nodes"]) == 4085603
    assert float(fields["seconds"]) >= 0 and int(fields["nps"]) >= 0


def test_perft_subcommand_rejects_a_bad_fen_with_a_reason():
    result = subprocess.run([PYROPE, "perft", "2", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 2
    assert "kings" in result.stderr


def test_python_chess_plays_a_game_and_analyses_over_uci():
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as engine:
        engine.configure({"Hash": 32, "Threads": 2})
        board = chess.Board()
        while not board.is_game_over() and board.ply() < 40:
            result = engine.play(board, chess.engine.Limit(white_clock=2, black_clock=2, white_inc=0.05,
                                                           black_inc=0.05))
            assert result.move in board.legal_moves
            board.push(result.move)
        infos = engine.analyse(chess.Board(KIWIPETE), chess.engine.Limit(depth=6), multipv=3)
        assert [info["multipv"] for info in infos] == [1, 2, 3]
        assert len({info["pv"][0] for info in infos}) == 3


def test_stop_ends_an_infinite_search_with_a_legal_move():
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as engine:
        with engine.analysis(chess.Board(KIWIPETE)) as analysis:
            for info in analysis:
                if info.get("depth", 0) >= 5:
                    break
        assert analysis.info.get("pv")
        # The engine answers at once after stop, and stays usable.
        assert engine.play(chess.Board(), chess.engine.Limit(depth=3)).move in chess.Board().legal_moves


def test_absurd_go_limits_still_give_a_prompt_legal_move():
    lines = converse("position startpos", "go depth 0 nodes -5 wtime -100 btime x", "isready")
    bestmoves = [line for line in lines if line.startswith("bestmove")]
    assert len(bestmoves) == 1
    assert chess.Move.from_uci(bestmoves[0].split()[1]) in chess.Board().legal_moves
    errors = [line for line in lines if line.startswith("info string error")]
    assert [e.split()[4] for e in errors] == ["depth", "nodes", "wtime", "btime"]


def test_mated_position_returns_0000():
    lines = converse("position fen 7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", "go depth 3")
    assert "bestmove 0000" in lines
    assert any("1-0" in line for line in lines if line.startswith("info string"))


def test_bench_prints_a_node_count_and_speed():
    lines = converse("bench 4")
    assert any(line.startswith("Nodes searched  : ") for line in lines)
    assert any(line.startswith("Nodes/second    : ") for line in lines)


def test_evalfile_option_loads_weights_and_rejects_a_bad_file(tmp_path):
    good = tmp_path / "weights.txt"
    save_script = f"import pyrope; pyrope.save_eval_params({str(good)!r})"
    subprocess.run([sys.executable, "-c", save_script], check=True)
    bad = tmp_path / "bad.txt"
    bad.write_text("pawn_value_mg = lots\n")
    lines = converse(f"setoption name EvalFile value {good}", f"setoption name EvalFile value {bad}",
                     "position startpos", "go depth 3")
    errors = [line for line in lines if line.startswith("info string error")]
    assert len(errors) == 1 and "bad.txt" in errors[0] and "pawn_value_mg" in errors[0]
    assert any(line.startswith("bestmove") for line in lines)


def test_state_changes_during_an_infinite_search_end_it_instead_of_hanging():
    engine = subprocess.Popen([PYROPE], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        out, _ = engine.communicate("position startpos\ngo infinite\nucinewgame\nisready\nquit\n", timeout=30)
    finally:
        engine.kill()
    lines = out.splitlines()
    assert lines.index("readyok") > next(i for i, line in enumerate(lines) if line.startswith("bestmove"))
