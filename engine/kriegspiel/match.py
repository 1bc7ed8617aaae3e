"""`pyrope kriegspiel match`: Kriegspiel games between players on the one match runner
(pyrope.match.runner) that `pyrope match` and `pyrope mill match` use.

A player is `--white`/`--black` KIND [name=NAME] [KEY=VALUE ...]:

  cmd=COMMAND [dir=DIR] [option.NAME=VALUE ...]   a program speaking the line protocol
                                      (docs/kriegspiel-protocol.md; `pyrope` itself does)
  random [seed=N] [endgame=0|1]       section 4.6's random player
  semi-random [seed=N] [endgame=0|1]  section 4.6's semi-random player (endgame=1: once the enemy
                                      is bare, the bare-king search takes over)
  centre [seed=N]                     section 6.4's centre-seeking king (its tries nearest the centre
                                      first; any other men of its side move the same way)
  maximax [seed=N] [positions=N] [depth=N] [alpha=N] [endgame=0|1]
                                      Darkboard 1.0 (chapter 4; docs/kriegspiel.md "Maximax"):
                                      alpha in hundredths; the bare-king search converts by default
  mcts [seed=N] [positions=N] [exploration=N] [alpha=N] [endgame=0|1]
                                      Darkboard 2.0 (5.8, approach C; docs/kriegspiel.md "MCTS"):
                                      exploration is UCT's c in centipawns

Any player may add tc=BASE+INC or movetime=S, its own clock or fixed time in place of the match's
(time odds, as the thesis's sweep of the MCTS at 1-8 times the maximax's time; the match's --nodes
still applies); the PGN then has WhiteTimeControl and BlackTimeControl tags too.

Each game is played by players.play_game on a worker thread through the referee, so the runner's
other games go on meanwhile; a player that reaches --trycap refused tries in a turn, writes a try
the referee cannot read, or fails, loses the game. The limits (--tc, --movetime, --nodes: the
chess runner's, match.options.time_control) reach every player, built-in or program, as a `go`'s;
the match keeps the clocks (match.clock.Clock) and charges each move the wall time from its first
try to its legal one, so a player past its clock or fixed time by more than --timemargin loses on
time. Starts: the standard position, --fen, or the positions of --openings (one FEN a line), each
played twice with colours swapped; the --white player is White in the odd games. A random player's seed is its own and the game's number, so a
match replays the same games. The record (--pgn) is the referee's full game in Kriegspiel PGN.
"""
from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import os
import shlex
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, TextIO, Tuple

import chess

from ..match.clock import Clock, TimeControl, parse_tc
from ..match.options import split_key_value
from ..match.runner import Ending, GameTask, Match, draw, loss
from .external import ExternalPlayer
from .opponent import OpponentModel
from .pgn import KriegspielGame, game_from_referee
from .players import Player, play_game
from .roster import BUILTINS, MODELLED, builtin
from .referee import Referee

TRY_CAP = 1000

# python-chess's terminations (players.GameResult) as the match counts and words them.
DRAWS = {"stalemate": "Stalemate", "insufficient_material": "Draw by insufficient material",
         "fifty_moves": "Draw by the fifty-move rule", "threefold_repetition": "Draw by threefold repetition"}
FAULTS = {"try cap": ("try cap", "rules infraction", "{loser} reached the try cap"),
          "bad try": ("illegal move", "rules infraction", "{loser} made a try the referee cannot read"),
          "crash": ("engine crash", "rules infraction", "{loser}'s player failed"),
          "time": ("time forfeit", "time forfeit", "{loser} loses on time")}


@dataclass
class PlayerSpec:
    """Who plays: a built-in kind or "cmd" (a program speaking the protocol), its name in the
    report and its parameters."""
    kind: str
    name: str
    params: Dict[str, int] = field(default_factory=dict)
    command: List[str] = field(default_factory=list)        # cmd only
    directory: Optional[str] = None                         # cmd: its working directory
    options: Dict[str, str] = field(default_factory=dict)   # cmd: its protocol options
    # Its own clock or fixed time (tc=, movetime=: time odds), in place of the match's; None: the match's.
    time: Optional[TimeControl] = None
    # model=FILE (maximax, mcts): the opponent model its density follows, {"file", "sha256"}; None: none.
    model: Optional[Dict[str, str]] = None

    def time_control(self, match: TimeControl) -> TimeControl:
        """The limits this player moves under in a match under `match`'s: its own clock or fixed
        time if it has one (the match's depth and nodes stay)."""
        if self.time is None:
            return match
        return dataclasses.replace(self.time, depth=match.depth, nodes=match.nodes)


def parse_player_spec(tokens: Sequence[str], option: str) -> PlayerSpec:
    """One --white/--black's tokens; ValueError names what is wrong."""
    tokens = list(tokens)
    if tokens and tokens[0].startswith("cmd="):
        return parse_program_spec(tokens, option)
    if not tokens or "=" in tokens[0]:
        raise ValueError(f"{option}: start with cmd=COMMAND or the player's kind, one of {', '.join(BUILTINS)}")
    kind = tokens.pop(0)
    if kind not in BUILTINS:
        raise ValueError(f"{option}: unknown player {kind!r} (expected cmd=COMMAND or one of {', '.join(BUILTINS)})")
    params, name, own_time, model = dict(BUILTINS[kind][0]), kind, None, None
    for token in tokens:
        key, value = split_key_value(token, option)
        if key == "name":
            name = value
        elif key == "model" and kind in MODELLED:
            OpponentModel.read(value)       # a file that is not a model is refused here, named
            with open(value, "rb") as handle:
                model = {"file": value, "sha256": hashlib.sha256(handle.read()).hexdigest()}
        elif key in ("tc", "movetime"):
            own_time = parse_time(key, value, option, own_time)
        elif key in params:
            try:
                params[key] = int(value)
            except ValueError:
                raise ValueError(f"{option}: {key} must be a whole number, got {value!r}") from None
            low, high = {"seed": (0, None), "endgame": (0, 1)}.get(key, (1, None))
            if params[key] < low or (high is not None and params[key] > high):
                raise ValueError(f"{option}: {key} must be {'0 or 1' if high else f'{low} or more'}, got {params[key]}")
        else:
            fields = ["name", "tc", "movetime", *(["model"] if kind in MODELLED else []), *params]
            raise ValueError(f"{option}: {kind} takes no field {key!r} (it takes {', '.join(fields)})")
    return PlayerSpec(kind, name, params, time=own_time, model=model)


def parse_time(key: str, value: str, option: str, given: Optional[TimeControl]) -> TimeControl:
    """A player's own tc=BASE+INC or movetime=S; ValueError if it is bad or a second one."""
    if given is not None:
        raise ValueError(f"{option}: give a player one tc= or movetime=, not {given.pgn()} and {key}={value}")
    if key == "tc":
        try:
            return parse_tc(value)
        except ValueError as error:
            raise ValueError(f"{option}: {error}") from None
    try:
        seconds = float(value)
    except ValueError:
        seconds = 0.0
    if not seconds > 0:
        raise ValueError(f"{option}: movetime must be more than 0 seconds, not {value!r}")
    return TimeControl(movetime=seconds)


def parse_program_spec(tokens: Sequence[str], option: str) -> PlayerSpec:
    """cmd=COMMAND [name=NAME] [dir=DIR] [option.NAME=VALUE ...]."""
    fields, options, own_time = {}, {}, None
    for token in tokens:
        key, value = split_key_value(token, option)
        if key.startswith("option.") and key != "option.":
            options[key[len("option."):]] = value
        elif key in ("cmd", "name", "dir"):
            fields[key] = value
        elif key in ("tc", "movetime"):
            own_time = parse_time(key, value, option, own_time)
        else:
            raise ValueError(f"{option}: a program takes cmd, name, dir, tc, movetime and option.NAME, not {key!r}")
    try:
        command = shlex.split(fields["cmd"])
    except ValueError as error:
        raise ValueError(f"{option}: cannot split command {fields['cmd']!r}: {error}") from None
    if not command:
        raise ValueError(f"{option}: cmd= is empty")
    name = fields.get("name") or os.path.basename(command[0])
    return PlayerSpec("cmd", name, {}, command, fields.get("dir"), options, own_time)


def read_openings(path: str) -> List[str]:
    """The start positions of a file, one FEN (or EPD: its first four fields) a line, blank lines
    and `#` comments skipped; ValueError names the file, the line and the fault."""
    try:
        lines = open(path, encoding="utf-8").read().splitlines()
    except (OSError, UnicodeDecodeError) as error:
        raise ValueError(f"--openings: cannot read {path}: {error}") from None
    fens = []
    for number, line in enumerate(lines, 1):
        text = line.split("#", 1)[0].split(";", 1)[0].strip()
        if not text:
            continue
        fields = text.split()
        fen = " ".join(fields[:6]) if len(fields) >= 6 and fields[4].isdigit() else " ".join(fields[:4]) + " 0 1"
        try:
            fens.append(check_start(fen))
        except ValueError as error:
            raise ValueError(f"--openings: {path}, line {number}: {error}") from None
    if not fens:
        raise ValueError(f"--openings: {path} holds no position")
    return fens


def check_start(fen: str) -> str:
    """The referee's FEN of a start position; ValueError for a bad or finished one."""
    referee = Referee(fen)          # FenError (a ValueError) says what is wrong
    if referee.outcome is not None:
        raise ValueError(f"the game is already over in {fen}")
    return referee.start_fen


class MatchPlayer:
    """The runner's player: a fresh built-in players.Player for every game, or one program over the
    protocol kept from game to game (started again after a fault)."""

    def __init__(self, spec: PlayerSpec, timeout: float) -> None:
        self.spec = spec
        self.program = None if spec.kind != "cmd" else \
            ExternalPlayer(spec.command, spec.options, timeout, spec.directory)
        self.model = None if spec.model is None else OpponentModel.read(spec.model["file"])

    def for_game(self, seed: str) -> Player:
        return self.program or builtin(self.spec.kind, seed, self.model, **self.spec.params)

    async def close(self) -> None:
        if self.program is not None:
            await asyncio.to_thread(self.program.close)


class KriegspielMatchGame:
    """The runner's Game for Kriegspiel: one game refereed by pyrope.kriegspiel.Referee between two
    players under the time control `tc` (with `margin` seconds of grace), its Kriegspiel PGN, and
    the report's lines on draws, tries and length."""

    def __init__(self, try_cap: int = TRY_CAP, event: str = "?", seed: int = 0, timeout: float = 30.0,
                 tc: TimeControl = TimeControl(), margin: float = 0.1) -> None:
        self.try_cap, self.event, self.seed, self.timeout = try_cap, event, seed, timeout
        self.tc, self.margin = tc, margin
        self.plies = self.tries = self.games = 0

    def player(self, spec: PlayerSpec) -> MatchPlayer:
        return MatchPlayer(spec, self.timeout)

    async def play(self, task: GameTask, white: MatchPlayer, black: MatchPlayer) -> Tuple[Ending, KriegspielGame]:
        referee = Referee(task.opening)
        seed = f"{self.seed}:{task.number}"
        players = {chess.WHITE: white.for_game(seed), chess.BLACK: black.for_game(seed)}
        controls = {side: player.spec.time_control(self.tc) for side, player in ((chess.WHITE, white), (chess.BLACK, black))}
        result = await asyncio.to_thread(play_game, players[chess.WHITE], players[chess.BLACK], referee, self.try_cap,
                                         Clock(controls[chess.WHITE], controls[chess.BLACK]), self.margin)
        self.games += 1
        self.plies += len(referee.turns)
        self.tries += sum(len(turn.refused) + 1 for turn in referee.turns)
        if result.termination in FAULTS:
            kind, termination, reason = FAULTS[result.termination]
            ending = loss(chess.WHITE if result.result == "0-1" else chess.BLACK, kind, termination,
                          reason + (": " + result.detail if result.detail else ""), True)
        elif result.termination == "checkmate":
            ending = loss(chess.WHITE if result.result == "0-1" else chess.BLACK, "checkmate", "normal", "{winner} mates")
        else:
            ending = draw(result.termination.replace("_", " "), "normal", DRAWS[result.termination])
        tags = {"Event": self.event, "Date": time.strftime("%Y.%m.%d"), "Round": str(task.number),
                "White": white.spec.name, "Black": black.spec.name, "Result": ending.result,
                "Termination": ending.termination, "TimeControl": self.tc.pgn()}
        for side, tag in ((chess.WHITE, "WhiteTimeControl"), (chess.BLACK, "BlackTimeControl")):
            if controls[side] != self.tc:       # time odds: each side's own control
                tags[tag] = controls[side].pgn()
        return ending, game_from_referee(referee, tags)

    def write_record(self, record: KriegspielGame, file: TextIO) -> None:
        print(record.pgn(), file=file)

    def report_lines(self, match: Match) -> List[str]:
        counts = ", ".join(f"{kind}: {count}" for kind, count in match.draws.most_common())
        lines = [f"Draws: {counts or 'none'}"]
        if self.games:
            lines.append(f"Game length: {self.plies / self.games:.1f} plies on average; "
                         f"tries per move: {self.tries / max(1, self.plies):.2f} (the {self.games} games played now)")
        return lines
