"""Generating Pyrope's DTM tables: which tables an ending needs first (the smaller endings its
captures and promotions reach), the progress bar, and each table's summary. The work itself is
the compiled DtmGenerator (ext/dtm_generate.pxi)."""
from __future__ import annotations

import itertools
import os
import time
from dataclasses import dataclass

from .. import console
from .._core import DTM_EXTENSION, DtmGenerator, DtmTables, dtm_table_name

PIECES = "QRBNP"
PROMOTIONS = "QRBN"
INIT_CHUNK = 1 << 18        # positions per step of the first pass (one progress update each)
# Values per compressed block: a probe decodes up to half a block on average. 2048 against 8192:
# probes 2.5 against 10.4 us, files 8-17% larger (KQvKR, KBNvK; bench/dtm.py times the probe).
BLOCK_SIZE = 2048


@dataclass
class TableSummary:
    name: str
    positions: int              # legal positions, both sides to move
    wins: int                   # won for the side to move
    draws: int
    losses: int
    longest_mate_moves: int     # the longest forced mate, in moves of the winning side
    seconds: float
    bytes: int


def smaller_endings(name: str) -> set[str]:
    """The endings one capture or one promotion leads to (two bare kings need no table)."""
    white, black = name.split("v")
    reached = set()
    for side, other, swap in ((white, black, False), (black, white, True)):
        for i, letter in enumerate(side):
            if letter == "K":
                continue
            changes = [""] + (list(PROMOTIONS) if letter == "P" else [])
            for replacement in changes:
                changed = side[:i] + replacement + side[i + 1:]
                if changed == "K" and other == "K":
                    continue
                reached.add(dtm_table_name(f"{other}v{changed}" if swap else f"{changed}v{other}"))
    return reached


def all_endings(men: int, pawns: bool = True) -> list[str]:
    """Every ending of exactly `men` men (kings included), by canonical name."""
    letters = PIECES if pawns else PIECES[:-1]
    names = set()
    for extra in range(men - 1):
        for white in itertools.combinations_with_replacement(letters, extra):
            for black in itertools.combinations_with_replacement(letters, men - 2 - extra):
                if white or black:
                    names.add(dtm_table_name("K" + "".join(white) + "vK" + "".join(black)))
    return by_size(names)


def by_size(names) -> list[str]:
    """Endings with fewer men first, then by name."""
    return sorted(names, key=lambda name: (len(name), name))


def plan(wanted: list[str], available: set[str]) -> list[str]:
    """The tables to make, each after those it needs: the wanted ones and whatever they need
    that `available` (tables already on disk) lacks. Wanted tables are made even if available."""
    order: list[str] = []

    def visit(name: str, forced: bool) -> None:
        if name in order or (name in available and not forced):
            return
        for smaller in sorted(smaller_endings(name)):
            visit(smaller, False)
        order.append(name)

    for name in wanted:
        visit(dtm_table_name(name), True)
    return order


def available_tables(directories: list[str]) -> set[str]:
    names = set()
    for directory in directories:
        if os.path.isdir(directory):
            names.update(DtmTables(directory).files)
    return names


def generate_table(name: str, out: str, search_path: list[str], block_size: int = BLOCK_SIZE) -> TableSummary:
    """Make one table into `out` (the smaller tables it needs come from out and search_path),
    with progress bars on a terminal (console.progress)."""
    start = time.perf_counter()
    generator = DtmGenerator(name, DtmTables(os.pathsep.join([out, *search_path])))
    with console.progress(total=generator.entries, desc=f"{generator.name} setup", unit="pos",
                          unit_scale=True, leave=False) as bar:
        for first in range(0, generator.entries, INIT_CHUNK):
            generator.initialise(first, first + INIT_CHUNK)
            bar.update(min(INIT_CHUNK, generator.entries - first))
    with console.progress(desc=f"{generator.name} mate distances", unit=" plies", leave=False) as bar:
        while generator.run_level():
            bar.update(1)
    size = generator.write(os.path.join(out, generator.name + DTM_EXTENSION), block_size)
    stats = generator.stats()
    wins, draws, losses = (sum(stats[key]) for key in ("wins", "draws", "losses"))
    return TableSummary(generator.name, wins + draws + losses, wins, draws, losses,
                        (stats["longest_mate_plies"] + 1) // 2, time.perf_counter() - start, size)


SUMMARY_HEADER = f"{'table':<8} {'positions':>11} {'wins':>6} {'draws':>6} {'losses':>6} {'longest mate':>13} {'seconds':>8} {'size':>9}"


def summary_line(s: TableSummary) -> str:
    def share(count: int) -> str:
        return f"{100 * count / s.positions:5.1f}%" if s.positions else "    -"
    mate = plural(s.longest_mate_moves, "move") if s.longest_mate_moves else "-"
    return (f"{s.name:<8} {s.positions:>11,} {share(s.wins):>6} {share(s.draws):>6} {share(s.losses):>6} "
            f"{mate:>13} {s.seconds:>8.1f} {s.bytes / 1e6:>7.2f}MB")




def plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
