"""The network's inputs: from each side's point of view, 768 = 2 colours x 6 piece types x 64 squares
for each king bucket of the net's InputLayout (netfile.py).

From a perspective (white or black) with its own king on square k (as that side sees it), a piece's
feature is `bucket(k) * 768 + colour * 384 + type * 64 + square`: colour is 0 for that side's own
pieces and 1 for the other's, type 0-5 is pawn, knight, bishop, rook, queen, king, and the square
is mirrored vertically (a1 <-> a8) for black's perspective, so that both sides see their pieces as
white sees its own; in a mirrored layout a king on files e-h also sees every square mirrored left to
right (a1 <-> h1). The side to move's features feed the first half of the hidden layer, the other
side's the second. The output bucket is chosen by the number of pieces on the board.

features() decodes whole arrays of dataset records at once (no Python loop per record): a trainer
calls it for every batch.
"""
from __future__ import annotations

import numpy

from .netfile import PIECE_INPUTS, InputLayout

MAX_PIECES = 32
_UNMOVED_ROOK = 6   # marlinformat's code for a rook that keeps a castling right: a rook as an input
_KING = 5


def features(records: numpy.ndarray, layout: InputLayout = InputLayout(),
             flipped: numpy.ndarray | None = None) -> tuple[numpy.ndarray, numpy.ndarray]:
    """For an array of records (dataset.record_dtype()): the side to move's and the other side's
    feature indices, two int64 arrays of shape (len(records), 32), each row in square order and
    padded with `layout.inputs` (the index of the trainer's all-zero row). Where `flipped` is true
    the position is read mirrored left to right (files a-h swapped) first."""
    bits = occupancy_bits(records)
    rows, squares = numpy.nonzero(bits)      # row-major: each record's occupied squares in ascending order
    counts = bits.sum(axis=1, dtype=numpy.int64)
    # A piece's slot is its rank among its record's occupied squares: its nibble in `pieces`.
    slot = numpy.arange(len(rows)) - (numpy.cumsum(counts) - counts)[rows]
    nibble = records["pieces"][rows, slot // 2] >> (4 * (slot % 2)).astype(numpy.uint8) & 15
    kind = (nibble & 7).astype(numpy.int64)
    kind[kind == _UNMOVED_ROOK] = 3
    black = (nibble >> 3).astype(numpy.int64)
    squares = squares.astype(numpy.int64)
    if flipped is not None:
        squares = numpy.where(flipped[rows], squares ^ 7, squares)
    views = []
    for side, relative in ((0, squares), (1, squares ^ 56)):
        king = numpy.zeros(len(records), dtype=numpy.int64)
        own_king = (kind == _KING) & (black == side)
        king[rows[own_king]] = relative[own_king]
        mirror = (king & 7) >= 4 if layout.mirrored else numpy.zeros(len(records), dtype=bool)
        bucket = numpy.asarray(layout.buckets, dtype=numpy.int64)[king]
        seen = numpy.where(mirror[rows], relative ^ 7, relative)
        views.append(bucket[rows] * PIECE_INPUTS + (black != side) * 384 + kind * 64 + seen)
    black_to_move = (records["stm_ep"][rows] >> 7).astype(bool)
    own = numpy.full((len(records), MAX_PIECES), layout.inputs, dtype=numpy.int64)
    other = numpy.full((len(records), MAX_PIECES), layout.inputs, dtype=numpy.int64)
    own[rows, slot] = numpy.where(black_to_move, views[1], views[0])
    other[rows, slot] = numpy.where(black_to_move, views[0], views[1])
    return own, other


def output_buckets(records: numpy.ndarray, count: int) -> numpy.ndarray:
    """int64 (len(records),): each position's output bucket among `count` (1, 2, 4 or 8), by the
    pieces on the board: (pieces - 2) // (32 // count)."""
    pieces = occupancy_bits(records).sum(axis=1, dtype=numpy.int64)
    return numpy.clip((pieces - 2) // (MAX_PIECES // count), 0, count - 1)


def occupancy_bits(records: numpy.ndarray) -> numpy.ndarray:
    """uint8 (len(records), 64): 1 where a square is occupied, a1 first."""
    occupancy = numpy.ascontiguousarray(records["occupancy"], dtype="<u8")
    return numpy.unpackbits(occupancy.view(numpy.uint8).reshape(-1, 8), axis=1, bitorder="little")
