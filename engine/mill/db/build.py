"""Build databases: each requested class after the smaller classes its removals lead to (built
first when missing), solved by MillDBCore over threads, written to a directory, one summary a class."""
from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from tqdm import tqdm

from ..._mill import MillDBCore
from ...console import InputError
from ..rules import MillRules
from . import tables
from .symmetry import symmetries

CHUNKS = 256        # first-pass work units a class is split into (progress and threads)


def parse_classes(text: str) -> list[tuple[int, int]]:
    """'3-3,4-3' -> [(3, 3), (4, 3)], each as (larger, smaller); InputError naming a bad one."""
    out = []
    for item in text.split(","):
        parts = item.strip().split("-")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise InputError(f"'{item}' is not a class; write stone counts as 4-3.")
        a, b = sorted(map(int, parts), reverse=True)
        if b < 3 or a > 12 or a + b > 24:
            raise InputError(f"Class {item} is impossible: each side holds 3 to 12 stones.")
        out.append((a, b))
    return out


def dependencies(rules: MillRules, a: int, b: int) -> set[tuple[int, int]]:
    """Classes one turn of class a-b removes into."""
    deps = set()
    for mover, other in ((a, b), (b, a)):
        for k in range(1, rules.max_removals + 1):
            if other - k >= 3:
                deps.add(tuple(sorted((mover, other - k), reverse=True)))
    return deps


def order(rules: MillRules, wanted: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The wanted classes and all they need, each after what it needs."""
    seen: set[tuple[int, int]] = set()
    out: list[tuple[int, int]] = []

    def visit(cls):
        if cls in seen:
            return
        seen.add(cls)
        for dep in sorted(dependencies(rules, *cls)):
            visit(dep)
        out.append(cls)

    for cls in wanted:
        visit(cls)
    return out


def new_core(rules: MillRules) -> MillDBCore:
    return MillDBCore(rules.core_values(), rules.lines(), symmetries(rules.lines()))


@dataclass
class Summary:
    a: int
    b: int
    entries: int
    won: int
    drawn: int
    lost: int
    longest_win: int
    seconds: float
    bytes: int
    path: Path

    def line(self) -> str:
        positions = self.won + self.drawn + self.lost
        return (f"class {self.a}-{self.b}: {self.entries:,} entries, {positions:,} positions up to symmetry "
                f"(side to move wins {self.won:,}, draws {self.drawn:,}, loses {self.lost:,}), longest win "
                f"{self.longest_win} turns, {self.seconds:.1f} s, {self.bytes:,} bytes -> {self.path.name}")


def solve_class(core: MillDBCore, a: int, b: int, threads: int = 1, progress: bool = False):
    """Solve class a-b (its dependencies attached to core); returns (entries as uint16 memoryview,
    per-section (won, drawn, lost, longest win))."""
    size = core.section_size(a, b) + (core.section_size(b, a) if a != b else 0)
    entries = memoryview(bytearray(2 * size)).cast("H")
    total = core.begin(a, b, entries)
    bounds = [total * i // CHUNKS for i in range(CHUNKS + 1)]
    top = 0
    with tqdm(total=total, desc=f"{a}-{b} first pass", unit=" pos", disable=not progress, leave=False) as bar:
        with ThreadPoolExecutor(max(1, threads)) as pool:
            for lo, hi, found in zip(bounds, bounds[1:], pool.map(core.init_range, bounds[:-1], bounds[1:])):
                top = max(top, found)
                bar.update(hi - lo)
    k = 0
    with tqdm(desc=f"{a}-{b} levels", unit=" level", disable=not progress, leave=False) as bar:
        while k <= top:
            top = core.level(k, top)
            k += 1
            bar.update(1)
    return entries, core.finish()


def load_or_build(rules: MillRules, classes: list[tuple[int, int]], out: Path, threads: int = 1,
                  progress: bool = False, report: Callable[[str], None] = print) -> list[Summary]:
    """Build the classes (and what they need) into out; a valid file already there is reused."""
    if rules.StalemateAction not in (0, 4):
        raise ValueError(f"Databases are solved for StalemateAction 0 or 4 (a blocked side loses or draws), "
                         f"not {rules.StalemateAction}: a blocked side that passes or takes a stone is not solved.")
    out.mkdir(parents=True, exist_ok=True)
    core = new_core(rules)
    summaries = []      # the core keeps what it attaches alive: files mapped, classes built
    for a, b in order(rules, classes):
        path = out / tables.file_name(rules, a, b)
        sizes = (core.section_size(a, b), core.section_size(b, a) if a != b else 0)
        if path.exists():
            try:
                table = tables.open_table(path, rules, sizes)
            except tables.TableError as error:
                report(f"{error} Building it again.")
            else:
                report(f"class {a}-{b}: {path.name} is there and valid; not rebuilt.")
                for (m, o), view in table.sections().items():
                    core.attach(m, o, view)
                continue
        start = time.perf_counter()
        entries, counts = solve_class(core, a, b, threads, progress)
        seconds = time.perf_counter() - start
        narrow = memoryview(bytearray(len(entries)))
        width, payload = (1, narrow) if core.narrow(entries, narrow) < 256 else (2, entries)
        size = tables.write(path, rules, a, b, sizes, payload, width)
        won = sum(c[0] for c in counts[:1 + (a != b)])
        drawn = sum(c[1] for c in counts[:1 + (a != b)])
        lost = sum(c[2] for c in counts[:1 + (a != b)])
        longest = max(c[3] for c in counts)
        summary = Summary(a, b, sum(sizes), won, drawn, lost, longest, seconds, size, path)
        report(summary.line())
        summaries.append(summary)
    return summaries
