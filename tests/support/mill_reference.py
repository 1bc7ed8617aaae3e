"""The tests' Mill referee, written from the rules: pyrope.mill.reference (see its docstring for why
it lives in the package). It imports nothing of Pyrope's and shares no table with the core."""
from pyrope.mill.reference import FEN_RANKS, Referee, board_points, geometry, name, parse_turn

__all__ = ["FEN_RANKS", "Referee", "board_points", "geometry", "name", "parse_turn"]
