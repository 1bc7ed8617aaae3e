"""The players of `pyrope mill match`: how one is given on the command line, and the built-in ones.

A player is `--player [KIND] [name=NAME] [KEY=VALUE ...]`, later tokens overriding earlier ones:

  cmd=COMMAND [dir=DIR] [option.NAME=VALUE ...]   an external program speaking UGI (ugi.py)
  pyrope [option.NAME=VALUE ...]                 Pyrope's own engine: its UGI front-end in this process
  random [seed=N]                                 uniform among the legal complete turns
  reference [depth=2] [seed=N]                    a fixed-depth search on the pure-Python rules
                                                  reference (pyrope.mill.reference), material only
  mcts [simulations=10000] [seed=N]               OpenSpiel's MCTS with random rollouts (the `openspiel`
                                                  extra): nine men's morris as OpenSpiel plays it
  perfect [dir=DIR] [seed=N]                      the endgame databases' perfect turn (Pyrope's shipped
                                                  classes, or those in DIR), ties at random; in
                                                  positions the databases hold, and only there

Every player has the same face (Player): new_game(rules, seed), play(board, go) -> Reply, close().
The built-ins that are not engines (random, reference, mcts, perfect) have no clock: they are not
`timed`, and they play the same turns for the same game seed. The reference and MCTS players think on a
worker thread, so that the other games' clocks keep running meanwhile.
"""
from __future__ import annotations

import asyncio
import dataclasses
import os
import random
import shlex
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Protocol, Sequence

from ...match.options import split_key_value
from ..board import MillBoard
from ..db.probe import DEFAULT_DIR, MillDatabase
from ..geometry import POINTS
from ..notation import parse
from ..reference import Referee, parse_turn
from ..rules import VARIANTS, MillRules

# The built-in kinds and the whole-number parameters each takes, with their defaults.
BUILTINS: Dict[str, Dict[str, int]] = {
    "pyrope": {},
    "random": {"seed": 0},
    "reference": {"depth": 2, "seed": 0},
    "mcts": {"simulations": 10_000, "seed": 0},
    "perfect": {"seed": 0},
}
FROM_THE_START = ("reference", "mcts")      # they replay a game's turns from the empty board
OPENSPIEL_TURN_LIMIT = 200      # OpenSpiel's nine_mens_morris ends in a draw after 200 turns (kMaxNumTurns)


@dataclass
class PlayerSpec:
    """Who plays: `kind` is "ugi" (an external program) or a built-in's name."""
    kind: str
    name: str
    command: List[str] = field(default_factory=list)     # ugi only
    directory: Optional[str] = None                      # ugi: its working directory; perfect: the databases
    options: Dict[str, str] = field(default_factory=dict)   # UGI options (ugi, pyrope)
    params: Dict[str, int] = field(default_factory=dict)    # a built-in's parameters

    @property
    def engine(self) -> bool:
        """An engine speaking UGI (an external one or Pyrope's): it takes options and a clock."""
        return self.kind in ("ugi", "pyrope")


def parse_player_spec(tokens: Sequence[str]) -> PlayerSpec:
    """Parse one --player's tokens; ValueError names what is wrong."""
    tokens = list(tokens)
    kind = tokens.pop(0) if tokens and "=" not in tokens[0] else None
    if kind is not None and kind not in BUILTINS:
        raise ValueError(f"--player: unknown player {kind!r} (expected cmd=COMMAND or one of {', '.join(BUILTINS)})")
    fields: Dict[str, str] = {}
    options: Dict[str, str] = {}
    for token in tokens:
        key, value = split_key_value(token, "--player")
        if key.startswith("option."):
            if not key[len("option."):]:
                raise ValueError(f"--player: option without a name in {token!r}")
            options[key[len("option."):]] = value
        else:
            fields[key] = value
    if kind is None:
        if "cmd" not in fields:
            raise ValueError(f"--player: give cmd=COMMAND or one of {', '.join(BUILTINS)} in {' '.join(tokens)!r}")
        kind = "ugi"
    elif "cmd" in fields:
        raise ValueError(f"--player: {kind} is built in; it takes no cmd=")
    # dir= is an engine's working directory, or the perfect player's databases.
    known = {"name"} | ({"cmd", "dir"} if kind == "ugi" else set(BUILTINS[kind]))
    known |= {"dir"} if kind == "perfect" else set()
    for key in fields:
        if key not in known:
            raise ValueError(f"--player: {kind} takes no field {key!r} (it takes {', '.join(sorted(known))}"
                             f"{' and option.NAME' if kind in ('ugi', 'pyrope') else ''})")
    if options and kind not in ("ugi", "pyrope"):
        raise ValueError(f"--player: {kind} takes no engine options (option.{next(iter(options))})")
    params = dict(BUILTINS.get(kind, {}))
    for key in params:
        if key in fields:
            try:
                params[key] = int(fields[key])
            except ValueError:
                raise ValueError(f"--player: {key} must be a whole number, got {fields[key]!r}") from None
            if params[key] < (0 if key == "seed" else 1):
                raise ValueError(f"--player: {key} must be {0 if key == 'seed' else 1} or more, got {params[key]}")
    command: List[str] = []
    if kind == "ugi":
        try:
            command = shlex.split(fields["cmd"])
        except ValueError as error:
            raise ValueError(f"--player: cannot split command {fields['cmd']!r}: {error}") from None
        if not command:
            raise ValueError("--player: cmd= is empty")
    name = fields.get("name") or (os.path.basename(command[0]) if command else kind)
    return PlayerSpec(kind, name, command, fields.get("dir"), options, params)


@dataclass(frozen=True)
class Reply:
    """A player's turn, and what its search said (score: the mover's view, 100 = a stone)."""
    turn: str
    score: Optional[int] = None
    mate: Optional[int] = None      # turns to the end: > 0 the mover wins, < 0 it loses
    depth: Optional[int] = None


class PlayerFault(Exception):
    """A player gave no turn: its output was garbled, or (EngineCrashed) its process ended."""
    crashed = False


class EngineCrashed(PlayerFault):
    crashed = True


class Player(Protocol):
    spec: PlayerSpec
    timed: bool                     # the clock applies: it is given limits and loses on time
    turn_limit: Optional[int]       # a game with this player is drawn after this many turns in all

    async def new_game(self, rules: MillRules, seed: str) -> None: ...

    async def play(self, board: MillBoard, go: str) -> Reply: ...     # go: the UGI limits, e.g. "movetime 100"

    async def close(self) -> None: ...


class SeededPlayer:
    """A built-in player without a clock whose choices are drawn from `rng`, seeded by the player's
    `seed` and the game's: the same game is played the same way again."""
    timed = False
    turn_limit: Optional[int] = None

    def __init__(self, spec: PlayerSpec):
        self.spec = spec
        self.rng = random.Random()

    async def new_game(self, rules: MillRules, seed: str) -> None:
        self.rng.seed(f"{self.spec.params['seed']}:{seed}")

    async def close(self) -> None:
        pass


class RandomPlayer(SeededPlayer):
    """A uniformly random legal turn."""

    async def play(self, board: MillBoard, go: str) -> Reply:
        return Reply(self.rng.choice(board.legal_moves()))


WON = 1_000_000


class ReferencePlayer(SeededPlayer):
    """A negamax search `depth` turns deep on pyrope.mill.reference's Referee, which shares no code
    with the compiled core: game ends by its rules, else stones (on the board and in hand) told
    apart; ties broken at random. Its strength is its depth, not a clock."""

    async def play(self, board: MillBoard, go: str) -> Reply:
        rules, turns = dataclasses.asdict(board.rules), list(board.move_stack)
        legal = {parse_turn(text): text for text in board.legal_moves()}
        choice, value = await asyncio.to_thread(self.choose, rules, turns)
        # The core's notation orders several removals legally; a turn the core does not know is
        # written as the reference has it, and the game refuses it as illegal.
        return Reply(legal.get(choice) or format_reference_turn(choice), score=value, depth=self.spec.params["depth"])

    def choose(self, rules: dict, turns: List[str]) -> tuple:
        referee = Referee(rules)
        for text in turns:
            referee.play(parse_turn(text))
        best: list = []
        best_value = -WON - 1
        for turn in sorted(referee.generate(), key=format_reference_turn):
            saved = referee.save()
            referee.play(turn)
            value = -negamax(referee, self.spec.params["depth"] - 1)
            referee.restore(saved)
            if value > best_value:
                best, best_value = [turn], value
            elif value == best_value:
                best.append(turn)
        return self.rng.choice(best), best_value


def negamax(referee: Referee, depth: int) -> int:
    """The value of the referee's position for the side to move (WON: a win, 100: a stone)."""
    ended = referee.ended_by_rule()
    turns = referee.generate() if ended is None else set()
    if ended is None and not turns:
        ended = referee.outcome()               # blocked: its result under StalemateAction
    if ended is not None:
        result = ended[0]
        return 0 if result == "1/2-1/2" else WON if (result == "1-0") == (referee.side == 0) else -WON
    if depth == 0:
        own, opp = referee.side, 1 - referee.side
        return 100 * (len(referee.own(own)) + referee.hand[own] - len(referee.own(opp)) - referee.hand[opp])
    best = -WON - 1
    for turn in turns:
        saved = referee.save()
        referee.play(turn)
        best = max(best, -negamax(referee, depth - 1))
        referee.restore(saved)
    return best


def format_reference_turn(turn: tuple) -> str:
    frm, to, removed = turn
    return (f"{frm}-{to}" if frm else to or "") + "".join("x" + point for point in sorted(removed))


class MctsPlayer(SeededPlayer):
    """OpenSpiel's C++ MCTS bot (random rollouts, UCT constant 2, MCTS-Solver) on its own
    nine_mens_morris, replayed from the game's turns: OpenSpiel numbers the points as Pyrope's
    FEN does, a move is 24 + from * 24 + to, and a removal is a point the mover names next.
    OpenSpiel knows no repetition or move-count rule and draws after 200 turns (turn_limit)."""
    turn_limit = OPENSPIEL_TURN_LIMIT

    def __init__(self, spec: PlayerSpec):
        super().__init__(spec)
        self.pyspiel = openspiel()
        self.game = self.pyspiel.load_game("nine_mens_morris")
        self.bot = None

    async def new_game(self, rules: MillRules, seed: str) -> None:
        await super().new_game(rules, seed)
        bot_seed = self.rng.randrange(2 ** 31)
        evaluator = self.pyspiel.RandomRolloutEvaluator(1, bot_seed)
        self.bot = self.pyspiel.MCTSBot(self.game, evaluator, 2.0, self.spec.params["simulations"], 1000, True,
                                        bot_seed, False)

    async def play(self, board: MillBoard, go: str) -> Reply:
        return Reply(await asyncio.to_thread(self.choose, list(board.move_stack)))

    def choose(self, turns: List[str]) -> str:
        state = self.game.new_initial_state()
        for text in turns:
            frm, to, removals = parse(text)
            state.apply_action(to if frm < 0 else 24 + frm * 24 + to)
            for point in removals:
                state.apply_action(point)
        mover = state.current_player()
        action = self.bot.step(state)
        state.apply_action(action)
        text = POINTS[action] if action < 24 else f"{POINTS[(action - 24) // 24]}-{POINTS[(action - 24) % 24]}"
        while not state.is_terminal() and state.current_player() == mover:      # the removals it earned
            action = self.bot.step(state)
            state.apply_action(action)
            text += "x" + POINTS[action]
        return text


class PerfectPlayer(SeededPlayer):
    """The endgame databases' perfect player (pyrope.mill.db): a win by a fastest turn, a draw by a
    turn that keeps it, a loss by a turn that resists longest, at random among equals. A position
    outside the databases' classes is a fault: this player is an oracle, not an engine."""

    def __init__(self, spec: PlayerSpec):
        super().__init__(spec)
        self.databases: Dict[MillRules, MillDatabase] = {}

    async def new_game(self, rules: MillRules, seed: str) -> None:
        await super().new_game(rules, seed)
        if rules not in self.databases:
            self.databases[rules] = perfect_database(self.spec, rules)

    async def play(self, board: MillBoard, go: str) -> Reply:
        turns = self.databases[board.rules].turn_values(board._core.position())
        if not turns:
            raise PlayerFault(f"the databases do not hold {board.fen()}")
        best = max(value.rank() for _, value in turns)
        move, value = self.rng.choice([(move, value) for move, value in turns if value.rank() == best])
        mate = None if value.distance is None else value.distance if value.result == "win" else -value.distance
        return Reply(board._text(move), score=0 if mate is None else None, mate=mate)


def perfect_database(spec: PlayerSpec, rules: MillRules) -> MillDatabase:
    """The databases the perfect player `spec` plays these rules from; ValueError if there are none
    or a file there is unusable."""
    directory = spec.directory or DEFAULT_DIR
    database = MillDatabase(rules, directory)
    if database.errors:
        raise ValueError(f"the perfect player's databases: {database.errors[0]}")
    if not database.classes:
        raise ValueError(f"the perfect player has no database of these rules in {directory}")
    return database


def check_perfect(spec: PlayerSpec, rules: MillRules, positions: Optional[list]) -> None:
    """The perfect player plays only from positions (game.Opening) its databases hold."""
    database = perfect_database(spec, rules)
    if positions is None:
        raise ValueError("the perfect player plays only from --positions its databases hold")
    for opening in positions:
        if database.probe(MillBoard(opening.fen, **dataclasses.asdict(rules))._core.position()) is None:
            raise ValueError(f"--positions: {opening.fen} is not in the perfect player's databases "
                             f"(classes {', '.join(f'{a}-{b}' for a, b in database.classes)})")


def openspiel():
    """The pyspiel module, or ValueError saying how to install it."""
    try:
        import pyspiel
    except ImportError:
        raise ValueError("the mcts player needs OpenSpiel: pip install 'pyrope[openspiel]'") from None
    return pyspiel


def check_mcts_rules(rules: MillRules) -> None:
    """OpenSpiel plays standard nine men's morris; the draw rules (repetition, move count) may differ,
    since the runner applies them to OpenSpiel's games too."""
    draws = ("NMoveRule", "EndgameNMoveRule", "ThreefoldRepetitionRule")
    if dataclasses.replace(rules, **{name: getattr(VARIANTS["nine"], name) for name in draws}) != VARIANTS["nine"]:
        raise ValueError("the mcts player (OpenSpiel) plays nine men's morris only: --variant nine, and of the "
                         f"rule options only {', '.join(draws)}")

