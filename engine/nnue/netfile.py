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

INPUTS = 768        # 2 colours x 6 piece types x 64 squares; features.py says how a position sets them

MAGIC = b"PYRNNUE\0"
VERSION = 1
ACTIVATIONS = ("crelu", "screlu")       # their codes in the header are their positions here
# The accumulator's and the output weights' fixed-point scales. QB 128 rather than bullet's 64: at 64
# the output weights' rounding moved a trained net's evaluations by 8-9 cp on average, at 128 by 3.
# Older files say their own QA and QB in the header and read as they were written.
QA, QB = 255, 128
SCALE = 400                             # centipawns per unit of the net's output (sigmoid(cp / SCALE) is the expected score)
# magic, version, inputs, hidden, activation, QA, QB, scale, payload bytes, 20 reserved bytes; CRC-32 last
_HEADER = struct.Struct("<8sIIIIIIII20s")
HEADER_SIZE = _HEADER.size + 4          # 64: the payload starts 64-byte aligned in a file read whole


class NetFileError(ValueError):
    """A net file that cannot be used: missing, truncated, damaged or of another architecture."""


@dataclass
class Net:
    """A quantised net. ft_weights[f] is the column feature f adds to an accumulator; out_weights[0]
    weighs the side to move's half, out_weights[1] the other side's. The arrays are int16 buffers:
    NumPy arrays or (as read() returns them) memoryviews."""
    hidden: int
    activation: str
    ft_weights: Any                 # int16 (INPUTS, hidden), scale QA
    ft_bias: Any                    # int16 (hidden,), scale QA
    out_weights: Any                # int16 (2, hidden), scale QB
    out_bias: int                   # int32, scale QA * QB
    qa: int = QA
    qb: int = QB
    scale: int = SCALE

    def payload(self) -> bytes:
        import numpy
        return b"".join([numpy.ascontiguousarray(self.ft_weights, dtype="<i2").tobytes(),
                         numpy.ascontiguousarray(self.ft_bias, dtype="<i2").tobytes(),
                         numpy.ascontiguousarray(self.out_weights, dtype="<i2").tobytes(),
                         struct.pack("<i", self.out_bias)])


def payload_size(hidden: int) -> int:
    return 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4


def to_bytes(net: Net) -> bytes:
    payload = net.payload()
    header = _HEADER.pack(MAGIC, VERSION, INPUTS, net.hidden, ACTIVATIONS.index(net.activation),
                          net.qa, net.qb, net.scale, len(payload), bytes(20))
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
    magic, version, inputs, hidden, activation, qa, qb, scale, size, _ = _HEADER.unpack_from(data)
    if magic != MAGIC:
        raise NetFileError(f"{name} is not a Pyrope net (magic {magic!r}, expected {MAGIC!r})")
    if version != VERSION:
        raise NetFileError(f"{name} is a version {version} net; this Pyrope reads version {VERSION}")
    if inputs != INPUTS or activation >= len(ACTIVATIONS) or not 1 <= hidden <= 4096:
        raise NetFileError(f"{name} has another architecture: {inputs} inputs, {hidden} hidden, activation "
                           f"code {activation} (this Pyrope reads {INPUTS} inputs, 1-4096 hidden, "
                           f"activations {', '.join(f'{code} {kind}' for code, kind in enumerate(ACTIVATIONS))})")
    if size != payload_size(hidden):
        raise NetFileError(f"{name}'s header gives a {size}-byte payload; {hidden} hidden needs {payload_size(hidden)}")
    if len(data) != HEADER_SIZE + size:
        raise NetFileError(f"{name} is {'truncated' if len(data) < HEADER_SIZE + size else 'too long'}: "
                           f"{len(data)} bytes, expected {HEADER_SIZE + size}")
    stored, = struct.unpack_from("<I", data, _HEADER.size)
    payload = data[HEADER_SIZE:]
    if zlib.crc32(payload, zlib.crc32(data[:_HEADER.size])) != stored:
        raise NetFileError(f"{name} is damaged: its CRC-32 does not match its contents")
    values = array.array("h", payload[:size - 4])
    if sys.byteorder == "big":          # the file is little-endian; the arrays are in machine order
        values.byteswap()
    ft_end = INPUTS * hidden
    return Net(hidden, ACTIVATIONS[activation], _int16_view(values, 0, (INPUTS, hidden)),
               _int16_view(values, ft_end, (hidden,)), _int16_view(values, ft_end + hidden, (2, hidden)),
               struct.unpack_from("<i", payload, size - 4)[0], qa, qb, scale)


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
