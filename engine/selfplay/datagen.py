"""`pyrope datagen`: self-play games at a fixed node budget, written as training positions.

Each task plays G games (--games-per-task; its game k is game t*G+k; everything in a game follows
from the seed and its number, so any worker plays it the same). Its quiet positions go to
DIR/positions/TASK.bin (dataset.py's 32-byte records: score from white's point of view, the game's
result) and the games to DIR/games/TASK.jsonl (opening, moves, result, how it ended, the plies
written): both written under a temporary name, fsynced and renamed, so a shard is whole or absent.
DIR/journal.jsonl lists the finished tasks (jobs.py); the same command again resumes. The rules
(adjudication, quietness) are in docs/datagen.md.
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import hashlib
import itertools
import json
import os
import random
import sys
import time
from dataclasses import dataclass

from .. import console
from .._core import Board, Search, default_eval_params, set_eval_params
from ..nnue import dataset, loader
from ..weights.files import read_weights, weights_hash
from .game import HASH_MB, WIN_CP, choose_opening, play_out
from ..jobs import add_backend_arguments, backend_from, finished_records, open_journal, run_job
from ..journal import Journal
from ..data import revision
from .rundir import lock_directory, write_atomically

DEFAULT_NODES = 5000        # depth 7, about 2 ms of CPU a move: 1 million positions per CPU-hour (docs/datagen.md)
DEFAULT_RANDOM_PLIES = 8
GAMES_PER_TASK = 32
SKIP_SEARCHED_PLIES = 8     # the first searched moves repeat across games: not written


@dataclass(frozen=True)
class Settings:
    """What defines the games (all of it goes into the journal's fingerprint but the openings, the
    weights and the net, which are there as their file's hash)."""
    nodes: int
    seed: int
    random_plies: int
    games_per_task: int
    openings: tuple = ()
    openings_hash: str | None = None
    params: tuple = ()                  # (name, value) of every weight played with; () the shipped ones
    params_hash: str = ""               # the weights' hash (game.weights_hash), given or shipped
    net: bytes = b""                    # the net file's bytes: the net evaluates; b"" the weights do
    net_hash: str = ""                  # its SHA-256


def use_evaluation(settings: Settings) -> None:
    """Put the games' evaluation into this process's core: the weights, and the net or none. Once
    a task, not a game: reading and loading a net takes some 8 ms, 2% of a game."""
    set_eval_params(dict(settings.params) if settings.params else default_eval_params())
    loader.load_bytes(settings.net)


def play_game(settings: Settings, number: int) -> tuple[list[bytes], dict]:
    """Play game `number` with the evaluation use_evaluation put in; returns its records and its
    log entry."""
    rng = random.Random(f"{settings.seed}/{number}")
    search = Search(threads=1, hash_mb=HASH_MB)     # a fresh search: the game depends on nothing before it
    board = choose_opening(rng, settings.openings, settings.random_plies, settings.nodes, search)
    search.clear()
    opening = board.fen()
    kept = []

    def keep_quiet(position: Board, found: dict, score: int, ply: int) -> None:
        # Quiet: the score is that of the position as it stands, which a static evaluation can learn.
        if (ply >= SKIP_SEARCHED_PLIES and abs(score) < WIN_CP and not position.is_check()
                and found["move"] not in position.legal_moves("captures")):      # captures include promotions
            kept.append((position.fen(), score, ply))
    result, end, moves = play_out(board, lambda position: search.run(position, nodes=settings.nodes), keep_quiet)
    log = {"game": number, "opening": opening, "moves": " ".join(moves), "result": result, "end": end,
           "plies": [ply for _, _, ply in kept]}
    return [dataset.encode(fen, score, result) for fen, score, _ in kept], log


@dataclass(frozen=True)
class DatagenJob:
    """The datagen job for jobs.run_job: task t plays games t*G .. t*G+G-1."""
    settings: Settings
    out: str
    total: int
    revision: str       # the Pyrope that plays, journaled with each task as its provenance
    unit: str = "positions"

    def fingerprint(self) -> dict:
        fields = dataclasses.asdict(self.settings)
        del fields["openings"], fields["params"], fields["net"]
        if not fields["net_hash"]:
            del fields["net_hash"]          # runs begun before --net existed played without one, and resume
        return {"job": "datagen", "format": "marlinformat", **fields}

    def task_ids(self):
        return itertools.count()

    def perform(self, task_id: int) -> tuple[bytes, list[dict]]:
        size = self.settings.games_per_task
        records, logs = [], []
        use_evaluation(self.settings)
        for number in range(task_id * size, (task_id + 1) * size):
            game_records, log = play_game(self.settings, number)
            records += game_records
            logs.append(log)
        return b"".join(records), logs

    def shard_paths(self, task_id: int) -> tuple[str, str]:
        return (os.path.join(self.out, "positions", f"{task_id:06d}.bin"),
                os.path.join(self.out, "games", f"{task_id:06d}.jsonl"))

    def save(self, task_id: int, result: tuple[bytes, list[dict]]) -> dict:
        records, logs = result
        positions_path, games_path = self.shard_paths(task_id)
        # The games first: a positions shard never exists without the games that explain it.
        write_atomically(games_path, "".join(json.dumps(log) + "\n" for log in logs).encode())
        write_atomically(positions_path, records)
        return {"count": len(records) // dataset.RECORD_SIZE, "games": len(logs), "pyrope": self.revision,
                "results": dict(collections.Counter(log["result"] for log in logs)),
                "ends": dict(collections.Counter(log["end"] for log in logs))}


def load_openings(path: str) -> tuple[tuple, str]:
    """The positions of an EPD or FEN file (one a line) and the file's SHA-256; InputError naming
    the file, and the line that is not a position."""
    try:
        with open(path, "rb") as handle:
            data = handle.read()
    except OSError as error:
        raise console.InputError(f"cannot read the openings file {path}: {error.strerror}") from None
    openings = []
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        fields = line.split(";")[0].split()
        if not fields:
            continue
        # EPD: four position fields, then operations; FEN: six fields.
        fen = " ".join(fields[:6] if len(fields) >= 6 and fields[4].isdigit() else fields[:4])
        try:
            Board(fen)
        except ValueError as error:
            raise console.InputError(f"{path}, line {number}: not a position ({error})") from None
        openings.append(fen)
    if not openings:
        raise console.InputError(f"{path} holds no positions")
    return tuple(openings), hashlib.sha256(data).hexdigest()


def check_shards(job: DatagenJob, records: dict[int, dict]) -> list[int]:
    """The finished tasks whose shards are missing (they are played again, identically); ValueError
    for a shard whose size is not what the journal says, which was damaged after it was written."""
    missing = []
    for task_id, record in records.items():
        positions_path, games_path = job.shard_paths(task_id)
        if not (os.path.exists(positions_path) and os.path.exists(games_path)):
            missing.append(task_id)
        elif os.path.getsize(positions_path) != record["count"] * dataset.RECORD_SIZE:
            raise ValueError(f"{positions_path} is damaged: {os.path.getsize(positions_path)} bytes where the journal "
                             f"says {record['count']} records of {dataset.RECORD_SIZE}; delete it and run again "
                             f"to play its games again")
    return missing


def summary(records: dict[int, dict], new_positions: int, seconds: float, workers: int) -> list[str]:
    results = collections.Counter()
    ends = collections.Counter()
    for record in records.values():
        results.update(record["results"])
        ends.update(record["ends"])
    games = sum(record["games"] for record in records.values())
    positions = sum(record["count"] for record in records.values())
    rate = new_positions / seconds * 3600 if seconds > 0 else 0.0
    return [f"Games: {games}   positions: {positions}   "
            f"white wins {results['1-0']}, draws {results['1/2-1/2']}, black wins {results['0-1']}",
            "Ends: " + ", ".join(f"{kind} {count}" for kind, count in ends.most_common()),
            f"This run: {new_positions} positions in {seconds:.0f} s: {rate:,.0f} positions/hour "
            f"({rate / workers:,.0f} per worker)"]


DESCRIPTION = """\
Play Pyrope against itself at a fixed node budget per move and write the quiet positions of each
game with Pyrope's search score (white's point of view) and the game's result, as 32-byte
marlinformat records in DIR/positions/*.bin (the games themselves in DIR/games/*.jsonl).
Run the same command again to resume or, with a larger --positions, to extend; docs/datagen.md
describes the rules and the format."""

EXAMPLES = """\
examples:
  pyrope datagen --positions 1000000 --out ~/pyrope-data
  pyrope datagen --positions 100000 --out data --openings balanced-8ply.epd --workers 2
  pyrope datagen --positions 10000000 --out data-2 --net my.nnue
  pyrope datagen --positions 100000000 --out /shared/data --ray auto"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description, parser.epilog = DESCRIPTION, EXAMPLES
    parser.add_argument("--positions", type=console.positive_int, required=True,
                        help="positions wanted in DIR, those of earlier runs included")
    parser.add_argument("--out", required=True, metavar="DIR", help="the output directory (made if missing)")
    add_backend_arguments(parser, "games")
    parser.add_argument("--nodes", type=console.positive_int, default=DEFAULT_NODES,
                        help="nodes searched per move (default %(default)s)")
    parser.add_argument("--random-plies", type=int, default=None, metavar="R",
                        help=f"random plies before the game starts (default {DEFAULT_RANDOM_PLIES}, "
                             "or 2 after an opening of --openings)")
    parser.add_argument("--openings", metavar="EPD", help="start each game from a random line of this EPD/FEN file")
    parser.add_argument("--params", metavar="FILE", help="play with these evaluation weights: a parameter file or "
                        "a genome (FILE#ID), as EvalFile takes (default: the shipped weights)")
    parser.add_argument("--net", metavar="FILE", help="evaluate with this net (a .nnue file, as NNUEFile takes; "
                        "default: the hand-crafted evaluation with --params' weights)")
    parser.add_argument("--seed", type=int,
                        help="the seed (default: random for a new DIR, the DIR's own when resuming)")
    parser.add_argument("--games-per-task", type=console.positive_int, default=GAMES_PER_TASK,
                        help="games per task and shard: what a killed run may lose per worker (default %(default)s)")


def build_job(args: argparse.Namespace, journal_header: dict) -> DatagenJob:
    openings, openings_hash = load_openings(args.openings) if args.openings else ((), None)
    random_plies = args.random_plies
    if random_plies is None:
        random_plies = 2 if openings else DEFAULT_RANDOM_PLIES
    if random_plies < 0:
        raise console.InputError(f"--random-plies cannot be negative ({random_plies})")
    seed = args.seed if args.seed is not None else journal_header.get("seed", random.randrange(2 ** 32))
    params, params_hash = (), weights_hash(default_eval_params())
    if args.params:
        weights = read_weights(args.params)
        params, params_hash = tuple(weights.items()), weights_hash(weights)
    net, net_hash = b"", ""
    if args.net:
        net = loader.file_bytes(args.net)   # NetFileError (a ValueError) names a file the core cannot use
        net_hash = hashlib.sha256(net).hexdigest()
    settings = Settings(args.nodes, seed, random_plies, args.games_per_task, openings, openings_hash, params,
                        params_hash, net, net_hash)
    return DatagenJob(settings, args.out, args.positions, revision())


def run(args: argparse.Namespace) -> int:
    try:
        os.makedirs(os.path.join(args.out, "positions"), exist_ok=True)
        os.makedirs(os.path.join(args.out, "games"), exist_ok=True)
    except OSError as error:
        raise ValueError(f"cannot make the output directory {args.out}: {error.strerror}") from None
    lock = lock_directory(args.out, "datagen")
    journal_path = os.path.join(args.out, "journal.jsonl")
    try:
        job = build_job(args, Journal(journal_path).header)
        earlier = finished_records(open_journal(job, journal_path))
        missing = check_shards(job, earlier)
        backend, where = backend_from(args)
        workers = backend.capacity
        evaluation = f"the net {args.net}" if args.net else "the hand-crafted evaluation"
        print(f"datagen: {args.positions} positions to {args.out}, {job.settings.nodes} nodes a move with "
              f"{evaluation}, seed {job.settings.seed}, {workers} workers ({where})", flush=True)
        before = sum(record["count"] for task, record in earlier.items() if task not in missing)
        start = time.monotonic()
        interrupted = False
        try:
            records = run_job(job, journal_path, backend, redo=missing, desc="datagen")
        except KeyboardInterrupt:
            interrupted = True
            records = {task: record for task, record in finished_records(Journal(journal_path)).items()
                       if os.path.exists(job.shard_paths(task)[0])}
        made = sum(record["count"] for record in records.values()) - before
        for line in summary(records, made, time.monotonic() - start, workers):
            print(line)
        if interrupted:
            print("datagen: interrupted; every finished game is saved: run the same command to go on",
                  file=sys.stderr)
            return 130
        return 0
    finally:
        lock.close()

