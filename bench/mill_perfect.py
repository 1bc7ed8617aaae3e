"""Issue 18's perfect-play check: Pyrope over UGI against the endgame databases' perfect player.

    python3 bench/mill_perfect.py [--variant nine twelve] [--classes 3-3,4-3,...] [--positions 1000]
        [--db DIR] [--movetime 0.05] [--timemargin 500] [--concurrency 1] [--results FILE] [--table]

For each class of each variant: N seeded random positions of that class (both hands empty, no
removal owed, the stone counts either way round, either side to move, the game not over), each
played twice with colours swapped by `pyrope mill match`: Pyrope as a UGI program (`python3 -m
pyrope.cli --game mill`, --movetime a turn, `MillDBPath` DIR) against `perfect dir=DIR`. The check,
per game, against the databases' value of the start for the side to move (Pyrope may overstep
--movetime by --timemargin, 500 ms, before it loses on time: this checks its play, and the table
reports its slowest turn instead): the result is that value, and a won or lost game lasts exactly
its stored distance (the perfect side plays the fastest win or the longest resistance; a game of
that length shows Pyrope did too). A draw ends by repetition or the move-count rule.

Each class ends as one line of --results (default bench/results/mill/perfect.jsonl, committed): its
games, results that agree, wins and losses of the exact length, the mismatches (start, colours,
expected, played) and faults. A run skips the classes that file already holds, so a long check goes
on where it stopped; --table prints the table of that file. The classes default to those the
databases in DIR hold (Pyrope's shipped ones without --db; build 5-4 and 5-5 with `pyrope mill db
build --variant V --classes 5-5 --out DIR`).
"""
from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

from pyrope.mill.board import MillBoard
from pyrope.mill.db.probe import DEFAULT_DIR, MillDatabase
from pyrope.mill.fen import write
from pyrope.mill.match.game import parse_records
from pyrope.mill.rules import VARIANTS

ROOT = Path(__file__).resolve().parent.parent
SEED = 18


def random_positions(variant: str, stones: tuple, count: int, seed: int) -> list:
    """`count` distinct FENs with stones[0] men of one colour and stones[1] of the other (which
    colour has which, and the side to move, at random), hands empty, the game not over."""
    rng = random.Random(f"mill-perfect:{variant}:{stones[0]}-{stones[1]}:{seed}")
    fens: dict = {}
    while len(fens) < count:
        points = rng.sample(range(24), stones[0] + stones[1])
        first = sum(1 << p for p in points[:stones[0]])
        second = sum(1 << p for p in points[stones[0]:])
        white, black = (first, second) if rng.random() < 0.5 else (second, first)
        fen = write((white, black, 0, 0, rng.randrange(2), 0, 0, 1))
        if not MillBoard(fen, variant).is_game_over():
            fens.setdefault(fen, None)
    return list(fens)


def expected_result(database: MillDatabase, fen: str, variant: str) -> tuple:
    """(the result string, the game's length in turns or None for a draw) under perfect play."""
    board = MillBoard(fen, variant)
    value = database.probe(board._core.position())
    if value.result == "draw":
        return "1/2-1/2", None
    mover_wins = value.result == "win"
    return ("1-0" if mover_wins == board.white_to_move else "0-1"), value.distance


def check_class(variant: str, stones: tuple, args: argparse.Namespace, database: MillDatabase) -> dict:
    """Play one class's games and compare them with the databases."""
    name = f"{variant} {stones[0]}-{stones[1]}"
    fens = random_positions(variant, stones, args.positions, SEED)
    with tempfile.TemporaryDirectory(prefix="mill-perfect-") as scratch:
        positions, record = Path(scratch) / "positions.fen", Path(scratch) / "games.txt"
        positions.write_text("\n".join(fens) + "\n")
        engine = f"{sys.executable} -m pyrope.cli --game mill"
        command = [sys.executable, "-m", "pyrope.cli", "mill", "match",
                   "--player", f"cmd={engine}", "name=pyrope", f"option.MillDBPath={args.db}",
                   "--player", "perfect", f"dir={args.db}", "--variant", variant,
                   "--positions", str(positions), "--seed", str(SEED), "--movetime", str(args.movetime),
                   "--timemargin", str(args.timemargin), "--concurrency", str(args.concurrency),
                   "--record", str(record), "--quiet"]
        print(f"== {name}: {len(fens)} positions, {2 * len(fens)} games", flush=True)
        code = subprocess.call(command, cwd=ROOT)
        if code != 0:
            raise SystemExit(f"{name}: the match ended with exit code {code}")
        games = parse_records(record.read_text())
    agree = exact = decisive = faults = 0
    mismatches, slowest = [], 0.0
    for game in games:
        slowest = max([slowest] + pyrope_seconds(game))
        result, length = expected_result(database, game.tags["FEN"], variant)
        turns = len(game.turns)
        faults += game.tags["Termination"] not in ("normal", "adjudication")
        agree += game.tags["Result"] == result
        if length is not None:
            decisive += 1
            exact += game.tags["Result"] == result and turns == length
        if game.tags["Result"] != result or (length is not None and turns != length):
            mismatches.append({"fen": game.tags["FEN"], "white": game.tags["White"], "expected": result,
                               "length": length, "played": game.tags["Result"], "turns": turns,
                               "reason": game.tags["Reason"]})
    return {"variant": variant, "class": f"{stones[0]}-{stones[1]}", "positions": len(fens), "games": len(games),
            "results agree": agree, "decisive": decisive, "exact length": exact, "faults": faults,
            "mismatches": mismatches[:20], "movetime": args.movetime, "timemargin": args.timemargin,
            "slowest": slowest}


def pyrope_seconds(game) -> list:
    """The seconds each of Pyrope's turns took, from the record's comments ('... 0.002s')."""
    pyrope = 0 if game.tags["White"] == "pyrope" else 1
    black_first = game.tags["FEN"].split()[1] == "b"
    return [float(comment.rsplit(" ", 1)[-1].rstrip("s")) for index, (_, comment) in enumerate(game.turns)
            if (index + black_first) % 2 == pyrope and comment.endswith("s")]


def table(results: list) -> str:
    rows = [["variant", "class", "games", "results agree", "wins/losses of the exact length", "faults",
             "Pyrope's slowest turn"]]
    for r in results:
        rows.append([r["variant"], r["class"], str(r["games"]), f"{r['results agree']}/{r['games']}",
                     f"{r['exact length']}/{r['decisive']}", str(r["faults"]), f"{r['slowest']:.3f}s"])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(width) for cell, width in zip(row, widths)).rstrip() for row in rows]
    return "\n".join(lines[:1] + ["  ".join("-" * width for width in widths)] + lines[1:])


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--variant", nargs="+", default=["nine", "twelve"], choices=sorted(VARIANTS))
    parser.add_argument("--classes", help="e.g. 3-3,4-3 (default: every class the databases hold)")
    parser.add_argument("--positions", type=int, default=1000, help="positions a class (default 1000)")
    parser.add_argument("--db", type=Path, default=DEFAULT_DIR, help="the databases (default: Pyrope's shipped ones)")
    parser.add_argument("--movetime", type=float, default=0.05, help="Pyrope's seconds a turn (default 0.05)")
    parser.add_argument("--timemargin", type=int, default=500, metavar="MS",
                        help="milliseconds Pyrope may overstep --movetime before it loses on time (default 500: "
                             "the check is of its play; the slowest turn is reported)")
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--results", type=Path, default=ROOT / "bench" / "results" / "mill" / "perfect.jsonl")
    parser.add_argument("--table", action="store_true", help="print the table of --results and play nothing")
    args = parser.parse_args()
    args.db = args.db.resolve()
    done = [json.loads(line) for line in args.results.read_text().splitlines()] if args.results.exists() else []
    if not args.table:
        args.results.parent.mkdir(parents=True, exist_ok=True)
        for variant in args.variant:
            database = MillDatabase(VARIANTS[variant], args.db)
            wanted = sorted(database.classes) if args.classes is None else \
                [tuple(int(n) for n in text.split("-")) for text in args.classes.split(",")]
            for stones in wanted:
                if stones not in database.classes:
                    raise SystemExit(f"{variant} {stones[0]}-{stones[1]}: not in {args.db}")
                if any(r["variant"] == variant and r["class"] == f"{stones[0]}-{stones[1]}" for r in done):
                    continue
                outcome = check_class(variant, stones, args, database)
                done.append(outcome)
                with args.results.open("a") as out:
                    out.write(json.dumps(outcome) + "\n")
                print(table([outcome]).splitlines()[-1], flush=True)
    print(table(done))
    return 0 if all(r["results agree"] == r["games"] and r["exact length"] == r["decisive"] and not r["faults"]
                    for r in done) else 1


if __name__ == "__main__":
    sys.exit(main())
