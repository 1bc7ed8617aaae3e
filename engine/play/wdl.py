"""Win/draw/loss estimates for a search score (UCI_ShowWDL).

A logistic model in the score, following Stockfish's convention that an advantage of one pawn
(100 cp) is a 50% chance to win: win = 1 / (1 + exp((100 - cp) / 40)), loss the same for the
other side, draw the rest. Mate scores are certain.
"""
from __future__ import annotations

import math

from .result import Score

EVEN_WIN_CP = 100       # the score at which the side to move wins half its games
SCALE_CP = 40           # how quickly the chances change around it


def win_draw_loss(score: Score) -> tuple[int, int, int]:
    """Per mille chances (win, draw, loss) for the side to move."""
    if score.mate is not None:
        return (1000, 0, 0) if score.mate > 0 else (0, 0, 1000)
    cp = score.cp
    win = round(1000 / (1 + math.exp((EVEN_WIN_CP - cp) / SCALE_CP)))
    loss = round(1000 / (1 + math.exp((EVEN_WIN_CP + cp) / SCALE_CP)))
    return win, 1000 - win - loss, loss
