"""Test-suite solve rates at a fixed time per position (default 1 s, one thread, 64 MB hash).

A position counts as solved when the engine's move is one of `bm` (and none of `am`); for mate
suites (`dm`) when it announces a mate; for the Syzygy suite (`wdl`) when its score has the right
sign: a win (wdl 2) above +150 cp, a loss (-2) below -150 cp, a draw (0, +-1: cursed and blessed
results are draws under the fifty-move rule) within +-150 cp. Numbers, not assertions.

    python bench/tactics.py [--seconds 1] [SUITE.epd ...]
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import chess
from tqdm import tqdm

import pyrope
from pyrope._core import Search
from pyrope.play.timeman import Limits, make_clock

SUITES = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "suites"
WINNING_CP = 150


def solved(board: chess.Board, ops: dict, result: dict) -> bool:
    score = result["score"] or {}
    if "bm" in ops or "am" in ops:
        move = chess.Move.from_uci(result["move"])
        return move in ops.get("bm", [move]) and move not in ops.get("am", [])
    if "dm" in ops:
        return score.get("mate", 0) > 0
    if "wdl" in ops:
        wdl = int(ops["wdl"])
        if "mate" in score:
            return (score["mate"] > 0) == (wdl == 2) and wdl in (2, -2)
        cp = score["cp"]
        return cp > WINNING_CP if wdl == 2 else cp < -WINNING_CP if wdl == -2 else abs(cp) <= WINNING_CP
    raise ValueError(f"no bm, am, dm or wdl operation in {board.epd()}")


def parse_epd(line: str) -> tuple[chess.Board, dict]:
    """python-chess EPD parsing, after smoothing the suites' dialects: a ';' before the first
    operation, a check sign written apart ('Qd1 +'), an unquoted id, a missing ';'
    between or after operations, move counters after the fields."""
    fields = line.split()
    position, rest = fields[:4], fields[4:]
    if len(rest) >= 2 and rest[0].isdigit() and rest[1].isdigit():
        rest = rest[2:]
    operations = re.sub(r"\s+\+", "+", " ".join(rest).lstrip("; ").rstrip())
    operations = re.sub(r"(?<!;)\s+(bm|am|dm|id|c0)\b", r"; \1", operations)
    operations = re.sub(r'\bid ([^";]+?)\s*(;|$)', r'id "\1";', operations)
    if not operations.endswith(";"):
        operations += ";"
    board = chess.Board()
    return board, board.set_epd(" ".join(position) + " " + operations)


def read_records(path: Path) -> list[str]:
    """One string per EPD record: NULs dropped, a quoted comment broken over lines rejoined."""
    records: list[str] = []
    pending = ""
    for line in path.read_text().replace("\x00", "").splitlines():
        pending = f"{pending} {line}" if pending else line
        if pending.count('"') % 2 == 0:
            if pending.strip():
                records.append(pending)
            pending = ""
    return records


def run_suite(path: Path, seconds: float, search: Search) -> tuple[int, int]:
    """(solved, total); a record that cannot be read counts as unsolved."""
    lines = read_records(path)
    hits = 0
    for line in tqdm(lines, desc=path.name, leave=False):
        try:
            board, ops = parse_epd(line)
        except ValueError as error:
            tqdm.write(f"{path.name}: skipped a record python-chess cannot read ({error})")
            continue
        search.clear()
        result = search.run(pyrope.Board(board.fen()), clock=make_clock(Limits(movetime=int(seconds * 1000)), True, 0))
        hits += solved(board, ops, result)
    return hits, len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("suites", nargs="*", type=Path, default=sorted(SUITES.glob("*.epd")))
    args = parser.parse_args()
    search = Search(threads=1, hash_mb=64)
    for path in args.suites:
        hits, total = run_suite(path, args.seconds, search)
        print(f"{path.name:32} {hits:4}/{total:<4} {100 * hits / total:5.1f}%  at {args.seconds:g} s/position")


if __name__ == "__main__":
    main()
