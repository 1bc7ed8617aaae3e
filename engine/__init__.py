"""Pyrope: a chess engine with a Cython core."""
from ._core import STARTING_FEN, Board, FenError, IllegalMoveError, perft

__all__ = ["STARTING_FEN", "Board", "FenError", "IllegalMoveError", "perft"]
__version__ = "0.1.0"
