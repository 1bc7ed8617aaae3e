"""The engine as a player in a game the GUI keeps (CECP): it thinks on its move and plays it,
ponders on the reply it expects, analyses when asked, claims the end of the game and answers
draw offers, on the game's clocks (play.clock).

Threads: the GUI's reader holds `lock` while it handles a command; the search thread takes it to
report. Every search gets a token; ending a search for good bumps the token, so the reports of a
search that no longer counts change nothing. The lock is never held while waiting for a search
thread to end (that thread may be waiting for the lock).
"""
from __future__ import annotations

import enum
import threading
import time
from typing import Callable, Protocol

from .._core import Board
from .clock import GameClock
from .options import ANALYSE_MODE, PONDER
from .result import CurrentMove, Info, Score, SearchLine, SearchResult
from .session import Session
from .timeman import Limits

CLEARLY_WORSE_CP = -150         # a draw offer is accepted at or below this score


class Activity(enum.Enum):
    IDLE = "idle"
    THINKING = "thinking"       # on our own move; the result is played
    PONDERING = "pondering"     # on the opponent's time, after the move we expect
    ANALYZING = "analyzing"     # analyze mode; the result is never played


class Listener(Protocol):
    """What the player tells the front-end (always with the lock held)."""

    def thinking(self, line: SearchLine) -> None: ...       # a finished iteration of the search that counts

    def moving(self, result: SearchResult) -> None: ...     # result.move is played next: the board is before it

    def game_over(self, result: str, reason: str) -> None: ...     # the position on the board ends the game

    def settled(self) -> None: ...      # no search owes a move now


def clearly_worse(score: Score | None) -> bool:
    if score is None:
        return False
    if score.mate is not None:
        return score.mate < 0       # mate 0 would be a position without moves: never searched
    return score.cp <= CLEARLY_WORSE_CP


class EnginePlayer:
    """The engine's side of a game: force mode (it plays neither side), the side it plays, and
    the searches it runs. Callers hold `lock`."""

    def __init__(self, session: Session, listener: Listener) -> None:
        self.session = session
        self.listener = listener
        self.clock = GameClock()
        self.lock = threading.Lock()
        self.force = False
        self.engine_white = False           # the side the engine plays when not in force mode
        self.activity = Activity.IDLE
        self.token = 0
        self.search_started = 0.0
        self.last_line: SearchLine | None = None
        self.current_move: CurrentMove | None = None
        self.pondered_move: str | None = None
        self.hint: tuple[int, str] | None = None    # (board key, the reply we expect there)
        self.last_score: Score | None = None        # of the engine's last move, for draw offers

    @property
    def analysing(self) -> bool:
        return ANALYSE_MODE.read(self.session)

    @property
    def ponders(self) -> bool:
        return PONDER.read(self.session)

    # -- searches ------------------------------------------------------------------------------

    def cancel(self) -> None:
        """End any search for good: its result is dropped. Waits for its thread without the lock."""
        self.token += 1
        self.activity = Activity.IDLE
        self._unlocked(self.session.finish)
        self.listener.settled()

    def settle(self) -> None:
        """Before changing options: a search on our move ends now and plays its move (CECP allows
        moving at once on any command); pondering or analysis ends without a result."""
        if self.activity is Activity.THINKING:
            self.session.stop()
            self._unlocked(self.session.finish)
        self.cancel()

    def reconfigure(self, change: Callable[[], object]) -> None:
        """Apply a change to the search settings between searches; analysis resumes after it,
        whether the change worked or not."""
        self.settle()
        try:
            change()
        finally:
            self._reanalyse()

    def _unlocked(self, wait: Callable[[], None]) -> None:
        self.lock.release()
        try:
            wait()
        finally:
            self.lock.acquire()

    def _start(self, activity: Activity, limits: Limits, board: Board | None = None) -> None:
        self.token += 1
        token = self.token
        self.activity = activity
        self.search_started = time.monotonic()
        self.last_line = self.current_move = None
        self.session.search(limits, lambda infos: self._on_info(token, infos),
                            lambda result: self._on_done(token, result), board)

    def _think(self) -> None:
        """Search for our move in the current position, or claim the result if the game is over."""
        if not self._claim_if_over():
            self._start(Activity.THINKING, self.clock.limits(self.session.board))

    def _analyse(self) -> None:
        if self.session.board.has_legal_moves():
            self._start(Activity.ANALYZING, Limits(infinite=True))

    def _reanalyse(self) -> None:
        """After the position or the settings changed: analysis starts again on what is now."""
        if self.analysing:
            self.cancel()
            self._analyse()

    def _on_info(self, token: int, infos: list[Info]) -> None:
        with self.lock:
            if token != self.token:
                return
            for info in infos:
                if isinstance(info, CurrentMove):
                    self.current_move = info
                    continue
                self.last_line, self.current_move = info, None
                self.listener.thinking(info)

    def _on_done(self, token: int, result: SearchResult) -> None:
        with self.lock:
            if token != self.token or self.activity is not Activity.THINKING:
                return      # dropped, or analysis (held until stopped; never a move)
            self.activity = Activity.IDLE
            self.listener.moving(result)
            self.session.push(result.move)
            self.last_score = result.score
            self.hint = (self.session.board.key, result.ponder) if result.ponder else None
            over = self._claim_if_over()
            self.listener.settled()
            if self.ponders and not over and self.hint:
                self._ponder_soon(round(self.elapsed() * 1000))

    def _ponder_soon(self, elapsed_ms: int) -> None:
        """Ponder on the reply we expect, once the lock is free. `elapsed_ms`: the time our own
        move took. From a thread of its own: starting a search joins the search thread, which may
        be the one calling this."""
        threading.Thread(target=self._start_pondering, args=(self.token, elapsed_ms), name="pyrope-ponder",
                         daemon=True).start()

    def _start_pondering(self, token: int, elapsed_ms: int) -> None:
        with self.lock:
            if token != self.token or self.activity is not Activity.IDLE or self.force or not self.ponders:
                return      # something happened first (usually the opponent's move)
            expected = self._valid_hint()
            if expected is None:
                return
            board = self.session.board.copy()
            board.push(expected)
            if board.outcome() is not None:
                return
            # The clock starts at ponderhit: plan with what our clock will show then.
            limits = self.clock.limits(board, self.clock.engine_ms - elapsed_ms + self.clock.increment_ms)
            limits.ponder = True
            self.pondered_move = expected
            self._start(Activity.PONDERING, limits, board)

    def _valid_hint(self) -> str | None:
        if self.hint is None or self.hint[0] != self.session.board.key:
            return None
        return self.hint[1]

    def _claim_if_over(self) -> bool:
        outcome = self.session.board.outcome()
        if outcome is not None:
            self.listener.game_over(*outcome)
        return outcome is not None

    # -- the game --------------------------------------------------------------------------------

    @property
    def thinking(self) -> bool:
        return self.activity is Activity.THINKING

    def new_game(self) -> None:
        self.cancel()
        self.session.set_chess960(False)
        self.session.new_game()
        self.force = False
        self.engine_white = False
        self.clock.new_game()
        self.hint = self.last_score = None
        self._reanalyse()

    def set_variant(self, chess960: bool) -> None:
        self.cancel()
        self.session.set_chess960(chess960)
        self._reanalyse()

    def set_up(self, fen: str) -> None:
        """Set up `fen` (FenError keeps the old position)."""
        self.cancel()
        self.session.set_position(fen, [])
        self.clock.level_ply = 0
        self.hint = None
        self._reanalyse()

    def set_level(self, moves_per_session: int, base_ms: int, increment_ms: int) -> None:
        self.clock.set_level(moves_per_session, base_ms, increment_ms, len(self.session.board.move_stack))

    def force_mode(self) -> None:
        self.cancel()
        self.force = True

    def go(self) -> None:
        """Play the side to move, starting now."""
        if self.thinking:
            return
        self.cancel()
        ANALYSE_MODE.apply(self.session, False)
        self.force = False
        self.engine_white = self.session.board.white_to_move
        self._think()

    def play_other(self) -> None:
        """Play the side not to move (pondering meanwhile, if a reply is expected here)."""
        self.cancel()
        ANALYSE_MODE.apply(self.session, False)
        self.force = False
        self.engine_white = not self.session.board.white_to_move
        if self.ponders and self._valid_hint():
            self._ponder_soon(0)

    def opponent_moves(self, move: str) -> None:
        """A legal move from the GUI, in the board's spelling (never while we think): in force or
        analyze mode just played; the move we ponder on goes on searching; else we answer."""
        if self.activity is Activity.PONDERING and move == self.pondered_move:
            self.session.push(move)
            self.activity = Activity.THINKING
            self.search_started = time.monotonic()
            self.session.ponderhit()
            return
        self.cancel()
        self.session.push(move)
        self.hint = None
        if self.analysing:
            self._reanalyse()
        elif not self.force and self.session.board.white_to_move == self.engine_white:
            self._think()
        elif not self.force:
            self._claim_if_over()

    def take_back(self, plies: int) -> bool:
        """Take back `plies` moves; False, changing nothing, if the game has fewer."""
        if len(self.session.board.move_stack) < plies:
            return False
        self.cancel()
        self.session.take_back(plies)
        self.hint = None
        self._reanalyse()
        return True

    def move_now(self) -> None:
        if self.thinking:
            self.session.stop()

    def game_ended(self) -> None:
        """The GUI declared a result: no more moves until a new game."""
        self.cancel()
        self.force = True

    def set_ponder(self, allowed: bool) -> None:
        PONDER.apply(self.session, allowed)
        if not allowed and self.activity is Activity.PONDERING:
            self.cancel()

    def analyse(self) -> None:
        self.cancel()
        ANALYSE_MODE.apply(self.session, True)
        self.force = True
        self._analyse()

    def exit_analysis(self) -> None:
        if self.analysing:
            self.cancel()
            ANALYSE_MODE.apply(self.session, False)

    def accepts_draw(self) -> bool:
        """Whether to accept the opponent's draw offer: when playing and clearly worse."""
        return not self.force and not self.analysing and clearly_worse(self.last_score)

    def expected_reply(self) -> str | None:
        """The move we expect from the opponent (the one pondered on, while pondering)."""
        return self.pondered_move if self.activity is Activity.PONDERING else self._valid_hint()

    def line_moves(self, line: SearchLine) -> list[str]:
        """A line's moves from the position on the board (a ponder search's start after our guess)."""
        return ([self.pondered_move] if self.activity is Activity.PONDERING else []) + list(line.pv)

    def elapsed(self) -> float:
        """Seconds since the search began (since ponderhit for a ponder search that hit)."""
        return time.monotonic() - self.search_started
