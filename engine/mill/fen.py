"""Pyrope's Mill FEN (documented in docs/mill.md): reading with every impossibility named, and writing.

    <rank 7>/<rank 6>/.../<rank 1> <side> <white in hand> <black in hand> <removals pending> <quiet turns> <turn>

Ranks hold 3, 3, 3, 6, 3, 3, 3 points, left to right: O white, @ black, . empty.
"""
from __future__ import annotations

from ..console import InputError
from .geometry import RANKS
from .rules import MillRules

STONES = {"O": 0, "@": 1, ".": None}
SIDES = {"w": 0, "b": 1}
NAMES = ("white", "black")

Position = tuple  # (white mask, black mask, hand white, hand black, side, pending, quiet, turn)


def start_fen(rules: MillRules) -> str:
    board = "/".join("." * n for n in RANKS)
    return f"{board} w {rules.PiecesCount} {rules.PiecesCount} 0 0 1"


def write(position: Position) -> str:
    white, black, hand_w, hand_b, side, pending, quiet, turn = position
    chars = ["O" if white >> i & 1 else "@" if black >> i & 1 else "." for i in range(24)]
    ranks, start = [], 0
    for n in RANKS:
        ranks.append("".join(chars[start:start + n]))
        start += n
    return f"{'/'.join(ranks)} {'wb'[side]} {hand_w} {hand_b} {pending} {quiet} {turn}"


def read(fen: str, rules: MillRules, mills: list[int]) -> Position:
    """The position of `fen` under `rules` (`mills`: the line masks); InputError names what is impossible."""
    parts = fen.split()
    if len(parts) != 7:
        raise InputError(f"A Mill FEN has 7 fields (board, side, two hands, pending, quiet turns, turn), not {len(parts)}.")
    board, side_text = parts[0], parts[1]
    ranks = board.split("/")
    if [len(r) for r in ranks] != list(RANKS):
        raise InputError(f"The FEN board '{board}' must hold ranks of 3/3/3/6/3/3/3 points.")
    masks = [0, 0]
    for i, ch in enumerate("".join(ranks)):
        if ch not in STONES:
            raise InputError(f"'{ch}' in the FEN board is not O (white), @ (black) or . (empty).")
        if STONES[ch] is not None:
            masks[STONES[ch]] |= 1 << i
    if side_text not in SIDES:
        raise InputError(f"The side to move must be w or b, not '{side_text}'.")
    side = SIDES[side_text]
    try:
        hands = [int(parts[2]), int(parts[3])]
        pending, quiet, turn = int(parts[4]), int(parts[5]), int(parts[6])
    except ValueError:
        raise InputError("The FEN's hands, pending removals, quiet turns and turn must be whole numbers.") from None
    pieces = rules.PiecesCount
    for colour in (0, 1):
        on_board = bin(masks[colour]).count("1")
        if not 0 <= hands[colour] <= pieces:
            raise InputError(f"{NAMES[colour].capitalize()} cannot have {hands[colour]} stones in hand with {pieces} pieces a side.")
        if on_board + hands[colour] > pieces:
            raise InputError(f"{NAMES[colour].capitalize()} has {on_board} stones on the board and {hands[colour]} in hand, more than {pieces}.")
    if not 0 <= pending <= rules.max_removals:
        raise InputError(f"{pending} removals pending is impossible; at most {rules.max_removals} under these rules.")
    if pending and not any(masks[side] & m == m for m in mills):
        raise InputError(f"{NAMES[side].capitalize()} owes a removal but has no mill.")
    if pending and not masks[1 - side]:
        raise InputError(f"{NAMES[side].capitalize()} owes a removal but {NAMES[1 - side]} has no stone on the board.")
    if quiet < 0 or turn < 1:
        raise InputError("Quiet turns must be 0 or more and the turn number 1 or more.")
    if not rules.MayMoveInPlacingPhase and (hands[0] or hands[1]):
        # Placements alternate, white first: after a white placement black holds one stone more.
        mover = side if pending == 0 else 1 - side   # the side whose placement is next
        expected = hands[0] if mover == 0 else hands[0] + 1
        if hands[1] != expected:
            raise InputError(f"With {hands[0]} white and {hands[1]} black stones in hand, it cannot be "
                             f"{NAMES[side]}'s turn{' to remove' if pending else ''}: placements alternate, white first.")
    return (masks[0], masks[1], hands[0], hands[1], side, pending, quiet, turn)
