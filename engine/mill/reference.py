"""A slow, plain Mill referee written from the rules, to check pyrope._mill against.

The tests use it as their oracle (tests/support/mill_reference.py names it there); it lives in the package
because `pyrope mill match`'s reference player searches with it (mill/match/players.py), and a
package module must not import from tests/. It imports nothing of Pyrope's and shares no table with
the core: points, adjacency and mills come from coordinates on the 7x7 grid (a point is adjacent to
the nearest point along its row, column or -- with diagonals -- its diagonal, never across the
centre), the position is a dict, repetitions compare whole positions.
A turn is (from, to, frozenset of removed points) with names like "d6" and None for no point.
"""
from __future__ import annotations

RING_COORDS = ((0, 3, 6), (1, 3, 5), (2, 3, 4))


def name(x: int, y: int) -> str:
    return "abcdefg"[x] + str(y + 1)


def board_points() -> list[tuple[int, int]]:
    points = set()
    for coords in RING_COORDS:
        for x in coords:
            for y in coords:
                if (x, y) != (coords[1], coords[1]):
                    points.add((x, y))
    return sorted(points)


def geometry(diagonals: bool):
    """(adjacency: name -> set of names, mills: list of frozensets of names)."""
    points = board_points()
    pset = set(points)
    directions = [(1, 0), (0, 1)] + ([(1, 1), (1, -1)] if diagonals else [])
    adjacency = {name(*p): set() for p in points}
    mills = []
    for dx, dy in directions:
        for x, y in points:
            if (dx, dy) not in ((1, 0), (0, 1)) and abs(x - 3) != abs(y - 3):
                continue
            chain = [(x, y)]
            cx, cy = x, y
            while len(chain) < 3:
                nxt = None
                for step in range(1, 7):
                    px, py = cx + dx * step, cy + dy * step
                    if (px, py) == (3, 3) or not (0 <= px <= 6 and 0 <= py <= 6):
                        break
                    if (px, py) in pset:
                        nxt = (px, py)
                        break
                if nxt is None:
                    break
                # a diagonal runs through corners only, one ring per step
                if dx and dy and (abs(nxt[0] - cx) != 1 or abs(nxt[0] - 3) != abs(nxt[1] - 3)):
                    break
                chain.append(nxt)
                cx, cy = nxt
            for a, b in zip(chain, chain[1:]):
                adjacency[name(*a)].add(name(*b))
                adjacency[name(*b)].add(name(*a))
            if len(chain) == 3:
                mills.append(frozenset(name(*p) for p in chain))
    return adjacency, sorted(set(mills), key=sorted)


class Referee:
    """One game. rules: a dict of Sanmill option names to values (every option given)."""

    def __init__(self, rules: dict):
        self.rules = rules
        self.adjacency, self.mills = geometry(rules["HasDiagonalLines"])
        self.stones = {}  # name -> 0 white / 1 black
        self.hand = [rules["PiecesCount"], rules["PiecesCount"]]
        self.side = 0
        self.pending = 0
        self.quiet = 0
        self.turn = 1
        self.seen = [self.snapshot()]

    @classmethod
    def from_fen(cls, rules: dict, fen: str) -> "Referee":
        """A game from a position in Pyrope's Mill FEN, read from its documentation (docs/mill.md)."""
        board, side, white_hand, black_hand, pending, quiet, turn = fen.split()
        referee = cls(rules)
        for row, rank in zip(FEN_RANKS, board.split("/"), strict=True):
            for point, stone in zip(row, rank, strict=True):
                if stone != ".":
                    referee.stones[point] = "O@".index(stone)
        referee.hand = [int(white_hand), int(black_hand)]
        referee.side, referee.pending = "wb".index(side), int(pending)
        referee.quiet, referee.turn = int(quiet), int(turn)
        referee.seen = [referee.snapshot()]
        return referee

    def snapshot(self):
        return (frozenset(self.stones.items()), tuple(self.hand), self.side, self.pending)

    def own(self, colour):
        return {p for p, c in self.stones.items() if c == colour}

    def takeable(self, opp: set) -> set:
        if self.rules["MayRemoveFromMillsAlways"]:
            return set(opp)
        protected = set()
        for mill in self.mills:
            if mill <= opp:
                protected |= mill
        free = opp - protected
        return free if free else set(opp)

    def removal_sets(self, opp: set, count: int) -> set:
        if count == 0 or not opp:
            return {frozenset()}
        result = set()
        for p in self.takeable(opp):
            for rest in self.removal_sets(opp - {p}, count - 1):
                result.add(rest | {p})
        return result

    def earned(self, own_after: set, to: str) -> int:
        closed = sum(1 for mill in self.mills if to in mill and mill <= own_after)
        if closed == 0:
            return 0
        return closed if self.rules["MayRemoveMultiple"] else 1

    def turns(self) -> set:
        """Every complete turn; empty when the game is over."""
        if self.ended_by_rule() is not None:
            return set()
        return self.generate()

    def moves_of(self, colour: int) -> list:
        """(from, to) placements, slides and flights of `colour`, removals aside."""
        own = self.own(colour)
        empty = [p for p in self.adjacency if p not in self.stones]
        bases = []
        if self.hand[colour]:
            bases += [(None, t) for t in empty]
        if not self.hand[colour] or self.rules["MayMoveInPlacingPhase"]:
            flying = (not self.hand[colour] and self.rules["MayFly"] and len(own) <= self.rules["FlyPieceCount"])
            for f in own:
                targets = empty if flying else [t for t in self.adjacency[f] if t not in self.stones]
                bases += [(f, t) for t in targets]
        return bases

    def generate(self) -> set:
        us = self.side
        own, opp = self.own(us), self.own(1 - us)
        if self.pending:
            return {(None, None, r) for r in self.removal_sets(opp, self.pending)}
        if len(self.stones) == 24:      # a full board played on (BoardFullAction 1-3): take one
            return {(None, None, r) for r in self.removal_sets(opp, 1)}
        result = set()
        for f, t in self.moves_of(us):
            after = (own - {f}) | {t}
            earned = self.earned(after, t)
            if earned == 0 and self.rules["BoardFullAction"] == 2 and f is None and len(self.stones) == 23:
                earned = 1              # the placement filling the board takes first
            for r in self.removal_sets(opp, earned):
                result.add((f, t, r))
        if result:
            return result
        action = self.rules["StalemateAction"]     # blocked
        if action == 1:
            return {(None, None, frozenset())}     # a pass
        if action == 3:
            return {(None, None, r) for r in self.removal_sets(opp, 1)}
        if action == 2:
            for taken in self.takeable(opp):
                movers = [f for f in own if taken in self.adjacency[f]]
                if not movers:
                    result.add((None, None, frozenset({taken})))
                for f in movers:
                    after = (own - {f}) | {taken}
                    for r in self.removal_sets(opp - {taken}, self.earned(after, taken)):
                        result.add((f, taken, r | {taken}))
        return result

    def play(self, turn) -> None:
        f, t, removed = turn
        us = self.side
        full = len(self.stones) == 24
        owed = 0
        if self.rules["BoardFullAction"] == 1 and full and f is None and t is None and removed and not self.pending:
            owed = 1                    # White took first; Black takes next
        if (self.rules["BoardFullAction"] == 2 and f is None and t is not None and len(self.stones) == 23
                and self.earned(self.own(us) | {t}, t) == 0):
            owed = 1                    # the filling placement took first; the other side takes next
        for r in removed:               # first: a blocked side may slide into the point it took
            del self.stones[r]
        if f is not None:
            del self.stones[f]
        if t is not None:
            self.stones[t] = us
            if f is None:
                self.hand[us] -= 1
        self.quiet = 0 if (f is None and t is not None) or removed else self.quiet + 1
        self.pending = owed
        self.side = 1 - us
        self.turn += 1
        self.seen.append(self.snapshot())

    def ended_by_rule(self):
        """(result, reason) for every end but a blocked side, else None."""
        us, them = self.side, 1 - self.side
        win_us, win_them = ("1-0", "0-1") if us == 0 else ("0-1", "1-0")
        if len(self.own(us)) + self.hand[us] < 3:
            return win_them, "fewer than three stones"
        if len(self.own(them)) + self.hand[them] < 3:
            return win_us, "fewer than three stones"
        if not self.pending and len(self.stones) == 24 and self.rules["BoardFullAction"] in (0, 4):
            return ("0-1" if self.rules["BoardFullAction"] == 0 else "1/2-1/2"), "board full"
        if self.rules["ThreefoldRepetitionRule"] and self.seen.count(self.seen[-1]) >= 3:
            return "1/2-1/2", "threefold repetition"
        limit, endgame = self.rules["NMoveRule"], self.rules["EndgameNMoveRule"]
        three = any(len(self.own(c)) == 3 for c in (0, 1))
        if self.hand == [0, 0] and three and 0 < endgame < limit:
            limit = endgame
        if limit and self.quiet >= limit:
            return "1/2-1/2", "move count"
        return None

    def outcome(self):
        """(result, reason or None)."""
        ended = self.ended_by_rule()
        if ended is not None:
            return ended
        if not self.generate():
            if self.rules["StalemateAction"] == 0:
                return ("0-1" if self.side == 0 else "1-0"), "blocked"
            return "1/2-1/2", "blocked"
        return "*", None

    def perft(self, depth: int) -> int:
        turns = self.turns()
        if depth == 1:
            return len(turns)
        total = 0
        for turn in turns:
            saved = self.save()
            self.play(turn)
            total += self.perft(depth - 1)
            self.restore(saved)
        return total

    def save(self) -> tuple:
        """What restore() needs to take back the turns played after this call."""
        return dict(self.stones), list(self.hand), self.side, self.pending, self.quiet, self.turn, len(self.seen)

    def restore(self, saved: tuple) -> None:
        self.stones, self.hand, self.side, self.pending, self.quiet, self.turn, n = saved
        del self.seen[n:]

    def fen(self) -> str:
        """The position in Pyrope's Mill FEN, written from its documentation."""
        ranks = ["".join({0: "O", 1: "@"}.get(self.stones.get(p), ".") for p in row) for row in FEN_RANKS]
        return (f"{'/'.join(ranks)} {'wb'[self.side]} {self.hand[0]} {self.hand[1]} "
                f"{self.pending} {self.quiet} {self.turn}")


FEN_RANKS = [[name(x, y) for x in range(7) if (x, y) in board_points()] for y in range(6, -1, -1)]


def parse_turn(text: str):
    """Notation to a reference turn, independent of pyrope.mill.notation."""
    if text == "pass":
        return None, None, frozenset()
    if text.startswith("x") and len(text) > 3:      # xd1a1-d1: a blocked side's removal, then slide
        f, t, takes = parse_turn(text[3:])
        return f, t, takes | {text[1:3]}
    removed = text.split("x")
    head, takes = removed[0], frozenset(removed[1:])
    if "-" in head:
        f, t = head.split("-")
        return f, t, takes
    return None, (head or None), takes


assert len(geometry(False)[1]) == 16 and len(geometry(True)[1]) == 20
assert sorted(len(n) for n in geometry(False)[0].values()) == [2] * 12 + [3] * 8 + [4] * 4
assert sorted(len(n) for n in geometry(True)[0].values()) == [3] * 16 + [4] * 8
