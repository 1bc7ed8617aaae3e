"""`pyrope evolve`: a run of gene pools (pools.py) whose bouts are played by the job runner (jobs.py),
on local worker processes or on Ray, round after round, resumable wherever it was killed.

The run directory holds:
  config.txt    the configuration, as given (a resumed run reads it from here)
  games.jsonl   the journal: a fingerprint line, then one line per bout as it ends (its id, round,
                pool -- -1 for a gauntlet's --, genomes, opening, budget, both games' result and
                ending, the worker) -- the append-only games log
  genomes.txt   every genome born, in the text format of genome.py, appended round by round
  pools.txt     the living genomes (rewritten after each round): `EvalFile pools.txt` plays the
                oldest living genome, `EvalFile pools.txt#ID` any of them
  state.json    the checkpoint after the last whole round or gauntlet (pools, standings, counters,
                budget, gauntlets, each round's draws and champion, and how much of genomes.txt and
                summary.txt belongs to it)
  summary.txt   each round's and each gauntlet's summary, as printed
  progress.png  the champion's Elo against the start table at each gauntlet, each round's draw
                share, the champion's gene priorities (with matplotlib, the `tune` extra)

A round is one job of the runner: its bouts are tasks whose ids number every bout of the run, so
the journal keeps bouts of a round killed half-way and the resumed run plays only the others. The
round's results are applied in bout order, so a run ends the same whether it was killed and resumed
or ran on other workers.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Callable, Mapping

from ... import __version__, console
from ..._core import default_eval_params
from ..bouts import Bout, BoutJob, gauntlet_due, gauntlet_result, gauntlet_text, plot_gauntlets
from ...weights.files import weights_hash
from ..game import play_bout
from ...jobs import add_backend_arguments, backend_from, run_job
from ...journal import Journal
from ..rundir import RunDirectory, read_text, run_configuration, write_atomically
from .config import EvolveConfig, parse_config
from ...weights.files import load_genome, parse_genomes
from .genome import format_genome, genome_params, to_genome
from .pools import START_ID, Evolution, RoundReport

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


class EvolveRun:
    """An evolution and its run directory (rundir.RunDirectory: genomes.txt and summary.txt only
    grow; pools.txt and state.json are rewritten at each checkpoint)."""

    def __init__(self, directory: RunDirectory, config_text: str, start: Mapping[str, int],
                 play: Callable = play_bout):
        self.directory = directory
        self.config: EvolveConfig = parse_config(config_text, directory.path("config.txt"), start)
        self.evolution = Evolution(self.config, start)
        self.play = play
        self.names = {spec.name: spec.params for spec in self.config.genes}
        # The start table is the shipped weights of this Pyrope: its hash keeps a run from resuming
        # on other ones.
        self.fingerprint = {"job": "evolve", "pyrope": __version__, "config": config_text,
                            "start": weights_hash(start)}
        self.gauntlets: list[dict] = []     # each: games, round, player (the champion), wins, losses, draws, elo, margin
        self.history: list[dict] = []       # each round: games, played, draws, champion, its priorities
        self.bar = None                     # the run's progress bar, while it runs
        Journal(self.path("games.jsonl")).check(self.fingerprint, "evolution run",
                                                "give another run directory, or resume with the same")

    def path(self, name: str) -> str:
        return self.directory.path(name)

    def begin(self, state: dict | None) -> None:
        """Take the run directory's last checkpoint (None: a new run, whose first pools are archived)."""
        if state is None:
            self.directory.append("genomes.txt", self._genomes_text(sorted(self.evolution.alive())))
            return
        archive = self.path("genomes.txt")
        genomes = {parsed.id: to_genome(parsed, self.config.genes, archive)
                   for parsed in parse_genomes(read_text(archive, "genome archive"), archive, default_eval_params())}
        self.evolution.restore(state["evolution"], genomes)
        self.gauntlets, self.history = state["gauntlets"], state["history"]

    def _genomes_text(self, genome_ids) -> str:
        return "".join(format_genome(self.evolution.genomes[genome], self.config.genes) for genome in genome_ids)

    def _checkpoint(self) -> None:
        self.directory.checkpoint({"evolution": self.evolution.state(), "gauntlets": self.gauntlets,
                                   "history": self.history},
                                  {"pools.txt": self._genomes_text(sorted(self.evolution.alive()))})

    def _play(self, bouts: list[Bout], round_number: int, backend) -> dict[int, dict]:
        """Play `bouts` on `backend` (kept open); every finished bout's journal record by id."""
        playing = {genome for bout in bouts for genome in (bout.first, bout.second)}
        params = {genome: genome_params(self.evolution.genomes[genome], self.names) for genome in playing}
        logged = self.evolution.games + sum(2 * self.config.gauntlet_bouts for _ in self.gauntlets)
        job = BoutJob(self.fingerprint, tuple(bouts), params, self.config.random_plies, self.config.seed,
                      logged + 2 * len(bouts), round_number, self.play)
        return run_job(job, self.path("games.jsonl"), backend, keep_backend=True, bar=self.bar)

    def play_round(self, backend) -> str:
        """Plan the next round, play its bouts and apply them; append its summary; checkpoint. The summary."""
        evolution = self.evolution
        bouts = evolution.plan_round()
        records = self._play(bouts, evolution.rounds + 1, backend)
        born_before = evolution.next_id
        results = {bout.id: [game["result"] for game in records[bout.id]["games"]] for bout in bouts}
        report = evolution.apply_round(bouts, results)
        champion = evolution.champion()
        self.history.append({"round": evolution.rounds, "games": evolution.games, "played": 2 * len(bouts),
                             "draws": sum(result.count("1/2-1/2") for result in results.values()),
                             "champion": champion, "priorities": {name: gene.priority for name, gene
                                                                  in evolution.genomes[champion].genes.items()}})
        self.directory.append("genomes.txt", self._genomes_text(range(born_before, evolution.next_id)))
        summary = round_summary(evolution, report)
        self.directory.append("summary.txt", summary + "\n\n")
        self._checkpoint()
        return summary

    def gauntlet_due(self) -> bool:
        return gauntlet_due(self.config.gauntlet_interval, self.evolution.games, self.gauntlets)

    def play_gauntlet(self, backend) -> dict:
        """The champion against the start table: `gauntlet bouts` bouts at the maximum budget."""
        evolution = self.evolution
        champion = evolution.champion()
        bouts = [Bout(number, -1, champion, START_ID, self.config.maximum_nodes)
                 for number in evolution.reserve_bouts(self.config.gauntlet_bouts)]
        gauntlet = gauntlet_result(bouts, self._play(bouts, evolution.rounds, backend), evolution.games, champion)
        self.gauntlets.append({**gauntlet, "round": evolution.rounds})
        self.directory.append("summary.txt", gauntlet_summary(gauntlet) + "\n\n")
        self._checkpoint()
        return gauntlet

    def run(self, backend, write: Callable[[str], None] = print) -> None:
        """Rounds (and the gauntlets that fall due) until the configured games are played."""
        config = self.config
        gauntlet_games = 2 * config.gauntlet_bouts * (config.games // config.gauntlet_interval
                                                      if config.gauntlet_interval else 0)
        self.bar = console.progress(total=config.games + gauntlet_games, unit=" games", desc="evolve", smoothing=0.05,
                                    initial=self.evolution.games + 2 * config.gauntlet_bouts * len(self.gauntlets))
        try:
            while True:
                if self.gauntlet_due():
                    write(gauntlet_summary(self.play_gauntlet(backend)))
                    draw_progress(self.history, self.gauntlets, self.path("progress.png"))
                if self.evolution.games >= self.config.games:
                    break
                write(self.play_round(backend))
            draw_progress(self.history, self.gauntlets, self.path("progress.png"))
        finally:
            self.bar.close()
            backend.close()


def gauntlet_summary(gauntlet: dict) -> str:
    return gauntlet_text(gauntlet, f"champion {gauntlet['player']}")


def draw_progress(history: list[dict], gauntlets: list[dict], path: str) -> None:
    """progress.png: the champion's Elo against the start table at each gauntlet (with its 95%
    interval), the draw share of each round (cf. Genetic Chess's figure 5), and the champion's gene
    priorities (cf. figure 3). Nothing without matplotlib (the `tune` extra)."""
    try:
        import matplotlib
    except ImportError:
        return
    matplotlib.use("Agg")       # no screen needed
    from matplotlib import pyplot
    figure, (elo, draws, weights) = pyplot.subplots(3, 1, figsize=(7, 9), dpi=100, sharex=True)
    plot_gauntlets(elo, gauntlets)
    elo.set_ylabel("champion vs start (Elo)")
    draws.plot([h["games"] for h in history], [h["draws"] / h["played"] for h in history], linewidth=0.8)
    draws.set_ylabel("draw share of the round")
    for name in history[0]["priorities"] if history else ():
        weights.plot([h["games"] for h in history], [h["priorities"][name] for h in history], label=name,
                     linewidth=0.8)
    weights.set_ylabel("champion's gene priorities")
    weights.set_xlabel("games")
    if history:
        weights.legend(fontsize=6, ncol=3)
    for axes in (elo, draws, weights):
        axes.grid(alpha=0.3)
    figure.suptitle("pyrope evolve")
    figure.tight_layout()
    figure.savefig(path + ".tmp.png")
    pyplot.close(figure)
    os.replace(path + ".tmp.png", path)


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
    add_backend_arguments(parser, "bouts")
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
    out, config_path, config_text = run_configuration(words[0] if words else None, args.resume, args.out, "config.txt")
    parse_config(config_text, config_path, default_eval_params())
    directory = RunDirectory(out, "evolve", "config.txt", ("genomes.txt", "summary.txt"))
    try:
        state = directory.open(config_text, config_path)
        evolve_run = EvolveRun(directory, config_text, default_eval_params())
        evolve_run.begin(state)
        backend, where = backend_from(args)
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
        directory.close()
