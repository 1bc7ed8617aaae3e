"""`pyrope tune --method texel DATA... -o PARAMS`: the evaluation's weights fitted to positions by
Texel's method, on Pyrope's own data only.

The positions are datagen's (docs/datagen.md): quiet positions of Pyrope's self-play, each with the
game's result and Pyrope's own search score there (at datagen's node budget, several plies deeper
than the static evaluation). A position's label, from white's point of view, is
    result_weight x result + (1 - result_weight) x P(score)
with P(x) = 1 / (1 + 10^(-K x / 400)), K fitted so that P of the evaluation best predicts the
results. A shard whose datagen journal does not name Pyrope as the program that played it is
refused: nothing else's scores or games may teach the weights.

The fit: the evaluation is linearised around the current weights (`eval_coefficients`: each
parameter's exact slope on each position, computed by worker processes because the weight table
is global to the core), the mean squared error of P(evaluation) against the labels plus a pull
towards the start weights (`--start`, default the shipped ones) is minimised by L-BFGS within bounds,
and this is repeated (`--rounds`),
as king danger and endgame scaling are not linear. King danger is units^2 x king_danger, so where
king_danger is 0 every unit's slope is 0 and a linear round cannot leave that saddle (a fit from a
seed of zeros stays in it): `--search-king-danger` first moves those terms by a coordinate search
with the evaluation itself, on a quarter of the training positions. The validation games (held out by game,
trainset.py) choose the pull's strength among `--regularisation` in the first round.
Writes PARAMS (`name = value`, an EvalFile) and PARAMS.json, its provenance: command, Pyrope's
revision, each shard's SHA-256 and generator, the settings, the errors before and after, and the
output's SHA-256.
"""
from __future__ import annotations

import hashlib
import json
import multiprocessing
import os
import sys
import time

from ... import console
from ..._core import default_eval_params, eval_coefficients, eval_param_names, set_eval_params
from ...nnue import dataset
from .. import trainset
from ...weights.files import DANGER_UNITS, SCALE_FACTORS, read_weights, weights_hash, weights_text
from ...data import revision
from ..rundir import read_text, write_atomically

FROZEN = ("scale_knnk", "scale_wrong_bishop", "scale_no_pawns_minor_advantage")    # too few positions decide them
NON_NEGATIVE = DANGER_UNITS + ("king_danger",)
CHUNKS = 16                 # pieces the positions are linearised in (spread over the processes)


def generators(paths: list[str]) -> dict[str, dict]:
    """Which Pyrope played each shard, and with which weights: its datagen journal's (DIR/journal.jsonl,
    begun by `pyrope datagen`) record of the shard's task names the revision, its header the weights. InputError naming a shard no such
    journal vouches for: only Pyrope's own games may teach the weights."""
    found = {}
    journals: dict[str, dict] = {}
    for path in paths:
        folder = os.path.dirname(os.path.dirname(os.path.abspath(path)))
        if folder not in journals:
            journal = os.path.join(folder, "journal.jsonl")
            lines = read_text(journal, "datagen journal").splitlines() if os.path.exists(journal) else []
            entries = [json.loads(line) for line in lines if line.strip()]
            journals[folder] = ({"header": entries[0], **{entry["task"]: entry for entry in entries[1:]}}
                                if entries and entries[0].get("job") == "datagen" else {})
        task = os.path.splitext(os.path.basename(path))[0]
        played_by = journals[folder].get(int(task), {}).get("pyrope") if task.isdigit() else None
        if not played_by:
            raise console.InputError(f"{path}: no datagen journal says Pyrope played it (pyrope datagen writes "
                                     "DIR/journal.jsonl beside DIR/positions/); only Pyrope's own games may teach "
                                     "the weights")
        found[path] = {"generator": f"pyrope datagen {played_by}",
                       "weights_sha256": journals[folder]["header"]["params_hash"]}
    return found


def _coefficients(job):
    params, fens, indices = job
    set_eval_params(params)
    return eval_coefficients(fens, indices)


def linearise(pool, params: dict, fens: list[str], indices: list[int]):
    """(base scores from white's view, sparse slopes: positions x parameters) at `params`."""
    import numpy
    import scipy.sparse
    size = max(1, (len(fens) + CHUNKS - 1) // CHUNKS)
    jobs = [(params, fens[i:i + size], indices) for i in range(0, len(fens), size)]
    base, rows, cols, deltas, offset = [], [], [], [], 0
    for (b, r, c, d), job in zip(pool.imap(_coefficients, jobs), jobs):
        base.append(numpy.frombuffer(b))
        rows.append(numpy.frombuffer(r, dtype=numpy.int32) + offset)
        cols.append(numpy.frombuffer(c, dtype=numpy.int32))
        deltas.append(numpy.frombuffer(d))
        offset += len(job[1])
    matrix = scipy.sparse.csr_matrix((numpy.concatenate(deltas), (numpy.concatenate(rows), numpy.concatenate(cols))),
                                     shape=(len(fens), len(eval_param_names())))
    return numpy.concatenate(base), matrix


def search_king_danger(pool, params: dict, fens: list[str], target, k: float) -> dict:
    """`params` with each king-danger term (NON_NEGATIVE) moved while a step lowers the error of the
    evaluation itself on `fens`: units by 1 or 2, king_danger by a quarter, a half or a doubling
    (at least 2, 4 from 0), term after term until no step helps."""
    names = [name for name in eval_param_names() if name.startswith(NON_NEGATIVE)]
    best = mse(linearise(pool, params, fens, [])[0], target, k)
    improved = True
    while improved:
        improved = False
        for name in names:
            value = params[name]
            steps = ((-max(2, value // 4), max(2, value // 4), -max(1, value // 2), max(4, value))
                     if name.startswith("king_danger") else (-1, 1, -2, 2))
            for trial in sorted({max(0, value + step) for step in steps} - {value}):
                error = mse(linearise(pool, {**params, name: trial}, fens, [])[0], target, k)
                if error < best - 1e-9:
                    best, params, improved = error, {**params, name: trial}, True
    return params


def win_probability(score, k: float):
    import numpy
    return 1.0 / (1.0 + 10.0 ** (-k * numpy.asarray(score) / 400.0))


def mse(score, target, k: float) -> float:
    import numpy
    return float(numpy.mean((win_probability(score, k) - target) ** 2))


def fit_k(score, target) -> float:
    from scipy.optimize import minimize_scalar
    return float(minimize_scalar(lambda k: mse(score, target, k), bounds=(0.1, 5.0), method="bounded").x)


def fit_weights(base, matrix, target, k, start, anchor, free, regularisation, bounds):
    """Weights minimising the linear model's error (base + matrix (w - start)) plus
    regularisation x the squared distance from `anchor`, over the `free` parameters."""
    import numpy
    from scipy.optimize import minimize
    sub = matrix[:, free].tocsr()
    sub_t = sub.T.tocsr()
    x0 = start[free].astype(float)
    pull = anchor[free].astype(float)
    n = len(target)

    def loss(x):
        p = win_probability(base + sub @ (x - x0), k)
        error = p - target
        slope = 2.0 * error * p * (1.0 - p) * k * numpy.log(10.0) / 400.0 / n
        return (float(numpy.mean(error ** 2)) + regularisation * float(numpy.sum((x - pull) ** 2)),
                sub_t @ slope + 2.0 * regularisation * (x - pull))
    # The error is about 0.03 and its slope per centipawn about 1e-6 near a fit: SciPy's default
    # tolerances (a slope of 1e-5, a relative step of 2e-9 of max(|f|, 1)) would call the start
    # weights a minimum as soon as they are near one, and a regenerated fit would not move at all.
    result = minimize(loss, x0, jac=True, method="L-BFGS-B", bounds=[bounds[i] for i in free],
                      options={"maxiter": 2000, "gtol": 1e-12, "ftol": 1e-15})
    weights = start.astype(float).copy()
    weights[free] = result.x
    return weights



def run(args) -> int:
    import numpy
    started = time.time()
    data = trainset.load(args.inputs, args.validation, report=lambda text: print(text, file=sys.stderr))
    played_by = generators(list(data.shards))
    names = eval_param_names()
    start_weights = read_weights(args.start) if args.start else default_eval_params()
    anchor = numpy.array([start_weights[name] for name in names], dtype=float)
    parts = {"train": data.train, "validation": data.validation}
    fens = {part: [dataset.decode(record.tobytes()).fen for record in records] for part, records in parts.items()}
    results = {part: records["result"] / 2.0 for part, records in parts.items()}          # white's, 0..1
    scores = {part: records["score"].astype(float) for part, records in parts.items()}    # Pyrope's, white's view
    print(f"tune: Texel on {len(data.train)} training and {len(data.validation)} validation positions "
          f"from {len(data.shards)} shards", flush=True)
    skip = set(FROZEN) | ({name for name in names if name.startswith("pst_")} if args.no_pst else set())
    candidates = [i for i, name in enumerate(names) if name not in skip]
    bounds = [(0, 64) if name.startswith(SCALE_FACTORS) else (0, None) if name.startswith(NON_NEGATIVE)
              else (None, None) for name in names]
    current = dict(start_weights)
    report = {}
    with multiprocessing.get_context("spawn").Pool(args.processes) as pool:
        regularisations = list(args.regularisation)
        rounds = console.progress(range(1, args.rounds + 1), desc="texel", unit=" round")
        base, _ = linearise(pool, current, fens["train"], [])
        base_valid, _ = linearise(pool, current, fens["validation"], [])
        k = fit_k(base, results["train"])
        target = {part: args.result_weight * results[part]
                  + (1 - args.result_weight) * win_probability(scores[part], k) for part in results}
        report["before"] = {"train": mse(base, target["train"], k), "validation": mse(base_valid, target["validation"], k)}
        if args.search_king_danger:
            current = search_king_danger(pool, current, fens["train"][::4], target["train"][::4], k)
        for _ in rounds:
            base, matrix = linearise(pool, current, fens["train"], candidates)
            base_valid, matrix_valid = linearise(pool, current, fens["validation"], candidates)
            start = numpy.array([current[name] for name in names], dtype=float)
            free = numpy.array([i for i in candidates if matrix[:, i].nnz >= args.min_hits])
            fits = []
            for regularisation in regularisations:
                weights = numpy.round(fit_weights(base, matrix, target["train"], k, start, anchor, free,
                                                  regularisation, bounds))
                predicted = base_valid + matrix_valid @ (weights - start)
                fits.append((mse(predicted, target["validation"], k), regularisation, weights))
            _, chosen, weights = min(fits, key=lambda fit: fit[0])
            regularisations = [chosen]
            current = {name: int(weight) for name, weight in zip(names, weights)}
        base, _ = linearise(pool, current, fens["train"], [])
        base_valid, _ = linearise(pool, current, fens["validation"], [])
    set_eval_params(default_eval_params())
    report["after"] = {"train": mse(base, target["train"], k), "validation": mse(base_valid, target["validation"], k)}
    text = weights_text(current, "Pyrope evaluation parameters: pyrope tune --method texel (provenance in the .json beside)")
    write_atomically(args.output, text.encode("utf-8"))
    provenance = {"command": "pyrope tune " + " ".join(sys.argv[2:]), "pyrope": revision(),
                  "start": {"weights": args.start or "shipped", "weights_sha256": weights_hash(start_weights)},
                  "output_weights_sha256": weights_hash(current),
                  "inputs": [{"path": path, "sha256": digest, **played_by[path]} for path, digest in data.shards.items()],
                  "skipped": data.skipped, "positions": {"train": len(data.train), "validation": len(data.validation)},
                  "settings": {"result_weight": args.result_weight, "rounds": args.rounds, "K": k,
                               "regularisation": chosen, "free": len(free), "no_pst": args.no_pst,
                               "search_king_danger": args.search_king_danger},
                  "error": report, "seconds": round(time.time() - started, 1),
                  "output": {"path": args.output, "sha256": hashlib.sha256(text.encode("utf-8")).hexdigest()}}
    write_atomically(args.output + ".json", (json.dumps(provenance, indent=1) + "\n").encode("utf-8"))
    changed = sorted(((abs(current[name] - start_weights[name]), name) for name in names), reverse=True)
    print(f"tune: K {k:.3f}; {len(free)} weights free, regularisation {chosen:g}; validation error "
          f"{report['before']['validation']:.6f} -> {report['after']['validation']:.6f} "
          f"(training {report['before']['train']:.6f} -> {report['after']['train']:.6f})")
    print("tune: largest changes: " + ", ".join(f"{name} {start_weights[name]}->{current[name]}"
                                                for _, name in changed[:12]))
    print(f"tune: weights in {args.output}, provenance in {args.output}.json")
    return 0
