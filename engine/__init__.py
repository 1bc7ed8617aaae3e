"""Pyrope: a chess engine with a Cython core."""
from ._core import (STARTING_FEN, Board, Book, BookError, DtmTables, FenError, IllegalMoveError, ParamFileError,
                    TablebaseError, Tablebases, default_eval_params, eval_param_names, eval_params, load_eval_params, perft, read_eval_params,
                    save_eval_params, set_eval_params)

__all__ = ["STARTING_FEN", "Board", "Book", "BookError", "DtmTables", "FenError", "IllegalMoveError", "ParamFileError", "TablebaseError",
           "Tablebases", "default_eval_params", "eval_param_names", "eval_params", "load_eval_params", "perft",
           "read_eval_params", "save_eval_params", "set_eval_params"]
__version__ = "0.1.0"
