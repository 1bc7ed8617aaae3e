"""The Kriegspiel referee (ICC wild 16, the thesis's appendix A): it keeps the true game, answers
each try and makes the announcements, keeping apart what only the mover is told (whether a try
was legal, the move itself, the tries refused before it) from what both players hear (captures,
checks, pawn tries, the game's end). The rules themselves are compiled: pyrope._kriegspiel.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Optional

import chess

from .._core import STARTING_FEN
from .._kriegspiel import AnswerBit, AnswerField, GameEnd, KriegspielError, RefereeCore
from .tries import CastlingTry, PawnCaptureTry, parse_try

ILLEGAL_MOVE = "Illegal move"


class Check(enum.Enum):
    """A kind of check, valued by its announcement. Of the two diagonals through the checked king
    the longer is the long one (king on e1: e1-h4 is short, e1-a5 long); a pawn's check is a
    diagonal check."""
    RANK = "Rank check"
    FILE = "File check"
    LONG_DIAGONAL = "Long-diagonal check"
    SHORT_DIAGONAL = "Short-diagonal check"
    KNIGHT = "Knight check"


_CHECK_BITS = {
    Check.RANK: AnswerBit.CHECK_RANK,
    Check.FILE: AnswerBit.CHECK_FILE,
    Check.LONG_DIAGONAL: AnswerBit.CHECK_LONG_DIAGONAL,
    Check.SHORT_DIAGONAL: AnswerBit.CHECK_SHORT_DIAGONAL,
    Check.KNIGHT: AnswerBit.CHECK_KNIGHT,
}

_TERMINATIONS = {
    GameEnd.END_CHECKMATE: chess.Termination.CHECKMATE,
    GameEnd.END_STALEMATE: chess.Termination.STALEMATE,
    GameEnd.END_INSUFFICIENT_MATERIAL: chess.Termination.INSUFFICIENT_MATERIAL,
    GameEnd.END_FIFTY_MOVES: chess.Termination.FIFTY_MOVES,
    GameEnd.END_THREEFOLD_REPETITION: chess.Termination.THREEFOLD_REPETITION,
}

_END_WORDS = {
    chess.Termination.STALEMATE: "Stalemate",
    chess.Termination.INSUFFICIENT_MATERIAL: "Insufficient material",
    chess.Termination.FIFTY_MOVES: "Fifty-move rule",
    chess.Termination.THREEFOLD_REPETITION: "Threefold repetition",
}


def _color_name(color: chess.Color) -> str:
    return "White" if color == chess.WHITE else "Black"


def outcome_message(outcome: chess.Outcome) -> str:
    """The game's end in words with its result, e.g. 'White mates (1-0)', 'Stalemate (1/2-1/2)'."""
    if outcome.termination == chess.Termination.CHECKMATE:
        words = f"{_color_name(bool(outcome.winner))} mates"
    else:
        words = _END_WORDS[outcome.termination]
    return f"{words} ({outcome.result()})"


@dataclass(frozen=True)
class Capture:
    """A man taken: where (en passant: the taken pawn's square) and whether it was a pawn (a
    promoted man counts as a piece)."""
    square: chess.Square
    pawn: bool

    def message(self) -> str:
        return f"{'Pawn' if self.pawn else 'Piece'} at {chess.square_name(self.square)} captured"


@dataclass(frozen=True)
class Announcement:
    """What the referee tells BOTH players after a move (or before the first): public.

    `pawn_tries` is the number of legal pawn captures of `to_move` (None once the game is over);
    `outcome` ends the game at once, unclaimed.
    """
    to_move: chess.Color
    capture: Optional[Capture]
    checks: tuple[Check, ...]
    pawn_tries: Optional[int]
    outcome: Optional[chess.Outcome]

    @property
    def check_bits(self) -> int:
        """The checks as the compiled core writes them (AnswerBit.CHECK_... bits, 0 for none)."""
        return sum(int(_CHECK_BITS[check]) for check in self.checks)

    def messages(self) -> list[str]:
        """Appendix A's words: the capture, the checks, then the game's end or whose move it is
        and the pawn tries (said only when there are some: '1 pawn try', '3 pawn tries')."""
        words = [self.capture.message()] if self.capture else []
        words += [check.value for check in self.checks]
        if self.outcome is not None:
            return words + [outcome_message(self.outcome)]
        words.append(f"{_color_name(self.to_move)}'s move")
        if self.pawn_tries:
            words.append(f"{self.pawn_tries} pawn {'try' if self.pawn_tries == 1 else 'tries'}")
        return words


@dataclass(frozen=True)
class Answer:
    """The referee's answer to one try.

    Mover only: `legal` and `move` (the move played, in UCI). Public: `announcement`, which is
    None for a refused try -- the opponent learns nothing of it, and the mover hears only
    'Illegal move', whether the try broke the rules or could not even be made on its own board.
    """
    text: str
    move: Optional[str]
    announcement: Optional[Announcement]

    @property
    def legal(self) -> bool:
        return self.move is not None

    def messages(self) -> list[str]:
        """What the mover hears."""
        return self.announcement.messages() if self.announcement else [ILLEGAL_MOVE]


@dataclass(frozen=True)
class Turn:
    """One move of the referee's full record. `refused` (the mover's refused tries that turn,
    as written in canonical form) and `move` are the mover's; `announcement` is public."""
    mover: chess.Color
    refused: tuple[str, ...]
    move: str
    announcement: Announcement


class Referee:
    """A game of Kriegspiel from any start position: tries in, answers out.

    >>> referee = Referee()
    >>> referee.try_move("e2e5").messages()
    ['Illegal move']
    >>> referee.try_move("e2-e4").messages()
    ["Black's move"]

    A bad FEN raises the core's FenError; a malformed try, `px` without exactly one pawn try and
    a try after the game's end raise KriegspielError; in every case nothing changes.
    """

    def __init__(self, fen: str = STARTING_FEN) -> None:
        self._core = RefereeCore(fen)
        self.start_fen: str = self._core.fen()
        #: What both players are told before the first move (checks, pawn tries, or the end).
        self.opening: Announcement = self._announcement(self._core.report)
        #: The full record, one Turn per move played.
        self.turns: list[Turn] = []
        self._refused: list[str] = []

    @property
    def turn(self) -> chess.Color:
        return chess.WHITE if self._core.white_to_move else chess.BLACK

    @property
    def announcement(self) -> Announcement:
        """The latest public announcement: the last move's, or the opening one."""
        return self.turns[-1].announcement if self.turns else self.opening

    @property
    def pawn_tries(self) -> Optional[int]:
        return self.announcement.pawn_tries

    @property
    def outcome(self) -> Optional[chess.Outcome]:
        return self.announcement.outcome

    @property
    def refused(self) -> tuple[str, ...]:
        """The tries refused so far this turn (the mover's own knowledge)."""
        return tuple(self._refused)

    @property
    def tries_this_turn(self) -> int:
        """Tries the mover has made this turn, all refused so far."""
        return len(self._refused)

    def moves(self) -> list[str]:
        """The moves played, in UCI."""
        return [turn.move for turn in self.turns]

    def fen(self) -> str:
        """The true position (the referee's knowledge)."""
        return self._core.fen()

    def piece_map(self, color: Optional[chess.Color] = None) -> dict[chess.Square, chess.Piece]:
        """The men on the board: one side's (what that side sees of its own), or all of them."""
        return {square: chess.Piece.from_symbol(letter)
                for square, letter in enumerate(self._core.placement())
                if letter != "." and (color is None or letter.isupper() == color)}

    def try_move(self, text: str) -> Answer:
        """Answer a try by the side to move, written as tries.parse_try reads it; a legal try is
        played."""
        if self.outcome is not None:
            raise KriegspielError(f"The game is over ({outcome_message(self.outcome)}), so the referee "
                                  "takes no more tries.")
        attempt = parse_try(text)
        mover = self.turn
        if isinstance(attempt, PawnCaptureTry):
            captures = self._core.pawn_capture_tries()
            if len(captures) != 1:
                raise KriegspielError(f"'px' is taken only when exactly one pawn try is announced, "
                                      f"and there are {len(captures)}.")
            answer = self._core.try_move(*captures[0])
        elif isinstance(attempt, CastlingTry):
            answer = self._core.try_castling(attempt.kingside)
        else:
            answer = self._core.try_move(attempt.from_square, attempt.to_square, attempt.promotion or 0)
        if not answer:
            self._refused.append(attempt.text())
            return Answer(text, None, None)
        announcement = self._announcement(answer)
        move = self._core.last_move
        self.turns.append(Turn(mover, tuple(self._refused), move, announcement))
        self._refused = []
        return Answer(text, move, announcement)

    def _announcement(self, answer: int) -> Announcement:
        """Decode the packed answer (or position report) for the position now on the board."""
        capture = None
        if answer & AnswerBit.ANSWER_CAPTURE:
            capture = Capture((answer >> AnswerField.SQUARE_SHIFT) & AnswerField.SQUARE_MASK,
                              bool(answer & AnswerBit.ANSWER_PAWN_TAKEN))
        end = GameEnd((answer >> AnswerField.END_SHIFT) & AnswerField.END_MASK)
        outcome = None
        if end != GameEnd.END_NONE:
            mated = end == GameEnd.END_CHECKMATE
            outcome = chess.Outcome(_TERMINATIONS[end], (not self.turn) if mated else None)
        return Announcement(
            to_move=self.turn,
            capture=capture,
            checks=tuple(check for check, bit in _CHECK_BITS.items() if answer & bit),
            pawn_tries=None if outcome else (answer >> AnswerField.TRIES_SHIFT) & AnswerField.TRIES_MASK,
            outcome=outcome,
        )
