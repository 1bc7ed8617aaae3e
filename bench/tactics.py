"""Test-suite solve rates at a fixed time per position (default 1 s), of Pyrope and the engines a
user compares it with, in one run: each engine is driven over UCI by python-chess with one thread
and a 64 MB hash, a new game for every position.

A position counts as solved when the engine's move is one of `bm` (and none of `am`); for mate
suites (`dm`) when it announces a mate; for the Syzygy suite (`wdl`) when its score has the right
sign: a win (wdl 2) above +150 cp, a loss (-2) below -150 cp, a draw (0, +-1: cursed and blessed
results are draws under the fifty-move rule) within +-150 cp. Numbers, not assertions; the table
and every position's answer go to --journal as JSON.

    python bench/tactics.py [--seconds 1] [--engine NAME=COMMAND ...] [--journal FILE] [SUITE.epd ...]

Without --engine: the installed `pyrope`, Debian's Glaurung 2.2 and Stockfish 15.1 (full strength).
"""
from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import re
import shlex
import shutil
import subprocess
from pathlib import Path

import chess
import chess.engine

SUITES = Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "suites"
WINNING_CP = 150


def solved(board: chess.Board, ops: dict, move: chess.Move, score: chess.engine.Score | None) -> bool:
    """Whether the engine's `move` and `score` (from the side to move's view) answer the record."""
    if "bm" in ops or "am" in ops:
        return move in ops.get("bm", [move]) and move not in ops.get("am", [])
    if "dm" in ops:
        return score is not None and score.is_mate() and score.mate() > 0
    if "wdl" in ops:
        wdl = int(ops["wdl"])
        if score is None:
            return False
        if score.is_mate():
            return (score.mate() > 0) == (wdl == 2) and wdl in (2, -2)
        cp = score.score()
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


def run_engine(command: str, suites: list[Path], seconds: float) -> dict:
    """{suite name: [one answer per record]} for one engine; an answer is None for a record
    python-chess cannot read (it counts as unsolved), else {id, move, solved}."""
    answers: dict[str, list] = {}
    with chess.engine.SimpleEngine.popen_uci(shlex.split(command)) as engine:
        engine.configure({name: value for name, value in (("Threads", 1), ("Hash", 64))
                          if name in engine.options})
        for path in suites:
            answers[path.name] = []
            for line in read_records(path):
                try:
                    board, ops = parse_epd(line)
                except ValueError:
                    answers[path.name].append(None)
                    continue
                played = engine.play(board, chess.engine.Limit(time=seconds), info=chess.engine.INFO_SCORE,
                                     game=object())
                score = played.info.get("score")
                answers[path.name].append({"id": ops.get("id"), "move": played.move.uci(),
                                           "solved": solved(board, ops, played.move,
                                                            score.relative if score else None)})
    return answers


def version(command: str) -> str:
    """The engine's own name for itself, from its UCI handshake."""
    with chess.engine.SimpleEngine.popen_uci(shlex.split(command)) as engine:
        return engine.id.get("name", command)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--engine", action="append", metavar="NAME=COMMAND",
                        help="an engine to measure (default: pyrope, glaurung, stockfish)")
    parser.add_argument("--journal", type=Path, help="write the table and every answer here (JSON)")
    parser.add_argument("--parallel", type=int, default=2, help="engines measured at a time (default 2)")
    parser.add_argument("suites", nargs="*", type=Path, default=sorted(SUITES.glob("*.epd")))
    args = parser.parse_args()
    given = args.engine or [f"{name}={shutil.which(name) or '/usr/games/' + name}"
                            for name in ("pyrope", "glaurung", "stockfish")]
    engines = dict(entry.split("=", 1) for entry in given)
    with concurrent.futures.ThreadPoolExecutor(args.parallel) as pool:
        runs = {name: pool.submit(run_engine, command, args.suites, args.seconds) for name, command in engines.items()}
        answers = {name: run.result() for name, run in runs.items()}
    names = list(engines)
    print(f"| suite ({args.seconds:g} s a position) | " + " | ".join(names) + " |")
    print("|---|" + "---|" * len(names))
    for path in args.suites:
        cells = []
        for name in names:
            row = answers[name][path.name]
            hits = sum(1 for answer in row if answer and answer["solved"])
            cells.append(f"{hits}/{len(row)} ({100 * hits / len(row):.1f}%)")
        print(f"| {path.stem} | " + " | ".join(cells) + " |")
    if args.journal:
        commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).parent,
                                capture_output=True, text=True).stdout.strip()
        record = {"date": datetime.date.today().isoformat(), "seconds": args.seconds, "checkout": commit,
                  "engines": {name: {"command": command, "id": version(command)} for name, command in engines.items()},
                  "answers": answers}
        args.journal.parent.mkdir(parents=True, exist_ok=True)
        args.journal.write_text(json.dumps(record, indent=1) + "\n")


if __name__ == "__main__":
    main()
