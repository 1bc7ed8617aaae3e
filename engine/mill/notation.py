"""Mill move notation: `d6` places, `d6-d5` slides or flies, removals appended (`d6xb4`,
`a4-a1xd7xf2`); a lone `xb4` is a removal on its own (one owed, or a full board's or a blocked
side's); `pass` a blocked side's pass; `xd1a1-d1` a blocked side's removal and then its slide into
the point it freed (StalemateAction 2). Sanmill's split form, where each removal is its own token,
is joined into complete turns by join_split (by the tokens alone) or MillBoard.join_turns.
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


PASS = "pass"


def parse(text: str) -> tuple[int, int, list[int]]:
    """(from, to, removals in order) with -1 for an absent point; a blocked side's first removal
    (`xd1a1-d1`) leads the removals."""
    token = text.strip().lower()
    if token == PASS:
        return -1, -1, []
    lead = re.match(r"^x([a-g][1-7])(?=[a-g])", token)
    if lead:
        frm, to, removals = parse(token[3:])
        return frm, to, [point(lead.group(1))] + removals
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
    """The turn's text; removals in order. A slide into a point it removes from is a blocked side's
    removal-then-slide, written removal first; no point and no removal is a pass."""
    if frm < 0 and to < 0 and not removals:
        return PASS
    if frm >= 0 and to in removals:
        return "x" + POINTS[to] + format_move(frm, to, [r for r in removals if r != to])
    text = POINTS[to] if frm < 0 and to >= 0 else (f"{POINTS[frm]}-{POINTS[to]}" if to >= 0 else "")
    return text + "".join("x" + POINTS[r] for r in removals)


def split(turn: str) -> list[str]:
    """Sanmill's split form of a turn: `a4-a1xd7xf2` -> ['a4-a1', 'xd7', 'xf2'], a blocked side's
    `xd1a1-d1xb4` -> ['xd1', 'a1-d1', 'xb4']."""
    if re.match(r"^x[a-g][1-7][a-g]", turn):
        return [turn[:3]] + split(turn[3:])
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
