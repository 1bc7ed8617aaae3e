"""One game review behind one WebSocket (app.py): the page sends a PGN, analysis.review's Reviewer
searches every position on a thread of its own, and the page hears its progress, then the review:
White's expected score at each position, the marked moves with the better ones, the summary and the
annotated PGN (analysis.annotate). A closed socket stops the review."""
from __future__ import annotations

import asyncio
import io
import threading

import chess
import chess.pgn

from ..analysis.annotate import annotated, summary
from ..analysis.review import Review, Reviewer, checked_game
from ..console import InputError
from ..pgnfile import GameBuilder
from .chess_game import MOVETIME_MS, NODES
from .engine_game import MessageError, Send, whole

DEFAULT_MOVETIME_MS = 300
MAX_PGN_CHARS = 1_000_000


def game_from(message: dict) -> chess.pgn.Game:
    text = message.get("pgn")
    if not isinstance(text, str) or len(text) > MAX_PGN_CHARS:
        raise MessageError(f"pgn must be the text of a PGN game (at most {MAX_PGN_CHARS} characters)")
    try:
        return checked_game(chess.pgn.read_game(io.StringIO(text), Visitor=GameBuilder), "the PGN")
    except InputError as error:
        raise MessageError(str(error)) from None


def review_json(review: Review) -> dict:
    board, fens = review.game.board(), []
    fens.append(board.fen())
    for move in review.moves:
        board.push(move.move)
        fens.append(board.fen())
    headers = review.game.headers
    return {"type": "review", "white": headers.get("White", "?"), "black": headers.get("Black", "?"),
            "result": headers.get("Result", "*"), "limit": review.limit, "fens": fens,
            "white_expected": review.white_expected(), "summary": summary(review), "pgn": str(annotated(review)),
            "moves": [{"ply": move.ply, "san": move.san, "uci": move.move.uci(), "white": move.white,
                       "verdict": move.verdict, "best": move.best_san, "cost": move.cost,
                       "expected_before": move.expected_before, "expected_after": move.expected_after}
                      for move in review.moves]}


class AnalysisJob:
    """The reviews of one socket, one at a time. `handle` runs on the event loop, the review on
    its own thread; the lock guards `reviewer`, which the socket's closing may stop at any time."""

    def __init__(self, send: Send, loop: asyncio.AbstractEventLoop) -> None:
        self.send = send
        self.loop = loop
        self.lock = threading.Lock()
        self.reviewer: Reviewer | None = None
        self.thread: threading.Thread | None = None
        self.closed = False

    def handle(self, message: dict) -> None:
        if message.get("type") != "analyse":
            raise MessageError(f"unknown message type {message.get('type')!r}; known: analyse")
        if self.thread is not None and self.thread.is_alive():
            raise MessageError("a review is running; wait for it (or close the page)")
        game = game_from(message)
        if message.get("nodes") is not None:
            limit = {"nodes": whole(message, "nodes", *NODES)}
        else:
            limit = {"movetime_ms": whole({"movetime_ms": DEFAULT_MOVETIME_MS, **message}, "movetime_ms", *MOVETIME_MS)}
        self.thread = threading.Thread(target=self.review, args=(game, limit), name="pyrope-review", daemon=True)
        self.thread.start()

    def review(self, game: chess.pgn.Game, limit: dict) -> None:
        """On the review's thread: every report goes back through the event loop."""
        def tell(message: dict) -> None:
            self.loop.call_soon_threadsafe(self.send, message)

        reviewer = Reviewer(**limit)
        with self.lock:
            if self.closed:
                return
            self.reviewer = reviewer
        try:
            review = reviewer.review(game, lambda done, total: tell({"type": "progress", "done": done, "total": total}))
        except InterruptedError:
            return
        finally:
            reviewer.session.finish()
        tell(review_json(review))

    async def close(self) -> None:
        with self.lock:
            self.closed = True
            if self.reviewer is not None:
                self.reviewer.stop()
        if self.thread is not None:
            await asyncio.to_thread(self.thread.join)
