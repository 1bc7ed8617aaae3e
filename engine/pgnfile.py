"""PGN files as the commands that take them read them (`pyrope book build`, `pyrope analyse`): the
games in order, python-chess's parser, and one InputError for a file that cannot be opened."""
from __future__ import annotations

from typing import Iterable, Iterator

import chess.pgn

from .console import InputError

# The Variant tags (lower-cased) of games of chess or Chess960, which Pyrope can read.
CHESS_VARIANTS = ("standard", "chess", "chess960", "fischerandom", "chess 960", "from position")


class GameBuilder(chess.pgn.GameBuilder):
    """python-chess's builder, its errors kept in game.errors (the caller says them) and not also
    logged with a traceback on stderr."""

    def handle_error(self, error: Exception) -> None:
        self.game.errors.append(error)


def read_games(paths: Iterable[str]) -> Iterator[chess.pgn.Game]:
    for path in paths:
        try:
            handle = open(path, encoding="utf-8", errors="replace")
        except OSError as error:
            raise InputError(f"cannot read the PGN file {path}: {error.strerror}") from None
        with handle:
            while (game := chess.pgn.read_game(handle, Visitor=GameBuilder)) is not None:
                yield game
