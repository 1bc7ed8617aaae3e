"""Syzygy tablebases in play: the options, what loading a path found, and the root moves kept.

Inside the search the C code probes WDL (see `Search.run`'s tb_* arguments). At the root this
module ranks every legal move by the tables (DTZ, or WDL where DTZ is missing) and keeps only
those that preserve the best result: of won positions, the moves that win fastest towards the
next zeroing move, so the win always progresses under the fifty-move rule; of lost ones, those
that resist longest; of drawn ones, every drawing move, which the search then chooses among.
With Syzygy50MoveRule on, a win the fifty-move rule spoils (a cursed win) counts as a draw, and
so does a blessed loss.
"""
from __future__ import annotations

from dataclasses import dataclass

from .._core import TB_WIN_SCORE, Board, Tablebases, TablebaseError

MAX_PIECES = 7      # the largest Syzygy tables


@dataclass
class RootRanking:
    moves: list[str]        # the moves kept
    result: int             # 1 win, 0 draw, -1 loss, for the side to move


def table_score(line: dict, result: int) -> dict:
    """A search line with its score replaced by the tables' verdict at the root (win, draw or
    loss), unless the search found a mate, which says more."""
    if "mate" in line or "cp" not in line:
        return line
    return {**line, "cp": result * TB_WIN_SCORE}


def outcome(distance: int, counter: int, rule50: bool) -> int:
    """1, 0 or -1 for a move whose signed distance (plies to the zeroing move, counted from the
    position before it) is `distance`, with the fifty-move counter at `counter` before it."""
    if distance == 0:
        return 0
    if rule50 and abs(distance) + counter > 100:
        return 0
    return 1 if distance > 0 else -1


class TablebasePlayer:
    """The UCI options SyzygyPath, SyzygyProbeDepth, Syzygy50MoveRule and SyzygyProbeLimit."""

    def __init__(self) -> None:
        self.tables: Tablebases | None = None
        self.path = ""
        self.probe_depth = 1
        self.rule50 = True
        self.probe_limit = MAX_PIECES

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
        if self.tables is None:
            return 0
        return min(self.probe_limit, self.tables.max_pieces)

    def rank_root(self, board: Board) -> RootRanking | None:
        """The root moves that keep the tables' best result, or None when the tables do not
        cover the position (too many pieces, castling rights, a table missing or broken)."""
        if not self.cardinality:        # no tables: nothing to count (this runs at every go)
            return None
        if sum(1 for square in board.fen().split()[0] if square.isalpha()) > self.cardinality:
            return None
        counter = board.halfmove_clock
        children = {}
        for move in board.legal_moves():
            children[move] = board.copy()
            children[move].push(move)
        try:
            distances = {move: self.distance_after(child) for move, child in children.items()}
        except TablebaseError:
            try:        # no DTZ table: WDL alone still tells which moves keep the result
                distances = {move: self.wdl_distance(child) for move, child in children.items()}
            except TablebaseError:
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
        dtz = -self.tables.probe_dtz(child)
        return dtz + 1 if dtz > 0 else dtz - 1 if dtz < 0 else 0

    def wdl_distance(self, child: Board) -> int:
        """As distance_after from WDL alone: 1 or -1 for a win or loss (no distance known),
        101 or -101 for a cursed win or blessed loss."""
        if not child.has_legal_moves():
            return 1 if child.is_check() else 0
        return {2: 1, 1: 101, 0: 0, -1: -101, -2: -1}[-self.tables.probe_wdl(child)]
