"""The Kriegspiel line protocol (docs/kriegspiel-protocol.md): a first line `kriegspiel` makes Pyrope
a Kriegspiel player, as `uci` makes it a chess engine. The driver (a match runner, a server) keeps
the referee; Pyrope is told only what its side may know -- its colour and the start, the umpire's
public announcements, and whether each of its tries was legal -- and answers `go` with tries.

The announcement's words (`umpire_words`, `parse_umpire`) are shared by both ends:

    umpire [capture SQUARE pawn|piece] [check rank|file|long|short|knight]...
           (tomove white|black [pawntries N] | end RESULT TERMINATION)

and so are `go`'s limits (`go_words`, `parse_go`: play.timeman.Limits, as UCI's), which the
player's MoveBudget spends across the move's tries.
"""
from __future__ import annotations

from typing import Callable, Iterable, Optional

import chess

from ..play.timeman import Limits
from ..protocol.uci import ENGINE_AUTHOR, ENGINE_NAME
from .._kriegspiel import KriegspielError
from .budget import MoveBudget
from .players import Player
from .roster import BUILTINS, DEFAULT_PLAYER, builtin
from .referee import Announcement, Capture, Check, Referee

CHECK_WORDS = {Check.RANK: "rank", Check.FILE: "file", Check.LONG_DIAGONAL: "long",
               Check.SHORT_DIAGONAL: "short", Check.KNIGHT: "knight"}
TERMINATIONS = {termination.name.lower(): termination for termination in
                (chess.Termination.CHECKMATE, chess.Termination.STALEMATE, chess.Termination.INSUFFICIENT_MATERIAL,
                 chess.Termination.FIFTY_MOVES, chess.Termination.THREEFOLD_REPETITION)}
# go's words with the least value each may take: milliseconds (clocks may stand at 0), nodes, moves.
GO_LEAST = {"wtime": 0, "btime": 0, "winc": 0, "binc": 0, "movestogo": 1, "movetime": 1, "nodes": 1}
GO_MOST = 2 ** 40       # beyond any clock (35 years in ms) or search, and within C's integers


def umpire_words(announcement: Announcement) -> str:
    """The `umpire` line of an announcement."""
    words = ["umpire"]
    if announcement.capture is not None:
        words += ["capture", chess.square_name(announcement.capture.square),
                  "pawn" if announcement.capture.pawn else "piece"]
    for check in announcement.checks:
        words += ["check", CHECK_WORDS[check]]
    if announcement.outcome is not None:
        words += ["end", announcement.outcome.result(), announcement.outcome.termination.name.lower()]
    else:
        words += ["tomove", "white" if announcement.to_move == chess.WHITE else "black"]
        if announcement.pawn_tries:
            words += ["pawntries", str(announcement.pawn_tries)]
    return " ".join(words)


def go_words(limits: Limits) -> str:
    """The `go` line of a move's limits (those set: a clock may stand at 0)."""
    words = ["go"]
    for name in GO_LEAST:
        value = getattr(limits, name)
        if value is not None and (value or name in ("wtime", "btime")):
            words += [name, str(value)]
    return " ".join(words)


def parse_go(words: list[str]) -> Limits:
    """The Limits of a `go` line's words (after `go`); ValueError says what is wrong."""
    limits = Limits()
    if len(words) % 2:
        raise ValueError(f"{words[-1]!r} needs a value")
    for name, text in zip(words[::2], words[1::2]):
        if name not in GO_LEAST:
            raise ValueError(f"a limit is one of {', '.join(GO_LEAST)}, not {name!r}")
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"{name} is a whole number, not {text!r}") from None
        if not GO_LEAST[name] <= value <= GO_MOST:
            raise ValueError(f"{name} is {GO_LEAST[name]} to {GO_MOST}, not {value}")
        setattr(limits, name, value)
    return limits


def parse_umpire(words: list[str], to_move_after_end: chess.Color) -> Announcement:
    """The Announcement of an `umpire` line's words (after `umpire`); ValueError says what is wrong.
    A game's end names no side to move: `to_move_after_end` is used."""
    capture, checks, to_move, pawn_tries, outcome = None, [], None, 0, None
    kinds = {word: check for check, word in CHECK_WORDS.items()}
    rest = list(words)
    while rest:
        word = rest.pop(0)
        try:
            if word == "capture":
                square, kind = chess.parse_square(rest.pop(0)), rest.pop(0)
                if kind not in ("pawn", "piece"):
                    raise ValueError(f"a capture is of a pawn or a piece, not {kind!r}")
                capture = Capture(square, kind == "pawn")
            elif word == "check":
                kind = rest.pop(0)
                if kind not in kinds:
                    raise ValueError(f"a check is {', '.join(kinds)}, not {kind!r}")
                checks.append(kinds[kind])
            elif word == "tomove":
                side = rest.pop(0)
                if side not in ("white", "black"):
                    raise ValueError(f"tomove is white or black, not {side!r}")
                to_move = side == "white"
            elif word == "pawntries":
                pawn_tries = int(rest.pop(0))
                if not 0 <= pawn_tries <= 16:
                    raise ValueError(f"pawntries is 0 to 16, not {pawn_tries}")
            elif word == "end":
                result, termination = rest.pop(0), rest.pop(0)
                if result not in ("1-0", "0-1", "1/2-1/2") or termination not in TERMINATIONS:
                    raise ValueError(f"end is a result and one of {', '.join(TERMINATIONS)}, not {result} {termination}")
                winner = None if result == "1/2-1/2" else result == "1-0"
                outcome = chess.Outcome(TERMINATIONS[termination], winner)
            else:
                raise ValueError(f"unknown word {word!r}")
        except IndexError:
            raise ValueError(f"{word!r} needs a value") from None
    if (to_move is None) == (outcome is None):
        raise ValueError("an announcement has either tomove or end")
    return Announcement(to_move=to_move_after_end if to_move is None else to_move, capture=capture,
                        checks=tuple(checks), pawn_tries=None if outcome else pawn_tries, outcome=outcome)


class KriegspielFrontEnd:
    """Pyrope's side of the protocol: a built-in player (option Player) behind the lines."""

    def __init__(self, write: Callable[[str], None]) -> None:
        self.write = write
        self.board_style = None         # set by the command line for every front-end; unused here
        self.kind, self.seed, self.endgame, self.games = DEFAULT_PLAYER, 0, True, 0
        self.player: Optional[Player] = None
        self.color: Optional[chess.Color] = None
        self.to_move: Optional[chess.Color] = None      # per the latest announcement
        self.over = False
        self.trying: Optional[str] = None               # our try awaiting `legal` or `illegal`

    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            if not self.handle(line):
                return

    def handle(self, line: str) -> bool:
        """One line; False after `quit`. A line that cannot be taken gets one `error` line and
        changes nothing."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command == "quit":
            return False
        handler = getattr(self, "on_" + command, None) if command.isidentifier() else None
        if handler is None:
            self.write(f"error unknown command: {command}")
            return True
        try:
            handler(args)
        except (ValueError, KriegspielError) as error:
            self.write(f"error {command}: {error}")
        return True

    def on_kriegspiel(self, args: list[str]) -> None:
        self.write(f"id name {ENGINE_NAME}")
        self.write(f"id author {ENGINE_AUTHOR}")
        self.write(f"option name Player type combo default {DEFAULT_PLAYER} " + " ".join(f"var {k}" for k in BUILTINS))
        self.write("option name Seed type spin default 0 min 0 max 4294967295")
        self.write("option name Endgame type check default true")
        self.write("kriegspielok")

    def on_isready(self, args: list[str]) -> None:
        self.write("readyok")

    def on_stop(self, args: list[str]) -> None:
        pass        # a try is answered at once: there is never a search to stop

    def on_setoption(self, args: list[str]) -> None:
        text = " ".join(args)
        if not text.startswith("name ") or " value " not in text:
            raise ValueError("expected: setoption name NAME value VALUE")
        name, value = text[len("name "):].split(" value ", 1)
        name, value = name.strip().lower(), value.strip()
        if name == "player":
            if value not in BUILTINS:
                raise ValueError(f"Player is one of {', '.join(BUILTINS)}, not {value!r}")
            self.kind = value
        elif name == "endgame":
            if value not in ("true", "false"):
                raise ValueError(f"Endgame is true or false, not {value!r}")
            self.endgame = value == "true"
        elif name == "seed":
            if not value.isdigit():
                raise ValueError(f"Seed is a whole number, not {value!r}")
            self.seed = int(value)
        else:
            raise ValueError(f"no option {name!r} (Player, Seed, Endgame)")

    def on_newgame(self, args: list[str]) -> None:
        if not args or args[0] not in ("white", "black") or (len(args) > 1 and args[1] != "fen"):
            raise ValueError("expected: newgame white|black [fen FEN]")
        fen = Referee(" ".join(args[2:])).start_fen if len(args) > 2 else Referee().start_fen
        self.games += 1
        player = builtin(self.kind, str(self.games), seed=self.seed, endgame=int(self.endgame))
        player.start(args[0] == "white", fen)
        self.player, self.color, self.to_move, self.over, self.trying = player, args[0] == "white", None, False, None

    def on_umpire(self, args: list[str]) -> None:
        self.require_game()
        if self.trying is not None:
            raise ValueError(f"our try {self.trying} awaits legal or illegal")
        announcement = parse_umpire(args, not self.to_move if self.to_move is not None else chess.WHITE)
        capture = announcement.capture
        if capture is not None and announcement.to_move == self.color \
                and self.player.own.board.color_at(capture.square) != self.color:
            raise ValueError(f"no man of ours stands on {chess.square_name(capture.square)} to be captured")
        self.player.hear(announcement)
        self.to_move, self.over = announcement.to_move, announcement.outcome is not None

    def on_go(self, args: list[str]) -> None:
        limits = parse_go(args)
        self.require_game()
        if self.over or self.to_move != self.color or self.trying is not None:
            raise ValueError("not our turn to try" if self.trying is None else f"our try {self.trying} awaits an answer")
        self.player.go(MoveBudget(limits, self.color))        # the move's clock starts now
        self.next_try()

    def on_legal(self, args: list[str]) -> None:
        self.answer(True)

    def on_illegal(self, args: list[str]) -> None:
        self.answer(False)
        self.next_try()

    def answer(self, legal: bool) -> None:
        self.require_game()
        if self.trying is None:
            raise ValueError("no try of ours awaits an answer")
        self.player.answered(self.trying, legal)
        self.trying = None
        if legal:
            self.to_move = not self.color

    def next_try(self) -> None:
        self.trying = self.player.next_try()
        self.write(f"try {self.trying}")

    def require_game(self) -> None:
        if self.player is None:
            raise ValueError("no game: newgame white|black [fen FEN] first")
