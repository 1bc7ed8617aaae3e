"""Reader for the shared ``.perft`` reference files.

Format (one record per position)::

    # comment
    id NAME
    epd FEN            (4 fields: board, side, castling, en passant)
    perft DEPTH NODES  (one line per depth)

The data lives outside the repository, in ``../shared/data`` relative to the repo root.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from paths import PERFT_DIR

# File stem -> whether its positions need Chess960 castling rules (X-FEN with the king off
# the e-file, or Shredder-FEN). The flag only changes move notation, not perft counts.
PERFT_FILES = {"tricky": True, "random": False, "chess960": True}


@dataclass(frozen=True)
class PerftPosition:
    source: str                           # file stem, e.g. "tricky"
    name: str                             # the file's id
    fen: str
    counts: tuple[tuple[int, int], ...]   # (depth, nodes), ascending depth

    @property
    def id(self) -> str:
        return f"{self.source}:{self.name}"

    @property
    def chess960(self) -> bool:
        return PERFT_FILES[self.source]


def parse_perft(text: str, source: str = "<string>") -> list[PerftPosition]:
    """Parse the text of a .perft file; malformed input raises ValueError naming the line."""
    positions: list[PerftPosition] = []
    name = fen = None
    counts: list[tuple[int, int]] = []

    def finish():
        if name is None:
            return
        if fen is None or not counts:
            raise ValueError(f"{source}: position {name!r} lacks an epd or perft line")
        positions.append(PerftPosition(source, name, fen, tuple(counts)))

    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        rest = rest.strip()
        if keyword == "id":
            finish()
            name, fen, counts = rest, None, []
        elif name is None:
            raise ValueError(f"{source}:{lineno}: {keyword!r} line before any id line")
        elif keyword == "epd":
            if fen is not None:
                raise ValueError(f"{source}:{lineno}: second epd line for {name!r}")
            fen = rest
        elif keyword == "perft":
            depth, nodes = (int(x) for x in rest.split())
            if counts and depth <= counts[-1][0]:
                raise ValueError(f"{source}:{lineno}: perft depths out of order for {name!r}")
            counts.append((depth, nodes))
        else:
            raise ValueError(f"{source}:{lineno}: unknown line {line!r}")
    finish()
    return positions


@functools.lru_cache(maxsize=None)
def load(source: str) -> tuple[PerftPosition, ...]:
    """All positions of ``PERFT_DIR/<source>.perft``."""
    path = PERFT_DIR / f"{source}.perft"
    return tuple(parse_perft(path.read_text(), source))


def load_all() -> tuple[PerftPosition, ...]:
    return tuple(p for source in PERFT_FILES for p in load(source))
