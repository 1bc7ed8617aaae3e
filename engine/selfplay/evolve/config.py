"""The configuration file of `pyrope evolve` (after Genetic Chess, section 5.1): `key = value` lines,
`#` comments (configfile.py). Every fault is one sentence naming the file, the line and the field.

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

from ..configfile import config_lines, fail, real_number, value_range, whole_number
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


def parse_config(text: str, path: str, start: Mapping[str, int]) -> EvolveConfig:
    """The configuration in `text` (read from `path`, for the messages); `start` is the start table
    (every parameter's name and start value)."""
    values: dict = {}
    gene_lines: dict[str, tuple[int, list[str]]] = {}
    gene_options: dict[str, dict[str, tuple[int, str]]] = {}
    seen: dict[str, int] = {}
    for number, key, value in config_lines(text, path):
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
            fail(path, number, key, f"unknown key (the keys: {', '.join(_FIELDS)}, gene NAME [bounds|priority|step])")
        attribute = _FIELDS[key]
        if attribute == "oscillating":
            if value not in ("yes", "no"):
                fail(path, number, key, f"yes or no, not {value!r}")
            values[attribute] = value == "yes"
        elif attribute == "draw_kill_probability":
            values[attribute] = real_number(path, number, key, value)
            if not 0.0 <= values[attribute] <= 1.0:
                fail(path, number, key, f"a probability is within [0, 1], not {value}")
        else:
            values[attribute] = whole_number(path, number, key, value, _LOWEST[attribute])
    config = EvolveConfig(**values)
    if config.minimum_nodes > config.maximum_nodes:
        fail(path, seen["minimum nodes"], "minimum nodes", f"{config.minimum_nodes} is above the maximum, "
             f"{config.maximum_nodes}")
    for name, options in gene_options.items():
        if name not in gene_lines and (gene_lines or name not in dict(DEFAULT_GENES)):
            number = min(line for line, _ in options.values())
            fail(path, number, f"gene {name}", "no such gene (a gene is defined by 'gene NAME = PATTERN ...')")
    if not gene_lines:
        gene_lines = {name: (0, patterns.split()) for name, patterns in DEFAULT_GENES}
    genes, owner = [], {}
    for name, (number, patterns) in gene_lines.items():
        params = select_params(start, patterns, path, number, f"gene {name}")
        for param in params:
            if param in owner:
                fail(path, number, f"gene {name}", f"the parameter {param!r} is already in the gene {owner[param]!r}")
            owner[param] = name
        genes.append(_gene_spec(name, params, start, gene_options.get(name, {}), path))
    return EvolveConfig(**{**values, "genes": tuple(genes)})


def select_params(start: Mapping[str, int], patterns: list[str], path: str, number: int, key: str) -> tuple[str, ...]:
    """The parameters matching any of the glob `patterns`, in table order; a pattern matching none
    is a ConfigError."""
    matched = set()
    for pattern in patterns:
        names = {param for param in start if fnmatch.fnmatchcase(param, pattern)}
        if not names:
            fail(path, number, key, f"the pattern {pattern!r} matches no parameter")
        matched |= names
    return tuple(param for param in start if param in matched)


def _gene_spec(name: str, params: tuple[str, ...], start: Mapping[str, int], options: dict, path: str) -> GeneSpec:
    starts = [start[param] for param in params]
    steps = default_steps(starts)
    if "step" in options:
        number, value = options["step"]
        step = real_number(path, number, f"gene {name} step", value)
        if not step > 0:
            fail(path, number, f"gene {name} step", f"must be above 0, not {value}")
        steps = (step,) * len(starts)
    bounds = [default_bounds(value, step) for value, step in zip(starts, steps)]
    if "bounds" in options:
        number, value = options["bounds"]
        low, high = value_range(path, number, f"gene {name} bounds", value, integer=True)
        for param, start_value in zip(params, starts):
            if not low <= start_value <= high:
                fail(path, number, f"gene {name} bounds", f"{low}..{high} excludes {param}'s start value {start_value}")
        bounds = [(low, high)] * len(params)
    priority = PRIORITY_BOUNDS
    if "priority" in options:
        number, value = options["priority"]
        priority = value_range(path, number, f"gene {name} priority", value, integer=False)
        if not 0 < priority[0] <= 1.0 <= priority[1]:
            fail(path, number, f"gene {name} priority", f"{value} must be above 0 and hold the start priority 1")
    return GeneSpec(name, params, tuple(low for low, _ in bounds), tuple(high for _, high in bounds), steps,
                    priority[0], priority[1])
