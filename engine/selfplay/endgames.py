"""Random endgame positions, for tablebase checks and conversion runs."""
from __future__ import annotations

import random

import chess


def random_endgame(rng: random.Random, white: str, black: str) -> chess.Board:
    """A legal position, not over, with the kings plus `white` and `black` (piece letters such as
    "BN" and "P"), either side to move, no castling or en passant."""
    while True:
        board = chess.Board(None)
        squares = rng.sample(range(64), 2 + len(white) + len(black))
        board.set_piece_at(squares[0], chess.Piece(chess.KING, chess.WHITE))
        board.set_piece_at(squares[1], chess.Piece(chess.KING, chess.BLACK))
        pieces = [(letter, chess.WHITE) for letter in white] + [(letter, chess.BLACK) for letter in black]
        for square, (letter, color) in zip(squares[2:], pieces):
            board.set_piece_at(square, chess.Piece(chess.PIECE_SYMBOLS.index(letter.lower()), color))
        board.turn = rng.choice([chess.WHITE, chess.BLACK])
        if board.is_valid() and not board.is_game_over():
            return board
