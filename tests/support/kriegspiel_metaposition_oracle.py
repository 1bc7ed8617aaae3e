"""The pure-Python metaposition: the oracle that pyrope.kriegspiel.metaposition (compiled, MetaCore)
is held to update by update (tests/kriegspiel/test_kriegspiel_meta_core.py). Written first, in Python, from the
thesis; kept here because a second, independent reading is what makes the comparison worth it.

Darkboard 1.0's metaposition (thesis section 4.2) as bitboards: what one side may believe about the
enemy men it cannot see, kept a superset of every position the referee's messages allow (I <= M).

- `possible[t]`: squares where an enemy man of piece type t may stand (one bitboard per type);
- `empty`: squares not holding one of our men that may be empty; a square outside it certainly
  holds an enemy man, a square outside every `possible[t]` certainly holds none;
- `age`: turns since we last learned what a square holds (section 4.2.3);
- `pawns_min`/`pawns_max`: bounds on the enemy pawns of each file; `captured_pawns`/`captured_pieces`:
  enemy men we took; `castling`: enemy rooks that may still castle.

The updates (section 4.3) only ever drop what a message rules out for certain, so they stay sound:
`our_move` after our legal try and its announcement (captures, checks given, the enemy's pawn tries),
`their_move` after the enemy's unseen move and its announcement (a man of ours taken, checks on us).
Pseudo-pieces spread on the enemy's turn as section 4.3.4 moves them: sliding through squares that
may be empty, onto squares that may be empty, or onto the square of the announced capture only.
"""
from __future__ import annotations

from typing import Optional

import chess

from pyrope.kriegspiel.metaposition import Belief
from pyrope.kriegspiel.referee import Announcement, Check

PIECE_TYPES = (chess.PAWN, chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN, chess.KING)
PROMOTIONS = (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN)
SURELY_OCCUPIED_AGE = 20    # age of a square that certainly holds an enemy man: danger (4.2.3)


def diagonal_check(king: chess.Square, other: chess.Square) -> Check:
    """The kind of a diagonal check on `king` from `other`: long when the diagonal through both is
    the longer of the king's two (their lengths always differ)."""
    kf, kr = chess.square_file(king), chess.square_rank(king)
    main = 8 - abs(kf - kr)             # a1-h8 direction
    anti = 8 - abs(kf + kr - 7)         # a8-h1 direction
    on_main = kf - kr == chess.square_file(other) - chess.square_rank(other)
    length, rival = (main, anti) if on_main else (anti, main)
    return Check.LONG_DIAGONAL if length > rival else Check.SHORT_DIAGONAL


def line_check(king: chess.Square, other: chess.Square) -> Optional[Check]:
    """The kind of check a slider on `other` gives along its line to `king`, None if not aligned."""
    if chess.square_rank(king) == chess.square_rank(other):
        return Check.RANK
    if chess.square_file(king) == chess.square_file(other):
        return Check.FILE
    if chess.BB_RAYS[king][other]:
        return diagonal_check(king, other)
    return None


SLIDES = {chess.BISHOP: (Check.LONG_DIAGONAL, Check.SHORT_DIAGONAL),
          chess.ROOK: (Check.RANK, Check.FILE),
          chess.QUEEN: (Check.RANK, Check.FILE, Check.LONG_DIAGONAL, Check.SHORT_DIAGONAL)}


def check_from(piece: int, color: chess.Color, square: chess.Square, king: chess.Square,
               clear: int) -> Optional[Check]:
    """The check a man (type `piece`, colour `color`) on `square` gives the enemy king on `king`
    when the squares in `clear` are empty, or None."""
    if piece == chess.KNIGHT:
        return Check.KNIGHT if chess.BB_KNIGHT_ATTACKS[square] & chess.BB_SQUARES[king] else None
    if piece == chess.PAWN:
        return diagonal_check(king, square) if chess.BB_PAWN_ATTACKS[color][square] & chess.BB_SQUARES[king] else None
    if piece not in SLIDES:
        return None
    kind = line_check(king, square)
    if kind is None or kind not in SLIDES[piece] or chess.between(square, king) & ~clear:
        return None
    return kind


class Metaposition(Belief):
    def __init__(self, fen: str, color: chess.Color) -> None:
        """The start: both sides are given the start position, so nothing is uncertain yet."""
        board = chess.Board(fen)
        self.color = color
        self.ours = chess.Board(fen)        # our men alone (the enemy's are the metaposition's)
        for square in chess.SquareSet(board.occupied_co[not color]):
            self.ours.remove_piece_at(square)
        self.ours.turn = color              # python-chess moves a man in the colour of the side to move
        self.possible = {t: board.pieces_mask(t, not color) for t in PIECE_TYPES}
        self.empty = ~board.occupied & chess.BB_ALL
        self.age = [0] * 64
        files = [sum(1 for s in board.pieces(chess.PAWN, not color) if chess.square_file(s) == f) for f in range(8)]
        self.pawns_min, self.pawns_max = list(files), list(files)
        self.captured_pawns = self.captured_pieces = 0
        self._men = chess.popcount(board.occupied_co[not color])     # the enemy's at the start
        home = chess.BB_RANK_8 if color == chess.WHITE else chess.BB_RANK_1
        self.castling = board.castling_rights & home
        self._king_home = board.king(not color)            # where castling starts (any start FEN)
        self._double_push: Optional[chess.Square] = None     # our pawn an en passant may take

    # -- queries: mine, maybe_enemy, surely_empty, contains come from Belief ---------------
    def checks_on(self, king: chess.Square, certain: bool) -> set[Check]:
        """The checks our men give an enemy king on `king`: those they certainly give (every square
        between surely empty once the king stands on `king`: no other enemy man may be there), or
        all they may give (every square between may be empty)."""
        if certain:
            others = 0
            for t in PIECE_TYPES[:-1]:
                others |= self.possible[t]
            clear = chess.BB_ALL & ~self.mine & ~others
        else:
            clear = self.empty & ~self.mine
        kinds = set()
        for square, piece in self.ours.piece_map().items():     # our men only
            kind = check_from(piece.piece_type, self.color, square, king, clear)
            if kind is not None:
                kinds.add(kind)
        return kinds

    # -- our move ---------------------------------------------------------------------------
    def our_move(self, move: chess.Move, announcement: Announcement) -> None:
        """Our legal try `move` (on our board) and the announcement after it."""
        board = self.ours
        seen = chess.BB_SQUARES[move.from_square] | chess.BB_SQUARES[move.to_square]
        if board.is_castling(move):
            seen |= self._castling_squares(move)
        elif board.piece_type_at(move.from_square) != chess.KNIGHT:
            seen |= chess.between(move.from_square, move.to_square)
        pawn = board.piece_type_at(move.from_square) == chess.PAWN
        self._double_push = move.to_square if pawn and abs(move.to_square - move.from_square) == 16 else None
        capture = announcement.capture
        if capture is not None:
            self._took(capture.square, capture.pawn)
            seen |= chess.BB_SQUARES[capture.square]
        self._clear(seen)
        board.push(move)
        board.turn = self.color
        board.ep_square = None
        self._narrow_king(set(announcement.checks))
        if announcement.pawn_tries == 0 and not announcement.checks:
            self._no_enemy_pawn_tries()
        for square in chess.SquareSet(seen):
            self.age[square] = 0

    def _no_enemy_pawn_tries(self) -> None:
        """The enemy has no legal pawn capture (and is not in check): no enemy pawn attacks a man
        of ours, unless it may stand pinned between one of our sliders and its king."""
        kings = self.possible[chess.KING]
        sliders = [(square, piece.piece_type) for square, piece in self.ours.piece_map().items()
                   if piece.piece_type in SLIDES]
        attackers = 0
        for square in chess.SquareSet(self.mine):
            attackers |= chess.BB_PAWN_ATTACKS[self.color][square]
        for square in chess.SquareSet(attackers & self.possible[chess.PAWN]):
            if not any(self._may_pin(q, square, kings if t != chess.BISHOP else 0, kings if t != chess.ROOK else 0)
                       for q, t in sliders):
                self.possible[chess.PAWN] &= ~chess.BB_SQUARES[square]
        self._tidy()

    def _may_pin(self, anchor: chess.Square, square: chess.Square, straight: int, diagonal: int) -> bool:
        """Whether the man on `square` may be pinned along the line from `anchor`: none of our men
        between them, and one of `straight` (on a rank or file) or `diagonal` (on a diagonal)
        elsewhere on that line."""
        line = chess.ray(anchor, square)
        if not line or chess.between(anchor, square) & self.mine:
            return False
        line &= ~chess.between(anchor, square) & ~chess.BB_SQUARES[anchor] & ~chess.BB_SQUARES[square]
        aligned = chess.square_rank(anchor) == chess.square_rank(square) or chess.square_file(anchor) == chess.square_file(square)
        return bool(line & (straight if aligned else diagonal))

    def _castling_squares(self, move: chess.Move) -> int:
        rank = chess.BB_RANK_1 if self.color == chess.WHITE else chess.BB_RANK_8
        kingside = chess.square_file(move.to_square) > chess.square_file(move.from_square)
        return rank & (chess.BB_FILE_E | chess.BB_FILE_F | chess.BB_FILE_G | chess.BB_FILE_H if kingside
                       else chess.BB_FILE_A | chess.BB_FILE_B | chess.BB_FILE_C | chess.BB_FILE_D | chess.BB_FILE_E)

    def _took(self, square: chess.Square, pawn: bool) -> None:
        bb = chess.BB_SQUARES[square]
        if pawn:
            self.captured_pawns += 1
            f = chess.square_file(square)
            self.pawns_max[f] -= 1
            self.pawns_min[f] = max(0, self.pawns_min[f] - 1)
        else:
            self.captured_pieces += 1
        self.castling &= ~bb

    def _clear(self, squares: int) -> None:
        """Squares we now know hold no enemy man."""
        for t in PIECE_TYPES:
            self.possible[t] &= ~squares
        self.empty |= squares
        self._tidy()

    def _narrow_king(self, announced: set[Check]) -> None:
        """Keep the enemy king only where our men's checks can match the announcement."""
        kings = 0
        our_king = self.ours.king(self.color)
        near = chess.BB_KING_ATTACKS[our_king] if our_king is not None else 0
        for king in chess.SquareSet(self.possible[chess.KING] & ~near):
            if self.checks_on(king, True) <= announced <= self.checks_on(king, False):
                kings |= chess.BB_SQUARES[king]
        self.possible[chess.KING] = kings
        self._tidy()

    # -- their move -------------------------------------------------------------------------
    def their_move(self, announcement: Announcement) -> None:
        """The enemy's unseen move and the announcement after it (a man of ours it took, checks on
        us). Every pseudo-piece may have made it (4.3.4)."""
        capture = announcement.capture
        mine_before = self.mine
        if capture is not None:
            self.ours.remove_piece_at(capture.square)
        target = chess.BB_SQUARES[capture.square] if capture is not None else 0
        landing = self._landing(capture)
        walkable = self.empty & ~mine_before                 # squares a man may pass or go to
        spread = {t: 0 for t in PIECE_TYPES}
        movers = 0                                            # squares a man may have left
        leaving, arriving = set(), set()                      # files a pawn may leave or enter
        for t in PIECE_TYPES:
            for square in chess.SquareSet(self.possible[t]):
                reach = self._reach(t, square, walkable, landing)
                if not reach:
                    continue
                movers |= chess.BB_SQUARES[square]
                if t == chess.PAWN:
                    last = reach & (chess.BB_RANK_1 | chess.BB_RANK_8)
                    spread[chess.PAWN] |= reach & ~last
                    for promoted in PROMOTIONS:
                        spread[promoted] |= last
                    captures = reach & ~chess.BB_FILES[chess.square_file(square)]
                    if last or captures:                      # promoting or capturing leaves the file
                        leaving.add(chess.square_file(square))
                    arriving.update(chess.square_file(to) for to in chess.SquareSet(captures & ~last))
                else:
                    spread[t] |= reach
        # One man moves: a file loses or gains at most one pawn.
        for f in leaving:
            self.pawns_min[f] = max(0, self.pawns_min[f] - 1)
        for f in arriving:
            self.pawns_max[f] += 1
        if capture is not None:
            # The capturing man stands on the square (or behind it, en passant): nothing else does.
            for t in PIECE_TYPES:
                self.possible[t] = (self.possible[t] & ~landing) | spread[t]
            self.empty = (self.empty | movers | target) & ~landing
            if landing != target:                              # en passant possible
                self.empty |= landing | target
        else:
            for t in PIECE_TYPES:
                self.possible[t] |= spread[t]
            self.empty |= movers
        self._double_push = None
        self._tidy()
        self._narrow_checkers(set(announcement.checks))
        self._narrow_king(set())                              # a king is never left in check
        if announcement.pawn_tries == 0 and not announcement.checks:
            self._no_pawn_tries()
        self._age()

    def refused(self, move: chess.Move, in_check: bool) -> None:
        """The referee refused our try `move`: a pawn's single step, refused while we were not in
        check, tells an enemy man stands on its square -- unless the pawn may be pinned to our king."""
        pawn = self.ours.piece_type_at(move.from_square) == chess.PAWN
        step = 8 if self.color == chess.WHITE else -8
        to = chess.BB_SQUARES[move.to_square]
        if in_check or not pawn or move.to_square != move.from_square + step:
            return
        if to & self.mine or not to & self.maybe_enemy:
            return
        king = self.ours.king(self.color)
        straight = self.possible[chess.ROOK] | self.possible[chess.QUEEN]
        diagonal = self.possible[chess.BISHOP] | self.possible[chess.QUEEN]
        if king is not None and self._may_pin(king, move.from_square, straight, diagonal):
            return
        self.empty &= ~to
        self.age[move.to_square] = SURELY_OCCUPIED_AGE
        self._tidy()

    def _no_pawn_tries(self) -> None:
        """We have no legal pawn capture (and are not in check): no enemy man stands where one of
        our pawns attacks, unless that pawn may be pinned to our king."""
        king = self.ours.king(self.color)
        straight = self.possible[chess.ROOK] | self.possible[chess.QUEEN]
        diagonal = self.possible[chess.BISHOP] | self.possible[chess.QUEEN]
        clear = 0
        for pawn in self.ours.pieces(chess.PAWN, self.color):
            if king is None or not self._may_pin(king, pawn, straight, diagonal):
                clear |= chess.BB_PAWN_ATTACKS[self.color][pawn]
        self._clear(clear & ~self.mine)

    def _landing(self, capture) -> int:
        """Squares the capturing man may stand on: the capture square, or the square behind our
        pawn that had just advanced two when an en passant may have taken it."""
        if capture is None:
            return 0
        bb = chess.BB_SQUARES[capture.square]
        if capture.pawn and capture.square == self._double_push:
            behind = capture.square - 8 if self.color == chess.WHITE else capture.square + 8
            bb |= chess.BB_SQUARES[behind]
        return bb

    def _reach(self, t: int, square: chess.Square, walkable: int, landing: int) -> int:
        """Squares a pseudo-piece of type t on `square` may move to: onto `landing` only when a
        capture was announced, else onto walkable squares; through walkable squares."""
        enemy = not self.color
        blockers = chess.BB_ALL & ~walkable
        if t == chess.PAWN:
            step = 8 if enemy == chess.WHITE else -8
            pushes = 0
            one = square + step
            if 0 <= one < 64 and walkable & chess.BB_SQUARES[one]:
                pushes |= chess.BB_SQUARES[one]
                start = chess.BB_RANK_2 if enemy == chess.WHITE else chess.BB_RANK_7
                two = one + step
                if start & chess.BB_SQUARES[square] and walkable & chess.BB_SQUARES[two]:
                    pushes |= chess.BB_SQUARES[two]
            if landing:
                return chess.BB_PAWN_ATTACKS[enemy][square] & landing
            return pushes
        if t == chess.KNIGHT:
            reach = chess.BB_KNIGHT_ATTACKS[square]
        elif t == chess.KING:
            reach = chess.BB_KING_ATTACKS[square] | self._castling_reach(square)
        else:
            reach = 0
            if t in (chess.BISHOP, chess.QUEEN):
                reach |= chess.BB_DIAG_ATTACKS[square][chess.BB_DIAG_MASKS[square] & blockers]
            if t in (chess.ROOK, chess.QUEEN):
                reach |= (chess.BB_RANK_ATTACKS[square][chess.BB_RANK_MASKS[square] & blockers]
                          | chess.BB_FILE_ATTACKS[square][chess.BB_FILE_MASKS[square] & blockers])
        return reach & (landing if landing else walkable)

    def _castling_reach(self, square: chess.Square) -> int:
        """The enemy king's castling squares (g or c file, as in Chess960 too), while a right may
        remain and the king may be at home."""
        if square != self._king_home or not self.castling:
            return 0
        home_rank = chess.BB_RANKS[chess.square_rank(square)]
        reach = 0
        for rook in chess.SquareSet(self.castling):
            kingside = chess.square_file(rook) > chess.square_file(square)
            reach |= home_rank & (chess.BB_FILE_G if kingside else chess.BB_FILE_C)
        return reach

    def _narrow_checkers(self, announced: set[Check]) -> None:
        """No enemy man stands where it would certainly give a check not announced."""
        king = self.ours.king(self.color)
        if king is None:
            return
        clear = self.surely_empty
        for t in PIECE_TYPES:
            for square in chess.SquareSet(self.possible[t]):
                kind = check_from(t, not self.color, square, king, clear)
                if kind is not None and kind not in announced:
                    self.possible[t] &= ~chess.BB_SQUARES[square]
        self._tidy()

    def _tidy(self) -> None:
        """Consequences kept in step: a square surely occupied where only a pawn may stand holds
        one of its file's pawns (at least as many there; if no more, none elsewhere on the file);
        the pawns surely on the board all the men left besides the king: no piece, no file with
        more pawns than it surely has; a square no man may hold is empty; files that can hold no
        pawn; castling rights of a king or rook that has surely left home."""
        others = 0
        for t in PIECE_TYPES[1:]:
            others |= self.possible[t]
        pawn_only = chess.BB_ALL & ~self.empty & ~self.mine & self.possible[chess.PAWN] & ~others
        for f in range(8):
            held = chess.popcount(pawn_only & chess.BB_FILES[f])
            self.pawns_min[f] = max(self.pawns_min[f], held)
            if held and held >= self.pawns_max[f]:
                self.possible[chess.PAWN] &= ~chess.BB_FILES[f] | pawn_only
        if sum(self.pawns_min) == self._men - self.captured_pawns - self.captured_pieces - 1:
            for t in (chess.KNIGHT, chess.BISHOP, chess.ROOK, chess.QUEEN):
                self.possible[t] = 0
            self.pawns_max = list(self.pawns_min)
        self.empty |= chess.BB_ALL & ~self.mine & ~self.maybe_enemy
        for f in range(8):
            on_file = chess.popcount(self.possible[chess.PAWN] & chess.BB_FILES[f])
            self.pawns_max[f] = min(self.pawns_max[f], on_file)
            if self.pawns_max[f] <= 0:
                self.pawns_max[f] = 0
                self.possible[chess.PAWN] &= ~chess.BB_FILES[f]
        if self._king_home is None or not self.possible[chess.KING] & chess.BB_SQUARES[self._king_home]:
            self.castling = 0
        self.castling &= self.possible[chess.ROOK]

    def _age(self) -> None:
        empty, occupied = self.surely_empty, chess.BB_ALL & ~self.empty & ~self.mine
        for square in range(64):
            bb = chess.BB_SQUARES[square]
            if empty & bb:
                self.age[square] = 0
            elif occupied & bb:
                self.age[square] = SURELY_OCCUPIED_AGE
            else:
                self.age[square] += 1
