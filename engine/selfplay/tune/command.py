"""`pyrope tune`: `--method spsa SPEC`, SPSA (spsa.py) over self-play game pairs on the job runner,
local or on Ray, resumable wherever it was killed; `--method texel DATA... -o PARAMS`, the Texel fit
on datagen's positions (texel.py).

The run directory holds:
  spec.txt      the specification, as given (a resumed run reads it from here)
  start.params  the weights theta starts from (its `start`, or the shipped weights), kept at the start
  net.nnue      the net the games evaluate with (its `net`, if any), kept at the start
  games.jsonl   the journal: a fingerprint line, then one line per game pair as it ends (its
                iteration is its id + 1; `round` is its batch; the opening, both games, the budget,
                the worker; a gauntlet's bouts have pool -1 and ids after the iterations)
  history.csv   one row per iteration: k, the pair's result, then theta of every tuned parameter
  params.txt    the whole weights table with theta rounded (`EvalFile params.txt` plays it)
  search.txt    the search's whole table and the time manager's factors with theta rounded, when
                the run tunes either (`name = value` lines: the values to make the defaults of
                ext/search_params.pxi and, for the time_ names, of play/timeman.py's TimeFactors)
  state.json    the checkpoint after the last whole batch or gauntlet (theta, iterations done,
                the gauntlets: theta against the start table every `gauntlet interval` games)
  progress.png  each parameter's move from its start in units of its c_end, and the plus side's
                running result (with matplotlib, the `tune` extra)
"""
from __future__ import annotations

import argparse
import hashlib
import os
from typing import Callable, Mapping

from ... import __version__, console
from ..._core import default_search_params
from ...play.timeman import factor_table
from ...nnue import loader
from ..bouts import Bout, BoutJob, gauntlet_due, gauntlet_result, gauntlet_text, plot_gauntlets
from ...weights.files import weights_hash, weights_text
from ..game import play_bout
from ...jobs import add_backend_arguments, backend_from, run_job
from ...journal import Journal
from ..rundir import (NET_FILE, NET_KEY, RunDirectory, keep_file, keep_start, kept_input, read_text, run_configuration,
                      start_weights)
from .spsa import Spsa, SpsaSpec, pair_result, parse_spec

DESCRIPTION = """\
Tune the evaluation's weights and the search's parameters on Pyrope's own play. spsa: as fishtest and OpenBench run it, every
tuned parameter perturbed by +-c_k at once, theta+ plays theta- a game pair from one random opening
(colours swapped), and theta moves by r_k c_k result Delta; gains decay as Spall's. texel: the
weights fitted to datagen's positions, labelled by their games' results and Pyrope's own search
scores. docs/tune.md has both."""

EXAMPLES = """\
usage forms:
  pyrope tune --method spsa SPEC [--out RUNDIR] [--workers N | --ray ADDRESS]
  pyrope tune --resume RUNDIR [--workers N | --ray ADDRESS]
  pyrope tune --method texel DATA... -o PARAMS [--result-weight 0.5] [--rounds 2]
examples:
  pyrope tune --method spsa material.spsa            # a run in material.run/
  pyrope tune --resume material.run                  # go on where it stopped
  pyrope tune --method texel ~/pyrope-data -o texel.params     # fit to datagen's positions"""

PLOT_EVERY = 10         # batches between redrawings of progress.png


def tuning_table(start: Mapping[str, int]) -> dict[str, int]:
    """What a run's `param` lines choose from and its games play: the start weights, then the
    search's parameters and the time manager's factors at this build's defaults."""
    return {**start, **default_search_params(), **factor_table()}


class SpsaRun:
    """An SPSA run and its run directory (history.csv grows; params.txt, search.txt and state.json
    are rewritten at each checkpoint). Its table is the start weights and the search's parameters at
    this build's defaults; every game plays the whole table, theta's values over the start's."""

    def __init__(self, directory: RunDirectory, spec_text: str, start: Mapping[str, int], net: bytes = b"",
                 play: Callable = play_bout):
        self.directory = directory
        self.start = tuning_table(start)
        self.search_start = {name: value for name, value in self.start.items() if name not in start}
        self.spec: SpsaSpec = parse_spec(spec_text, directory.path("spec.txt"), self.start)
        self.spsa = Spsa(self.spec)
        self.net, self.play = net, play
        self.fingerprint = {"job": "spsa", "pyrope": __version__, "spec": spec_text, "start": weights_hash(dict(start))}
        # A resumed run must play from the search table and the net it began with (runs that tune
        # neither have neither key, as before both could be tuned).
        if self.tunes_search():
            self.fingerprint["search_start"] = weights_hash(self.search_start)
        if net:
            self.fingerprint["net_sha256"] = hashlib.sha256(net).hexdigest()
        self.gauntlets: list[dict] = []     # each: games, player ("theta"), wins, losses, draws, elo, margin
        Journal(directory.path("games.jsonl")).check(self.fingerprint, "SPSA run",
                                                     "give another run directory, or resume with the same")

    def tunes_search(self) -> bool:
        return any(param.name in self.search_start for param in self.spec.params)

    def side(self, values: Mapping[str, int]) -> dict[str, int]:
        """The whole table a side plays: `values` over the start's."""
        return {**self.start, **values}

    def begin(self, state: dict | None) -> None:
        if state is None:
            names = ",".join(param.name for param in self.spec.params)
            self.directory.append("history.csv", f"k,result,{names}\n")
        else:
            self.spsa.restore(state["spsa"])
            self.gauntlets = state["gauntlets"]

    def _play(self, bouts: list[Bout], params: dict, batch: int, backend, bar) -> dict[int, dict]:
        """Play `bouts` on `backend` (kept open); every finished bout's journal record by id."""
        logged = 2 * self.spsa.done + 2 * self.spec.gauntlet_bouts * len(self.gauntlets)
        job = BoutJob(self.fingerprint, tuple(bouts), params, self.spec.random_plies, self.spec.seed,
                      logged + 2 * len(bouts), batch, self.play, self.net)
        return run_job(job, self.directory.path("games.jsonl"), backend, keep_backend=True, bar=bar)

    def _checkpoint(self) -> None:
        self.directory.checkpoint({"spsa": self.spsa.state(), "gauntlets": self.gauntlets}, self.outputs())

    def play_gauntlet(self, backend, bar) -> dict:
        """theta (rounded) against the start table: `gauntlet bouts` bouts at the run's budget. Their
        ids follow the iterations' (0..N-1), gauntlet after gauntlet."""
        first = self.spec.iterations + self.spec.gauntlet_bouts * len(self.gauntlets)
        bouts = [Bout(number, -1, 1, 0, self.spec.nodes, self.spec.tc) for number in range(first, first + self.spec.gauntlet_bouts)]
        records = self._play(bouts, {1: self.side(self.spsa.params()), 0: self.side({})}, -1, backend, bar)
        gauntlet = gauntlet_result(bouts, records, 2 * self.spsa.done, "theta")
        self.gauntlets.append(gauntlet)
        self._checkpoint()
        return gauntlet

    def play_batch(self, backend, bar) -> list[int]:
        """The next batch of iterations: played, applied in order, appended to history.csv,
        checkpointed. The pairs' results."""
        batch = self.spsa.next_batch()
        params, bouts = {}, []
        for step in batch:
            plus, minus = self.spsa.sides(step)
            params[2 * step.k], params[2 * step.k + 1] = self.side(plus), self.side(minus)
            bouts.append(Bout(step.k - 1, 0, 2 * step.k, 2 * step.k + 1, self.spec.nodes, self.spec.tc))
        records = self._play(bouts, params, self.spsa.done // self.spec.batch + 1, backend, bar)
        results, rows = [], []
        for step in batch:
            result = pair_result(records[step.k - 1]["games"])
            self.spsa.apply(step, result)
            results.append(result)
            rows.append(f"{step.k},{result}," + ",".join(f"{value:.4f}" for value in self.spsa.theta) + "\n")
        self.directory.append("history.csv", "".join(rows))
        self._checkpoint()
        return results

    def outputs(self) -> dict[str, str]:
        """params.txt (the weights) and, when the run tunes the search, search.txt: theta rounded
        over the start's values."""
        values = self.side(self.spsa.params())
        after = f"SPSA after {self.spsa.done} of {self.spec.iterations} iterations"
        files = {"params.txt": weights_text({name: value for name, value in values.items()
                                             if name not in self.search_start}, f"Pyrope evaluation parameters: {after}")}
        if self.tunes_search():
            files["search.txt"] = weights_text({name: values[name] for name in self.search_start},
                                               "Pyrope search parameters (ext/search_params.pxi) and time factors "
                                               f"(time_: play/timeman.py TimeFactors): {after}")
        return files

    def run(self, backend, write: Callable[[str], None] = print) -> None:
        spec = self.spec
        gauntlet_games = 2 * spec.gauntlet_bouts * (2 * spec.iterations // spec.gauntlet_interval
                                                    if spec.gauntlet_interval else 0)
        bar = console.progress(total=2 * spec.iterations + gauntlet_games, unit=" games", desc="spsa", smoothing=0.05,
                               initial=2 * self.spsa.done + 2 * spec.gauntlet_bouts * len(self.gauntlets))
        batches = 0
        try:
            while True:
                if gauntlet_due(spec.gauntlet_interval, 2 * self.spsa.done, self.gauntlets):
                    write(gauntlet_text(self.play_gauntlet(backend, bar), "theta"))
                if self.spsa.done >= spec.iterations:
                    break
                results = self.play_batch(backend, bar)
                batches += 1
                if batches % PLOT_EVERY == 0:
                    draw_progress(self.directory.path("history.csv"), self.spec, self.gauntlets,
                                  self.directory.path("progress.png"))
                write(f"iterations {self.spsa.done}/{self.spec.iterations}: pairs {' '.join(f'{r:+d}' for r in results)}; "
                      + ", ".join(f"{param.name} {value:.1f}" for param, value
                                  in list(zip(self.spec.params, self.spsa.theta))[:6])
                      + (" ..." if len(self.spec.params) > 6 else ""))
            draw_progress(self.directory.path("history.csv"), self.spec, self.gauntlets,
                                  self.directory.path("progress.png"))
        finally:
            bar.close()
            backend.close()


def draw_progress(history_path: str, spec: SpsaSpec, gauntlets: list[dict], path: str) -> None:
    """progress.png: theta's Elo against the start table at each gauntlet, each parameter's theta
    less its start in units of its c_end, and the plus side's mean result over the last 100 pairs.
    Nothing without matplotlib."""
    try:
        import matplotlib
    except ImportError:
        return
    matplotlib.use("Agg")
    from matplotlib import pyplot
    rows = [line.split(",") for line in read_text(history_path, "history").splitlines()[1:]]
    if not rows:
        return
    ks = [int(row[0]) for row in rows]
    figure, (elo, moves, results) = pyplot.subplots(3, 1, figsize=(7, 9), dpi=100)
    plot_gauntlets(elo, gauntlets, scale=0.5)      # a pair per iteration
    elo.set_ylabel("theta vs start (Elo)")
    for i, param in enumerate(spec.params):
        moves.plot(ks, [(float(row[2 + i]) - param.start) / param.c_end for row in rows], linewidth=0.6,
                   label=param.name if len(spec.params) <= 12 else None)
    moves.set_ylabel("(theta - start) / c_end")
    if len(spec.params) <= 12:
        moves.legend(fontsize=6, ncol=2)
    window = [int(row[1]) for row in rows]
    running = [sum(window[max(0, i - 99):i + 1]) / min(i + 1, 100) for i in range(len(window))]
    results.plot(ks, running, linewidth=0.8)
    results.axhline(0, color="grey", linewidth=0.8)
    results.set_ylabel("theta+ result per pair (last 100)")
    results.set_xlabel("iteration")
    for axes in (elo, moves, results):
        axes.grid(alpha=0.3)
        axes.set_xlim(0, spec.iterations)
    figure.suptitle("pyrope tune --method spsa (x: iterations)")
    figure.tight_layout()
    figure.savefig(path + ".tmp.png")
    pyplot.close(figure)
    os.replace(path + ".tmp.png", path)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description, parser.epilog = DESCRIPTION, EXAMPLES
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.add_argument("inputs", nargs="*", metavar="SPEC | DATA", help="spsa: the specification file; "
                        "texel: datagen directories or shards")
    parser.add_argument("--method", choices=("spsa", "texel"), help="the tuner: spsa (games) or texel (positions)")
    texel = parser.add_argument_group("texel")
    texel.add_argument("-o", "--output", metavar="PARAMS", help="the parameter file to write (and PARAMS.json)")
    texel.add_argument("--validation", type=console.fraction, default=0.1, help="share of the games held out (default 0.1)")
    texel.add_argument("--rounds", type=console.positive_int, default=2, help="linearise-and-fit rounds (default 2)")
    texel.add_argument("--result-weight", type=console.fraction, default=0.5,
                       help="the game result's share of a label; the rest is Pyrope's search score (default 0.5)")
    texel.add_argument("--regularisation", type=float, nargs="+", default=[1e-6, 3e-7, 1e-7, 5e-8, 2e-8, 1e-8],
                       help="pulls towards the start weights to try; the validation games choose one")
    texel.add_argument("--start", metavar="FILE", help="the weights to start from and pull towards: a parameter "
                       "file or a genome, as EvalFile takes (default: the shipped weights)")
    texel.add_argument("--no-pst", action="store_true", help="keep the piece-square tables")
    texel.add_argument("--search-king-danger", action="store_true", help="first move the king-danger terms by a "
                       "search with the evaluation itself (a linear fit cannot leave king_danger 0)")
    texel.add_argument("--min-hits", type=int, default=200, help="positions a free weight must move (default 200)")
    texel.add_argument("--processes", type=console.positive_int, default=os.cpu_count() or 1,
                       help="processes that linearise the evaluation (default: every core)")
    parser.add_argument("--out", metavar="RUNDIR", help="the run directory (default: SPEC without its extension, plus .run)")
    parser.add_argument("--resume", metavar="RUNDIR", help="go on with the run in RUNDIR, with its own specification")
    add_backend_arguments(parser, "game pairs")
    parser.set_defaults(usage_error=parser.error)


def run(args: argparse.Namespace) -> int:
    if args.method == "texel":
        if not args.inputs or not args.output or args.resume:
            args.usage_error("texel takes datagen directories or shards and -o PARAMS")
        console.require(("numpy", "scipy"), "tune", "the Texel fit")
        from .texel import run as run_texel
        return run_texel(args)
    if bool(args.resume) == bool(args.inputs) or len(args.inputs) > 1 or (args.inputs and args.method is None):
        args.usage_error("give --method spsa SPEC, or --resume RUNDIR")
    out, spec_path, spec_text = run_configuration(args.inputs[0] if args.inputs else None, args.resume, args.out,
                                                  "spec.txt")
    start = start_weights(spec_text, spec_path, out)
    net = kept_input(spec_text, spec_path, out, NET_KEY, NET_FILE, loader.file_bytes) or b""
    parse_spec(spec_text, spec_path, tuning_table(start))
    directory = RunDirectory(out, "tune", "spec.txt", ("history.csv",))
    try:
        state = directory.open(spec_text, spec_path)
        keep_start(directory, start)
        if net:
            keep_file(directory, NET_FILE, net)
        spsa_run = SpsaRun(directory, spec_text, start, net)
        spsa_run.begin(state)
        backend, where = backend_from(args)
        spec = spsa_run.spec
        budget = f"on a {spec.tc.pgn()} clock" if spec.tc else f"at {spec.nodes} nodes"
        print(f"tune: SPSA of {len(spec.params)} parameters, {spec.iterations} game pairs {budget}, "
              f"batches of {spec.batch}, seed {spec.seed}, {'the net' if net else 'the weights'} evaluating, "
              f"{backend.capacity} workers ({where}), run in {out}; "
              f"{spsa_run.spsa.done} pairs played", flush=True)
        spsa_run.run(backend, console.above_progress(print))
        print(f"tune: {spsa_run.spsa.done} pairs played; EvalFile {directory.path('params.txt')}"
              + (f"; the search's values in {directory.path('search.txt')}" if spsa_run.tunes_search() else ""))
        return 0
    finally:
        directory.close()
