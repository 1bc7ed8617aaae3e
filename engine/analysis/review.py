"""A chess game reviewed move by move, as lichess's analysis board reviews one: Pyrope searches every
position of the game for a fixed time (or node count), a move's cost is how much it lowered the
mover's expected score, and the costly moves are marked with the move the search preferred.

The expected score of a position for the side to move is sigmoid(score / 250 cp), mate 1 or 0:
in Pyrope's own self-play the game result follows the score best at a scale of 200-300
(docs/nnue.md, "The target's scale"), and the shipped net was trained to 250. A move costs the
mover's expected score before it less the expected score after it (1 - the opponent's, who is then
to move), and nothing when it is the move the search chose. Its verdict, from the first threshold
its cost reaches, in points (lichess's marks: 0.3, 0.2 and 0.1 of its winning chances, which run
from -1 to 1, so that a reader of both sees the same moves marked):

    blunder     0.15 of a point or more
    mistake     0.10
    inaccuracy  0.05

and a move that throws away a forced mate the search had found is an inaccuracy at least (it may
still leave the game won by far, which costs little expected score).
"""
from __future__ import annotations

import math
import threading
from dataclasses import dataclass
from typing import Callable

import chess
import chess.pgn

from ..console import InputError
from ..pgnfile import CHESS_VARIANTS
from ..play.options import ANALYSE_MODE, HASH, THREADS
from ..play.result import Score
from ..play.session import Session
from ..play.timeman import Limits

VERDICTS = ((0.15, "blunder"), (0.10, "mistake"), (0.05, "inaccuracy"))
SCALE_CP = 250


@dataclass(frozen=True)
class Evaluation:
    """What the search said of a position: its score for the side to move, the line it prefers
    (UCI moves, empty where the game is over) and its depth."""
    score: Score
    line: list[str]
    depth: int = 0

    @property
    def expected(self) -> float:
        """The side to move's expected score, 0 to 1."""
        if self.score.mate is not None:
            return 1.0 if self.score.mate > 0 else 0.0
        return 1 / (1 + math.exp(-self.score.cp / SCALE_CP))


@dataclass(frozen=True)
class MoveReview:
    ply: int                    # 1 for White's first move of a game from the start position
    move: chess.Move
    san: str
    white: bool                 # White made the move
    before: Evaluation          # of the position the move was made in
    after: Evaluation           # of the position it made (the opponent to move)
    best_san: str               # the search's move in `before`, in SAN ("" where the game was over)
    cost: float                 # the mover's expected score lost, 0 to 1
    verdict: str | None         # "inaccuracy", "mistake", "blunder" or None

    @property
    def expected_before(self) -> float:
        return self.before.expected

    @property
    def expected_after(self) -> float:
        return 1 - self.after.expected


@dataclass(frozen=True)
class Review:
    game: chess.pgn.Game
    start: Evaluation           # of the game's first position
    moves: list[MoveReview]
    limit: str                  # what each position got, in words ("500 ms", "20000 nodes")

    def white_expected(self) -> list[float]:
        """White's expected score at each position of the game, the first included."""
        first = self.start.expected if self.game.board().turn == chess.WHITE else 1 - self.start.expected
        return [first] + [move.expected_after if move.white else 1 - move.expected_after for move in self.moves]


def checked_game(game: chess.pgn.Game | None, where: str) -> chess.pgn.Game:
    """`game` if it can be reviewed, else InputError saying why (`where`: which game of which file)."""
    if game is None:
        raise InputError(f"{where}: no PGN game found")
    if game.errors:
        raise InputError(f"{where}: {game.errors[0]}")
    variant = game.headers.get("Variant", "Standard").lower()
    if variant not in CHESS_VARIANTS:
        raise InputError(f"{where}: the variant {game.headers['Variant']!r} cannot be analysed; only chess and Chess960")
    if game.next() is None:
        raise InputError(f"{where}: the game has no moves to analyse")
    return game


def one_ply_back(score: Score) -> Score:
    """The score of the position after a move, for the side that made it (UCI's mate counting)."""
    if score.mate is None:
        return Score(cp=-score.cp)
    return Score(mate=-score.mate + 1 if score.mate <= 0 else -score.mate)


def verdict(cost: float, before: Evaluation, after: Evaluation) -> str | None:
    for threshold, name in VERDICTS:
        if cost >= threshold:
            return name
    mate_lost = before.score.mate is not None and before.score.mate > 0 and \
        not (after.score.mate is not None and after.score.mate < 0)
    return "inaccuracy" if mate_lost else None


class Reviewer:
    """Searches positions for a review in a Session of its own, in analysis mode (no book, no
    strength limit)."""

    def __init__(self, movetime_ms: int = 0, nodes: int = 0, threads: int = 1, hash_mb: int = 64) -> None:
        if (movetime_ms > 0) == (nodes > 0):
            raise ValueError("give a review either a time or a node count a position")
        self.limits = Limits(movetime=movetime_ms, nodes=nodes)
        self.limit = f"{movetime_ms} ms" if movetime_ms else f"{nodes} nodes"
        self.session = Session()
        ANALYSE_MODE.apply(self.session, True)
        THREADS.apply(self.session, threads)
        HASH.apply(self.session, hash_mb)
        self._stopped = threading.Event()

    def stop(self) -> None:
        """End the review from another thread: the search now, and no further position."""
        self._stopped.set()
        self.session.manager.stop()

    def evaluate(self, start: chess.Board, moves: list[chess.Move]) -> Evaluation:
        """The search's word on the position `moves` lead to from `start`."""
        board, played = start.copy(), []
        for move in moves:
            played.append(board.uci(move, chess960=start.chess960))
            board.push(move)
        outcome = board.outcome()
        if outcome is not None:
            return Evaluation(Score(mate=0) if outcome.winner is not None else Score(cp=0), [])
        forced = list(board.legal_moves)
        if len(forced) == 1:
            # A timed search stops at once on the only legal move, its score that of a shallow
            # look; the position after it, searched in full, says what this one is worth.
            after = self.evaluate(start, moves + forced)
            return Evaluation(one_ply_back(after.score), [board.uci(forced[0], chess960=start.chess960)] + after.line,
                              after.depth + 1)
        self.session.set_chess960(start.chess960)
        self.session.set_position(start.fen(), played)
        done, results = threading.Event(), []
        self.session.search(self.limits, lambda infos: None, lambda result: (results.append(result), done.set()))
        try:
            done.wait()
        except BaseException:
            self.session.manager.finish()
            raise
        self.session.manager.finish()
        result = results[0]
        return Evaluation(result.score or Score(cp=0), result.pv or [result.move], result.depth)

    def review(self, game: chess.pgn.Game, progress: Callable[[int, int], None] | None = None) -> Review:
        """Every position of `game`'s main line searched; `progress(done, total)` after each. A
        stop() ends it with InterruptedError."""
        start = game.board()
        moves = list(game.mainline_moves())
        evaluations = []
        for count in range(len(moves) + 1):
            if self._stopped.is_set():
                raise InterruptedError("the review was stopped")
            evaluations.append(self.evaluate(start, moves[:count]))
            if progress is not None:
                progress(count + 1, len(moves) + 1)
        if self._stopped.is_set():
            raise InterruptedError("the review was stopped")
        board, reviewed = start.copy(), []
        for index, move in enumerate(moves):
            before, after = evaluations[index], evaluations[index + 1]
            best = board.parse_uci(before.line[0]) if before.line else None
            cost = 0.0 if best == move else max(0.0, before.expected - (1 - after.expected))
            reviewed.append(MoveReview(
                ply=board.ply() + 1, move=move, san=board.san(move), white=board.turn == chess.WHITE,
                before=before, after=after, best_san=board.san(best) if best is not None else "",
                cost=cost, verdict=None if best == move else verdict(cost, before, after)))
            board.push(move)
        return Review(game, evaluations[0], reviewed, self.limit)

