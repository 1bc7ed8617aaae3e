"""The database file: one class a file, memory-mapped, checked before use.

Layout (little-endian): an 80-byte header -- magic b"PYMILLDB", format version (uint16), header size
(uint16), the SHA-256 fingerprint of the rules acting after placement (32 bytes), the class's stone
counts a >= b (uint8 each), the entry width in bytes (uint8: 1 when every entry fits, else 2), one
byte zero, the entries of section a-b and of section b-a (uint64 each; 0 when a == b), the CRC-32 of
the payload (uint32), 12 bytes zero -- then the payload: one entry per index of section a-b, then
of b-a. Entry 0: a draw; otherwise d + 1, with d the turns to
the game's end under perfect play: d odd, the side to move wins; even, it loses.
"""
from __future__ import annotations

import hashlib
import json
import mmap
import struct
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

from ..rules import MillRules

MAGIC = b"PYMILLDB"
VERSION = 1
HEADER = struct.Struct("<8sHH32sBBBxQQI12x")


class TableError(ValueError):
    """A file that cannot be used; the message names the file and the fault."""


def fingerprint(rules: MillRules) -> bytes:
    """SHA-256 of what decides a placement-free game: lines (and so adjacency and mills), flying,
    removal and blocking rules. Stone counts in hand, placement and move-count rules do not act."""
    lines = sorted(sorted(line) for line in rules.lines())
    adjacency = sorted({tuple(sorted(pair)) for line in rules.lines() for pair in zip(line, line[1:])})
    text = json.dumps({"lines": lines, "adjacency": adjacency, "MayFly": rules.MayFly,
                       "FlyPieceCount": rules.FlyPieceCount,
                       "MayRemoveFromMillsAlways": rules.MayRemoveFromMillsAlways,
                       "MayRemoveMultiple": rules.MayRemoveMultiple,
                       "StalemateAction": rules.StalemateAction}, sort_keys=True)
    return hashlib.sha256(text.encode()).digest()


def file_name(rules: MillRules, a: int, b: int) -> str:
    return f"mill-{a}-{b}-{fingerprint(rules).hex()[:8]}.mdb"


def write(path: Path, rules: MillRules, a: int, b: int, sizes: tuple[int, int], payload, width: int) -> int:
    """Write a class (payload: its entries, `width` bytes each); returns the file's bytes."""
    data = memoryview(payload).cast("B")
    header = HEADER.pack(MAGIC, VERSION, HEADER.size, fingerprint(rules), a, b, width, sizes[0], sizes[1],
                         zlib.crc32(data))
    tmp = path.with_suffix(".tmp")
    with open(tmp, "wb") as f:
        f.write(header)
        f.write(data)
    tmp.replace(path)
    return HEADER.size + len(data)


@dataclass
class Table:
    path: Path
    a: int
    b: int
    sizes: tuple[int, int]
    crc: int
    entries: memoryview      # uint8 or uint16, section a-b then b-a

    def sections(self) -> dict[tuple[int, int], memoryview]:
        out = {(self.a, self.b): self.entries[:self.sizes[0]]}
        if self.a != self.b:
            out[(self.b, self.a)] = self.entries[self.sizes[0]:]
        return out


def open_table(path: Path, rules: MillRules | None, expected_sizes=None, check: bool = True) -> Table:
    """Map a file and check it: header, rules (None: any), size, and (check) the checksum."""
    if sys.byteorder != "little":
        raise TableError(f"{path}: tables are little-endian; this machine is not.")
    try:
        with open(path, "rb") as f:
            head = f.read(HEADER.size)
            if len(head) < HEADER.size:
                raise TableError(f"{path}: truncated ({len(head)} bytes, shorter than the header).")
            magic, version, hsize, fp, a, b, width, size0, size1, crc = HEADER.unpack(head)
            if magic != MAGIC:
                raise TableError(f"{path}: not a Pyrope Mill database (bad magic).")
            if version != VERSION or hsize != HEADER.size:
                raise TableError(f"{path}: format version {version}, this Pyrope reads {VERSION}.")
            if rules is not None and fp != fingerprint(rules):
                raise TableError(f"{path}: built for other rules (fingerprint {fp.hex()[:8]}, "
                                 f"these rules {fingerprint(rules).hex()[:8]}).")
            if expected_sizes is not None and (size0, size1) != tuple(expected_sizes):
                raise TableError(f"{path}: class {a}-{b} should hold {expected_sizes} entries, "
                                 f"the header says {(size0, size1)}.")
            if width not in (1, 2):
                raise TableError(f"{path}: entries of {width} bytes; this Pyrope reads 1 or 2.")
            length = HEADER.size + width * (size0 + size1)
            actual = Path(path).stat().st_size
            if actual != length:
                raise TableError(f"{path}: {'truncated' if actual < length else 'too long'} "
                                 f"({actual} bytes, the header implies {length}).")
            mapped = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
    except OSError as error:
        raise TableError(f"{path}: cannot be read ({error.strerror}).") from None
    payload = memoryview(mapped)[HEADER.size:]
    if check and zlib.crc32(payload) != crc:
        raise TableError(f"{path}: corrupt (the checksum does not match its entries).")
    return Table(Path(path), a, b, (size0, size1), crc, payload if width == 1 else payload.cast("H"))
