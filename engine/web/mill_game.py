"""One Mill game (nine men's morris and its variants) between a person in a browser and Pyrope,
behind one WebSocket (app.py): as chess_game, the page's messages in, the state and the engine's
thinking out.

The game is a mill.session.MillSession: its board says which turns are legal and when the game
is over, its manager searches on a thread of its own (engine_game runs it). A turn is sent whole
in Pyrope's notation (d6, d6-d5, d6xb4); the page builds it from the points clicked, matching
them against the legal turns the state lists, so it needs no rules of its own.
"""
from __future__ import annotations

from dataclasses import dataclass

from ..mill.board import MillBoard
from ..mill.geometry import POINTS
from ..mill.rules import VARIANTS
from ..mill.search import SearchInfo, SearchResult
from ..play.timeman import Limits
from .chess_game import MOVETIME_MS, NODES
from .engine_game import EngineGame, MessageError, set_up, whole

STONES = {"O": "white", "@": "black"}       # the FEN's letters


@dataclass(frozen=True)
class MillSettings:
    human_white: bool
    variant: str
    start_fen: str | None = None    # a set-up position to play from; None: the variant's start
    movetime_ms: int = 0        # a fixed time a turn, or ...
    nodes: int = 0              # ... a fixed node count a turn


def mill_settings_from(message: dict) -> MillSettings:
    colour, variant = message.get("color", "white"), message.get("variant", "nine")
    if colour not in ("white", "black"):
        raise MessageError(f"color must be white or black, not {colour!r}")
    if variant not in VARIANTS:
        raise MessageError(f"variant must be one of {', '.join(VARIANTS)}, not {variant!r}")
    fen = message.get("fen")
    start_fen = None if fen is None else set_up(fen, lambda text: MillBoard(text, variant=variant), "Mill FEN")
    common = dict(human_white=colour == "white", variant=variant, start_fen=start_fen)
    if (message.get("movetime_ms") is None) == (message.get("nodes") is None):
        raise MessageError("give one of movetime_ms or nodes")
    if message.get("nodes") is not None:
        return MillSettings(**common, nodes=whole(message, "nodes", *NODES))
    return MillSettings(**common, movetime_ms=whole(message, "movetime_ms", *MOVETIME_MS))


def white_view(score: int, mate: int | None, white_to_move: bool) -> dict:
    """A score for the side to move (100 a stone) as White's."""
    sign = 1 if white_to_move else -1
    return {"mate": sign * mate} if mate is not None else {"stones": sign * score / 100}


class MillGame(EngineGame):
    """The Mill game of one socket."""

    def handlers(self) -> dict:
        return {"new": self.new_game, "move": self.move, "takeback": self.take_back, "resign": self.resign}

    def new_game(self, message: dict) -> None:
        settings = mill_settings_from(message)
        self.cancel()
        self.settings, self.outcome = settings, None
        self.session.set_rule("Variant", settings.variant)
        self.session.new_game()
        if settings.start_fen is not None:
            self.session.set_position(settings.start_fen, [])
        self.next_turn()

    def move(self, message: dict) -> None:
        self.check_playing()
        if self.thinking or self.session.board.white_to_move != self.settings.human_white:
            raise MessageError("it is Pyrope's turn, not yours")
        turn = message.get("turn")
        legal = self.session.board.legal_moves()
        if not isinstance(turn, str) or turn not in legal:
            raise MessageError(f"{turn!r} is not a legal turn here; legal: {' '.join(legal)}")
        self.session.board.push(turn)
        self.next_turn()

    def take_back(self, message: dict) -> None:
        """Back to before the person's last turn (the engine's reply or search goes too)."""
        self.check_playing()
        plies = self.plies_to_take_back()
        self.cancel()
        for _ in range(plies):
            self.session.board.pop()
        self.next_turn()

    def next_turn(self) -> None:
        self.outcome = self.session.board.outcome()
        if self.outcome is None and self.session.board.white_to_move != self.settings.human_white:
            self.think(Limits(movetime=self.settings.movetime_ms, nodes=self.settings.nodes))
        self.send_state()

    def thinking_shown(self, infos: list[SearchInfo]) -> None:
        white = self.session.board.white_to_move
        for info in infos:
            self.send({"type": "info", "depth": info.depth, "nodes": info.nodes, "nps": info.nps,
                       "time_ms": info.time_ms, "score": white_view(info.score, info.mate, white), "pv": info.pv})

    def engine_moved(self, result: SearchResult) -> None:
        self.session.board.push(result.move)
        self.next_turn()

    def send_state(self) -> None:
        board = self.session.board
        fields = board.fen().split()
        human_to_move = self.outcome is None and not self.thinking and board.white_to_move == self.settings.human_white
        self.send({
            "type": "state", "fen": board.fen(), "start_fen": board.root_fen, "variant": self.settings.variant,
            "human": "white" if self.settings.human_white else "black", "to_move": board.turn,
            "stones": {point: STONES[stone] for point, stone in zip(POINTS, fields[0].replace("/", "")) if stone in STONES},
            "in_hand": {"white": int(fields[2]), "black": int(fields[3])},
            "lines": [[POINTS[index] for index in line] for line in board.rules.lines()],
            "turns": list(board.move_stack), "legal": board.legal_moves() if human_to_move else [],
            "thinking": self.thinking, "result": None if self.outcome is None else self.outcome[0],
            "reason": None if self.outcome is None else self.outcome[1], "database": self.database_verdict()})

    def database_verdict(self) -> dict | None:
        """The perfect databases' value of a position they hold, as White's result: "1-0", "0-1"
        or "1/2-1/2", and in how many turns the game ends with best play (None for a draw)."""
        value = self.session.database_value() if self.outcome is None else None
        if value is None:
            return None
        white = self.session.board.white_to_move
        result = {"draw": "1/2-1/2", "win": "1-0" if white else "0-1", "loss": "0-1" if white else "1-0"}[value.result]
        return {"result": result, "turns": value.distance}
