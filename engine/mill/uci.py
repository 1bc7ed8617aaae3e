"""Mill over UGI and over Sanmill's UCI dialect: chess's UCI and UGI front-ends with Mill's hooks
(its info and bestmove lines, its board for `d`, its bench; its options are the session's,
mill/options.py).

UGI (cutegames): one complete turn per bestmove (`d6xb4`), since cutegames alternates turns and
trusts the engine as referee. Sanmill's dialect (`uci`): a removal is a token of its own, so a
turn that closes a mill is answered in parts -- `bestmove d6`, then, once the GUI has played it
(`position ... moves ... d6`), a second `go` answers `bestmove xb4`.
"""
from __future__ import annotations

import dataclasses
from typing import Callable

from ..protocol.uci import UciFrontEnd
from ..protocol.ugi import UgiFrontEnd
from ..play.timeman import Limits
from .bench import DEFAULT_DEPTH as BENCH_DEPTH, run_bench
from .display import describe
from .notation import split
from .search import SearchInfo, SearchResult
from .session import MillSession


class MillUciFrontEnd(UciFrontEnd):
    """Sanmill's dialect: each bestmove one token of a turn."""
    errors = (ValueError,)      # UciError, and every rule, notation and FEN fault, is a ValueError
    null_move = "none"
    bench_runner = staticmethod(run_bench)
    bench_depth, bench_maximum = BENCH_DEPTH, 30
    split_turns = True

    def __init__(self, session: MillSession, write: Callable[[str], None]) -> None:
        super().__init__(session, write)
        session.split_turns = self.split_turns

    def checked_limits(self, limits: Limits) -> Limits:
        # The Mill search has no root move list and no mate search of its own.
        if limits.searchmoves or limits.mate:
            self.error("go searchmoves and go mate are not supported for Mill; ignored")
        limits = dataclasses.replace(limits, searchmoves=[], mate=0)
        if limits == Limits() and self.session.move_time:
            # Sanmill's GUI sends a bare `go` and waits for the move: think MoveTime seconds.
            limits.movetime = 1000 * self.session.move_time
        return limits

    def tokens(self, turns: list[str]) -> list[str]:
        """Turns as this dialect writes them."""
        return [token for turn in turns for token in split(turn)] if self.split_turns else turns

    def send_infos(self, infos: list[SearchInfo]) -> None:
        for info in infos:
            score = f"mate {info.mate}" if info.mate is not None else f"cp {info.score}"
            self.write(f"info depth {info.depth} score {score} nodes {info.nodes} nps {info.nps} "
                       f"time {info.time_ms} tbhits {info.tbhits} pv {' '.join(self.tokens(info.pv))}")

    def send_bestmove(self, result: SearchResult) -> None:
        self.write(f"bestmove {result.move}")

    def describe(self) -> str:
        board = self.session.board
        partial = f"\nBegun turn: {self.session.partial}" if self.session.partial else ""
        return f"{describe(board)}{partial}\n\nFen: {board.fen()}\nKey: {board.key:016X}"


class MillUgiFrontEnd(UgiFrontEnd, MillUciFrontEnd):
    """UGI for Mill: the handshake, clocks and `query` of UGI, one complete turn per bestmove."""
    split_turns = False


PROTOCOLS = {"uci": MillUciFrontEnd, "position": MillUciFrontEnd, "setoption": MillUciFrontEnd,
             "ucinewgame": MillUciFrontEnd, "ugi": MillUgiFrontEnd}
