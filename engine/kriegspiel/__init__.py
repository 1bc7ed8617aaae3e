"""Kriegspiel (ICC wild 16): chess where each side sees only its own men and a referee answers
its tries. The referee runs on the chess core's move generation (pyrope._kriegspiel); this package
gives it notation and appendix A's announcements, keeping apart what only the mover is told from
what both players hear."""
from .._kriegspiel import KriegspielError
from .referee import Announcement, Answer, Capture, Check, Referee, Turn, outcome_message
from .tries import CastlingTry, PawnCaptureTry, SquareTry, Try, parse_try

__all__ = ["Announcement", "Answer", "Capture", "CastlingTry", "Check", "KriegspielError", "PawnCaptureTry",
           "Referee", "SquareTry", "Try", "Turn", "outcome_message", "parse_try"]
