"""The opponent model (thesis 5.5): where each side's men of each type stand, on average, after that
side's t-th move, counted from the referee's full games in Kriegspiel PGN (`pyrope kriegspiel match
--pgn` writes them; `pyrope kriegspiel model` counts them). The thesis's D_w(p, t) and D_b(p, t)
came from some 12,000 human games on the Internet Chess Club; ours come from our own players' games.

A metaposition's density (ext/kriegspiel_density.pxi) spreads a moving enemy man over the squares
it may reach; with a model it spreads it as the model's men of that type gained squares at that move
number in the games -- the thesis's gradient D(p, t + 1) - D(p, t), which it found carries over
better than the snapshot D(p, t) -- up to HORIZON moves, after which the games say too little.

The file: MAGIC, then little-endian uint32 games and horizon, then float32 values indexed [colour
(White 0, Black 1)][moves made 0..horizon][type PAWN..KING][square a1..h8]: the expected men there
over the games that reached that point.
"""
from __future__ import annotations

import struct
import sys
from array import array
from dataclasses import dataclass
from typing import Collection, Iterable, Optional

import chess

from ..console import InputError
from .pgn import KriegspielGame

HORIZON = 30            # moves a side: the thesis's "until deemed too noisy"
MAGIC = b"PYROPE-KRIEGSPIEL-MODEL 1\n"
_HEADER = struct.Struct("<II")
_TYPES = 6


def _slot(color: chess.Color, moves: int, horizon: int) -> int:
    """The index of one colour's row at `moves` moves made, among the file's rows."""
    return (0 if color == chess.WHITE else 1) * (horizon + 1) + moves


def _row(color: chess.Color, moves: int, horizon: int) -> int:
    """The offset of that row's first value."""
    return _slot(color, moves, horizon) * _TYPES * 64


@dataclass
class OpponentModel:
    games: int
    horizon: int
    values: array           # float32, as the file holds them

    @classmethod
    def count(cls, games: Iterable[KriegspielGame], horizon: int = HORIZON,
              players: Optional[Collection[str]] = None) -> "OpponentModel":
        """Count the referee's full games (a filtered game is refused: it does not hold the moves).
        A side's men are counted at the start (the moves it has made before it, by the start's
        move number) and after each of its moves, up to `horizon` moves. With `players`, only the
        sides those players played (by the White and Black tags) are counted, so that a model of a
        strong opponent is not diluted by the weak players it met; `games` then counts the games
        with a side counted."""
        sums = [0.0] * (2 * (horizon + 1) * _TYPES * 64)
        seen = [0] * (2 * (horizon + 1))
        played = 0
        for game in games:
            if game.narrator is not None:
                raise InputError("an opponent model is counted from the referee's full games, not a filtered one")
            counted = [color for color, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black"))
                       if players is None or game.headers.get(tag) in players]
            if not counted:
                continue
            board = chess.Board(game.start_fen)
            played += 1
            for color in counted:
                cls._add(sums, seen, board, color, horizon)
            for ply in game.plies:
                board.push_uci(ply.move)
                if ply.mover in counted:
                    cls._add(sums, seen, board, ply.mover, horizon)
        size = _TYPES * 64
        values = array("f", (total / seen[i // size] if seen[i // size] else 0.0 for i, total in enumerate(sums)))
        return cls(played, horizon, values)

    @staticmethod
    def _add(sums: list[float], seen: list[int], board: chess.Board, color: chess.Color, horizon: int) -> None:
        moves = moves_made(board, color)
        if not 0 <= moves <= horizon:
            return
        seen[_slot(color, moves, horizon)] += 1
        row = _row(color, moves, horizon)
        for piece_type in chess.PIECE_TYPES:
            for square in board.pieces(piece_type, color):
                sums[row + (piece_type - 1) * 64 + square] += 1.0

    def table(self, color: chess.Color) -> array:
        """The rows of one colour, as MetaCore.use_model takes them."""
        size = (self.horizon + 1) * _TYPES * 64
        start = _row(color, 0, self.horizon)
        return self.values[start:start + size]

    def men(self, color: chess.Color, moves: int, piece_type: chess.PieceType, square: chess.Square) -> float:
        """The expected men of `color` and `piece_type` on `square` after `moves` of its moves."""
        return self.values[_row(color, moves, self.horizon) + (piece_type - 1) * 64 + square]

    def write(self, path: str) -> None:
        values = array("f", self.values)
        if sys.byteorder == "big":
            values.byteswap()
        with open(path, "wb") as handle:
            handle.write(MAGIC + _HEADER.pack(self.games, self.horizon) + values.tobytes())

    @classmethod
    def read(cls, path: str) -> "OpponentModel":
        """The model in `path`; InputError naming the fault of a file that is not one."""
        try:
            with open(path, "rb") as handle:
                data = handle.read()
        except OSError as error:
            raise InputError(f"cannot read the opponent model {path}: {error.strerror}") from None
        if not data.startswith(MAGIC) or len(data) < len(MAGIC) + _HEADER.size:
            raise InputError(f"{path} is not a Pyrope Kriegspiel opponent model")
        games, horizon = _HEADER.unpack_from(data, len(MAGIC))
        values = array("f")
        values.frombytes(data[len(MAGIC) + _HEADER.size:])
        if horizon < 1 or len(values) != 2 * (horizon + 1) * _TYPES * 64:
            raise InputError(f"{path}: an opponent model of {horizon} moves holds "
                             f"{2 * (horizon + 1) * _TYPES * 64} values, not {len(values)}")
        if sys.byteorder == "big":
            values.byteswap()
        return cls(games, horizon, values)


def moves_made(board: chess.Board, color: chess.Color) -> int:
    """The moves `color` has made to reach `board`, counted from the standard start by its move number."""
    if color == chess.WHITE:
        return board.fullmove_number - (1 if board.turn == chess.WHITE else 0)
    return board.fullmove_number - 1
