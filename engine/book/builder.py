"""Making Polyglot books: from PGN games, and by merging two books.

A book file is 16-byte big-endian entries (key, move, weight, learn) sorted by key; within a key
the heaviest move comes first. Keys and moves come from Pyrope's core (its position key is
Polyglot's); python-chess only reads the PGN.

Weights from games follow Polyglot's `make-book`: each game adds 2 to a move's score when the side
that played it won, 1 for a draw, 0 for a loss. A move seen in fewer than `min_games` games is
dropped, so is one with score 0 (it never won or drew: weight 0 means "deleted" to readers), and
when the heaviest move of the book exceeds 65535 every weight is scaled down to fit. `uniform`
gives every kept move weight 1.
"""
from __future__ import annotations

import collections
import os
import struct
from dataclasses import dataclass, field
from typing import Callable, Iterable

import chess
import chess.pgn

from .._core import Board, Book, FenError, IllegalMoveError, polyglot_move_code
from ..pgnfile import CHESS_VARIANTS, read_games

ENTRY = struct.Struct(">QHHI")
MAX_WEIGHT = 0xFFFF
RESULT_POINTS = {"1-0": (2, 0), "0-1": (0, 2), "1/2-1/2": (1, 1)}   # (White's, Black's)

Entry = tuple[int, int, int, int]       # key, move, weight, learn


@dataclass
class BuildOptions:
    max_ply: int = 40               # moves up to this game ply (1 = White's first move) are counted
    min_games: int = 3              # Polyglot's -min-game
    min_elo: int = 0                # count only the moves of players rated at least this
    only: str | None = None         # "white" or "black": count only that side's moves
    uniform: bool = False           # weight 1 for every move kept


@dataclass
class BuildSummary:
    games_read: int = 0
    games_used: int = 0
    skipped: list[tuple[int, str]] = field(default_factory=list)     # (game number, reason)
    positions: int = 0
    moves: int = 0
    file_size: int = 0

    def lines(self) -> list[str]:
        text = [f"games read: {self.games_read}, used: {self.games_used}, skipped: {len(self.skipped)}"]
        reasons = collections.Counter(reason.split(":")[0] for _, reason in self.skipped)
        text += [f"  skipped ({count}): {reason}" for reason, count in reasons.most_common()]
        text += [f"  game {number}: {reason}" for number, reason in self.skipped[:20]]
        if len(self.skipped) > 20:
            text.append(f"  ... and {len(self.skipped) - 20} more")
        text.append(f"positions: {self.positions}, moves: {self.moves}, file size: {self.file_size} bytes")
        return text


def rating(headers: chess.pgn.Headers, tag: str) -> int:
    try:
        return int(headers.get(tag, ""))
    except ValueError:
        return 0


def game_problem(game: chess.pgn.Game, options: BuildOptions) -> str | None:
    """Why a game cannot be used, or None."""
    if game.errors:
        return f"unreadable: {game.errors[0]}"
    variant = game.headers.get("Variant", "Standard").lower()
    if variant not in CHESS_VARIANTS:
        return f"variant {variant!r}: only chess and Chess960"
    if not options.uniform and game.headers.get("Result") not in RESULT_POINTS:
        return f"no result: {game.headers.get('Result', 'none')!r}"
    if options.min_elo and max(rating(game.headers, "WhiteElo"), rating(game.headers, "BlackElo")) < options.min_elo:
        return f"no player rated {options.min_elo} or more"
    return None


def add_game(game: chess.pgn.Game, options: BuildOptions, table: dict) -> str | None:
    """Count the game's moves into table[key][move] = [score, games]; return why it was skipped."""
    problem = game_problem(game, options)
    if problem is not None:
        return problem
    start = game.board()
    try:
        board = Board(start.fen(), chess960=start.chess960)
    except FenError as error:
        return f"bad start position: {error}"
    points = RESULT_POINTS.get(game.headers.get("Result"), (0, 0))
    elo = (rating(game.headers, "WhiteElo"), rating(game.headers, "BlackElo"))
    counted = []
    for ply, move in enumerate(game.mainline_moves(), start=1):
        if ply > options.max_ply:
            break
        side = 0 if board.white_to_move else 1
        wanted = (options.only in (None, ("white", "black")[side])
                  and (not options.min_elo or elo[side] >= options.min_elo))
        try:
            if wanted:
                counted.append((board.key, polyglot_move_code(board, move.uci()), points[side]))
            board.push(move.uci())
        except IllegalMoveError as error:
            return f"illegal move at ply {ply}: {error}"
    for key, raw, score in counted:
        entry = table[key][raw]
        entry[0] += score
        entry[1] += 1
    return None


def table_entries(table: dict, options: BuildOptions) -> list[Entry]:
    entries = []
    for key, moves in table.items():
        for raw, (score, games) in moves.items():
            if games >= options.min_games and (options.uniform or score > 0):
                entries.append((key, raw, 1 if options.uniform else score, 0))
    heaviest = max((weight for _, _, weight, _ in entries), default=0)
    if heaviest > MAX_WEIGHT:
        entries = [(key, raw, max(1, weight * MAX_WEIGHT // heaviest), learn) for key, raw, weight, learn in entries]
    return entries


def build(paths: Iterable[str], options: BuildOptions,
          progress: Callable[[Iterable[chess.pgn.Game]], Iterable[chess.pgn.Game]] = iter) -> tuple[list[Entry], BuildSummary]:
    """Entries of a book from the games in `paths`, and what happened to each game. `progress`
    wraps the stream of games (a tqdm bar in the command)."""
    table: dict = collections.defaultdict(lambda: collections.defaultdict(lambda: [0, 0]))
    summary = BuildSummary()
    for number, game in enumerate(progress(read_games(paths)), start=1):
        summary.games_read = number
        problem = add_game(game, options, table)
        if problem is None:
            summary.games_used += 1
        else:
            summary.skipped.append((number, problem))
    entries = table_entries(table, options)
    summary.positions = len({key for key, *_ in entries})
    summary.moves = len(entries)
    return entries, summary


def write_book(path: str, entries: Iterable[Entry]) -> int:
    """Write entries sorted as readers need them (by key; heaviest move first); return the size."""
    ordered = sorted(entries, key=lambda entry: (entry[0], -entry[2], entry[1]))
    with open(path, "wb") as handle:
        for entry in ordered:
            handle.write(ENTRY.pack(*entry))
    return os.path.getsize(path)


def read_entries(path: str) -> list[Entry]:
    """Every entry of a book, after the checks of opening it (BookError names what is wrong)."""
    Book(path)
    with open(path, "rb") as handle:
        return list(ENTRY.iter_unpack(handle.read()))


def merge(first: str, second: str) -> list[Entry]:
    """Polyglot's merge-book: a position in the first book keeps the first book's moves; positions
    only in the second come from it."""
    entries = read_entries(first)
    known = {key for key, *_ in entries}
    return entries + [entry for entry in read_entries(second) if entry[0] not in known]
