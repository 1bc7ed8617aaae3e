"""The two clocks of a web game: each side's time left, the increment, and whose clock runs. The
server keeps them (the page only shows them), so a page cannot stop its own clock."""
from __future__ import annotations

import time


class Clocks:
    def __init__(self, base_ms: int, increment_ms: int) -> None:
        self.left = {True: base_ms, False: base_ms}     # by side: True is White
        self.increment_ms = increment_ms
        self.running: bool | None = None        # the side whose clock runs, None: stopped
        self._since = 0.0                       # time.monotonic() when it started

    def start(self, white: bool) -> None:
        self.running, self._since = white, time.monotonic()

    def stop(self) -> None:
        if self.running is not None:
            self.left[self.running] = self.remaining(self.running)
        self.running = None

    def remaining(self, white: bool) -> int:
        """`white`'s time left now in ms (negative once it has run out)."""
        spent = round((time.monotonic() - self._since) * 1000) if self.running == white else 0
        return self.left[white] - spent

    def moved(self, white: bool) -> bool:
        """`white` has moved: its clock stops, gains the increment and the other side's starts.
        False, changing nothing, if its time had run out first."""
        if self.remaining(white) <= 0:
            return False
        self.stop()
        self.left[white] += self.increment_ms
        self.start(not white)
        return True

    def shown(self) -> dict:
        return {"white_ms": self.remaining(True), "black_ms": self.remaining(False),
                "running": None if self.running is None else "white" if self.running else "black"}
