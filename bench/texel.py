"""Texel tuning of Pyrope's evaluation weights.

  generate  self-play at a few thousand nodes a move from EPD openings; writes the quiet positions
            of each game with its result (`fen;result` lines, result 1 / 0.5 / 0 for white)
  label     adds a cheap Stockfish score to each position (`fen;result;cp` lines, cp for white)
  tune      fits the weights: logistic model of the (blended) label on the evaluation, linearised
            around the current weights by finite differences in the C core (eval_coefficients),
            re-linearised every round because king danger and scaling are not linear; prints
            training/validation error before and after and writes a parameter file

Example (the current defaults came from about 3,400 games, 212,000 positions, this way):
  python3 bench/texel.py generate --games 1700 --seed 1 --out data/selfplay1.txt
  python3 bench/texel.py label data/selfplay1.txt --out data/labelled1.txt
  python3 bench/texel.py tune data/labelled*.txt --out tuned.params
"""
import argparse
import random
import sys

import chess
import chess.engine
import numpy as np
from tqdm import tqdm

import pyrope
from pyrope import _core

OPENINGS = "../shared/data/openings/balanced-8ply.epd"


# ---------------------------------------------------------------------------------------------
# Data: self-play games and their quiet positions.
# ---------------------------------------------------------------------------------------------

def read_openings(path):
    with open(path, encoding="utf-8") as f:
        return [chess.Board.from_epd(line)[0].fen() for line in f if line.strip()]


def play_game(search, fen, nodes_range, rng, skip_plies):
    """One self-play game; returns (result for white, [quiet FENs]). A position counts as quiet
    when the side to move is not in check and neither the move played from it nor the move that
    led to it was a capture or promotion (so the static evaluation is not mid-exchange)."""
    board = pyrope.Board(fen)
    search.clear()
    positions = []
    previous_tactical = True
    previous_winning = 0
    winning_plies = quiet_draw = 0      # consecutive plies beyond the adjudication limits
    for ply in range(400):
        outcome = board.outcome()
        if outcome is not None:
            return {"1-0": 1.0, "0-1": 0.0}.get(outcome[0], 0.5), positions
        result = search.run(board, nodes=rng.randint(*nodes_range))
        move, score = result["move"], result["score"]
        cp = score.get("cp", 100000 if score.get("mate", 0) > 0 else -100000)
        white_cp = cp if board.white_to_move else -cp
        tactical = move in board.legal_moves("captures")
        if ply >= skip_plies and not tactical and not previous_tactical and not board.is_check():
            positions.append(board.fen())
        previous_tactical = tactical
        # Adjudicate clear wins and dead draws, as a tournament runner would.
        winning = 0 if abs(white_cp) < 1000 else (1 if white_cp > 0 else -1)
        winning_plies = winning_plies + 1 if winning and winning == previous_winning else int(winning != 0)
        previous_winning = winning
        quiet_draw = quiet_draw + 1 if abs(white_cp) <= 8 and ply >= 80 else 0
        if winning_plies >= 6:
            return (1.0 if winning > 0 else 0.0), positions
        if quiet_draw >= 16:
            return 0.5, positions
        board.push(move)
    return 0.5, positions


def generate(args):
    rng = random.Random(args.seed)
    openings = read_openings(args.openings)
    search = _core.Search(1, 16)
    total = 0
    with open(args.out, "a", encoding="utf-8") as out:
        for _ in tqdm(range(args.games), desc="games", file=sys.stderr, mininterval=5):
            result, positions = play_game(search, rng.choice(openings), (args.nodes_min, args.nodes_max),
                                          rng, args.skip_plies)
            out.writelines(f"{fen};{result}\n" for fen in positions)
            out.flush()
            total += len(positions)
    print(f"{total} positions from {args.games} games -> {args.out}")


def _stockfish_scores(job):
    """Stockfish's scores (white's view, cp; mates as +-2000) of a chunk of FENs. Spoken to
    through bare pipes: at a few hundred searches a second python-chess's protocol layer
    would cost more than the searches."""
    import subprocess
    command, depth, fens = job
    engine = subprocess.Popen([command], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
    engine.stdin.write("uci\nsetoption name Hash value 16\nisready\n")
    for line in engine.stdout:
        if line.startswith("readyok"):
            break
    scores = []
    for fen in fens:
        engine.stdin.write(f"position fen {fen}\ngo depth {depth}\n")
        score = None
        for line in engine.stdout:
            if " score " in line:
                words = line.split()
                kind, value = words[words.index("score") + 1:words.index("score") + 3]
                score = int(value) if kind == "cp" else (2000 if int(value) > 0 else -2000)
            elif line.startswith("bestmove"):
                break
        scores.append(score if " w " in fen else -score)
    engine.stdin.write("quit\n")
    engine.wait()
    return scores


def label(args):
    """Append Stockfish's score at a fixed depth to each `fen;result` line."""
    import multiprocessing
    with open(args.data, encoding="utf-8") as f:
        rows = [line.rstrip("\n") for line in f if line.strip()]
    chunk = 2000
    jobs = [(args.stockfish, args.depth, [row.split(";")[0] for row in rows[i:i + chunk]])
            for i in range(0, len(rows), chunk)]
    with multiprocessing.Pool(args.processes) as pool, open(args.out, "w", encoding="utf-8") as out:
        done = 0
        for scores in tqdm(pool.imap(_stockfish_scores, jobs), total=len(jobs), desc="chunks", file=sys.stderr):
            out.writelines(f"{row};{cp}\n" for row, cp in zip(rows[done:done + len(scores)], scores))
            done += len(scores)


# ---------------------------------------------------------------------------------------------
# Tuning: a logistic model of the label on the evaluation, linearised in the weights.
# ---------------------------------------------------------------------------------------------

# Scale factors that are or may become zero are not tuned: evaluate() calls a position with
# scale 0 a draw outright, so the score jumps at zero (and pawnless endings are rare in games).
FROZEN = {"scale_knnk", "scale_wrong_bishop", "scale_no_pawns_minor_advantage"}


def read_data(paths, validation_share):
    """(train, valid) lists of (fen, result, stockfish cp or None). Files hold whole games in
    order, so the last share of each file is held out: validation games are not training games."""
    train, valid = [], []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            rows = [line.rstrip("\n").split(";") for line in f if line.strip()]
        rows = [(r[0], float(r[1]), float(r[2]) if len(r) > 2 else None) for r in rows]
        cut = int(len(rows) * (1 - validation_share))
        train += rows[:cut]
        valid += rows[cut:]
    return train, valid


def _coefficients_job(job):
    params, fens, indices = job
    _core.set_eval_params(params)
    return _core.eval_coefficients(fens, indices)


def linearise(pool, params, fens, indices, chunks=16):
    """(base scores, sparse matrix of d score / d parameter) at `params`, computed by the worker
    processes of `pool` (PARAMS is global to the C core, so the work splits by process)."""
    import scipy.sparse
    size = (len(fens) + chunks - 1) // chunks
    jobs = [(params, fens[i:i + size], indices) for i in range(0, len(fens), size)]
    base, rows, cols, deltas, offset = [], [], [], [], 0
    for (b, r, c, d), job in zip(tqdm(pool.imap(_coefficients_job, jobs), total=len(jobs), desc="linearise",
                                      file=sys.stderr, mininterval=10), jobs):
        base.append(np.frombuffer(b))
        rows.append(np.frombuffer(r, dtype=np.int32) + offset)
        cols.append(np.frombuffer(c, dtype=np.int32))
        deltas.append(np.frombuffer(d))
        offset += len(job[1])
    matrix = scipy.sparse.csr_matrix((np.concatenate(deltas), (np.concatenate(rows), np.concatenate(cols))),
                                     shape=(len(fens), len(_core.eval_param_names())))
    return np.concatenate(base), matrix


def win_probability(score, k):
    return 1.0 / (1.0 + 10.0 ** (-k * score / 400.0))


def mse(score, target, k):
    return float(np.mean((win_probability(score, k) - target) ** 2))


def fit_k(score, target):
    from scipy.optimize import minimize_scalar
    return minimize_scalar(lambda k: mse(score, target, k), bounds=(0.1, 5.0), method="bounded").x


def fit_weights(base, matrix, target, k, start, anchor, free, regularisation, bounds):
    """Weights minimising the training error of the linear model base + matrix (w - start) plus
    regularisation * sum of squared distances from anchor (the built-in weights), over `free`."""
    from scipy.optimize import minimize
    sub = matrix[:, free].tocsr()
    sub_t = sub.T.tocsr()
    x0 = start[free].astype(float)
    a = anchor[free].astype(float)
    n = len(target)
    log10 = np.log(10.0)

    def loss(x):
        p = win_probability(base + sub @ (x - x0), k)
        error = p - target
        grad_score = 2.0 * error * p * (1.0 - p) * k * log10 / 400.0 / n
        value = float(np.mean(error ** 2)) + regularisation * float(np.sum((x - a) ** 2))
        return value, sub_t @ grad_score + 2.0 * regularisation * (x - a)

    result = minimize(loss, x0, jac=True, method="L-BFGS-B", bounds=[bounds[i] for i in free],
                      options={"maxiter": 2000})
    weights = start.astype(float).copy()
    weights[free] = result.x
    return weights


def tune(args):
    import multiprocessing
    names = _core.eval_param_names()
    defaults = _core.default_eval_params()
    anchor = np.array([defaults[n] for n in names], dtype=float)
    train, valid = read_data(args.data, args.validation)
    fens_train = [r[0] for r in train]
    fens_valid = [r[0] for r in valid]
    results = np.array([r[1] for r in train]), np.array([r[1] for r in valid])
    print(f"positions: {len(train)} training, {len(valid)} validation")
    skip = set(FROZEN) | ({n for n in names if n.startswith("pst_")} if args.no_pst else set())
    candidates = [i for i, n in enumerate(names) if n not in skip]
    bounds = [(0, 64) if n.startswith("scale_") else
              (0, None) if n.startswith(("king_attack_weight_", "safe_check_", "king_zone_attack", "king_danger"))
              else (None, None) for n in names]
    current = {n: defaults[n] for n in names}
    target_train, target_valid = targets(results[0], train, args), targets(results[1], valid, args)
    regularisations = args.regularisation
    with multiprocessing.Pool(args.processes) as pool:
        for round_ in range(1, args.rounds + 1):
            base, matrix = linearise(pool, current, fens_train, candidates)
            base_valid, matrix_valid = linearise(pool, current, fens_valid, candidates)
            if round_ == 1:
                k = fit_k(base, target_train)
                base_valid0 = base_valid
                print(f"K = {k:.4f}")
                print(f"before: training error {mse(base, target_train, k):.6f}, "
                      f"validation error {mse(base_valid, target_valid, k):.6f}")
            start = np.array([current[n] for n in names], dtype=float)
            free = np.array([i for i in candidates if matrix[:, i].nnz >= args.min_hits])
            # Several regularisations on the linear model; the validation games choose.
            fits = []
            for regularisation in regularisations:
                weights = np.round(fit_weights(base, matrix, target_train, k, start, anchor, free,
                                               regularisation, bounds))
                predicted = base_valid + matrix_valid @ (weights - start)
                fits.append((mse(predicted, target_valid, k), regularisation, weights))
                print(f"round {round_}: regularisation {regularisation:g}: validation error "
                      f"{fits[-1][0]:.6f} (linear model)", flush=True)
            _, chosen, weights = min(fits, key=lambda fit: fit[0])
            regularisations = [chosen]
            current = {n: int(w) for n, w in zip(names, weights)}
        base_train, _ = linearise(pool, current, fens_train, [])
        base_valid, _ = linearise(pool, current, fens_valid, [])
    print(f"after: {len(free)} weights free, regularisation {chosen:g}: training error "
          f"{mse(base_train, target_train, k):.6f}, validation error {mse(base_valid, target_valid, k):.6f}")
    print(f"game results only: before/after validation error {mse(base_valid0, results[1], k):.6f} / "
          f"{mse(base_valid, results[1], k):.6f}")
    _core.set_eval_params(current)
    _core.save_eval_params(args.out)
    changed = sorted(((abs(current[n] - defaults[n]), n) for n in names), reverse=True)
    print("largest changes:", ", ".join(f"{n} {defaults[n]}->{current[n]}" for _, n in changed[:25]))
    print(f"weights -> {args.out}")


def targets(results, rows, args):
    """The game result, blended with Stockfish's score as a win probability where known."""
    if args.result_weight >= 1.0 or rows[0][2] is None:
        return results
    stockfish = win_probability(np.array([r[2] for r in rows]), args.stockfish_k)
    return args.result_weight * results + (1.0 - args.result_weight) * stockfish


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    commands = parser.add_subparsers(dest="command", required=True)
    g = commands.add_parser("generate", help="self-play positions labelled with the game result")
    g.add_argument("--games", type=int, default=1000)
    g.add_argument("--openings", default=OPENINGS)
    g.add_argument("--nodes-min", type=int, default=2000)
    g.add_argument("--nodes-max", type=int, default=6000)
    g.add_argument("--skip-plies", type=int, default=4, help="plies after the opening not sampled")
    g.add_argument("--seed", type=int, default=1)
    g.add_argument("--out", required=True, help="appended to")
    g.set_defaults(run=generate)
    lab = commands.add_parser("label", help="add a Stockfish score to each position")
    lab.add_argument("data")
    lab.add_argument("--stockfish", default="/usr/games/stockfish")
    lab.add_argument("--depth", type=int, default=6)
    lab.add_argument("--processes", type=int, default=2)
    lab.add_argument("--out", required=True)
    lab.set_defaults(run=label)
    t = commands.add_parser("tune", help="fit the weights to labelled positions")
    t.add_argument("data", nargs="+")
    t.add_argument("--out", required=True, help="parameter file to write")
    t.add_argument("--validation", type=float, default=0.1, help="share of each file held out")
    t.add_argument("--rounds", type=int, default=2, help="linearise-and-fit rounds")
    t.add_argument("--regularisation", type=float, nargs="+", default=[1e-7, 5e-8, 2e-8, 1e-8],
                   help="penalties per squared centipawn of change from the built-in weights to try; "
                        "the validation error picks one in the first round")
    t.add_argument("--no-pst", action="store_true", help="keep the piece-square tables")
    t.add_argument("--min-hits", type=int, default=200, help="positions a free weight must touch")
    t.add_argument("--result-weight", type=float, default=0.3,
                   help="share of the game result in the label; the rest is Stockfish's score where known")
    t.add_argument("--stockfish-k", type=float, default=0.856,
                   help="K turning Stockfish's cp into a win probability (0.856 fits its depth-6 "
                        "scores to the results of Pyrope's self-play games)")
    t.add_argument("--processes", type=int, default=2)
    t.set_defaults(run=tune)
    args = parser.parse_args()
    args.run(args)


if __name__ == "__main__":
    main()
