"""The opening book's numbers: probe time, and what the book did in a match.

    python3 bench/book.py probe [BOOK ...]          time the compiled probe on positions of each book
    python3 bench/book.py games PGN --engine NAME    book moves, clock saved and distinct games

`probe` walks each book at random (the positions a game meets: in the book, and a move off it),
then times `Book.probe` -- the C bisection plus matching against the legal moves, called from
Python as the engine calls it -- and `BookPlayer.choose` (the probe, the weighted draw and the
ponder-move probe of the next position), per position, median and 99th percentile.

`games` reads a `pyrope match` PGN: a book move is one whose comment has no score (the engine
printed no search). The clock saved is, per game, the sum over NAME's book moves of what the
other engine spent on the same move number on average, less what the book move took.
"""
from __future__ import annotations

import argparse
import collections
import random
import re
import statistics
import time

import chess
import chess.pgn

import pyrope
from pyrope.book.player import DEFAULT_BOOK, BookPlayer

SECONDS = re.compile(r"([\d.]+)s")


def book_positions(path: str, walks: int, seed: int) -> list[pyrope.Board]:
    rng = random.Random(seed)
    book = pyrope.Book(path)
    boards = []
    for _ in range(walks):
        board = pyrope.Board()
        while True:
            boards.append(board.copy())
            legal, _ = book.probe(board)
            if not legal or len(board.move_stack) > 40:
                break
            moves = [move for move, _, _ in legal]
            board.push(rng.choice(moves) if rng.random() > 0.1 else rng.choice(board.legal_moves()))
    return boards


def percentiles(samples: list[float]) -> str:
    samples = sorted(samples)
    return (f"median {statistics.median(samples) * 1e6:.2f} us, p99 {samples[len(samples) * 99 // 100] * 1e6:.2f} us, "
            f"max {samples[-1] * 1e6:.2f} us")


def run_probe(args: argparse.Namespace) -> None:
    for path in args.books or [str(DEFAULT_BOOK)]:
        boards = book_positions(path, args.walks, args.seed)
        book = pyrope.Book(path)
        player = BookPlayer()
        player.load(path)
        player.enabled = True
        rng = random.Random(args.seed)
        probes, choices = [], []
        for board in boards:
            start = time.perf_counter()
            book.probe(board)
            probes.append(time.perf_counter() - start)
            start = time.perf_counter()
            player.choose(board, rng)
            choices.append(time.perf_counter() - start)
        in_book = sum(1 for board in boards if book.probe(board)[0])
        print(f"{path}: {len(book)} entries; {len(boards)} positions ({in_book} in the book)")
        print(f"  Book.probe:          {percentiles(probes)}")
        print(f"  BookPlayer.choose:   {percentiles(choices)}")


def move_seconds(comment: str) -> float:
    found = SECONDS.search(comment)
    return float(found.group(1)) if found else 0.0


def is_book_move(comment: str) -> bool:
    return "/" not in comment.split(",")[0]      # searched moves carry score/depth


def run_games(args: argparse.Namespace) -> None:
    games = []
    with open(args.pgn) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    # Seconds each engine spent, by its move number; and each game's moves.
    spent = collections.defaultdict(list)
    book_moves, played = [], []
    for game in games:
        sides = {chess.WHITE: game.headers["White"], chess.BLACK: game.headers["Black"]}
        ours, in_book = [], 0
        board = game.board()
        for node in game.mainline():
            name = sides[board.turn]
            number = board.fullmove_number
            seconds = move_seconds(node.comment)
            if name == args.engine:
                if is_book_move(node.comment) and in_book == len(ours):
                    in_book += 1
                ours.append((number, seconds))
            else:
                spent[number].append(seconds)
            board.push(node.move)
        book_moves.append((in_book, ours[:in_book]))
        played.append(" ".join(node.move.uci() for node in game.mainline()))
    average = {number: statistics.mean(times) for number, times in spent.items()}
    saved = [sum(average.get(number, 0.0) - seconds for number, seconds in moves) for _, moves in book_moves]
    counts = [count for count, _ in book_moves]
    print(f"{len(games)} games; {args.engine}: {statistics.mean(counts):.1f} book moves a game "
          f"(min {min(counts)}, max {max(counts)})")
    print(f"clock saved by the book: {statistics.mean(saved):.2f} s a game on average "
          f"(the other engine's average time for the same move numbers, less the book moves' own time)")
    openings = {" ".join(game.split()[:12]) for game in played}
    print(f"distinct games: {len(set(played))} of {len(played)}; distinct first 12 plies: {len(openings)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    probe = commands.add_parser("probe", help="probe time on the positions of random walks")
    probe.add_argument("books", nargs="*", help="book files (default: Pyrope's own)")
    probe.add_argument("--walks", type=int, default=2000)
    probe.add_argument("--seed", type=int, default=1)
    games = commands.add_parser("games", help="book moves, clock saved and distinct games in a match PGN")
    games.add_argument("pgn")
    games.add_argument("--engine", required=True, help="the engine whose book moves are counted")
    args = parser.parse_args()
    run_probe(args) if args.command == "probe" else run_games(args)


if __name__ == "__main__":
    main()
