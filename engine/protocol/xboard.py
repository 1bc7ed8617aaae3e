"""xboard / CECP version 2 front-end: reads CECP commands, turns them into calls on the engine's
player (play.player) and session, and writes the replies.

It translates text only. A command that cannot be carried out is answered in CECP's own forms
(`Error (reason): command`, `Illegal move (reason): move`) and changes nothing. Searches run in
the background, so the reader keeps answering while the engine thinks, ponders or analyses; the
reader holds the player's lock while it handles a line, and the player reports (thinking output,
its move, the end of the game) with the lock held.
"""
from __future__ import annotations

import re
from typing import Callable, Iterable

from .._core import Board, BookError, FenError, IllegalMoveError, ParamFileError, TablebaseError
from ..nnue.netfile import NetFileError
from ..book.player import BookPick
from ..play.options import BUTTON, CHECK, CHESS, HASH, PYROPE_TB_PATH, SPIN, SYZYGY_PATH, THREADS, Option, Report
from ..play.player import Activity, EnginePlayer
from ..play.result import Score, SearchLine, SearchResult
from ..play.session import Session
from .uci import ENGINE_NAME

VARIANTS = {"normal": False, "fischerandom": True}     # variant name -> Chess960 rules

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


def xboard_score(score: Score) -> int:
    """A search score as a CECP thinking score."""
    if score.mate is not None:
        return MATE_SCORE + score.mate if score.mate > 0 else -MATE_SCORE + score.mate
    return score.cp


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


def parse_clock(args: list[str]) -> int:
    """The milliseconds of `time` or `otim` (centiseconds). A negative clock is no error: xboard
    counts on past zero when flags are not claimed (the time manager then plays at its minimum)."""
    return 10 * parse_int(one_argument(args, "clock"), "clock in centiseconds", -MAX_CLOCK_CS, MAX_CLOCK_CS)


def cecp_value(option: Option, text: str) -> object:
    """The value `option NAME=VALUE` gives, of the option's type (checks are 0 or 1)."""
    if option.kind == CHECK:
        return bool(parse_int(text, option.cecp, 0, 1))
    if option.kind == SPIN:
        return parse_int(text, option.cecp, option.minimum, option.maximum)
    return text


def reason(error: Exception | str) -> str:
    # The GUI reads the reason up to the first ')' (python-chess: no brackets at all).
    return " ".join(str(error).replace("(", "[").replace(")", "]").split())



class XboardFrontEnd:
    def __init__(self, session: Session, write: Callable[[str], None]) -> None:
        self.session = session
        self.player = EnginePlayer(session, self)
        self.write = write
        self.post = False
        self.pending_pongs: list[str] = []
        clock = self.player.clock
        self.commands: dict[str, Callable[[list[str]], None]] = {
            # What the GUI tells that needs no answer and changes nothing here.
            **dict.fromkeys(("xboard", "accepted", "rejected", "name", "rating", "computer", "random", "ics"),
                            lambda args: None),
            "protover": self.protover,
            "new": lambda args: self.player.new_game(),
            "variant": self.variant,
            "force": lambda args: self.player.force_mode(),
            "go": lambda args: self.player.go(),
            "playother": lambda args: self.player.play_other(),
            "level": lambda args: self.player.set_level(*parse_level(args)),
            "st": self.st,
            "sd": self.sd,
            "nps": self.set_nps,
            "time": lambda args: setattr(clock, "engine_ms", parse_clock(args)),
            "otim": lambda args: setattr(clock, "opponent_ms", parse_clock(args)),
            "usermove": lambda args: self.play_move(one_argument(args, "move")),
            "?": lambda args: self.player.move_now(),
            "ping": self.ping,
            "draw": self.draw,
            "result": self.result,
            "setboard": self.setboard,
            "hint": self.send_hint,
            "bk": self.book,
            "undo": lambda args: self.take_back(1),
            "remove": lambda args: self.take_back(2),
            "hard": lambda args: self.player.set_ponder(True),
            "easy": lambda args: self.player.set_ponder(False),
            "post": lambda args: setattr(self, "post", True),
            "nopost": lambda args: setattr(self, "post", False),
            "analyze": lambda args: self.player.analyse(),
            "exit": lambda args: self.player.exit_analysis(),
            ".": self.status,
            "memory": lambda args: self._set(HASH, parse_int(one_argument(args, "size in MB"), "memory",
                                                             HASH.minimum, HASH.maximum)),
            "cores": lambda args: self._set(THREADS, parse_int(one_argument(args, "number of cores"), "cores",
                                                               THREADS.minimum, THREADS.maximum)),
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
        with self.player.lock:
            if command == "quit":
                self.player.cancel()
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
                self.write(f"Error ({reason(error)}): {line.strip()}")
            except IllegalMove as error:
                because = f" ({reason(error)})" if str(error) else ""
                self.write(f"Illegal move{because}: {args[0] if command == 'usermove' else command}")
        return True

    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            if not self.handle(line):
                return
        with self.player.lock:
            self.player.cancel()

    # -- what the player tells (the lock is held) --------------------------------------------

    def thinking(self, line: SearchLine) -> None:
        if not self.post:
            return
        pv = xboard_line(self.session.board, self.player.line_moves(line))
        if line.bound:
            pv += " !" if line.bound == "lowerbound" else " ?"
        centiseconds = self.player.clock.reported_ms(line.nodes, line.time_ms) // 10
        self.write(f"{line.depth} {xboard_score(line.score)} {centiseconds} {line.nodes} {pv}")

    def moving(self, result: SearchResult) -> None:
        if result.book is not None:
            self._report_book(result.book)
        for fault in result.table_faults:
            self.write(f"# {fault}; playing on without that table")
        self.write(f"move {xboard_move(self.session.board, result.move)}")

    def game_over(self, result: str, why: str) -> None:
        self.write(f"{result} {{{CLAIM_REASONS.get(why, why)}}}")

    def settled(self) -> None:
        for number in self.pending_pongs:
            self.write(f"pong {number}")
        self.pending_pongs.clear()

    def _report_book(self, pick: BookPick) -> None:
        """Illegal entries as comments (no command caused them); a book move as a thinking line."""
        for index, stored in pick.illegal:
            self.write(f"# book file {pick.path}: entry {index} ({stored}) is not a legal move here; skipped")
        if pick.move is not None and self.post:
            share = 100 * pick.share(pick.move)
            self.write(f"0 0 0 0 {xboard_move(self.session.board, pick.move)} "
                       f"{{book, {share:.0f}% of {len(pick.moves)} moves}}")

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
        problem = self.session.net_problem()
        if problem:         # CECP has no message for it: a comment, as for tables
            self.write(f"# {problem}")

    def variant(self, args: list[str]) -> None:
        name = one_argument(args, "variant name")
        if name not in VARIANTS:
            raise CecpError("unsupported variant")
        self.player.set_variant(VARIANTS[name])

    def st(self, args: list[str]) -> None:
        seconds = parse_seconds(one_argument(args, "time per move"), "time per move")
        if seconds <= 0:
            raise CecpError("time per move must be more than 0 seconds")
        self.player.clock.move_time_ms = max(1, round(seconds * 1000))

    def sd(self, args: list[str]) -> None:
        self.player.clock.max_depth = parse_int(one_argument(args, "depth"), "depth", 1, MAX_DEPTH)

    def set_nps(self, args: list[str]) -> None:
        # nps 0 means CPU time; one search thread's CPU time is its wall-clock time.
        self.player.clock.nps = parse_int(one_argument(args, "node rate"), "node rate", 0, MAX_NPS)

    def play_move(self, text: str) -> None:
        """A move from the GUI, in coordinates or O-O / O-O-O."""
        if self.player.thinking:
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
        self.player.opponent_moves(next(legal for legal in board.legal_moves() if board.move_code(legal) == code))

    def ping(self, args: list[str]) -> None:
        number = one_argument(args, "number")
        if self.player.thinking:
            self.pending_pongs.append(number)   # CECP: pong only after the move we owe
        else:
            self.write(f"pong {number}")

    def draw(self, args: list[str]) -> None:
        if self.player.accepts_draw():
            self.write("offer draw")

    def result(self, args: list[str]) -> None:
        if not args:
            raise CecpError("needs a result")
        self.player.game_ended()

    def setboard(self, args: list[str]) -> None:
        if not args:
            raise CecpError("needs a FEN")
        self.player.set_up(" ".join(args))

    def send_hint(self, args: list[str]) -> None:
        move = self.player.expected_reply()
        if move is not None:
            self.write(f"Hint: {xboard_move(self.session.board, move)}")

    def book(self, args: list[str]) -> None:
        """The book's moves here, one a line as xboard shows its own book (share, weight, move),
        each line starting with a space, then a blank line (the spec's form for `bk`)."""
        moves = self.session.book_moves()
        if not moves:
            self.write(f" {'no opening book' if moves is None else 'not in the book'}")
        for move, weight, share in moves or ():
            self.write(f" {100 * share:5.1f}% {weight:5d} {xboard_move(self.session.board, move)}")
        self.write("")

    def take_back(self, plies: int) -> None:
        if not self.player.take_back(plies):
            raise CecpError("command not legal now")

    def status(self, args: list[str]) -> None:
        player = self.player
        if player.activity is not Activity.ANALYZING:
            return
        centiseconds = round(player.elapsed() * 100)
        nodes, depth = (player.last_line.nodes, player.last_line.depth) if player.last_line else (0, 0)
        total = len(self.session.board.legal_moves())
        if player.current_move:
            left = total - player.current_move.number
            current = xboard_move(self.session.board, player.current_move.move)
            self.write(f"stat01: {centiseconds} {nodes} {player.current_move.depth} {left} {total} {current}")
        else:
            self.write(f"stat01: {centiseconds} {nodes} {depth} 0 {total}")

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
        report = self._set(option, cecp_value(option, text.strip()))
        for problem in report.problems:
            self.write(f"Error ({reason(problem)}): option {' '.join(args)}")
        for note in report.notes:
            self.write(f"# {note}")

    def _set(self, option: Option, value: object) -> Report:
        """Set an option; one that ends searches is set between them (analysis then resumes).
        Others are read when the next search starts: a running one goes on as it began."""
        if not option.ends_search:
            return option.apply(self.session, value)
        reports = []
        self.player.reconfigure(lambda: reports.append(option.apply(self.session, value)))
        return reports[0]
