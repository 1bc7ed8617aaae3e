"""What the web tests (tests/web) and bench/web_screenshots.py share: `pyrope serve`'s app on a free
local port in a thread of this process, Debian's headless Chromium driven by Selenium, and the
person's moves of a test game."""
from __future__ import annotations

import contextlib
import random
import shutil
import socket
import threading
import time
from typing import Iterator

import chess

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"


def missing() -> list[str]:
    """What the browser tests need and this machine lacks."""
    import importlib.util
    lacking = [name for name in ("selenium", "starlette", "uvicorn", "websockets") if importlib.util.find_spec(name) is None]
    return lacking + [path for path in (CHROMIUM, CHROMEDRIVER) if shutil.which(path) is None]


@contextlib.contextmanager
def served() -> Iterator[str]:
    """The server's address (http://127.0.0.1:PORT/) while it runs in a thread."""
    import uvicorn

    from pyrope.web.app import make_app

    sock = socket.create_server(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(make_app(), log_level="warning"))
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, name="web-server", daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not server.started and time.monotonic() < deadline:
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}/"
    finally:
        server.should_exit = True
        thread.join(timeout=30)


@contextlib.contextmanager
def chromium(width: int = 1280, height: int = 900):
    """A headless Chromium under Selenium (Debian's binary and driver: no download)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     f"--window-size={width},{height}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def chosen_move(board: chess.Board, rng: random.Random) -> chess.Move:
    """A mate in one when there is one, else a random legal move: against the engine, a game that ends."""
    moves = list(board.legal_moves)
    for move in moves:
        board.push(move)
        mate = board.is_checkmate()
        board.pop()
        if mate:
            return move
    return rng.choice(moves)
