"""Mill engines in a match, over UGI: an external program, or Pyrope's own UGI front-end in this process.

UgiEngine speaks the protocol as `pyrope --game mill` understands it (docs/mill.md, "UGI"): `ugi` /
`ugiok` with the option lines, `setoption`, `isready` / `readyok`, `uginewgame`, `position startpos
moves ...` (`position fen FEN moves ...` for a game set up from a position) with complete turns,
`go ...`, `info ... score cp|mate ...` and `bestmove TURN`. Whatever carries the lines is a link: ProcessLink (a subprocess's pipes) or FrontEndLink (mill.uci's
MillUgiFrontEnd in this process: its search runs on its own thread without the GIL, so a game
against it costs no pipes and no process, and it plays as the command does).

The rules of a game reach the engine as Sanmill's rule options before `uginewgame`; an engine that
does not offer an option the rules need cannot play them (EngineStartError). The engine starts on
first use and again after a fault (the game closes it).
"""
from __future__ import annotations

import asyncio
import dataclasses
import shlex
from typing import Dict, List, Optional

from ...match.runner import QUIT_TIMEOUT, START_TIMEOUT, EngineStartError
from ..board import MillBoard
from ..rules import MillRules
from .players import EngineCrashed, PlayerFault, PlayerSpec, Reply

NINE = MillRules()


class ProcessLink:
    """The pipes of an external engine's process (its stderr is discarded)."""

    def __init__(self, process: asyncio.subprocess.Process):
        self.process = process

    @classmethod
    async def open(cls, spec: PlayerSpec) -> "ProcessLink":
        try:
            # A session of its own: a Ctrl-C at the terminal reaches the runner only, which then ends the engines.
            process = await asyncio.create_subprocess_exec(
                *spec.command, cwd=spec.directory, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, start_new_session=True)
        except OSError as error:
            raise EngineStartError(f"cannot start engine {spec.name!r} ({shlex.join(spec.command)}): {error}") from None
        return cls(process)

    @property
    def alive(self) -> bool:
        return self.process.returncode is None

    def send(self, line: str) -> None:
        if self.process.stdin.is_closing():
            raise EngineCrashed("its input is closed")
        self.process.stdin.write((line + "\n").encode())

    async def readline(self) -> str:
        line = await self.process.stdout.readline()
        if not line:
            try:
                code = await asyncio.wait_for(self.process.wait(), QUIT_TIMEOUT)
            except asyncio.TimeoutError:
                code = None
            raise EngineCrashed(f"its output ended (exit code {code})")
        return line.decode("utf-8", "replace").strip()

    async def close(self) -> None:
        """Ask the engine to quit; kill it if it does not."""
        try:
            if self.process.returncode is None and not self.process.stdin.is_closing():
                self.process.stdin.write(b"quit\n")
                self.process.stdin.close()
            await asyncio.wait_for(self.process.wait(), QUIT_TIMEOUT)
        except (asyncio.TimeoutError, OSError):
            pass
        finally:
            if self.process.returncode is None:
                self.process.kill()
                await self.process.wait()


class FrontEndLink:
    """Pyrope's UGI front-end for Mill in this process: a line sent is handled at once; what the
    front-end writes, from this thread or its search thread, is queued for readline."""

    def __init__(self) -> None:
        from ..session import MillSession
        from ..uci import MillUgiFrontEnd
        loop = asyncio.get_running_loop()
        self.lines: asyncio.Queue = asyncio.Queue()
        self.front = MillUgiFrontEnd(MillSession(), lambda line: loop.call_soon_threadsafe(self.lines.put_nowait, line))

    @classmethod
    async def open(cls, spec: PlayerSpec) -> "FrontEndLink":
        return cls()

    alive = True

    def send(self, line: str) -> None:
        self.front.handle(line)

    async def readline(self) -> str:
        return await self.lines.get()

    async def close(self) -> None:
        """`quit`: a search still running is stopped and its thread joined (off the event loop)."""
        await asyncio.to_thread(self.front.handle, "quit")


class UgiEngine:
    """A Mill engine over UGI (the runner's player for `cmd=` and `pyrope`)."""
    timed = True
    turn_limit = None

    def __init__(self, spec: PlayerSpec):
        self.spec = spec
        self.link = None
        self.offered: List[str] = []            # the option names its greeting listed
        self.rules: Dict[str, str] = {}         # the rule options it was last sent

    async def start(self) -> None:
        link_class = FrontEndLink if self.spec.kind == "pyrope" else ProcessLink
        self.link = await link_class.open(self.spec)
        what = f"engine {self.spec.name!r}" + (f" ({shlex.join(self.spec.command)})" if self.spec.command else "")
        try:
            self.link.send("ugi")
            greeting = await asyncio.wait_for(self.read_until("ugiok"), START_TIMEOUT)
            self.offered = [line.split(" type ")[0][len("option name "):] for line in greeting
                            if line.startswith("option name ") and " type " in line]
            for name, value in self.spec.options.items():
                self.link.send(f"setoption name {name} value {value}")
            errors = await self.ready()
        except asyncio.TimeoutError:
            await self.close()
            raise EngineStartError(f"{what} did not finish its ugi handshake within {START_TIMEOUT:g} s") from None
        except PlayerFault as error:
            await self.close()
            raise EngineStartError(f"{what} ended during its ugi handshake: {error}") from None
        if errors:
            await self.close()
            raise EngineStartError(f"{what} refused its options: {errors[0]}")
        self.rules = {}

    async def read_until(self, last: str) -> List[str]:
        """The lines up to the first that begins with `last` (included)."""
        lines = []
        while True:
            line = await self.link.readline()
            lines.append(line)
            if line.split()[:1] == [last]:
                return lines

    async def ready(self) -> List[str]:
        """`isready`, answered within START_TIMEOUT; the error lines written before `readyok`."""
        self.link.send("isready")
        lines = await asyncio.wait_for(self.read_until("readyok"), START_TIMEOUT)
        return [line[len("info string "):] for line in lines if line.startswith("info string error")]

    async def new_game(self, rules: MillRules, seed: str) -> None:
        """Start the engine if needed (again if it has ended), send the rule options that changed and
        `uginewgame`."""
        if self.link is None or not self.link.alive:
            await self.close()
            await self.start()
        for name, value in dataclasses.asdict(rules).items():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            if name not in self.offered:
                if value != getattr(NINE, name):
                    raise EngineStartError(f"engine {self.spec.name!r} has no option {name}, which these rules need")
            elif self.rules.get(name) != text:
                self.link.send(f"setoption name {name} value {text}")
                self.rules[name] = text
        self.link.send("uginewgame")
        errors = await self.ready()
        if errors:
            raise EngineStartError(f"engine {self.spec.name!r} refused the rules: {errors[0]}")

    async def play(self, board: MillBoard, go: str) -> Reply:
        """The engine's turn in `board` under the limits `go`."""
        root = "startpos" if board.from_start else f"fen {board.root_fen}"
        self.link.send(f"position {root}" + (f" moves {' '.join(board.move_stack)}" if board.move_stack else ""))
        self.link.send(f"go {go}")
        score = mate = depth = None
        while True:
            words = (await self.link.readline()).split()
            if words[:1] == ["bestmove"]:
                if len(words) < 2:
                    raise PlayerFault("'bestmove' without a turn")
                return Reply(words[1], score, mate, depth)
            if words[:1] == ["info"] and "score" in words:
                depth = _number_after(words, "depth")
                kind = words[words.index("score") + 1:words.index("score") + 2]
                value = _number_after(words, kind[0]) if kind and kind[0] in ("cp", "mate") else None
                score, mate = (value, None) if kind == ["cp"] else (None, value)

    async def close(self) -> None:
        link, self.link = self.link, None
        if link is not None:
            await link.close()


def _number_after(words: List[str], key: str) -> Optional[int]:
    try:
        return int(words[words.index(key) + 1])
    except (ValueError, IndexError):
        return None
