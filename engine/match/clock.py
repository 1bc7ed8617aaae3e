"""Time controls and the clocks the runner keeps itself, for every game.

A TimeControl is a clock (base, increment, moves per period), a fixed time per move, a depth or a
node budget; parse_tc reads the clock form of the command line. Clock charges each side the wall
time the runner measured for its move; each game turns it into its own protocol's limits (or
takes `limits`: a UCI-style go's, which in-process players read).
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from ..play.timeman import Limits

WHITE, BLACK = True, False          # the sides as python-chess names them: player 1 is White


@dataclass(frozen=True)
class TimeControl:
    """What limits each move: a clock (base/increment/moves per period), a fixed time, depth or nodes."""
    base: Optional[float] = None          # seconds per period; None: no clock
    increment: float = 0.0                # seconds added after each move
    moves: Optional[int] = None           # moves per period (the clock gets `base` again); None: whole game
    movetime: Optional[float] = None      # fixed seconds per move
    depth: Optional[int] = None
    nodes: Optional[int] = None

    def pgn(self) -> str:
        """The PGN TimeControl tag: '40/60', '10+0.1', '40/60+0.1', '0.05/move' (as cutechess); '-' for none."""
        if self.base is not None:
            text = f"{self.moves}/{self.base:g}" if self.moves else f"{self.base:g}"
            return text + (f"+{self.increment:g}" if self.increment else "")
        if self.movetime is not None:
            return f"{self.movetime:g}/move"
        return "-"


_SECONDS = r"(\d+(?::\d+)?(?:\.\d*)?|\.\d+)"       # 10, 0.5, .5, 1:30 (minutes:seconds), 1:30.5
_TC_PATTERN = re.compile(rf"(?:(\d+)/)?{_SECONDS}(?:\+{_SECONDS})?")


def _seconds(text: str) -> float:
    minutes, _, seconds = text.rpartition(":")
    return 60.0 * int(minutes or 0) + float(seconds)


def parse_tc(text: str) -> TimeControl:
    """Parse a clock time control: 'BASE', 'BASE+INC' or 'MOVES/BASE[+INC]', in seconds (BASE may be M:SS)."""
    match = _TC_PATTERN.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"bad time control {text!r}: expected BASE+INC, MOVES/BASE or MOVES/BASE+INC "
                         "in seconds, e.g. 10+0.1, 40/60 or 40/60+0.5")
    moves, base, increment = match.groups()
    tc = TimeControl(base=_seconds(base), increment=_seconds(increment) if increment else 0.0,
                     moves=int(moves) if moves else None)
    if tc.base <= 0:
        raise ValueError(f"bad time control {text!r}: the base time must be more than 0 seconds")
    if tc.moves == 0:
        raise ValueError(f"bad time control {text!r}: the moves per period must be 1 or more")
    return tc


class Clock:
    """Both sides' clocks, each under its own TimeControl (Black's is White's unless given: time
    odds), charged with the wall time the runner measures."""

    def __init__(self, white: TimeControl, black: Optional[TimeControl] = None):
        black = white if black is None else black
        if (white.base is None) != (black.base is None):
            raise ValueError("time odds need both sides on a clock or neither")
        self.tcs = {WHITE: white, BLACK: black}
        self.remaining = {WHITE: white.base, BLACK: black.base}
        self.moves_made = {WHITE: 0, BLACK: 0}

    def moves_to_go(self, side: bool) -> Optional[int]:
        """Moves `side` has left in the clock's period (moves per period only, else None)."""
        moves = self.tcs[side].moves
        return moves - self.moves_made[side] % moves if moves else None

    def limits(self, side: bool) -> Limits:
        """The limits of `side`'s move as a UCI `go` gives them (milliseconds)."""
        tc = self.tcs[side]
        limits = Limits(depth=tc.depth or 0, nodes=tc.nodes or 0,
                        movetime=max(1, round(1000 * tc.movetime)) if tc.movetime is not None else 0)
        if tc.base is not None:
            limits.wtime, limits.btime = (round(1000 * self.remaining[color]) for color in (WHITE, BLACK))
            limits.winc, limits.binc = (round(1000 * self.tcs[color].increment) for color in (WHITE, BLACK))
            limits.movestogo = self.moves_to_go(side) or 0
        return limits

    def allowance(self, side: bool, margin: float) -> Optional[float]:
        """Seconds the side to move may think before it loses on time; None without a time limit."""
        tc = self.tcs[side]
        if tc.base is not None:
            return self.remaining[side] + margin
        if tc.movetime is not None:
            return tc.movetime + margin
        return None

    def charge(self, side: bool, elapsed: float, margin: float) -> bool:
        """Charge a move; False if it overstepped the time (clock or movetime) by more than `margin`."""
        allowance = self.allowance(side, margin)
        if allowance is not None and elapsed > allowance:
            return False
        tc = self.tcs[side]
        if tc.base is not None:
            # Within the margin the clock stops at 0: the margin absorbs the runner's latency.
            self.remaining[side] = max(0.0, self.remaining[side] - elapsed) + tc.increment
            self.moves_made[side] += 1
            if tc.moves and self.moves_made[side] % tc.moves == 0:
                self.remaining[side] += tc.base
        return True
