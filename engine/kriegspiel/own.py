"""What one side knows for certain in Kriegspiel: its own men -- those of the start position (both
sides are given it), moved as it moved them, taken where the referee announces a capture after an
opponent's move. The PGN narrator and the players keep their knowledge in it; it never sees the
referee's position.
"""
from __future__ import annotations

from collections import Counter

import chess


def chess_board(fen: str) -> chess.Board:
    """python-chess's board of a start position; castling with a rook python-chess does not call
    standard (king on b1, say) as Chess960's king-takes-rook, as python-chess's PGN reader does."""
    board = chess.Board(fen)
    board.chess960 = board.has_chess960_castling_rights()
    return board


class OwnBoard:
    """One side's own men on a python-chess board holding no enemy man, with that side always to
    move. A PGN narrator's SAN is disambiguated from it; a player draws its tries from it."""

    def __init__(self, fen: str, color: chess.Color) -> None:
        self.color = color
        self.board = chess_board(fen)
        for square in chess.SquareSet(self.board.occupied_co[not color]):
            self.board.remove_piece_at(square)
        self.board.castling_rights &= chess.BB_RANK_1 if color == chess.WHITE else chess.BB_RANK_8
        self._own_turn()
        # Our men's placements, at the start and after each of our moves: each may come back with
        # the enemy's men where they were, and a third time would be a threefold repetition.
        self.placements: Counter[tuple[int, ...]] = Counter([self._placement()])

    def _placement(self) -> tuple[int, ...]:
        """Where our men stand (the board holds no other): each kind's squares. Not board_fen():
        the players ask this of every move at every try, and board_fen() took two thirds of a
        maximax try's time (1.9 ms a try then, 0.6 ms now, with the smallest search)."""
        board = self.board
        return board.pawns, board.knights, board.bishops, board.rooks, board.queens, board.kings

    def _own_turn(self) -> None:
        self.board.turn = self.color
        self.board.ep_square = None

    def san(self, move: chess.Move, codes: tuple[str, ...], mate: bool) -> str:
        """`move` of the narrator's in SAN, `x` and `+` from the codes announced after it.

        The disambiguation rule: name the from-file (else rank, else both) when another man of the
        same kind could reach the square on a board holding only the narrator's men. Hidden enemy
        men can only block or pin, so no other own man could ever make the move; every one that can
        here might, as far as the narrator knows."""
        board = self.board
        suffix = "#" if mate else "+" if any(code[0] == "C" for code in codes) else ""
        if board.is_castling(move):
            kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
            return ("O-O" if kingside else "O-O-O") + suffix
        to = chess.square_name(move.to_square)
        promotion = "=" + chess.piece_symbol(move.promotion).upper() if move.promotion else ""
        piece = board.piece_type_at(move.from_square)
        if piece == chess.PAWN:
            if chess.square_file(move.from_square) != chess.square_file(move.to_square):
                return chess.FILE_NAMES[chess.square_file(move.from_square)] + "x" + to + promotion + suffix
            return to + promotion + suffix
        others = chess.SquareSet(board.attackers(self.color, move.to_square) & board.pieces_mask(piece, self.color)
                                 & ~chess.BB_SQUARES[move.from_square])
        where = chess.square_name(move.from_square)
        if not others:
            where = ""
        elif all(chess.square_file(s) != chess.square_file(move.from_square) for s in others):
            where = where[0]
        elif all(chess.square_rank(s) != chess.square_rank(move.from_square) for s in others):
            where = where[1]
        capture = "x" if any(code[0] == "X" for code in codes) else ""
        return chess.piece_symbol(piece).upper() + where + capture + to + suffix

    def candidates(self) -> list[chess.Move]:
        """Every move the narrator's men might make as far as it knows: their moves on its own board
        and pawn captures onto every square a pawn attacks that none of its men holds."""
        board = self.board
        moves = list(board.pseudo_legal_moves)
        for square in board.pieces(chess.PAWN, self.color):
            for target in chess.SquareSet(chess.BB_PAWN_ATTACKS[self.color][square] & ~board.occupied):
                last = chess.square_rank(target) in (0, 7)
                moves += [chess.Move(square, target, piece)
                          for piece in ((chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN) if last else (None,))]
        return moves

    def play(self, move: chess.Move) -> None:
        self.board.push(move)
        self._own_turn()
        self.placements[self._placement()] += 1

    def repeats(self, move: chess.Move) -> bool:
        """Whether `move` would set our men as they already stood twice after our moves."""
        self.board.push(move)
        seen = self.placements[self._placement()]
        self.board.pop()
        return seen >= 2

    def hear(self, codes: tuple[str, ...]) -> bool:
        """Take away the man an opponent's capture took (appendix B's codes); False when the
        narrator has none there."""
        return all(self.lose(chess.parse_square(code[1:])) for code in codes if code[0] == "X")

    def lose(self, square: chess.Square) -> bool:
        """Take away the man an opponent's capture took on `square`; False when none is there."""
        if self.board.color_at(square) != self.color:
            return False
        self.board.remove_piece_at(square)
        return True
