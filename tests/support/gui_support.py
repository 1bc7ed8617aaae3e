"""Desktop programs under test: an Xvfb display of our own, Debian's games directory (xboard,
pychess, fairymax and polyglot live in /usr/games, which is not on every PATH), waiting for a
condition with a generous limit, and ending a GUI together with the engines it started."""
from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Callable, Iterator

# Where Debian installs GUIs and engines, after the caller's own PATH.
GAMES_PATH = os.pathsep.join(filter(None, [os.environ.get("PATH", ""), "/usr/games"]))


def find_program(name: str) -> str | None:
    return shutil.which(name, path=GAMES_PATH)


def missing_programs(*names: str) -> list[str]:
    return [name for name in names if find_program(name) is None]


def wait_until(condition: Callable[[], object], timeout: float, what: str, poll: float = 0.5):
    """Poll `condition` until it returns something true and return that; a hang guard, not a
    measurement: on `timeout` seconds it raises TimeoutError naming `what`."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"gave up after {timeout:.0f} s waiting for {what}")
        time.sleep(poll)


@contextmanager
def virtual_display(size: str = "1280x1024x24") -> Iterator[str]:
    """Start Xvfb on a display number it picks itself (-displayfd: no clash with another run) and
    yield that display (":N"); stop it at the end."""
    read_end, write_end = os.pipe()
    process = subprocess.Popen([find_program("Xvfb") or "Xvfb", "-displayfd", str(write_end), "-screen", "0", size,
                                "-nolisten", "tcp"], pass_fds=(write_end,),
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    os.close(write_end)
    try:
        ready, _, _ = select.select([read_end], [], [], 60)
        number = os.read(read_end, 64).decode().strip() if ready else ""
        if not number:
            raise RuntimeError("Xvfb did not report a display number")
        yield f":{number}"
    finally:
        os.close(read_end)
        process.terminate()
        process.wait(timeout=30)


def start_gui(command: list[str], display: str, home: Path, log: Path, cwd: Path,
              path: str = GAMES_PATH) -> subprocess.Popen:
    """Start a GUI on `display` with its own HOME (no settings of the person running the tests are
    read or written) in a session of its own, so that stop_gui also ends the engines it started.
    `path` is its PATH."""
    env = {**os.environ, "DISPLAY": display, "HOME": str(home), "PATH": path,
           "XDG_CONFIG_HOME": str(home / ".config"), "XDG_DATA_HOME": str(home / ".local" / "share"),
           "XDG_CACHE_HOME": str(home / ".cache"), "NO_AT_BRIDGE": "1"}
    with open(log, "wb") as output:
        return subprocess.Popen(command, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=output,
                                stderr=subprocess.STDOUT, start_new_session=True)


def stop_gui(process: subprocess.Popen) -> None:
    """End the GUI's whole process group (the GUI, an adapter, the engines): SIGTERM, then SIGKILL
    to what is left, whether or not the GUI has already exited."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            break
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            continue
    try:
        os.killpg(process.pid, signal.SIGKILL)   # children that outlived the GUI
    except ProcessLookupError:
        pass
    process.wait(timeout=10)


def screenshot(display: str, path: Path, window: str = "root", crop: str | None = None) -> None:
    """Save `window` (an X window id, or the whole screen), cut to `crop` (WxH+X+Y) if given, as a
    PNG of 256 colours, undithered (a GUI has few colours; the file stays small), with ImageMagick."""
    subprocess.run([find_program("import") or "import", "-display", display, "-window", window,
                    *(["-crop", crop] if crop else []), "+dither", "-quantize", "RGB", "-colors", "256",
                    f"PNG8:{path}"], check=True, timeout=60)


def xdotool(display: str, *args: str) -> str:
    result = subprocess.run([find_program("xdotool") or "xdotool", *args], env={**os.environ, "DISPLAY": display},
                            capture_output=True, text=True, timeout=60)
    return result.stdout.strip()


def find_window(display: str, name_pattern: str) -> str | None:
    """The id of a visible window whose title matches `name_pattern` (a regular expression)."""
    found = xdotool(display, "search", "--onlyvisible", "--name", name_pattern).split()
    return found[0] if found else None


def window_size(display: str, window: str) -> tuple[int, int]:
    shell = dict(line.split("=", 1) for line in xdotool(display, "getwindowgeometry", "--shell", window).split())
    return int(shell["WIDTH"]), int(shell["HEIGHT"])

