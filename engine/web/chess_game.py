"""One chess game between a person in a browser and Pyrope, behind one WebSocket (app.py): the
page's messages in (`handle`), the game's state, the engine's thinking and errors out (`send`).

The game is a play.session.Session: its board says what is legal and when the game is over, its
search manager searches on a thread of its own (engine_game runs it). python-chess only spells
moves (SAN) and writes the PGN. Every message is checked before anything changes: a bad one
raises MessageError, which the socket answers with an error message.
"""
from __future__ import annotations

import asyncio
import datetime
import random
from dataclasses import dataclass

import chess
import chess.pgn

from .. import __version__
from .._core import Board
from ..analysis.review import Evaluation
from ..play.options import ELO, LIMIT_STRENGTH
from ..play.result import CurrentMove, Info, Score, SearchResult
from ..play.session import Session
from ..play.timeman import Limits
from .clocks import Clocks
from .engine_game import EngineGame, MessageError, Send, set_up, whole

STANDARD_POSITION = 518         # Chess960's number of the standard start position
MAX_BASE_S = 3 * 3600
MAX_INCREMENT_S = 600
MOVETIME_MS = (50, 60_000)      # the range of a fixed time a move
NODES = (1, 10_000_000)         # ... and of a fixed node count a move

@dataclass(frozen=True)
class Settings:
    """A game as the page asked for it."""
    human_white: bool
    start_fen: str
    chess960: bool
    elo: int | None                 # the engine's UCI_Elo level; None: full strength
    base_ms: int = 0                # a clock of base + increment, or ...
    increment_ms: int = 0
    movetime_ms: int = 0            # ... a fixed time a move, or ...
    nodes: int = 0                  # ... a fixed node count a move

    def engine_name(self) -> str:
        return f"Pyrope {__version__}" + (f" (UCI_Elo {self.elo})" if self.elo is not None else "")

    def time_control(self) -> str:
        """PGN's TimeControl: base+increment in seconds, or 1/seconds for a fixed time a move."""
        if self.base_ms:
            return f"{self.base_ms // 1000}+{self.increment_ms // 1000}"
        return f"1/{self.movetime_ms / 1000:g}" if self.movetime_ms else "-"


def settings_from(message: dict) -> Settings:
    """The settings a "new" message asks for, or MessageError saying what is wrong with it."""
    colour = message.get("color", "white")
    if colour not in ("white", "black", "random"):
        raise MessageError(f"color must be white, black or random, not {colour!r}")
    chess960 = message.get("chess960", False)
    if not isinstance(chess960, bool):
        raise MessageError(f"chess960 must be true or false, not {chess960!r}")
    fen = message.get("fen")
    if fen is not None:
        start_fen = set_up(fen, lambda text: Board(text, chess960=chess960), "FEN")
    elif chess960 and message.get("position") is not None:
        start_fen = chess.Board.from_chess960_pos(whole(message, "position", 0, 959)).fen()
    else:
        start_fen = chess.Board.from_chess960_pos(random.randrange(960) if chess960 else STANDARD_POSITION).fen()
    elo = None if message.get("elo") is None else whole(message, "elo", ELO.minimum, ELO.maximum)
    limits = [name for name in ("time", "movetime_ms", "nodes") if message.get(name) is not None]
    if len(limits) != 1:
        raise MessageError("give one of time ({\"base_s\": B, \"increment_s\": I}), movetime_ms or nodes")
    common = dict(human_white=colour == "white" or (colour == "random" and random.random() < 0.5),
                  start_fen=start_fen, chess960=chess960, elo=elo)
    if limits[0] == "time":
        time = message["time"]
        if not isinstance(time, dict):
            raise MessageError(f"time must be {{\"base_s\": B, \"increment_s\": I}}, not {time!r}")
        base, increment = whole(time, "base_s", 1, MAX_BASE_S), whole(time, "increment_s", 0, MAX_INCREMENT_S)
        return Settings(**common, base_ms=1000 * base, increment_ms=1000 * increment)
    if limits[0] == "movetime_ms":
        return Settings(**common, movetime_ms=whole(message, "movetime_ms", *MOVETIME_MS))
    return Settings(**common, nodes=whole(message, "nodes", *NODES))


def white_score(score: Score, white_to_move: bool) -> Score:
    """A score for the side to move as White's."""
    if white_to_move:
        return score
    return Score(cp=-score.cp, mate=None if score.mate is None else -score.mate)


def san_line(board: chess.Board, line: list[str]) -> list[str]:
    """A line of UCI moves from `board` in SAN (as far as its moves are legal there)."""
    board, sans = board.copy(stack=False), []
    for uci in line:
        try:
            move = board.parse_uci(uci)
        except ValueError:
            break
        sans.append(board.san(move))
        board.push(move)
    return sans


class ChessGame(EngineGame):
    """The chess game of one socket."""

    def __init__(self, session: Session, send: Send, loop: asyncio.AbstractEventLoop) -> None:
        super().__init__(session, send, loop)
        self.clocks: Clocks | None = None           # None with a fixed time or node count a move
        self.flag_timer: asyncio.TimerHandle | None = None

    # -- the page's messages ---------------------------------------------------------------------

    def handlers(self) -> dict:
        return {"new": self.new_game, "move": self.move, "takeback": self.take_back, "resign": self.resign}

    def new_game(self, message: dict) -> None:
        settings = settings_from(message)
        self.cancel()
        self.settings, self.outcome = settings, None
        LIMIT_STRENGTH.apply(self.session, settings.elo is not None)
        if settings.elo is not None:
            ELO.apply(self.session, settings.elo)
        self.session.set_chess960(settings.chess960)
        self.session.new_game()
        self.session.set_position(settings.start_fen, [])
        self.clocks = Clocks(settings.base_ms, settings.increment_ms) if settings.base_ms else None
        if self.clocks is not None:
            self.clocks.start(True)
        self.next_turn()

    def move(self, message: dict) -> None:
        self.check_playing()
        if self.thinking or self.session.board.white_to_move != self.settings.human_white:
            raise MessageError("it is Pyrope's move, not yours")
        uci = message.get("uci")
        if not isinstance(uci, str) or uci not in self.session.board.legal_moves():
            raise MessageError(f"{uci!r} is not a legal move here; legal: {' '.join(self.session.board.legal_moves())}")
        if self.clocks is not None and not self.clocks.moved(self.settings.human_white):
            self.time_up(self.settings.human_white)
            return
        self.session.push(uci)
        self.next_turn()

    def take_back(self, message: dict) -> None:
        """Back to the person's last move, before it: the engine's search or reply goes too."""
        self.check_playing()
        plies = self.plies_to_take_back()
        self.cancel()
        self.session.take_back(plies)
        if self.clocks is not None:
            self.clocks.stop()
            self.clocks.start(self.settings.human_white)
        self.next_turn()

    # -- the game's course -----------------------------------------------------------------------

    def next_turn(self) -> None:
        """After a move (or a start or a take-back): the game ends, or the engine thinks, or the
        person's clock is watched; then the page hears the new state."""
        outcome = self.session.board.outcome()
        if outcome is not None:
            self.end(*outcome)
            return
        if self.session.board.white_to_move == self.settings.human_white:
            self.watch_flag()
        else:
            self.think(self.limits())
        self.send_state()

    def limits(self) -> Limits:
        settings, clocks = self.settings, self.clocks
        if clocks is not None:
            return Limits(wtime=max(0, clocks.remaining(True)), btime=max(0, clocks.remaining(False)),
                          winc=clocks.increment_ms, binc=clocks.increment_ms)
        return Limits(movetime=settings.movetime_ms, nodes=settings.nodes)

    def thinking_shown(self, infos: list[Info]) -> None:
        board = self.chess_board()
        for info in infos:
            if isinstance(info, CurrentMove) or info.multipv != 1:
                continue
            score = white_score(info.score, board.turn == chess.WHITE)
            self.send({"type": "info", "depth": info.depth, "seldepth": info.seldepth, "nodes": info.nodes,
                       "nps": info.nps, "time_ms": info.time_ms, "score": score_json(score),
                       "white_expected": Evaluation(score, []).expected, "pv": san_line(board, info.pv)})

    def engine_moved(self, result: SearchResult) -> None:
        engine_white = not self.settings.human_white
        if self.clocks is not None and not self.clocks.moved(engine_white):
            self.time_up(engine_white)
            return
        self.session.push(result.move)
        self.next_turn()

    def watch_flag(self) -> None:
        """Lose the person the game when their time runs out, though no message comes."""
        if self.clocks is None:
            return
        token = self.token
        self.flag_timer = self.loop.call_later(max(0, self.clocks.remaining(self.settings.human_white)) / 1000 + 0.01,
                                               self.flag_falls, token)

    def flag_falls(self, token: int) -> None:
        human = self.settings.human_white
        if token == self.token and self.outcome is None and self.clocks.remaining(human) <= 0:
            self.time_up(human)

    def time_up(self, white: bool) -> None:
        """`white`'s time ran out: a loss, or a draw when the other side could never mate."""
        board = self.chess_board()
        if board.has_insufficient_material(not white):
            self.end("1/2-1/2", "timeout vs insufficient material")
        else:
            self.end("0-1" if white else "1-0", "time forfeit")

    def end(self, result: str, reason: str) -> None:
        if self.clocks is not None:
            self.clocks.stop()
        super().end(result, reason)

    def cancel(self) -> None:
        """The search and the watch of the person's clock that count now end."""
        super().cancel()
        if self.flag_timer is not None:
            self.flag_timer.cancel()
            self.flag_timer = None

    # -- what the page sees ----------------------------------------------------------------------

    def chess_board(self) -> chess.Board:
        """The game as python-chess's board, for SAN and PGN."""
        board = chess.Board(self.settings.start_fen, chess960=self.settings.chess960)
        for uci in self.session.board.move_stack:
            board.push(board.parse_uci(uci))
        return board

    def send_state(self) -> None:
        settings, board = self.settings, self.chess_board()
        human_to_move = self.outcome is None and not self.thinking and (board.turn == chess.WHITE) == settings.human_white
        self.send({
            "type": "state", "fen": board.fen(), "start_fen": settings.start_fen, "chess960": settings.chess960,
            "human": "white" if settings.human_white else "black",
            "moves": list(self.session.board.move_stack), "sans": san_line(board.root(), self.session.board.move_stack),
            "legal": self.session.board.legal_moves() if human_to_move else [],
            "check": chess.square_name(board.king(board.turn)) if board.is_check() else None,
            "thinking": self.thinking, "clock": None if self.clocks is None else self.clocks.shown(),
            "result": None if self.outcome is None else self.outcome[0],
            "reason": None if self.outcome is None else self.outcome[1], "pgn": self.pgn(board)})

    def pgn(self, board: chess.Board) -> str:
        settings = self.settings
        game = chess.pgn.Game.from_board(board)
        you, engine = "You", settings.engine_name()
        game.headers.update(Event="Pyrope web game", Site="pyrope serve",
                            Date=datetime.date.today().strftime("%Y.%m.%d"),
                            White=you if settings.human_white else engine, Black=engine if settings.human_white else you,
                            Result=self.outcome[0] if self.outcome else "*", TimeControl=settings.time_control())
        if self.outcome is not None:
            game.headers["Termination"] = self.outcome[1]
        return str(game)


def score_json(score: Score) -> dict:
    return {"mate": score.mate} if score.mate is not None else {"cp": score.cp}
