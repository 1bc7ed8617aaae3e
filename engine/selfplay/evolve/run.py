"""`pyrope evolve`: a run of gene pools (pools.py) whose bouts are played by the job runner (jobs.py),
on local worker processes or on Ray, round after round, resumable wherever it was killed.

The run directory holds:
  config.txt    the configuration, as given (a resumed run reads it from here)
  games.jsonl   the journal: a fingerprint line, then one line per bout as it ends (its id, round,
                pool, genomes, opening, budget, both games' result and ending, the worker) -- the
                append-only games log
  genomes.txt   every genome born, in the text format of genome.py, appended round by round
  pools.txt     the living genomes (rewritten after each round): `EvalFile pools.txt` plays the
                oldest living genome, `EvalFile pools.txt#ID` any of them
  state.json    the checkpoint after the last whole round (pools, standings, counters, budget, and
                how much of genomes.txt belongs to it)
  summary.txt   each round's summary, as printed

A round is one job of the runner: its bouts are tasks whose ids number every bout of the run, so
the journal keeps bouts of a round killed half-way and the resumed run plays only the others. The
round's results are applied in bout order, so a run ends the same whether it was killed and resumed
or ran on other workers.
"""
from __future__ import annotations

import argparse
import json
import os
import socket
import sys
from dataclasses import dataclass
from typing import Callable, Mapping

from ... import __version__, console
from ..._core import default_eval_params
from ..game import play_bout
from ..jobs import LocalWorkers, RayWorkers, run_job
from ..journal import Journal
from ..rundir import lock_directory, revision, write_atomically
from .config import ConfigError, EvolveConfig, parse_config
from .genome import format_genome, genome_params, load_genome, parse_genomes, to_genome
from .pools import Bout, Evolution, RoundReport

DESCRIPTION = """\
Evolve the evaluation's weights in gene pools of self-play games (Genetic Chess): genomes meet in
bouts of two games from one random opening, colours swapped; the winner breeds with the loser and
the child replaces the loser; draws sometimes bring new blood; each pool's best migrates to the
next. docs/evolve.md has the configuration, the files and the output."""

EXAMPLES = """\
usage forms:
  pyrope evolve CONFIG [--out RUNDIR] [--workers N | --ray ADDRESS]
  pyrope evolve --resume RUNDIR [--workers N | --ray ADDRESS]
  pyrope evolve export GENOMES[#ID] [-o FILE]
examples:
  pyrope evolve evolve.cfg --out runs/pools          # a new run (or the same run, resumed)
  pyrope evolve --resume runs/pools                  # go on where it stopped
  pyrope evolve export runs/pools/pools.txt -o best.txt   # the oldest living genome as name = value lines"""


@dataclass(frozen=True)
class BoutJob:
    """One round's bouts as a job of the runner (jobs.py). A task plays one bout with `play`
    (game.play_bout, or a stand-in in tests); `params` are each genome's parameters."""
    fingerprint_: dict
    bouts: tuple[Bout, ...]
    params: Mapping[int, Mapping[str, int]]
    random_plies: int
    seed: int
    total: int
    round: int
    play: Callable = play_bout
    unit: str = "games"

    def fingerprint(self) -> dict:
        return self.fingerprint_

    def task_ids(self):
        return [bout.id for bout in self.bouts]

    def perform(self, task_id: int) -> dict:
        bout = next(bout for bout in self.bouts if bout.id == task_id)
        opening, games = self.play(self.params[bout.first], self.params[bout.second], bout.nodes,
                                   f"{self.seed}/bout/{bout.id}", self.random_plies)
        return {"opening": opening, "games": games, "worker": f"{socket.gethostname()}:{os.getpid()}"}

    def save(self, task_id: int, result: dict) -> dict:
        bout = next(bout for bout in self.bouts if bout.id == task_id)
        return {"count": len(result["games"]), "round": self.round, "pool": bout.pool,
                "genomes": [bout.first, bout.second], "nodes": bout.nodes, **result}


class EvolveRun:
    """A run directory and the evolution in it."""

    def __init__(self, out: str, config_text: str, start: Mapping[str, int], play: Callable = play_bout):
        self.out = out
        self.config_path = os.path.join(out, "config.txt")
        self.config: EvolveConfig = parse_config(config_text, self.config_path, start)
        self.evolution = Evolution(self.config, start)
        self.play = play
        self.names = {spec.name: spec.params for spec in self.config.genes}
        self.fingerprint = {"job": "evolve", "pyrope": __version__, "config": config_text}
        self.archived = 0           # bytes of genomes.txt that belong to the state
        Journal(self.path("games.jsonl")).check(self.fingerprint, "evolution run",
                                                "give another run directory, or resume with the same")
        state_path = self.path("state.json")
        if os.path.exists(state_path):
            with open(state_path, encoding="utf-8") as handle:
                state = json.load(handle)
            self._restore(state)
        else:
            self._archive(sorted(self.evolution.alive()))

    def path(self, name: str) -> str:
        return os.path.join(self.out, name)

    def _restore(self, state: dict) -> None:
        archive = self.path("genomes.txt")
        with open(archive, "rb") as handle:
            text = handle.read(state["archived"]).decode("utf-8")
        # A run killed after appending genomes but before its checkpoint: those come again.
        with open(archive, "r+b") as handle:
            handle.truncate(state["archived"])
        genomes = {parsed.id: to_genome(parsed, self.config.genes, archive)
                   for parsed in parse_genomes(text, archive, default_eval_params())}
        self.evolution.restore(state["evolution"], genomes)
        self.archived = state["archived"]

    def _archive(self, genome_ids) -> None:
        text = "".join(format_genome(self.evolution.genomes[genome], self.config.genes) for genome in genome_ids)
        with open(self.path("genomes.txt"), "ab") as handle:
            handle.write(text.encode("utf-8"))
            handle.flush()
            os.fsync(handle.fileno())
        self.archived += len(text.encode("utf-8"))

    def _checkpoint(self) -> None:
        alive = sorted(self.evolution.alive())
        write_atomically(self.path("pools.txt"), "".join(
            format_genome(self.evolution.genomes[genome], self.config.genes) for genome in alive).encode("utf-8"))
        state = {"evolution": self.evolution.state(), "archived": self.archived, "pyrope": revision()}
        write_atomically(self.path("state.json"), json.dumps(state).encode("utf-8"))

    def play_round(self, backend) -> RoundReport:
        """Plan the next round, play its bouts on `backend` (kept open) and apply them."""
        evolution = self.evolution
        bouts = evolution.plan_round()
        playing = {genome for bout in bouts for genome in (bout.first, bout.second)}
        params = {genome: genome_params(evolution.genomes[genome], self.names) for genome in playing}
        job = BoutJob(self.fingerprint, tuple(bouts), params, self.config.random_plies, self.config.seed,
                      evolution.games + 2 * len(bouts), evolution.rounds + 1, self.play)
        records = run_job(job, self.path("games.jsonl"), backend, desc=f"round {evolution.rounds + 1}",
                          keep_backend=True)
        born_before = evolution.next_id
        report = evolution.apply_round(bouts, {bout.id: [game["result"] for game in records[bout.id]["games"]]
                                               for bout in bouts})
        self._archive(range(born_before, evolution.next_id))
        self._checkpoint()
        return report

    def run(self, backend, write: Callable[[str], None] = print) -> None:
        """Rounds until the configured games are played."""
        try:
            while self.evolution.games < self.config.games:
                report = self.play_round(backend)
                text = round_summary(self.evolution, report)
                with open(self.path("summary.txt"), "a", encoding="utf-8") as handle:
                    handle.write(text + "\n\n")
                write(text)
        finally:
            backend.close()


def round_summary(evolution: Evolution, report: RoundReport) -> str:
    """A round in the manner of Genetic Chess's section 5.2: per pool its counts, its bouts, and its
    standings (* new blood after a draw, T copied from another pool); then the run's records."""
    lines = [f"Round {report.round}: games {evolution.games}, {evolution.nodes} nodes a move next"]
    for number, pool in enumerate(evolution.pools):
        counts = evolution.counts[number]
        lines.append(f"Pool {number}: population {len(pool)}, new blood {counts.new_blood}; "
                     f"White wins {counts.white}, Black wins {counts.black}, draws {counts.draws}")
        for bout, points, what in report.events:
            if bout.pool == number:
                lines.append(f"  {bout.first} vs {bout.second}: {points:g}-{2 - points:g}, {what}")
        for genome, source, target in report.migrated:
            if target == number:
                lines.append(f"  {genome}, the best of pool {source}, joins")
        marks = {genome: "*" for pool_number, genome in report.new_blood if pool_number == number}
        marks.update({genome: "T" for genome, _, target in report.migrated if target == number})
        lines.append("  ID       Wins  Streak  Draws  Streak")
        for genome in sorted(pool):
            s = evolution.standings[genome]
            lines.append(f"  {genome:<8} {s.wins:>4}  {s.win_streak:>6}  {s.draws:>5}  {s.draw_streak:>6} "
                         f"{marks.get(genome, '')}".rstrip())
    wins, champion = evolution.most_wins
    alive_longest = max(evolution.alive(), key=lambda genome: (evolution.standings[genome].bouts, -genome))
    lived = max(evolution.longest_lived, (evolution.standings[alive_longest].bouts, alive_longest))
    lines.append(f"Most wins: {wins} by ID {champion}; longest lived: {lived[0]} bouts by ID {lived[1]}")
    return "\n".join(lines)


def export(target: str, output: str | None) -> None:
    """A genome (FILE#ID, or FILE's oldest) as `name = value` lines: every evaluation parameter,
    the genome's where it sets one, the defaults elsewhere."""
    genome = load_genome(target)
    values = {**default_eval_params(), **genome.params()}
    lines = [f"# Pyrope evaluation parameters: genome {genome.id} of {target}"]
    lines += [f"{name} = {value}" for name, value in values.items()]
    data = "\n".join(lines) + "\n"
    if output:
        write_atomically(output, data.encode("utf-8"))
    else:
        sys.stdout.write(data)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description, parser.epilog = DESCRIPTION, EXAMPLES
    parser.add_argument("words", nargs="*", metavar="CONFIG | export GENOMES[#ID]",
                        help="a configuration file to run, or export and a genome file")
    parser.add_argument("--out", metavar="RUNDIR", help="the run directory (default: CONFIG without its extension, "
                                                         "plus .run)")
    parser.add_argument("--resume", metavar="RUNDIR", help="go on with the run in RUNDIR, with its own configuration")
    parser.add_argument("--workers", type=console.positive_int, default=os.cpu_count() or 1,
                        help="local worker processes (default: every core, %(default)s); with --ray local, its CPUs")
    parser.add_argument("--ray", metavar="ADDRESS",
                        help="play the bouts on a Ray cluster: its address, auto, or local (needs pyrope[cluster])")
    parser.add_argument("-o", "--output", metavar="FILE", help="export: write here (default: stdout)")
    parser.set_defaults(usage_error=parser.error)


def run(args: argparse.Namespace) -> int:
    words = list(args.words)
    if words[:1] == ["export"]:
        if len(words) != 2:
            args.usage_error("export takes one genome file: GENOMES or GENOMES#ID")
        export(words[1], args.output)
        return 0
    if bool(args.resume) == bool(words) or len(words) > 1:
        args.usage_error("give one configuration file, or --resume RUNDIR")
    out = args.resume or args.out or os.path.splitext(words[0])[0] + ".run"
    config_path = os.path.join(out, "config.txt") if args.resume else words[0]
    if args.resume and not os.path.exists(config_path):
        raise ValueError(f"{out} holds no evolution run (no config.txt)")
    try:
        with open(config_path, encoding="utf-8") as handle:
            config_text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"cannot read the configuration {config_path}: {console.sentence(error)}") from None
    try:
        parse_config(config_text, config_path, default_eval_params())
    except ConfigError as error:
        print(f"pyrope evolve: {error}", file=sys.stderr)
        return 2
    os.makedirs(out, exist_ok=True)
    lock = lock_directory(out, "evolve")
    try:
        kept = os.path.join(out, "config.txt")
        if not os.path.exists(kept):
            write_atomically(kept, config_text.encode("utf-8"))
        with open(kept, encoding="utf-8") as handle:
            if handle.read() != config_text:
                raise ValueError(f"{out} holds a run of another configuration ({kept} differs from "
                                 f"{config_path}): give another --out, or --resume {out}")
        evolve_run = EvolveRun(out, config_text, default_eval_params())
        backend = RayWorkers(args.ray, args.workers) if args.ray else LocalWorkers(args.workers)
        where = f"Ray at {args.ray}" if args.ray else "local"
        config = evolve_run.config
        print(f"evolve: {config.pools} pools of {config.population}, {len(config.genes)} genes, "
              f"{config.games} games, seed {config.seed}, {backend.capacity} workers ({where}), run in {out}; "
              f"{evolve_run.evolution.games} games played", flush=True)
        evolve_run.run(backend, console.above_progress(print))
        champion = evolve_run.evolution.champion()
        print(f"evolve: {evolve_run.evolution.games} games played; champion {champion} "
              f"(EvalFile {os.path.join(out, 'pools.txt')}#{champion})")
        return 0
    finally:
        lock.close()
