"""MillBoard: a Mill game under chosen rules, in notation and FEN, over the compiled core.

Moves are complete turns (placement, slide or flight plus its removals). Every bad input --
variant, option, token, FEN -- raises ValueError with one sentence and leaves the board unchanged.
"""
from __future__ import annotations

import dataclasses
from itertools import permutations

from .._mill import MillCore
from . import fen as fen_io
from .geometry import POINTS
from .notation import PASS, format_move, join_split, parse
from .rules import MillRules

RESULTS = {0: "*", 1: "1-0", 2: "0-1", 3: "1/2-1/2"}
REASONS = {1: "fewer than three stones", 2: "blocked", 3: "threefold repetition", 4: "move count", 5: "board full"}
NAMES = ("white", "black")


class MillBoard:
    def __init__(self, fen: str | None = None, variant: str = "nine", **options):
        self.rules = MillRules.from_options(variant, **options)
        self._mills = [sum(1 << p for p in line) for line in self.rules.lines()]
        self._core = MillCore()
        self._core.set_rules(self.rules.core_values(), self.rules.lines())
        self.set_fen(fen if fen is not None else fen_io.start_fen(self.rules))

    # -- position ---------------------------------------------------------------------------
    def set_fen(self, fen: str) -> None:
        position = fen_io.read(fen, self.rules, self._mills)  # raises before anything changes
        self._core.set_position(*position)
        self._root = fen_io.write(position)
        self.move_stack: list[str] = []     # the turns played since the FEN, in notation

    def copy(self) -> "MillBoard":
        """The same rules, position and history (repetitions count across the copy)."""
        board = MillBoard(self._root, **dataclasses.asdict(self.rules))
        for turn in self.move_stack:        # complete turns already: nothing to join
            board.push(turn)
        return board

    def fen(self) -> str:
        return fen_io.write(self._core.position())

    @property
    def root_fen(self) -> str:
        """The FEN the game began from (move_stack is played from it)."""
        return self._root

    @property
    def from_start(self) -> bool:
        """Whether the game began at the rules' empty board."""
        return self._root == fen_io.start_fen(self.rules)

    @property
    def key(self) -> int:
        """Zobrist key: stones, side to move, stones in hand and removals pending."""
        return self._core.key

    @property
    def turn(self) -> str:
        return NAMES[self._core.position()[4]]

    @property
    def white_to_move(self) -> bool:
        return self._core.position()[4] == 0

    # -- moves ------------------------------------------------------------------------------
    def legal_moves(self) -> list[str]:
        position = self._core.position()
        opp = position[1 - position[4]]
        return [self._text(m, opp) for m in self._core.moves()]

    def push(self, text: str) -> str:
        """Play one complete turn (split tokens inside one string are joined); returns it in notation."""
        tokens = text.split()
        turns = tokens if len(tokens) == 1 else self.join_turns(tokens)
        if len(turns) != 1:
            raise ValueError(f"'{text}' holds {len(turns)} turns; push takes one.")
        move = self._resolve(turns[0])
        text = self._text(move)
        self._core.push(*move)
        self.move_stack.append(text)
        return text

    def join_turns(self, tokens) -> list[str]:
        """Sanmill's split form joined into complete turns as they are played from here: a removal
        token (`xb4`) joins the turn before it when that turn earns it, and a slide joins a lone
        removal before it when a blocked side's turn goes on with it (StalemateAction 2); else
        each starts a turn. Past a turn that cannot be played, tokens are joined by form alone."""
        tokens = [token.strip() for token in tokens]
        board = self.copy()
        turns: list[str] = []
        for i, token in enumerate(tokens):
            if turns and (token.lower().startswith("x") or _lone_removal(turns[-1])):
                joined = turns[-1] + token
                if board._begins_turn(joined):
                    turns[-1] = joined
                    continue
            if turns:
                try:
                    board.push(turns[-1])
                except ValueError:
                    return turns[:-1] + join_split([turns[-1]] + tokens[i:])
            turns.append(token)
        return turns

    def _begins_turn(self, text: str) -> bool:
        """Whether `text` is a legal turn here, or the first part of one (removals missing)."""
        try:
            self._resolve(text)
            return True
        except ValueError:
            return bool(self.completions(text))

    def push_moves(self, tokens) -> list[str]:
        """Play a sequence of turns, split form accepted; on a fault nothing of it stays played."""
        if isinstance(tokens, str):
            tokens = tokens.split()
        done: list[str] = []
        try:
            for turn in self.join_turns(list(tokens)):
                done.append(self.push(turn))
        except ValueError as error:
            for _ in done:
                self.pop()
            raise ValueError(f"Turn {len(done) + 1}: {error}") from None
        return done

    def pop(self) -> str:
        if self._core.ply == 0:
            raise IndexError("There is no turn to take back.")
        frm, to, removed = self._core.pop()
        self.move_stack.pop()
        return self._text((frm, to, removed))

    def completions(self, text: str) -> list[str]:
        """The complete turns that `text` begins but lacks removals of (Sanmill's split form gives
        a turn one token at a time), the given removals first; [] if it begins none."""
        frm, to, removals = parse(text)
        position = self._core.position()
        opp = position[1 - position[4]]
        given = sum(1 << r for r in removals)
        if len(set(removals)) != len(removals) or not self._order_valid(removals, opp):
            return []
        turns = []
        for move_frm, move_to, removed in self._core.moves():
            if (move_frm, move_to) != (frm, to) or removed & given != given or removed == given:
                continue
            rest = [i for i in range(24) if removed >> i & 1 and not given >> i & 1]
            order = next((o for o in permutations(rest) if self._order_valid(removals + list(o), opp)), None)
            if order is not None:
                turns.append(format_move(frm, to, removals + list(order)))
        if not turns and frm < 0 and to < 0 and len(removals) == 1:
            # A blocked side's removal whose slide into the freed point is still to come.
            turns = [self._text(m, opp) for m in self._core.moves()
                     if m[0] >= 0 and m[1] == removals[0] and m[2] >> removals[0] & 1]
        return turns

    # -- game end ---------------------------------------------------------------------------
    def result(self) -> str:
        return RESULTS[self._core.status() & 15]

    def termination(self) -> str | None:
        reason = self._core.status() >> 4
        return REASONS.get(reason)

    def is_game_over(self) -> bool:
        return self._core.status() != 0

    def outcome(self) -> tuple[str, str] | None:
        """(result, reason) once the game is over, as chess's Board.outcome()."""
        return (self.result(), self.termination()) if self.is_game_over() else None

    def has_legal_moves(self) -> bool:
        return not self.is_game_over()      # a game goes on exactly while a turn is legal

    def perft(self, depth: int) -> int:
        return self._core.perft(depth)

    # -- notation helpers -------------------------------------------------------------------
    def _removable(self, opp: int) -> int:
        if self.rules.MayRemoveFromMillsAlways:
            return opp
        in_mill = 0
        for m in self._mills:
            if opp & m == m:
                in_mill |= m
        return opp & ~in_mill or opp

    def _order_valid(self, order, opp: int) -> bool:
        for r in order:
            if not self._removable(opp) >> r & 1:
                return False
            opp &= ~(1 << r)
        return True

    def _text(self, move, opp: int | None = None) -> str:
        """Notation for a core move of the current position (opp: the opponent's stones)."""
        frm, to, removed = move
        if not removed:
            return format_move(frm, to, [])
        if opp is None:
            position = self._core.position()
            opp = position[1 - position[4]]
        # A slide into a point it removes from took that stone first (a blocked side's turn).
        lead = [to] if frm >= 0 and removed >> to & 1 else []
        points = sorted((i for i in range(24) if removed >> i & 1 and i not in lead), key=POINTS.__getitem__)
        order = next(o for o in permutations(points) if self._order_valid(lead + list(o), opp))
        return format_move(frm, to, lead + list(order))

    def _resolve(self, text: str) -> tuple[int, int, int]:
        """The core's move for `text`, or ValueError saying why it is not legal here."""
        frm, to, removals = parse(text)
        white, black, hand_w, hand_b, side, pending, _, _ = self._core.position()
        if self.is_game_over():
            raise ValueError(f"The game is over ({self.result()}, {self.termination()}); '{text}' cannot be played.")
        own, opp = (white, black) if side == 0 else (black, white)
        mask = sum(1 << r for r in removals)
        if len(set(removals)) != len(removals):
            raise ValueError(f"'{text}' takes the same stone twice.")
        for r in removals:
            if not opp >> r & 1:
                raise ValueError(f"'{text}' takes {POINTS[r]}, which holds no {NAMES[1 - side]} stone.")
        if not self._order_valid(removals, opp):
            raise ValueError(f"'{text}' takes a stone in a mill while {NAMES[1 - side]} has stones outside mills.")
        candidates = [m for m in self._core.moves() if m[0] == frm and m[1] == to]
        for m in candidates:
            if m[2] == mask:
                return m
        if candidates:
            need = bin(candidates[0][2]).count("1")
            raise ValueError(f"'{text}' must take {need} stone{'s' if need != 1 else ''}, not {len(removals)}.")
        raise ValueError(self._why_not(text, frm, to, own | opp, own, side, pending, (hand_w, hand_b)[side]))

    def _why_not(self, text, frm, to, occupied, own, side, pending, hand) -> str:
        name = NAMES[side]
        if text.strip().lower() == PASS:
            return f"'{text}': only a blocked side passes, and only under StalemateAction 1."
        if pending:
            return f"{name.capitalize()} owes {pending} removal{'s' if pending > 1 else ''} first ('x' and a point), not '{text}'."
        if to < 0:
            return f"'{text}' is only a removal, but no removal is owed."
        if occupied >> to & 1:
            return f"'{text}' goes to {POINTS[to]}, which is not empty."
        if frm < 0:
            return f"'{text}' places a stone, but {name} has none in hand."
        if not own >> frm & 1:
            return f"'{text}' moves from {POINTS[frm]}, which holds no {name} stone."
        if hand and not self.rules.MayMoveInPlacingPhase:
            return f"'{text}' moves a stone while {name} still has stones to place."
        return f"'{text}' moves to a point not adjacent to {POINTS[frm]}, and {name} may not fly."


def _lone_removal(turn: str) -> bool:
    """`xd1`: a removal with no placement or slide (a slide may follow it as the same turn)."""
    return turn.lower().startswith("x") and "-" not in turn and len(turn) == 3
