"""Endgame tables in play: Syzygy's and Pyrope's own (distance to mate), their options, what
loading a path found, the root moves kept, and the mating line Pyrope's tables give.

Inside the search the C code probes WDL (see `Search.run`'s tb_* arguments). At the root this
module ranks every legal move by the tables (DTZ, or WDL where DTZ is missing) and keeps only
those that preserve the best result: of won positions, the moves that win fastest towards the
next zeroing move, so the win always progresses under the fifty-move rule; of lost ones, those
that resist longest; of drawn ones, every drawing move, which the search then chooses among.
With Syzygy50MoveRule on, a win the fifty-move rule spoils (a cursed win) counts as a draw, and
so does a blessed loss.

Pyrope's own tables (tablebases/, probed by default) serve the search like Syzygy's WDL where
Syzygy has no table, and at the root give the distance to mate: in a won or lost position the
engine answers at once with the shortest mate (or the longest resistance) and its whole line.
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from .._core import TB_WIN_SCORE, Board, DtmTables, Tablebases, TablebaseError
from ..data import shipped
from .result import Info, Score, SearchLine

MAX_PIECES = 7      # the largest Syzygy tables
DEFAULT_DTM_PATH = shipped("tablebases")      # the tables shipped with Pyrope
DEFAULT = "<default>"       # the option value that names the shipped set
MAX_MATE_PV = 64            # plies of a mating line shown
DEFAULT_PROBE_DEPTH = 1     # SyzygyProbeDepth: probe from the first ply
DEFAULT_RULE50 = True       # Syzygy50MoveRule: the fifty-move rule spoils wins and losses


@dataclass
class RootRanking:
    moves: list[str]        # the moves kept
    result: int             # 1 win, 0 draw, -1 loss, for the side to move
    probes: int = 0         # table probes made to rank the moves (rank_root counts them; tbhits)


@dataclass
class MateLine:
    pv: list[str]           # best play for both sides to the mate (or as far as shown)
    result: int             # 1: the side to move mates; -1: it is mated
    plies: int              # plies to the mate
    probes: int             # table probes made to find the line

    @property
    def mate(self) -> int:
        """The UCI mate score: moves to mate, negative when being mated."""
        return (self.plies + 1) // 2 if self.result > 0 else -(self.plies // 2)


def table_score(score: Score, result: int) -> Score:
    """The tables' verdict at the root (win, draw or loss) in place of a search's score, unless the
    search found a mate, which says more."""
    return score if score.mate is not None else Score(cp=result * TB_WIN_SCORE)


def ranked_line(info: Info, ranking: RootRanking) -> Info:
    """A search line at a root the tables ranked: the tables' verdict, and tbhits that count the
    root's probes too, as Stockfish's do."""
    if not isinstance(info, SearchLine):
        return info         # the root move being searched: nothing to rank
    return dataclasses.replace(info, score=table_score(info.score, ranking.result), tbhits=info.tbhits + ranking.probes)


def outcome(distance: int, counter: int, rule50: bool) -> int:
    """1, 0 or -1 for a move whose signed distance (plies to the zeroing move, counted from the
    position before it) is `distance`, with the fifty-move counter at `counter` before it."""
    if distance == 0:
        return 0
    if rule50 and abs(distance) + counter > 100:
        return 0
    return 1 if distance > 0 else -1


class TablebasePlayer:
    """The UCI options SyzygyPath, SyzygyProbeDepth, Syzygy50MoveRule, SyzygyProbeLimit and
    PyropeTBPath."""

    def __init__(self) -> None:
        self.tables: Tablebases | None = None
        self.path = ""
        self.probe_depth = DEFAULT_PROBE_DEPTH
        self.rule50 = DEFAULT_RULE50
        self.probe_limit = MAX_PIECES
        self.own = DtmTables("")        # Pyrope's tables: an empty set when none are used
        self.own_path = ""
        self.faults: list[str] = []     # broken tables met in play, not yet told (take_faults)
        self._told: set[str] = set()
        self._probes = 0                # table probes of the root ranking under way
        self.load_own(DEFAULT)

    def note(self, error: TablebaseError) -> None:
        """Remember a broken or corrupt table met in play, to be told once; a missing table or a
        position the tables do not hold is no fault."""
        message = str(error)
        if message.startswith(("Pyrope table ", "syzygy table ")) and message not in self._told:
            self._told.add(message)
            self.faults.append(message)

    def take_faults(self) -> list[str]:
        faults, self.faults = self.faults, []
        return faults

    def load_own(self, path: str) -> list[str]:
        """Use Pyrope's tables in `path` (directories separated by os.pathsep; DEFAULT for the
        shipped set; '' for none). Returns what to tell the user, as load() does."""
        self.own_path = path
        directories = str(DEFAULT_DTM_PATH) if path == DEFAULT else path
        self.own = DtmTables(directories)
        self.own.use_in_search()
        if not directories:
            return []
        found = (f"Pyrope tables: {len(self.own)} of up to {self.own.max_pieces} men found in "
                 f"{directories}")
        return [*self.own.problems, found]

    def load(self, path: str) -> list[str]:
        """Use the tables in `path` (directories separated by os.pathsep; '' for none). Returns
        what to tell the user: the problems found, then how many tables of how many pieces."""
        self.path = path
        self.tables = Tablebases(path) if path else None
        if self.tables is None:
            return []
        tables = self.tables
        found = (f"Syzygy: {tables.wdl_tables} WDL and {tables.dtz_tables} DTZ tables of up to "
                 f"{tables.max_pieces} pieces found in {path}")
        return [*tables.problems, found]

    @property
    def cardinality(self) -> int:
        """Positions with this many pieces or fewer are probed (0: none)."""
        most = max(self.tables.max_pieces if self.tables is not None else 0,
                   self.own.max_pieces)
        return min(self.probe_limit, most)

    def mate_line(self, board: Board, allowed: list[str] | tuple = ()) -> MateLine | None:
        """The shortest mate (or, when lost, the longest resistance) by Pyrope's tables, with the
        whole line; None when they do not cover the position, it is a draw, or a win might meet
        the fifty-move rule first (the search and Syzygy's DTZ then play it). The first move is
        one of `allowed` when that is given."""
        if men(board) > min(self.own.max_pieces, self.probe_limit):   # (no tables: max_pieces 0)
            return None
        try:
            result, plies = self.own.probe(board)
            if result == 0 or (result > 0 and board.halfmove_clock + plies > 100):
                return None
            line = []
            probes = 1
            position = board.copy()
            while len(line) < MAX_MATE_PV and position.has_legal_moves():
                move = self.best_dtm_move(position, allowed if not line else ())
                probes += len(position.legal_moves())
                line.append(move)
                position.push(move)
        except TablebaseError as error:
            self.note(error)
            return None
        except ValueError:          # none of `allowed` is legal
            return None
        return MateLine(line, result, plies, probes)

    def best_dtm_move(self, board: Board, allowed=()) -> str:
        """The move of best DTM: the quickest win, else a draw, else the slowest loss."""
        moves = [move for move in board.legal_moves() if not allowed or move in allowed]
        return max(moves, key=lambda move: self.dtm_worth(board, move))

    def rank_root(self, board: Board) -> RootRanking | None:
        """The root moves that keep the tables' best result, or None when the tables do not
        cover the position (too many pieces, castling rights, a table missing or broken).
        Syzygy's DTZ ranks first; Pyrope's tables rank by distance to mate where it has none."""
        if not self.cardinality or men(board) > self.cardinality:   # (this runs at every go)
            return None
        self._probes = 0
        ranking = self.rank_by_syzygy(board) or self.rank_by_dtm(board)
        if ranking is not None:
            ranking.probes = self._probes       # a failed Syzygy try's probes count too
        return ranking

    def rank_by_dtm(self, board: Board) -> RootRanking | None:
        if men(board) > self.own.max_pieces:
            return None
        try:
            worths = {move: self.dtm_worth(board, move) for move in board.legal_moves()}
        except TablebaseError as error:
            self.note(error)
            return None
        if not worths:
            return None
        best = max(worths.values())
        return RootRanking([move for move, worth in worths.items() if worth == best], (best > 0) - (best < 0))

    def dtm_worth(self, board: Board, move: str) -> int:
        """A move's value by Pyrope's tables, larger is better: quick wins, slow wins, draws,
        slow losses, quick losses."""
        child = board.copy()
        child.push(move)
        self._probes += 1
        result, plies = self.own.probe(child)
        return -result * (1000 - plies - 1)

    def rank_by_syzygy(self, board: Board) -> RootRanking | None:
        if self.tables is None:
            return None
        counter = board.halfmove_clock
        children = {}
        for move in board.legal_moves():
            children[move] = board.copy()
            children[move].push(move)
        if not children:
            return None
        try:
            distances = {move: self.distance_after(child) for move, child in children.items()}
        except TablebaseError as error:
            self.note(error)
            try:        # no DTZ table: WDL alone still tells which moves keep the result
                distances = {move: self.wdl_distance(child) for move, child in children.items()}
            except TablebaseError as error:
                self.note(error)
                return None
        results = {move: outcome(distance, counter, self.rule50) for move, distance in distances.items()}
        best = max(results.values())
        kept = [move for move in distances if results[move] == best]
        if best:
            # The least signed distance: of a win the fastest progress, of a loss the longest resistance.
            target = min(distances[move] for move in kept)
            kept = [move for move in kept if distances[move] == target]
        return RootRanking(kept, best)

    def distance_after(self, child: Board) -> int:
        """Signed plies to the next zeroing move for the side that just moved into `child`
        (positive: it wins), counting that move. A mate is a win in one."""
        if child.halfmove_clock == 0 or not child.has_legal_moves():
            # A mate, a stalemate, or a move that zeroed the counter: the WDL of the child
            # decides (1 ply, or 101 when a cursed result would only come after the rule).
            return self.wdl_distance(child)
        self._probes += 1
        dtz = -self.tables.probe_dtz(child)
        return dtz + 1 if dtz > 0 else dtz - 1 if dtz < 0 else 0

    def wdl_distance(self, child: Board) -> int:
        """As distance_after from WDL alone: 1 or -1 for a win or loss (no distance known),
        101 or -101 for a cursed win or blessed loss."""
        if not child.has_legal_moves():
            return 1 if child.is_check() else 0
        self._probes += 1
        return {2: 1, 1: 101, 0: 0, -1: -101, -2: -1}[-self.tables.probe_wdl(child)]


def men(board: Board) -> int:
    """Men on the board, kings included."""
    return sum(1 for square in board.fen().split()[0] if square.isalpha())
