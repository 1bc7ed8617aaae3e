"""A Kriegspiel player in another process, over the line protocol (docs/kriegspiel-protocol.md):
the driver's side, which `pyrope kriegspiel match` uses for `cmd=` players. It is a players.Player,
so play_game referees it like a built-in one; a program that dies, hangs past the timeout, or
answers out of turn raises PlayerFault, and the game is lost (play_game's `crash`)."""
from __future__ import annotations

import queue
import subprocess
import threading
from typing import Optional, Sequence

import chess

from .players import Player
from .protocol import go_words, umpire_words
from .referee import Announcement


class PlayerFault(Exception):
    """The program gave no usable answer: dead, silent past the timeout, or garbled."""


class ExternalPlayer(Player):
    """`command` speaking the protocol; `options` (NAME -> VALUE) are set once it has started.
    `timeout` seconds are allowed for each answer; `go` carries each move's limits (its MoveBudget's)."""

    def __init__(self, command: Sequence[str], options: Optional[dict] = None, timeout: float = 30.0,
                 directory: Optional[str] = None) -> None:
        self.command, self.options, self.timeout = list(command), dict(options or {}), timeout
        self.directory = directory
        self.process: Optional[subprocess.Popen] = None
        self.lines: "queue.Queue[Optional[str]]" = queue.Queue()

    # -- the process --------------------------------------------------------------------------
    def launch(self) -> None:
        self.close()
        try:
            self.process = subprocess.Popen(self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                            stderr=subprocess.DEVNULL, text=True, bufsize=1, cwd=self.directory)
        except OSError as error:
            raise PlayerFault(f"cannot start {self.command[0]}: {error}") from None
        self.lines = queue.Queue()
        threading.Thread(target=self._read, args=(self.process, self.lines), daemon=True).start()
        self.send("kriegspiel")
        self.expect("kriegspielok")
        for name, value in self.options.items():
            self.send(f"setoption name {name} value {value}")

    @staticmethod
    def _read(process: subprocess.Popen, lines: "queue.Queue[Optional[str]]") -> None:
        for line in process.stdout:
            lines.put(line.strip())
        lines.put(None)                     # the end of its output: it has died

    def send(self, line: str) -> None:
        try:
            self.process.stdin.write(line + "\n")
            self.process.stdin.flush()
        except (OSError, ValueError, AttributeError):
            raise PlayerFault("the program has ended") from None

    def expect(self, first_word: str) -> str:
        """The next line beginning with `first_word` (others, e.g. `id`, `option`, are skipped). A
        program that fails is ended, so that the next game starts it afresh."""
        while True:
            try:
                line = self.lines.get(timeout=self.timeout)
                fault = None if line is not None else f"the program ended before its {first_word}"
            except queue.Empty:
                line, fault = None, f"no {first_word} within {self.timeout:g} s"
            if line is not None and line.startswith("error"):
                fault = f"it answered: {line}"
            if fault is not None:
                self.close()
                raise PlayerFault(fault)
            if line.split()[:1] == [first_word]:
                return line

    def close(self) -> None:
        process, self.process = self.process, None
        if process is not None:
            try:
                process.stdin.write("quit\n")
                process.stdin.flush()
                process.wait(timeout=2)
            except (OSError, ValueError, subprocess.TimeoutExpired):
                process.kill()
                process.wait()

    # -- the Player interface -----------------------------------------------------------------
    def start(self, color: chess.Color, fen: str) -> None:
        super().start(color, fen)
        if self.process is None or self.process.poll() is not None:
            self.launch()
        self.send(f"newgame {'white' if color == chess.WHITE else 'black'} fen {fen}")
        self.send("isready")
        self.expect("readyok")
        self._first_try = True

    def hear(self, announcement: Announcement) -> None:
        super().hear(announcement)
        self.send(umpire_words(announcement))
        self._first_try = True

    def answered(self, text: str, legal: bool) -> None:
        self.refused = set() if legal else self.refused | {text}
        self.send("legal" if legal else "illegal")

    def next_try(self) -> str:
        if self._first_try:                 # a refused try is followed by the next unasked
            self.send(go_words(self.budget.limits))
            self._first_try = False
        words = self.expect("try").split()
        if len(words) != 2:
            raise PlayerFault(f"a try is `try TEXT`, not {' '.join(words)!r}")
        return words[1]
