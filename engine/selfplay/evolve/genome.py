"""Genomes of `pyrope evolve` (Genetic Chess, sections 4.1-4.4).

A gene is a named group of the evaluation's parameter table (the material values, a piece's square
table, mobility, king safety...). Its value in a genome is a priority that scales the whole group
(the priority of section 4.3) and the group's own weights; a genome's evaluation parameters are the
start table with each gene's parameters set to weight x priority. Every weight and priority is held
in bounds, so that mutation cannot drift into ranges where it no longer changes play or where a
term changes sign (4.1). Crossover takes whole genes, each from either parent; mutation moves one
part of a gene, its priority or one of its weights.

The text format follows section 4.4 (read by weights/files.py, which the engine's `EvalFile` uses;
written by format_genome here). A genome file is self-contained: its parameters are evaluation
parameters without the run's configuration.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Mapping, Sequence

from ..._core import ParamFileError
from ...weights.files import ParsedGenome

PRIORITY_BOUNDS = (0.5, 2.0)
PRIORITY_SIGMA = 0.1            # a priority's mutation multiplies it by exp(N(0, sigma))
GENES_MUTATED = 2.0             # genes a mutation moves, on average (section 5)


@dataclass(frozen=True)
class GeneSpec:
    """What a gene holds and how far it may go: its parameters (in table order), and per weight
    its bounds and its mutation step (a standard deviation); the priority's bounds."""
    name: str
    params: tuple[str, ...]
    low: tuple[int, ...]
    high: tuple[int, ...]
    steps: tuple[float, ...]
    priority_low: float = PRIORITY_BOUNDS[0]
    priority_high: float = PRIORITY_BOUNDS[1]


def default_steps(starts: Sequence[int]) -> tuple[float, ...]:
    """Each weight's mutation step: a tenth of its magnitude, but at least a fiftieth of the gene's
    mean magnitude and at least 1 (a pawn's value moves by about 9, a queen's by about 100)."""
    floor = max(1.0, sum(abs(value) for value in starts) / len(starts) / 50)
    return tuple(max(floor, abs(value) / 10) for value in starts)


def default_bounds(start: int, step: float) -> tuple[int, int]:
    """A weight may move half its magnitude or two steps, whichever is more, but never to zero or
    past it: a non-zero weight keeps its sign and at least a quarter of its size."""
    reach = max(abs(start) // 2, math.ceil(2 * step))
    low, high = start - reach, start + reach
    if start > 0:
        low = max(low, math.ceil(start / 4))
    elif start < 0:
        high = min(high, math.floor(start / 4))
    return low, high


@dataclass(frozen=True)
class Gene:
    """A gene's value: the priority and the weights, in its spec's parameter order."""
    priority: float
    weights: tuple[int, ...]


@dataclass(frozen=True)
class Genome:
    id: int
    parents: tuple[int, ...]
    genes: Mapping[str, Gene]


def start_genome(specs: Sequence[GeneSpec], start: Mapping[str, int], genome_id: int) -> Genome:
    """The genome that plays exactly the start table: every priority 1."""
    return Genome(genome_id, (), {spec.name: Gene(1.0, tuple(start[name] for name in spec.params))
                                  for spec in specs})


def crossover(first: Genome, second: Genome, rng: random.Random, child_id: int) -> Genome:
    """A child taking each whole gene from either parent with equal chance."""
    genes = {name: (first if rng.random() < 0.5 else second).genes[name] for name in first.genes}
    return Genome(child_id, (first.id, second.id), genes)


def mutate_gene(gene: Gene, spec: GeneSpec, rng: random.Random) -> Gene:
    """Move one part of a gene: its priority (half the time) or one of its weights, each within
    its bounds."""
    if rng.random() < 0.5:
        # Rounded, so that the text format holds a priority exactly.
        priority = round(gene.priority * math.exp(rng.gauss(0.0, PRIORITY_SIGMA)), 4)
        return Gene(min(spec.priority_high, max(spec.priority_low, priority)), gene.weights)
    index = rng.randrange(len(gene.weights))
    weights = list(gene.weights)
    delta = round(rng.gauss(0.0, spec.steps[index])) or rng.choice((-1, 1))     # a mutation that moves nothing is none
    weights[index] = min(spec.high[index], max(spec.low[index], weights[index] + delta))
    return Gene(gene.priority, tuple(weights))


def mutate(genome: Genome, specs: Sequence[GeneSpec], rng: random.Random, genes: float = GENES_MUTATED) -> Genome:
    """The genome with each gene moved with chance genes/len(specs): `genes` of them on average."""
    chance = min(1.0, genes / len(specs))
    moved = {spec.name: mutate_gene(genome.genes[spec.name], spec, rng) if rng.random() < chance
             else genome.genes[spec.name] for spec in specs}
    return Genome(genome.id, genome.parents, moved)


def genome_params(genome: Genome, names: Mapping[str, Sequence[str]]) -> dict[str, int]:
    """The evaluation parameters a genome sets: each of its genes' parameters (`names`: a gene's
    parameter names) at weight x priority, rounded. Parameters of no gene are not included."""
    params = {}
    for gene_name, gene in genome.genes.items():
        for name, weight in zip(names[gene_name], gene.weights):
            params[name] = round(weight * gene.priority)
    return params


# ---------------------------------------------------------------------------------------- text


def format_genome(genome: Genome, specs: Sequence[GeneSpec]) -> str:
    lines = [f"ID: {genome.id}"]
    if genome.parents:
        lines.append("Parents: " + " ".join(str(parent) for parent in genome.parents))
    for spec in specs:
        gene = genome.genes[spec.name]
        lines += [f"Name: {spec.name}", f"Priority: {gene.priority}"]
        lines += [f"{name}: {weight}" for name, weight in zip(spec.params, gene.weights)]
        lines.append("")
    lines.append("END")
    return "\n".join(lines) + "\n"


def to_genome(parsed: ParsedGenome, specs: Sequence[GeneSpec], path: str) -> Genome:
    """A parsed genome checked against the run's genes: ParamFileError if a gene is missing,
    unknown, or holds other parameters."""
    by_name = {spec.name: spec for spec in specs}
    for name in parsed.genes:
        if name not in by_name:
            raise ParamFileError(f"{path}:{parsed.line}: genome {parsed.id} has a gene {name!r} the run does not")
    genes = {}
    for spec in specs:
        if spec.name not in parsed.genes:
            raise ParamFileError(f"{path}:{parsed.line}: genome {parsed.id} lacks the gene {spec.name!r}")
        priority, pairs = parsed.genes[spec.name]
        if tuple(name for name, _ in pairs) != spec.params:
            raise ParamFileError(f"{path}:{parsed.line}: genome {parsed.id}'s gene {spec.name!r} holds other "
                                 "parameters than the run's")
        genes[spec.name] = Gene(priority, tuple(weight for _, weight in pairs))
    return Genome(parsed.id, parsed.parents, genes)
