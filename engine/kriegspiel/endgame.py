"""The bare enemy king (thesis chapter 6): when the enemy has nothing but its king, everything we
believe of it is the set of squares where it may stand, and section 6.2's search over that set
converts the win. The set and the search are compiled (pyrope._kriegspiel.BareKing); this module
keeps the set in step with the referee and plays the search's tries as a Player.

The search sees every referee answer as chosen by an omniscient enemy (the worst for us by EVAL);
a move that may stalemate any possible king is a stalemate, and it mates only when every possible
king is mated. Moves already played from the very same metaposition are avoided (the thesis's
loop-breaking), so a random king cannot hold it in a cycle.
"""
from __future__ import annotations

import random
from typing import Optional, Sequence

import chess

from .._kriegspiel import BareKing
from .metaposition import Metaposition
from .budget import MoveBudget
from .players import Player, RandomPlayer, try_text
from .referee import Announcement

DEPTH = 4               # our moves deep, each followed by every answer and the king's unseen step
MAX_NODES = 400_000     # positions a search may visit before it settles for the last whole depth
UNLIMITED = 2 ** 62     # the node limit of a search that time alone limits


def bare_king_squares(board: chess.Board, color: chess.Color, our_turn: bool) -> int:
    """Every square where the enemy king could stand beside our men on `board` (ours alone) with
    nothing else known: not on our men, not next to our king, and not in check when we are to move
    (the side not to move is never in check)."""
    squares = chess.BB_ALL & ~board.occupied_co[color]
    king = board.king(color)
    if king is not None:
        squares &= ~chess.BB_KING_ATTACKS[king] & ~chess.BB_SQUARES[king]
    if our_turn:
        for square in chess.SquareSet(board.occupied_co[color]):
            squares &= ~board.attacks_mask(square)
    return squares


def bare_king_start(rng: random.Random, pieces: Sequence[chess.PieceType], color: chess.Color = chess.WHITE) -> str:
    """A start of section 6.4's tests, `color` to move: its king anywhere, its `pieces` each on a
    free square beside it (anywhere once none is free), the enemy's bare king anywhere legal."""
    while True:
        board = chess.Board(None)
        king = rng.randrange(64)
        board.set_piece_at(king, chess.Piece(chess.KING, color))
        for piece in pieces:
            free = [s for s in chess.SquareSet(chess.BB_KING_ATTACKS[king]) if not board.piece_at(s)] \
                or [s for s in chess.SQUARES if not board.piece_at(s)]
            board.set_piece_at(rng.choice(free), chess.Piece(piece, color))
        board.set_piece_at(rng.choice([s for s in chess.SQUARES if not board.piece_at(s)]),
                           chess.Piece(chess.KING, not color))
        board.turn = color
        if board.is_valid() and not board.is_game_over():
            return board.fen()


def enemy_is_bare(fen: str, color: chess.Color) -> bool:
    board = chess.Board(fen)
    return board.occupied_co[not color] == board.pieces_mask(chess.KING, not color)


class BareKingPlayer(Player):
    """Plays a side whose enemy has only its king, by section 6.2's search. `known` starts it
    knowing the king's square from the start position (both sides are given it); otherwise it
    knows nothing (section 6.4's tests): the king may be on any square the rules allow."""

    def __init__(self, depth: int = DEPTH, max_nodes: int = MAX_NODES, known: bool = True) -> None:
        self.depth, self.max_nodes, self.known = depth, max_nodes, known

    def start(self, color: chess.Color, fen: str) -> None:
        super().start(color, fen)
        if not enemy_is_bare(fen, color):
            raise ValueError(f"the enemy has more than its king in {fen}")
        start = chess.Board(fen)
        if self.known:
            kings = start.pieces_mask(chess.KING, not color)
        else:
            kings = bare_king_squares(self.own.board, color, start.turn == color)
        self.take_over(kings)
        self._opening = True

    def take_over(self, kings: int, walls: int = 0) -> None:
        """Play on from our men (self.own) with the enemy king somewhere in `kings` (a set of
        squares): how a stronger player hands over once the enemy is bare -- or has nothing else
        but pawns `walls` (a set of squares), each surely there and stuck."""
        board = self.own.board
        men = [(square, piece.piece_type) for square, piece in board.piece_map().items()]
        self.search = BareKing(self.color == chess.WHITE, men, kings, walls)
        self._awaiting: Optional[chess.Move] = None     # our legal move, until its announcement
        self._visited: dict[tuple, set[int]] = {}       # moves played from each metaposition
        self._opening = False
        self.nodes = 0                                   # positions searched this game

    @property
    def kings(self) -> int:
        """The squares where the enemy king may stand now."""
        return self.search.kings

    def hear(self, announcement: Announcement) -> None:
        super().hear(announcement)
        if self._opening:               # before the first move: nothing has moved
            self._opening = False
        elif self._awaiting is not None:
            self.search.played(packed(self._awaiting), announcement.check_bits)
            self._awaiting = None
        else:                           # the king's unseen step, perhaps taking a man of ours
            capture = announcement.capture
            self.search.their_move(capture.square if capture else -1)

    def _repeating(self) -> set[int]:
        """Our moves that would set our men as they already stood twice: a third time could
        repeat the whole position, a draw."""
        return {move for move in self.search.moves() if self.own.repeats(unpacked(move))}

    def answered(self, text: str, legal: bool) -> None:
        super().answered(text, legal)
        if legal:
            self._awaiting = self._tried
        else:
            self.search.refused(packed(self._tried))

    def next_try(self) -> str:
        board = self.own.board
        state = (board.board_fen(), self.search.kings)
        played = self._visited.setdefault(state, set())
        nodes, seconds = self.budget.search(self.max_nodes)
        found = self.search.best(self.depth, nodes or UNLIMITED, sorted(played | self._repeating()), seconds)
        if found is None:
            raise RuntimeError("no try is left against the bare king")
        move = found[0]
        self.nodes += self.search.nodes
        played.add(move)
        self._tried = unpacked(move)
        return try_text(board, self._tried)


def packed(move: chess.Move) -> int:
    """A move as the compiled core packs it (RefereeCore.probe, BareKing, MetaCore):
    from | to << 6 | promotion << 12."""
    return move.from_square | move.to_square << 6 | (move.promotion or 0) << 12


def unpacked(move: int) -> chess.Move:
    return chess.Move(move & 63, (move >> 6) & 63, (move >> 12) or None)


class HandOver(Player):
    """`inner` plays until the enemy has nothing but its king, then the bare-king search takes over
    from where a metaposition kept beside it says the king may stand (sound: the true king is
    always inside). How any player converts its won endings (the thesis's strong players do).
    The search takes over too when the enemy has nothing but its king and pawns that cannot move
    (stuck_pawns): they are walls to it, which it keeps stuck."""

    def __init__(self, inner: Player, depth: int = DEPTH, max_nodes: int = MAX_NODES) -> None:
        self.inner, self.depth, self.max_nodes = inner, depth, max_nodes

    def start(self, color: chess.Color, fen: str) -> None:
        self.color = color
        self.inner.start(color, fen)
        self.meta = Metaposition(fen, color)
        self.enemy_start = chess.popcount(chess.Board(fen).occupied_co[not color])
        self.playing: Player = self.inner

    def hear(self, announcement: Announcement) -> None:
        self.playing.hear(announcement)
        if self.playing is not self.inner:
            capture = announcement.capture
            if capture and announcement.to_move == self.color and self.blockers >> capture.square & 1:
                self.fall_back(announcement)
            return
        self.meta.hear(announcement)
        if announcement.outcome is not None:
            return
        walls = self.stuck_pawns()
        # Pawn tries announced to the enemy: some pawn can take (en passant, say), so not stuck.
        if walls is not None and not (walls and announcement.pawn_tries and announcement.to_move != self.color):
            self.hand_over(walls)

    @property
    def own(self):
        return self.inner.own

    def fall_back(self, announcement: Announcement) -> None:
        """A stuck pawn is free: play on at random among the tries that cannot be ruled out (the
        search's set no longer holds the truth, and the inner player stopped listening)."""
        fallback = RandomPlayer(f"{self.color}")
        fallback.color, fallback.own = self.color, self.inner.own
        fallback.announcement, fallback.refused, fallback.budget = announcement, set(), self.inner.budget
        self.playing = fallback

    def stuck_pawns(self) -> Optional[int]:
        """The enemy's pawns when it has no other man but its king and each is surely where the
        metaposition says (its file's bounds leave it no other square) and cannot move: the square
        in front holds one of our men (or another of its pawns), and none of ours stands where it
        could take -- and we have a queen or rook to mate with. 0 for a bare king; None otherwise."""
        men = self.enemy_start - self.meta.captured_pawns - self.meta.captured_pieces - 1
        if men == 0:
            return 0
        # The files' lower bounds are sound: as many pawns surely on the board as men left means
        # that no piece is left and no other file holds a pawn; then each file's pawns must have
        # no more squares than pawns.
        if sum(self.meta.pawns_min) != men:
            return None
        pawns = 0
        for file, least in enumerate(self.meta.pawns_min):
            squares = self.meta.possible[chess.PAWN] & chess.BB_FILES[file] if least else 0
            if chess.popcount(squares) != least:
                return None
            pawns |= squares
        board = self.inner.own.board
        ours, enemy = board.occupied_co[self.color], not self.color
        # The search mates with a queen or rook; without one, our men would only stand guard.
        if not (board.queens | board.rooks) & ours:
            return None
        for square in chess.SquareSet(pawns):
            ahead = square + (8 if enemy == chess.WHITE else -8)
            if not (ours | pawns) & chess.BB_SQUARES[ahead] or chess.BB_PAWN_ATTACKS[enemy][square] & ours:
                return None
        return pawns

    def hand_over(self, walls: int = 0) -> None:
        # Our men in front of the stuck pawns: the search never lets the king take one, but were
        # it forced to, a pawn would be free and the search's belief unsound (fall_back).
        self.blockers = (walls >> 8 if self.color == chess.WHITE else walls << 8) & chess.BB_ALL
        endgame = BareKingPlayer(self.depth, self.max_nodes)
        endgame.color, endgame.own = self.color, self.inner.own
        endgame.announcement, endgame.refused, endgame.budget = self.inner.announcement, set(), self.inner.budget
        endgame.take_over(self.meta.possible[chess.KING] & ~walls, walls)
        self.playing = endgame

    def answered(self, text: str, legal: bool) -> None:
        self.playing.answered(text, legal)
        if legal and self.playing is self.inner:
            self.meta.played(self._tried)

    def go(self, budget: MoveBudget) -> None:
        self.playing.go(budget)

    def next_try(self) -> str:
        text = self.playing.next_try()
        self._tried = self.playing._tried
        return text
