"""Chess openings for `pyrope match`: start positions from an EPD file, or PGN games whose moves
become the book moves each game begins with."""
from __future__ import annotations

import io
from typing import List

import chess
import chess.pgn


def _check_opening(board: chess.Board, where: str) -> chess.Board:
    if not board.is_valid():
        raise ValueError(f"{where}: not a legal position ({board.status()!r})")
    if board.is_game_over():
        raise ValueError(f"{where}: the game is already over in this position")
    return board


def parse_epd_openings(text: str, source: str = "<epd>") -> List[chess.Board]:
    """One position per non-blank EPD line ('#' starts a comment line); operations such as c0 are ignored."""
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        board = chess.Board()
        try:
            board.set_epd(line)
        except ValueError as error:
            raise ValueError(f"{source}:{number}: bad EPD ({error}): {line!r}") from None
        openings.append(_check_opening(board, f"{source}:{number}"))
    if not openings:
        raise ValueError(f"{source}: no positions found")
    return openings


def parse_pgn_openings(text: str, source: str = "<pgn>") -> List[chess.Board]:
    """One opening per PGN game: its start position (FEN tag or the standard one) plus its main line,
    kept as the move stack so that engines see the moves and repetitions count them."""
    stream = io.StringIO(text)
    openings = []
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        where = f"{source}: game {len(openings) + 1}"
        if game.errors:
            raise ValueError(f"{where}: {game.errors[0]}")
        openings.append(_check_opening(game.end().board(), where))
    if not openings:
        raise ValueError(f"{source}: no games found")
    return openings


def load_openings(path: str) -> List[chess.Board]:
    """Read an EPD or a PGN file (PGN when the name ends in .pgn or the first line is a [tag])."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read()
    except OSError as error:
        raise ValueError(f"cannot read openings file {path!r}: {error.strerror}") from None
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if path.lower().endswith(".pgn") or first.startswith("["):
        return parse_pgn_openings(text, path)
    return parse_epd_openings(text, path)
