"""A running `pyrope` that a test talks to line by line, waiting for the replies it needs."""
from __future__ import annotations

import queue
import subprocess
import threading
import time
from typing import Callable

from engine_command import PYROPE  # noqa: F401 (the tests import it from here too)


class EngineProcess:
    """Starts the installed `pyrope`; a reader thread drains its output so that writing many lines
    can never block on a full pipe."""

    def __init__(self) -> None:
        self.process = subprocess.Popen([PYROPE], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE)
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for raw in self.process.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, *lines: str | bytes) -> None:
        for line in lines:
            self.process.stdin.write((line if isinstance(line, bytes) else line.encode()) + b"\n")
        self.process.stdin.flush()

    def read_until(self, done: Callable[[str], bool], timeout: float = 30) -> list[str]:
        """Lines up to and including the first one `done` accepts; fails on timeout or exit."""
        deadline = time.monotonic() + timeout
        seen: list[str] = []
        while True:
            try:
                line = self.lines.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                raise AssertionError(f"no awaited line within {timeout} s; last lines: {seen[-10:]}") from None
            if line is None:
                stderr = self.process.stderr.read().decode("utf-8", "replace")
                raise AssertionError(f"pyrope exited; last lines: {seen[-10:]}\n{stderr}")
            seen.append(line)
            if done(line):
                return seen

    def quit(self, command: str = "quit") -> str:
        """Send the quit command; return stderr (empty unless something went wrong)."""
        self.send(command)
        self.process.stdin.close()
        self.process.wait(timeout=30)
        self.reader.join(timeout=5)
        return self.process.stderr.read().decode("utf-8", "replace")

    def __enter__(self) -> EngineProcess:
        return self

    def __exit__(self, *exc_info) -> None:
        if self.process.poll() is None:     # a failed test left it running
            self.process.kill()
            self.process.wait()
