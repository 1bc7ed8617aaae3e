"""A tiny UCI engine for the match-runner tests: plays a random legal move.

    python3 random_mover.py [--mode random|illegal|crash|hang] [--seed N]

--mode illegal answers every `go` with `bestmove a1a1`; crash exits on `go`; hang never answers `go`.
"""
import argparse
import random
import sys

import chess


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=("random", "illegal", "crash", "hang"), default="random")
    parser.add_argument("--seed", type=int)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    board = chess.Board()

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        tokens = line.split()
        if not tokens:
            continue
        command = tokens[0]
        if command == "uci":
            send(f"id name Random mover ({args.mode})")
            send("uciok")
        elif command == "isready":
            send("readyok")
        elif command == "position":
            rest = line.split(None, 1)[1]
            fen, _, moves = rest.partition("moves")
            fen = fen.strip()
            board = chess.Board() if fen == "startpos" else chess.Board(fen[len("fen"):].strip())
            for move in moves.split():
                board.push_uci(move)
        elif command == "go":
            if args.mode == "crash":
                sys.exit(3)
            if args.mode == "hang":
                continue
            move = "a1a1" if args.mode == "illegal" else rng.choice(list(board.legal_moves)).uci()
            send("info depth 1 score cp 0 nodes 1")
            send(f"bestmove {move}")
        elif command == "quit":
            break


if __name__ == "__main__":
    main()
