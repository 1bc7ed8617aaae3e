"""Rebuild the shipped evaluation weights from the seed, on Pyrope's own games alone:

    python3 -m pyrope.weights.build WORKDIR [--recipe FILE] [--workers N]
    python3 -m pyrope.weights.build WORKDIR --gate [--openings EPD]
    python3 -m pyrope.weights.build WORKDIR --ship

The recipe (build.recipe here, or --recipe) lists the steps, one a line, each starting from the
weights the step before made (seed.params first: material alone, every table zero, no value of
another engine or author):
    fit positions=P nodes=N    `pyrope datagen` plays P positions at N nodes a move with those
                               weights, from random plies, into data-n; `pyrope tune --method texel`
                               fits that data into fit-n.params, starting from and pulling towards them
    refit data=I,J,...         a Texel fit, into the next fit-n.params, on the data of fits I, J, ...
                               already played (more positions than one step's), its king-danger
                               terms first moved by a search with the evaluation itself
                               (`--search-king-danger`: a fit from zeros stays at king_danger 0)
    scale factor=F             those weights' centipawn terms times F, rounded, into scale-n.params
                               (the attack and check units and the endgame scale factors, which are
                               not centipawns, kept): a fit's size follows its K, the search's
                               margins are centipawns of a given size
    spsa spec=FILE [KEY=N ...] `pyrope tune --method spsa` with FILE (beside the recipe) plus `start =`
                               those weights, in spsa.run (spsa-2.run, ... for later ones); iterations=,
                               nodes=, batch= or seed= replace the file's line for that key
Then WORKDIR/candidate.params, the last step's weights, and WORKDIR/provenance.json: for each step
the command, the revision that ran it, its seed, its inputs with their hashes and generator, and its
output's hash. Each step is a resumable command and a step whose output exists is done, so the same
build command goes on wherever a session stopped -- and a recipe grown by a step goes on from the
steps already made.

--gate plays the candidate against the weights shipped when the gate began (kept as
WORKDIR/baseline.params), one build of Pyrope on both sides with the hand-crafted evaluation (`Use
NNUE` false: the shipped net would otherwise evaluate for both), balanced openings, colours swapped,
one thread, resumable journals named by the candidate's hash (a rebuilt candidate starts its own):
2,000 games at 2s+0.02s. It passes at a point estimate of at least -10 Elo with no fault: the
weights it replaces came from PeSTO's tables, and weights of our own games alone replace them at
no more than that cost (issue 61); a rebuild meant to make the engine stronger raises GATES' bar.
--ship, once the gate has passed, copies candidate.params and provenance.json (gate included) here
as default.params and provenance.json.
"""
from __future__ import annotations

import argparse
import datetime
import json
import math
import os
import shlex
import shutil
import subprocess
import sys
from typing import NoReturn

from .. import console
from .._core import read_eval_params
from ..selfplay.configfile import ConfigError, config_lines
from .files import DANGER_UNITS, SCALE_FACTORS, read_weights, weights_hash, weights_text
from ..match.runner import Tally
from ..match.stats import elo_interval
from ..data import revision
from ..selfplay.rundir import write_atomically

HERE = os.path.dirname(os.path.abspath(__file__))
SEED, RECIPE, DEFAULTS, PROVENANCE = (os.path.join(HERE, name) for name in
                                      ("seed.params", "build.recipe", "default.params", "provenance.json"))
STEP_KEYS = {"fit": ("positions", "nodes"), "refit": ("data",), "scale": ("factor",), "spsa": ("spec",)}
UNITLESS = DANGER_UNITS + (SCALE_FACTORS,)      # what `scale` keeps
# Settings an spsa line may give in place of its specification's own, so that one file serves steps
# played at different depths or lengths.
SPEC_OVERRIDES = ("iterations", "nodes", "batch", "seed")
# From the repository's root, as the tests and bench/ find it: an installed package has no ../shared.
OPENINGS = os.path.join("..", "shared", "data", "openings", "balanced-8ply.epd")
GATES = ({"tc": "2+0.02", "games": 2000, "elo": -10.0},)


def pyrope(*arguments: str) -> list[str]:
    return [sys.executable, "-m", "pyrope.cli", *arguments]


def run_step(command: list[str]) -> None:
    print("build:", " ".join(command[2:]), flush=True)
    if subprocess.run(command).returncode != 0:
        sys.exit(f"build: the step failed: {' '.join(command[2:])}; run the build again to go on")


def read_json(path: str):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def journal(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


def datagen_record(command: list[str], out: str) -> dict:
    header, *tasks = journal(os.path.join(out, "journal.jsonl"))
    return {"step": "datagen", "command": " ".join(command[2:]), "pyrope": sorted({task["pyrope"] for task in tasks}),
            "seed": header["seed"], "nodes": header["nodes"], "random plies": header["random_plies"],
            "weights_sha256": header["params_hash"], "games": sum(task["games"] for task in tasks),
            "positions": sum(task["count"] for task in tasks), "output": os.path.basename(out)}


def refuse(sentence: str) -> NoReturn:
    """A bad recipe: one sentence naming file, line and field, exit status 2 (as bad arguments)."""
    print(sentence, file=sys.stderr)
    raise SystemExit(2)


def read_recipe(path: str) -> list[tuple[str, dict[str, str]]]:
    """The recipe's steps as (kind, settings); a bad line exits (2) with one sentence naming it."""
    if not os.path.isfile(path):
        refuse(f"build: no recipe {path}")
    steps = []
    with open(path, encoding="utf-8") as handle:
        for number, line in enumerate(handle, 1):
            words = line.split("#")[0].split()
            if not words:
                continue
            where = f"{path}, line {number}"
            if words[0] not in STEP_KEYS:
                refuse(f"build: {where}: unknown step '{words[0]}' (fit, refit, scale or spsa)")
            settings = dict(word.partition("=")[::2] for word in words[1:])
            wanted = STEP_KEYS[words[0]]
            allowed = wanted + (SPEC_OVERRIDES if words[0] == "spsa" else ())
            for key, value in settings.items():
                if key not in allowed or not value:
                    refuse(f"build: {where}: '{key}={value}' is not a setting of {words[0]} "
                           f"({', '.join(k + '=' for k in allowed)})")
            missing = [key for key in wanted if key not in settings]
            if missing:
                refuse(f"build: {where}: {words[0]} needs {', '.join(k + '=' for k in missing)}")
            for key in ("positions", "nodes", "iterations", "batch"):
                if key in settings and not (settings[key].isdigit() and int(settings[key]) > 0):
                    refuse(f"build: {where}: {key} must be a positive whole number, not '{settings[key]}'")
            if "data" in settings and not all(part.isdigit() and int(part) > 0 for part in settings["data"].split(",")):
                refuse(f"build: {where}: data must name fits by number (data=4,5), not '{settings['data']}'")
            if "factor" in settings and not is_positive_number(settings["factor"]):
                refuse(f"build: {where}: factor must be a number above 0, not '{settings['factor']}'")
            if "seed" in settings and not settings["seed"].isdigit():
                refuse(f"build: {where}: seed must be a whole number, not '{settings['seed']}'")
            if words[0] == "spsa":
                settings["spec"] = os.path.join(os.path.dirname(os.path.abspath(path)), settings["spec"])
                if not os.path.exists(settings["spec"]):
                    refuse(f"build: {where}: no specification {settings['spec']}")
            steps.append((words[0], settings))
    if not steps:
        refuse(f"build: {path} has no steps")
    return steps


def fit_step(work: str, number: int, settings: dict, weights: str, args: argparse.Namespace) -> tuple[list[dict], str]:
    """Datagen with `weights` and a Texel fit on its data: the two steps' records, the fit's file."""
    data, fitted = os.path.join(work, f"data-{number}"), os.path.join(work, f"fit-{number}.params")
    command = pyrope("datagen", "--positions", settings["positions"], "--out", data, "--nodes", settings["nodes"],
                     "--params", weights, "--seed", str(number), *workers(args))
    fit_done = os.path.exists(fitted + ".json")
    # Steps are known by number, so a fit left by another recipe (a step since taken out) would
    # otherwise pass for this one.
    if fit_done and read_json(fitted + ".json")["start"]["weights_sha256"] != weights_hash(read_weights(weights)):
        refuse(f"build: {fitted} was fitted from other weights than {weights}: move it and {data} "
               "aside to make this step")
    # A fit already made has used its data: its shards may be gone since (a cleared /tmp) and
    # are not played again; the datagen journal alone is the step's record.
    if not (fit_done and os.path.exists(os.path.join(data, "journal.jsonl"))):
        run_step(command)
    records = [datagen_record(command, data)]
    if not fit_done:
        run_step(pyrope("tune", "--method", "texel", data, "-o", fitted, "--start", weights))
    records.append({"step": "texel", **read_json(fitted + ".json")})
    return records, fitted


def refit_step(work: str, number: int, settings: dict, weights: str, args: argparse.Namespace) -> tuple[list[dict], str]:
    """A Texel fit of `weights` on earlier fits' data (their shards must still be there), the king-danger
    search first: its record and its file."""
    fitted = os.path.join(work, f"fit-{number}.params")
    data = [os.path.join(work, f"data-{part}") for part in settings["data"].split(",")]
    if not os.path.exists(fitted + ".json"):
        for folder in data:
            if not os.path.isdir(os.path.join(folder, "positions")):
                refuse(f"build: {folder}/positions is gone: the refit needs the data it names")
        run_step(pyrope("tune", "--method", "texel", *data, "-o", fitted, "--start", weights, "--search-king-danger"))
    elif read_json(fitted + ".json")["start"]["weights_sha256"] != weights_hash(read_weights(weights)):
        refuse(f"build: {fitted} was fitted from other weights than {weights}: move it aside to make this step")
    return [{"step": "texel", **read_json(fitted + ".json")}], fitted


def is_positive_number(text: str) -> bool:
    try:
        return math.isfinite(float(text)) and float(text) > 0
    except ValueError:
        return False


def scale_step(work: str, number: int, settings: dict, weights: str, args: argparse.Namespace) -> tuple[list[dict], str]:
    """`weights`' centipawn terms times the factor: its record and its file."""
    scaled, factor = os.path.join(work, f"scale-{number}.params"), float(settings["factor"])
    start = read_weights(weights)
    values = {name: value if name.startswith(UNITLESS) else round(value * factor) for name, value in start.items()}
    if not os.path.exists(scaled):
        text = weights_text(values, f"{os.path.basename(weights)}'s centipawn terms times {settings['factor']}")
        write_atomically(scaled, text.encode())
    elif read_weights(scaled) != values:
        refuse(f"build: {scaled} was scaled from other weights or by another factor: move it aside to make this step")
    return [{"step": "scale", "factor": factor, "kept": list(UNITLESS), "start_weights_sha256": weights_hash(start),
             "output_weights_sha256": weights_hash(values)}], scaled


def spsa_spec(settings: dict, start: str) -> str:
    """The step's specification: its file with the recipe's settings in place of the file's lines for
    those keys (or added), then `start = ` the weights it starts from."""
    overrides = {key: value for key, value in settings.items() if key != "spec"}
    with open(settings["spec"], encoding="utf-8") as handle:
        text = handle.read()
    lines = text.splitlines(keepends=True)
    try:
        found = config_lines(text, settings["spec"])   # the keys as `pyrope tune` will read them
    except ConfigError as error:
        refuse(f"build: {error}")
    for number, key, value in found:
        if key in overrides:
            lines[number - 1] = f"{key} = {overrides.pop(key)}    # the recipe's ({os.path.basename(settings['spec'])}: {value})\n"
    lines += [f"{key} = {value}    # the recipe's\n" for key, value in overrides.items()]
    return "".join(lines) + f"start = {start}\n"


def spsa_step(work: str, number: int, settings: dict, weights: str, args: argparse.Namespace) -> tuple[list[dict], str]:
    """SPSA from `weights`: its record and its parameter file."""
    name = "spsa" if number == 1 else f"spsa-{number}"
    spec, run_dir = os.path.join(work, name + ".spec"), os.path.join(work, name + ".run")
    spec_text = spsa_spec(settings, os.path.relpath(weights, work))
    command = pyrope("tune", "--method", "spsa", spec, "--out", run_dir)     # the run's, however often resumed
    if not os.path.exists(os.path.join(run_dir, "spec.txt")):
        write_atomically(spec, spec_text.encode())
        run_step(command + workers(args))
    else:
        with open(os.path.join(run_dir, "spec.txt"), encoding="utf-8") as handle:
            if handle.read() != spec_text:      # the recipe's line or its file changed since it began
                refuse(f"build: {os.path.join(run_dir, 'spec.txt')} differs from the specification the recipe "
                       "now gives this step: restore the recipe, or move the run aside to start it again")
        run_step(pyrope("tune", "--resume", run_dir, *workers(args)))
    state = read_json(os.path.join(run_dir, "state.json"))
    output = os.path.join(run_dir, "params.txt")
    record = {"step": "spsa", "command": " ".join(command[2:]), "pyrope": state["pyrope"], "spec": spec_text,
              "start_weights_sha256": weights_hash(read_weights(os.path.join(run_dir, "start.params"))),
              "pairs": state["run"]["spsa"]["done"], "gauntlets": state["run"]["gauntlets"],
              "output_weights_sha256": weights_hash(read_weights(output))}
    return [record], output


def build(work: str, args: argparse.Namespace) -> None:
    recipe = read_recipe(args.recipe)
    steps = [{"step": "seed", "file": "seed.params", "weights_sha256": weights_hash(read_weights(SEED)),
              "origin": "material 100/300/300/500/900, every other term 0 but for what seed.params's header "
                        "says: no value of another engine or author"}]
    weights, made = SEED, {"fit": 0, "scale": 0, "spsa": 0}
    for kind, settings in recipe:
        counter = "fit" if kind == "refit" else kind        # a refit's file is the next fit-n
        made[counter] += 1
        step = {"fit": fit_step, "refit": refit_step, "scale": scale_step, "spsa": spsa_step}[kind]
        records, weights = step(work, made[counter], settings, weights, args)
        steps += records
    candidate = read_weights(weights)
    text = weights_text(candidate, "Pyrope evaluation parameters: name = value (centipawns; scales out of 64).\n"
                        "Made from seed.params on Pyrope's own games alone; provenance.json says how.")
    write_atomically(os.path.join(work, "candidate.params"), text.encode())
    provenance = {"file": "default.params", "weights_sha256": weights_hash(candidate), "built by": revision(),
                  "date": datetime.date.today().isoformat(), "steps": steps}
    write_atomically(os.path.join(work, "provenance.json"), (json.dumps(provenance, indent=1) + "\n").encode())
    print(f"build: candidate weights in {work}/candidate.params ({weights_hash(candidate)[:16]}); "
          f"next: --gate, then --ship")


def workers(args: argparse.Namespace) -> list[str]:
    return ["--workers", str(args.workers)] if args.workers else []


def gate(work: str, openings: str, concurrency: int) -> None:
    candidate, baseline = os.path.join(work, "candidate.params"), os.path.join(work, "baseline.params")
    if not os.path.exists(candidate):
        sys.exit(f"build: {candidate} does not exist yet: run the build first")
    if not os.path.exists(openings):
        sys.exit(f"build: no openings at {openings}: run from the repository's root or give --openings EPD")
    if not os.path.exists(baseline):
        shutil.copyfile(DEFAULTS, baseline)
    provenance = read_json(os.path.join(work, "provenance.json"))
    # Each candidate has its own journals: a rebuilt candidate starts its games afresh instead of
    # resuming, and adding to, the games another candidate played.
    tag = weights_hash(read_weights(candidate))[:12]
    results = []
    for settings in GATES:
        record = os.path.join(work, f"gate-{settings['tc']}-{tag}.jsonl")
        run_step(pyrope("match", "--tc", settings["tc"], "--games", str(settings["games"]), "--concurrency",
                        str(concurrency), "--openings", openings, "--order", "random", "--resign", "--draw",
                        "--resume", record, "--each", "option.Hash=16", "option.Threads=1", "option.OwnBook=false",
                        "option.Use NNUE=false",
                        "--engine", "cmd=" + shlex.join(pyrope()), "name=candidate", f"option.EvalFile={candidate}",
                        "--engine", "cmd=" + shlex.join(pyrope()), "name=baseline", f"option.EvalFile={baseline}"))
        results.append(gate_result(settings, journal(record)[1:]))
    provenance["gate"] = {"baseline_weights_sha256": weights_hash(read_weights(baseline)), "matches": results,
                          "passed": all(result["passed"] for result in results)}
    write_atomically(os.path.join(work, "provenance.json"), (json.dumps(provenance, indent=1) + "\n").encode())
    for result in results:
        print(f"gate {result['tc']}: {result['games']} games, candidate {result['wins']}-{result['losses']}-"
              f"{result['draws']}, {result['elo']:+.1f} Elo [{result['low']:+.1f}, {result['high']:+.1f}]; "
              f"faults {result['faults']}; {'passed' if result['passed'] else 'not passed'}")


def gate_result(settings: dict, games: list[dict]) -> dict:
    """The candidate's (engine 0's) record in one gate match, from its journal."""
    tally = Tally(0, 1)
    for game in games:
        tally.add(game["white"], game["result"])
    wins, losses, draws = tally.wins, tally.losses, tally.draws
    faults = sum(game["fault"] is not None for game in games)
    elo, margin = elo_interval(wins, losses, draws) if games else (0.0, math.inf)
    elo_low, elo_high = elo - margin, elo + margin
    score = (wins + draws / 2) / max(1, len(games))
    passed = len(games) >= settings["games"] and faults == 0 and elo >= settings["elo"]
    return {"tc": settings["tc"], "games": len(games), "wins": wins, "losses": losses, "draws": draws,
            "score": round(score, 4), "elo": round(elo, 1), "low": round(elo_low, 1), "high": round(elo_high, 1),
            "faults": faults, "passed": passed}


def ship(work: str) -> None:
    if not os.path.exists(os.path.join(work, "provenance.json")):
        sys.exit(f"build: {work} holds no candidate yet: run the build, then --gate")
    provenance = read_json(os.path.join(work, "provenance.json"))
    if not provenance.get("gate", {}).get("passed"):
        sys.exit("build: the gate has not passed (run --gate); weaker weights are not shipped")
    candidate = os.path.join(work, "candidate.params")
    if weights_hash(read_weights(candidate)) != provenance["weights_sha256"]:
        sys.exit(f"build: {candidate} is not the weights its provenance names")
    read_eval_params(candidate)
    shutil.copyfile(candidate, DEFAULTS)
    shutil.copyfile(os.path.join(work, "provenance.json"), PROVENANCE)
    print(f"build: shipped {DEFAULTS} and {PROVENANCE}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m pyrope.weights.build", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("work", metavar="WORKDIR", help="where the steps' data, fits and runs go")
    parser.add_argument("--recipe", default=RECIPE, help="the steps (default: build.recipe here)")
    parser.add_argument("--workers", type=console.positive_int, help="worker processes (default: every core)")
    parser.add_argument("--gate", action="store_true", help="play the ship gate's matches")
    parser.add_argument("--openings", default=OPENINGS, help=f"the gate's openings (default: {OPENINGS})")
    parser.add_argument("--concurrency", type=console.positive_int, default=2, help="the gate's games at a time (default 2)")
    parser.add_argument("--ship", action="store_true", help="make the gated candidate the shipped weights")
    args = parser.parse_args(argv)
    os.makedirs(args.work, exist_ok=True)
    if args.ship:
        ship(args.work)
    elif args.gate:
        gate(args.work, args.openings, args.concurrency)
    else:
        build(args.work, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
