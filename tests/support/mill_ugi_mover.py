"""A tiny UGI Mill engine for the Mill match tests: plays a random legal turn (nine men's morris;
it offers no rule options).

    python3 mill_ugi_mover.py [--mode random|crash|crash-once|garble|illegal|hang] [--seed N] [--marker FILE]

crash exits on `go`; crash-once does so only while FILE does not exist (it creates it first), so
that a restarted engine plays on; garble answers `bestmove` with nothing; illegal places on an
occupied point; hang never answers `go`.
"""
import argparse
import random
import sys
from pathlib import Path

from pyrope.mill import MillBoard


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--mode", choices=("random", "crash", "crash-once", "garble", "illegal", "hang"),
                        default="random")
    parser.add_argument("--seed", type=int)
    parser.add_argument("--marker")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    board = MillBoard()

    def send(line: str) -> None:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "ugi":
            send(f"id name Mill mover ({args.mode})")
            send("option name Hash type spin default 1 min 1 max 1")
            send("ugiok")
        elif words[0] == "isready":
            send("readyok")
        elif words[0] == "setoption" and "Hash" not in words:
            send(f"info string error: no such option: {' '.join(words[2:3])}")
        elif words[0] == "position":
            board = MillBoard()
            board.push_moves(words[3:])
        elif words[0] == "go":
            if args.mode == "crash" or (args.mode == "crash-once" and not Path(args.marker).exists()):
                if args.marker:
                    Path(args.marker).touch()
                sys.exit(3)
            if args.mode == "hang":
                continue
            if args.mode == "garble":
                send("bestmove")
            elif args.mode == "illegal":
                send(f"bestmove {board.move_stack[0] if board.move_stack else 'd6-d5'}")
            else:
                send("info depth 1 score cp 0 nodes 1 pv x")
                send(f"bestmove {rng.choice(board.legal_moves())}")
        elif words[0] == "quit":
            return


if __name__ == "__main__":
    main()
