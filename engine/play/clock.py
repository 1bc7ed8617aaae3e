"""The clocks of a game a GUI keeps and gives only as a time control (CECP's level, st, sd, nps,
time and otim), and the search limits they make for the engine's move.

A level of N moves per session gives the moves to go until the next control, counted from the
ply the level came at. With a node rate set, time is counted in nodes: the time the plan targets,
at that many nodes a second, and the reported time is the nodes searched at that rate.
"""
from __future__ import annotations

from .._core import Board
from .timeman import Limits, plan_move

# Before any level or fixed time, xboard's own default time control: 40 moves in 5 minutes.
DEFAULT_LEVEL = (40, 5 * 60_000, 0)


class GameClock:
    def __init__(self) -> None:
        self.moves_per_session, self.base_ms, self.increment_ms = DEFAULT_LEVEL
        self.level_ply = 0              # the game ply at which the level came
        self.move_time_ms = 0           # a fixed time a move; replaces the clock while set
        self.max_depth = 0              # a depth limit (0: none)
        self.nps = 0                    # think in nodes at this rate, not in wall-clock time (0: off)
        self.engine_ms = self.opponent_ms = self.base_ms

    def new_game(self) -> None:
        """A new game: the clocks at the level's base, no depth limit or node rate (a fixed time
        a move stays, as xboard expects)."""
        self.engine_ms = self.opponent_ms = self.base_ms
        self.level_ply = 0
        self.max_depth = 0
        self.nps = 0

    def set_level(self, moves_per_session: int, base_ms: int, increment_ms: int, ply: int) -> None:
        """A new time control from game ply `ply` on (it ends a fixed time a move)."""
        self.moves_per_session, self.base_ms, self.increment_ms = moves_per_session, base_ms, increment_ms
        self.engine_ms = self.opponent_ms = base_ms
        self.level_ply = ply
        self.move_time_ms = 0

    def limits(self, board: Board, engine_ms: int | None = None) -> Limits:
        """The limits of a search for the engine's move in `board` (it is to move there), its
        clock showing `engine_ms` (by default what the GUI last said)."""
        engine_ms = self.engine_ms if engine_ms is None else engine_ms
        limits = Limits(depth=self.max_depth)
        if self.move_time_ms:
            limits.movetime = self.move_time_ms
        else:
            white, black = (engine_ms, self.opponent_ms) if board.white_to_move else (self.opponent_ms, engine_ms)
            limits.wtime, limits.btime = max(0, white), max(0, black)
            limits.winc = limits.binc = self.increment_ms
            if self.moves_per_session:
                moves_made = max(0, len(board.move_stack) - self.level_ply) // 2
                limits.movestogo = self.moves_per_session - moves_made % self.moves_per_session
        if self.nps:
            # No Move Overhead: no wall-clock time is being spent on it.
            plan = plan_move(limits, board.white_to_move, 0)
            return Limits(depth=self.max_depth, nodes=max(1, self.nps * plan.max_time // 1000))
        return limits

    def reported_ms(self, nodes: int, time_ms: int) -> int:
        """The time a search has taken as the game counts it: its nodes at the node rate, if set."""
        return nodes * 1000 // self.nps if self.nps else time_ms
