"""`pyrope tb`: make, check, list and probe Pyrope's own endgame tables (distance to mate)."""
from __future__ import annotations

import argparse
import os

from .. import console
from .._core import DTM_HEADER, Board, DtmTables, TablebaseError, Tablebases, dtm_table_name
from ..play.tablebases import DEFAULT_DTM_PATH
from .generate import (BLOCK_SIZE, SUMMARY_HEADER, TableSummary, all_endings, available_tables, by_size,
                       generate_table, plan, plural, summary_line)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.epilog = ("examples:\n"
                     "  pyrope tb generate KRPvK KPvKP --out ~/pyrope-tables\n"
                     "  pyrope tb generate --men 4 --out ~/pyrope-tables\n"
                     "  pyrope tb verify --dir ~/pyrope-tables --syzygy ~/syzygy\n"
                     "  pyrope tb probe '8/8/8/8/8/2k5/8/KBN5 w - - 0 1'")
    commands = parser.add_subparsers(dest="tb_command", required=True, metavar="ACTION")
    generate = commands.add_parser(
        "generate", help="make tables by retrograde analysis",
        description="Make distance-to-mate tables for endings of up to 5 men, and first any smaller "
                    "table they need (captures and promotions lead there) that is not yet in --out "
                    "or the shipped set. Example: pyrope tb generate KRPvK KPvKP --out ~/pyrope-tb")
    generate.add_argument("endings", nargs="*", help="endings such as KRvK KQvKR KPvKP")
    generate.add_argument("--men", type=int, choices=(3, 4, 5), help="also every ending of this many men")
    generate.add_argument("--pawnless", action="store_true", help="with --men: only endings without pawns")
    generate.add_argument("--out", default=".", help="directory for the tables (default: the current one)")
    generate.add_argument("--block-size", type=block_size, default=BLOCK_SIZE,
                          help="values per compressed block, up to 65536 (smaller: faster probes, larger files)")
    verify = commands.add_parser(
        "verify", help="compare every position of tables with Syzygy's win/draw/loss",
        description="Check that every position of Pyrope's tables has the result Syzygy's WDL tables "
                    "give (the fifty-move rule aside).")
    verify.add_argument("endings", nargs="*", help="endings to check (default: every table found)")
    verify.add_argument("--dir", default=str(DEFAULT_DTM_PATH), help="Pyrope's tables (default: the shipped set)")
    verify.add_argument("--syzygy", required=True, help="Syzygy directories, separated by os.pathsep")
    info = commands.add_parser("info", help="list tables with their results and longest mates")
    info.add_argument("--dir", default=str(DEFAULT_DTM_PATH), help="Pyrope's tables (default: the shipped set)")
    probe = commands.add_parser("probe", help="a position's result, distance to mate and best moves")
    probe.add_argument("fen", help="the position (FEN)")
    probe.add_argument("--dir", default=str(DEFAULT_DTM_PATH), help="Pyrope's tables (default: the shipped set)")


def block_size(text: str) -> int:
    """An argparse type: values per block, 1 to 65536 as the format holds. Checked here, as bad usage:
    the writer would divide by 0, or refuse a larger size only once the table is generated."""
    value = console.positive_int(text)
    if value > 65536:
        raise argparse.ArgumentTypeError(f"{value} is more than 65536")
    return value


def run(args: argparse.Namespace) -> int:
    # A bad name, FEN or table raises TablebaseError or FenError: the command line reports it (exit 2).
    return {"generate": run_generate, "verify": run_verify, "info": run_info,
            "probe": run_probe}[args.tb_command](args)


def run_generate(args: argparse.Namespace) -> int:
    wanted = list(args.endings) + (all_endings(args.men, pawns=not args.pawnless) if args.men else [])
    if not wanted:
        raise console.InputError("name endings (KRvK ...) or give --men")
    os.makedirs(args.out, exist_ok=True)
    search_path = [str(DEFAULT_DTM_PATH)]
    order = plan(wanted, available_tables([args.out, *search_path]))
    summaries: list[TableSummary] = []
    print(f"{len(order)} table(s) to make in {args.out}: {' '.join(order)}")
    print(SUMMARY_HEADER)
    for name in order:
        summary = generate_table(name, args.out, search_path, block_size=args.block_size)
        summaries.append(summary)
        print(summary_line(summary), flush=True)
    total = sum(s.seconds for s in summaries)
    print(f"{len(summaries)} table(s), {sum(s.positions for s in summaries):,} positions, "
          f"{sum(s.bytes for s in summaries) / 1e6:.1f} MB, {total:.1f} s")
    return 0


def readable(tables: DtmTables | Tablebases) -> DtmTables | Tablebases:
    """`tables` (Pyrope's or Syzygy's) if every directory named could be read and held tables, else
    InputError naming the first that could not: the engine plays on without such a directory, but a
    command told to read it cannot."""
    if tables.problems:
        raise console.InputError(tables.problems[0])
    return tables


def run_verify(args: argparse.Namespace) -> int:
    readable(Tablebases(args.syzygy))      # loads the Syzygy tables that compare_with_syzygy reads
    tables = readable(DtmTables(args.dir))
    try:
        tables.load_into_memory()       # reads every table whole, checking its checksum
    except TablebaseError as error:     # a damaged table is a fault verify is there to find: exit 1, not 2
        print(error)
        return 1
    names = [dtm_table_name(name) for name in args.endings] or by_size(tables.files)
    failed = 0
    for name in names:
        compared, disagreements = tables.compare_with_syzygy(name)
        verdict = "agrees" if not disagreements else f"DISAGREES ({len(disagreements)}+ positions)"
        print(f"{name:<8} {compared:>11,} positions {verdict}")
        for fen, ours, theirs in disagreements:
            print(f"    {fen}: Pyrope {RESULTS[ours]}, Syzygy WDL {theirs}")
        failed += bool(disagreements)
    return 1 if failed else 0


RESULTS = {1: "win", 0: "draw", -1: "loss"}


def run_info(args: argparse.Namespace) -> int:
    tables = readable(DtmTables(args.dir))
    print(f"{'table':<8} {'positions':>11} {'white to move W/D/L':>22} {'black to move W/D/L':>22} {'longest mate':>13} {'size':>9}")
    for name in by_size(tables.files):
        path = tables.files[name]
        with open(path, "rb") as f:
            fields = DTM_HEADER.unpack(f.read(DTM_HEADER.size).ljust(DTM_HEADER.size, b"\0"))
        if fields[0] != b"PyropeTB":
            print(f"{name:<8} {path}: not a Pyrope table")
            continue
        wins, draws, losses = fields[9:11], fields[11:13], fields[13:15]
        sides = [f"{wins[s]:,}/{draws[s]:,}/{losses[s]:,}" for s in (0, 1)]
        mate = plural((fields[15] + 1) // 2, "move") if fields[15] else "-"
        print(f"{name:<8} {sum(wins) + sum(draws) + sum(losses):>11,} {sides[0]:>22} {sides[1]:>22} "
              f"{mate:>13} {os.path.getsize(path) / 1e6:>7.2f}MB")
    return 0


def run_probe(args: argparse.Namespace) -> int:
    tables = readable(DtmTables(args.dir))
    board = Board(args.fen)
    result, plies = tables.probe(board)
    print(f"{board.fen()}: {verdict(result, plies)}")
    for move in board.legal_moves():
        child = board.copy()
        child.push(move)
        child_result, child_plies = tables.probe(child)
        print(f"  {move:<6} {verdict(-child_result, child_plies + 1 if child_result else 0)}")
    return 0


def verdict(result: int, plies: int) -> str:
    if result > 0:
        return f"win, mate in {(plies + 1) // 2} ({plies} plies)"
    if result < 0:
        return f"loss, mated in {plies // 2} ({plies} plies)" if plies else "checkmated"
    return "draw"


