"""`pyrope match`: a tournament manager for UCI and xboard engines.

Plays two or more engines against each other (with more than two, a gauntlet: the first engine against
each of the others), each opening twice with colours swapped, under a clock the runner keeps itself.
It adjudicates draws, resignations, tablebase positions and over-long games, writes PGN, and reports the
score, the Elo difference with its 95% interval and, with --sprt, a sequential probability ratio test.

Engines are driven by python-chess's asyncio API (chess.engine). All games run in one event loop: each
of the --concurrency workers owns its own engine processes and reuses them from game to game
(`ucinewgame` / `new`), restarting an engine only after it crashed, hung or broke the rules.

The statistics and the parsers of the command-line values are pure functions (tested with numbers in
tests/test_match.py); every parser raises ValueError with a sentence that says what was wrong.

Choices worth knowing:
- Time is the wall time of each python-chess `play` call, measured by the runner. An engine loses on time
  when a move takes longer than its clock (or --movetime) plus --timemargin, 100 ms by default: the
  measurement includes pipes and this process's event loop, and that latency must not decide games.
- Elo: -400*log10(1/s - 1); its 95% interval comes from the per-game score variance (trinomial).
- SPRT: the GSPRT normal approximation with logistic Elo (as cutechess and fishtest), checked after
  each completed game pair; games still running when it decides are abandoned and not counted.
- Threefold repetition and the fifty-move rule end a game once they have occurred, not one move early
  as python-chess's `outcome(claim_draw=True)` would.
- Engine faults (time, illegal move, crash, no answer) lose the game; the engine is restarted.
- --pgn appends, so several runs can collect into one file.
- --resume FILE journals each finished game (journal.py); the same command run again plays only the
  games the journal lacks and reports them all. The journal's header fingerprints what defines the
  games (see `fingerprint`), and a journal begun under other conditions is refused.
"""
from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import hashlib
import io
import logging
import math
import os
import random
import re
import shlex
import statistics
import sys
import time
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence, Tuple

import chess
import chess.engine
import chess.pgn
import chess.syzygy

from .. import console
from .journal import Journal

# ---------------------------------------------------------------------------------------------------
# Statistics
# ---------------------------------------------------------------------------------------------------

def elo_from_score(score: float) -> float:
    """Elo difference that corresponds to the expected score `score` (0..1): -400*log10(1/s - 1)."""
    if not 0.0 <= score <= 1.0:
        raise ValueError(f"a score must lie in 0..1, got {score}")
    if score == 0.0:
        return -math.inf
    if score == 1.0:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0) + 0.0      # + 0.0 turns -0.0 (at s = 0.5) into 0.0


def score_from_elo(elo: float) -> float:
    """Expected score of a player `elo` points stronger (the logistic model): 1 / (1 + 10^(-elo/400))."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def score_and_variance(wins: float, losses: float, draws: float) -> Tuple[float, float]:
    """Mean score per game and the per-game variance of the score (trinomial: 1, 1/2, 0)."""
    games = wins + losses + draws
    if games <= 0:
        raise ValueError("no games: the score is undefined")
    score = (wins + 0.5 * draws) / games
    variance = (wins * (1.0 - score) ** 2 + draws * (0.5 - score) ** 2 + losses * score ** 2) / games
    return score, variance


def elo_interval(wins: int, losses: int, draws: int, confidence: float = 0.95) -> Tuple[float, float]:
    """(Elo difference, margin): the margin is half the width of the `confidence` interval.

    As in cutechess: the interval of the mean score is s +/- z * sqrt(var / n) with the per-game variance
    of the trinomial; both ends are mapped to Elo and the margin is half their distance. It is infinite
    when an end reaches a score of 0 or 1.
    """
    score, variance = score_and_variance(wins, losses, draws)
    z = statistics.NormalDist().inv_cdf(0.5 + confidence / 2.0)
    deviation = z * math.sqrt(variance / (wins + losses + draws))
    high = elo_from_score(min(1.0, score + deviation))
    low = elo_from_score(max(0.0, score - deviation))
    if math.isinf(high) or math.isinf(low):
        return elo_from_score(score), math.inf
    return elo_from_score(score), (high - low) / 2.0


def likelihood_of_superiority(wins: int, losses: int) -> float:
    """Probability (0..1) that the first player is the stronger one; draws carry no information."""
    if wins + losses == 0:
        return 0.5
    return 0.5 * (1.0 + math.erf((wins - losses) / math.sqrt(2.0 * (wins + losses))))


def sprt_llr(wins: int, losses: int, draws: int, elo0: float, elo1: float) -> float:
    """Log-likelihood ratio of H1 (Elo = elo1) against H0 (Elo = elo0) after these games.

    The generalized SPRT in its normal approximation (Van den Bergh; used by fishtest and cutechess),
    with *logistic* Elo, i.e. the hypotheses are the expected scores s0 = score_from_elo(elo0) and
    s1 = score_from_elo(elo1):  LLR = n * (s1 - s0) * (2s - s0 - s1) / (2 var),
    where s and var are the observed mean score and per-game variance. While the variance is 0 (no
    games, or only one kind of result so far: e.g. 10 wins and nothing else) the test has no scale
    and the LLR is 0 -- cutechess goes further and waits for a win, a loss and a draw.
    """
    if wins + losses + draws == 0:
        return 0.0
    score, variance = score_and_variance(wins, losses, draws)
    if variance == 0.0:
        return 0.0
    s0, s1 = score_from_elo(elo0), score_from_elo(elo1)
    return (wins + losses + draws) * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)


def sprt_bounds(alpha: float, beta: float) -> Tuple[float, float]:
    """(lower, upper) LLR bounds: accept H0 at or below log(beta/(1-alpha)), H1 at or above log((1-beta)/alpha)."""
    return math.log(beta / (1.0 - alpha)), math.log((1.0 - beta) / alpha)


def sprt_decision(llr: float, bounds: Tuple[float, float]) -> Optional[str]:
    """'H0 accepted', 'H1 accepted', or None while the LLR is between the bounds."""
    if llr <= bounds[0]:
        return "H0 accepted"
    if llr >= bounds[1]:
        return "H1 accepted"
    return None


# ---------------------------------------------------------------------------------------------------
# Command-line values: engines, time control, adjudication rules, SPRT
# ---------------------------------------------------------------------------------------------------

def split_key_value(token: str, what: str) -> Tuple[str, str]:
    """'key=value' -> ('key', 'value'); `what` names the option in the error message."""
    key, sep, value = token.partition("=")
    if not sep or not key:
        raise ValueError(f"{what}: expected KEY=VALUE, got {token!r}")
    return key, value


@dataclass
class EngineSpec:
    """How to start one engine and what to call it."""
    command: List[str]
    name: str
    protocol: str = "uci"                 # "uci" or "xboard"
    directory: Optional[str] = None       # working directory of the process
    options: Dict[str, object] = field(default_factory=dict)


def parse_engine_spec(tokens: Sequence[str]) -> EngineSpec:
    """Parse `cmd=... [name=...] [proto=uci|xboard] [dir=...] [option.NAME=VALUE ...]`.

    Later tokens override earlier ones (so --each defaults can come first). The command is split like a
    shell would (`cmd="python3 my engine.py"`); option values 'true'/'false' become booleans, the rest
    stay strings and python-chess converts them for the engine's option type.
    """
    fields: Dict[str, str] = {}
    options: Dict[str, object] = {}
    for token in tokens:
        key, value = split_key_value(token, "--engine")
        if key.startswith("option."):
            name = key[len("option."):]
            if not name:
                raise ValueError(f"--engine: option without a name in {token!r}")
            options[name] = {"true": True, "false": False}.get(value.lower(), value)
        elif key in ("cmd", "name", "proto", "dir"):
            fields[key] = value
        else:
            raise ValueError(f"--engine: unknown field {key!r} in {token!r} "
                             "(expected cmd, name, proto, dir or option.NAME)")
    if not fields.get("cmd", "").strip():
        raise ValueError(f"--engine: no command given (cmd=...) in {' '.join(tokens)!r}")
    try:
        command = shlex.split(fields["cmd"])
    except ValueError as error:
        raise ValueError(f"--engine: cannot split command {fields['cmd']!r}: {error}") from None
    protocol = fields.get("proto", "uci")
    if protocol not in ("uci", "xboard"):
        raise ValueError(f"--engine: proto must be uci or xboard, got {protocol!r}")
    name = fields.get("name") or os.path.basename(command[0])
    return EngineSpec(command, name, protocol, fields.get("dir"), options)


@dataclass(frozen=True)
class TimeControl:
    """What limits each move: a clock (base/increment/moves per period), a fixed time, depth or nodes."""
    base: Optional[float] = None          # seconds per period; None: no clock
    increment: float = 0.0                # seconds added after each move
    moves: Optional[int] = None           # moves per period (the clock gets `base` again); None: whole game
    movetime: Optional[float] = None      # fixed seconds per move
    depth: Optional[int] = None
    nodes: Optional[int] = None

    def pgn(self) -> str:
        """The PGN TimeControl tag: '40/60', '10+0.1', '40/60+0.1', '0.05/move' (as cutechess); '-' for none."""
        if self.base is not None:
            text = f"{self.moves}/{self.base:g}" if self.moves else f"{self.base:g}"
            return text + (f"+{self.increment:g}" if self.increment else "")
        if self.movetime is not None:
            return f"{self.movetime:g}/move"
        return "-"


_SECONDS = r"(\d+(?::\d+)?(?:\.\d*)?|\.\d+)"       # 10, 0.5, .5, 1:30 (minutes:seconds), 1:30.5
_TC_PATTERN = re.compile(rf"(?:(\d+)/)?{_SECONDS}(?:\+{_SECONDS})?")


def _seconds(text: str) -> float:
    minutes, _, seconds = text.rpartition(":")
    return 60.0 * int(minutes or 0) + float(seconds)


def parse_tc(text: str) -> TimeControl:
    """Parse a clock time control: 'BASE', 'BASE+INC' or 'MOVES/BASE[+INC]', in seconds (BASE may be M:SS)."""
    match = _TC_PATTERN.fullmatch(text.strip())
    if match is None:
        raise ValueError(f"bad time control {text!r}: expected BASE+INC, MOVES/BASE or MOVES/BASE+INC "
                         "in seconds, e.g. 10+0.1, 40/60 or 40/60+0.5")
    moves, base, increment = match.groups()
    tc = TimeControl(base=_seconds(base), increment=_seconds(increment) if increment else 0.0,
                     moves=int(moves) if moves else None)
    if tc.base <= 0:
        raise ValueError(f"bad time control {text!r}: the base time must be more than 0 seconds")
    if tc.moves == 0:
        raise ValueError(f"bad time control {text!r}: the moves per period must be 1 or more")
    return tc


@dataclass(frozen=True)
class DrawRule:
    """Adjudicate a draw once both engines' scores stay within +/-score cp for movecount moves each,
    after the engines have played movenumber full moves."""
    movenumber: int = 40
    movecount: int = 8
    score: int = 10

    def __post_init__(self):
        if self.movenumber < 0 or self.movecount < 1 or self.score < 0:
            raise ValueError("movenumber must be 0 or more, movecount 1 or more, score 0 or more")


@dataclass(frozen=True)
class ResignRule:
    """Adjudicate a loss once, for movecount moves each, the loser's own score is <= -score cp and the
    winner's is >= +score cp (both engines agree)."""
    movecount: int = 3
    score: int = 600

    def __post_init__(self):
        if self.movecount < 1 or self.score < 0:
            raise ValueError("movecount must be 1 or more, score 0 or more")


@dataclass(frozen=True)
class SprtSpec:
    """Hypotheses (logistic Elo) and error rates of the sequential probability ratio test."""
    elo0: float = 0.0
    elo1: float = 10.0
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self):
        if not (0 < self.alpha < 1 and 0 < self.beta < 1):
            raise ValueError("alpha and beta must lie strictly between 0 and 1")
        if self.elo1 <= self.elo0:
            raise ValueError("elo1 must be larger than elo0")


def parse_fields(cls, tokens: Sequence[str], option: str):
    """Build the dataclass `cls` (DrawRule, ResignRule, SprtSpec) from KEY=VALUE tokens: unset fields keep
    their defaults, the type of the default converts the value; `option` prefixes error messages."""
    defaults = {f.name: f.default for f in dataclasses.fields(cls)}
    values = {}
    for token in tokens:
        key, text = split_key_value(token, option)
        if key not in defaults:
            raise ValueError(f"{option}: unknown key {key!r} (expected {', '.join(defaults)})")
        kind = type(defaults[key])
        try:
            values[key] = kind(text)
        except ValueError:
            raise ValueError(f"{option}: {key} must be {'an integer' if kind is int else 'a number'}, "
                             f"got {text!r}") from None
    try:
        return cls(**values)
    except ValueError as error:
        raise ValueError(f"{option}: {error}") from None


# ---------------------------------------------------------------------------------------------------
# Openings
# ---------------------------------------------------------------------------------------------------

def _check_opening(board: chess.Board, where: str) -> chess.Board:
    if not board.is_valid():
        raise ValueError(f"{where}: not a legal position ({board.status()!r})")
    if board.is_game_over():
        raise ValueError(f"{where}: the game is already over in this position")
    return board


def parse_epd_openings(text: str, source: str = "<epd>") -> List[chess.Board]:
    """One position per non-blank EPD line ('#' starts a comment line); operations such as c0 are ignored."""
    openings = []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        board = chess.Board()
        try:
            board.set_epd(line)
        except ValueError as error:
            raise ValueError(f"{source}:{number}: bad EPD ({error}): {line!r}") from None
        openings.append(_check_opening(board, f"{source}:{number}"))
    if not openings:
        raise ValueError(f"{source}: no positions found")
    return openings


def parse_pgn_openings(text: str, source: str = "<pgn>") -> List[chess.Board]:
    """One opening per PGN game: its start position (FEN tag or the standard one) plus its main line,
    kept as the move stack so that engines see the moves and repetitions count them."""
    stream = io.StringIO(text)
    openings = []
    while True:
        game = chess.pgn.read_game(stream)
        if game is None:
            break
        where = f"{source}: game {len(openings) + 1}"
        if game.errors:
            raise ValueError(f"{where}: {game.errors[0]}")
        openings.append(_check_opening(game.end().board(), where))
    if not openings:
        raise ValueError(f"{source}: no games found")
    return openings


def load_openings(path: str) -> List[chess.Board]:
    """Read an EPD or a PGN file (PGN when the name ends in .pgn or the first line is a [tag])."""
    try:
        with open(path, encoding="utf-8-sig") as handle:
            text = handle.read()
    except OSError as error:
        raise ValueError(f"cannot read openings file {path!r}: {error.strerror}") from None
    first = next((line.strip() for line in text.splitlines() if line.strip()), "")
    if path.lower().endswith(".pgn") or first.startswith("["):
        return parse_pgn_openings(text, path)
    return parse_epd_openings(text, path)


# ---------------------------------------------------------------------------------------------------
# Rules of a game: natural ends and adjudication
# ---------------------------------------------------------------------------------------------------

INFO = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE    # what we ask python-chess to parse
MATE_CP = 100_000           # centipawn value of a mate score, for the adjudication thresholds
START_TIMEOUT = 30.0        # seconds an engine may take to start, to answer isready, or to quit
QUIT_TIMEOUT = 2.0


@dataclass(frozen=True)
class Ending:
    """How a game ended: the PGN result and Termination tag, a countable kind and a sentence."""
    result: str                             # "1-0", "0-1", "1/2-1/2"
    termination: str                        # PGN Termination: normal, adjudication, time forfeit, ...
    kind: str                               # e.g. "checkmate", "time forfeit", "draw adjudication"
    reason: str                             # e.g. "White mates", "Black loses on time"
    loser: Optional[chess.Color] = None     # for decisive games
    fault: bool = False                     # the loser broke the rules (time, illegal move, crash, hang)


def draw(kind: str, termination: str = "normal", reason: Optional[str] = None) -> Ending:
    return Ending("1/2-1/2", termination, kind, reason or kind[0].upper() + kind[1:])


def loss(loser: chess.Color, kind: str, termination: str, reason: str, fault: bool = False) -> Ending:
    """`reason` may name the sides as {loser} and {winner}."""
    reason = reason.replace("{loser}", chess.COLOR_NAMES[loser].capitalize())
    reason = reason.replace("{winner}", chess.COLOR_NAMES[not loser].capitalize())
    return Ending("0-1" if loser == chess.WHITE else "1-0", termination, kind, reason, loser, fault)


def natural_end(board: chess.Board) -> Optional[Ending]:
    """Mate, stalemate, insufficient material, 75-move rule, fivefold -- and, claimed on the engines'
    behalf, threefold repetition and the fifty-move rule once they have actually occurred (not
    `outcome(claim_draw=True)`, which would also end the game when the side to move merely *could*
    reach a repetition with its next move)."""
    outcome = board.outcome()
    if outcome is None:
        if board.is_repetition(3):
            return draw("threefold repetition")
        if board.is_fifty_moves():
            return draw("fifty-move rule")
        return None
    if outcome.winner is not None:
        return loss(not outcome.winner, "checkmate", "normal", "{winner} mates")
    kinds = {chess.Termination.STALEMATE: "stalemate",
             chess.Termination.INSUFFICIENT_MATERIAL: "insufficient material",
             chess.Termination.SEVENTYFIVE_MOVES: "75-move rule",
             chess.Termination.FIVEFOLD_REPETITION: "fivefold repetition"}
    return draw(kinds.get(outcome.termination, outcome.termination.name.lower()))


def draw_adjudicated(white_scores: Sequence[Optional[int]], rule: DrawRule) -> bool:
    """`white_scores`: the engines' scores (cp, White's point of view, None if none) for each engine
    move of the game so far. A draw once movenumber full moves are played and the last movecount
    moves of each side scored within +/-score."""
    window = white_scores[-2 * rule.movecount:]
    return (len(white_scores) >= 2 * rule.movenumber and len(window) == 2 * rule.movecount
            and all(score is not None and abs(score) <= rule.score for score in window))


def resign_adjudicated(white_scores: Sequence[Optional[int]], rule: ResignRule) -> Optional[chess.Color]:
    """The side that resigns, or None: for the last movecount moves of each side, both engines' scores
    say White is at least `score` behind (White resigns) or ahead (Black resigns)."""
    window = white_scores[-2 * rule.movecount:]
    if len(window) < 2 * rule.movecount or any(score is None for score in window):
        return None
    if all(score <= -rule.score for score in window):
        return chess.WHITE
    if all(score >= rule.score for score in window):
        return chess.BLACK
    return None


class TablebaseAdjudicator:
    """Ends a game by Syzygy WDL once few enough pieces are left (and no castling rights)."""

    def __init__(self, path: str):
        self.tablebase = chess.syzygy.Tablebase()
        for directory in path.split(os.pathsep):
            if not os.path.isdir(directory):
                raise ValueError(f"--tb: {directory!r} is not a directory")
            self.tablebase.add_directory(directory)
        if not self.tablebase.wdl:
            raise ValueError(f"--tb: no Syzygy WDL tables (*.rtbw) in {path!r}")
        self.max_pieces = max(len(name) - 1 for name in self.tablebase.wdl)   # "KQvK" -> 3 pieces

    def __call__(self, board: chess.Board) -> Optional[Ending]:
        if board.castling_rights or chess.popcount(board.occupied) > self.max_pieces:
            return None
        try:
            wdl = self.tablebase.probe_wdl(board)
        except KeyError:                    # a missing table (MissingTableError is a KeyError)
            return None
        # WDL values +-1 are wins/losses spoiled by the fifty-move rule ("cursed"/"blessed"): draws.
        # +-2 assume a fresh fifty-move counter; with plies already on it, DTZ says whether the
        # winner can still zero it in time (DTZ may be one ply off: near the limit keep playing).
        if abs(wdl) == 2 and board.halfmove_clock:
            try:
                plies = abs(self.tablebase.probe_dtz(board)) + board.halfmove_clock
            except KeyError:
                return None
            if plies > 101:
                wdl = 0
            elif plies >= 100:
                return None
        if abs(wdl) < 2:
            return draw("tablebase", "adjudication", "Draw by tablebase adjudication")
        loser = board.turn if wdl < 0 else not board.turn
        return loss(loser, "tablebase", "adjudication", "{winner} wins by tablebase adjudication")


@dataclass
class Rules:
    """Everything that decides how games are played and ended, shared by all games of a match."""
    tc: TimeControl
    margin: float = 0.1                 # seconds of grace on the clock (see --timemargin)
    stall_timeout: float = 60.0         # seconds without a move before an engine with no clock loses
    draw: Optional[DrawRule] = None
    resign: Optional[ResignRule] = None
    tablebase: Optional[TablebaseAdjudicator] = None
    maxmoves: Optional[int] = None

    def adjudicate(self, board: chess.Board, white_scores: Sequence[Optional[int]]) -> Optional[Ending]:
        """Adjudication before the next engine move; `white_scores` as for draw_adjudicated."""
        if self.tablebase is not None:
            ending = self.tablebase(board)
            if ending is not None:
                return ending
        if self.resign is not None:
            loser = resign_adjudicated(white_scores, self.resign)
            if loser is not None:
                return loss(loser, "resign adjudication", "adjudication", "{loser} resigns (adjudication)")
        if self.draw is not None and draw_adjudicated(white_scores, self.draw):
            return draw("draw adjudication", "adjudication", "Draw by adjudication")
        if self.maxmoves is not None and len(white_scores) >= 2 * self.maxmoves:
            return draw("max moves", "adjudication", "Draw by the move limit")
        return None


class GameClock:
    """Both sides' clocks under a TimeControl, charged with the wall time the runner measures."""

    def __init__(self, tc: TimeControl):
        self.tc = tc
        self.remaining = {chess.WHITE: tc.base, chess.BLACK: tc.base}
        self.moves_made = {chess.WHITE: 0, chess.BLACK: 0}

    def limit(self, side: chess.Color) -> chess.engine.Limit:
        tc = self.tc
        if tc.base is None:
            return chess.engine.Limit(time=tc.movetime, depth=tc.depth, nodes=tc.nodes)
        to_go = tc.moves - self.moves_made[side] % tc.moves if tc.moves else None
        return chess.engine.Limit(white_clock=self.remaining[chess.WHITE], black_clock=self.remaining[chess.BLACK],
                                  white_inc=tc.increment, black_inc=tc.increment, remaining_moves=to_go,
                                  depth=tc.depth, nodes=tc.nodes)

    def allowance(self, side: chess.Color, margin: float) -> Optional[float]:
        """Seconds the side to move may think before it loses on time; None without a time limit."""
        if self.tc.base is not None:
            return self.remaining[side] + margin
        if self.tc.movetime is not None:
            return self.tc.movetime + margin
        return None

    def charge(self, side: chess.Color, elapsed: float, margin: float) -> bool:
        """Charge a move; False if it overstepped the time (clock or movetime) by more than `margin`."""
        allowance = self.allowance(side, margin)
        if allowance is not None and elapsed > allowance:
            return False
        if self.tc.base is not None:
            # Within the margin the clock stops at 0: the margin absorbs the runner's latency.
            self.remaining[side] = max(0.0, self.remaining[side] - elapsed) + self.tc.increment
            self.moves_made[side] += 1
            if self.tc.moves and self.moves_made[side] % self.tc.moves == 0:
                self.remaining[side] += self.tc.base
        return True


# ---------------------------------------------------------------------------------------------------
# Engine processes and one game
# ---------------------------------------------------------------------------------------------------

class EngineStartError(Exception):
    """An engine could not be started or configured at all: the match cannot go on."""


class EngineProcess:
    """One engine process owned by a worker: started on first use, reused between games, restarted
    after it crashed, hung or broke the rules."""

    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.transport: Optional[asyncio.SubprocessTransport] = None
        self.protocol: Optional[chess.engine.Protocol] = None
        self.game: object = None            # python-chess starts a new game when this token changes

    async def start(self) -> None:
        popen = chess.engine.popen_uci if self.spec.protocol == "uci" else chess.engine.popen_xboard
        what = f"engine {self.spec.name!r} ({shlex.join(self.spec.command)})"
        try:
            self.transport, self.protocol = await asyncio.wait_for(
                # setpgrp: a Ctrl-C at the terminal reaches the runner only, which then quits the engines.
                popen(self.spec.command, cwd=self.spec.directory, stderr=asyncio.subprocess.DEVNULL, setpgrp=True),
                START_TIMEOUT)
        except asyncio.TimeoutError:
            raise EngineStartError(f"{what} did not finish its {self.spec.protocol} handshake "
                                   f"within {START_TIMEOUT:g} s") from None
        except (OSError, chess.engine.EngineError) as error:
            raise EngineStartError(f"cannot start {what}: {error}") from None
        try:
            await self.protocol.configure(self.spec.options)
        except chess.engine.EngineError as error:
            await self.close()
            raise EngineStartError(f"{what}: {error}") from None

    async def new_game(self) -> None:
        """Start the engine if needed and tell it a new game begins (outside any clock)."""
        if self.protocol is None or self.protocol.returncode.done():
            await self.close()
            await self.start()
        if self.spec.protocol == "uci":
            # Sent here rather than by python-chess inside the first play() of the game, so that
            # clearing the hash is not charged to the engine's clock. (python-chess still sends one
            # ucinewgame + isready of its own in the first play() of each process.)
            self.protocol.send_line("ucinewgame")
            await asyncio.wait_for(self.protocol.ping(), START_TIMEOUT)
        else:
            self.game = object()

    async def play(self, board: chess.Board, limit: chess.engine.Limit,
                   timeout: Optional[float]) -> chess.engine.PlayResult:
        return await asyncio.wait_for(
            self.protocol.play(board, limit, game=self.game, info=INFO), timeout)

    async def close(self) -> None:
        """Ask the engine to quit; kill it if it does not. Safe to call at any time."""
        transport, protocol = self.transport, self.protocol
        self.transport = self.protocol = None
        if transport is None:
            return
        try:
            await asyncio.wait_for(protocol.quit(), QUIT_TIMEOUT)
        except (asyncio.TimeoutError, chess.engine.EngineError):
            pass
        finally:
            transport.close()               # kills the process if it is still running


@dataclass
class GameTask:
    """One scheduled game."""
    number: int                 # 1-based over the whole match; the PGN Round tag
    pairing: int                # which pairing (index into Match.tallies)
    white: int                  # engine indices
    black: int
    opening: chess.Board        # start position, book moves in its move stack


def format_comment(score: Optional[chess.engine.PovScore], depth: Optional[int], side: chess.Color,
                   elapsed: float) -> str:
    """The move comment as cutechess writes it: '+0.34/12 0.520s', '-M3/20 1.002s' or '0.520s'."""
    if score is None:
        return f"{elapsed:.3f}s"
    relative = score.pov(side)
    if relative.is_mate():
        mate = relative.mate()
        text = f"{'+' if mate > 0 else '-'}M{abs(mate)}"
    else:
        text = f"{relative.score() / 100:+.2f}"
    return f"{text}/{depth or 0} {elapsed:.3f}s"


def engine_fault(side: chess.Color, error: Exception, allowance: Optional[float], stall_timeout: float) -> Ending:
    """The loss of the side whose engine did not answer `play` with a move: out of time, stalled
    (no time limit), crashed, or an EngineError from python-chess (an illegal or garbled move)."""
    if isinstance(error, asyncio.TimeoutError):
        if allowance is not None:
            return loss(side, "time forfeit", "time forfeit",
                        f"{{loser}} loses on time: no move within {allowance:.3f}s", True)
        return loss(side, "engine stall", "abandoned", f"{{loser}} did not move within {stall_timeout:g} s", True)
    if isinstance(error, chess.engine.EngineTerminatedError):
        return loss(side, "engine crash", "abandoned", "{loser}'s engine crashed: " + str(error), True)
    return loss(side, "illegal move", "rules infraction", "{loser} makes an illegal move: " + str(error), True)


async def play_game(task: GameTask, white: EngineProcess, black: EngineProcess, rules: Rules,
                    event: str = "?") -> Tuple[Ending, chess.pgn.Game]:
    """Play one game and return how it ended and its PGN. Engine faults end the game as a loss for
    the engine at fault (which is closed, to be restarted for its next game); EngineStartError
    propagates."""
    players = {chess.WHITE: white, chess.BLACK: black}
    board = task.opening.copy()
    game = chess.pgn.Game()
    game.headers.update(Event=event, Site="?", Date=time.strftime("%Y.%m.%d"), Round=str(task.number),
                        White=white.spec.name, Black=black.spec.name)
    game.setup(board.root())
    game.headers["TimeControl"] = rules.tc.pgn()
    node: chess.pgn.GameNode = game
    for move in board.move_stack:
        node = node.add_variation(move, comment="book")

    ending: Optional[Ending] = None
    for side, player in players.items():
        try:
            await player.new_game()
        except (asyncio.TimeoutError, chess.engine.EngineError) as error:
            await player.close()
            ending = loss(side, "engine crash", "abandoned", "{loser} failed to start a game: " + str(error), True)
            break

    clock = GameClock(rules.tc)
    white_scores: List[Optional[int]] = []
    while ending is None:
        ending = natural_end(board) or rules.adjudicate(board, white_scores)
        if ending is not None:
            break
        side = board.turn
        player = players[side]
        allowance = clock.allowance(side, rules.margin)
        start = time.perf_counter()
        try:
            played = await player.play(board, clock.limit(side),
                                      rules.stall_timeout if allowance is None else allowance)
        except (asyncio.TimeoutError, chess.engine.EngineError) as error:
            await player.close()            # hung, dead or confused: restarted for its next game
            ending = engine_fault(side, error, allowance, rules.stall_timeout)
            break
        elapsed = time.perf_counter() - start

        if not clock.charge(side, elapsed, rules.margin):
            ending = loss(side, "time forfeit", "time forfeit", "{loser} loses on time: " +
                          f"{elapsed:.3f}s used, {clock.allowance(side, rules.margin):.3f}s allowed", True)
            break
        if played.resigned:
            ending = loss(side, "resignation", "normal", "{loser} resigns")
            break
        if played.move is None or played.move not in board.legal_moves:
            await player.close()
            ending = loss(side, "illegal move", "rules infraction",
                          "{loser} makes an illegal move: " + str(played.move or "no move"), True)
            break
        score = played.info.get("score")
        white_scores.append(None if score is None else score.white().score(mate_score=MATE_CP))
        comment = format_comment(score, played.info.get("depth"), side, elapsed)
        node = node.add_variation(played.move, comment=comment)
        board.push(played.move)

    game.headers["Result"] = ending.result
    game.headers["Termination"] = ending.termination
    node.comment = ending.reason if node is game else f"{node.comment}, {ending.reason}"
    return ending, game


# ---------------------------------------------------------------------------------------------------
# The match
# ---------------------------------------------------------------------------------------------------

@dataclass
class Tally:
    """Results of one pairing from the point of view of its first engine."""
    first: int
    second: int
    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.draws

    def add(self, task: GameTask, result: str) -> None:
        if result == "1/2-1/2":
            self.draws += 1
        elif (result == "1-0") == (task.white == self.first):
            self.wins += 1
        else:
            self.losses += 1


def schedule(engines: int, games: int, openings: Sequence[chess.Board]) -> List[GameTask]:
    """A gauntlet of engine 0 against each other engine, `games` (even) per pairing: opening k is
    played in games 2k and 2k+1 with colours swapped; openings are reused cyclically if too few."""
    tasks = []
    for pairing, opponent in enumerate(range(1, engines)):
        for index in range(games):
            first_is_white = index % 2 == 0
            tasks.append(GameTask(number=len(tasks) + 1, pairing=pairing,
                                  white=0 if first_is_white else opponent, black=opponent if first_is_white else 0,
                                  opening=openings[(index // 2) % len(openings)]))
    return tasks


class Match:
    """Runs the scheduled games on --concurrency workers and keeps the tallies."""

    def __init__(self, engines: List[EngineSpec], tasks: List[GameTask], rules: Rules, concurrency: int = 1,
                 sprt: Optional[SprtSpec] = None, pgn_path: Optional[str] = None, event: str = "?",
                 quiet: bool = False, journal: Optional[Journal] = None):
        self.engines, self.tasks, self.rules, self.concurrency = engines, tasks, rules, concurrency
        self.sprt, self.pgn_path, self.event, self.quiet, self.journal = sprt, pgn_path, event, quiet, journal
        self.tallies = [Tally(0, opponent) for opponent in range(1, len(engines))]
        self.faults: collections.Counter = collections.Counter()         # (engine index, kind) -> count
        self.terminations: collections.Counter = collections.Counter()   # kind -> count
        self.decision: Optional[str] = None                              # SPRT decision
        self.error: Optional[str] = None                                 # why the match stopped early
        self.workers: List[asyncio.Task] = []
        self.pending: collections.deque = collections.deque()
        self.progress = None
        self.pgn_file = None
        self.resumed: Dict[int, dict] = {}                               # task number -> journal record
        if journal is not None:
            self.resume(journal)

    def resume(self, journal: Journal) -> None:
        """Count the games the journal holds (a game journaled twice counts once); the SPRT judges them."""
        tasks = {task.number: task for task in self.tasks}
        self.resumed = {record.get("game"): record for record in journal.records}
        for number, record in self.resumed.items():
            task = tasks.get(number)
            if task is None or (task.white, task.black) != (record.get("white"), record.get("black")) \
                    or not {"result", "kind", "fault"} <= record.keys():
                raise ValueError(f"{journal.path} holds a game line that does not fit this match's schedule "
                                 f"(fewer --games than before?): {record}")
            self.count(task, record["result"], record["kind"], record["fault"])
        self.decide(self.tallies[0])

    async def run(self) -> None:
        from tqdm import tqdm
        self.pending = collections.deque(task for task in self.tasks if task.number not in self.resumed)
        self.progress = tqdm(total=len(self.tasks), initial=len(self.resumed), unit="game", file=sys.stderr,
                             disable=self.quiet, dynamic_ncols=True, leave=True)
        self.progress.set_postfix_str(self.status())
        try:
            if self.journal is not None:
                self.journal.open()
            if self.pgn_path:
                self.pgn_file = open(self.pgn_path, "a", encoding="utf-8")
            workers = min(self.concurrency, len(self.pending))
            self.workers = [asyncio.ensure_future(self.worker()) for _ in range(workers)]
            for outcome in await asyncio.gather(*self.workers, return_exceptions=True):
                # EngineStartError has been noted in self.error; cancelled workers were stopped on purpose.
                if isinstance(outcome, BaseException) and \
                        not isinstance(outcome, (EngineStartError, asyncio.CancelledError)):
                    raise outcome
        finally:
            self.progress.close()
            if self.pgn_file is not None:
                self.pgn_file.close()
            if self.journal is not None:
                self.journal.close()

    async def worker(self) -> None:
        processes: Dict[int, EngineProcess] = {}
        try:
            while self.pending and self.decision is None and self.error is None:
                task = self.pending.popleft()
                for index in (task.white, task.black):
                    processes.setdefault(index, EngineProcess(self.engines[index]))
                try:
                    ending, game = await play_game(task, processes[task.white], processes[task.black],
                                                   self.rules, self.event)
                except EngineStartError as error:
                    self.stop_others(str(error))
                    raise
                self.record(task, ending, game)
        finally:
            await asyncio.gather(*(process.close() for process in processes.values()))

    def stop_others(self, error: Optional[str] = None) -> None:
        """Cancel the games in progress on the other workers (their results are not counted)."""
        if error is not None and self.error is None:
            self.error = error
        for worker in self.workers:
            if worker is not asyncio.current_task():
                worker.cancel()

    def record(self, task: GameTask, ending: Ending, game: chess.pgn.Game) -> None:
        """Count a finished game, write it to the PGN file and the journal, check the SPRT."""
        culprit = (task.white if ending.loser == chess.WHITE else task.black) if ending.fault else None
        self.count(task, ending.result, ending.kind, culprit)
        if self.pgn_file is not None:       # before the journal: a game the journal counts is in the PGN
            print(game, file=self.pgn_file, end="\n\n")
            self.pgn_file.flush()
        if self.journal is not None:
            self.journal.append({"game": task.number, "pairing": task.pairing, "white": task.white,
                                 "black": task.black, "result": ending.result, "kind": ending.kind,
                                 "fault": culprit})
        self.decide(self.tallies[task.pairing])
        if self.decision is not None:
            self.stop_others()
        if self.progress is not None:
            self.progress.update(1)
            self.progress.set_postfix_str(self.status())

    def count(self, task: GameTask, result: str, kind: str, culprit: Optional[int]) -> None:
        """Add a game to the tallies; `culprit` is the index of the engine whose fault ended it, if any."""
        self.tallies[task.pairing].add(task, result)
        self.terminations[kind] += 1
        if culprit is not None:
            self.faults[culprit, kind] += 1

    def decide(self, tally: Tally) -> None:
        """The SPRT's decision, taken when the pairing has played an even number of games."""
        if self.sprt is not None and tally.games % 2 == 0:
            self.decision = sprt_decision(self.llr(tally), sprt_bounds(self.sprt.alpha, self.sprt.beta))

    def llr(self, tally: Tally) -> float:
        return sprt_llr(tally.wins, tally.losses, tally.draws, self.sprt.elo0, self.sprt.elo1)

    def status(self) -> str:
        """The progress-line summary: the first engine's W-L-D over all pairings, Elo, LLR."""
        wins, losses, draws = (sum(getattr(t, key) for t in self.tallies) for key in ("wins", "losses", "draws"))
        text = f"{self.engines[0].name} {wins}-{losses}-{draws}"
        if wins + losses + draws:
            elo, margin = elo_interval(wins, losses, draws)
            text += f" Elo {elo:+.0f} +/- {margin:.0f}"
        if self.sprt is not None:
            text += f" LLR {self.llr(self.tallies[0]):.2f}"
        return text

    def report(self) -> str:
        """The final report: per pairing the score line, Elo, SPRT; per engine the faults; terminations."""
        lines = []
        for tally in self.tallies:
            first, second = self.engines[tally.first].name, self.engines[tally.second].name
            if tally.games == 0:
                lines += [f"Score of {first} vs {second}: 0 - 0 - 0  [n/a] 0", "Elo difference: n/a"]
                continue
            score = (tally.wins + 0.5 * tally.draws) / tally.games
            elo, margin = elo_interval(tally.wins, tally.losses, tally.draws)
            lines.append(f"Score of {first} vs {second}: {tally.wins} - {tally.losses} - {tally.draws}  "
                         f"[{score:.3f}] {tally.games}")
            lines.append(f"Elo difference: {elo:.1f} +/- {margin:.1f} (95%), "
                         f"LOS: {100 * likelihood_of_superiority(tally.wins, tally.losses):.1f} %, "
                         f"DrawRatio: {100 * tally.draws / tally.games:.1f} %")
        if self.sprt is not None:
            lower, upper = sprt_bounds(self.sprt.alpha, self.sprt.beta)
            lines.append(f"SPRT: {self.decision or 'inconclusive'} (LLR {self.llr(self.tallies[0]):.2f}, bounds "
                         f"{lower:.2f} {upper:.2f}; logistic Elo, elo0={self.sprt.elo0:g} elo1={self.sprt.elo1:g} "
                         f"alpha={self.sprt.alpha:g} beta={self.sprt.beta:g})")
        for index, spec in enumerate(self.engines):
            lines.append(f"{spec.name}: time forfeits: {self.faults[index, 'time forfeit']}, "
                         f"illegal moves: {self.faults[index, 'illegal move']}, "
                         f"crashes: {self.faults[index, 'engine crash'] + self.faults[index, 'engine stall']}")
        played = sum(self.terminations.values())
        if self.resumed:
            lines.append(f"Games resumed from {self.journal.path}: {len(self.resumed)}")
        lines.append(f"Games: {played} of {len(self.tasks)} played")
        counts = ", ".join(f"{kind}: {count}" for kind, count in self.terminations.most_common())
        lines.append(f"Terminations: {counts or 'none'}")
        return "\n".join(lines)


# ---------------------------------------------------------------------------------------------------
# Command line
# ---------------------------------------------------------------------------------------------------

def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the options of `pyrope match` to `parser`."""
    parser.description = ("Play engines against each other (the first against each of the others), each "
                          "opening twice with colours swapped, and report score, Elo and optionally an SPRT.")
    parser.epilog = ("examples:\n"
                     "  pyrope match --engine cmd=pyrope --engine cmd=sunfish-uci --tc 10+0.1 --games 100 \\\n"
                     "      --openings balanced-8ply.epd --concurrency 2 --pgn games.pgn\n"
                     "  pyrope match --engine cmd=pyrope name=new --engine cmd=./old/pyrope name=old \\\n"
                     "      --each option.Hash=64 option.OwnBook=false --tc 5+0.05 --games 2000 --sprt elo0=0 elo1=10 \\\n"
                     "      --resume new-old.jsonl    # run it again to go on where it stopped\n"
                     "  pyrope match --engine cmd=pyrope --engine cmd=fairymax proto=xboard --movetime 0.5")
    engines = parser.add_argument_group("engines")
    engines.add_argument("--engine", action="append", nargs="+", metavar="KEY=VALUE", default=[],
                         help="an engine: cmd=COMMAND [name=NAME] [proto=uci|xboard] [dir=DIR] "
                              "[option.NAME=VALUE ...]; give it two or more times (quote commands with spaces)")
    engines.add_argument("--each", nargs="+", metavar="KEY=VALUE", default=[],
                         help="fields applied to every engine (an --engine's own fields win)")
    games = parser.add_argument_group("games")
    games.add_argument("--games", type=int, default=2,
                       help="games per pairing, rounded up to an even number (default 2)")
    games.add_argument("--openings", metavar="FILE",
                       help="EPD or PGN file of start positions (default: the initial position)")
    games.add_argument("--order", choices=("sequential", "random"), default="sequential",
                       help="order of the openings (default sequential)")
    games.add_argument("--seed", type=int, help="random seed for --order random (default: a random one, reported)")
    games.add_argument("--concurrency", type=int, default=1, help="games played at the same time (default 1)")
    limits = parser.add_argument_group("time control (--tc, --movetime, --depth and/or --nodes)")
    limits.add_argument("--tc",
                        help="clock: BASE+INC, MOVES/BASE or MOVES/BASE+INC in seconds (e.g. 10+0.1, 40/60)")
    limits.add_argument("--movetime", type=float, metavar="S", help="fixed seconds per move")
    limits.add_argument("--depth", type=int, help="search depth per move")
    limits.add_argument("--nodes", type=int, help="nodes per move")
    limits.add_argument("--timemargin", type=int, default=100, metavar="MS",
                        help="milliseconds an engine may overstep its clock or movetime before it loses on "
                             "time (default 100: the runner measures wall time through pipes and Python's "
                             "event loop, whose latency must not cost games)")
    limits.add_argument("--timeout", type=float, default=60.0, metavar="S",
                        help="without a clock or movetime: an engine that has not moved after S seconds "
                             "loses (default 60)")
    adjudication = parser.add_argument_group("adjudication")
    adjudication.add_argument("--draw", nargs="*", metavar="KEY=VALUE",
                              help="draw adjudication: movenumber=40 movecount=8 score=10 (the defaults; "
                                   "movenumber counts engine moves, score is in cp)")
    adjudication.add_argument("--resign", nargs="*", metavar="KEY=VALUE",
                              help="resign adjudication: movecount=3 score=600 (the defaults)")
    adjudication.add_argument("--tb", metavar="PATH",
                              help=f"adjudicate by Syzygy WDL; tablebase directories separated by {os.pathsep!r}")
    adjudication.add_argument("--maxmoves", type=int, metavar="N",
                              help="adjudicate a draw after N moves by each engine (book moves not counted)")
    output = parser.add_argument_group("output")
    output.add_argument("--sprt", nargs="*", metavar="KEY=VALUE",
                        help="stop early by SPRT (two engines): elo0=0 elo1=10 alpha=0.05 beta=0.05 "
                             "(the defaults)")
    output.add_argument("--pgn", metavar="FILE", help="append the games to this PGN file")
    output.add_argument("--resume", metavar="FILE",
                        help="journal each finished game in FILE; run the same command again to play only the "
                             "games it lacks (a game cut short is replayed) and report them all. FILE fixes "
                             "the engines, time control, adjudication, SPRT bounds, openings (content), order and seed "
                             "(reused when --seed is not given): other ones are refused. With two engines "
                             "--games may be raised later to extend the match; with more it is fixed too")
    output.add_argument("--event", default="Pyrope match", help="PGN Event tag")
    output.add_argument("--quiet", action="store_true", help="no progress line on stderr")


def fingerprint(args: argparse.Namespace, engines: List[EngineSpec], rules: Rules, sprt: Optional[SprtSpec],
                games: int) -> dict:
    """What a match's games depend on, for its journal: the engines, the conditions of play, the
    openings (their file's content) in their order, and, with more than two engines, the number of
    games (with two, schedule() with more games begins with the same tasks: a match can grow). The
    SPRT's bounds too: a test whose hypotheses change on the way is no longer the test it claims."""
    openings = None
    if args.openings:
        with open(args.openings, "rb") as handle:
            openings = hashlib.sha256(handle.read()).hexdigest()

    def settings(rule) -> Optional[dict]:
        return None if rule is None else dataclasses.asdict(rule)
    return {"engines": [dataclasses.asdict(spec) for spec in engines], "time control": settings(rules.tc),
            "timemargin": args.timemargin, "timeout": args.timeout, "draw": settings(rules.draw),
            "resign": settings(rules.resign), "tb": args.tb, "maxmoves": args.maxmoves, "openings": openings,
            "order": args.order, "seed": args.seed if args.order == "random" else None,
            "sprt": settings(sprt), "game count": games if len(engines) > 2 else None}


def build_match(args: argparse.Namespace) -> Match:
    """Check the options and build the Match; ValueError says what was wrong."""
    if len(args.engine) < 2:
        raise ValueError("give at least two engines (--engine cmd=... twice)")
    engines = [parse_engine_spec(list(args.each) + tokens) for tokens in args.engine]
    names = collections.Counter(spec.name for spec in engines)
    seen: collections.Counter = collections.Counter()
    for spec in engines:                    # make duplicate names distinct: sunfish, sunfish-2
        seen[spec.name] += 1
        if names[spec.name] > 1 and seen[spec.name] > 1:
            spec.name = f"{spec.name}-{seen[spec.name]}"

    if args.tc is not None and args.movetime is not None:
        raise ValueError("give either --tc or --movetime, not both")
    for option in ("movetime", "depth", "nodes"):
        value = getattr(args, option)
        if value is not None and value <= 0:
            raise ValueError(f"--{option} must be more than 0, got {value}")
    tc = dataclasses.replace(parse_tc(args.tc) if args.tc else TimeControl(),
                             movetime=args.movetime, depth=args.depth, nodes=args.nodes)
    if tc == TimeControl():
        raise ValueError("give a time control: --tc, --movetime, --depth or --nodes")
    if tc.nodes is not None and (tc.base is not None or tc.movetime is not None) and \
            any(spec.protocol == "xboard" for spec in engines):
        raise ValueError("xboard engines cannot combine --nodes with a time limit")
    if args.games < 1 or args.concurrency < 1:
        raise ValueError("--games and --concurrency must be 1 or more")
    if args.timemargin < 0 or args.timeout <= 0:
        raise ValueError("--timemargin must be 0 or more and --timeout more than 0")
    if args.maxmoves is not None and args.maxmoves < 1:
        raise ValueError("--maxmoves must be 1 or more")
    sprt = None if args.sprt is None else parse_fields(SprtSpec, args.sprt, "--sprt")
    if sprt is not None and len(engines) != 2:
        raise ValueError("--sprt needs exactly two engines")

    rules = Rules(tc=tc, margin=args.timemargin / 1000.0, stall_timeout=args.timeout,
                  draw=None if args.draw is None else parse_fields(DrawRule, args.draw, "--draw"),
                  resign=None if args.resign is None else parse_fields(ResignRule, args.resign, "--resign"),
                  tablebase=TablebaseAdjudicator(args.tb) if args.tb else None, maxmoves=args.maxmoves)

    openings = load_openings(args.openings) if args.openings else [chess.Board()]
    journal = Journal(args.resume) if args.resume else None
    if args.order == "random":
        if args.seed is None and journal is not None:
            args.seed = journal.header.get("seed")          # a resumed match keeps its order
        if args.seed is None:
            args.seed = random.randrange(2 ** 32)
        openings = list(openings)
        random.Random(args.seed).shuffle(openings)
    games = args.games + args.games % 2
    if journal is not None:
        journal.check(fingerprint(args, engines, rules, sprt, games))
    tasks = schedule(len(engines), games, openings)
    quiet = args.quiet or not console.show_progress     # --quiet or the command line's --no-progress
    return Match(engines, tasks, rules, args.concurrency, sprt, args.pgn, args.event, quiet, journal)


def run(args: argparse.Namespace) -> int:
    """Run `pyrope match`; exit code 0, 2 for bad options or an engine that cannot start, 130 on Ctrl-C."""
    try:
        match = build_match(args)
    except ValueError as error:
        print(f"pyrope match: {error}", file=sys.stderr)
        return 2
    # python-chess logs engines' protocol oddities (unexpected output ...) as warnings: with no logging
    # configured they would land on stderr through the progress line.
    logging.getLogger("chess.engine").addHandler(logging.NullHandler())
    logging.getLogger("chess.engine").propagate = False
    if args.order == "random":
        print(f"Openings in random order, seed {args.seed}")
    try:
        asyncio.run(match.run())
    except KeyboardInterrupt:
        match.error = "interrupted"
    except OSError as error:                # e.g. the PGN file cannot be opened
        print(f"pyrope match: {error}", file=sys.stderr)
        return 2
    if match.error is not None:
        print(f"pyrope match: stopped: {match.error}", file=sys.stderr)
    print(match.report())
    if match.error is None:
        return 0
    return 130 if match.error == "interrupted" else 2
