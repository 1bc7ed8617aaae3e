"""Kriegspiel players behind one interface, and `play_game`, which runs one game between two of them
through the referee. A player is told only what its side may know -- its colour and the start
position, the public announcement after every move, and whether each of its own tries was legal --
so it can never read the referee's position. The random and semi-random players are the thesis's
benchmark players (section 4.6); docs/kriegspiel.md ("Players") describes them.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Optional

import chess

from .._kriegspiel import KriegspielError
from .budget import MoveBudget
from .own import OwnBoard
from .referee import Announcement, Referee

if TYPE_CHECKING:       # the match's clock; the engine a GUI starts never imports the match runner
    from ..match.clock import Clock


class Player:
    """The interface every player offers, and the knowledge every player keeps: its own men
    (an OwnBoard, updated from its own legal tries and the captures announced on its men), the
    latest announcement and its tries refused this turn. Subclasses choose tries (`next_try`);
    a searching one spends `self.budget`, the MoveBudget of the move being tried (`go`)."""

    def start(self, color: chess.Color, fen: str) -> None:
        """A new game: our colour and the start position (both sides are given it)."""
        self.color = color
        self.own = OwnBoard(fen, color)
        self.announcement: Optional[Announcement] = None
        self.refused: set[str] = set()
        self._tried: Optional[chess.Move] = None
        self.budget = MoveBudget()          # until a move's `go`: the player's own limits

    def hear(self, announcement: Announcement) -> None:
        """What both sides hear after a move (and before the first). A capture announced before our
        move took one of our men."""
        self.announcement = announcement
        if announcement.capture and announcement.to_move == self.color:
            self.own.lose(announcement.capture.square)

    def answered(self, text: str, legal: bool) -> None:
        """The referee's private answer to our try `text` (the one `next_try` just gave)."""
        if legal:
            self.own.play(self._tried)
            self.refused = set()
        else:
            self.refused.add(text)

    def go(self, budget: MoveBudget) -> None:
        """Our move begins (before its first try): its limits, which its tries share."""
        self.budget = budget

    def next_try(self) -> str:
        """Our next try, as the referee reads it (`e2e4`, `e7e8=q`, `o-o`)."""
        tries = {text: move for text, move in possible_tries(self.own, self.announcement).items()
                 if text not in self.refused}
        text = self.choose(tries)
        self._tried = tries[text]
        return text

    def choose(self, tries: dict[str, chess.Move]) -> str:
        """One of `tries` (try text -> our move), none of them refused this turn."""
        raise NotImplementedError


def possible_tries(own: OwnBoard, announcement: Announcement) -> dict[str, chess.Move]:
    """Every try its side cannot yet rule out, by its written form, given its own men and the latest
    announcement (refused tries aside). Enemy men are unseen, so any square not holding one of ours
    might hold one:
    - every move of our men on a board of our men alone (a man may be blocked or pinned by an enemy
      we cannot see, and may capture one where we see none);
    - pawn captures onto every square a pawn attacks that none of our men holds, but only when pawn
      tries are announced: the count covers every legal pawn capture (en passant too), so none means
      that all of them would be refused;
    - castling (python-chess's rules on our board: king and rook unmoved, none of our men between),
      but not when a check on us is announced, since no one castles out of check;
    - a pawn reaching the last rank once per from-to pair, as a queen: the referee judges a
      promotion's legality by the move alone, so other pieces would be the same try again.
    """
    board = own.board
    in_check = bool(announcement.checks)
    # On a board of our men alone the only pawn captures are OwnBoard's onto squares we do not hold.
    moves = [move for move in own.candidates()
             if move.promotion in (None, chess.QUEEN) and not (in_check and board.is_castling(move))
             and (announcement.pawn_tries or not is_pawn_capture(board, move))]
    return {try_text(board, move): move for move in moves}


def try_text(board: chess.Board, move: chess.Move) -> str:
    """A move of ours written as a try: castling as `o-o`/`o-o-o` (python-chess writes Chess960's
    king-takes-rook for some start positions), a promotion as `e7e8=q`, others as UCI."""
    if board.is_castling(move):
        return "o-o" if chess.square_file(move.to_square) > chess.square_file(move.from_square) else "o-o-o"
    if move.promotion:
        return move.uci()[:4] + "=" + chess.piece_symbol(move.promotion)
    return move.uci()


def is_pawn_capture(board: chess.Board, move: chess.Move) -> bool:
    return (board.piece_type_at(move.from_square) == chess.PAWN
            and chess.square_file(move.from_square) != chess.square_file(move.to_square))


class RandomPlayer(Player):
    """Section 4.6's random player: uniform among the tries it cannot yet rule out."""

    def __init__(self, seed: Optional[int] = None) -> None:
        self.random = random.Random(seed)

    def choose(self, tries: dict[str, chess.Move]) -> str:
        # Sorted so that the same seed gives the same game whatever python-chess's order.
        return self.random.choice(sorted(tries))


class SemiRandomPlayer(RandomPlayer):
    """Section 4.6's semi-random player: after the enemy takes one of our men, first every try
    taking on that square, in random order; when pawn tries are announced, first every pawn
    capture; otherwise (and once those are refused) as the random player."""

    def choose(self, tries: dict[str, chess.Move]) -> str:
        board = self.own.board
        capture = self.announcement.capture
        recaptures = [] if capture is None else [
            text for text, move in tries.items()
            if move.to_square == capture.square and not board.is_castling(move)
            and (board.piece_type_at(move.from_square) != chess.PAWN or is_pawn_capture(board, move))]
        pawn_captures = [text for text, move in tries.items() if is_pawn_capture(board, move)]
        # Picking uniformly among the untried ones of a group, turn after turn, is trying the whole
        # group in random order. (`capture` is always ours: after our own move it is not our turn.)
        return super().choose({text: tries[text] for text in recaptures or pawn_captures or tries})


class CentreSeekingPlayer(RandomPlayer):
    """Section 6.4's defending king: its tries in decreasing order of the destination's distance
    (in king steps) from the nearest corner, at random among equals -- it runs for the centre,
    where a mate is hardest. (Any other men it has move the same way.)"""

    def choose(self, tries: dict[str, chess.Move]) -> str:
        def from_corner(move: chess.Move) -> int:
            square = move.to_square
            return min(chess.square_distance(square, corner) for corner in (chess.A1, chess.H1, chess.A8, chess.H8))
        farthest = max(from_corner(move) for move in tries.values())
        return super().choose({text: move for text, move in tries.items() if from_corner(move) == farthest})


@dataclass(frozen=True)
class GameResult:
    """How a game ended: `result` as in PGN, and `termination`: python-chess's Termination name
    in lower case ("checkmate", "stalemate", "insufficient_material", "fifty_moves",
    "threefold_repetition"), or "try cap", "bad try", "crash" or "time" for a player's fault,
    which loses; a fault's `detail` says what happened (the time used and allowed, the failure)."""
    result: str
    termination: str
    detail: str = ""


def play_game(white: Player, black: Player, referee: Referee, try_cap: int = 1000,
              clock: Optional[Clock] = None, margin: float = 0.0) -> GameResult:
    """Play one game from the referee's position: each turn the mover is asked for tries until one
    is legal, told privately of each answer, and both players hear the announcement. A mover that
    reaches `try_cap` refused tries in one turn, or writes a try the referee cannot read, loses; so
    does a player that fails (raises) whenever it is told or asked anything. With a `clock` (the
    match's), each move's limits come from it and the move is charged the wall time from its first
    try to its legal one, all tries included; a mover past its clock (or fixed time) by more than
    `margin` seconds loses on time. The referee keeps the full record (for PGN: pgn.game_from_referee)."""
    players = {chess.WHITE: white, chess.BLACK: black}
    try:
        for color, player in players.items():
            failing = color
            player.start(color, referee.start_fen)
            player.hear(referee.opening)
        while referee.outcome is None:
            failing = referee.turn
            mover = players[failing]
            if referee.tries_this_turn == 0:
                started, tries = time.perf_counter(), 0
                mover.go(MoveBudget(clock and clock.limits(failing), failing))
            if referee.tries_this_turn >= try_cap:
                return _fault(failing, "try cap")
            text = mover.next_try()
            tries += 1
            try:
                answer = referee.try_move(text)
            except KriegspielError:
                return _fault(failing, "bad try")
            mover.answered(text, answer.legal)
            if clock is not None:
                elapsed = time.perf_counter() - started
                allowance = clock.allowance(failing, margin)
                if (allowance is not None and elapsed > allowance) or \
                        (answer.legal and not clock.charge(failing, elapsed, margin)):
                    return _fault(failing, "time", f"{elapsed:.3f}s used, {allowance:.3f}s allowed, "
                                                   f"{tries} {'try' if tries == 1 else 'tries'}")
            if answer.legal:
                for failing, player in players.items():
                    player.hear(answer.announcement)
    except Exception as error:      # a player's failure loses its game, whatever it was
        return _fault(failing, "crash", f"{type(error).__name__}: {error}")
    return GameResult(referee.outcome.result(), referee.outcome.termination.name.lower())


def _fault(color: chess.Color, why: str, detail: str = "") -> GameResult:
    return GameResult("0-1" if color == chess.WHITE else "1-0", why, detail)
