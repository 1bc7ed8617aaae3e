"""Chess engine processes for `pyrope match`: UCI and xboard engines driven by python-chess's asyncio API.

An engine is given on the command line as `cmd=... [name=...] [proto=uci|xboard] [dir=...]
[option.NAME=VALUE ...]` (parse_engine_spec). Each worker of the runner owns its EngineProcess per
engine and reuses it from game to game (`ucinewgame` / `new`), restarting it only after it crashed,
hung or broke the rules.
"""
from __future__ import annotations

import asyncio
import os
import shlex
from dataclasses import dataclass, field
from typing import Dict, List, Optional, Sequence

import chess
import chess.engine

from .options import split_key_value
from .runner import QUIT_TIMEOUT, START_TIMEOUT, Ending, EngineStartError, fault_ending

INFO = chess.engine.INFO_BASIC | chess.engine.INFO_SCORE    # what we ask python-chess to parse


@dataclass
class EngineSpec:
    """How to start one engine and what to call it."""
    command: List[str]
    name: str
    protocol: str = "uci"                 # "uci" or "xboard"
    directory: Optional[str] = None       # working directory of the process
    options: Dict[str, object] = field(default_factory=dict)


def parse_engine_spec(tokens: Sequence[str]) -> EngineSpec:
    """Parse `cmd=... [name=...] [proto=uci|xboard] [dir=...] [option.NAME=VALUE ...]`.

    Later tokens override earlier ones (so --each defaults can come first). The command is split like a
    shell would (`cmd="python3 my engine.py"`); option values 'true'/'false' become booleans, the rest
    stay strings and python-chess converts them for the engine's option type.
    """
    fields: Dict[str, str] = {}
    options: Dict[str, object] = {}
    for token in tokens:
        key, value = split_key_value(token, "--engine")
        if key.startswith("option."):
            name = key[len("option."):]
            if not name:
                raise ValueError(f"--engine: option without a name in {token!r}")
            options[name] = {"true": True, "false": False}.get(value.lower(), value)
        elif key in ("cmd", "name", "proto", "dir"):
            fields[key] = value
        else:
            raise ValueError(f"--engine: unknown field {key!r} in {token!r} "
                             "(expected cmd, name, proto, dir or option.NAME)")
    if not fields.get("cmd", "").strip():
        raise ValueError(f"--engine: no command given (cmd=...) in {' '.join(tokens)!r}")
    try:
        command = shlex.split(fields["cmd"])
    except ValueError as error:
        raise ValueError(f"--engine: cannot split command {fields['cmd']!r}: {error}") from None
    protocol = fields.get("proto", "uci")
    if protocol not in ("uci", "xboard"):
        raise ValueError(f"--engine: proto must be uci or xboard, got {protocol!r}")
    name = fields.get("name") or os.path.basename(command[0])
    return EngineSpec(command, name, protocol, fields.get("dir"), options)


class EngineProcess:
    """One engine process owned by a worker: started on first use, reused between games, restarted
    after it crashed, hung or broke the rules."""

    def __init__(self, spec: EngineSpec):
        self.spec = spec
        self.transport: Optional[asyncio.SubprocessTransport] = None
        self.protocol: Optional[chess.engine.Protocol] = None
        self.game: object = None            # python-chess starts a new game when this token changes

    async def start(self) -> None:
        popen = chess.engine.popen_uci if self.spec.protocol == "uci" else chess.engine.popen_xboard
        what = f"engine {self.spec.name!r} ({shlex.join(self.spec.command)})"
        try:
            self.transport, self.protocol = await asyncio.wait_for(
                # setpgrp: a Ctrl-C at the terminal reaches the runner only, which then quits the engines.
                popen(self.spec.command, cwd=self.spec.directory, stderr=asyncio.subprocess.DEVNULL, setpgrp=True),
                START_TIMEOUT)
        except asyncio.TimeoutError:
            raise EngineStartError(f"{what} did not finish its {self.spec.protocol} handshake "
                                   f"within {START_TIMEOUT:g} s") from None
        except (OSError, chess.engine.EngineError) as error:
            raise EngineStartError(f"cannot start {what}: {error}") from None
        try:
            await self.protocol.configure(self.spec.options)
        except chess.engine.EngineError as error:
            await self.close()
            raise EngineStartError(f"{what}: {error}") from None

    async def new_game(self) -> None:
        """Start the engine if needed and tell it a new game begins (outside any clock)."""
        if self.protocol is None or self.protocol.returncode.done():
            await self.close()
            await self.start()
        if self.spec.protocol == "uci":
            # Sent here rather than by python-chess inside the first play() of the game, so that
            # clearing the hash is not charged to the engine's clock. (python-chess still sends one
            # ucinewgame + isready of its own in the first play() of each process.)
            self.protocol.send_line("ucinewgame")
            await asyncio.wait_for(self.protocol.ping(), START_TIMEOUT)
        else:
            self.game = object()

    async def play(self, board: chess.Board, limit: chess.engine.Limit,
                   timeout: Optional[float]) -> chess.engine.PlayResult:
        return await asyncio.wait_for(
            self.protocol.play(board, limit, game=self.game, info=INFO), timeout)

    async def close(self) -> None:
        """Ask the engine to quit; kill it if it does not. Safe to call at any time."""
        transport, protocol = self.transport, self.protocol
        self.transport = self.protocol = None
        if transport is None:
            return
        try:
            await asyncio.wait_for(protocol.quit(), QUIT_TIMEOUT)
        except (asyncio.TimeoutError, chess.engine.EngineError):
            pass
        finally:
            transport.close()               # kills the process if it is still running


def engine_fault(side: chess.Color, error: Exception, allowance: Optional[float], stall_timeout: float) -> Ending:
    """The loss of the side whose engine did not answer `play` with a move: out of time, stalled
    (no time limit), crashed, or an EngineError from python-chess (an illegal or garbled move)."""
    return fault_ending(side, error, allowance, stall_timeout, isinstance(error, chess.engine.EngineTerminatedError))
