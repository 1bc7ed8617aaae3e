"""Training positions on disk: marlinformat's 32-byte packed board with a score and a game result.

A shard is a plain array of records (no header), so a trainer maps it with numpy.memmap and slices
it without parsing. encode()/decode() convert one record to and from a FEN; load() and RECORD_DTYPE
give whole shards as numpy structured arrays. The layout is documented in docs/datagen.md.
"""
from __future__ import annotations

import os
import struct
from typing import NamedTuple

RECORD_SIZE = 32
# occupancy, 32 piece nibbles, stm|ep, halfmove clock, fullmove number, score, result, unused
_LAYOUT = struct.Struct("<Q16sBBHhBB")

PIECE_CODES = {"p": 0, "n": 1, "b": 2, "r": 3, "q": 4, "k": 5}
UNMOVED_ROOK = 6        # a rook that still has its castling right
BLACK_BIT = 8
NO_EP = 64
BLACK_TO_MOVE = 0x80
RESULTS = {"0-1": 0, "1/2-1/2": 1, "1-0": 2}     # marlinformat's wdl: from white's point of view
RESULT_TEXT = {code: text for text, code in RESULTS.items()}
FILES = "abcdefgh"


class Record(NamedTuple):
    fen: str
    score: int      # centipawns, white's point of view
    result: str     # "1-0", "1/2-1/2" or "0-1"


class ShardError(ValueError):
    """A shard that is not a whole number of valid records."""


def _square(name: str) -> int:
    return FILES.index(name[0]) + 8 * (int(name[1]) - 1)


def _castling_rooks(placement: dict, castling: str) -> set:
    """The squares of the rooks that keep a castling right. X-FEN: K/Q is the outermost rook on that
    side of the king, a file letter names the rook (Shredder-FEN and Chess960)."""
    rooks = set()
    for letter in castling.replace("-", ""):
        white = letter.isupper()
        rank = 0 if white else 7
        rook, king = ("R", "K") if white else ("r", "k")
        king_file = next(f for f in range(8) if placement.get(8 * rank + f) == king)
        if letter.lower() == "k":
            files = [f for f in range(7, king_file, -1)]
        elif letter.lower() == "q":
            files = list(range(king_file))
        else:
            files = [FILES.index(letter.lower())]
        rooks.add(next(8 * rank + f for f in files if placement.get(8 * rank + f) == rook))
    return rooks


def encode(fen: str, score: int, result: str) -> bytes:
    """One record. The FEN's en-passant square should be given only when the capture is legal (as
    Pyrope's and python-chess's FENs do), so that equal positions encode to equal bytes."""
    fields = fen.split()
    placement = {}
    for rank_number, row in enumerate(reversed(fields[0].split("/"))):
        file = 0
        for char in row:
            if char.isdigit():
                file += int(char)
            else:
                placement[8 * rank_number + file] = char
                file += 1
    rooks = _castling_rooks(placement, fields[2])
    occupancy = 0
    nibbles = bytearray(16)
    for index, square in enumerate(sorted(placement)):
        piece = placement[square]
        code = UNMOVED_ROOK if square in rooks else PIECE_CODES[piece.lower()]
        code |= BLACK_BIT if piece.islower() else 0
        occupancy |= 1 << square
        nibbles[index // 2] |= code << (4 * (index % 2))
    stm_ep = (NO_EP if fields[3] == "-" else _square(fields[3])) | (BLACK_TO_MOVE if fields[1] == "b" else 0)
    halfmove = int(fields[4]) if len(fields) > 4 else 0
    fullmove = int(fields[5]) if len(fields) > 5 else 1
    # The fields are a byte and 16 bits wide: a clock past 255 says no more than 255 does.
    return _LAYOUT.pack(occupancy, bytes(nibbles), stm_ep, min(halfmove, 255), min(fullmove, 65535),
                        max(-32767, min(32767, score)), RESULTS[result], 0)


def decode(record: bytes) -> Record:
    """The FEN (X-FEN castling letters), score and result of one record; ShardError if it is not one."""
    if len(record) != RECORD_SIZE:
        raise ShardError(f"a record is {RECORD_SIZE} bytes, not {len(record)}")
    occupancy, nibbles, stm_ep, halfmove, fullmove, score, wdl, _ = _LAYOUT.unpack(record)
    squares = [square for square in range(64) if occupancy >> square & 1]
    if len(squares) > 32 or wdl not in RESULT_TEXT or (stm_ep & 0x7F) > NO_EP:
        raise ShardError("not a marlinformat record (bad piece count, result or en-passant square)")
    letters = "pnbrqkr"
    board = {}
    rooks = []
    for index, square in enumerate(squares):
        code = nibbles[index // 2] >> (4 * (index % 2)) & 15
        if code & 7 > UNMOVED_ROOK:
            raise ShardError(f"not a marlinformat record (piece code {code})")
        letter = letters[code & 7]
        board[square] = letter if code & BLACK_BIT else letter.upper()
        if code & 7 == UNMOVED_ROOK:
            rooks.append(square)
    rows = []
    for rank in range(7, -1, -1):
        row, empty = "", 0
        for file in range(8):
            piece = board.get(8 * rank + file)
            if piece is None:
                empty += 1
                continue
            row += (str(empty) if empty else "") + piece
            empty = 0
        rows.append(row + (str(empty) if empty else ""))
    castling = ""
    for white in (True, False):
        king = next((s for s, p in board.items() if p == ("K" if white else "k")), None)
        own = [s for s in rooks if (board[s] == "R") == white]
        # King side first, as FENs list them.
        for rook in sorted(own, reverse=True):
            letter = "k" if king is not None and rook % 8 > king % 8 else "q"
            castling += letter.upper() if white else letter
    ep = stm_ep & 0x7F
    fen = " ".join(["/".join(rows), "b" if stm_ep & BLACK_TO_MOVE else "w", castling or "-",
                    "-" if ep == NO_EP else FILES[ep % 8] + str(ep // 8 + 1), str(halfmove), str(fullmove)])
    return Record(fen, score, RESULT_TEXT[wdl])


def read_records(path: str) -> list[Record]:
    """Every record of a shard, decoded (for tests and inspection; a trainer uses load())."""
    data = _read_checked(path)
    records = []
    for offset in range(0, len(data), RECORD_SIZE):
        try:
            records.append(decode(data[offset:offset + RECORD_SIZE]))
        except ShardError as error:
            raise ShardError(f"{path}: bad record at byte {offset}: {error}") from None
    return records


def _read_checked(path: str) -> bytes:
    with open(path, "rb") as handle:
        data = handle.read()
    if len(data) % RECORD_SIZE:
        raise ShardError(f"{path} is truncated or not a shard: {len(data)} bytes is not a multiple of "
                         f"{RECORD_SIZE} (the last whole record ends at byte {len(data) // RECORD_SIZE * RECORD_SIZE})")
    return data


def record_dtype():
    """The numpy structured dtype of a record (numpy is imported only here and in load())."""
    import numpy
    return numpy.dtype([("occupancy", "<u8"), ("pieces", "u1", 16), ("stm_ep", "u1"), ("halfmove", "u1"),
                        ("fullmove", "<u2"), ("score", "<i2"), ("result", "u1"), ("extra", "u1")])


def load(path: str, *, memmap: bool = True):
    """A shard as a numpy structured array (record_dtype()), memory-mapped unless memmap=False;
    ShardError if its size is not a whole number of records."""
    import numpy
    size = os.path.getsize(path)
    if size % RECORD_SIZE:
        raise ShardError(f"{path} is truncated or not a shard: {size} bytes is not a multiple of {RECORD_SIZE}")
    if size == 0:
        return numpy.zeros(0, dtype=record_dtype())
    if memmap:
        return numpy.memmap(path, dtype=record_dtype(), mode="r")
    return numpy.fromfile(path, dtype=record_dtype())
