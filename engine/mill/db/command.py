"""`pyrope mill db ...`: build, describe, probe and verify Mill endgame databases."""
from __future__ import annotations

import argparse
import os
from pathlib import Path

from ... import console
from ..board import MillBoard
from ..geometry import POINTS
from ..rules import VARIANTS, MillRules
from . import tables
from .build import load_or_build, parse_classes
from .probe import DEFAULT_DIR, MillDatabase
from .verify import check_class


def add_arguments(parser: argparse.ArgumentParser) -> None:
    actions = parser.add_subparsers(dest="db_command", required=True, metavar="ACTION")
    build = actions.add_parser("build", help="solve classes by retrograde analysis into a directory",
                               description="Solve placement-free classes (stone counts on the board, both "
                                           "hands empty), each after the smaller classes it removes into.")
    build.add_argument("--variant", choices=sorted(VARIANTS), default="nine")
    build.add_argument("--classes", required=True, help="stone counts, e.g. 3-3,4-3,4-4,5-3")
    build.add_argument("--out", type=Path, required=True, help="directory for the files")
    build.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                       help="threads for the first pass (default: every core)")
    info = actions.add_parser("info", help="list the database files in a directory and what they hold")
    info.add_argument("dir", type=Path, nargs="?", default=DEFAULT_DIR)
    probe = actions.add_parser("probe", help="the value and perfect turn of a position (a Mill FEN)")
    probe.add_argument("fen")
    probe.add_argument("--variant", choices=sorted(VARIANTS), default="nine")
    probe.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    verify = actions.add_parser("verify", help="check checksums, and entries against their successors")
    verify.add_argument("--variant", choices=sorted(VARIANTS), default="nine")
    verify.add_argument("--dir", type=Path, default=DEFAULT_DIR)
    verify.add_argument("--sample", type=console.non_negative_int, default=2000,
                        help="entries per section checked against their successors (0: all; default %(default)s)")


def run(args: argparse.Namespace) -> int:
    # A directory to read that is not there is bad input (exit 2), though the engine plays on without
    # it; a file in it that fails its checks is named and left out, and verify counts it a fault (exit 1).
    if args.db_command != "build" and not args.dir.is_dir():
        raise console.InputError(f"{args.dir}: no such directory")
    return {"build": _build, "info": _info, "probe": _probe, "verify": _verify}[args.db_command](args)


def _build(args) -> int:
    rules = MillRules.from_options(args.variant)
    load_or_build(rules, parse_classes(args.classes), args.out, max(1, args.threads), progress=True,
                  report=lambda line: print(line, flush=True))
    return 0


def _info(args) -> int:
    names: dict[str, str] = {}
    for name, rules in VARIANTS.items():      # presets that share their rules after placement share tables
        fp = tables.fingerprint(rules).hex()[:8]
        names[fp] = f"{names[fp]}/{name}" if fp in names else name
    paths = sorted(args.dir.glob("*.mdb"))
    if not paths:
        print(f"No Mill database files in {args.dir}.")
    for path in paths:
        try:
            table = tables.open_table(path, None, check=True)
        except tables.TableError as error:
            print(error)
            continue
        fp = path.stem.rsplit("-", 1)[-1]
        print(f"{path.name}: class {table.a}-{table.b}, rules {names.get(fp, 'unknown (' + fp + ')')}, "
              f"{sum(table.sizes):,} entries, {path.stat().st_size:,} bytes, CRC-32 {table.crc:08x} checked")
    return 0


def _probe(args) -> int:
    board = MillBoard(args.fen, args.variant)
    db = MillDatabase(board.rules, args.dir)
    for error in db.errors:
        print(error)
    position = board._core.position()
    value = db.probe(position)
    if value is None:
        print("Not in the loaded classes (both hands must be empty, no removal owed; loaded: "
              f"{', '.join(f'{a}-{b}' for a, b in db.classes) or 'none'}).")
        return 1
    print(f"{board.turn} to move: {value.result}" + (f" in {value.distance} turns" if value.distance is not None else ""))
    best = db.best_turn(position)
    if best is not None:
        print(f"perfect turn: {board._text(best[0])}")
    return 0


def _verify(args) -> int:
    rules = MillRules.from_options(args.variant)
    db = MillDatabase(rules, args.dir)
    for error in db.errors:
        print(error)
    faults = len(db.errors)
    for a, b in db.classes:
        checked, found = check_class(db, a, b, args.sample or None)
        print(f"class {a}-{b}: checksum ok, {checked:,} entries checked against their successors, "
              f"{len(found)} faults")
        for fault in found[:10]:
            print(f"  {fault}")
        faults += len(found)
    return 1 if faults else 0
