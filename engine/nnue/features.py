"""The network's inputs: 768 = 2 colours x 6 piece types x 64 squares, seen from each side.

From a perspective (white or black) a piece's feature is `colour * 384 + type * 64 + square` where
colour is 0 for that side's own pieces and 1 for the other's, type 0-5 is pawn, knight, bishop,
rook, queen, king, and the square is mirrored vertically (a1 <-> a8) for black's perspective, so
that both sides see their pieces as white sees its own. The side to move's features feed the first
half of the hidden layer, the other side's the second.

features() decodes whole arrays of dataset records at once (no Python loop per record): a trainer
calls it for every batch.
"""
from __future__ import annotations

import numpy

from .netfile import INPUTS
MAX_PIECES = 32
PAD = INPUTS        # the index that fills a position's unused slots: an all-zero row, added as nothing
_UNMOVED_ROOK = 6   # marlinformat's code for a rook that keeps a castling right: a rook as an input


def features(records: numpy.ndarray) -> tuple[numpy.ndarray, numpy.ndarray]:
    """For an array of records (dataset.record_dtype()): the side to move's and the other side's
    feature indices, two int64 arrays of shape (len(records), 32), each row in square order and
    padded with PAD."""
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
    white_view = black * 384 + kind * 64 + squares
    black_view = (1 - black) * 384 + kind * 64 + (squares ^ 56)
    black_to_move = (records["stm_ep"][rows] >> 7).astype(bool)
    own = numpy.full((len(records), MAX_PIECES), PAD, dtype=numpy.int64)
    other = numpy.full((len(records), MAX_PIECES), PAD, dtype=numpy.int64)
    own[rows, slot] = numpy.where(black_to_move, black_view, white_view)
    other[rows, slot] = numpy.where(black_to_move, white_view, black_view)
    return own, other


def occupancy_bits(records: numpy.ndarray) -> numpy.ndarray:
    """uint8 (len(records), 64): 1 where a square is occupied, a1 first."""
    occupancy = numpy.ascontiguousarray(records["occupancy"], dtype="<u8")
    return numpy.unpackbits(occupancy.view(numpy.uint8).reshape(-1, 8), axis=1, bitorder="little")
