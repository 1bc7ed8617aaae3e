"""Darkboard 2.0 (thesis chapter 5, approach C): the maximax player's metaposition and power moves,
but its tries chosen by a Monte Carlo tree search whose nodes are valued at once by the referee's
answers they may bring (pyrope._kriegspiel.Mcts, ext/kriegspiel_mcts.pxi). docs/kriegspiel.md
("MCTS") says how it plays and how strong it is.
"""
from __future__ import annotations

from typing import Optional

from .._kriegspiel import Mcts
from .maximax import POSITIONS, MaximaxPlayer
from .opponent import OpponentModel

EXPLORATION = 40.0      # UCT's c, in the evaluation's centipawns


class MctsPlayer(MaximaxPlayer):
    """Tries the move the tree search visits most, after `positions` evaluated metapositions (or
    what the move's budget gives)."""

    def __init__(self, seed: Optional[str | int] = None, positions: int = POSITIONS,
                 exploration: float = EXPLORATION, alpha: float = 0.5, model: Optional[OpponentModel] = None,
                 **weights: float) -> None:
        super().__init__(seed, positions, alpha=alpha, model=model, **weights)
        self.search = Mcts(exploration, alpha, **weights)

    def best(self, moves: list[int], power: list[bool]) -> int:
        positions, seconds = self.budget.search(self.positions)
        return self.search.best(self.meta.core, moves, power, positions, seconds)[0]
