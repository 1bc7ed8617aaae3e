"""Terminal mode: Pyrope for a person at a keyboard.

Moves are typed in SAN or UCI notation and the engine answers like an opponent; commands show the
board, the evaluation term by term, perft counts and the benchmark. Commands are read on the main
thread while searches run on the manager's thread, so `stop` and `d` work while the engine thinks.
python-chess only translates between SAN and UCI here; it is never on the search's path.
"""
from __future__ import annotations

import dataclasses
import re
import threading
import time
from typing import Callable, Iterable

import chess

from .._core import Board, FenError, IllegalMoveError
from ..book.player import ranked
from ..play.bench import DEFAULT_DEPTH, run_bench
from ..play.session import Session
from ..play.perft import divide
from ..play.timeman import Limits
from .display import PLAIN, draw_board
from .uci import parse_go

DEFAULT_LIMITS = Limits(movetime=5000)
UCI_MOVE = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
MAX_PHASE = 24          # eval_terms' phase: 24 with every piece on, 0 in a pawn ending
SCALE_NORMAL = 64       # eval_terms' scale: the endgame part counts scale/64
MAX_PERFT = 10          # perft 10 of the start position would take days
CANCELLING = ("new", "undo", "fen", "quit")     # these drop a search in progress and its move

HELP = f"""\
Type a move to play it, in SAN (e4, Nf3, O-O, exd8=Q) or UCI (e2e4, e7e8q) notation; Pyrope then
answers with its move. Commands:
  go [depth N | movetime MS | nodes N | infinite]
                 Pyrope moves now; limits given here also apply to its later replies (at first
                 it thinks {DEFAULT_LIMITS.movetime // 1000} s a move)
  stop           move now, with the best move found so far
  force          Pyrope stops answering your moves: you play both sides (go still works)
  play           Pyrope answers each move you play (the default)
  undo           take back the last move, and your move before it if that was Pyrope's answer
  new            a new game from the start position
  fen <FEN>      set up a position
  d              the board, the side to move, the FEN and the position key
  ascii [on|off] draw the board in letters (on) or chess symbols (off)
  eval           the static evaluation term by term
  book [on|off]  the opening book's moves here with their weights; on/off: play from it or not
  perft N        count the positions N plies ahead (1 to {MAX_PERFT})
  bench [DEPTH]  search the benchmark positions (depth {DEFAULT_DEPTH} unless given)
  help           this list
  quit           leave
Scores are in pawns from White's point of view; #3 means White mates in 3, #-3 Black does.
Start pyrope with uci, xboard or ugi as the first line to speak that protocol instead."""


class TerminalError(ValueError):
    """Something the user asked for that cannot be done; its message is shown as it is."""


def chess_board(board: Board) -> chess.Board:
    """python-chess's copy of the position, for SAN (the move history does not matter for it)."""
    return chess.Board(board.fen(), chess960=board.chess960)


def numbered(board: chess.Board, move: chess.Move) -> str:
    """`move` in SAN with its move number, as python-chess writes variations: 1. e4 or 1...e5."""
    separator = ". " if board.turn == chess.WHITE else "..."
    return f"{board.fullmove_number}{separator}{board.san(move)}"


def white_score(info: dict, white_to_move: bool) -> str:
    """A search score (side to move's view) in pawns or #mate from White's view."""
    sign = 1 if white_to_move else -1
    if "mate" in info:
        return f"#{info['mate'] * sign}"
    return f"{info['cp'] * sign / 100:+.2f}"


class TerminalFrontEnd:
    board_style = PLAIN     # how `d` draws the board; the command line sets it for a terminal

    def __init__(self, session: Session, write: Callable[[str], None]) -> None:
        self.session = session
        self.manager = session.manager
        self.write = write
        self.reply_limits = DEFAULT_LIMITS
        self.auto_reply = True
        self.engine_plies: set[int] = set()     # move_stack lengths right after Pyrope's moves
        # The engine's move is played from the search thread; the lock keeps it from landing in
        # the middle of a command. The lock is never held while joining the search thread.
        self.lock = threading.Lock()
        self.search_id = 0          # a search whose id is no longer this one was cancelled
        self.thinking = False
        self.infinite = False
        self.idle = threading.Event()
        self.idle.set()
        self.commands: dict[str, Callable[[list[str]], None]] = {
            "help": lambda args: self.write(HELP),
            "go": self.go,
            "stop": self.stop,
            "force": lambda args: self.set_auto_reply(False),
            "play": lambda args: self.set_auto_reply(True),
            "undo": self.undo,
            "new": self.new,
            "fen": self.fen,
            "d": self.draw,
            "ascii": self.ascii,
            "eval": self.eval,
            "book": self.book,
            "perft": self.perft,
            "bench": self.bench,
        }

    def run(self, lines: Iterable[str]) -> None:
        for line in lines:
            if not self.handle(line):
                return
        # The input ended (a piped script): let a search that ends by itself finish and move.
        if not self.infinite:
            self.idle.wait()
        self.manager.finish()

    def handle(self, line: str) -> bool:
        """Carry out one line; return False when the user quits."""
        words = line.split()
        if not words:
            return True
        command, args = words[0], words[1:]
        if command in CANCELLING:
            self.cancel_search()
        if command == "quit":
            return False
        with self.lock:
            try:
                handler = self.commands.get(command)
                if handler is not None:
                    handler(args)
                elif len(words) == 1:
                    self.play_move(command)
                else:
                    raise TerminalError(f"Unknown command: {line.strip()} (type help for the list).")
            except (TerminalError, FenError) as error:
                self.write(str(error))
        return True

    # --- the game -------------------------------------------------------------------------

    def play_move(self, text: str) -> None:
        self.require_turn()
        uci = self.parse_move(text)
        self.push(uci, by_engine=False)
        if self.auto_reply and self.session.board.outcome() is None:
            self.start_search(self.reply_limits)

    def parse_move(self, text: str) -> str:
        """The UCI form of a move typed in UCI or SAN; TerminalError says why it cannot be played."""
        board = self.session.board
        if UCI_MOVE.fullmatch(text):
            try:
                board.move_code(text)
            except IllegalMoveError:
                raise TerminalError(f"{text} is not a legal move here.") from None
            return text
        position = chess_board(board)
        try:
            return position.uci(position.parse_san(text))
        except chess.AmbiguousMoveError:
            raise TerminalError(f"{text} is ambiguous here: add the file or rank the piece comes from "
                                f"(like Nbd2).") from None
        except chess.IllegalMoveError:
            raise TerminalError(f"{text} is not a legal move here.") from None
        except ValueError:
            raise TerminalError(f"Unknown command or move: {text} (type help for the list).") from None

    def push(self, uci: str, by_engine: bool, note: str = "") -> None:
        board = self.session.board
        position = chess_board(board)
        text = numbered(position, position.parse_uci(uci))
        board.push(uci)
        if by_engine:
            self.engine_plies.add(len(board.move_stack))
            self.write(f"Pyrope plays {text}{note}")
        else:
            self.write(text)
        outcome = board.outcome()
        if outcome is not None:
            self.write(f"Game over: {outcome[1]} ({outcome[0]}).")

    def require_turn(self) -> None:
        """Moves and searches need a game in progress and an engine that is not thinking."""
        if self.thinking:
            raise TerminalError("Pyrope is thinking: type stop to make it move now, or undo to take "
                                "your move back.")
        outcome = self.session.board.outcome()
        if outcome is not None:
            raise TerminalError(f"The game is over ({outcome[1]}, {outcome[0]}): type new, undo or fen <FEN>.")

    def set_auto_reply(self, enabled: bool) -> None:
        self.auto_reply = enabled
        self.write("Pyrope answers each move you play." if enabled else
                   "Pyrope will not answer your moves: you play both sides; go makes it move.")

    def undo(self, args: list[str]) -> None:
        board = self.session.board
        if not board.move_stack:
            raise TerminalError("There is no move to take back.")
        if self.pop() and self.auto_reply and board.move_stack:
            self.pop()      # Pyrope's answer went; your move it answered goes too

    def pop(self) -> bool:
        """Take back the last move; return whether Pyrope played it."""
        board = self.session.board
        ply = len(board.move_stack)
        by_engine = ply in self.engine_plies
        self.engine_plies.discard(ply)
        uci = board.pop()
        position = chess_board(board)
        self.write(f"Took back {numbered(position, position.parse_uci(uci))}")
        return by_engine

    def new(self, args: list[str]) -> None:
        self.session.new_game()
        self.engine_plies.clear()
        self.write("New game: you have White (type go to make Pyrope play White).")

    def fen(self, args: list[str]) -> None:
        if not args:
            raise TerminalError("fen needs a position, like: fen 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1")
        try:
            self.session.set_position(" ".join(args), [])
        except FenError as error:
            raise TerminalError(f"That FEN cannot be used: {error}.") from None
        self.engine_plies.clear()
        board = self.session.board
        self.write(f"Position set: {'White' if board.white_to_move else 'Black'} to move.")
        outcome = board.outcome()
        if outcome is not None:
            self.write(f"Game over: {outcome[1]} ({outcome[0]}).")

    # --- searching ------------------------------------------------------------------------

    def go(self, args: list[str]) -> None:
        self.require_turn()
        # A ponder search waits for a ponderhit, which nobody at a terminal sends.
        limits = dataclasses.replace(parse_go(args, self.write), ponder=False)
        for move in limits.searchmoves:
            self.parse_move(move)
        if limits == Limits():      # nothing usable given: think as for a reply
            limits = self.reply_limits
        elif not limits.infinite:
            self.reply_limits = dataclasses.replace(limits, searchmoves=[])
        self.start_search(limits)

    def start_search(self, limits: Limits) -> None:
        board = self.session.board
        root = chess_board(board)
        self.search_id += 1
        search_id = self.search_id
        self.thinking, self.infinite = True, limits.infinite
        self.idle.clear()
        self.manager.start(board, limits, lambda infos: self.show_infos(root, infos),
                           lambda result: self.engine_moved(search_id, result))

    def show_infos(self, root: chess.Board, infos: list[dict]) -> None:
        # One line per finished iteration; aspiration re-searches and current moves would only
        # scroll the screen.
        for info in infos:
            if "currmove" in info or info.get("lowerbound") or info.get("upperbound"):
                continue
            pv = root.variation_san([chess.Move.from_uci(move) for move in info["pv"]])
            self.write(f"depth {info['depth']:2}  {white_score(info, root.turn == chess.WHITE):>6}  "
                       f"{info['time_ms'] / 1000:6.2f} s  {info['nodes']:>10,} nodes  {pv}")

    def engine_moved(self, search_id: int, result: dict) -> None:
        try:
            with self.lock:
                if search_id != self.search_id:
                    return
                self.thinking = False
                pick = result.get("book")
                for index, stored in pick.illegal if pick else ():
                    self.write(f"The book {pick.path} has an entry ({index}: {stored}) that is not a legal move "
                               f"here; it was skipped.")
                self.push(result["move"], by_engine=True, note=" (from the book)" if pick and pick.move else "")
        finally:
            self.idle.set()

    def stop(self, args: list[str]) -> None:
        if not self.thinking:
            raise TerminalError("Pyrope is not thinking.")
        self.manager.stop()

    def cancel_search(self) -> None:
        """End a search without playing its move (called without the lock: the search thread may
        be waiting for it to report)."""
        with self.lock:
            self.search_id += 1
            self.thinking = False
        self.manager.finish()
        self.idle.set()

    # --- looking at the position ----------------------------------------------------------

    def draw(self, args: list[str]) -> None:
        board = self.session.board
        side = "White" if board.white_to_move else "Black"
        self.write(f"{draw_board(board, self.board_style)}\n\n{side} to move{', in check' if board.is_check() else ''}\n"
                   f"FEN: {board.fen()}\nKey: {board.key:016X}")

    def ascii(self, args: list[str]) -> None:
        if args not in ([], ["on"], ["off"]):
            raise TerminalError("ascii takes on or off, like: ascii on")
        # Asked for by name, symbols are drawn even where the terminal was not detected as UTF-8.
        self.board_style = dataclasses.replace(self.board_style, unicode=args == ["off"])
        self.write("The board is drawn in " + ("chess symbols." if self.board_style.unicode else "letters."))

    def book(self, args: list[str]) -> None:
        book = self.manager.book
        if args in (["on"], ["off"]):
            if args == ["on"] and book.book is None:
                raise TerminalError("There is no opening book to play from.")
            book.enabled = args == ["on"]
            self.write(f"Pyrope {'plays from' if book.enabled else 'does not use'} its opening book.")
            return
        if args:
            raise TerminalError("book takes nothing, on or off.")
        if book.book is None:
            raise TerminalError("There is no opening book.")
        moves, _ = book.entries(self.session.board)
        if not moves:
            self.write(f"This position is not in the book ({book.path}).")
            return
        position = chess_board(self.session.board)
        self.write(f"Book moves ({book.path}{'' if book.enabled else ', not in use'}):")
        for move, weight, share in ranked(moves):
            self.write(f"  {position.san(position.parse_uci(move)):8} {100 * share:5.1f}%  weight {weight}")

    def eval(self, args: list[str]) -> None:
        board = self.session.board
        terms = board.eval_terms()
        phase, scale, score = terms.pop("phase"), terms.pop("scale"), terms.pop("score")

        def blend(mg: int, eg: int) -> float:
            return (mg * phase + eg * scale / SCALE_NORMAL * (MAX_PHASE - phase)) / MAX_PHASE / 100

        lines = [f"{'term':<14}{'middlegame':>12}{'endgame':>10}{'blended':>10}"]
        for name, (mg, eg) in terms.items():
            lines.append(f"{name.replace('_', ' '):<14}{mg / 100:>+12.2f}{eg / 100:>+10.2f}{blend(mg, eg):>+10.2f}")
        lines.append(f"phase {phase}/{MAX_PHASE} (24: every piece on, 0: pawn ending), "
                     f"endgame scale {scale}/{SCALE_NORMAL}")
        lines.append(f"total {(score if board.white_to_move else -score) / 100:+.2f} "
                     f"(pawns, White's point of view)")
        self.write("\n".join(lines))

    def perft(self, args: list[str]) -> None:
        if len(args) != 1 or not args[0].isdigit() or not 1 <= int(args[0]) <= MAX_PERFT:
            raise TerminalError(f"perft needs a depth from 1 to {MAX_PERFT}, like: perft 4")
        if self.thinking:
            raise TerminalError("Pyrope is thinking: type stop first.")
        depth = int(args[0])
        start = time.perf_counter()
        nodes = sum(count for _, count in divide(self.session.board, depth))    # divide: a progress bar
        seconds = time.perf_counter() - start
        speed = f", {nodes / seconds / 1e6:.1f} M nodes/s" if seconds > 0 else ""
        self.write(f"perft {depth}: {nodes} nodes ({seconds:.3f} s{speed})")

    def bench(self, args: list[str]) -> None:
        if len(args) > 1 or (args and (not args[0].isdigit() or int(args[0]) < 1)):
            raise TerminalError("bench takes an optional depth of 1 or more, like: bench 8")
        if self.thinking:
            raise TerminalError("Pyrope is thinking: type stop first.")
        run_bench(self.write, int(args[0]) if args else DEFAULT_DEPTH)
