"""xboard playing Pyrope against Fairy-Max, as a person would set it up: the command line of a match
(Pyrope speaking CECP itself, or UCI through Polyglot, xboard's UCI adapter), and the files the
match leaves (the games, xboard's debug log, Polyglot's log). Used by tests/gui/test_gui_xboard.py and
bench/gui_screenshots.py."""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from gui_support import find_program
from paths import SYZYGY


PROGRAMS = ("Xvfb", "xboard", "fairymax", "polyglot")


@dataclass
class XboardMatch:
    workdir: Path
    protocol: str                   # "cecp" or "uci"

    @property
    def games(self) -> Path:
        return self.workdir / "games.pgn"

    @property
    def debug_log(self) -> Path:
        return self.workdir / "xboard.debug"

    @property
    def adapter_log(self) -> Path:
        return self.workdir / "polyglot.log"

    def command(self, engine: str, games: int = 2, base: str = "0:10", increment: float = 0.1) -> list[str]:
        """xboard runs `games` games (colours alternating) at `base` minutes plus `increment` seconds
        a move, saves them, logs every line to and from both engines, and exits without asking.
        The Syzygy tables of ../shared are offered when present, none otherwise (Debian's default,
        /EGT/Syzygy, does not exist here). xboard reads no ~/.xboardrc (HOME is the workdir)."""
        command = [find_program("xboard") or "xboard",
                   "-fcp", engine, "-fd", str(self.workdir),
                   "-scp", find_program("fairymax") or "fairymax", "-sd", str(self.workdir),
                   # Fairy-Max 5.0b (Debian) crashes about half the time after a command it does
                   # not know, and xboard tells an engine `computer` when its opponent is one.
                   "-secondComputerString", "",
                   "-matchGames", str(games), "-tc", base, "-inc", str(increment),
                   "-saveGameFile", str(self.games),
                   "-debugMode", "true", "-nameOfDebugFile", str(self.debug_log),
                   "-egtFormats", f"syzygy:{SYZYGY}" if SYZYGY.is_dir() else "",
                   "-popupExitMessage", "false", "-saveSettingsOnExit", "false"]
        if self.protocol == "uci":
            # xboard's default adapter command with Polyglot's log switched on.
            command += ["-fUCI", "-adapterCommand",
                        f'{find_program("polyglot") or "polyglot"} -noini -ec "%fcp" -ed "%fd" '
                        f'-log true -lf "{self.adapter_log}"']
        return command

    def engine_errors(self) -> list[str]:
        """Lines in which Pyrope (or Polyglot on its behalf) reported an error, and xboard's own
        complaints about it: CECP `Error (...)`, `Illegal move`, `tellusererror`, a UCI `info string
        error`, an engine that exited during the match."""
        problems = [line for line in self._lines(self.debug_log)
                    if re.match(r"\d+ <first : (Error|Illegal move|tellusererror|telluser .*error)", line)
                    or "first chess program" in line and "exited" in line]
        if self.protocol == "uci":
            problems += [line for line in self._lines(self.adapter_log)
                         if re.search(r"Engine->Adapter: info string error|Engine->Adapter: .*Error", line)]
        return problems

    def moves_logged(self) -> int:
        """Moves the first engine has sent so far (CECP `move X`, as xboard or Polyglot relays it)."""
        return sum(1 for line in self._lines(self.debug_log) if re.match(r"\d+ <first : move ", line))

    def engine_thinking(self, depth: int = 10) -> bool:
        """Pyrope has shown a search of `depth` or more since its last move (on move or pondering)."""
        lines = self._lines(self.debug_log)
        last_move = max((n for n, line in enumerate(lines) if re.match(r"\d+ <first : move ", line)), default=0)
        depths = [int(m.group(1)) for line in lines[last_move:] if (m := re.match(r"\d+ <first : (\d+) ", line))]
        return max(depths, default=0) >= depth

    @staticmethod
    def _lines(path: Path) -> list[str]:
        return path.read_text(errors="replace").splitlines() if path.exists() else []
