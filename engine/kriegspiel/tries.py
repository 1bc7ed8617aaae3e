"""The written forms of a Kriegspiel try (appendix A's "dumb-computer format"): `e2e4`, `e2-e4`,
`f7g8=N` or `f7g8n`, `o-o` and `o-o-o` (also `0-0`, `O-O`), and `px`, any case. Forms that depend
on where the enemy stands (`Nf3`, `nxq`) are not tries; `px` is the one exception the rules allow.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional, Union

import chess

from .._kriegspiel import KriegspielError

_SQUARE_TRY = re.compile(r"([a-h][1-8])-?([a-h][1-8])(?:=?([nbrq]))?")
_FORMS = "write a try as e2e4, e2-e4, f7g8=N, o-o, o-o-o or px"


@dataclass(frozen=True)
class SquareTry:
    """A man's move from one square to another; a pawn reaching the last rank without a piece
    named becomes a queen (as on ICC)."""
    from_square: chess.Square
    to_square: chess.Square
    promotion: Optional[chess.PieceType] = None

    def text(self) -> str:
        return chess.Move(self.from_square, self.to_square, self.promotion).uci()


@dataclass(frozen=True)
class CastlingTry:
    kingside: bool

    def text(self) -> str:
        return "O-O" if self.kingside else "O-O-O"


@dataclass(frozen=True)
class PawnCaptureTry:
    """`px`: the one legal pawn capture, when exactly one was announced."""

    def text(self) -> str:
        return "px"


Try = Union[SquareTry, CastlingTry, PawnCaptureTry]


def parse_try(text: str) -> Try:
    """The try `text` stands for; KriegspielError when it is none of the forms."""
    word = text.strip().lower()
    if word == "px":
        return PawnCaptureTry()
    if word.replace("0", "o") in ("o-o", "o-o-o"):
        return CastlingTry(kingside=word.count("-") == 1)
    match = _SQUARE_TRY.fullmatch(word)
    if match is None:
        raise KriegspielError(f"{text!r} is not a try: {_FORMS}.")
    frm, to, piece = match.groups()
    return SquareTry(chess.parse_square(frm), chess.parse_square(to),
                     chess.PIECE_SYMBOLS.index(piece) if piece else None)
