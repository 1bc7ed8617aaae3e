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

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen([PYROPE, *args], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
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


class OnTerminal:
    """A `pyrope` whose stdout or stderr (`which`) is a pseudo-terminal, as when a person runs it:
    what it writes there is read as a terminal would receive it. stdin is a pipe."""

    def __init__(self, *args: str, which: str = "stdout", env: dict[str, str] | None = None) -> None:
        import fcntl
        import os
        import pty
        import struct
        import termios
        self.os = os
        self.master, slave = pty.openpty()
        # 24 rows of 80 columns, as a terminal window has (a new pseudo-terminal has no size).
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        streams = {"stdout": subprocess.PIPE, "stderr": subprocess.PIPE, which: slave}
        environment = {key: value for key, value in os.environ.items() if key != "NO_COLOR"}
        self.process = subprocess.Popen([PYROPE, *args], stdin=subprocess.PIPE, env={**environment, **(env or {})},
                                        **streams)
        os.close(slave)
        self.seen = b""

    def read_until(self, text: str, timeout: float = 60) -> str:
        """What the terminal received, up to and including `text`; fails if it never comes."""
        import select
        while text.encode() not in self.seen:
            ready, _, _ = select.select([self.master], [], [], timeout)
            chunk = self.os.read(self.master, 65536) if ready else b""
            if not chunk:
                self.fail(f"{text!r} never reached the terminal")
            self.seen += chunk
        return self.seen.decode("utf-8", "replace")

    def finish(self, script: str = "", timeout: float = 60) -> tuple[int, str, str]:
        """Send `script`, close stdin, wait (at most `timeout` seconds for the terminal to close); return
        the exit code, everything the terminal got and what the other stream (a pipe) got."""
        import select
        if script:
            self.process.stdin.write(script.encode())
        self.process.stdin.close()
        deadline = time.monotonic() + timeout
        while True:
            if not select.select([self.master], [], [], max(0.0, deadline - time.monotonic()))[0]:
                self.fail(f"the process did not end within {timeout} s")
            try:
                chunk = self.os.read(self.master, 65536)
            except OSError:         # the last writer closed the terminal
                chunk = b""
            if not chunk:
                break
            self.seen += chunk
        other = (self.process.stdout or self.process.stderr).read().decode("utf-8", "replace")
        self.process.wait(timeout=60)
        self.os.close(self.master)
        return self.process.returncode, self.seen.decode("utf-8", "replace"), other

    def fail(self, why: str) -> None:
        """End the test with `why`, killing the process first: a hung one must not outlive the test
        (a search left running for days takes a core from everything after it)."""
        self.process.kill()
        self.process.wait()
        raise AssertionError(f"{why}; the terminal got: {self.seen[-500:]!r}")
