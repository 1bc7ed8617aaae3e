"""A Mill game in a match: openings, one game between two players refereed by the rules core, its
text record; MillGame is the shared match runner's Game for Mill.

The referee is MillBoard (the compiled core): a turn it refuses is an illegal move, and the game ends
as the rules end it (fewer than three stones, blocked, threefold repetition, the move-count rule, a
full board), or by --maxturns, or when a player's own game has a turn limit (OpenSpiel's 200).

Openings: 2-4 (--openings MIN-MAX) random placements a side, drawn from --seed and the opening's
number (so more games add openings and keep the first ones): each is a placement that earns no
removal, and an opening that leaves the side to move a mill to close is drawn again, so that no
opening begins a stone down, nor hands one over at once. Each opening is played twice, colours
swapped.

Positions (--positions FILE, Mill FENs) replace the openings: each is played twice, colours swapped.

The record is PGN-like text in Pyrope's Mill notation (docs/mill.md, "Matches"): tags (SetUp and
FEN for a game set up from a position), then the turns numbered in pairs, each with a comment
(`opening`, or the engine's score in stones, its depth and the seconds it took), and the result;
parse_records reads it back.
"""
from __future__ import annotations

import asyncio
import dataclasses
import random
import re
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, TextIO, Tuple

from ...match.clock import BLACK, WHITE, Clock, TimeControl
from ...match.runner import Ending, GameTask, Match, draw, fault_ending, loss
from ..board import MillBoard
from ..rules import VARIANTS, MillRules
from .players import (EngineCrashed, MctsPlayer, PerfectPlayer, Player, PlayerFault, PlayerSpec, RandomPlayer,
                      ReferencePlayer)
from .ugi import UgiEngine

# The rules' game ends (MillBoard.termination()): the sentence for a loss of {loser}, and for a draw.
ENDS = {
    "fewer than three stones": ("{loser} has fewer than three stones", None),
    "blocked": ("{loser} is blocked", "Draw: {side} is blocked"),
    "threefold repetition": (None, "Draw by threefold repetition"),
    "move count": (None, "Draw by the move-count rule"),
    "board full": ("{loser} loses: the board is full", "Draw: the board is full"),
}
PLAYERS = {"ugi": UgiEngine, "pyrope": UgiEngine, "random": RandomPlayer, "reference": ReferencePlayer,
           "mcts": MctsPlayer, "perfect": PerfectPlayer}


@dataclass(frozen=True)
class Opening:
    """Where a game begins: a position (None: the empty board) and the turns played from it."""
    fen: Optional[str] = None
    turns: Tuple[str, ...] = ()


def random_openings(rules: MillRules, count: int, low: int, high: int, seed: int) -> List[Opening]:
    """`count` openings of low-high placements a side (0: the empty board), opening k drawn from
    (seed, k) alone; placements that earn a removal are not drawn, and an opening that leaves the
    side to move a mill to close is drawn again (from the same generator)."""
    openings = []
    for number in range(count):
        rng = random.Random(f"mill-opening:{seed}:{number}")
        while True:
            board = MillBoard(**dataclasses.asdict(rules))
            for _ in range(2 * rng.randint(low, high)):
                quiet = [turn for turn in board.legal_moves() if "-" not in turn and "x" not in turn]
                if not quiet or board.is_game_over():
                    break
                board.push(rng.choice(quiet))
            if not any("x" in turn for turn in board.legal_moves()):
                break
        openings.append(Opening(turns=tuple(board.move_stack)))
    return openings


def read_positions(path: str, rules: MillRules) -> List[Opening]:
    """The positions of a file, one Mill FEN a line (blank lines and `#` comments skipped);
    ValueError names the file, the line and what is wrong with it."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"--positions: cannot read {path}: {error}") from None
    openings = []
    for number, line in enumerate(lines, 1):
        fen = line.split("#", 1)[0].strip()
        if not fen:
            continue
        try:
            board = MillBoard(fen, **dataclasses.asdict(rules))
        except ValueError as error:
            raise ValueError(f"--positions: {path}, line {number}: {error}") from None
        if board.is_game_over():
            raise ValueError(f"--positions: {path}, line {number}: the game is already over ({board.termination()})")
        openings.append(Opening(fen=board.fen()))
    if not openings:
        raise ValueError(f"--positions: {path} holds no position")
    return openings


def natural_end(board: MillBoard) -> Optional[Ending]:
    """The rules' end of the game, if it is over."""
    outcome = board.outcome()
    if outcome is None:
        return None
    result, kind = outcome
    lost, drawn = ENDS[kind]
    if result == "1/2-1/2":
        side = "White" if board.white_to_move else "Black"
        return draw(kind, "normal", drawn.replace("{side}", side))
    return loss(WHITE if result == "0-1" else BLACK, kind, "normal", lost)


@dataclass
class MillRecord:
    """A game's record: its tags, and its turns with their comments."""
    tags: Dict[str, str]
    turns: List[Tuple[str, str]] = field(default_factory=list)     # (turn, comment)

    def text(self) -> str:
        lines = [f'[{key} "{value}"]' for key, value in self.tags.items()]
        words = []
        black_first = self.tags.get("FEN", "").split()[1:2] == ["b"]     # set up with Black to move
        if black_first and self.turns:
            words.append("1...")
        for index, (turn, comment) in enumerate(self.turns, black_first):
            if index % 2 == 0:
                words.append(f"{index // 2 + 1}.")
            words.append(turn + (f" {{{comment}}}" if comment else ""))
        words.append(self.tags["Result"])
        body, line = [], ""
        for word in " ".join(words).split(" "):         # lines of at most 100 characters
            if line and len(line) + 1 + len(word) > 100:
                body.append(line)
                line = word
            else:
                line = f"{line} {word}" if line else word
        return "\n".join(lines + [""] + body + [line]) + "\n"


def parse_records(text: str) -> List[MillRecord]:
    """The records of a record file (as MillRecord.text writes them)."""
    records = []
    for chunk in re.split(r"\n\s*\n(?=\[)", text.strip()):
        tags = dict(re.findall(r'^\[(\w+) "(.*)"\]$', chunk, re.MULTILINE))
        body = "\n".join(line for line in chunk.splitlines() if not line.startswith("["))
        turns = [(turn, " ".join(comment.split()))
                 for turn, comment in re.findall(r"(?:\d+\.\s+)?(\S+)\s+\{([^}]*)\}", body)]
        records.append(MillRecord(tags, turns))
    return records


def comment(reply, elapsed: float) -> str:
    """'+1.25/9 0.101s' (score in stones, the mover's view), '+M3/12 0.050s', or '0.002s'."""
    if reply.mate is not None:
        return f"{'+' if reply.mate > 0 else '-'}M{abs(reply.mate)}/{reply.depth or 0} {elapsed:.3f}s"
    if reply.score is not None and abs(reply.score) < 100_000:
        return f"{reply.score / 100:+.2f}/{reply.depth or 0} {elapsed:.3f}s"
    return f"{elapsed:.3f}s"


def go_words(tc: TimeControl, clock: Clock, side: bool) -> str:
    """The UGI `go` arguments for `side`'s turn: its clock (p1 is White) or fixed limits."""
    words = []
    if tc.base is not None:
        words += [f"p1time {int(1000 * clock.remaining[WHITE])}", f"p2time {int(1000 * clock.remaining[BLACK])}",
                  f"p1inc {int(1000 * tc.increment)}", f"p2inc {int(1000 * tc.increment)}"]
        if clock.moves_to_go(side):
            words.append(f"movestogo {clock.moves_to_go(side)}")
    elif tc.movetime is not None:
        words.append(f"movetime {max(1, int(1000 * tc.movetime))}")
    if tc.depth is not None:
        words.append(f"depth {tc.depth}")
    if tc.nodes is not None:
        words.append(f"nodes {tc.nodes}")
    return " ".join(words)


def limits_tag(tc: TimeControl) -> str:
    """The TimeControl tag: PGN's form of a clock or movetime, then a depth or node limit ('-': none)."""
    words = [tc.pgn()] if tc.pgn() != "-" else []
    words += [f"depth {tc.depth}"] if tc.depth else []
    words += [f"nodes {tc.nodes}"] if tc.nodes else []
    return " ".join(words) or "-"


class MillGame:
    """The runner's Game for Mill: players from PlayerSpecs, games under `rules` refereed by
    MillBoard, text records. `seed` seeds the built-in players with each game's number."""

    def __init__(self, rules: MillRules, variant: str, tc: TimeControl, margin: float = 0.1,
                 stall_timeout: float = 60.0, maxturns: Optional[int] = None, event: str = "?", seed: int = 0):
        self.rules, self.variant, self.tc, self.margin = rules, variant, tc, margin
        self.stall_timeout, self.maxturns, self.event, self.seed = stall_timeout, maxturns, event, seed

    def player(self, spec: PlayerSpec) -> Player:
        return PLAYERS[spec.kind](spec)

    def tags(self, task: GameTask, white: Player, black: Player) -> Dict[str, str]:
        preset = VARIANTS[self.variant]
        changed = " ".join(f"{name}={str(value).lower() if isinstance(value, bool) else value}"
                           for name, value in dataclasses.asdict(self.rules).items() if getattr(preset, name) != value)
        return {"Event": self.event, "Date": time.strftime("%Y.%m.%d"), "Round": str(task.number),
                "White": white.spec.name, "Black": black.spec.name, "Variant": self.variant, "Rules": changed or "-",
                "TimeControl": limits_tag(self.tc)}

    async def play(self, task: GameTask, white: Player, black: Player) -> Tuple[Ending, MillRecord]:
        """Play one game from its opening. A player at fault loses and is closed (an engine starts
        again for its next game); EngineStartError propagates."""
        players = {WHITE: white, BLACK: black}
        opening: Opening = task.opening
        board = MillBoard(opening.fen, **dataclasses.asdict(self.rules))
        record = MillRecord(self.tags(task, white, black))
        if opening.fen is not None:
            record.tags.update(SetUp="1", FEN=opening.fen)
        for turn in opening.turns:
            record.turns.append((board.push(turn), "opening"))
        ending: Optional[Ending] = None
        for side, player in players.items():
            try:
                await player.new_game(self.rules, f"{self.seed}:{task.number}")
            except (asyncio.TimeoutError, PlayerFault) as error:
                await player.close()
                ending = loss(side, "engine crash", "abandoned", "{loser} failed to start a game: " + str(error), True)
                break
        limits = [limit for limit in (self.maxturns, white.turn_limit, black.turn_limit) if limit is not None]
        clock = Clock(self.tc)
        while ending is None:
            ending = natural_end(board)
            if ending is None and limits and len(board.move_stack) >= min(limits):
                ending = draw("max turns", "adjudication", f"Draw by the turn limit ({min(limits)} turns)")
            if ending is not None:
                break
            side = board.white_to_move
            player = players[side]
            allowance = clock.allowance(side, self.margin) if player.timed else None
            timeout = (self.stall_timeout if allowance is None else allowance) if player.timed else None
            start = time.perf_counter()
            try:
                reply = await asyncio.wait_for(player.play(board, go_words(self.tc, clock, side)), timeout)
            except (asyncio.TimeoutError, PlayerFault) as error:
                await player.close()        # hung, dead or confused: started again for its next game
                ending = fault_ending(side, error, allowance, self.stall_timeout, isinstance(error, EngineCrashed))
                break
            elapsed = time.perf_counter() - start
            if player.timed and not clock.charge(side, elapsed, self.margin):
                ending = loss(side, "time forfeit", "time forfeit", "{loser} loses on time: " +
                              f"{elapsed:.3f}s used, {clock.allowance(side, self.margin):.3f}s allowed", True)
                break
            try:
                turn = board.push(reply.turn)
            except ValueError as error:
                await player.close()
                ending = loss(side, "illegal move", "rules infraction",
                              f"{{loser}} makes an illegal move: {reply.turn} ({error})", True)
                break
            record.turns.append((turn, comment(reply, elapsed)))
        record.tags.update(Result=ending.result, Termination=ending.termination, Reason=ending.reason)
        return ending, record

    def write_record(self, record: MillRecord, file: TextIO) -> None:
        print(record.text(), file=file)

    def report_lines(self, match: Match) -> List[str]:
        counts = ", ".join(f"{kind}: {count}" for kind, count in match.draws.most_common())
        return [f"Draws: {counts or 'none'}"]
