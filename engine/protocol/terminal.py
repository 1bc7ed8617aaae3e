"""Terminal mode for chess: Pyrope for a person at a keyboard.

Moves are typed in SAN or UCI notation and the engine answers like an opponent; commands show the
board, the evaluation term by term, perft counts and the benchmark. Reading lines, searching and
taking moves back are every game's (terminal_base). python-chess only translates between SAN and
UCI here; it is never on the search's path.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Callable

import chess

from .._core import Board, FenError, IllegalMoveError
from ..play.bench import DEFAULT_DEPTH, run_bench
from ..play.options import BOOK_FILE, OWN_BOOK
from ..play.result import CurrentMove, Info, Score, SearchResult
from ..play.session import Session
from .display import PLAIN, draw_board
from .terminal_base import TerminalBase, TerminalError

DEFAULT_LIMITS = TerminalBase.default_limits
UCI_MOVE = re.compile(r"[a-h][1-8][a-h][1-8][qrbn]?")
MAX_PHASE = 24          # eval_terms' phase: 24 with every piece on, 0 in a pawn ending
SCALE_NORMAL = 64       # eval_terms' scale: the endgame part counts scale/64
MAX_PERFT = TerminalBase.max_perft     # perft 10 of the start position would take days

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


def chess_board(board: Board) -> chess.Board:
    """python-chess's copy of the position, for SAN (the move history does not matter for it)."""
    return chess.Board(board.fen(), chess960=board.chess960)


def numbered(board: chess.Board, move: chess.Move) -> str:
    """`move` in SAN with its move number, as python-chess writes variations: 1. e4 or 1...e5."""
    separator = ". " if board.turn == chess.WHITE else "..."
    return f"{board.fullmove_number}{separator}{board.san(move)}"


def white_score(score: Score, white_to_move: bool) -> str:
    """A search score (side to move's view) in pawns or #mate from White's view."""
    sign = 1 if white_to_move else -1
    if score.mate is not None:
        return f"#{score.mate * sign}"
    return f"{score.cp * sign / 100:+.2f}"


class TerminalFrontEnd(TerminalBase):
    board_style = PLAIN     # how `d` draws the board; the command line sets it for a terminal
    errors = (TerminalError, FenError)

    def __init__(self, session: Session, write: Callable[[str], None]) -> None:
        super().__init__(session, write)
        self.commands.update({
            "help": lambda args: self.write(HELP),
            "new": self.new,
            "fen": self.fen,
            "d": self.draw,
            "ascii": self.ascii,
            "eval": self.eval,
            "book": self.book,
            "bench": self.bench,
        })

    # --- the game -------------------------------------------------------------------------

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

    def move_text(self, move: str) -> str:
        position = chess_board(self.session.board)
        return numbered(position, position.parse_uci(move))

    def new(self, args: list[str]) -> None:
        self.session.new_game()
        self.engine_plies.clear()
        self.write("New game: you have White (type go to make Pyrope play White).")

    def fen(self, args: list[str]) -> None:
        if not args:
            raise TerminalError("fen needs a position, like: fen 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1")
        try:
            self.set_up(" ".join(args))
        except FenError as error:
            raise TerminalError(f"That FEN cannot be used: {error}.") from None

    # --- searching ------------------------------------------------------------------------

    def info_writer(self) -> Callable[[list[Info]], None]:
        root = chess_board(self.session.board)
        return lambda infos: self.show_infos(root, infos)

    def show_infos(self, root: chess.Board, infos: list[Info]) -> None:
        # One line per finished iteration; aspiration re-searches and current moves would only
        # scroll the screen.
        for info in infos:
            if isinstance(info, CurrentMove) or info.bound:
                continue
            pv = root.variation_san([chess.Move.from_uci(move) for move in info.pv])
            self.write(f"depth {info.depth:2}  {white_score(info.score, root.turn == chess.WHITE):>6}  "
                       f"{info.time_ms / 1000:6.2f} s  {info.nodes:>10,} nodes  {pv}")

    def play_engine_move(self, result: SearchResult) -> None:
        pick = result.book
        for index, stored in pick.illegal if pick else ():
            self.write(f"The book {pick.path} has an entry ({index}: {stored}) that is not a legal move "
                       f"here; it was skipped.")
        self.push(result.move, by_engine=True, note=" (from the book)" if pick and pick.move else "")

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
        moves, path = self.session.book_moves(), BOOK_FILE.read(self.session)
        if args in (["on"], ["off"]):
            if args == ["on"] and moves is None:
                raise TerminalError("There is no opening book to play from.")
            OWN_BOOK.apply(self.session, args == ["on"])
            self.write(f"Pyrope {'plays from' if args == ['on'] else 'does not use'} its opening book.")
            return
        if args:
            raise TerminalError("book takes nothing, on or off.")
        if moves is None:
            raise TerminalError("There is no opening book.")
        if not moves:
            self.write(f"This position is not in the book ({path}).")
            return
        position = chess_board(self.session.board)
        self.write(f"Book moves ({path}{'' if OWN_BOOK.read(self.session) else ', not in use'}):")
        for move, weight, share in moves:
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

    def bench(self, args: list[str]) -> None:
        if len(args) > 1 or (args and (not args[0].isdigit() or int(args[0]) < 1)):
            raise TerminalError("bench takes an optional depth of 1 or more, like: bench 8")
        if self.thinking:
            raise TerminalError("Pyrope is thinking: type stop first.")
        run_bench(self.write, int(args[0]) if args else DEFAULT_DEPTH)
