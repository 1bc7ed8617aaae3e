"""The search manager: the one place front-ends start and stop searches.

SearchThread is what every game shares (Mill's manager is built on it too; see play/game.py):
one search at a time on a background thread (the compiled searches drop the GIL, so the protocol
reader stays responsive), the final result handed to a callback, that of an infinite search held
back until `stop` and that of a ponder search until `stop` or `ponderhit`, as UCI requires.

SearchManager is chess's: it forwards info lines, and `ponderhit` also starts the clock of a
ponder search. With a strength limit (and not in analysis mode) it searches the Skill's node
budget for the time the clock gives the move, and its lines, then lets the Skill choose the move.
A move played on a clock (wtime/btime or movetime) comes from the opening book when the book has
one; infinite, mate and searchmoves searches, fixed depth or node searches and analysis mode
always search. In a won or lost position that Pyrope's own tables cover, the mating line they
give is the answer, without a search. Info lines and results leave as play.result's types.
"""
from __future__ import annotations

import dataclasses
import functools
import random
import threading
from typing import Any, Callable

from .._core import Board, Search, default_eval_params, nnue_enable, set_eval_params
from ..nnue import loader, netfile
from ..weights.files import read_weights
from ..book.player import BookPick, BookPlayer
from .result import Info, Score, SearchLine, SearchResult, info_from_core, result_from_core
from .options import ANALYSE_MODE, ELO, HASH, LIMIT_STRENGTH, MOVE_OVERHEAD, MULTIPV, PONDER, THREADS, USE_NNUE
from .strength import Skill
from .tablebases import MateLine, RootRanking, TablebasePlayer, ranked_line, table_score
from .timeman import Limits, TimeManager, make_clock

InfoCallback = Callable[[list[Info]], None]
DoneCallback = Callable[[SearchResult], None]


def one_at_a_time(method):
    """Starting, joining and reconfiguring happen one at a time: the xboard front-end starts a
    ponder search from a thread of its own while the reader thread may be ending a search, and an
    unguarded `finish` could forget the thread `start` had just made (it then ran on). `stop` and
    `ponderhit` never wait for this: they must be answered at once."""
    @functools.wraps(method)
    def guarded(self, *args, **kwargs):
        with self._control:
            return method(self, *args, **kwargs)
    return guarded


class SearchThread:
    """One search at a time on a background thread, for any game: `search` is the game's searcher
    (it has `prepare()` and `stop()`, and its search drops the GIL). The result of an infinite or
    ponder search is held back until `stop` (or `ponderhit` for a ponder search)."""

    def __init__(self, search) -> None:
        self.search = search
        self._thread: threading.Thread | None = None
        self._infinite = False
        self._release = threading.Event()     # a held-back result may go out
        self._control = threading.RLock()     # see one_at_a_time

    def _arm(self, limits: Limits) -> None:
        """Ready the searcher for a new search (a `stop` from now on counts for it)."""
        self._infinite = limits.infinite
        self._release.clear()
        self.search.prepare()

    def _launch(self, work: Callable[[], Any], limits: Limits, on_done: Callable[[Any], None]) -> None:
        """Run `work` on the search thread and hand its result to `on_done`, held back as UCI asks."""
        def run() -> None:
            result = work()
            if limits.infinite or limits.ponder:
                self._release.wait()
            on_done(result)

        self._thread = threading.Thread(target=run, name="pyrope-search", daemon=True)
        self._thread.start()

    def ponderhit(self) -> None:
        """The opponent played the move we pondered on: a finished ponder search reports."""
        if not self._infinite:
            self._release.set()

    def stop(self) -> None:
        self._release.set()
        self.search.stop()

    @one_at_a_time
    def finish(self) -> None:
        """End any search now (its bestmove is still sent) and join its thread: commands that
        change the engine's state must not wait for an infinite search that only `stop` ends."""
        self.stop()
        if self._thread is not None:
            self._thread.join()
            self._thread = None


class SearchManager(SearchThread):
    """Chess: the clock, strength limit, book and tables around the compiled chess search."""

    def __init__(self) -> None:
        super().__init__(Search(threads=THREADS.default, hash_mb=HASH.default))
        self.multipv = MULTIPV.default
        self.move_overhead = MOVE_OVERHEAD.default
        self.ponder_allowed = PONDER.default        # the GUI may ponder: a little more time per move
        self.limit_strength = LIMIT_STRENGTH.default
        self.elo = ELO.default                      # the strength limit, when limit_strength is on
        self.analyse_mode = ANALYSE_MODE.default    # analysis is always at full strength
        self.net_enabled = USE_NNUE.default         # the loaded net evaluates (the core's default too)
        self.net_path = ""                  # NNUEFile: the net loaded, '' none
        self.net_problem: str | None = None     # why the shipped net could not be loaded, if it could not
        self.rng = random.Random()
        self.book = BookPlayer()
        self.tablebases = TablebasePlayer()
        self._clock: TimeManager | None = None
        try:
            self.load_net(str(loader.DEFAULT_NET))
        except netfile.NetFileError as error:
            self.net_problem = str(error)

    @one_at_a_time
    def set_hash(self, megabytes: int) -> int:
        self.finish()
        return self.search.set_hash(megabytes)

    @one_at_a_time
    def set_threads(self, threads: int) -> int:
        self.finish()
        return self.search.set_threads(threads)

    @one_at_a_time
    def load_eval_file(self, path: str | None) -> None:
        """Evaluation weights from a parameter file, or from a genome of `pyrope evolve` (FILE#ID,
        or a genome file's oldest); None: the built-in defaults. A bad file raises ParamFileError
        and the current weights stay."""
        self.finish()
        set_eval_params(default_eval_params() if path is None else read_weights(path))

    @one_at_a_time
    def load_net(self, path: str | None) -> None:
        """The learned evaluation's net from `path` (None: none, the hand-crafted evaluation plays).
        A bad file raises NetFileError naming it and the fault, and the net in use stays. The hash
        table is cleared with a new evaluation: its entries hold the old one's values."""
        self.finish()
        loader.load(path)
        self.net_path = path or ""
        self.search.clear()

    @one_at_a_time
    def use_net(self, enabled: bool) -> None:
        """Use NNUE: evaluate with the loaded net (True) or the hand-crafted evaluation (False)."""
        self.finish()
        nnue_enable(enabled)
        self.net_enabled = enabled
        self.search.clear()

    @one_at_a_time
    def load_tablebases(self, path: str) -> list[str]:
        """Syzygy tables from `path` ('' : none); no search may run while the set is replaced.
        Returns the messages for the user (TablebasePlayer.load)."""
        self.finish()
        return self.tablebases.load(path)

    @one_at_a_time
    def load_own_tablebases(self, path: str) -> list[str]:
        """Pyrope's own tables from `path` (DEFAULT: the shipped set; '': none), as load_tablebases."""
        self.finish()
        return self.tablebases.load_own(path)

    @one_at_a_time
    def clear(self) -> None:
        self.finish()
        self.search.clear()

    @one_at_a_time
    def start(self, board: Board, limits: Limits, on_info: InfoCallback, on_done: DoneCallback) -> None:
        """Begin searching a copy of `board`; `on_done(result)` is called once, from the search thread."""
        self.finish()
        limited = self.limit_strength and not self.analyse_mode
        multipv = self.multipv
        self._clock = clock = make_clock(limits, board.white_to_move, self.move_overhead, self.ponder_allowed)
        skill = Skill(self.elo, clock.plan.max_time if clock is not None else None) if limited else None
        if skill is not None:
            limits = dataclasses.replace(limits, nodes=min(limits.nodes or skill.nodes, skill.nodes))
            multipv = max(multipv, skill.lines)
        board = board.copy()
        self._arm(limits)
        pick = self._book_pick(board, limits)
        # Pyrope's tables know the shortest mate: at full strength that is the answer, at once.
        mate = None if skill is not None else self.tablebases.mate_line(board, limits.searchmoves)
        ranking = self.tablebases.rank_root(board) if mate is None else None
        faults = self.tablebases.take_faults()     # broken tables met just now: told with the move
        limits = keep_ranked_moves(limits, ranking)
        tables = self.tablebases
        if ranking is not None:     # the root's lines show the tables' verdict and probes
            report = on_info
            on_info = lambda infos: report([ranked_line(info, ranking) for info in infos])  # noqa: E731

        def work() -> SearchResult:
            if mate is not None:
                result = mate_result(mate)
                on_info(result.lines)
            elif pick is not None and pick.move is not None:
                result = book_result(pick)
            else:
                result = result_from_core(self.search.run(
                    board, depth=limits.depth, nodes=limits.nodes, mate=limits.mate, multipv=multipv,
                    searchmoves=limits.searchmoves, clock=clock, tb_cardinality=tables.cardinality,
                    tb_probe_depth=tables.probe_depth, tb_rule50=tables.rule50,
                    info=lambda infos: on_info([info_from_core(info) for info in infos])))
                # A pick here holds only illegal entries: they are reported, then the move is searched.
                result = dataclasses.replace(result, book=pick)
                if ranking is not None:
                    result = dataclasses.replace(
                        result, score=table_score(result.score, ranking.result), tbhits=result.tbhits + ranking.probes,
                        lines=[dataclasses.replace(line, score=table_score(line.score, ranking.result))
                               for line in result.lines])
            result = dataclasses.replace(result, table_faults=faults)
            if skill is not None and result.lines:
                line = skill.choose(result.lines, self.rng)
                result = dataclasses.replace(result, move=line.pv[0], ponder=line.pv[1] if len(line.pv) > 1 else None,
                                             pv=line.pv, score=line.score)
            return result

        self._launch(work, limits, on_done)

    def _book_pick(self, board: Board, limits: Limits) -> BookPick | None:
        plays_on_clock = limits.uses_clock() or limits.movetime
        if (not plays_on_clock or limits.infinite or limits.mate or limits.searchmoves or self.analyse_mode):
            return None
        return self.book.choose(board, self.rng)

    def ponderhit(self) -> None:
        """The opponent played the move we pondered on: from now on the search is on the clock
        (or ends at once if the time manager already has enough); a finished one reports."""
        clock = self._clock
        if clock is not None and clock.pondering:
            self.search.ponderhit(clock.ponderhit())
        super().ponderhit()


def book_result(pick: BookPick) -> SearchResult:
    """A book move as a search result (no score: the book has none)."""
    return SearchResult(move=pick.move, ponder=pick.ponder, score=None,
                        pv=[pick.move] + ([pick.ponder] if pick.ponder else []), book=pick)


def mate_result(mate: MateLine) -> SearchResult:
    """The mating line of Pyrope's tables as a search result, its one line the info line to show."""
    score, plies = Score(mate=mate.mate), len(mate.pv)
    line = SearchLine(pv=mate.pv, score=score, depth=plies, seldepth=plies, tbhits=mate.probes)
    return SearchResult(move=mate.pv[0], ponder=mate.pv[1] if plies > 1 else None, score=score, depth=plies,
                        seldepth=plies, tbhits=mate.probes, pv=mate.pv, lines=[line])


def keep_ranked_moves(limits: Limits, ranking: RootRanking | None) -> Limits:
    """In a position the tables cover, search only the root moves that keep their best result
    (of those the GUI allowed, if any of them do)."""
    if ranking is None:
        return limits
    allowed = [move for move in ranking.moves if not limits.searchmoves or move in limits.searchmoves]
    return dataclasses.replace(limits, searchmoves=allowed) if allowed else limits
