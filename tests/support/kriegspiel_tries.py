"""Random Kriegspiel tries for the referee's oracle test and its benchmark: what a player who sees
only its own men might try -- each of its men's moves on its own board (so moves the enemy blocks,
moves into check and castling through attacked squares too), pawn captures onto every square a
pawn attacks, and some nonsense (from empty or enemy squares, impossible geometry) -- written in
every form the referee reads.
"""
from __future__ import annotations

import random

import chess

PROMOTION_LETTERS = "nbrq"
PROMOTION_PIECES = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)


def own_board(board: chess.Board) -> chess.Board:
    """The position as the side to move sees it: its own men only, its castling rights."""
    own = board.copy(stack=False)
    for square in chess.SquareSet(board.occupied_co[not board.turn]):
        own.remove_piece_at(square)
    own.ep_square = None
    return own


def candidate_moves(board: chess.Board, rng: random.Random, nonsense: int = 3,
                    captures_first: bool = False) -> list[chess.Move]:
    """Shuffled tries for the side to move of `board` (the true position), made from what it sees
    of its own men; every legal move is among them. captures_first puts the tries that would take
    a man first, which shortens games and brings endings, promotions and mates sooner."""
    own = own_board(board)
    us = board.turn
    moves = set(own.pseudo_legal_moves)
    for square in own.pieces(chess.PAWN, us):
        for target in chess.SquareSet(chess.BB_PAWN_ATTACKS[us][square]):
            if own.color_at(target) != us:
                if chess.square_rank(target) in (0, 7):
                    moves.update(chess.Move(square, target, piece) for piece in PROMOTION_PIECES)
                else:
                    moves.add(chess.Move(square, target))
    for _ in range(nonsense):
        frm, to = rng.randrange(64), rng.randrange(64)
        if frm != to:
            moves.add(chess.Move(frm, to, rng.choice([None, None, None, chess.KNIGHT, chess.QUEEN])))
    moves = sorted(moves, key=lambda m: m.uci())     # a set's order would not follow the seed
    rng.shuffle(moves)
    if captures_first:
        moves.sort(key=lambda move: not board.is_capture(move))
    return moves


def written(move: chess.Move, board: chess.Board, rng: random.Random) -> tuple[str, chess.Move]:
    """A random written form of a try on `board` (the true position), and the move it stands for:
    castling as o-o or the king's step, a queen promotion sometimes unwritten (the referee then
    makes a queen, so a pawn's unwritten promotion stands for the queen's)."""
    frm, to = chess.square_name(move.from_square), chess.square_name(move.to_square)
    # The mover's king two files along its rank (python-chess's is_castling says yes to any king's
    # move of two files or more, or onto its own rook).
    castling = move.from_square == board.king(board.turn) \
        and chess.square_rank(move.from_square) == chess.square_rank(move.to_square) \
        and abs(chess.square_file(move.from_square) - chess.square_file(move.to_square)) == 2
    if castling and rng.random() < 0.5:
        text = rng.choice(["o-o", "O-O", "0-0"]) if move.to_square > move.from_square \
            else rng.choice(["o-o-o", "O-O-O", "0-0-0"])
        return text, move
    text = frm + rng.choice(["", "-"]) + to
    promotes = board.piece_type_at(move.from_square) == chess.PAWN \
        and board.color_at(move.from_square) == board.turn and chess.square_rank(move.to_square) in (0, 7)
    if promotes and move.promotion in (None, chess.QUEEN) and rng.random() < 0.3:
        return text, chess.Move(move.from_square, move.to_square, chess.QUEEN)
    if move.promotion:
        letter = PROMOTION_LETTERS[move.promotion - chess.KNIGHT]
        return text + rng.choice(["=" + letter.upper(), letter]), move
    return text, chess.Move(move.from_square, move.to_square, chess.QUEEN) if promotes else move
