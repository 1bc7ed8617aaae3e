"""Darkboard 1.0's metaposition (thesis section 4.2): what one side may believe about the enemy men it
cannot see, kept a superset of every position the referee's messages allow (I <= M). The belief and
its updates are compiled (pyrope._kriegspiel.MetaCore, ext/kriegspiel_meta.pxi); this is its face
for python-chess moves and the referee's announcements. docs/kriegspiel.md, "Metapositions", says
what it holds and how each message changes it.

- `possible[t]`: squares where an enemy man of piece type t may stand;
- `empty`: squares not holding one of our men that may be empty;
- `age`: turns since we last learned what a square holds (20 for a square surely occupied);
- `pawns_min`/`pawns_max`: bounds on the enemy pawns of each file; `captured_pawns`/
  `captured_pieces`: enemy men we took; `castling`: enemy rooks that may still castle.
"""
from __future__ import annotations

from typing import Optional

import chess

from .._kriegspiel import MetaCore
from .opponent import OpponentModel, moves_made
from .referee import Announcement

PIECE_TYPES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)


class Belief:
    """What a metaposition answers, whoever keeps it up to date: the attributes `color`, `ours` (a
    python-chess board of our men), `possible`, `empty`, `pawns_min` and `pawns_max`."""

    @property
    def mine(self) -> int:
        return self.ours.occupied_co[self.color]

    @property
    def maybe_enemy(self) -> int:
        """Squares that may hold an enemy man."""
        mask = 0
        for bb in self.possible.values():
            mask |= bb
        return mask

    @property
    def surely_empty(self) -> int:
        """Squares certainly empty: neither ours nor possibly the enemy's."""
        return chess.BB_ALL & ~self.mine & ~self.maybe_enemy

    def contains(self, enemy: dict[chess.Square, chess.Piece]) -> bool:
        """Whether the enemy men `enemy` (square -> piece; the referee's truth) are one of the states
        this metaposition holds: the soundness the updates keep (I <= M)."""
        for square, piece in enemy.items():
            if not self.possible[piece.piece_type] & chess.BB_SQUARES[square]:
                return False
        occupied = sum(chess.BB_SQUARES[s] for s in enemy)
        if chess.BB_ALL & ~occupied & ~self.mine & ~self.empty:
            return False
        for f in range(8):
            pawns = sum(1 for s, p in enemy.items() if p.piece_type == chess.PAWN and chess.square_file(s) == f)
            if not self.pawns_min[f] <= pawns <= self.pawns_max[f]:
                return False
        return True



class Metaposition(Belief):
    def __init__(self, fen: str, color: chess.Color, model: Optional[OpponentModel] = None) -> None:
        """The start: both sides are given the start position, so nothing is uncertain yet. With an
        opponent `model` the density follows where its games' enemy men went (opponent.py)."""
        board = chess.Board(fen)
        self.color = color
        self.ours = chess.Board(fen)        # our men alone, with our side to move
        for square in chess.SquareSet(board.occupied_co[not color]):
            self.ours.remove_piece_at(square)
        self.ours.turn = color
        home = chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1
        king = board.king(not color)
        self.core = MetaCore(color == chess.WHITE, [0] + [board.pieces_mask(t, color) for t in PIECE_TYPES],
                             [0] + [board.pieces_mask(t, not color) for t in PIECE_TYPES],
                             board.castling_rights & home, -1 if king is None else king,
                             moves_made(board, not color))
        if model is not None:
            self.core.use_model(model.table(not color), model.horizon)
        self._read()
        self._opening, self._played = True, None

    def played(self, move: chess.Move) -> None:
        """Our try `move` was legal: the next announcement follows it (see `hear`)."""
        self._played = move

    def hear(self, announcement: Announcement) -> None:
        """Follow the game a player hears: the announcement before the first move changes nothing;
        one after our move (`played`) updates for it, any other for the enemy's move."""
        if self._opening:
            self._opening = False
        elif self._played is not None:
            self.our_move(self._played, announcement)
            self._played = None
        else:
            self.their_move(announcement)

    def refused(self, move: chess.Move, in_check: bool) -> None:
        """The referee refused our try `move`, `in_check` when we were in check: a pawn's single
        step then tells where an enemy man stands (MetaCore.refused)."""
        self.core.refused(move.from_square, move.to_square, in_check)
        self._read()

    def _read(self) -> None:
        state = self.core.state()
        self.possible = dict(zip(PIECE_TYPES, state["possible"]))
        self.empty, self.age = state["empty"], state["age"]
        self.pawns_min, self.pawns_max = state["pawns_min"], state["pawns_max"]
        self.captured_pawns, self.captured_pieces = state["captured"]
        self.castling = state["castling"]

    def believe(self, possible: dict[int, int] | None = None, empty: int | None = None) -> None:
        """Replace what is believed possible (by type) and/or possibly empty: for hand-made cases."""
        merged = {**self.possible, **(possible or {})}
        self.core.set_belief([0] + [merged[t] for t in PIECE_TYPES], empty or 0, empty is not None)
        self._read()

    def our_move(self, move: chess.Move, announcement: Announcement) -> None:
        """Our legal try `move` (on our board) and the announcement after it."""
        board = self.ours
        rook_from = rook_to = -1
        king_to = move.to_square
        if board.is_castling(move):         # the rook's squares and the king's, any castling form
            rooks = board.pieces_mask(chess.ROOK, self.color)
            after = board.copy(stack=False)
            after.push(move)
            moved = after.pieces_mask(chess.ROOK, self.color)
            rook_from, rook_to = chess.lsb(rooks & ~moved), chess.lsb(moved & ~rooks)
            king_to = after.king(self.color)
        capture = announcement.capture
        self.core.our_move(move.from_square, king_to, move.promotion or 0, rook_from, rook_to,
                           capture.square if capture else -1, bool(capture and capture.pawn), announcement.check_bits,
                           _pawn_tries(announcement))
        board.push(move)
        board.turn = self.color
        board.ep_square = None
        self._read()

    def their_move(self, announcement: Announcement) -> None:
        """The enemy's unseen move and the announcement after it (a man of ours it took, checks on us)."""
        capture = announcement.capture
        if capture is not None:
            self.ours.remove_piece_at(capture.square)
        self.core.their_move(capture.square if capture else -1, bool(capture and capture.pawn), announcement.check_bits,
                             _pawn_tries(announcement))
        self._read()


def _pawn_tries(announcement: Announcement) -> int:
    """The pawn tries announced for the side to move, -1 once the game is over (none are)."""
    return -1 if announcement.pawn_tries is None else announcement.pawn_tries
