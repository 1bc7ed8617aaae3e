"""A chess game in `pyrope match`: its natural ends, adjudication, clock limits, one game between two
engine processes, and its PGN; ChessGame is the runner's Game for chess.

Choices worth knowing:
- Time is the wall time of each python-chess `play` call, measured by the runner. An engine loses on time
  when a move takes longer than its clock (or --movetime) plus --timemargin, 100 ms by default: the
  measurement includes pipes and this process's event loop, and that latency must not decide games.
- Threefold repetition and the fifty-move rule end a game once they have occurred, not one move early
  as python-chess's `outcome(claim_draw=True)` would.
"""
from __future__ import annotations

import asyncio
import os
import time
from dataclasses import dataclass
from typing import List, Optional, Sequence, TextIO, Tuple

import chess
import chess.engine
import chess.pgn
import chess.syzygy

from .chess_engines import EngineProcess, EngineSpec, engine_fault
from .clock import Clock, TimeControl
from .runner import Ending, GameTask, Match, draw, loss

MATE_CP = 100_000           # centipawn value of a mate score, for the adjudication thresholds


@dataclass(frozen=True)
class DrawRule:
    """Adjudicate a draw once both engines' scores stay within +/-score cp for movecount moves each,
    after the engines have played movenumber full moves."""
    movenumber: int = 40
    movecount: int = 8
    score: int = 10

    def __post_init__(self):
        if self.movenumber < 0 or self.movecount < 1 or self.score < 0:
            raise ValueError("movenumber must be 0 or more, movecount 1 or more, score 0 or more")


@dataclass(frozen=True)
class ResignRule:
    """Adjudicate a loss once, for movecount moves each, the loser's own score is <= -score cp and the
    winner's is >= +score cp (both engines agree)."""
    movecount: int = 3
    score: int = 600

    def __post_init__(self):
        if self.movecount < 1 or self.score < 0:
            raise ValueError("movecount must be 1 or more, score 0 or more")



def natural_end(board: chess.Board) -> Optional[Ending]:
    """Mate, stalemate, insufficient material, 75-move rule, fivefold -- and, claimed on the engines'
    behalf, threefold repetition and the fifty-move rule once they have actually occurred (not
    `outcome(claim_draw=True)`, which would also end the game when the side to move merely *could*
    reach a repetition with its next move)."""
    outcome = board.outcome()
    if outcome is None:
        if board.is_repetition(3):
            return draw("threefold repetition")
        if board.is_fifty_moves():
            return draw("fifty-move rule")
        return None
    if outcome.winner is not None:
        return loss(not outcome.winner, "checkmate", "normal", "{winner} mates")
    kinds = {chess.Termination.STALEMATE: "stalemate",
             chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
             chess.Termination.SEVENTYFIVE_MOVES: "75-move rule",
             chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition"}
    return draw(kinds.get(outcome.termination, outcome.termination.name.lower()))


def draw_adjudicated(white_scores: Sequence[Optional[int]], rule: DrawRule) -> bool:
    """`white_scores`: the engines' scores (cp, White's point of view, None if none) for each engine
    move of the game so far. A draw once movenumber full moves are played and the last movecount
    moves of each side scored within +/-score."""
    window = white_scores[-2 * rule.movecount:]
    return (len(white_scores) >= 2 * rule.movenumber and len(window) == 2 * rule.movecount
            and all(score is not None and abs(score) <= rule.score for score in window))


def resign_adjudicated(white_scores: Sequence[Optional[int]], rule: ResignRule) -> Optional[chess.Color]:
    """The side that resigns, or None: for the last movecount moves of each side, both engines' scores
    say White is at least `score` behind (White resigns) or ahead (Black resigns)."""
    window = white_scores[-2 * rule.movecount:]
    if len(window) < 2 * rule.movecount or any(score is None for score in window):
        return None
    if all(score <= -rule.score for score in window):
        return chess.WHITE
    if all(score >= rule.score for score in window):
        return chess.BLACK
    return None


class TablebaseAdjudicator:
    """Ends a game by Syzygy WDL once few enough pieces are left (and no castling rights)."""

    def __init__(self, path: str):
        self.path = path
        self.tablebase = chess.syzygy.Tablebase()
        for directory in path.split(os.pathsep):
            if not os.path.isdir(directory):
                raise ValueError(f"--tb: {directory!r} is not a directory")
            self.tablebase.add_directory(directory)
        if not self.tablebase.wdl:
            raise ValueError(f"--tb: no Syzygy WDL tables (*.rtbw) in {path!r}")
        self.max_pieces = max(len(name) - 1 for name in self.tablebase.wdl)   # "KQvK" -> 3 pieces

    def __reduce__(self):
        # Sent to a match's Ray workers as its path: each opens the tables itself (open files do not pickle).
        return TablebaseAdjudicator, (self.path,)

    def __call__(self, board: chess.Board) -> Optional[Ending]:
        if board.castling_rights or chess.popcount(board.occupied) > self.max_pieces:
            return None
        try:
            wdl = self.tablebase.probe_wdl(board)
        except KeyError:                    # a missing table (MissingTableError is a KeyError)
            return None
        # WDL values +-1 are wins/losses spoiled by the fifty-move rule ("cursed"/"blessed"): draws.
        # +-2 assume a fresh fifty-move counter; with plies already on it, DTZ says whether the
        # winner can still zero it in time (DTZ may be one ply off: near the limit keep playing).
        if abs(wdl) == 2 and board.halfmove_clock:
            try:
                plies = abs(self.tablebase.probe_dtz(board)) + board.halfmove_clock
            except KeyError:
                return None
            if plies > 101:
                wdl = 0
            elif plies >= 100:
                return None
        if abs(wdl) < 2:
            return draw("tablebase", "adjudication", "Draw by tablebase adjudication")
        loser = board.turn if wdl < 0 else not board.turn
        return loss(loser, "tablebase", "adjudication", "{winner} wins by tablebase adjudication")


@dataclass
class Rules:
    """Everything that decides how games are played and ended, shared by all games of a match."""
    tc: TimeControl
    margin: float = 0.1                 # seconds of grace on the clock (see --timemargin)
    stall_timeout: float = 60.0         # seconds without a move before an engine with no clock loses
    draw: Optional[DrawRule] = None
    resign: Optional[ResignRule] = None
    tablebase: Optional[TablebaseAdjudicator] = None
    maxmoves: Optional[int] = None

    def adjudicate(self, board: chess.Board, white_scores: Sequence[Optional[int]]) -> Optional[Ending]:
        """Adjudication before the next engine move; `white_scores` as for draw_adjudicated."""
        if self.tablebase is not None:
            ending = self.tablebase(board)
            if ending is not None:
                return ending
        if self.resign is not None:
            loser = resign_adjudicated(white_scores, self.resign)
            if loser is not None:
                return loss(loser, "resign adjudication", "adjudication", "{loser} resigns (adjudication)")
        if self.draw is not None and draw_adjudicated(white_scores, self.draw):
            return draw("draw adjudication", "adjudication", "Draw by adjudication")
        if self.maxmoves is not None and len(white_scores) >= 2 * self.maxmoves:
            return draw("max moves", "adjudication", "Draw by the move limit")
        return None


class GameClock(Clock):
    """The runner's clock, giving python-chess the limit of each move."""

    def limit(self, side: chess.Color) -> chess.engine.Limit:
        tc = self.tcs[side]
        if tc.base is None:
            return chess.engine.Limit(time=tc.movetime, depth=tc.depth, nodes=tc.nodes)
        return chess.engine.Limit(white_clock=self.remaining[chess.WHITE], black_clock=self.remaining[chess.BLACK],
                                  white_inc=self.tcs[chess.WHITE].increment, black_inc=self.tcs[chess.BLACK].increment,
                                  remaining_moves=self.moves_to_go(side), depth=tc.depth, nodes=tc.nodes)


def format_comment(score: Optional[chess.engine.PovScore], depth: Optional[int], side: chess.Color,
                   elapsed: float) -> str:
    """The move comment as cutechess writes it: '+0.34/12 0.520s', '-M3/20 1.002s' or '0.520s'."""
    if score is None:
        return f"{elapsed:.3f}s"
    relative = score.pov(side)
    if relative.is_mate():
        mate = relative.mate()
        text = f"{'+' if mate > 0 else '-'}M{abs(mate)}"
    else:
        text = f"{relative.score() / 100:+.2f}"
    return f"{text}/{depth or 0} {elapsed:.3f}s"


async def play_game(task: GameTask, white: EngineProcess, black: EngineProcess, rules: Rules,
                    event: str = "?") -> Tuple[Ending, chess.pgn.Game]:
    """Play one game and return how it ended and its PGN. Engine faults end the game as a loss for
    the engine at fault (which is closed, to be restarted for its next game); EngineStartError
    propagates."""
    players = {chess.WHITE: white, chess.BLACK: black}
    board = task.opening.copy()
    game = chess.pgn.Game()
    game.headers.update(Event=event, Site="?", Date=time.strftime("%Y.%m.%d"), Round=str(task.number),
                        White=white.spec.name, Black=black.spec.name)
    game.setup(board.root())
    game.headers["TimeControl"] = rules.tc.pgn()
    node: chess.pgn.GameNode = game
    for move in board.move_stack:
        node = node.add_variation(move, comment="book")

    ending: Optional[Ending] = None
    for side, player in players.items():
        try:
            await player.new_game()
        except (asyncio.TimeoutError, chess.engine.EngineError) as error:
            await player.close()
            ending = loss(side, "engine crash", "abandoned", "{loser} failed to start a game: " + str(error), True)
            break

    clock = GameClock(rules.tc)
    white_scores: List[Optional[int]] = []
    while ending is None:
        ending = natural_end(board) or rules.adjudicate(board, white_scores)
        if ending is not None:
            break
        side = board.turn
        player = players[side]
        allowance = clock.allowance(side, rules.margin)
        start = time.perf_counter()
        try:
            played = await player.play(board, clock.limit(side),
                                      rules.stall_timeout if allowance is None else allowance)
        except (asyncio.TimeoutError, chess.engine.EngineError) as error:
            await player.close()            # hung, dead or confused: restarted for its next game
            ending = engine_fault(side, error, allowance, rules.stall_timeout)
            break
        elapsed = time.perf_counter() - start

        if not clock.charge(side, elapsed, rules.margin):
            ending = loss(side, "time forfeit", "time forfeit", "{loser} loses on time: " +
                          f"{elapsed:.3f}s used, {clock.allowance(side, rules.margin):.3f}s allowed", True)
            break
        if played.resigned:
            ending = loss(side, "resignation", "normal", "{loser} resigns")
            break
        if played.move is None or played.move not in board.legal_moves:
            await player.close()
            ending = loss(side, "illegal move", "rules infraction",
                          "{loser} makes an illegal move: " + str(played.move or "no move"), True)
            break
        score = played.info.get("score")
        white_scores.append(None if score is None else score.white().score(mate_score=MATE_CP))
        comment = format_comment(score, played.info.get("depth"), side, elapsed)
        node = node.add_variation(played.move, comment=comment)
        board.push(played.move)

    game.headers["Result"] = ending.result
    game.headers["Termination"] = ending.termination
    node.comment = ending.reason if node is game else f"{node.comment}, {ending.reason}"
    return ending, game


class ChessGame:
    """The runner's Game for chess: UCI/xboard engine processes, games under `rules`, PGN records."""

    def __init__(self, rules: Rules, event: str = "?"):
        self.rules, self.event = rules, event

    def player(self, spec: EngineSpec) -> EngineProcess:
        return EngineProcess(spec)

    async def play(self, task: GameTask, white: EngineProcess, black: EngineProcess) -> Tuple[Ending, chess.pgn.Game]:
        return await play_game(task, white, black, self.rules, self.event)

    def write_record(self, record: chess.pgn.Game, file: TextIO) -> None:
        print(record, file=file, end="\n\n")

    def report_lines(self, match: Match) -> List[str]:
        return []
