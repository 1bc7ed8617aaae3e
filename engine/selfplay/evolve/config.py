"""The configuration file of `pyrope evolve` (after Genetic Chess, section 5.1): `key = value` lines,
`#` comments. Every fault is one sentence naming the file, the line and the field (ConfigError).

    population = 16                 genomes in each pool (2 or more)
    pools = 3                       gene pools
    draw kill probability = 0.05    after a drawn bout, the chance that one of the two is replaced
    migration interval = 1000       games between copies of each pool's best into the next pool
    minimum nodes = 2000            the per-move budget: it starts at the minimum and rises by the
    maximum nodes = 5000            increment each round; at the maximum it falls again (oscillating
    nodes increment = 100           = yes) or every game is played at the maximum (oscillating = no)
    oscillating = yes
    games = 20000                   games to play (the run stops after the round that reaches it)
    seed = 1                        everything random in the run follows from it
    random plies = 8                a bout's opening: random moves from the start position
    gauntlet interval = 2000        games between gauntlets (0: none): the champion against the start
    gauntlet bouts = 50             table, this many bouts at the maximum budget, for progress.png
    gene NAME = PATTERN ...         a gene: the parameters whose names match the glob patterns
    gene NAME bounds = LOW..HIGH    optional: every weight of the gene within these (default: per
                                    weight, genome.default_bounds)
    gene NAME priority = LOW..HIGH  optional: the priority's bounds (default 0.5..2)
    gene NAME step = S              optional: every weight's mutation step (default genome.default_steps)

Without gene lines the genes are DEFAULT_GENES. Bounds must hold the start value.
"""
from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass, field
from typing import Mapping

from .genome import PRIORITY_BOUNDS, GeneSpec, default_bounds, default_steps

# The genes evolved when the configuration names none: the parameter table by concern.
DEFAULT_GENES = (
    ("material", "*_value_mg *_value_eg"),
    ("pawn_table", "pst_pawn_*"),
    ("knight_table", "pst_knight_*"),
    ("bishop_table", "pst_bishop_*"),
    ("rook_table", "pst_rook_*"),
    ("queen_table", "pst_queen_*"),
    ("king_table", "pst_king_*"),
    ("mobility", "*_mobility_*"),
    ("pawn_structure", "doubled_pawn_* isolated_pawn_* backward_pawn_* pawn_island_* phalanx_* supported_pawn_*"),
    ("passed_pawns", "passed_pawn_* passed_own_king_distance_* passed_enemy_king_distance_* unstoppable_passer_*"),
    ("king_safety", "king_shield_* king_storm_* king_danger_* king_attack_weight_* safe_check_* king_zone_attack"),
    ("pieces", "bishop_pair_* rook_open_file_* rook_semiopen_file_* rook_seventh_* knight_outpost_* bishop_outpost_*"),
    ("threats", "threat_by_pawn_* hanging_* threat_by_lesser_*"),
    ("tempo", "tempo_*"),
)


class ConfigError(ValueError):
    """A configuration that cannot be used: the message names file, line and field."""


@dataclass(frozen=True)
class EvolveConfig:
    population: int = 16
    pools: int = 3
    draw_kill_probability: float = 0.05
    migration_interval: int = 1000
    minimum_nodes: int = 2000
    maximum_nodes: int = 5000
    nodes_increment: int = 100
    oscillating: bool = True
    games: int = 20000
    seed: int = 1
    random_plies: int = 8
    gauntlet_interval: int = 2000
    gauntlet_bouts: int = 50
    genes: tuple[GeneSpec, ...] = field(default=())


_FIELDS = {"population": "population", "pools": "pools", "draw kill probability": "draw_kill_probability",
           "migration interval": "migration_interval", "minimum nodes": "minimum_nodes",
           "maximum nodes": "maximum_nodes", "nodes increment": "nodes_increment", "oscillating": "oscillating",
           "games": "games", "seed": "seed", "random plies": "random_plies",
           "gauntlet interval": "gauntlet_interval", "gauntlet bouts": "gauntlet_bouts"}
_LOWEST = {"population": 2, "pools": 1, "migration_interval": 1, "minimum_nodes": 1, "maximum_nodes": 1,
           "nodes_increment": 0, "games": 1, "seed": 0, "random_plies": 0, "gauntlet_interval": 0,
           "gauntlet_bouts": 1}
_GENE_LINE = re.compile(r"gene\s+([A-Za-z0-9_]+)(?:\s+(bounds|priority|step))?")
_RANGE = re.compile(r"\s*([+-]?[0-9.]+)\s*\.\.\s*([+-]?[0-9.]+)\s*")


def parse_config(text: str, path: str, start: Mapping[str, int]) -> EvolveConfig:
    """The configuration in `text` (read from `path`, for the messages); `start` is the start table
    (every parameter's name and start value)."""
    values: dict = {}
    gene_lines: dict[str, tuple[int, list[str]]] = {}
    gene_options: dict[str, dict[str, tuple[int, str]]] = {}
    seen: dict[str, int] = {}

    def fail(number: int, key: str, what: str):
        raise ConfigError(f"{path}:{number}: {key}: {what}")

    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, equals, value = (" ".join(part.split()) for part in line.partition("="))
        if not equals or not key or not value:
            fail(number, key or line, "expected 'key = value'")
        if key in seen:
            fail(number, key, f"given twice (first on line {seen[key]})")
        seen[key] = number
        gene = _GENE_LINE.fullmatch(key)
        if gene:
            name, option = gene.groups()
            if option:
                gene_options.setdefault(name, {})[option] = (number, value)
            else:
                gene_lines[name] = (number, value.split())
            continue
        if key not in _FIELDS:
            fail(number, key, f"unknown key (the keys: {', '.join(_FIELDS)}, gene NAME [bounds|priority|step])")
        attribute = _FIELDS[key]
        if attribute == "oscillating":
            if value not in ("yes", "no"):
                fail(number, key, f"yes or no, not {value!r}")
            values[attribute] = value == "yes"
        elif attribute == "draw_kill_probability":
            try:
                probability = float(value)
            except ValueError:
                fail(number, key, f"needs a number, not {value!r}")
            if not 0.0 <= probability <= 1.0:
                fail(number, key, f"a probability is within [0, 1], not {value}")
            values[attribute] = probability
        else:
            if not re.fullmatch(r"[+-]?[0-9]+", value):
                fail(number, key, f"needs a whole number, not {value!r}")
            if int(value) < _LOWEST[attribute]:
                fail(number, key, f"must be {_LOWEST[attribute]} or more, not {value}")
            values[attribute] = int(value)
    config = EvolveConfig(**values)
    if config.minimum_nodes > config.maximum_nodes:
        fail(seen["minimum nodes"], "minimum nodes", f"{config.minimum_nodes} is above the maximum, "
             f"{config.maximum_nodes}")
    for name, options in gene_options.items():
        if name not in gene_lines and (gene_lines or name not in dict(DEFAULT_GENES)):
            number = min(line for line, _ in options.values())
            fail(number, f"gene {name}", "no such gene (a gene is defined by 'gene NAME = PATTERN ...')")
    if not gene_lines:
        gene_lines = {name: (0, patterns.split()) for name, patterns in DEFAULT_GENES}
    genes, owner = [], {}
    for name, (number, patterns) in gene_lines.items():
        matched = []
        for pattern in patterns:
            names = [param for param in start if fnmatch.fnmatchcase(param, pattern)]
            if not names:
                fail(number, f"gene {name}", f"the pattern {pattern!r} matches no parameter")
            matched += [param for param in names if param not in matched]
        params = tuple(param for param in start if param in matched)        # table order
        for param in params:
            if param in owner:
                fail(number, f"gene {name}", f"the parameter {param!r} is already in the gene {owner[param]!r}")
            owner[param] = name
        genes.append(_gene_spec(name, params, start, gene_options.get(name, {}), fail))
    return EvolveConfig(**{**values, "genes": tuple(genes)})


def _gene_spec(name: str, params: tuple[str, ...], start: Mapping[str, int], options: dict, fail) -> GeneSpec:
    starts = [start[param] for param in params]
    steps = default_steps(starts)
    if "step" in options:
        number, value = options["step"]
        try:
            step = float(value)
        except ValueError:
            fail(number, f"gene {name} step", f"needs a number, not {value!r}")
        if not step > 0:
            fail(number, f"gene {name} step", f"must be above 0, not {value}")
        steps = (step,) * len(starts)
    bounds = [default_bounds(value, step) for value, step in zip(starts, steps)]
    if "bounds" in options:
        number, value = options["bounds"]
        low, high = _range(number, f"gene {name} bounds", value, fail, integer=True)
        for param, value in zip(params, starts):
            if not low <= value <= high:
                fail(number, f"gene {name} bounds", f"{low}..{high} excludes {param}'s start value {value}")
        bounds = [(low, high)] * len(params)
    priority = PRIORITY_BOUNDS
    if "priority" in options:
        number, value = options["priority"]
        priority = _range(number, f"gene {name} priority", value, fail, integer=False)
        if not 0 < priority[0] <= 1.0 <= priority[1]:
            fail(number, f"gene {name} priority", f"{value} must be above 0 and hold the start priority 1")
    return GeneSpec(name, params, tuple(low for low, _ in bounds), tuple(high for _, high in bounds), steps,
                    priority[0], priority[1])


def _range(number: int, key: str, value: str, fail, integer: bool) -> tuple:
    match = _RANGE.fullmatch(value)
    try:
        low, high = (int(part) if integer else float(part) for part in match.groups())
    except (AttributeError, ValueError):
        fail(number, key, f"expected LOW..HIGH{' (whole numbers)' if integer else ''}, not {value!r}")
    if low > high:
        fail(number, key, f"the low end {low} is above the high end {high}")
    return low, high
