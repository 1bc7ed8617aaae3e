"""How a board is drawn for `d` (UCI and the terminal mode): chess symbols and coloured squares on
a terminal that can show them, plain letters everywhere else.

Off a terminal (a GUI, a pipe, a test) the board is exactly Board's str(): GUIs and scripts may
parse it, and escape codes or non-ASCII symbols would only be noise to them.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from typing import TextIO

from .._core import Board

LETTERS = "KQRBNPkqrbnp"
# Solid symbols for both sides on coloured squares (the text colour tells the side, and the
# hollow white symbols are hard to see on a dark square); hollow and solid without colour.
SOLID = dict(zip(LETTERS, "♚♛♜♝♞♟♚♛♜♝♞♟"))
HOLLOW_AND_SOLID = dict(zip(LETTERS, "♔♕♖♗♘♙♚♛♜♝♞♟"))

LIGHT, DARK = "\x1b[48;5;180m", "\x1b[48;5;137m"        # 256-colour backgrounds: wood
WHITE_PIECE, BLACK_PIECE = "\x1b[1;97m", "\x1b[30m"
RESET = "\x1b[0m"


@dataclass(frozen=True)
class BoardStyle:
    unicode: bool = False
    color: bool = False

    @classmethod
    def for_stream(cls, stream: TextIO, ascii_only: bool = False) -> BoardStyle:
        """Symbols when `stream` is a terminal whose encoding is UTF-8 (and not `ascii_only`);
        colours on a terminal unless NO_COLOR is set (no-color.org)."""
        if not stream.isatty():
            return cls()
        utf8 = (getattr(stream, "encoding", None) or "").lower().replace("-", "") == "utf8"
        return cls(unicode=utf8 and not ascii_only, color="NO_COLOR" not in os.environ)


PLAIN = BoardStyle()


def draw_board(board: Board, style: BoardStyle = PLAIN) -> str:
    """Rank 8 at the top, files a-h below, as Board's str() lays it out."""
    rows = []
    for rank, row in zip(range(8, 0, -1), board.fen().split()[0].split("/")):
        cells = "".join("." * int(char) if char.isdigit() else char for char in row)
        if style.color:
            rows.append(f"{rank} " + "".join(colored_square(char, (rank + file) % 2 == 0, style.unicode)
                                             for file, char in enumerate(cells)))
        elif style.unicode:
            rows.append(f"{rank}  " + " ".join(HOLLOW_AND_SOLID.get(char, "·") for char in cells))
        else:
            rows.append(f"{rank}  " + " ".join(cells))
    rows.append("   " + ("  " if style.color else " ").join("abcdefgh"))
    return "\n".join(rows)


def colored_square(char: str, light: bool, unicode: bool) -> str:
    """One square, three characters wide, on a light or dark background (a1 is dark)."""
    piece = " " if char == "." else SOLID[char] if unicode else char
    ink = WHITE_PIECE if char.isupper() else BLACK_PIECE
    return f"{LIGHT if light else DARK}{ink} {piece} {RESET}"
