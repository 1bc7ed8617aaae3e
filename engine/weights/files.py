"""The evaluation's weights as files: what `EvalFile` and the tools read and write.

Two formats. A parameter file: `name = value` lines, one per weight, `#` comments (the shipped
default.params, what Texel and SPSA write). A genome file of `pyrope evolve` (Genetic Chess,
section 4.4): `ID:` opens a genome and `END` closes it, `Parents:` names its parents, `Name:` opens
each gene, then `Priority:` and one `parameter: weight` line per weight; a genome sets each of its
parameters to weight x priority, the others keep their defaults. The engine reads both (EvalFile);
the evolution's operators on genomes live in selfplay/evolve/genome.py.
"""
from __future__ import annotations

import hashlib
import math
import os
import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from .. import console
from .._core import ParamFileError, default_eval_params, eval_param_names, read_eval_params

# The weights that are not centipawns, by name prefix: the king attack's units (its danger is
# units^2 x king_danger) and the endgame scale factors (out of 64).
DANGER_UNITS = ("king_attack_weight_", "safe_check_", "king_zone_attack")
SCALE_FACTORS = "scale_"


def read_weights(target: str) -> dict[str, int]:
    """Every evaluation parameter as `target` sets it, as EvalFile reads it: a parameter file of
    `name = value` lines, or a genome of `pyrope evolve` (FILE#ID, or a genome file's oldest);
    ParamFileError naming the fault. The weights in use do not change."""
    if is_genome_target(target):
        return {**default_eval_params(), **load_genome(target).params()}
    return dict(zip(eval_param_names(), read_eval_params(target)))


def weights_text(weights: Mapping[str, int], comment: str) -> str:
    """A parameter file's text (what read_weights and EvalFile read): `# comment` lines, then
    `name = value` for every weight."""
    return "".join(f"# {line}\n" for line in comment.splitlines()) \
        + "".join(f"{name} = {value}\n" for name, value in weights.items())


def weights_hash(weights: dict[str, int]) -> str:
    """A SHA-256 of a full set of weights (in table order): what provenance records name them by."""
    return hashlib.sha256(repr(tuple(weights.items())).encode()).hexdigest()


@dataclass
class ParsedGenome:
    """A genome as a file holds it: per gene, its priority and its (parameter, weight) pairs."""
    id: int
    parents: tuple[int, ...]
    genes: dict[str, tuple[float, list[tuple[str, int]]]]
    line: int                   # where its ID stands

    def params(self) -> dict[str, int]:
        """The evaluation parameters it sets, as genome_params gives them."""
        return {name: round(weight * priority) for priority, pairs in self.genes.values() for name, weight in pairs}


_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def parse_genomes(text: str, path: str, known: Iterable[str]) -> list[ParsedGenome]:
    """Every genome of a genome file; ParamFileError naming the file and line of the first fault
    (no END, a repeated ID, a parameter that is not one of `known` or given twice, a value that is
    not a number, a weight outside the integers)."""
    known = set(known)
    genomes: list[ParsedGenome] = []
    seen_ids: dict[int, int] = {}
    current: ParsedGenome | None = None
    gene: tuple[float | None, list] | None = None
    gene_name = ""
    params_seen: set[str] = set()

    def fail(number: int, what: str):
        raise ParamFileError(f"{path}:{number}: {what}")

    def close_gene(number: int) -> None:
        if gene is not None:
            if gene[0] is None:
                fail(number, f"gene {gene_name!r} has no Priority line")
            current.genes[gene_name] = (gene[0], gene[1])

    number = 0
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, colon, value = (part.strip() for part in line.partition(":"))
        if line == "END":
            if current is None:
                fail(number, "END without a genome")
            close_gene(number)
            genomes.append(current)
            current, gene = None, None
            continue
        if not colon:
            fail(number, f"expected 'key: value', not {line!r}")
        if key == "ID":
            if current is not None:
                fail(number, f"genome {current.id} (line {current.line}) has no END")
            if not value.isdigit():
                fail(number, f"ID must be a whole number, not {value!r}")
            genome_id = int(value)
            if genome_id in seen_ids:
                fail(number, f"ID {genome_id} is repeated (first on line {seen_ids[genome_id]})")
            seen_ids[genome_id] = number
            current, gene, params_seen = ParsedGenome(genome_id, (), {}, number), None, set()
            continue
        if current is None:
            fail(number, f"{key!r} outside a genome (no ID line before it)")
        if key == "Parents":
            if not all(part.isdigit() for part in value.split()):
                fail(number, f"Parents must be whole numbers, not {value!r}")
            current.parents = tuple(int(part) for part in value.split())
        elif key == "Name":
            close_gene(number)
            if value in current.genes:
                fail(number, f"gene {value!r} is repeated in genome {current.id}")
            gene_name, gene = value, (None, [])
        elif gene is None:
            fail(number, f"{key!r} outside a gene (no Name line before it)")
        elif not _NUMBER.fullmatch(value):
            fail(number, f"{key!r} needs a number, not {value!r}")
        elif key == "Priority":
            gene = (float(value), gene[1])
            if not math.isfinite(gene[0]) or gene[0] <= 0:
                fail(number, f"Priority must be a positive number, not {value!r}")
        elif key not in known:
            fail(number, f"unknown parameter {key!r}")
        elif key in params_seen:
            fail(number, f"parameter {key!r} is given twice in genome {current.id}")
        elif not re.fullmatch(r"[+-]?[0-9]+", value) or abs(int(value)) > 1 << 20:
            fail(number, f"parameter {key!r} needs a whole number within +-2**20, not {value!r}")
        else:
            params_seen.add(key)
            gene[1].append((key, int(value)))
    if current is not None:
        fail(number, f"genome {current.id} (line {current.line}) has no END")
    return genomes


def select_genome(genomes: Sequence[ParsedGenome], path: str, genome_id: int | None) -> ParsedGenome:
    """Genome `genome_id` of a file, or by default its oldest (the lowest ID: a pool file holds the
    living genomes, so that is the oldest living one, section 2)."""
    if not genomes:
        raise ParamFileError(f"{path}: holds no genome")
    if genome_id is None:
        return min(genomes, key=lambda genome: genome.id)
    for genome in genomes:
        if genome.id == genome_id:
            return genome
    raise ParamFileError(f"{path}: no genome with ID {genome_id}")


def is_genome_target(target: str) -> bool:
    """Whether an EvalFile value names a genome (FILE#ID, or a file whose first line is an ID:)
    rather than a file of `name = value` lines."""
    if not os.path.exists(target):
        return "#" in target
    try:
        with open(target, encoding="utf-8") as handle:
            for raw in handle:
                line = raw.split("#", 1)[0].strip()
                if line:
                    return line.startswith("ID:")
    except (OSError, UnicodeDecodeError):
        return False
    return False


def load_genome(target: str) -> ParsedGenome:
    """The genome `target` names: FILE#ID, or by default FILE's oldest. ParamFileError naming the
    file (and line) of any fault."""
    path, wanted = target, None
    if not os.path.exists(target) and "#" in target:
        path, _, number = target.rpartition("#")
        if not number.isdigit():
            raise ParamFileError(f"{target}: the part after # must be a genome ID, not {number!r}")
        wanted = int(number)
    try:
        with open(path, encoding="utf-8") as handle:
            text = handle.read()
    except (OSError, UnicodeDecodeError) as error:
        raise ParamFileError(f"{path}: cannot read the genome file: {console.sentence(error)}") from None
    return select_genome(parse_genomes(text, path, eval_param_names()), path, wanted)
