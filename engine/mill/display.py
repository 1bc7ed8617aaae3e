"""The Mill board drawn in text, with coordinates: the points (O white, @ black, . empty) and the
lines between them, drawn from the rules' own lines, so diagonals appear exactly when they exist.

    7 O-----------.-----------.
      |           |           |
    6 |   .-------.-------.   |
    ...
        a   b   c   d   e   f   g
"""
from __future__ import annotations

from .board import MillBoard
from .geometry import POINTS

COLUMN, ROW = 4, 2      # characters between files, lines between ranks


def place(name: str) -> tuple[int, int]:
    """(row, column) of a point in the drawing."""
    return (7 - int(name[1])) * ROW, (ord(name[0]) - ord("a")) * COLUMN


def draw(board: MillBoard) -> str:
    grid = [[" "] * (6 * COLUMN + 1) for _ in range(6 * ROW + 1)]
    for line in board.rules.lines():
        for a, b in zip(line, line[1:]):
            (row_a, col_a), (row_b, col_b) = place(POINTS[a]), place(POINTS[b])
            if row_a == row_b:
                for col in range(min(col_a, col_b) + 1, max(col_a, col_b)):
                    grid[row_a][col] = "-"
            elif col_a == col_b:
                for row in range(min(row_a, row_b) + 1, max(row_a, row_b)):
                    grid[row][col_a] = "|"
            else:   # a diagonal: one stroke halfway, leaning the way the line goes
                falling = (row_b - row_a) * (col_b - col_a) > 0
                grid[(row_a + row_b) // 2][(col_a + col_b) // 2] = "\\" if falling else "/"
    stones = board.fen().split()[0].replace("/", "")     # in POINTS order
    for name, stone in zip(POINTS, stones):
        row, col = place(name)
        grid[row][col] = stone
    rows = [(f"{7 - index // ROW} " if index % ROW == 0 else "  ") + "".join(cells).rstrip()
            for index, cells in enumerate(grid)]
    rows.append("  " + "".join(f"{file:<{COLUMN}}" for file in "abcdefg").rstrip())
    return "\n".join(rows)


def describe(board: MillBoard) -> str:
    """The drawing, whose turn it is and the stones in hand (for a person and for `d`)."""
    fields = board.fen().split()
    hands = f"in hand: white {fields[2]}, black {fields[3]}"
    pending = f", {fields[4]} removal(s) owed" if fields[4] != "0" else ""
    return f"{draw(board)}\n\n{board.turn.capitalize()} to move; {hands}{pending}"
