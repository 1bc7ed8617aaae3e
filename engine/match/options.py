"""Command-line values every game's match command shares: KEY=VALUE fields, the SPRT's hypotheses, the
limits of a move, the counts, the players' names and the seed.

Every parser and check raises ValueError with a sentence that says what was wrong. The checks read
the options both commands name alike (--tc, --movetime, --depth, --nodes, --games, --concurrency,
--timemargin, --timeout, --seed).
"""
from __future__ import annotations

import argparse
import collections
import dataclasses
import random
from dataclasses import dataclass
from typing import Optional, Sequence, Tuple

from ..journal import Journal
from .clock import TimeControl, parse_tc


def split_key_value(token: str, what: str) -> Tuple[str, str]:
    """'key=value' -> ('key', 'value'); `what` names the option in the error message."""
    key, sep, value = token.partition("=")
    if not sep or not key:
        raise ValueError(f"{what}: expected KEY=VALUE, got {token!r}")
    return key, value


@dataclass(frozen=True)
class SprtSpec:
    """Hypotheses (logistic Elo) and error rates of the sequential probability ratio test."""
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta must lie strictly between 0 and 1")
        if self.elo1 <= self.elo0:
            raise ValueError("elo1 must be larger than elo0")


def parse_fields(cls, tokens: Sequence[str], option: str):
    """Build the dataclass `cls` (DrawRule, ResignRule, SprtSpec) from KEY=VALUE tokens: unset fields keep
    their defaults, the type of the default converts the value; `option` prefixes error messages."""
    defaults = {f.name: f.default for f in dataclasses.fields(cls)}
    values = {}
    for token in tokens:
        key, text = split_key_value(token, option)
        if key not in defaults:
            raise ValueError(f"{option}: unknown key {key!r} (expected {', '.join(defaults)})")
        kind = type(defaults[key])
        try:
            values[key] = kind(text)
        except ValueError:
            raise ValueError(f"{option}: {key} must be {'an integer' if kind is int else 'a number'}, "
                             f"got {text!r}") from None
    try:
        return cls(**values)
    except ValueError as error:
        raise ValueError(f"{option}: {error}") from None


def distinct_names(specs: Sequence) -> None:
    """Make the players' duplicate names distinct: sunfish, sunfish-2."""
    names = collections.Counter(spec.name for spec in specs)
    seen: collections.Counter = collections.Counter()
    for spec in specs:
        seen[spec.name] += 1
        if names[spec.name] > 1 and seen[spec.name] > 1:
            spec.name = f"{spec.name}-{seen[spec.name]}"


def time_control(args: argparse.Namespace) -> TimeControl:
    """The TimeControl of --tc, --movetime, --depth and --nodes (maybe none of them)."""
    if args.tc is not None and args.movetime is not None:
        raise ValueError("give either --tc or --movetime, not both")
    for option in ("movetime", "depth", "nodes"):
        value = getattr(args, option)
        if value is not None and value <= 0:
            raise ValueError(f"--{option} must be more than 0, got {value}")
    return dataclasses.replace(parse_tc(args.tc) if args.tc else TimeControl(),
                               movetime=args.movetime, depth=args.depth, nodes=args.nodes)


def check_counts(args: argparse.Namespace) -> None:
    """--games, --concurrency, --timemargin and --timeout."""
    if args.games < 1 or args.concurrency < 1:
        raise ValueError("--games and --concurrency must be 1 or more")
    if args.timemargin < 0 or args.timeout <= 0:
        raise ValueError("--timemargin must be 0 or more and --timeout more than 0")


def match_seed(args: argparse.Namespace, journal: Optional[Journal]) -> int:
    """--seed, else the resumed journal's (a resumed match keeps its openings), else a random one."""
    if args.seed is None and journal is not None:
        args.seed = journal.header.get("seed")
    if args.seed is None:
        args.seed = random.randrange(2 ** 32)
    return args.seed
