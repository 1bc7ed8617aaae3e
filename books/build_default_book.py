"""Rebuild books/pyrope.bin, Pyrope's default opening book, from books/openings.txt and Pyrope's
own searches:

    python3 books/build_default_book.py [--depth 14] [--margin 35] [--limit 150] [--min-plies 16]

1. The named lines of openings.txt are read; python-chess checks every SAN move.
2. From the start position, level by level, every position of the tree is searched at --depth by
   the engine as it ships -- the shipped net evaluating, as in play (one thread, a cleared hash
   before each search, so a rebuild gives the same book): once for the best move and its score,
   once over the book's moves (MultiPV) for theirs.
3. A book move stays when it scores within --margin centipawns of the best move and leaves a
   position within +-(--limit) (lost for neither side at that depth). A position whose lines all
   end, or lose every move, before --min-plies plies is extended with Pyrope's best move, so every
   line of the book is at least that deep unless the search finds it turning bad.
4. Weight: the number of named lines through the move times (100 - 2 x its drop in centipawns);
   an extension move counts as one line.
5. The book is written with books/pyrope.bin.provenance: the command, the commit, the SHA-256 of
   the net that searched and of the shipped hand-crafted weights, the settings, the SHA-256 of
   openings.txt and of the book, and what the search kept and dropped.
"""
from __future__ import annotations

import argparse
import collections
import concurrent.futures
import datetime
import hashlib
import os
import re
import subprocess
import sys
from pathlib import Path

import chess

from pyrope import Board
from pyrope._core import Search, polyglot_move_code
from pyrope.book.builder import write_book
import pyrope.weights
from pyrope.nnue import loader

HERE = Path(__file__).resolve().parent
MATE_CP = 30_000
DEFAULT_PARAMS = Path(pyrope.weights.__file__).with_name("default.params")   # the shipped weights


def read_lines(path: Path) -> list[tuple[str, list[str]]]:
    """(name, UCI moves) of each named line; a wrong move stops the build naming its line."""
    lines = []
    for number, text in enumerate(path.read_text().splitlines(), start=1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        name, _, movetext = (part.strip() for part in text.partition("|"))
        board, moves = chess.Board(), []
        for token in movetext.split():
            if re.fullmatch(r"\d+\.(\.\.)?", token):
                continue
            try:
                moves.append(board.push_san(token).uci())
            except ValueError as error:
                sys.exit(f"{path}:{number} ({name}): {token} cannot be played: {error}")
        lines.append((name, moves))
    return lines


def centipawns(line: dict) -> int:
    if "mate" in line:
        return MATE_CP if line["mate"] > 0 else -MATE_CP
    return line["cp"]


_search: Search | None = None


def examine(task: tuple[str, tuple[str, ...], int]) -> tuple[str, int, dict[str, int]]:
    """In a worker: (best move, its score, {book move: score}) of a position at `depth`."""
    global _search
    fen, book_moves, depth = task
    if _search is None:
        loader.load(str(loader.DEFAULT_NET))     # the evaluation that plays the book's games
        _search = Search(threads=1, hash_mb=64)
    _search.clear()
    best = _search.run(Board(fen), depth=depth)
    scores = {}
    if book_moves:
        _search.clear()
        result = _search.run(Board(fen), depth=depth, multipv=len(book_moves), searchmoves=list(book_moves))
        scores = {line["pv"][0]: centipawns(line) for line in result["lines"]}
    return best["move"], centipawns(best["score"]), scores


def build(lines: list[tuple[str, list[str]]], args: argparse.Namespace) -> tuple[list, dict]:
    # The named tree: lines through each (position key, move), and a board for each position.
    through: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    for _, moves in lines:
        board = Board()
        for move in moves:
            through[board.key][move] += 1
            board.push(move)
    entries, stats = [], collections.Counter()
    level = {Board().key: (Board(), 0)}
    seen = set(level)
    with concurrent.futures.ProcessPoolExecutor(args.workers) as pool:
        while level:
            tasks = [(board.fen(), tuple(through[key]), args.depth) for key, (board, _) in level.items()]
            results = pool.map(examine, tasks)
            next_level = {}
            for (key, (board, ply)), (best_move, best_score, scores) in zip(level.items(), results):
                kept = {}
                for move, score in scores.items():
                    drop = best_score - score
                    if drop > args.margin:
                        stats["dropped: worse than the best move by more than the margin"] += 1
                    elif abs(score) > args.limit:
                        stats["dropped: leaves a position beyond the limit"] += 1
                    else:
                        kept[move] = through[key][move] * (100 - 2 * max(drop, 0))
                if not kept and ply < args.min_plies and abs(best_score) <= args.limit:
                    kept[best_move] = 100
                    stats["extended with Pyrope's best move"] += 1
                stats["moves kept"] += len(kept)
                for move, weight in kept.items():
                    entries.append((key, polyglot_move_code(board, move), weight, 0))
                    child = board.copy()
                    child.push(move)
                    if child.key not in seen:
                        seen.add(child.key)
                        next_level[child.key] = (child, ply + 1)
            print(f"ply {ply}: {len(level)} positions searched, {len(entries)} book moves so far", flush=True)
            level = next_level
    return entries, stats


def line_depths(path: Path, lines: list[tuple[str, list[str]]]) -> list[int]:
    """How many plies of each named line the book follows from the start."""
    from pyrope import Book
    book = Book(path)
    depths = []
    for _, moves in lines:
        board, depth = Board(), 0
        for move in moves:
            if move not in [m for m, _, _ in book.probe(board)[0]]:
                break
            board.push(move)
            depth += 1
        while True:     # and on along the heaviest book moves
            legal = book.probe(board)[0]
            if not legal or depth > 60:
                break
            board.push(max(legal, key=lambda entry: entry[1])[0])
            depth += 1
        depths.append(depth)
    return depths


def sha256(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--openings", default=str(HERE / "openings.txt"))
    parser.add_argument("-o", "--output", default=str(HERE / "pyrope.bin"))
    parser.add_argument("--depth", type=int, default=14, help="search depth for every position")
    parser.add_argument("--margin", type=int, default=35, help="largest drop (cp) a book move may have")
    parser.add_argument("--limit", type=int, default=150, help="largest |score| (cp) of a book position")
    parser.add_argument("--min-plies", type=int, default=16, help="extend lines to at least this many plies")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    openings = Path(args.openings)
    lines = read_lines(openings)
    entries, stats = build(lines, args)
    size = write_book(args.output, entries)
    depths = sorted(line_depths(Path(args.output), lines))
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=HERE, capture_output=True, text=True).stdout.strip()
    record = [
        f"file: {Path(args.output).name}",
        f"built: {datetime.date.today()} by python3 books/build_default_book.py --depth {args.depth} "
        f"--margin {args.margin} --limit {args.limit} --min-plies {args.min_plies}",
        f"commit: {commit or 'unknown'} (Pyrope's search at that commit)",
        f"net: {loader.DEFAULT_NET.name} sha256 {sha256(loader.DEFAULT_NET)} (it evaluated every search)",
        f"weights: {DEFAULT_PARAMS.name} sha256 {sha256(DEFAULT_PARAMS)} (the shipped hand-crafted "
        f"weights, which the search does not consult while the net evaluates)",
        f"input: {openings.name} sha256 {sha256(openings)} ({len(lines)} named lines)",
        f"output: sha256 {sha256(Path(args.output))}, {size} bytes, "
        f"{size // 16} moves in {len({e[0] for e in entries})} positions",
        f"named lines followed from the start (plies, named moves then heaviest book moves): "
        f"min {depths[0]}, median {depths[len(depths) // 2]}, max {depths[-1]}",
        *(f"{reason}: {count}" for reason, count in sorted(stats.items())),
        "licence: GPL-3.0-or-later, as Pyrope (openings.txt is Pyrope's own text; the rest is its search)",
    ]
    Path(args.output + ".provenance").write_text("\n".join(record) + "\n")
    print("\n".join(record))
    return 0


if __name__ == "__main__":
    sys.exit(main())
