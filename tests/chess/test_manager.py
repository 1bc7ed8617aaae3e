"""The search manager: the one place front-ends start and stop searches, from any thread."""
from __future__ import annotations

import random
import threading
import time

from pyrope import Board
from pyrope.play import manager as manager_module
from pyrope.play.manager import SearchManager
from pyrope.play.timeman import Limits


def test_a_search_started_while_another_thread_finishes_is_always_joined(monkeypatch):
    """The xboard front-end starts a ponder search from a thread of its own just as the reader
    thread may be ending the previous search. Every search thread must still be joined by some
    `finish`; one that is not runs on, unseen, and a later Threads change waits on it forever."""
    started, joined = [], set()

    class RecordedThread(threading.Thread):
        def start(self) -> None:
            if self.name == "pyrope-search":
                started.append(self)
            super().start()

        def join(self, timeout: float | None = None) -> None:
            super().join(timeout)
            joined.add(self)

    monkeypatch.setattr(manager_module.threading, "Thread", RecordedThread)
    manager, board, rng = SearchManager(), Board(), random.Random(7)
    for _ in range(300):
        ponderers = []

        def ponder_next(result: dict) -> None:      # as xboard's _ponder_soon
            ponderer = threading.Thread(target=manager.start,
                                        args=(board, Limits(infinite=True), lambda infos: None, lambda result: None))
            ponderers.append(ponderer)
            ponderer.start()

        manager.start(board, Limits(depth=1), lambda infos: None, ponder_next)
        time.sleep(rng.random() * 0.002)
        manager.finish()
        for ponderer in ponderers:
            ponderer.join()
        manager.finish()
    assert all(thread in joined for thread in started)
