"""MillSession: the Mill game a front-end talks about (play.game.GameSession): the position, the
rules for the next game, the options and the search manager.

Rule options are checked when they are set but act from the next new game or position: a game
in progress keeps the rules it began with. In Sanmill's dialect (`split_turns`) a position may end
inside a turn -- a mill closed, its removal not given yet -- and the engine then answers the
removal; a turn the engine began itself is finished as it planned it.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from ..play.game import GameSession
from ..play.timeman import Limits
from .board import MillBoard
from .db.probe import Value
from .manager import MillManager
from .notation import split
from .options import MILL
from .rules import MillRules
from .search import SearchInfo, SearchResult


class MillSession(GameSession):
    options = MILL

    def __init__(self) -> None:
        self.rules = MillRules()            # for the next game
        self.board = MillBoard()
        self.manager = MillManager()
        self.split_turns = False            # Sanmill's dialect: positions may end inside a turn
        self.partial: str | None = None     # the begun turn after `board` (split_turns only)
        self._planned: tuple[int, str] | None = None     # (key, turn) of the engine's last answer
        self.move_time = MILL["MoveTime"].default       # seconds for a `go` without limits (0: until stop)

    def set_rule(self, name: str, value: str) -> bool:
        """Set a rule option (Sanmill's name) or the Variant preset, which resets the others;
        ValueError names a bad value. True when the game in progress keeps its old rules."""
        if name == "Variant":
            rules = MillRules.from_options(value)
        else:
            rules = MillRules.from_options("nine", **{**dataclasses.asdict(self.rules), name: value})
        self.rules = rules
        return bool(self.board.move_stack or self.partial) and self.board.rules != rules

    def new_game(self) -> None:
        self.board = MillBoard(**dataclasses.asdict(self.rules))
        self.partial = None
        self._planned = None
        self.manager.clear()

    def set_position(self, fen: str | None, moves: list[str]) -> None:
        """`fen` (None: the start) under the rules set, then `moves` (split form accepted).
        ValueError naming the fault, and the old position stays, if anything is wrong."""
        board = MillBoard(fen, **dataclasses.asdict(self.rules))
        turns = board.join_turns(moves)
        partial = None
        board.push_moves(turns[:-1])
        if turns:
            try:
                board.push(turns[-1])
            except ValueError as error:
                if not (self.split_turns and board.completions(turns[-1])):
                    raise ValueError(f"Turn {len(turns)}: {error}") from None
                partial = turns[-1]
        self.board, self.partial = board, partial

    def choices(self) -> list[str] | None:
        """The turns the engine may answer with when the position ends inside a turn (the one it
        planned, if this is that turn), else None: any legal turn."""
        if self.partial is None:
            return None
        turns = self.board.completions(self.partial)
        if self._planned is not None and self._planned[0] == self.board.key:
            # The same turn whatever order its removals are written in.
            planned = sorted(split(self._planned[1]))
            turns = [turn for turn in turns if sorted(split(turn)) == planned] or turns
        return turns

    def search(self, limits: Limits, on_info: Callable[[list[SearchInfo]], None],
               on_done: Callable[[SearchResult], None]) -> None:
        """Search the position; `on_done(result)` is called once, from the search thread. In split
        form the result's move is the turn's next token, and the turn is remembered: the next
        search inside it answers the rest as planned."""
        key, given = self.board.key, len(split(self.partial)) if self.partial else 0

        def answer(result: SearchResult) -> None:
            if self.split_turns:
                tokens = split(result.move)
                if len(tokens) > given + 1:
                    self._planned = (key, result.move)
                result = dataclasses.replace(result, move=tokens[given])
            on_done(result)

        self.manager.start(self.board, limits, on_info, answer, among=self.choices())

    def database_value(self) -> Value | None:
        """The endgame databases' value of the position for the side to move, when a class loaded
        for the rules in force holds it (None otherwise, and with no databases)."""
        database = self.manager.database(self.board.rules)
        return None if database is None else database.probe(self.board._core.position())

    def perft_divide(self, depth: int) -> list[tuple[str, int]]:
        board = self.board.copy()
        counts = []
        for turn in board.legal_moves():
            board.push(turn)
            counts.append((turn, board.perft(depth - 1)))
            board.pop()
        return counts
