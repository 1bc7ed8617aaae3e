"""The positions `pyrope train` learns from: shards found, checked, split and turned into targets.

Shards are read whole into memory (32 bytes a position). A shard that is truncated or holds a record
that is not a valid one is skipped with a message naming it and the byte offset. The validation
split is held out by game: datagen's DIR/games/TASK.jsonl beside a shard says how many positions
each game gave, and a game is held out when a hash of its number falls in the validation fraction,
so no game has positions on both sides and a shard added later never moves a game across. A shard
without its games file is split by a hash of each position instead (a game's neighbouring positions
then land on both sides, which makes the validation loss a little optimistic).
"""
from __future__ import annotations

import glob
import hashlib
import json
import os
from dataclasses import dataclass, field

import numpy

from ..console import InputError
from ..nnue.features import occupancy_bits
from ..nnue import dataset

_HASH_MULTIPLIER = numpy.uint64(0x9E3779B97F4A7C15)     # Fibonacci hashing: spreads consecutive numbers


@dataclass
class TrainingSet:
    train: numpy.ndarray                # dataset records
    validation: numpy.ndarray
    shards: dict = field(default_factory=dict)      # path -> SHA-256 of each shard used
    skipped: list = field(default_factory=list)     # one sentence per shard left out


def shard_paths(inputs: list[str]) -> list[str]:
    """The shard files named by `inputs`: files as given; a directory gives its positions/*.bin
    (a datagen directory) or else its own *.bin, in name order. InputError for a name that is neither."""
    paths = []
    for name in inputs:
        if os.path.isdir(name):
            folder = os.path.join(name, "positions") if os.path.isdir(os.path.join(name, "positions")) else name
            found = sorted(glob.glob(os.path.join(folder, "*.bin")))
            if not found:
                raise InputError(f"{name} holds no shards (*.bin)")
            paths += found
        elif os.path.isfile(name):
            paths.append(name)
        else:
            raise InputError(f"no such file or directory: {name}")
    return paths


def first_bad_record(records: numpy.ndarray) -> tuple[int, str] | None:
    """(index, reason) of the first record that is not a valid one, or None."""
    counts = occupancy_bits(records).sum(axis=1)
    nibbles = numpy.stack([records["pieces"] & 15, records["pieces"] >> 4], axis=2).reshape(-1, 32)
    used = numpy.arange(32) < counts[:, None]
    checks = [(counts > 32, "more than 32 pieces"),
              ((((nibbles & 7) > 6) & used).any(axis=1), "a piece code out of range"),
              ((((nibbles == 5) & used).sum(axis=1) != 1) | (((nibbles == 13) & used).sum(axis=1) != 1),
               "not one king a side"),
              (records["result"] > 2, "a result byte beyond 2"),
              ((records["stm_ep"] & 0x7F) > dataset.NO_EP, "an en-passant square beyond 64")]
    bad = [(int(numpy.argmax(mask)), reason) for mask, reason in checks if mask.any()]
    return min(bad) if bad else None


def read_shard(path: str) -> tuple[numpy.ndarray, str]:
    """A shard's records, in memory, and its SHA-256; ShardError naming the file and the byte offset
    of the fault."""
    with open(path, "rb") as handle:
        data = handle.read()
    whole = len(data) - len(data) % dataset.RECORD_SIZE
    if whole != len(data):
        raise dataset.ShardError(f"{path}: truncated at byte {whole} ({len(data)} bytes is not a whole "
                                 f"number of {dataset.RECORD_SIZE}-byte records)")
    records = numpy.frombuffer(data, dtype=dataset.record_dtype())
    bad = first_bad_record(records) if len(records) else None
    if bad is not None:
        raise dataset.ShardError(f"{path}: bad record at byte {bad[0] * dataset.RECORD_SIZE} ({bad[1]})")
    return records, hashlib.sha256(data).hexdigest()


def game_numbers(path: str, count: int) -> numpy.ndarray | None:
    """The game number of each of a shard's `count` records, from datagen's games file beside it
    (DIR/games/TASK.jsonl for DIR/positions/TASK.bin); None when there is none or it disagrees."""
    games_path = os.path.join(os.path.dirname(os.path.dirname(path)), "games",
                              os.path.splitext(os.path.basename(path))[0] + ".jsonl")
    try:
        with open(games_path) as handle:
            games = [json.loads(line) for line in handle if line.strip()]
        numbers = numpy.repeat([game["game"] for game in games], [len(game["plies"]) for game in games])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return numbers.astype(numpy.uint64) if len(numbers) == count else None


def position_keys(records: numpy.ndarray) -> numpy.ndarray:
    """A number per record that depends only on the position (board and side to move)."""
    words = numpy.ascontiguousarray(records["pieces"]).view("<u8").reshape(-1, 2)
    with numpy.errstate(over="ignore"):
        return (records["occupancy"] * _HASH_MULTIPLIER) ^ words[:, 0] ^ (words[:, 1] * _HASH_MULTIPLIER) \
            ^ records["stm_ep"].astype(numpy.uint64)


def held_out(keys: numpy.ndarray, fraction: float) -> numpy.ndarray:
    """True for the keys (game numbers or position keys) whose hash falls in the validation fraction."""
    with numpy.errstate(over="ignore"):
        mixed = keys.astype(numpy.uint64) * _HASH_MULTIPLIER
    return (mixed >> numpy.uint64(11)).astype(numpy.float64) / 2.0 ** 53 < fraction


def load(inputs: list[str], validation_fraction: float, report=print) -> TrainingSet:
    """Every usable shard of `inputs`, split into training and validation records; `report` gets a
    sentence for each shard skipped. InputError when no position is left."""
    train, validation, shards, skipped = [], [], {}, []
    for path in shard_paths(inputs):
        try:
            records, shards[path] = read_shard(path)
        except dataset.ShardError as error:
            skipped.append(f"{error}; shard skipped")
            report(skipped[-1])
            continue
        games = game_numbers(path, len(records))
        mask = held_out(games if games is not None else position_keys(records), validation_fraction)
        train.append(records[~mask])
        validation.append(records[mask])
    empty = numpy.zeros(0, dtype=dataset.record_dtype())
    result = TrainingSet(numpy.concatenate(train or [empty]), numpy.concatenate(validation or [empty]), shards, skipped)
    if not len(result.train):
        raise InputError("no training positions: every shard was skipped or empty")
    return result


def targets(records: numpy.ndarray, wdl: float, scale: float) -> numpy.ndarray:
    """float32 expected scores for the side to move: (1 - wdl) * sigmoid(score / scale) + wdl * result,
    with the score and the result (0, 1/2, 1) both turned to the side to move's point of view."""
    black = (records["stm_ep"] & 0x80) != 0
    score = numpy.where(black, -records["score"].astype(numpy.float64), records["score"])
    result = records["result"] / 2.0
    result = numpy.where(black, 1.0 - result, result)
    return ((1.0 - wdl) / (1.0 + numpy.exp(-score / scale)) + wdl * result).astype(numpy.float32)
