"""SPSA over the evaluation's and the search's parameters, as fishtest and OpenBench run it.

Each iteration k draws a random sign Delta_i for every tuned parameter, plays theta + c_k Delta
against theta - c_k Delta in a game pair (colours swapped, one opening), and moves
theta_i += r_k c_k result Delta_i, where result is the plus side's wins less its losses (-2..2).
The gains decay as Spall's: c_k = c / k^gamma, r_k = a / (A + k)^alpha / c_k^2, with each
parameter's c and a set from its c_end and r_end (the values at the last iteration N):
c = c_end N^gamma, a = r_end c_end^2 (A + N)^alpha; alpha 0.602, gamma 0.101, A a tenth of N.

Iterations are played in batches of `batch`, every pair of a batch from the theta the batch began
with, and applied in iteration order -- fishtest's workers also play from a theta that is a few
games old -- so that a run is the same on any number of workers, killed and resumed or not.

The specification file (`key = value` lines, configfile.py):
    iterations = 2000          game pairs (N)
    start = FILE               the weights to start from: a parameter file or a genome, relative to
                               this file (default: the shipped weights); the run keeps a copy
    net = FILE                 the games evaluate with this net (a .nnue file, relative to this
                               file; default: none, the weights evaluate); the run keeps a copy
    nodes = 5000               nodes a move (with `tc`: of each opening's check alone)
    tc = 2+0.02                the games are played on this clock (BASE+INC in seconds), each side
                               on its own as the engine plays for a GUI; a run that tunes the time
                               manager needs it. Default: none, every move searches `nodes`
    batch = 8                  iterations played from one theta
    seed = 1
    random plies = 8           each pair's opening: random moves from the start position
    alpha = 0.602
    gamma = 0.101
    A = 200                    default: a tenth of the iterations
    gauntlet interval = 2000   games between gauntlets (0: none): theta against the start table,
    gauntlet bouts = 50        this many bouts at `nodes`
    param PATTERN ... = C_END R_END [LOW..HIGH]
                               the parameters matching the glob patterns -- the weights' names, and
                               the search's (ext/search_params.pxi, starting at this build's
                               defaults) and the time manager's (time_NAME: play/timeman.py's
                               TimeFactors) -- each with these gains and bounds (default: evolve's
                               bounds around the start value for a step of C_END, within a search
                               parameter's or time factor's own limits); at least one param line
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..._core import search_param_limits
from ...match.clock import TimeControl, parse_tc
from ...play.timeman import FACTOR_LIMITS, FACTOR_NAMES
from ..configfile import config_lines, fail, real_number, value_range, whole_number
from ..evolve.config import select_params
from ..evolve.genome import default_bounds


# What keeps the search and the clock sound: theta never leaves it.
SEARCH_LIMITS = {**search_param_limits(), **FACTOR_LIMITS}


@dataclass(frozen=True)
class SpsaParam:
    name: str
    start: int
    low: float
    high: float
    c_end: float
    r_end: float


@dataclass(frozen=True)
class SpsaSpec:
    iterations: int
    nodes: int = 5000
    batch: int = 8
    seed: int = 1
    random_plies: int = 8
    alpha: float = 0.602
    gamma: float = 0.101
    A: float = 0.0
    gauntlet_interval: int = 2000
    gauntlet_bouts: int = 50
    tc: TimeControl | None = None
    params: tuple[SpsaParam, ...] = ()


_WHOLE = {"iterations": ("iterations", 1), "nodes": ("nodes", 1), "batch": ("batch", 1), "seed": ("seed", 0),
          "random plies": ("random_plies", 0), "gauntlet interval": ("gauntlet_interval", 0),
          "gauntlet bouts": ("gauntlet_bouts", 1)}
_REAL = {"alpha": "alpha", "gamma": "gamma", "A": "A"}


def parse_spec(text: str, path: str, start: Mapping[str, int]) -> SpsaSpec:
    """The specification in `text` (read from `path`, for the messages) over the start table."""
    values: dict = {}
    params: dict[str, SpsaParam] = {}
    owner: dict[str, int] = {}
    for number, key, value in config_lines(text, path):
        if key.startswith("param "):
            words = value.split()
            if len(words) not in (2, 3):
                fail(path, number, key, f"expected C_END R_END [LOW..HIGH], not {value!r}")
            c_end, r_end = (real_number(path, number, key, word) for word in words[:2])
            if c_end <= 0 or r_end <= 0:
                fail(path, number, key, f"C_END and R_END must be above 0, not {words[0]} and {words[1]}")
            bounds = value_range(path, number, key, words[2], integer=False) if len(words) == 3 else None
            for name in select_params(start, key.split()[1:], path, number, key):
                if name in owner:
                    fail(path, number, key, f"the parameter {name!r} is already tuned by line {owner[name]}")
                owner[name] = number
                low, high = bounds or default_bounds(start[name], c_end)
                if name in SEARCH_LIMITS:
                    lowest, highest = SEARCH_LIMITS[name]
                    if bounds and not lowest <= low <= high <= highest:
                        fail(path, number, key, f"{low:g}..{high:g} leaves the search's limits for {name}, "
                             f"{lowest}..{highest}")
                    low, high = max(low, lowest), min(high, highest)
                if not low <= start[name] <= high:
                    fail(path, number, key, f"{low:g}..{high:g} excludes {name}'s start value {start[name]}")
                params[name] = SpsaParam(name, start[name], low, high, c_end, r_end)
        elif key in ("start", "net"):    # read before (rundir.kept_input)
            continue
        elif key == "tc":
            try:
                values["tc"] = parse_tc(value)
            except ValueError as error:
                fail(path, number, key, str(error))
            if values["tc"].moves:
                fail(path, number, key, f"a bout's clock is BASE+INC, without moves per period: not {value}")
        elif key in _WHOLE:
            attribute, lowest = _WHOLE[key]
            values[attribute] = whole_number(path, number, key, value, lowest)
        elif key in _REAL:
            values[_REAL[key]] = real_number(path, number, key, value)
            if values[_REAL[key]] < 0 or (key != "A" and values[_REAL[key]] == 0):
                fail(path, number, key, f"must be {'0 or more' if key == 'A' else 'above 0'}, not {value}")
        else:
            fail(path, number, key, f"unknown key (the keys: start, net, tc, {', '.join(list(_WHOLE) + list(_REAL))}, "
                 "param PATTERN ...)")
    if "iterations" not in values:
        fail(path, None, "iterations", "is missing: how many game pairs?")
    if not params:
        fail(path, None, "param", "no parameter is tuned: add a line 'param PATTERN = C_END R_END'")
    if "tc" not in values and FACTOR_NAMES.keys() & params.keys():
        fail(path, owner[min(FACTOR_NAMES.keys() & params.keys())], "tc", "is missing: the time manager's factors "
             "are tuned on a clock (add a line such as 'tc = 2+0.02')")
    values.setdefault("A", values["iterations"] / 10)
    ordered = tuple(params[name] for name in start if name in params)       # table order
    return SpsaSpec(**values, params=ordered)


@dataclass(frozen=True)
class Iteration:
    """One iteration's perturbation: its number (1-based), the signs, and its step sizes and gains."""
    k: int
    signs: tuple[int, ...]
    c: tuple[float, ...]
    r: tuple[float, ...]


class Spsa:
    """theta (floats, in the spec's parameter order) and the iterations done."""

    def __init__(self, spec: SpsaSpec):
        self.spec = spec
        self.theta = [float(param.start) for param in spec.params]
        self.done = 0
        n = spec.iterations
        self.c = [param.c_end * n ** spec.gamma for param in spec.params]
        self.a = [param.r_end * param.c_end ** 2 * (spec.A + n) ** spec.alpha for param in spec.params]

    def iteration(self, k: int) -> Iteration:
        rng = random.Random(f"{self.spec.seed}/signs/{k}")
        signs = tuple(rng.choice((-1, 1)) for _ in self.spec.params)
        c = tuple(c / k ** self.spec.gamma for c in self.c)
        r = tuple(a / (self.spec.A + k) ** self.spec.alpha / c_k ** 2 for a, c_k in zip(self.a, c))
        return Iteration(k, signs, c, r)

    def next_batch(self) -> list[Iteration]:
        last = min(self.spec.iterations, self.done + self.spec.batch)
        return [self.iteration(k) for k in range(self.done + 1, last + 1)]

    def sides(self, step: Iteration) -> tuple[dict[str, int], dict[str, int]]:
        """The weights theta + c_k Delta and theta - c_k Delta, rounded to the table's integers and
        held within the bounds."""
        plus, minus = {}, {}
        for param, value, sign, c in zip(self.spec.params, self.theta, step.signs, step.c):
            plus[param.name] = round(min(param.high, max(param.low, value + c * sign)))
            minus[param.name] = round(min(param.high, max(param.low, value - c * sign)))
        return plus, minus

    def apply(self, step: Iteration, result: int) -> None:
        """theta_i += r_k c_k result Delta_i, within the bounds (iterations in order)."""
        if step.k != self.done + 1:
            raise ValueError(f"iteration {step.k} applied after {self.done}")
        for i, param in enumerate(self.spec.params):
            moved = self.theta[i] + step.r[i] * step.c[i] * result * step.signs[i]
            self.theta[i] = min(param.high, max(param.low, moved))
        self.done = step.k

    def params(self) -> dict[str, int]:
        """theta rounded: the tuned parameters' values to play."""
        return {param.name: round(value) for param, value in zip(self.spec.params, self.theta)}

    def state(self) -> dict:
        return {"done": self.done, "theta": self.theta}

    def restore(self, state: dict) -> None:
        self.done, self.theta = state["done"], list(state["theta"])


def pair_result(games: Sequence[dict]) -> int:
    """The plus side's wins less its losses over a bout (White in the first game, Black in the second)."""
    first = {"1-0": 1, "1/2-1/2": 0, "0-1": -1}[games[0]["result"]]
    second = {"1-0": -1, "1/2-1/2": 0, "0-1": 1}[games[1]["result"]]
    return first + second
