"""Playing strength limits for human opponents (UCI_LimitStrength / UCI_Elo, CECP `option`).

A weaker engine must still play chess that looks like chess: it searches fewer nodes (it sees less)
and, like Stockfish's Skill Level, chooses among its best few lines with a controlled random push
towards the worse ones (it errs in proportion to how little the error costs). Both knobs follow one
Elo value, interpolated in CALIBRATION, whose rows were set by matches against Stockfish's own
UCI_Elo levels (README, "Strength limit"; bench/strength_calibration.py re-measures them).
"""
from __future__ import annotations

import bisect
import math
import random
from dataclasses import dataclass

MIN_ELO = 1000
MAX_ELO = 2050     # full strength, measured against Stockfish's UCI_Elo at 3s+0.03s
DEFAULT_ELO = 1600
LINES = 4               # candidate lines the weakened engine chooses among
MATE_CP = 100_000       # a mate outranks any material score when comparing lines

# (Elo, nodes per move, weakness 0..128): nodes interpolate geometrically, weakness linearly.
CALIBRATION = [
    (1000, 30, 115),
    (1400, 300, 80),
    (1800, 8000, 35),
    (2050, 1000000, 0),     # the far end of the interpolation; at MAX_ELO itself the limit is off
]


def line_cp(line: dict) -> int:
    if "mate" in line:
        mate = line["mate"]
        return MATE_CP - mate if mate > 0 else -MATE_CP - mate
    return line["cp"]


@dataclass(frozen=True)
class Skill:
    elo: int

    def _position(self) -> tuple[int, float]:
        elos = [row[0] for row in CALIBRATION]
        elo = min(max(self.elo, MIN_ELO), MAX_ELO)
        i = min(max(bisect.bisect_right(elos, elo) - 1, 0), len(CALIBRATION) - 2)
        low, high = CALIBRATION[i][0], CALIBRATION[i + 1][0]
        return i, (elo - low) / (high - low)

    @property
    def nodes(self) -> int:
        """The node budget of one move."""
        i, f = self._position()
        low, high = CALIBRATION[i][1], CALIBRATION[i + 1][1]
        return max(1, round(math.exp(math.log(low) + f * (math.log(high) - math.log(low)))))

    @property
    def weakness(self) -> int:
        i, f = self._position()
        return round(CALIBRATION[i][2] + f * (CALIBRATION[i + 1][2] - CALIBRATION[i][2]))

    def choose(self, lines: list[dict], rng: random.Random) -> dict:
        """The line to play among the search's best-first lines (Stockfish's Skill::pick_best):
        each line's score gets a push of weakness * (its loss against the best) plus a random
        share of the spread of the candidates, and the highest total wins. Never a mated line when
        another exists, because its loss is so large that no push reaches it."""
        if len(lines) < 2:
            return lines[0]
        scores = [line_cp(line) for line in lines]
        top = scores[0]
        spread = min(top - scores[-1], 100)
        weakness = max(self.weakness, 1)
        best, best_total = lines[0], -math.inf
        for line, score in zip(lines, scores):
            push = (weakness * (top - score) + spread * rng.randrange(weakness)) / 128
            if score + push > best_total:
                best, best_total = line, score + push
        return best
