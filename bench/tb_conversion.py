"""Tablebase conversion: Pyrope with endgame tables plays won endings out against a defender without
them (Stockfish from Debian if installed, else Pyrope without tables), and holds drawn ones.

    python3 bench/tb_conversion.py [--tables syzygy|pyrope] [--positions 100] [--movetime 1]
                                   [--syzygy ../shared/data/syzygy] [--pyrope-tables DIR] [--only KQvK,KRvK]

--tables says which tables Pyrope plays with, alone: Syzygy (its own set off) or its own DTM
tables (Syzygy off; --pyrope-tables, default the shipped set, which lacks KPvKP: give a directory
made by `pyrope tb generate KPvKP` for the drawn KPvKP games).

Won positions are random legal KQvK, KRvK, KBNvK and KPvK placements that chess.syzygy calls a
win for the side with the piece(s), whoever is to move; drawn ones are random KRvKR, KQvKQ,
KPvKP placements that chess.syzygy calls drawn. Each game runs until mate, stalemate, a
repetition or the fifty-move rule (python-chess's claims), both engines at the same movetime.
"""
from __future__ import annotations

import argparse
import random
import shutil
from pathlib import Path

import chess
import chess.engine
import chess.syzygy
from tqdm import tqdm

from pyrope.selfplay.endgames import random_endgame

ROOT = Path(__file__).resolve().parents[1]
WON = ["Q", "R", "BN", "P"]
DRAWN = [("R", "R"), ("Q", "Q"), ("P", "P")]


def white_wdl(tablebase, board: chess.Board) -> int:
    wdl = tablebase.probe_wdl(board)
    return wdl if board.turn == chess.WHITE else -wdl


def play(board: chess.Board, white, black, movetime: float) -> chess.Board:
    while not board.is_game_over(claim_draw=True):
        engine = white if board.turn == chess.WHITE else black
        board.push(engine.play(board, chess.engine.Limit(time=movetime)).move)
    return board


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=100, help="per won table; per drawn table a third")
    parser.add_argument("--movetime", type=float, default=1.0)
    parser.add_argument("--tables", choices=("syzygy", "pyrope"), default="syzygy")
    parser.add_argument("--syzygy", default=str(ROOT / ".." / "shared" / "data" / "syzygy"))
    parser.add_argument("--pyrope-tables", default="<default>")
    parser.add_argument("--only", default="", help="endings to play, comma-separated (default: all)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    only = set(filter(None, args.only.split(",")))
    rng = random.Random(args.seed)
    defender_cmd = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    pyrope = chess.engine.SimpleEngine.popen_uci(shutil.which("pyrope"))
    if args.tables == "syzygy":
        pyrope.configure({"SyzygyPath": args.syzygy, "PyropeTBPath": "<empty>", "OwnBook": False})
    else:
        pyrope.configure({"SyzygyPath": "<empty>", "PyropeTBPath": args.pyrope_tables, "OwnBook": False})
    defender = chess.engine.SimpleEngine.popen_uci(defender_cmd or shutil.which("pyrope"))
    if not defender_cmd:
        defender.configure({"OwnBook": False})
    name = "Stockfish" if defender_cmd else "Pyrope without tables"
    with chess.syzygy.open_tablebase(args.syzygy) as tablebase:
        for material in WON:
            if only and f"K{material}vK" not in only:
                continue
            wins, longest, failures = 0, 0, []
            for _ in tqdm(range(args.positions), desc=f"K{material}vK", leave=False):
                while True:
                    board = random_endgame(rng, material, "")
                    if white_wdl(tablebase, board) == 2:
                        break
                start = board.fen()
                end = play(board, pyrope, defender, args.movetime)
                if end.is_checkmate() and end.turn == chess.BLACK:
                    wins += 1
                    longest = max(longest, len(end.move_stack))
                else:
                    failures.append((start, end.result(claim_draw=True)))
            print(f"K{material}vK: Pyrope ({args.tables} tables) won {wins}/{args.positions} against {name} "
                  f"(longest {longest} plies){''.join(f'; not won: {f} ({r})' for f, r in failures)}")
        for white, black in DRAWN:
            if only and f"K{white}vK{black}" not in only:
                continue
            held, lost = 0, []
            count = max(1, args.positions // 3)
            for index in tqdm(range(count), desc=f"K{white}vK{black}", leave=False):
                while True:
                    board = random_endgame(rng, white, black)
                    if white_wdl(tablebase, board) == 0:
                        break
                start = board.fen()
                ours = chess.WHITE if index % 2 == 0 else chess.BLACK     # Pyrope defends either side
                engines = (pyrope, defender) if ours == chess.WHITE else (defender, pyrope)
                end = play(board, *engines, args.movetime)
                if end.is_checkmate() and end.turn == ours:
                    lost.append(start)
                else:
                    held += 1
            print(f"K{white}vK{black} drawn: Pyrope ({args.tables} tables) held {held}/{count}{''.join(f'; lost from {f}' for f in lost)}")
    pyrope.quit()
    defender.quit()


if __name__ == "__main__":
    main()
