"""Check database entries against their successors: a win in d has a turn into a loss in d - 1 and
none faster, a loss in d has only turns into wins, the slowest in d - 1, a draw has a turn into a
draw and none into a loss. Used by `pyrope mill db verify` and the tests."""
from __future__ import annotations

import random

from .probe import MillDatabase, Value


def check_entry(db: MillDatabase, m: int, o: int, index: int) -> str | None:
    """None if entry `index` of section m-o agrees with its successors, else what is wrong."""
    mover, other = db.core.position(m, o, index)
    stored = db.probe_sets(mover, other)
    turns = db.turn_values((mover, other, 0, 0, 0, 0))
    if turns is None:
        return f"section {m}-{o} entry {index}: a successor is outside the loaded classes"
    if not turns:
        expected = Value("loss", 0) if db.rules.StalemateAction == 0 else Value("draw", None)
    else:
        expected = max((value for _, value in turns), key=Value.rank)
    if expected != stored:
        return f"section {m}-{o} entry {index}: stored {stored}, its successors give {expected}"
    return None


def check_class(db: MillDatabase, a: int, b: int, sample: int | None = None, seed: int = 1) -> tuple[int, list[str]]:
    """Check every entry of class a-b (or `sample` random ones); (entries checked, faults)."""
    rng = random.Random(seed)
    faults, checked = [], 0
    for m, o in {(a, b), (b, a)}:
        size = db.core.section_size(m, o)
        indices = range(size) if sample is None or sample >= size else rng.sample(range(size), sample)
        for index in indices:
            fault = check_entry(db, m, o, index)
            checked += 1
            if fault:
                faults.append(fault)
    return checked, faults
