"""`pyrope book build|show|merge`: make a Polyglot book from PGN games, list a position's book
moves, merge two books."""
from __future__ import annotations

import argparse

import chess

from .. import console
from .._core import STARTING_FEN, Board
from .builder import BuildOptions, build, merge, write_book
from .player import DEFAULT_BOOK, BookPlayer, ranked


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.description = ("Polyglot opening books (.bin): build one from PGN games, list a position's "
                          "book moves, merge two books. `pyrope book ACTION --help` describes each.")
    parser.epilog = ("examples:\n"
                     "  pyrope book build games.pgn more.pgn -o my.bin --max-ply 30 --min-games 5\n"
                     "  pyrope book show\n"
                     "  pyrope book show rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1 --book my.bin\n"
                     "  pyrope book merge mine.bin theirs.bin -o both.bin")
    actions = parser.add_subparsers(dest="book_command", required=True, metavar="ACTION")
    make = actions.add_parser("build", help="make a book from PGN games",
                              description="Make a Polyglot book from PGN games. A move's weight is 2 per "
                                          "game its side won and 1 per draw (Polyglot's make-book). A "
                                          "progress bar counts the games read; a summary follows.")
    make.add_argument("pgn", nargs="+", help="PGN files")
    make.add_argument("-o", "--output", required=True, help="the book file to write")
    make.add_argument("--max-ply", type=console.positive_int, default=BuildOptions.max_ply,
                      help="count moves up to this game ply (default %(default)s)")
    make.add_argument("--min-games", type=console.positive_int, default=BuildOptions.min_games,
                      help="keep a move played in at least this many games (default %(default)s)")
    make.add_argument("--min-elo", type=int, default=0,
                      help="count only the moves of players rated at least this (missing ratings count as 0)")
    side = make.add_mutually_exclusive_group()
    side.add_argument("--only-white", action="store_true", help="count only White's moves")
    side.add_argument("--only-black", action="store_true", help="count only Black's moves")
    make.add_argument("--uniform", action="store_true", help="weight 1 for every move (results ignored)")
    show = actions.add_parser("show", help="the book moves of a position",
                              description="List a position's book moves: SAN, UCI, weight and share.")
    show.add_argument("fen", nargs="*", help="the position (default: the start position)")
    show.add_argument("--book", default=str(DEFAULT_BOOK), help="the book file (default: Pyrope's own)")
    show.add_argument("--chess960", action="store_true", help="Chess960 castling")
    join = actions.add_parser("merge", help="merge two books (the first wins where both have a position)",
                              description="Merge two books into a third; where both hold a position, the "
                                          "first book's moves are kept (Polyglot's merge-book).")
    join.add_argument("first", help="the book whose moves win")
    join.add_argument("second", help="the book that fills in the positions the first lacks")
    join.add_argument("-o", "--output", required=True, help="the book file to write")


def run(args: argparse.Namespace) -> int:
    # A book, FEN or PGN that cannot be used raises BookError, FenError or InputError: bad input, exit 2.
    return {"build": run_build, "show": run_show, "merge": run_merge}[args.book_command](args)


def run_build(args: argparse.Namespace) -> int:
    options = BuildOptions(max_ply=args.max_ply, min_games=args.min_games, min_elo=args.min_elo,
                           only="white" if args.only_white else "black" if args.only_black else None,
                           uniform=args.uniform)
    entries, summary = build(args.pgn, options, lambda games: console.progress(games, unit=" games", desc="reading"))
    summary.file_size = write_book(args.output, entries)
    print("\n".join(summary.lines()))
    return 0


def run_show(args: argparse.Namespace) -> int:
    fen = " ".join(args.fen) or STARTING_FEN
    board = Board(fen, chess960=args.chess960)
    player = BookPlayer()
    player.load(args.book)
    moves, illegal = player.entries(board)
    position = chess.Board(board.fen(), chess960=args.chess960)
    print(f"{args.book}: {len(moves)} book moves in {board.fen()}")
    for move, weight, share in ranked(moves):
        print(f"  {position.san(position.parse_uci(move)):8} {move:6} weight {weight:5}  {100 * share:5.1f}%")
    for index, stored in illegal:
        print(f"  entry {index}: {stored} is not a legal move here (never played)")
    return 0


def run_merge(args: argparse.Namespace) -> int:
    size = write_book(args.output, merge(args.first, args.second))
    print(f"{args.output}: {size // 16} entries, {size} bytes")
    return 0
