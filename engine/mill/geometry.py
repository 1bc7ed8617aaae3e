"""The Mill board as a description: its 24 points, named as Sanmill names them, and its straight lines.

Every line holds three points; consecutive points on a line are adjacent and a line filled by one
colour is a mill. The core (pyrope._mill) builds its adjacency and mill tables from these lines, so
a board with diagonals is the same description with four lines more.
"""
from __future__ import annotations

# Index order is the FEN order: rank 7 down to rank 1, left to right within a rank.
POINTS = ("a7", "d7", "g7", "b6", "d6", "f6", "c5", "d5", "e5",
          "a4", "b4", "c4", "e4", "f4", "g4",
          "c3", "d3", "e3", "b2", "d2", "f2", "a1", "d1", "g1")
INDEX = {name: i for i, name in enumerate(POINTS)}
RANKS = (3, 3, 3, 6, 3, 3, 3)  # points per rank, rank 7 first

_ORTHOGONAL = (
    "a7 d7 g7", "b6 d6 f6", "c5 d5 e5", "a4 b4 c4", "e4 f4 g4", "c3 d3 e3", "b2 d2 f2", "a1 d1 g1",
    "a1 a4 a7", "b2 b4 b6", "c3 c4 c5", "d1 d2 d3", "d5 d6 d7", "e3 e4 e5", "f2 f4 f6", "g1 g4 g7",
)
_DIAGONAL = ("a1 b2 c3", "g1 f2 e3", "a7 b6 c5", "g7 f6 e5")


def lines(diagonals: bool) -> tuple[tuple[int, int, int], ...]:
    """The board's lines as point-index triples, in order along each line."""
    text = _ORTHOGONAL + (_DIAGONAL if diagonals else ())
    return tuple(tuple(INDEX[name] for name in line.split()) for line in text)
