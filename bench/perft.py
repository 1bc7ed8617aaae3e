"""Perft speed benchmark: Pyrope against Stockfish (when installed) and python-chess, same run.

Prints the import time, nodes/second for start position depth 6 and Kiwipete depth 5 (median of --runs runs),
Stockfish's time for the same `go perft`, and the ratio. Numbers, not assertions.

    python bench/perft.py [--runs 5] [--stockfish PATH]
"""
from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time

import pyrope

POSITIONS = [
    ("startpos", pyrope.STARTING_FEN, 6),
    ("kiwipete", "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1", 5),
]


def pyrope_seconds(fen: str, depth: int) -> tuple[int, float]:
    board = pyrope.Board(fen)
    start = time.perf_counter()
    nodes = board.perft(depth)
    return nodes, time.perf_counter() - start


def stockfish_seconds(path: str, fen: str, depth: int) -> tuple[int, float]:
    """Time from sending `go perft` to Stockfish's `Nodes searched` line."""
    engine = subprocess.Popen([path], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    try:
        engine.stdin.write(f"uci\nisready\nposition fen {fen}\n")
        engine.stdin.flush()
        while engine.stdout.readline().strip() != "readyok":
            pass
        start = time.perf_counter()
        engine.stdin.write(f"go perft {depth}\n")
        engine.stdin.flush()
        while True:
            line = engine.stdout.readline()
            if line.startswith("Nodes searched"):
                return int(line.split(":")[1]), time.perf_counter() - start
            if not line:
                raise RuntimeError("stockfish exited during perft")
    finally:
        engine.stdin.write("quit\n")
        engine.stdin.flush()
        engine.wait()


def python_chess_nps(fen: str) -> float:
    """python-chess perft 3 nodes/second, for scale (it is too slow for the full depth)."""
    import chess

    def count(board: chess.Board, depth: int) -> int:
        if depth == 1:
            return board.legal_moves.count()
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += count(board, depth - 1)
            board.pop()
        return total

    start = time.perf_counter()
    nodes = count(chess.Board(fen), 3)
    return nodes / (time.perf_counter() - start)


def import_seconds() -> float:
    """Wall time of `import pyrope` (which builds every table) in a fresh interpreter."""
    code = "import time; t = time.perf_counter(); import pyrope; print(time.perf_counter() - t)"
    return float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--stockfish", default=shutil.which("stockfish") or shutil.which("/usr/games/stockfish"))
    args = parser.parse_args()
    print(f"import pyrope (tables included): {statistics.median(import_seconds() for _ in range(args.runs)):.3f} s")
    for name, fen, depth in POSITIONS:
        runs = [pyrope_seconds(fen, depth) for _ in range(args.runs)]
        nodes = runs[0][0]
        ours = statistics.median(seconds for _, seconds in runs)
        print(f"{name} perft {depth}: {nodes} nodes, pyrope {ours:.3f} s ({nodes / ours / 1e6:.1f} M nodes/s)")
        if args.stockfish:
            theirs = statistics.median(stockfish_seconds(args.stockfish, fen, depth)[1] for _ in range(args.runs))
            print(f"  stockfish {theirs:.3f} s ({nodes / theirs / 1e6:.1f} M nodes/s); "
                  f"pyrope/stockfish time ratio {ours / theirs:.2f}")
        else:
            print("  stockfish not found: no comparison")
        try:
            print(f"  python-chess {python_chess_nps(fen) / 1e6:.2f} M nodes/s (perft 3)")
        except ImportError:
            print("  python-chess not installed: no comparison")


if __name__ == "__main__":
    main()
