"""MillManager: Mill's search manager, the shared search thread (play.manager.SearchThread) and
clock (play.timeman) around MillSearcher.

The Mill search has a single time limit, so a clock's move is given the time manager's target
(Glaurung's max_time, never more than half of what is left after Move Overhead), and a fixed
`movetime` all of itself less Move Overhead. Info lines and results are mill.search's SearchInfo
and SearchResult.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from ..play.manager import SearchThread, one_at_a_time
from ..play.options import HASH, MOVE_OVERHEAD
from ..play.timeman import Limits, plan_move
from .board import MillBoard
from .db import tables
from .db.probe import DEFAULT_DIR, MillDatabase
from .rules import MillRules
from .search import MAX_DEPTH, MillSearcher, SearchInfo, SearchResult

# Completing a turn someone else began (Sanmill's split form): each completion's position is
# searched this deep. Only needed when the engine did not begin the turn itself.
COMPLETION_DEPTH = 4
WON = 1_000_000


class MillManager(SearchThread):
    def __init__(self) -> None:
        super().__init__(MillSearcher(hash_mb=HASH.default))
        self.move_overhead = MOVE_OVERHEAD.default
        self.hash_mb = HASH.default
        self.db_path = str(DEFAULT_DIR) if DEFAULT_DIR.is_dir() else ""
        self._databases: dict[bytes, MillDatabase] = {}     # by rules fingerprint, loaded when first needed

    @one_at_a_time
    def set_db_path(self, path: str, rules: MillRules) -> list[str]:
        """Databases from `path` ("" or <empty>: none); loads those of `rules` at once and returns
        what could not be used, one line a file."""
        self.finish()
        self.db_path = "" if path.strip() in ("", "<empty>") else path.strip()
        self._databases.clear()
        database = self.database(rules)
        return database.errors if database is not None else []

    def database(self, rules: MillRules) -> MillDatabase | None:
        """The databases of `rules` under db_path (None: no path)."""
        if not self.db_path:
            return None
        key = tables.fingerprint(rules)
        if key not in self._databases:
            self._databases[key] = MillDatabase(rules, self.db_path)
        return self._databases[key]

    @one_at_a_time
    def set_hash(self, megabytes: int) -> int:
        """The table in MB; returns the size granted (the old one when there is no memory for it)."""
        self.finish()
        try:
            self.search.set_hash(megabytes)
            self.hash_mb = megabytes
        except MemoryError:
            self.search.set_hash(self.hash_mb)
        return self.hash_mb

    @one_at_a_time
    def set_algorithm(self, name: str) -> None:
        self.finish()
        self.search.set_algorithm(name)

    @one_at_a_time
    def evaluate(self, board: MillBoard) -> int:
        """The static evaluation for the side to move (no search may run meanwhile)."""
        self.finish()
        return self.search.evaluate(board)

    @one_at_a_time
    def clear(self) -> None:
        self.finish()
        self.search.new_game()

    @one_at_a_time
    def start(self, board: MillBoard, limits: Limits, on_info: Callable[[list[SearchInfo]], None],
              on_done: Callable[[SearchResult], None], among: list[str] | None = None) -> None:
        """Search a copy of `board`; `on_done(result)` is called once, from the search thread.
        `among`: play one of these turns (the completions of a turn begun in split form)."""
        self.finish()
        limits = dataclasses.replace(limits, depth=min(limits.depth, MAX_DEPTH))     # deeper means nothing more
        plan = plan_move(limits, board.white_to_move, self.move_overhead)
        movetime = plan.max_time if plan is not None else None
        board = board.copy()
        self._arm(limits)

        def work() -> SearchResult:
            if among is not None:
                return self._complete(board, among)
            return self.search.search(board, depth=limits.depth or None, nodes=limits.nodes or None,
                                      movetime_ms=movetime, on_info=lambda info: on_info([info]),
                                      database=self.database(board.rules))

        self._launch(work, limits, on_done)

    def _complete(self, board: MillBoard, among: list[str]) -> SearchResult:
        """The best of `among` by a short search of each (the one there is, at once)."""
        best, best_value = among[0], -WON - 1
        winner = "1-0" if board.white_to_move else "0-1"
        for turn in among if len(among) > 1 else ():
            child = board.copy()
            child.push(turn)
            if child.is_game_over():
                value = WON if child.result() == winner else 0 if child.result() == "1/2-1/2" else -WON
            else:
                value = -self.search.search(child, depth=COMPLETION_DEPTH).score
            if value > best_value:
                best, best_value = turn, value
        return SearchResult(best, 0, None, 0, 0, 0, [best])
