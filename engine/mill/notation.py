"""Mill move notation: `d6` places, `d6-d5` slides or flies, removals appended (`d6xb4`,
`a4-a1xd7xf2`); a lone `xb4` is a removal still owed. Sanmill's split form, where each removal
is its own token, is joined here into complete turns.
"""
from __future__ import annotations

import re

from .geometry import INDEX, POINTS

_TOKEN = re.compile(r"^(?:([a-g][1-7])(?:-([a-g][1-7]))?)?((?:x[a-g][1-7])*)$")
_FORMS = "expected a point (d6), a slide (d6-d5) and removals (xb4)"


def point(name: str) -> int:
    if name not in INDEX:
        raise ValueError(f"'{name}' is not a point of the Mill board.")
    return INDEX[name]


def parse(text: str) -> tuple[int, int, list[int]]:
    """(from, to, removals in order) with -1 for an absent point."""
    token = text.strip().lower()
    match = _TOKEN.match(token)
    if not token or match is None:
        raise ValueError(f"'{text}' is not a Mill move: {_FORMS}.")
    first, second, takes = match.groups()
    removals = [point(name) for name in takes.split("x")[1:]]
    if first is None:
        return -1, -1, removals
    if second is None:
        return -1, point(first), removals
    return point(first), point(second), removals


def format_move(frm: int, to: int, removals: list[int]) -> str:
    text = POINTS[to] if frm < 0 and to >= 0 else (f"{POINTS[frm]}-{POINTS[to]}" if to >= 0 else "")
    return text + "".join("x" + POINTS[r] for r in removals)


def split(turn: str) -> list[str]:
    """Sanmill's split form of a turn: `a4-a1xd7xf2` -> ['a4-a1', 'xd7', 'xf2']."""
    head, *removals = turn.split("x")
    return ([head] if head else []) + ["x" + point for point in removals]


def join_split(tokens: list[str]) -> list[str]:
    """Attach each removal token (`xb4`) to the turn before it; a leading one stays alone."""
    turns: list[str] = []
    for token in tokens:
        if token.strip().lower().startswith("x") and turns:
            turns[-1] += token.strip()
        else:
            turns.append(token.strip())
    return turns
