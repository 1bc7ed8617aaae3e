"""The `key = value` files that configure long self-play runs (`pyrope evolve`'s configuration,
`pyrope tune`'s SPSA specification): `#` comments, one key a line, and every fault one sentence
naming the file, the line and the field (ConfigError, bad input: the commands exit 2 with it)."""
from __future__ import annotations

import re
from typing import NoReturn

from ..console import InputError

_RANGE = re.compile(r"\s*([+-]?[0-9.]+)\s*\.\.\s*([+-]?[0-9.]+)\s*")


class ConfigError(InputError):
    """A configuration that cannot be used: the message names file, line and field."""


def fail(path: str, number: int | None, key: str, what: str) -> NoReturn:
    """Raise the fault at line `number` (None: a key that is missing)."""
    raise ConfigError(f"{path}:{number}: {key}: {what}" if number is not None else f"{path}: {key}: {what}")


def config_lines(text: str, path: str) -> list[tuple[int, str, str]]:
    """The lines that say something, as (line number, key with its spaces normalised, value); a
    line without `key = value` or a key given twice is a ConfigError."""
    lines, seen = [], {}
    for number, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        key, equals, value = (" ".join(part.split()) for part in line.partition("="))
        if not equals or not key or not value:
            fail(path, number, key or line, "expected 'key = value'")
        if key in seen:
            fail(path, number, key, f"given twice (first on line {seen[key]})")
        seen[key] = number
        lines.append((number, key, value))
    return lines


def whole_number(path: str, number: int, key: str, value: str, lowest: int) -> int:
    if not re.fullmatch(r"[+-]?[0-9]+", value):
        fail(path, number, key, f"needs a whole number, not {value!r}")
    if int(value) < lowest:
        fail(path, number, key, f"must be {lowest} or more, not {value}")
    return int(value)


def real_number(path: str, number: int, key: str, value: str) -> float:
    try:
        result = float(value)
    except ValueError:
        fail(path, number, key, f"needs a number, not {value!r}")
    if result != result or result in (float("inf"), float("-inf")):
        fail(path, number, key, f"needs a finite number, not {value!r}")
    return result


def value_range(path: str, number: int, key: str, value: str, integer: bool) -> tuple:
    """LOW..HIGH, whole numbers when `integer`, LOW not above HIGH."""
    match = _RANGE.fullmatch(value)
    try:
        low, high = (int(part) if integer else float(part) for part in match.groups())
    except (AttributeError, ValueError):
        fail(path, number, key, f"expected LOW..HIGH{' (whole numbers)' if integer else ''}, not {value!r}")
    if low > high:
        fail(path, number, key, f"the low end {low} is above the high end {high}")
    return low, high
