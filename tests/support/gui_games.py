"""Reading back the games a GUI saved: every move legal, a finished result, and a result that the
final position or the stated reason supports (never a loss on time by Pyrope). Shared by the xboard
and PyChess tests."""
from __future__ import annotations

from pathlib import Path

import chess
import chess.pgn

ENDED_BY_THE_BOARD = (chess.Termination.CHECKMATE, chess.Termination.STALEMATE,
                      chess.Termination.INSUFFICIENT_MATERIAL)
# Words of the reasons xboard writes (a comment before the result) and PyChess logs (its reason
# constants), lower-cased.
RESIGNED = ("resign",)
ON_TIME = ("on time", "callflag", "time forfeit")
DRAWN_BY_AGREEMENT_OR_ADJUDICATION = ("draw agreed", "agree", "trivial draw", "long game", "length")


def read_games(path: Path) -> list[chess.pgn.Game]:
    games = []
    with open(path, encoding="utf-8", errors="replace") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return games


def reason_of(game: chess.pgn.Game) -> str:
    """The last comment of the game (xboard puts the reason of the result there)."""
    return game.end().comment.strip()


def problems(game: chess.pgn.Game, engine: str, reason: str) -> list[str]:
    """What is wrong with one saved game in which `engine` (a player name prefix) took part;
    `reason` is what the GUI gave as the reason of the result."""
    found = [f"unreadable or illegal move: {error}" for error in game.errors]
    result = game.headers.get("Result", "*")
    board = game.end().board()
    words = reason.lower()
    if result not in ("1-0", "0-1", "1/2-1/2"):
        return found + [f"unfinished game (result {result}, reason {reason!r})"]
    outcome = board.outcome(claim_draw=True)
    if outcome is not None and outcome.termination in ENDED_BY_THE_BOARD:
        if outcome.result() != result:
            found.append(f"result {result}, but the final position is {outcome.termination.name} ({outcome.result()})")
    elif result == "1/2-1/2":
        if outcome is None and not any(word in words for word in DRAWN_BY_AGREEMENT_OR_ADJUDICATION):
            found.append(f"a draw in a position no rule draws, reason {reason!r}")
    else:
        loser = game.headers["White" if result == "0-1" else "Black"]
        if any(word in words for word in ON_TIME):
            if loser.startswith(engine):
                found.append(f"{loser} lost on time ({reason!r})")
        elif not any(word in words for word in RESIGNED):
            found.append(f"{result} without mate, resignation or flag fall: reason {reason!r}")
    return found
