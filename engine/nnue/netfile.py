"""The quantised net file that `pyrope train` writes and the engine loads (format: docs/nnue.md).

A 64-byte header (magic, version, architecture, quantisation, payload size, CRC-32) and a payload
of little-endian integer arrays. read() refuses, naming the file and the fault, anything that is
not a whole, unaltered net of an architecture this version knows.

Reading needs no NumPy (the engine loads its net without it): a read net's arrays are int16
memoryviews, which NumPy takes as they are. Writing takes the NumPy arrays training makes.
"""
from __future__ import annotations

import array
import math
import struct
import sys
import zlib
from dataclasses import dataclass
from typing import Any

PIECE_INPUTS = 768  # 2 colours x 6 piece types x 64 squares: one king bucket's inputs (features.py)

MAGIC = b"PYRNNUE\0"
VERSION = 2         # version 1 (one king bucket, one output, no mirroring) still reads
ACTIVATIONS = ("crelu", "screlu")       # their codes in the header are their positions here
# The accumulator's and the output weights' fixed-point scales. QB 128 rather than bullet's 64: at 64
# the output weights' rounding moved a trained net's evaluations by 8-9 cp on average, at 128 by 3.
# Older files say their own QA and QB in the header and read as they were written.
QA, QB = 255, 128
SCALE = 400                             # centipawns per unit of the net's output (sigmoid(cp / SCALE) is the expected score)
OUTPUT_BUCKETS = (1, 2, 4, 8)           # by pieces on the board: bucket (pieces - 2) // (32 // count)
MAX_KING_BUCKETS = 32
MIRRORED = 1                            # the flags' bit: a king on files e-h sees its board mirrored
# magic, version, inputs, hidden, activation, QA, QB, scale, payload bytes, then (version 2) king
# buckets, output buckets, flags and 8 reserved bytes (version 1: 20 reserved bytes); CRC-32 last
_HEADER = struct.Struct("<8sIIIIIIIIIII8s")
HEADER_SIZE = _HEADER.size + 4          # 64: the payload starts 64-byte aligned in a file read whole
BUCKET_MAP_SIZE = 64                    # version 2's payload begins with the king-bucket map, a byte a square


class NetFileError(ValueError):
    """A net file that cannot be used: missing, truncated, damaged or of another architecture."""


@dataclass(frozen=True)
class InputLayout:
    """Which copy of the 768 piece inputs a perspective uses: `buckets[s]` for its own king on
    square s as that side sees it (a1 = 0; black's squares mirrored vertically), and, when
    `mirrored`, a king on files e-h sees every square mirrored left to right as well (so the
    buckets of files e-h are those of a-d)."""
    buckets: tuple = (0,) * 64
    mirrored: bool = False

    @property
    def count(self) -> int:
        return max(self.buckets) + 1

    @property
    def inputs(self) -> int:
        return PIECE_INPUTS * self.count

    def fault(self) -> str | None:
        """Why this cannot be a net's layout, or None."""
        if len(self.buckets) != 64 or not all(0 <= b < MAX_KING_BUCKETS for b in self.buckets):
            return f"its king-bucket map is not 64 buckets of 0-{MAX_KING_BUCKETS - 1}"
        if set(self.buckets) != set(range(self.count)):
            return "its king-bucket map leaves a bucket unused"
        if self.mirrored and any(self.buckets[s] != self.buckets[s ^ 7] for s in range(64)):
            return "its king-bucket map is mirrored but not the same on files e-h as on a-d"
        return None


def layout_from_files(rows: list[list[int]], mirrored: bool) -> InputLayout:
    """A layout written as the board is drawn: rows from rank 8 down to rank 1, each of 8 buckets
    (or of 4 for files a-d when mirrored, e-h then repeating them mirrored)."""
    squares = []
    for row in reversed(rows):
        squares += row + row[::-1] if mirrored else row
    return InputLayout(tuple(squares), mirrored)


# Named layouts for `pyrope train --king-buckets` (our own choices; docs/nnue.md says why these).
LAYOUTS = {
    "none": InputLayout(),
    "mirrored": InputLayout(mirrored=True),
    "4": layout_from_files([[3] * 4] * 6 + [[2] * 4, [0, 0, 1, 1]], True),
    "8": layout_from_files([[7] * 4] * 2 + [[6] * 4] * 2 + [[5, 5, 4, 4]] * 2 + [[3, 3, 2, 2], [0, 0, 1, 1]], True),
    "16": layout_from_files([[14, 14, 15, 15]] * 2 + [[12, 12, 13, 13]] * 2 + [[10, 10, 11, 11], [8, 8, 9, 9],
                            [4, 5, 6, 7], [0, 1, 2, 3]], True),
}


@dataclass
class Net:
    """A quantised net. ft_weights[f] is the column feature f adds to an accumulator (f < the
    layout's inputs); out_weights[2 b] weighs the side to move's half for output bucket b,
    out_weights[2 b + 1] the other side's. The arrays are int16 buffers: NumPy arrays or (as
    read() returns them) memoryviews."""
    hidden: int
    activation: str
    ft_weights: Any                 # int16 (layout.inputs, hidden), scale QA
    ft_bias: Any                    # int16 (hidden,), scale QA
    out_weights: Any                # int16 (2 * output_buckets, hidden), scale QB
    out_bias: Any                   # int32 (output_buckets,), scale QA * QB
    qa: int = QA
    qb: int = QB
    scale: int = SCALE
    layout: InputLayout = InputLayout()
    output_buckets: int = 1

    def payload(self) -> bytes:
        import numpy
        return b"".join([bytes(self.layout.buckets),
                         numpy.ascontiguousarray(self.ft_weights, dtype="<i2").tobytes(),
                         numpy.ascontiguousarray(self.ft_bias, dtype="<i2").tobytes(),
                         numpy.ascontiguousarray(self.out_weights, dtype="<i2").tobytes(),
                         numpy.ascontiguousarray(self.out_bias, dtype="<i4").tobytes()])


def payload_size(hidden: int, inputs: int = PIECE_INPUTS, output_buckets: int = 1, version: int = VERSION) -> int:
    arrays = 2 * (inputs * hidden + hidden + 2 * output_buckets * hidden) + 4 * output_buckets
    return arrays + (BUCKET_MAP_SIZE if version >= 2 else 0)


def to_bytes(net: Net) -> bytes:
    payload = net.payload()
    header = _HEADER.pack(MAGIC, VERSION, net.layout.inputs, net.hidden, ACTIVATIONS.index(net.activation),
                          net.qa, net.qb, net.scale, len(payload), net.layout.count, net.output_buckets,
                          MIRRORED if net.layout.mirrored else 0, bytes(8))
    return header + struct.pack("<I", zlib.crc32(payload, zlib.crc32(header))) + payload


def write(path: str, net: Net) -> bytes:
    """Write `net` to `path`; returns the bytes written (for their hash)."""
    data = to_bytes(net)
    with open(path, "wb") as handle:
        handle.write(data)
    return data


def from_bytes(data: bytes, name: str = "the net file") -> Net:
    """The net in `data`; NetFileError naming `name` and what is wrong."""
    if len(data) < HEADER_SIZE:
        raise NetFileError(f"{name} is truncated: {len(data)} bytes, shorter than the {HEADER_SIZE}-byte header")
    magic, version, inputs, hidden, activation, qa, qb, scale, size, kings, outputs, flags, _ = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise NetFileError(f"{name} is not a Pyrope net (magic {magic!r}, expected {MAGIC!r})")
    if version not in (1, VERSION):
        raise NetFileError(f"{name} is a version {version} net; this Pyrope reads versions 1 and {VERSION}")
    if version == 1:        # its reserved bytes are covered by the CRC, checked below
        kings, outputs, flags = 1, 1, 0
    if (inputs != PIECE_INPUTS * kings or not 1 <= kings <= MAX_KING_BUCKETS or outputs not in OUTPUT_BUCKETS
            or flags & ~MIRRORED or activation >= len(ACTIVATIONS) or not 1 <= hidden <= 4096):
        raise NetFileError(f"{name} has another architecture: {inputs} inputs in {kings} king buckets, {hidden} "
                           f"hidden, activation code {activation}, {outputs} outputs, flags {flags} (this Pyrope "
                           f"reads {PIECE_INPUTS} inputs a king bucket, 1-{MAX_KING_BUCKETS} king buckets, 1-4096 "
                           f"hidden, activations {', '.join(f'{code} {kind}' for code, kind in enumerate(ACTIVATIONS))}, "
                           f"{', '.join(map(str, OUTPUT_BUCKETS))} outputs)")
    expected = payload_size(hidden, inputs, outputs, version)
    if size != expected:
        raise NetFileError(f"{name}'s header gives a {size}-byte payload; this architecture needs {expected}")
    if len(data) != HEADER_SIZE + size:
        raise NetFileError(f"{name} is {'truncated' if len(data) < HEADER_SIZE + size else 'too long'}: "
                           f"{len(data)} bytes, expected {HEADER_SIZE + size}")
    stored, = struct.unpack_from("<I", data, _HEADER.size)
    payload = data[HEADER_SIZE:]
    if zlib.crc32(payload, zlib.crc32(data[:_HEADER.size])) != stored:
        raise NetFileError(f"{name} is damaged: its CRC-32 does not match its contents")
    layout = InputLayout()
    if version >= 2:
        layout = InputLayout(tuple(payload[:BUCKET_MAP_SIZE]), bool(flags & MIRRORED))
        fault = layout.fault() or (None if layout.count == kings else f"its map has {layout.count} king buckets, "
                                   f"its header {kings}")
        if fault:
            raise NetFileError(f"{name} has a bad king-bucket map: {fault}")
        payload = payload[BUCKET_MAP_SIZE:]
    arrays = size - (BUCKET_MAP_SIZE if version >= 2 else 0) - 4 * outputs
    values = array.array("h", payload[:arrays])
    biases = array.array("i", payload[arrays:arrays + 4 * outputs])
    if sys.byteorder == "big":          # the file is little-endian; the arrays are in machine order
        values.byteswap()
        biases.byteswap()
    ft_end = inputs * hidden
    return Net(hidden, ACTIVATIONS[activation], _int16_view(values, 0, (inputs, hidden)),
               _int16_view(values, ft_end, (hidden,)), _int16_view(values, ft_end + hidden, (2 * outputs, hidden)),
               tuple(biases), qa, qb, scale, layout, outputs)


def _int16_view(values: array.array, start: int, shape: tuple) -> memoryview:
    """values[start:] as a read-only int16 memoryview of `shape` (a memoryview takes a shape only
    when cast from bytes)."""
    return memoryview(values)[start:start + math.prod(shape)].cast("B").cast("h", shape).toreadonly()


def read_bytes(path: str) -> bytes:
    """The bytes of the net file at `path`; NetFileError naming it when it cannot be read."""
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError as error:
        raise NetFileError(f"cannot read the net file {path}: {error.strerror}") from None


def read(path: str) -> Net:
    """The net in the file at `path`; NetFileError naming the file and the fault."""
    return from_bytes(read_bytes(path), path)
