"""One self-play game in this process at a fixed node budget, and a bout (two games from one opening,
colours swapped) at a node budget or on a clock: what data generation, evolution and tuning play.

A game starts from a randomised opening (the start position or a line of an openings file, then
random plies; drawn again while it has ended or a search already calls it decided), is played by
searches at a node budget, and ends by the rules or by adjudication from the searches' scores
(docs/datagen.md has the rules). Everything follows from a seed, so a game at a node budget is the
same on any worker; a clocked game depends on the worker's speed as well.
"""
from __future__ import annotations

import random
import time
from typing import Callable, Mapping, Sequence

from .._core import Board, Search, default_eval_params, default_search_params, set_eval_params, set_search_params
from ..match.clock import TimeControl
from ..play.timeman import DEFAULT_MOVE_OVERHEAD_MS, FACTOR_NAMES, Limits, TimeFactors, factors_from, make_clock

OPENING_BOUND_CP = 300      # a randomised opening searched beyond this is already decided: draw again
OPENING_ATTEMPTS = 100
WIN_CP, WIN_PLIES = 1000, 6              # both sides agree for three moves each: adjudicated win
DRAW_CP, DRAW_PLIES, DRAW_FROM_PLY = 10, 12, 80     # six moves each near 0.00 after move 40: draw
MAX_PLIES = 600             # a safety net; the fifty-move rule nearly always ends a game first
MATE_CP = 32000             # a mate score as a number, for the adjudication and the quiet test
HASH_MB = 8                 # 512K entries: about the nodes of a whole game at 5000 a move

ENDS = {"White mates": "checkmate", "Black mates": "checkmate", "Stalemate": "stalemate",
        "Insufficient material": "insufficient material", "Fifty-move rule": "fifty moves",
        "Threefold repetition": "repetition"}


def white_score(result: dict, white_to_move: bool) -> int:
    """A search result's score in centipawns from white's point of view; mates as +-MATE_CP."""
    score = result["score"]
    value = score["cp"] if "cp" in score else (MATE_CP if score["mate"] > 0 else -MATE_CP)
    return value if white_to_move else -value


def game_ply(board: Board) -> int:
    return 2 * (board.fullmove_number - 1) + (not board.white_to_move)


def choose_opening(rng: random.Random, openings: Sequence[str], random_plies: int, nodes: int,
                   search: Search) -> Board:
    """The start position or a random line of `openings`, then `random_plies` random plies; drawn
    again while the position has ended or is already decided (its search score beyond
    OPENING_BOUND_CP)."""
    for _ in range(OPENING_ATTEMPTS):
        board = Board(rng.choice(openings)) if openings else Board()
        for _ in range(random_plies):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
        if board.outcome() is not None:
            continue
        if abs(white_score(search.run(board, nodes=nodes), board.white_to_move)) <= OPENING_BOUND_CP:
            return board
    raise RuntimeError(f"no balanced opening found in {OPENING_ATTEMPTS} tries: fewer random plies?")


class Adjudicator:
    """Ends a game early from the scores of successive searches (white's point of view): a win when
    WIN_PLIES searches in a row, both sides', give the same side WIN_CP or more; a draw when
    DRAW_PLIES searches in a row from ply DRAW_FROM_PLY on are within DRAW_CP of zero."""

    def __init__(self) -> None:
        self.win_sign = 0
        self.win_plies = 0
        self.draw_plies = 0

    def verdict(self, score: int, ply: int) -> tuple[str, str] | None:
        sign = (score >= WIN_CP) - (score <= -WIN_CP)
        self.win_plies = self.win_plies + 1 if sign and sign == self.win_sign else abs(sign)
        self.win_sign = sign
        self.draw_plies = self.draw_plies + 1 if ply >= DRAW_FROM_PLY and abs(score) <= DRAW_CP else 0
        if self.win_plies >= WIN_PLIES:
            return ("1-0" if sign > 0 else "0-1"), "win adjudication"
        if self.draw_plies >= DRAW_PLIES:
            return "1/2-1/2", "draw adjudication"
        return None


class Flagged(Exception):
    """The side to move has run out of time: it loses the game."""


def play_out(board: Board, search: Callable[[Board], dict],
             seen: Callable[[Board, dict, int, int], None] | None = None) -> tuple[str, str, list[str]]:
    """Play `board` to its end: `search(board)` gives each move's search result, and `seen(board,
    result, white's score, searched plies before it)` sees each before its move is played.
    Returns the result ("1-0", "0-1", "1/2-1/2"), how it ended (an ENDS value, "win adjudication",
    "draw adjudication", "ply limit" or, when `search` raises Flagged, "time forfeit") and the moves
    played."""
    adjudicator = Adjudicator()
    moves: list[str] = []
    while True:
        ended = board.outcome()
        if ended is not None:
            return ended[0], ENDS[ended[1]], moves
        if len(moves) >= MAX_PLIES:
            return "1/2-1/2", "ply limit", moves
        try:
            found = search(board)
        except Flagged:
            return ("0-1" if board.white_to_move else "1-0"), "time forfeit", moves
        score = white_score(found, board.white_to_move)
        if seen is not None:
            seen(board, found, score, len(moves))
        verdict = adjudicator.verdict(score, game_ply(board))
        if verdict is not None:
            return verdict[0], verdict[1], moves
        moves.append(found["move"])
        board.push(found["move"])


def split_params(table: Mapping[str, int]) -> tuple[dict[str, int], dict[str, int], TimeFactors]:
    """A table of evaluation, search and time-management parameters as the two whole tables the
    core takes (set_eval_params, set_search_params) and the time manager's factors: each name
    `table` gives, every other at its default."""
    evaluation, search = default_eval_params(), default_search_params()
    for name, value in table.items():
        if name not in FACTOR_NAMES:
            (search if name in search else evaluation)[name] = value
    return evaluation, search, factors_from(table)


class Side:
    """One side of a game: its parameters, its search, and on a clock its time left."""

    def __init__(self, table: Mapping[str, int], tc: TimeControl | None) -> None:
        self.evaluation, self.search_params, self.factors = split_params(table)
        self.searcher = Search(threads=1, hash_mb=HASH_MB)
        self.tc = tc
        self.clock_ms = round(tc.base * 1000) if tc else 0
        self.increment_ms = round(tc.increment * 1000) if tc else 0

    def move(self, position: Board, nodes: int, clocks: Mapping[bool, int]) -> dict:
        """The search result of this side's move in `position`: at `nodes`, or on its clock (with
        both clocks as they stand), which is charged the wall time the move took (Flagged when it
        runs out) and given the increment."""
        started = time.perf_counter()
        set_eval_params(self.evaluation)
        set_search_params(self.search_params)
        if self.tc is None:
            return self.searcher.run(position, nodes=nodes)
        increment = self.increment_ms
        limits = Limits(wtime=clocks[True], btime=clocks[False], winc=increment, binc=increment)
        found = self.searcher.run(position, clock=make_clock(limits, position.white_to_move, DEFAULT_MOVE_OVERHEAD_MS,
                                                             factors=self.factors))
        self.clock_ms -= round((time.perf_counter() - started) * 1000)
        if self.clock_ms < 0:
            raise Flagged
        self.clock_ms += increment
        return found


def play_bout(first: Mapping[str, int], second: Mapping[str, int], nodes: int, seed: str,
              random_plies: int, tc: TimeControl | None = None) -> tuple[str, list[dict]]:
    """Two games between two tables of evaluation, search and time-management parameters (each
    over the built-in defaults) from one opening, `first` White in the first game and Black in the
    second: the opening's FEN and each game's {"result", "end", "plies"} (the result is White's, as
    in PGN). Each side searches with its own hash table and its own parameters, which are swapped in
    before each of its moves (a fraction of a millisecond). Every move searches `nodes`, so the
    games depend on nothing but the arguments and the net the process holds; or, with `tc` (a
    clock: base and increment), each side plays on its own clock as the engine does for a GUI
    (Move Overhead at its default) and a flag loses. The opening is chosen by the defaults' search
    at `nodes`."""
    if tc is not None and (tc.base is None or tc.moves):
        raise ValueError(f"a bout's clock is a base and an increment, not {tc.pgn()}")
    defaults = split_params({})
    set_eval_params(defaults[0])
    set_search_params(defaults[1])
    board = choose_opening(random.Random(seed), (), random_plies, nodes, Search(threads=1, hash_mb=HASH_MB))
    opening = board.fen()
    games = []
    for white, black in ((first, second), (second, first)):
        sides = {True: Side(white, tc), False: Side(black, tc)}

        def search(position: Board) -> dict:
            clocks = {colour: side.clock_ms for colour, side in sides.items()}
            return sides[position.white_to_move].move(position, nodes, clocks)
        result, end, moves = play_out(Board(opening), search)
        games.append({"result": result, "end": end, "plies": len(moves)})
    set_eval_params(defaults[0])
    set_search_params(defaults[1])
    return opening, games
