"""Darkboard 1.0 (thesis chapter 4): a player that keeps a metaposition and chooses its tries by a
weighted maximax over metapositions. The search and its evaluation are compiled
(pyrope._kriegspiel.Maximax, ext/kriegspiel_maximax.pxi); this module keeps the metaposition in
step with the game (a refused pawn step tells where an enemy man stands), turns refused tries into
power moves (4.3.3) and asks the search for the next try. docs/kriegspiel.md ("Maximax") says how
it plays and how strong it is.
"""
from __future__ import annotations

from typing import Optional

import chess

from .._kriegspiel import Maximax
from .endgame import packed
from .metaposition import Metaposition
from .opponent import OpponentModel
from .players import RandomPlayer
from .referee import Announcement

POSITIONS = 5000    # the enhanced search's metapositions a try (the thesis's maxPositions)
DEPTH = 2           # the basic search's moves of ours in a line: each try and our next move


class MaximaxPlayer(RandomPlayer):
    """Tries the move the search values most among those it cannot rule out. After a capture, a
    check or pawn tries the basic search looks `depth` of our moves deep, every move searched;
    otherwise the enhanced search shares `positions` metapositions among its best lines -- unless
    the move's budget (players.Player.go) gives a time or node limit. When no pseudomove is left
    untried (castling, say, or en passant is then the only legal move) it tries at random among
    the rest, seeded by `seed`. With an opponent `model` its metaposition's density follows where
    the model's games moved the enemy men (opponent.py)."""

    def __init__(self, seed: Optional[str | int] = None, positions: int = POSITIONS, depth: int = DEPTH,
                 alpha: float = 0.5, model: Optional[OpponentModel] = None, **weights: float) -> None:
        super().__init__(seed)
        self.positions, self.depth, self.model = positions, depth, model
        self.search = Maximax(alpha=alpha, **weights)

    def start(self, color: chess.Color, fen: str) -> None:
        super().start(color, fen)
        self.meta = Metaposition(fen, color, self.model)
        self.power: set[int] = set()        # this turn's power moves (packed)

    def hear(self, announcement: Announcement) -> None:
        super().hear(announcement)
        self.meta.hear(announcement)

    def answered(self, text: str, legal: bool) -> None:
        super().answered(text, legal)
        if legal:
            self.meta.played(self._tried)
            self.power = set()
        else:
            self.meta.refused(self._tried, bool(self.announcement.checks))
            power = self.meta.core.power_move(packed(self._tried))
            if power >= 0:
                self.power.add(power)

    def choose(self, tries: dict[str, chess.Move]) -> str:
        announcement = self.announcement
        by_move = {packed(move): text for text, move in tries.items()}
        moves = [move for move in self.meta.core.pseudomoves(bool(announcement.pawn_tries)) if move in by_move]
        moves += [move for move in sorted(self.power) if move in by_move and move not in moves]
        # A third placement of our men could repeat the whole position: a draw we avoid while
        # another move is left.
        moves = [move for move in moves if not self.own.repeats(tries[by_move[move]])] or moves
        if not moves:
            return super().choose(tries)
        return by_move[self.best(moves, [move in self.power for move in moves])]

    def best(self, moves: list[int], power: list[bool]) -> int:
        """The search's choice among `moves` (packed), `power` flagging the power moves, within
        this try's share of the move's budget. After a capture, a check or pawn tries the basic
        search, else the enhanced one."""
        announcement = self.announcement
        shallow = bool(announcement.capture or announcement.checks or announcement.pawn_tries)
        positions, seconds = self.budget.search(self.positions)
        return self.search.best(self.meta.core, moves, power, shallow, positions, self.depth, seconds)[0]
