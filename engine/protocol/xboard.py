"""xboard / CECP version 2 front-end: reads CECP commands, drives the Session and the
SearchManager, writes replies.

It translates text only. A command that cannot be carried out is answered in CECP's own forms
(`Error (reason): command`, `Illegal move (reason): move`) and changes nothing. Searches run in
the background, so the reader keeps answering while the engine thinks, ponders or analyses.

Threads: the reader calls `handle`; the search thread calls back with thinking output and the
result. Both take `_lock`. Every search gets a token; stopping a search for good bumps the token,
so callbacks of a search that no longer counts change nothing. The reader never holds the lock
while it waits for a search thread to end (that thread may be waiting for the lock).
"""
from __future__ import annotations

import enum
import re
import threading
import time
from typing import Callable, Iterable

from .._core import Board, BookError, FenError, IllegalMoveError, ParamFileError, TablebaseError
from ..nnue.netfile import NetFileError
from ..book.player import BookPick, ranked
from ..play.options import BUTTON, CHECK, CHESS, HASH, PONDER, PYROPE_TB_PATH, SPIN, SYZYGY_PATH, THREADS, Option, Report
from ..play.session import Session
from ..play.timeman import Limits, plan_move
from .uci import ENGINE_NAME

VARIANTS = {"normal": False, "fischerandom": True}     # variant name -> Chess960 rules

# Before any `level` or `st`, xboard's own default time control: 40 moves in 5 minutes.
DEFAULT_LEVEL = (40, 5 * 60_000, 0)

CLEARLY_WORSE_CP = -150         # accept a draw offer at or below this score
MATE_SCORE = 100_000            # CECP thinking output: mate in N is 100000 + N

# Board.outcome() reasons in the words CECP's examples use for result claims.
CLAIM_REASONS = {"Threefold repetition": "Draw by repetition", "Fifty-move rule": "50 move rule"}

# What a line holding just a move looks like (feature usermove=1 may be refused).
MOVE_PATTERN = re.compile(r"^(?:[a-h][1-8][a-h][1-8][nbrqNBRQ]?|[O0]-[O0](?:-[O0])?)$")
CASTLING_NAMES = {"O-O": "O-O", "0-0": "O-O", "O-O-O": "O-O-O", "0-0-0": "O-O-O"}
# The base time of `level`: minutes or minutes:seconds; anything after it is ignored (spec).
LEVEL_BASE = re.compile(r"^(\d+(?:\.\d*)?)(?::(\d+(?:\.\d*)?))?")

# Bounds that keep every number within what the search takes (64-bit times and node counts).
MAX_CLOCK_CS = 10**9            # time, otim, level base: about 115 days
MAX_DEPTH = 1000
MAX_NPS = 10**9
MAX_MOVES_PER_SESSION = 10**4


def normalised(name: str) -> str:
    # Spaces and underscores dropped, any case: "Move Overhead" and "UCI_Elo" name MoveOverhead and Elo.
    return "".join(name.split()).replace("_", "").lower()


# The options `option NAME=VALUE` sets, by their CECP and UCI names (Hash and Threads come through
# `memory` and `cores`). CECP allows spaces in option names, but python-chess splits them at the
# first space, so the CECP names have none.
OPTIONS = {normalised(name): option for option in CHESS.cecp_options for name in (option.cecp, option.name)}


class CecpError(ValueError):
    """A command that cannot be carried out; the message is the reason in `Error (reason): ...`."""


class IllegalMove(ValueError):
    """A move that cannot be played; the message is the optional reason of `Illegal move`."""


class Search(enum.Enum):
    IDLE = "idle"
    THINKING = "thinking"       # on our own move; the result is played
    PONDERING = "pondering"     # on the opponent's time, after the move we expect
    ANALYZING = "analyzing"     # analyze mode; the result is never played


def placement(board: Board) -> dict[str, str]:
    """The pieces of `board` as FEN letters by square name ('e1': 'K')."""
    pieces = {}
    for row, rank_text in enumerate(board.fen().split()[0].split("/")):
        file = 0
        for char in rank_text:
            if char.isdigit():
                file += int(char)
            else:
                pieces["abcdefgh"[file] + str(8 - row)] = char
                file += 1
    return pieces


def castling_moves(board: Board) -> dict[str, str]:
    """{'O-O': move, 'O-O-O': move} for the legal castling moves, written king-takes-rook (which
    Board.push accepts in either variant): the king moves that land on the king's own rook."""
    pieces = placement(board)
    king, rook = ("K", "R") if board.white_to_move else ("k", "r")
    chess960 = board.copy()
    chess960.chess960 = True
    return {("O-O" if move[2] > move[0] else "O-O-O"): move for move in chess960.legal_moves()
            if pieces.get(move[:2]) == king and pieces.get(move[2:4]) == rook}


def xboard_move(board: Board, move: str) -> str:
    """`move` (UCI) as CECP writes it: coordinates, with O-O / O-O-O for castling in Chess960."""
    if board.chess960:
        for name, castle in castling_moves(board).items():
            if castle == move:
                return name
    return move


def xboard_line(board: Board, moves: list[str]) -> str:
    """A line of UCI moves from `board`, in CECP notation."""
    board = board.copy()
    written = []
    for move in moves:
        written.append(xboard_move(board, move))
        try:
            board.push(move)
        except IllegalMoveError:
            break       # never let a bad line kill the search thread; show what is sound
    return " ".join(written)


def xboard_score(score: dict) -> int:
    """A search score ({'cp': x} or {'mate': n}) as a CECP thinking score."""
    if "mate" in score:
        mate = score["mate"]
        return MATE_SCORE + mate if mate > 0 else -MATE_SCORE + mate
    return score["cp"]


def clearly_worse(score: dict | None) -> bool:
    if not score:
        return False
    if "mate" in score:
        return score["mate"] < 0      # mate 0 would be a position without moves: never searched
    return score["cp"] <= CLEARLY_WORSE_CP


def option_feature(option: Option, session: Session) -> str:
    """What `feature option="..."` says of an option: its name, type and value now."""
    kind, value = option.cecp_kind or option.kind, option.read(session)
    if kind == SPIN:
        return f"{option.cecp} -spin {value} {option.minimum} {option.maximum}"
    if kind == CHECK:
        return f"{option.cecp} -check {int(value)}"
    return f"{option.cecp} -button" if kind == BUTTON else f"{option.cecp} -{kind} {value}"


def parse_int(text: str, what: str, minimum: int | None = None, maximum: int | None = None) -> int:
    try:
        value = int(text)
    except ValueError:
        raise CecpError(f"{what} must be a whole number, not {text!r}") from None
    if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
        bounds = f"at least {minimum}" if maximum is None else f"between {minimum} and {maximum}"
        raise CecpError(f"{what} must be {bounds}, not {value}")
    return value


def parse_seconds(text: str, what: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise CecpError(f"{what} must be a number of seconds, not {text!r}") from None
    if not 0 <= value < 1e9:
        raise CecpError(f"{what} must be a number of seconds from 0, not {text}")
    return value


def parse_level(args: list[str]) -> tuple[int, int, int]:
    """(moves per session, base ms, increment ms) from `level MPS BASE INC`."""
    if len(args) != 3:
        raise CecpError("level needs MPS BASE INC" if len(args) < 3 else "too many parameters")
    moves = parse_int(args[0], "moves per session", 0, MAX_MOVES_PER_SESSION)
    base = LEVEL_BASE.match(args[1])
    if base is None:
        raise CecpError(f"base time must be minutes or minutes:seconds, not {args[1]!r}")
    base_ms = round((float(base.group(1)) * 60 + float(base.group(2) or 0)) * 1000)
    if base_ms > MAX_CLOCK_CS * 10:
        raise CecpError(f"base time {args[1]} is too long")
    increment = parse_seconds(args[2], "increment")
    return moves, base_ms, round(increment * 1000)


def one_argument(args: list[str], what: str) -> str:
    if len(args) != 1:
        raise CecpError(f"needs one {what}" if not args else "too many parameters")
    return args[0]


class XboardFrontEnd:
    def __init__(self, session: Session, write: Callable[[str], None]) -> None:
        self.session = session
        self.manager = session.manager
        self.write = write
        self._lock = threading.Lock()
        # hard / easy and analyze mode are the manager's ponder_allowed and analyse_mode: its time
        # manager plans for pondering, and analysis is always at full strength.
        self.force = False
        self.engine_white = False           # the side the engine plays when not in force mode
        self.post = False
        self.moves_per_session, self.base_ms, self.increment_ms = DEFAULT_LEVEL
        self.level_ply = 0                  # the game ply at which the `level` came
        self.move_time_ms = 0               # st; replaces the clock while set
        self.max_depth = 0                  # sd
        self.nps = 0                        # nps: think in nodes, not in wall-clock time
        self.engine_clock_ms = self.opponent_clock_ms = self.base_ms
        self.search = Search.IDLE
        self.token = 0
        self.search_started = 0.0
        self.last_info: dict | None = None
        self.current_move: dict | None = None
        self.pondered_move: str | None = None
        self.hint: tuple[int, str] | None = None    # (board key, the reply we expect there)
        self.last_score: dict | None = None
        self.pending_pongs: list[str] = []
        self.commands: dict[str, Callable[[list[str]], None]] = {
            "xboard": lambda args: None,
            "protover": self.protover,
            "accepted": lambda args: None,
            "rejected": lambda args: None,
            "new": self.new,
            "variant": self.variant,
            "force": self.force_mode,
            "go": self.go,
            "playother": self.playother,
            "level": self.level,
            "st": self.st,
            "sd": self.sd,
            "nps": self.set_nps,
            "time": lambda args: self.set_clock(args, engine=True),
            "otim": lambda args: self.set_clock(args, engine=False),
            "usermove": self.usermove,
            "?": self.move_now,
            "ping": self.ping,
            "draw": self.draw,
            "result": self.result,
            "setboard": self.setboard,
            "hint": self.send_hint,
            "bk": self.book,
            "undo": lambda args: self.take_back(args, 1),
            "remove": lambda args: self.take_back(args, 2),
            "hard": lambda args: PONDER.apply(self.session, True),
            "easy": self.easy,
            "post": lambda args: setattr(self, "post", True),
            "nopost": lambda args: setattr(self, "post", False),
            "analyze": self.analyze,
            "exit": self.exit_analysis,
            ".": self.status,
            "name": lambda args: None,
            "rating": lambda args: None,
            "computer": lambda args: None,
            "random": lambda args: None,
            "ics": lambda args: None,
            "memory": self.memory,
            "cores": self.cores,
            "option": self.option,
            "egtpath": self.egtpath,
        }

    # -- the reader --------------------------------------------------------------------------

    def handle(self, line: str) -> bool:
        """Carry out one command line; return False when the engine should quit."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        with self._lock:
            if command == "quit":
                self._cancel()
                return False
            handler = self.commands.get(command)
            try:
                if handler is not None:
                    handler(args)
                elif MOVE_PATTERN.match(command) and not args:
                    self.play_move(command)
                else:
                    raise CecpError("unknown command")
            except (CecpError, FenError, ParamFileError, NetFileError, BookError, TablebaseError) as error:
                self.write(f"Error ({self._reason(error)}): {line.strip()}")
            except IllegalMove as error:
                reason = f" ({self._reason(error)})" if str(error) else ""
                self.write(f"Illegal move{reason}: {args[0] if command == 'usermove' else command}")
        return True

    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            if not self.handle(line):
                return
        with self._lock:
            self._cancel()

    @staticmethod
    def _reason(error: Exception) -> str:
        # The GUI reads the reason up to the first ')' (python-chess: no brackets at all).
        return " ".join(str(error).replace("(", "[").replace(")", "]").split())

    # -- searches (callers hold the lock) ----------------------------------------------------

    def _cancel(self) -> None:
        """End any search for good: its result is dropped. Waits for its thread without the lock."""
        self.token += 1
        self.search = Search.IDLE
        self._lock.release()
        try:
            self.manager.finish()
        finally:
            self._lock.acquire()
        self._flush_pongs()

    def _settle(self) -> None:
        """Before changing options: a search on our move ends now and plays its move (CECP allows
        moving at once on any command); pondering or analysis ends without a result."""
        if self.search is Search.THINKING:
            self.manager.stop()
            self._lock.release()
            try:
                self.manager.finish()
            finally:
                self._lock.acquire()
        self._cancel()

    def _start(self, kind: Search, board: Board, limits: Limits) -> None:
        self.token += 1
        token = self.token
        self.search = kind
        self.search_started = time.monotonic()
        self.last_info = self.current_move = None
        self.manager.start(board, limits, lambda infos: self._on_info(token, infos),
                           lambda result: self._on_done(token, result))

    def _limits(self, board: Board, engine_clock_ms: int) -> Limits:
        """The limits of a search for the engine's side to move in `board`."""
        limits = Limits(depth=self.max_depth)
        if self.move_time_ms:
            limits.movetime = self.move_time_ms
        else:
            white, black = ((engine_clock_ms, self.opponent_clock_ms) if board.white_to_move
                            else (self.opponent_clock_ms, engine_clock_ms))
            limits.wtime, limits.btime = max(0, white), max(0, black)
            limits.winc = limits.binc = self.increment_ms
            if self.moves_per_session:
                moves_made = max(0, len(board.move_stack) - self.level_ply) // 2
                limits.movestogo = self.moves_per_session - moves_made % self.moves_per_session
        if self.nps:
            # Time is counted in nodes: the time the plan targets, at nps nodes a second. No
            # Move Overhead: no wall-clock time is being spent on it.
            plan = plan_move(limits, board.white_to_move, 0)
            return Limits(depth=self.max_depth, nodes=max(1, self.nps * plan.max_time // 1000))
        return limits

    def _think(self) -> None:
        """Search for our move in the current position, or claim the result if the game is over."""
        if self._claim_if_over():
            return
        board = self.session.board
        self._start(Search.THINKING, board, self._limits(board, self.engine_clock_ms))

    def _analyze(self) -> None:
        if self.session.board.has_legal_moves():
            self._start(Search.ANALYZING, self.session.board, Limits(infinite=True))

    def _on_info(self, token: int, infos: list[dict]) -> None:
        with self._lock:
            if token != self.token:
                return
            for info in infos:
                if "currmove" in info:
                    self.current_move = info
                    continue
                self.last_info, self.current_move = info, None
                if self.post:
                    self.write(self._thinking_line(info))

    def _thinking_line(self, info: dict) -> str:
        moves = list(info["pv"])
        if self.search is Search.PONDERING:
            moves.insert(0, self.pondered_move)     # the line starts in the real position
        pv = xboard_line(self.session.board, moves)
        if info.get("lowerbound"):
            pv += " !"
        elif info.get("upperbound"):
            pv += " ?"
        centiseconds = info["nodes"] * 100 // self.nps if self.nps else info["time_ms"] // 10
        return f"{info['depth']} {xboard_score(info)} {centiseconds} {info['nodes']} {pv}"

    def _on_done(self, token: int, result: dict) -> None:
        with self._lock:
            if token != self.token or self.search is not Search.THINKING:
                return      # dropped, or analysis (held until stopped; never a move)
            self.search = Search.IDLE
            board = self.session.board
            move = result["move"]
            if "book" in result:
                self._report_book(result["book"])
            for fault in result.get("table_faults", ()):
                self.write(f"# {fault}; playing on without that table")
            written = xboard_move(board, move)
            board.push(move)
            self.write(f"move {written}")
            self.last_score = result["score"]
            self.hint = (board.key, result["ponder"]) if result["ponder"] else None
            over = self._claim_if_over()
            self._flush_pongs()
            if self.manager.ponder_allowed and not over and self.hint:
                self._ponder_soon(round((time.monotonic() - self.search_started) * 1000))

    def _report_book(self, pick: BookPick) -> None:
        """Illegal entries as comments (no command caused them); a book move as a thinking line."""
        for index, stored in pick.illegal:
            self.write(f"# book file {pick.path}: entry {index} ({stored}) is not a legal move here; skipped")
        if pick.move is not None and self.post:
            share = 100 * pick.share(pick.move)
            self.write(f"0 0 0 0 {xboard_move(self.session.board, pick.move)} "
                       f"{{book, {share:.0f}% of {len(pick.moves)} moves}}")

    def _ponder_soon(self, elapsed_ms: int) -> None:
        """Ponder on the reply we expect, once the lock is free. `elapsed_ms`: the time our own
        move took. From a thread of its own: manager.start joins the search thread, which may be
        the one calling this."""
        threading.Thread(target=self._start_pondering, args=(self.token, elapsed_ms), name="pyrope-ponder",
                         daemon=True).start()

    def _start_pondering(self, token: int, elapsed_ms: int) -> None:
        with self._lock:
            if (token != self.token or self.search is not Search.IDLE or self.force
                    or not self.manager.ponder_allowed):
                return      # something happened first (usually the opponent's move)
            expected = self._valid_hint()
            if expected is None:
                return
            board = self.session.board.copy()
            board.push(expected)
            if board.outcome() is not None:
                return
            # The clock starts at ponderhit: plan with what our clock will show then.
            clock = self.engine_clock_ms - elapsed_ms + self.increment_ms
            limits = self._limits(board, clock)
            limits.ponder = True
            self.pondered_move = expected
            self._start(Search.PONDERING, board, limits)

    def _valid_hint(self) -> str | None:
        if self.hint is None or self.hint[0] != self.session.board.key:
            return None
        return self.hint[1]

    def _claim_if_over(self) -> bool:
        outcome = self.session.board.outcome()
        if outcome is None:
            return False
        result, reason = outcome
        self.write(f"{result} {{{CLAIM_REASONS.get(reason, reason)}}}")
        return True

    def _flush_pongs(self) -> None:
        for number in self.pending_pongs:
            self.write(f"pong {number}")
        self.pending_pongs.clear()

    def _reanalyze(self) -> None:
        """After the position or the settings changed: analysis starts again on what is now."""
        if self.manager.analyse_mode:
            self._cancel()
            self._analyze()

    def _reconfigure(self, change: Callable[[], object]) -> None:
        """Apply a change to the search settings between searches; analysis resumes after it,
        whether the change worked or not."""
        self._settle()
        try:
            change()
        finally:
            self._reanalyze()

    # -- commands ----------------------------------------------------------------------------

    def protover(self, args: list[str]) -> None:
        parse_int(one_argument(args, "protocol version"), "protocol version", 1)
        self.write("feature done=0")
        self.write(f'feature myname="{ENGINE_NAME}" ping=1 setboard=1 playother=1 usermove=1 san=0 '
                   f'time=1 draw=1 sigint=0 sigterm=0 reuse=1 analyze=1 colors=0 nps=1')
        self.write(f'feature variants="{",".join(VARIANTS)}" memory=1 smp=1 egt="syzygy,pyrope"')
        for option in CHESS.cecp_options:
            self.write(f'feature option="{option_feature(option, self.session)}"')
        self.write("feature done=1")
        if self.manager.net_problem:        # CECP has no message for it: a comment, as for tables
            self.write(f"# {self.manager.net_problem}; playing with the hand-crafted evaluation")

    def new(self, args: list[str]) -> None:
        self._cancel()
        self.session.set_chess960(False)
        self.session.new_game()
        self.force = False
        self.engine_white = False
        self.engine_clock_ms = self.opponent_clock_ms = self.base_ms
        self.level_ply = 0
        self.max_depth = 0
        self.nps = 0
        self.hint = self.last_score = None
        self._reanalyze()

    def variant(self, args: list[str]) -> None:
        name = one_argument(args, "variant name")
        if name not in VARIANTS:
            raise CecpError("unsupported variant")
        self._cancel()
        self.session.set_chess960(VARIANTS[name])
        self._reanalyze()

    def force_mode(self, args: list[str]) -> None:
        self._cancel()
        self.force = True

    def go(self, args: list[str]) -> None:
        if self.search is Search.THINKING:
            return
        self._cancel()
        self.manager.analyse_mode = self.force = False
        self.engine_white = self.session.board.white_to_move
        self._think()

    def playother(self, args: list[str]) -> None:
        self._cancel()
        self.manager.analyse_mode = self.force = False
        self.engine_white = not self.session.board.white_to_move
        if self.manager.ponder_allowed and self._valid_hint():
            self._ponder_soon(0)

    def level(self, args: list[str]) -> None:
        self.moves_per_session, self.base_ms, self.increment_ms = parse_level(args)
        self.engine_clock_ms = self.opponent_clock_ms = self.base_ms
        self.level_ply = len(self.session.board.move_stack)
        self.move_time_ms = 0

    def st(self, args: list[str]) -> None:
        seconds = parse_seconds(one_argument(args, "time per move"), "time per move")
        if seconds <= 0:
            raise CecpError("time per move must be more than 0 seconds")
        self.move_time_ms = max(1, round(seconds * 1000))

    def sd(self, args: list[str]) -> None:
        self.max_depth = parse_int(one_argument(args, "depth"), "depth", 1, MAX_DEPTH)

    def set_nps(self, args: list[str]) -> None:
        # nps 0 means CPU time; one search thread's CPU time is its wall-clock time.
        self.nps = parse_int(one_argument(args, "node rate"), "node rate", 0, MAX_NPS)

    def set_clock(self, args: list[str], engine: bool) -> None:
        # A negative clock is no error: xboard counts on past zero when flags are not claimed (the
        # time manager then plays at its minimum).
        centiseconds = parse_int(one_argument(args, "clock"), "clock in centiseconds", -MAX_CLOCK_CS,
                                 MAX_CLOCK_CS)
        if engine:
            self.engine_clock_ms = centiseconds * 10
        else:
            self.opponent_clock_ms = centiseconds * 10

    def usermove(self, args: list[str]) -> None:
        self.play_move(one_argument(args, "move"))

    def play_move(self, text: str) -> None:
        """A move from the GUI: in force or analyze mode just played; else the engine answers."""
        if self.search is Search.THINKING:
            raise IllegalMove("the engine is on move")
        board = self.session.board
        given = castling_moves(board).get(CASTLING_NAMES[text]) if text in CASTLING_NAMES else text.lower()
        if given is None:
            raise IllegalMove("no castling")
        try:
            code = board.move_code(given)
        except IllegalMoveError:
            raise IllegalMove("") from None
        # The board's own spelling (castling has two), so that it compares with the pondered move.
        move = next(legal for legal in board.legal_moves() if board.move_code(legal) == code)
        if self.search is Search.PONDERING and move == self.pondered_move:
            board.push(move)
            self.search = Search.THINKING
            self.search_started = time.monotonic()
            self.manager.ponderhit()
            return
        self._cancel()
        board.push(move)
        self.hint = None
        if self.manager.analyse_mode:
            self._reanalyze()
        elif not self.force and board.white_to_move == self.engine_white:
            self._think()
        elif not self.force:
            self._claim_if_over()

    def move_now(self, args: list[str]) -> None:
        if self.search is Search.THINKING:
            self.manager.stop()

    def ping(self, args: list[str]) -> None:
        number = one_argument(args, "number")
        if self.search is Search.THINKING:
            self.pending_pongs.append(number)   # CECP: pong only after the move we owe
        else:
            self.write(f"pong {number}")

    def draw(self, args: list[str]) -> None:
        if not self.force and not self.manager.analyse_mode and clearly_worse(self.last_score):
            self.write("offer draw")

    def result(self, args: list[str]) -> None:
        if not args:
            raise CecpError("needs a result")
        self._cancel()
        self.force = True

    def setboard(self, args: list[str]) -> None:
        if not args:
            raise CecpError("needs a FEN")
        self._cancel()
        self.session.set_position(" ".join(args), [])      # FenError keeps the old position
        self.level_ply = 0
        self.hint = None
        self._reanalyze()

    def send_hint(self, args: list[str]) -> None:
        move = self.pondered_move if self.search is Search.PONDERING else self._valid_hint()
        if move is not None:
            self.write(f"Hint: {xboard_move(self.session.board, move)}")

    def book(self, args: list[str]) -> None:
        """The book's moves here, one a line as xboard shows its own book (share, weight, move),
        each line starting with a space, then a blank line (the spec's form for `bk`)."""
        board, book = self.session.board, self.manager.book
        moves, _ = book.entries(board)
        if book.book is None or not moves:
            self.write(f" {'no opening book' if book.book is None else 'not in the book'}")
        for move, weight, share in ranked(moves):
            self.write(f" {100 * share:5.1f}% {weight:5d} {xboard_move(board, move)}")
        self.write("")

    def take_back(self, args: list[str], plies: int) -> None:
        if len(self.session.board.move_stack) < plies:
            raise CecpError("command not legal now")
        self._cancel()
        for _ in range(plies):
            self.session.board.pop()
        self.hint = None
        self._reanalyze()

    def easy(self, args: list[str]) -> None:
        PONDER.apply(self.session, False)
        if self.search is Search.PONDERING:
            self._cancel()

    def analyze(self, args: list[str]) -> None:
        self._cancel()
        self.manager.analyse_mode = self.force = True
        self._analyze()

    def exit_analysis(self, args: list[str]) -> None:
        if self.manager.analyse_mode:
            self._cancel()
            self.manager.analyse_mode = False

    def status(self, args: list[str]) -> None:
        if self.search is not Search.ANALYZING:
            return
        centiseconds = round((time.monotonic() - self.search_started) * 100)
        nodes = self.last_info["nodes"] if self.last_info else 0
        depth = self.last_info["depth"] if self.last_info else 0
        total = len(self.session.board.legal_moves())
        if self.current_move:
            left = total - self.current_move["currmovenumber"]
            current = xboard_move(self.session.board, self.current_move["currmove"])
            self.write(f"stat01: {centiseconds} {nodes} {self.current_move['depth']} {left} {total} {current}")
        else:
            self.write(f"stat01: {centiseconds} {nodes} {depth} 0 {total}")

    def memory(self, args: list[str]) -> None:
        megabytes = parse_int(one_argument(args, "size in MB"), "memory", HASH.minimum, HASH.maximum)
        # `memory` is an upper bound: a smaller table (a power of two, or what is free) is within it,
        # so nothing is said (telluser would pop up a dialog at every game start).
        self._set(HASH, megabytes)

    def cores(self, args: list[str]) -> None:
        threads = parse_int(one_argument(args, "number of cores"), "cores", THREADS.minimum, THREADS.maximum)
        self._set(THREADS, threads)

    def egtpath(self, args: list[str]) -> None:
        """egtpath syzygy PATH, or egtpath pyrope PATH (Pyrope's own tables; <default> for the
        shipped set). xboard sends its default paths unasked (/EGT/Syzygy), so what a path lacked
        is a comment, like what was found: CECP has no message for either."""
        kind, _, path = " ".join(args).partition(" ")
        options = {"syzygy": SYZYGY_PATH, "pyrope": PYROPE_TB_PATH}
        if kind not in options:
            raise CecpError(f"unsupported tablebase kind {kind!r}; Pyrope reads syzygy and pyrope")
        report = self._set(options[kind], path.strip())
        for message in report.problems + report.notes:
            self.write(f"# {message}")

    def option(self, args: list[str]) -> None:
        given, has_value, text = " ".join(args).partition("=")
        option = OPTIONS.get(normalised(given))
        if option is None:
            raise CecpError("unknown option")
        if option.kind != BUTTON and not has_value:
            raise CecpError(f"{option.cecp} needs a value")
        report = self._set(option, self._value(option, text.strip()))
        for problem in report.problems:
            self.write(f"Error ({self._reason(problem)}): option {' '.join(args)}")
        for note in report.notes:
            self.write(f"# {note}")

    @staticmethod
    def _value(option: Option, text: str) -> object:
        """The value `option NAME=VALUE` gives, of the option's type (checks are 0 or 1)."""
        if option.kind == CHECK:
            return bool(parse_int(text, option.cecp, 0, 1))
        if option.kind == SPIN:
            return parse_int(text, option.cecp, option.minimum, option.maximum)
        return text

    def _set(self, option: Option, value: object) -> Report:
        """Set an option; one that ends searches is set between them (analysis then resumes).
        Others are read when the next search starts: a running one goes on as it began."""
        if not option.ends_search:
            return option.apply(self.session, value)
        reports = []
        self._reconfigure(lambda: reports.append(option.apply(self.session, value)))
        return reports[0]
