"""PyChess playing Pyrope against Fairy-Max, driven as a person would drive it. Pyrope goes into
PyChess's engines.json; a first start lets PyChess's engine discovery run Pyrope's UCI handshake and
record it; the config then presets the New Game dialog (white Pyrope, black fairymax, blitz 1
minute, PyChess's own opening book off, finished games saved); a second start gets Ctrl+N and
Enter from xdotool, and Ctrl+W when the game is over, which makes PyChess save it. Everything lives
in a HOME of its own. Used by tests/gui/test_gui_pychess.py and bench/gui_screenshots.py."""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from gui_support import find_program, find_window, start_gui, stop_gui, wait_until, xdotool

PROGRAMS = ("Xvfb", "pychess", "xdotool", "fairymax")
ENGINE_NAME = "Pyrope"
OPPONENT_NAME = "fairymax"
SAVED_GAME = "pyrope-game"          # PyChess's autoSaveFormat: the file name without .pgn
PYCHESS_CONST = Path("/usr/lib/python3/dist-packages/pychess/Utils/const.py")
# Dialogs a first start shows (downloads, tip of the day) and sounds: off.
# PyChess's PATH: it adds every engine it knows of that it finds on its PATH to its lists, and the
# New Game dialog's preset is a position in them; in /usr/bin and /bin, Debian's engines (in
# /usr/games) are not found, so the lists hold exactly PyChess.py, Pyrope and Fairy-Max (both given
# by absolute path) on any machine.
ENGINELESS_PATH = "/usr/bin:/bin"
QUIET = {"dont_show_externals_at_startup": "True", "show_tip_at_startup": "False", "usesounds": "False"}


@dataclass
class PychessGame:
    home: Path
    display: str
    # The logs there were before the last start: the log of that start is the first one after them.
    logs_before: frozenset = field(default=frozenset())

    @property
    def engines_json(self) -> Path:
        return self.home / ".config" / "pychess" / "engines.json"

    @property
    def config(self) -> Path:
        return self.home / ".config" / "pychess" / "config"

    @property
    def saved_game(self) -> Path:
        return self.home / f"{SAVED_GAME}.pgn"

    def command(self) -> list[str]:
        return [find_program("pychess") or "pychess", "--no-version-check", "--log-debug"]

    def start(self):
        self.logs_before = frozenset(self._logs())
        return start_gui(self.command(), self.display, home=self.home, log=self.home / "pychess.out", cwd=self.home,
                         path=ENGINELESS_PATH)

    # -- setting up, as a person would in Edit > Engines and the New Game dialog ----------------

    def install_engines(self, engine: str) -> None:
        self.engines_json.parent.mkdir(parents=True, exist_ok=True)
        self.engines_json.write_text(json.dumps([
            {"name": ENGINE_NAME, "protocol": "uci", "command": engine, "country": "unknown", "comment": "",
             "level": 20},
            {"name": OPPONENT_NAME, "protocol": "xboard", "command": find_program("fairymax") or "fairymax",
             "country": "nl", "comment": "", "level": 20}], indent=1))
        self._write_config({})

    def discover(self, timeout: float = 120) -> dict:
        """Start PyChess once so that it checks every engine (PyChess runs Pyrope's UCI handshake
        and stores its options in engines.json), then close it. Returns Pyrope's entry."""
        pychess = self.start()
        try:
            return wait_until(self._discovered_engine, timeout, "PyChess to discover its engines")
        finally:
            stop_gui(pychess)

    def preset_new_game(self, minutes: int = 1) -> None:
        """The New Game dialog remembers its players as positions in its lists: Human Being first,
        then the engines sorted by name, as PyChess sorts them."""
        names = sorted((engine["name"] for engine in json.loads(self.engines_json.read_text())), key=str.lower)
        self._write_config({"whiteplayercombobox": names.index(ENGINE_NAME) + 1,
                            "blackplayercombobox": names.index(OPPONENT_NAME) + 1,
                            "skillslider1": 20, "skillslider2": 20,
                            "playnormalradio": True, "notimeradio": False, "blitzradio": True,
                            "ngblitz min": minutes, "ngblitz gain": 0,
                            "book_depth_max": 0,            # every move from the engines themselves
                            "autosave": True, "autosavepath": self.home, "autosaveformat": SAVED_GAME,
                            "saveowngames": False})         # also save games without a human

    # -- playing -----------------------------------------------------------------------------------

    def start_game(self, timeout: float = 120):
        """Start PyChess, open New Game (Ctrl+N) and press Enter (Start Game). Returns the process
        once the game has started."""
        pychess = self.start()
        try:
            main = wait_until(lambda: self._window("PyChess$"), timeout, "PyChess's main window")
            dialog = self._press_until(main, "ctrl+n", lambda: self._window("^New Game$"), timeout,
                                       "the New Game dialog")
            self._press_until(dialog, "Return", lambda: "GameModel.run: Starting" in self.log(), timeout,
                              "the game to start")
        except BaseException:
            stop_gui(pychess)
            raise
        return pychess

    def plies_played(self) -> int:
        plies = re.findall(r"GameModel\.run: .*self\.ply=(\d+): applying move", self.log())
        return int(plies[-1]) + 1 if plies else 0

    def engine_thinking(self, depth: int = 8) -> bool:
        """Pyrope (White) is on move and has reported a search of `depth` or more on this move."""
        log = self.log()
        since_last_move = log[log.rfind("applying move"):]
        depths = re.findall(rf"\('{ENGINE_NAME}'.*DEBUG: info depth (\d+) ", since_last_move)
        return self.plies_played() % 2 == 0 and max(map(int, depths), default=0) >= depth

    def end_reason(self) -> str | None:
        """PyChess's reason for the end of the game (its constant's name, e.g. WON_MATE), None
        while the game goes on."""
        ended = re.search(r"GameModel\.end: .*Ending a game with status \d+ for reason (\d+)", self.log())
        return None if ended is None else reason_name(int(ended.group(1)))

    def save_and_quit(self, pychess, timeout: float = 120) -> None:
        """Close the finished game (Ctrl+W: PyChess saves it) and quit (Ctrl+Q)."""
        try:
            main = wait_until(lambda: self._window("PyChess$"), timeout, "PyChess's main window")
            self._keys(main, "ctrl+w")
            wait_until(lambda: self.saved_game.exists() and "[Result" in self.saved_game.read_text(),
                       timeout, f"PyChess to save the game in {self.saved_game}")
            self._keys(main, "ctrl+q")
            wait_until(lambda: pychess.poll() is not None, timeout, "PyChess to quit")
        finally:
            stop_gui(pychess)

    def engine_errors(self) -> list[str]:
        """Lines of PyChess's log in which Pyrope reported an error or PyChess complained about it."""
        return [line for line in self.log().splitlines()
                if f"('{ENGINE_NAME}'" in line and re.search(r"info string error|Illegal|illegal move|died", line)]

    def log(self) -> str:
        """The log of PyChess's last start. Not simply the newest log: a game's start also starts a
        second PyChess process, whose log of two warnings is newer than the main window's."""
        logs = [path for path in self._logs() if path not in self.logs_before]
        return logs[0].read_text(errors="replace") if logs else ""

    def _logs(self) -> list[Path]:
        return sorted((self.home / ".local" / "share" / "pychess").glob("*.log"))     # named by their time

    # -- helpers -----------------------------------------------------------------------------------

    def _discovered_engine(self) -> dict | None:
        try:
            engines = json.loads(self.engines_json.read_text())
        except (OSError, ValueError):
            return None
        ours = [engine for engine in engines if engine.get("name") == ENGINE_NAME]
        done = all(engine.get("recheck") is False for engine in engines)
        return ours[0] if ours and done and "md5" in ours[0] else None

    def _write_config(self, settings: dict) -> None:
        lines = [f"{key} = {value}" for key, value in {**QUIET, **settings}.items()]
        self.config.write_text("[General]\n" + "\n".join(lines) + "\n\n[FICS]\n\n[ICC]\n")

    def _window(self, name_pattern: str) -> str | None:
        return find_window(self.display, name_pattern)

    def _press_until(self, window: str, keys: str, condition, timeout: float, what: str):
        """Type `keys` until `condition` holds (a key typed while the window is still being set up
        is lost, as it would be for a person), waiting a few seconds between tries."""
        def done_or_press():
            done = condition()
            if not done:
                self._keys(window, keys)
            return done
        return wait_until(done_or_press, timeout, what, poll=3)

    def _keys(self, window: str, keys: str) -> None:
        """Give `window` the keyboard (there is no window manager) and type `keys` into it."""
        xdotool(self.display, "windowfocus", "--sync", window)
        xdotool(self.display, "key", "--clearmodifiers", keys)


def reason_name(number: int) -> str:
    """The name of PyChess's game-end reason `number`, read from its own constants."""
    try:
        text = PYCHESS_CONST.read_text()
    except OSError:
        return f"reason {number}"
    block = re.search(r"# Game state reasons\n(.*?)= range\(\d+\)", text, re.S)
    names = re.findall(r"[A-Z][A-Z0-9_]+", block.group(1)) if block else []
    return names[number] if number < len(names) else f"reason {number}"
