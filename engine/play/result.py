"""What a chess search tells, typed: SearchLine (a line and its score, with the search's counts
when it was reported), CurrentMove (the root move being searched) and SearchResult (the move to
play and what backs it).

The compiled search reports and returns dicts (ext/search_api.pxi); they become these once, here,
as they leave the search manager. The book's and the tables' answers are made as these directly.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from ..book.player import BookPick


@dataclass(frozen=True)
class Score:
    """A score for the side to move: centipawns, or moves to mate when `mate` is set (negative:
    the side to move is mated)."""
    cp: int = 0
    mate: int | None = None


@dataclass(frozen=True)
class SearchLine:
    pv: list[str]
    score: Score
    bound: str = ""         # "lowerbound" or "upperbound" after a failed aspiration window
    depth: int = 0
    seldepth: int = 0
    multipv: int = 1
    nodes: int = 0
    nps: int = 0
    hashfull: int = 0       # per mille of the hash table in use
    tbhits: int = 0
    time_ms: int = 0


@dataclass(frozen=True)
class CurrentMove:
    depth: int
    move: str
    number: int             # 1 for the first root move searched


Info = SearchLine | CurrentMove


@dataclass(frozen=True)
class SearchResult:
    move: str | None        # None only when there was no legal move to search
    ponder: str | None      # the reply expected
    score: Score | None     # None for a book move: the book has no score
    depth: int = 0
    seldepth: int = 0
    nodes: int = 0
    tbhits: int = 0
    time_ms: int = 0
    pv: list[str] = field(default_factory=list)
    lines: list[SearchLine] = field(default_factory=list)      # best first (MultiPV)
    book: BookPick | None = None            # the book's pick: its move, or its illegal entries only
    table_faults: list[str] = field(default_factory=list)      # broken tables met, to be told with the move


def score_from_core(line: dict) -> Score:
    return Score(mate=line["mate"]) if "mate" in line else Score(cp=line["cp"])


def line_from_core(line: dict) -> SearchLine:
    bound = "lowerbound" if line.get("lowerbound") else "upperbound" if line.get("upperbound") else ""
    counts = {name: line[name] for name in ("depth", "multipv", "nodes", "nps", "hashfull", "tbhits", "time_ms")
              if name in line}
    return SearchLine(pv=line["pv"], score=score_from_core(line), bound=bound, seldepth=line["seldepth"], **counts)


def info_from_core(info: dict) -> Info:
    if "currmove" in info:
        return CurrentMove(info["depth"], info["currmove"], info["currmovenumber"])
    return line_from_core(info)


def result_from_core(result: dict) -> SearchResult:
    return SearchResult(move=result["move"], ponder=result["ponder"],
                        score=score_from_core(result["score"]) if result["score"] else None,
                        depth=result["depth"], seldepth=result["seldepth"], nodes=result["nodes"],
                        tbhits=result["tbhits"], time_ms=result["time_ms"], pv=result["pv"],
                        lines=[line_from_core(line) for line in result["lines"]])
