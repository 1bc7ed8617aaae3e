"""MillSearcher: the compiled Mill search (pyrope._mill.MillSearch) with notation, limits and scores.

A front-end runs search() on a search thread -- the C search holds no GIL -- and calls stop() from
its reader thread; on_info receives each finished iteration. The result is always a legal turn.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Callable

from .._mill import ALGORITHMS, DEFAULT_WEIGHTS, MATE_SCORE, MATE_THRESHOLD, MAX_DEPTH, WEIGHT_NAMES, MillSearch
from .board import MillBoard
from .db.probe import MillDatabase, fits_move_count

DEFAULT_ALGORITHM = "pvs"

# The evaluation's named weights and their hand-set defaults (100: one stone); see docs/mill.md.
WEIGHTS: dict[str, int] = dict(zip(WEIGHT_NAMES, DEFAULT_WEIGHTS))


def mate_in(score: int) -> int | None:
    """A game-end score as the side to move's own turns to the end: N > 0 it wins with its Nth turn,
    -N it loses after its Nth turn (UCI's `score mate N`); None for a heuristic score."""
    if score >= MATE_THRESHOLD:
        return (MATE_SCORE - score + 1) // 2
    if score <= -MATE_THRESHOLD:
        return -((MATE_SCORE + score) // 2)
    return None


@dataclass(frozen=True)
class SearchInfo:
    """One finished iteration. score: side to move's view, 100 = a stone; mate: see mate_in."""
    depth: int
    score: int
    mate: int | None
    nodes: int
    time_ms: int
    nps: int
    pv: list[str]
    tbhits: int = 0     # database probes that answered


@dataclass(frozen=True)
class SearchResult:
    """The turn to play and what the deepest finished iteration said (depth 0: none finished)."""
    move: str
    score: int
    mate: int | None
    depth: int
    nodes: int
    time_ms: int
    pv: list[str]


class MillSearcher:
    def __init__(self, hash_mb: int = 16, algorithm: str = DEFAULT_ALGORITHM, weights: dict[str, int] | None = None):
        self._search = MillSearch()
        self.set_hash(hash_mb)
        self.set_algorithm(algorithm)
        self.weights = dict(WEIGHTS)
        self.set_weights(**(weights or {}))

    # -- options (not while a search runs: RuntimeError) ------------------------------------
    def set_hash(self, megabytes: int) -> None:
        """Transposition table size in MB (0: none); clears it."""
        self._search.set_hash(int(megabytes))

    def set_algorithm(self, name: str) -> None:
        if name not in ALGORITHMS:
            raise ValueError(f"Unknown search algorithm '{name}'; choose {' or '.join(ALGORITHMS)}.")
        self.algorithm = name

    def set_weights(self, **named: int) -> None:
        """Change evaluation weights by name (see WEIGHTS)."""
        for name, value in named.items():
            if name not in WEIGHTS:
                raise ValueError(f"Unknown evaluation weight '{name}'; known: {', '.join(WEIGHTS)}.")
            if not isinstance(value, int) or not -10_000 <= value <= 10_000:
                raise ValueError(f"Weight {name} must be a whole number in -10000..10000, not {value!r}.")
        self._search.set_weights([named.get(name, self.weights[name]) for name in WEIGHT_NAMES])
        self.weights.update(named)

    def new_game(self) -> None:
        """Forget the table, killers and history."""
        self._search.clear()

    # -- searching --------------------------------------------------------------------------
    def stop(self) -> None:
        """End the running search at its next node (or the next search, if called before it starts);
        it returns the best turn found so far. A search clears the flag when it returns."""
        self._search.stop()

    def prepare(self) -> None:
        """Forget a stop() given while no search ran. A front-end calls it before it starts the
        search thread, so that a stop() that arrives before the thread gets going still counts."""
        self._search.prepare()

    def evaluate(self, board: MillBoard) -> int:
        """Static evaluation for the side to move."""
        return self._search.evaluate(board._core)

    def search(self, board: MillBoard, depth: int | None = None, nodes: int | None = None,
               movetime_ms: float | None = None, on_info: Callable[[SearchInfo], None] | None = None,
               database: MillDatabase | None = None) -> SearchResult:
        """Search `board` (copied at the start: the caller may change it meanwhile) until the first
        of the given limits, stop() or a proven game end; without limits, until stop() (or depth
        MAX_DEPTH). ValueError for a bad limit or a finished game. `database` (of the board's
        rules): a position of its classes is played from it, others probe it below the root."""
        for name, value, low in (("depth", depth, 1), ("nodes", nodes, 1), ("movetime_ms", movetime_ms, 0)):
            if value is not None and (not isinstance(value, (int, float)) or value < low):
                raise ValueError(f"The {name} limit must be {low} or more, not {value!r}.")
        if depth is not None and depth > MAX_DEPTH:
            raise ValueError(f"The depth limit must be at most {MAX_DEPTH}, not {depth}.")
        fen, rules = board.fen(), dataclasses.asdict(board.rules)
        last: list[SearchInfo] = []

        def report(done: int, score: int, count: int, ms: float, pv: list) -> None:
            info = SearchInfo(done, score, mate_in(score), count, int(ms), int(count * 1000 / ms) if ms > 0 else 0,
                              notation(fen, rules, pv), self._search.tbhits)
            last.append(info)
            if on_info is not None:
                on_info(info)

        if database is not None and not board.is_game_over():
            perfect = self._from_database(board, database, on_info)
            if perfect is not None:
                return perfect
        self._search.set_database(database.core if database is not None else None)
        try:
            move, score, done, count, ms = self._search.run(
                board._core, depth or MAX_DEPTH, nodes or 0, movetime_ms or 0.0, ALGORITHMS[self.algorithm], report)
        finally:
            self._search.set_database(None)
        text = notation(fen, rules, [move])[0]
        pv = last[-1].pv if last else [text]
        return SearchResult(text, score, mate_in(score) if done else None, done, count, int(ms), pv)

    @staticmethod
    def _from_database(board: MillBoard, database: MillDatabase, on_info) -> SearchResult | None:
        """The database's perfect turn at the root, unless the position is outside its classes or
        its win does not fit in what the move-count rule leaves."""
        position = board._core.position()
        best = database.best_turn(position)
        if best is None or not fits_move_count(board.rules, position, best[1]):
            return None
        move, value = best
        if value.distance is None:
            score = 0
        else:
            score = MATE_SCORE - value.distance if value.result == "win" else -(MATE_SCORE - value.distance)
        text = board._text(move)
        if on_info is not None:
            on_info(SearchInfo(1, score, mate_in(score), 0, 0, 0, [text], tbhits=1))
        return SearchResult(text, score, mate_in(score), 1, 0, 0, [text])


def notation(fen: str, rules: dict, moves: list[tuple[int, int, int]]) -> list[str]:
    """Core turns played from `fen` under `rules`, in notation (removals in a legal order)."""
    scratch = MillBoard(fen, **rules)
    line = []
    for move in moves:
        line.append(scratch._text(move))    # MillBoard's own formatting of a core turn
        scratch._core.push(*move)
    return line
