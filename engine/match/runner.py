"""The one match runner: every game's matches (`pyrope match` for chess, `pyrope mill match`) run here.

It schedules a gauntlet (the first player against each of the others), each opening twice with
colours swapped; plays the games on --concurrency workers in one asyncio event loop, each worker
owning its own players and reusing them from game to game; tallies the results, journals each
finished game (journal.py) so that `--resume` plays only the games a journal lacks, checks the
SPRT after each completed game pair, and writes the report.

A game plugs in through the Game interface below: how to make a player from its spec, how one
game is played between two players (its board, move legality, game end and engine protocol are
the game's business), and how a game's record is written. Chess's is chess_game.ChessGame,
Mill's pyrope.mill.match.game.MillGame.

Choices worth knowing:
- SPRT: checked after each completed game pair; games still running when it decides are abandoned
  and not counted.
- Faults (time, illegal move, crash, no answer) lose the game; the game closes the player at
  fault, and the worker restarts it for its next game.
- The record file (--pgn) is appended to, so several runs can collect into one file.
- The journal's header fingerprints what defines the games (each command's `fingerprint`); a
  journal begun under other conditions is refused.
- On Ray (`ray`: a cluster's address), each game is a task of the job runner (jobs.py, as datagen's
  positions are): a worker there makes both players for its game and closes them after it, and this
  process counts, records and journals the games as they come in, as a local run does. The journal
  is the same either way, so a match begun on one can be finished on the other; a lost worker costs
  only its game in flight, which is played again.
"""
from __future__ import annotations

import asyncio
import collections
import contextlib
import io
import signal
import sys
import threading
from dataclasses import dataclass
from typing import Callable, Dict, List, Optional, Protocol, Sequence, TextIO, Tuple

from ..jobs import JobError, RayWorkers, run_job
from ..journal import Journal
from .clock import WHITE
from .options import SprtSpec
from .stats import elo_interval, likelihood_of_superiority, sprt_bounds, sprt_decision, sprt_llr

START_TIMEOUT = 30.0        # seconds an engine may take to start, to answer isready, or to quit
QUIT_TIMEOUT = 2.0
SIDE_NAMES = ("black", "white")     # indexed by side: False (Black), True (White, player 1)


@dataclass(frozen=True)
class Ending:
    """How a game ended: the PGN result and Termination tag, a countable kind and a sentence."""
    result: str                             # "1-0", "0-1", "1/2-1/2"
    termination: str                        # PGN Termination: normal, adjudication, time forfeit, ...
    kind: str                               # e.g. "checkmate", "time forfeit", "draw adjudication"
    reason: str                             # e.g. "White mates", "Black loses on time"
    loser: Optional[bool] = None            # for decisive games: True White, False Black
    fault: bool = False                     # the loser broke the rules (time, illegal move, crash, hang)


def draw(kind: str, termination: str = "normal", reason: Optional[str] = None) -> Ending:
    return Ending("1/2-1/2", termination, kind, reason or kind[0].upper() + kind[1:])


def loss(loser: bool, kind: str, termination: str, reason: str, fault: bool = False) -> Ending:
    """`reason` may name the sides as {loser} and {winner}."""
    reason = reason.replace("{loser}", SIDE_NAMES[loser].capitalize())
    reason = reason.replace("{winner}", SIDE_NAMES[not loser].capitalize())
    return Ending("0-1" if loser == WHITE else "1-0", termination, kind, reason, loser, fault)


def fault_ending(side: bool, error: Exception, allowance: Optional[float], stall_timeout: float,
                 crashed: bool) -> Ending:
    """The loss of the side whose engine did not answer with a move: out of time (asyncio's timeout
    with a time limit), stalled (without one), crashed (`crashed`), or else an illegal or garbled move."""
    if isinstance(error, asyncio.TimeoutError):
        if allowance is not None:
            return loss(side, "time forfeit", "time forfeit",
                        f"{{loser}} loses on time: no move within {allowance:.3f}s", True)
        return loss(side, "engine stall", "abandoned", f"{{loser}} did not move within {stall_timeout:g} s", True)
    if crashed:
        return loss(side, "engine crash", "abandoned", "{loser}'s engine crashed: " + str(error), True)
    return loss(side, "illegal move", "rules infraction", "{loser} makes an illegal move: " + str(error), True)


class EngineStartError(Exception):
    """An engine could not be started or configured at all: the match cannot go on."""


@dataclass
class GameTask:
    """One scheduled game."""
    number: int                 # 1-based over the whole match; the PGN Round tag
    pairing: int                # which pairing (index into Match.tallies)
    white: int                  # engine indices
    black: int
    opening: object             # the game's opening: a chess.Board with its book moves, Mill's turns


class Player(Protocol):
    """A player a worker owns: made on first use, reused between games."""
    async def close(self) -> None: ...      # end it (safe at any time); it starts again when next used


class Game(Protocol):
    """What the runner needs of a game (chess: chess_game.ChessGame; Mill: mill.match.game.MillGame)."""

    def player(self, spec) -> Player: ...

    async def play(self, task: GameTask, white: Player, black: Player) -> Tuple[Ending, object]:
        """Play one game; return how it ended and its record. A fault ends the game as a loss for the
        player at fault, which the game closes; EngineStartError propagates and stops the match."""

    def write_record(self, record: object, file: TextIO) -> None: ...

    def report_lines(self, match: "Match") -> List[str]: ...        # the game's own lines after the report


def record_text(game: Game, record: object) -> str:
    """A game's record as its record file will hold it."""
    text = io.StringIO()
    game.write_record(record, text)
    return text.getvalue()


def play_command(command: str, build: Callable[[], "Match"], announce: Callable[["Match"], Optional[str]]) -> int:
    """A match command's run: build the match (a ValueError is one line on stderr, `command` first,
    and exit code 2), print `announce`'s line about its games (if any), play it (Match.play)."""
    try:
        match = build()
    except ValueError as error:
        print(f"{command}: {error}", file=sys.stderr)
        return 2
    line = announce(match)
    if line:
        print(line)
    return match.play(command)


# ---------------------------------------------------------------------------------------------------
# Scheduling and tallies
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

    def add(self, white: int, result: str) -> None:
        """Count a game whose white was engine `white` (a journal record's "white" too)."""
        if result == "1/2-1/2":
            self.draws += 1
        elif (result == "1-0") == (white == self.first):
            self.wins += 1
        else:
            self.losses += 1


def schedule(engines: int, games: int, openings: Sequence[object]) -> List[GameTask]:
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
    """Runs the scheduled games of `game` on --concurrency workers, or on the Ray cluster at `ray`,
    and keeps the tallies. `engines` are the players' specs (each has a `name`), in the order of the
    indices the tasks use."""

    def __init__(self, engines: list, tasks: List[GameTask], game: Game, concurrency: int = 1,
                 sprt: Optional[SprtSpec] = None, record_path: Optional[str] = None, quiet: bool = False,
                 journal: Optional[Journal] = None, ray: Optional[str] = None):
        self.engines, self.tasks, self.game, self.concurrency = engines, tasks, game, concurrency
        self.sprt, self.record_path, self.quiet, self.journal, self.ray = sprt, record_path, quiet, journal, ray
        self.tallies = [Tally(0, opponent) for opponent in range(1, len(engines))]
        self.faults: collections.Counter = collections.Counter()         # (engine index, kind) -> count
        self.terminations: collections.Counter = collections.Counter()   # kind -> count
        self.draws: collections.Counter = collections.Counter()          # kind -> count of the drawn games
        self.decision: Optional[str] = None                              # SPRT decision
        self.error: Optional[str] = None                                 # why the match stopped early
        self.workers: List[asyncio.Task] = []
        self.pending: collections.deque = collections.deque()
        self.progress = None
        self.record_file: Optional[TextIO] = None
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

    @contextlib.contextmanager
    def playing(self):
        """While games are played: the games still to play queued, the progress line, the journal and
        the record file open."""
        from tqdm import tqdm
        self.pending = collections.deque(task for task in self.tasks if task.number not in self.resumed)
        # disable=None hides the bar when stderr is not a terminal (a pipe, a log file, a test), as
        # console.progress does for the other commands.
        self.progress = tqdm(total=len(self.tasks), initial=len(self.resumed), unit="game", file=sys.stderr,
                             disable=True if self.quiet else None, dynamic_ncols=True, leave=True)
        self.progress.set_postfix_str(self.status())
        try:
            if self.journal is not None:
                self.journal.open()
            if self.record_path:
                self.record_file = open(self.record_path, "a", encoding="utf-8")
            yield
        finally:
            self.progress.close()
            if self.record_file is not None:
                self.record_file.close()
            if self.journal is not None:
                self.journal.close()

    async def run(self) -> None:
        with self.playing():
            workers = min(self.concurrency, len(self.pending))
            self.workers = [asyncio.ensure_future(self.worker()) for _ in range(workers)]
            for outcome in await asyncio.gather(*self.workers, return_exceptions=True):
                # EngineStartError has been noted in self.error; cancelled workers were stopped on purpose.
                if isinstance(outcome, BaseException) and \
                        not isinstance(outcome, (EngineStartError, asyncio.CancelledError)):
                    raise outcome

    def run_on_ray(self) -> bool:
        """Play the games as tasks on the Ray cluster at `ray` (with --concurrency CPUs when it is
        "local"); False if Ctrl-C stopped it. A cluster that cannot be joined is a JobError."""
        backend = RayWorkers(self.ray, self.concurrency)
        with self.playing():
            try:
                run_job(GamesJob(self), None, backend, bar=self.progress,
                        until=lambda: self.decision is not None or self.error is not None)
            except KeyboardInterrupt:
                return False
            except JobError as error:       # a game that raised, or lost with its worker again and again
                self.error = str(error)
        return True

    async def worker(self) -> None:
        processes: Dict[int, Player] = {}
        try:
            while self.pending and self.decision is None and self.error is None:
                task = self.pending.popleft()
                for index in (task.white, task.black):
                    if index not in processes:
                        processes[index] = self.game.player(self.engines[index])
                try:
                    ending, game = await self.game.play(task, processes[task.white], processes[task.black])
                except EngineStartError as error:
                    self.stop_others(str(error))
                    raise
                self.record(task, ending, record_text(self.game, game))
                self.progress.update(1)
        finally:
            await asyncio.gather(*(process.close() for process in processes.values()))

    def stop_others(self, error: Optional[str] = None) -> None:
        """Cancel the games in progress on the other workers (their results are not counted)."""
        if error is not None and self.error is None:
            self.error = error
        for worker in self.workers:
            if worker is not asyncio.current_task():
                worker.cancel()

    def record(self, task: GameTask, ending: Ending, text: str) -> None:
        """Count a finished game, write its record's `text` to the record file and the game to the
        journal, check the SPRT, show the new score (the caller advances the progress line)."""
        culprit = (task.white if ending.loser == WHITE else task.black) if ending.fault else None
        self.count(task, ending.result, ending.kind, culprit)
        if self.record_file is not None:    # before the journal: a game the journal counts is in the record
            self.record_file.write(text)
            self.record_file.flush()
        if self.journal is not None:
            entry = {"game": task.number, "pairing": task.pairing, "white": task.white, "black": task.black,
                     "result": ending.result, "kind": ending.kind, "fault": culprit}
            if culprit is not None:     # what the fault was (the time used, the engine's error): for its diagnosis
                entry["reason"] = ending.reason
            self.journal.append(entry)
        self.decide(self.tallies[task.pairing])
        if self.decision is not None:
            self.stop_others()
        if self.progress is not None:
            self.progress.set_postfix_str(self.status())

    def count(self, task: GameTask, result: str, kind: str, culprit: Optional[int]) -> None:
        """Add a game to the tallies; `culprit` is the index of the engine whose fault ended it, if any."""
        self.tallies[task.pairing].add(task.white, result)
        self.terminations[kind] += 1
        if result == "1/2-1/2":
            self.draws[kind] += 1
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
        return "\n".join(lines + self.game.report_lines(self))

    def run_until_interrupted(self) -> bool:
        """Run the match on its own event loop; False if Ctrl-C (or SIGTERM, which console makes an
        interrupt too) stopped it. Those signals go to our handler for the whole call, not to
        KeyboardInterrupt: one that landed while asyncio builds or closes its loop would leave a
        half-made loop whose destructor prints a traceback. The handler cancels the match's task,
        whose `finally` blocks quit the engines. A signal ignored (a background job's SIGINT) stays so."""
        interrupted = False
        main_task: Optional[asyncio.Task] = None

        def on_interrupt(signum, frame) -> None:
            nonlocal interrupted
            interrupted = True
            if main_task is not None and not main_task.done():
                main_task.get_loop().call_soon_threadsafe(main_task.cancel)

        async def main() -> None:
            nonlocal main_task
            main_task = asyncio.current_task()
            if not interrupted:
                await self.run()

        # Only the main thread may set handlers; the signals that now raise KeyboardInterrupt.
        interrupts = [number for number in (signal.SIGINT, signal.SIGTERM)
                      if signal.getsignal(number) is signal.default_int_handler] \
            if threading.current_thread() is threading.main_thread() else []
        previous = {number: signal.signal(number, on_interrupt) for number in interrupts}
        try:
            asyncio.run(main())
        except asyncio.CancelledError:
            pass
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
        return not interrupted

    def play(self, command: str) -> int:
        """Run the match from a command line and print its report; the exit code: 0, 2 when it stopped
        on an engine that cannot start (its command is bad input), 130 on Ctrl-C. `command` begins the
        messages on stderr. A record file that cannot be written (OSError) is the work failing: the
        command line reports it, exit 1."""
        if not (self.run_on_ray() if self.ray else self.run_until_interrupted()):
            self.error = "interrupted"
        if self.error is not None:
            print(f"{command}: stopped: {self.error}", file=sys.stderr)
        print(self.report())
        if self.error is None:
            return 0
        return 130 if self.error == "interrupted" else 2


class GamesJob:
    """A match's games as a job of the job runner (jobs.py), for a match on Ray: a task plays one
    game in the worker, between players made there for it and closed after it, and returns how it
    ended and its record's text; `save`, here, hands them to the match. An engine that cannot start
    stops the match, as it does a local one."""
    unit = "games"

    def __init__(self, match: Match):
        self.game, self.engines, self.match = match.game, match.engines, match
        self.tasks = {task.number: task for task in match.pending}
        self.total = len(self.tasks)

    def __getstate__(self) -> dict:
        return {**self.__dict__, "match": None}     # the match stays here: its files, bar and tallies

    def fingerprint(self) -> dict:
        return {}       # the runner keeps no journal of its own: the match's is the record

    def task_ids(self):
        return iter(self.tasks)

    def perform(self, number: int) -> Tuple[Optional[Ending], str]:
        return asyncio.run(self.play(self.tasks[number]))

    async def play(self, task: GameTask) -> Tuple[Optional[Ending], str]:
        white, black = self.game.player(self.engines[task.white]), self.game.player(self.engines[task.black])
        try:
            ending, record = await self.game.play(task, white, black)
        except EngineStartError as error:
            return None, str(error)
        finally:
            await asyncio.gather(white.close(), black.close())
        return ending, record_text(self.game, record)

    def save(self, number: int, result: Tuple[Optional[Ending], str]) -> dict:
        ending, text = result
        if self.match.decision is not None or self.match.error is not None:
            return {"count": 0}     # ended after the SPRT decided or the match stopped: not counted, as locally
        if ending is None:
            self.match.error = text
            return {"count": 0}
        self.match.record(self.tasks[number], ending, text)
        return {"count": 1}
