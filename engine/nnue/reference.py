"""The quantised net's forward pass in NumPy: the definition of the integer arithmetic that the
core's inference must reproduce exactly (docs/nnue.md), and the oracle its tests compare against.

Integer steps, for each position (side to move's accumulator `us`, the other's `them`; b its
output bucket, features.output_buckets):
  acc  = ft_bias + sum of ft_weights[f] over the perspective's features    (fits int16: weights clipped)
  v    = clamp(acc, 0, QA)
  crelu:  out = sum(v_us * w[2b]) + sum(v_them * w[2b+1]) + out_bias[b]    (scale QA*QB)
  screlu: out = trunc(sum(v_us^2 * w[2b] + v_them^2 * w[2b+1]) / QA) + out_bias[b]
  cp   = trunc(out * SCALE / (QA * QB))                                    (side to move's point of view)
Sums are exact (64-bit here); trunc rounds toward zero as C's integer division does.
"""
from __future__ import annotations

import numpy

from . import dataset
from .features import features, output_buckets
from .netfile import Net


def _trunc_div(numerator: numpy.ndarray, denominator: int) -> numpy.ndarray:
    return numpy.sign(numerator) * (numpy.abs(numerator) // denominator)


CHUNK = 1024       # positions gathered at a time: 32 x hidden values each


def accumulators(net: Net, indices: numpy.ndarray) -> numpy.ndarray:
    """int64 (positions, hidden): each position's accumulator from its feature indices, padded with
    the layout's input count: the row appended there is zeros, so padding adds nothing."""
    weights = numpy.vstack([_int64(net.ft_weights), numpy.zeros((1, net.hidden), numpy.int64)])
    return _int64(net.ft_bias) + weights[indices].sum(axis=1)


def _int64(values) -> numpy.ndarray:
    """A net's int16 array as int64, from NumPy or from the memoryviews netfile.read gives."""
    return numpy.asarray(values, dtype=numpy.int16).astype(numpy.int64)


def evaluate_records(net: Net, records: numpy.ndarray) -> numpy.ndarray:
    """int64 centipawns, side to move's point of view, for an array of dataset records."""
    return numpy.concatenate([_evaluate_chunk(net, records[start:start + CHUNK])
                              for start in range(0, len(records), CHUNK)] or [numpy.zeros(0, numpy.int64)])


def _evaluate_chunk(net: Net, records: numpy.ndarray) -> numpy.ndarray:
    own, other = features(records, net.layout)
    halves = [numpy.clip(accumulators(net, indices), 0, net.qa) for indices in (own, other)]
    if net.activation == "screlu":
        halves = [half * half for half in halves]
    bucket = output_buckets(records, net.output_buckets)
    weights = _int64(net.out_weights)
    out = sum((half * weights[2 * bucket + side]).sum(axis=1) for side, half in enumerate(halves))
    if net.activation == "screlu":
        out = _trunc_div(out, net.qa)
    return _trunc_div((out + numpy.asarray(net.out_bias, dtype=numpy.int64)[bucket]) * net.scale, net.qa * net.qb)


def evaluate(net: Net, position) -> int:
    """Centipawns for the side to move: `position` is a FEN or one 32-byte dataset record."""
    record = position if isinstance(position, bytes) else dataset.encode(position, 0, "1/2-1/2")
    return int(evaluate_records(net, numpy.frombuffer(record, dtype=dataset.record_dtype()))[0])
