"""Screenshots of xboard and PyChess with Pyrope thinking, for docs/usage.md: docs/xboard.png (Pyrope
speaking CECP against Fairy-Max, xboard's Engine Output window below the board) and
docs/pychess.png (a game Pyrope - Fairy-Max started from PyChess's New Game dialog). Each GUI runs
on an Xvfb display of its own, driven by the same helpers as tests/gui/test_gui_xboard.py and
tests/gui/test_gui_pychess.py; the PNGs have at most 256 colours, to stay small.

    bash bench/install_gui_peers.sh && python3 bench/gui_screenshots.py [--engine CMD] [--out docs]
"""
from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))     # the GUI helpers the tests use

from engine_command import PYROPE  # noqa: E402
from gui_support import (find_window, missing_programs, screenshot, start_gui, stop_gui,  # noqa: E402
                         virtual_display, wait_until, window_size, xdotool)
from pychess_gui import PROGRAMS as PYCHESS_PROGRAMS, PychessGame  # noqa: E402
from xboard_gui import PROGRAMS as XBOARD_PROGRAMS, XboardMatch  # noqa: E402

TIMEOUT = 300


def xboard_screenshot(engine: str, path: Path) -> None:
    """A one-minute game; the picture is taken after ten of Pyrope's moves, once it has searched
    depth 12 on the next one (thinking or pondering)."""
    with tempfile.TemporaryDirectory() as tmp, virtual_display() as display:
        match = XboardMatch(Path(tmp), "cecp")
        command = match.command(engine, games=1, base="1:00", increment=1) + [
            "-engineOutputUp", "true", "-engineOutputH", "220", "-size", "Medium"]
        xboard = start_gui(command, display, home=Path(tmp), log=Path(tmp) / "xboard.out", cwd=Path(tmp))
        try:
            board = wait_until(lambda: find_window(display, r" vs\. "), TIMEOUT, "xboard's board")
            output = wait_until(lambda: find_window(display, "^Engine Output$"), TIMEOUT, "the Engine Output window")
            width, height = window_size(display, board)
            xdotool(display, "windowmove", output, "0", str(height))    # no window manager places it
            out_width, out_height = window_size(display, output)
            wait_until(lambda: match.moves_logged() >= 10 and match.engine_thinking(12), TIMEOUT,
                       "Pyrope to think in xboard")
            screenshot(display, path, crop=f"{max(width, out_width)}x{height + out_height}+0+0")
        finally:
            stop_gui(xboard)


def pychess_screenshot(engine: str, path: Path) -> None:
    """A two-minute game; the picture is taken from move 10 on, when Pyrope is on move and has
    searched depth 10."""
    with tempfile.TemporaryDirectory() as tmp, virtual_display() as display:
        game = PychessGame(Path(tmp), display)
        game.install_engines(engine)
        game.discover()
        game.preset_new_game(minutes=2)
        pychess = game.start_game()
        try:
            wait_until(lambda: game.plies_played() >= 18 and game.engine_thinking(10), TIMEOUT,
                       "Pyrope to think in PyChess")
            screenshot(display, path, window=find_window(display, "PyChess$"))
        finally:
            stop_gui(pychess)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engine", default=PYROPE, help="the engine command (default: %(default)s)")
    parser.add_argument("--out", type=Path, default=ROOT / "docs", help="folder of the PNGs (default: docs/)")
    args = parser.parse_args()
    missing = missing_programs(*XBOARD_PROGRAMS, *PYCHESS_PROGRAMS, "import")
    if missing or not args.engine or not shutil.which(args.engine):
        print(f"needs {', '.join(missing) or 'the engine ' + str(args.engine)}: bash bench/install_gui_peers.sh",
              file=sys.stderr)
        return 2
    args.out.mkdir(parents=True, exist_ok=True)
    for name, take in (("xboard", xboard_screenshot), ("pychess", pychess_screenshot)):
        path = args.out / f"{name}.png"
        take(args.engine, path)
        print(f"{path}: {path.stat().st_size / 1024:.0f} KB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
