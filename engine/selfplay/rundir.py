"""What every long job's output directory needs: one run at a time writing it (a lock), files written
whole or not at all (the Pyrope that wrote them, for provenance records: data.revision)."""
from __future__ import annotations

import fcntl
import json
import os
from typing import Callable

from .._core import default_eval_params
from ..data import revision
from ..console import InputError
from .configfile import ConfigError, config_lines
from ..weights.files import read_weights, weights_text

START_KEY, START_FILE = "start", "start.params"
NET_KEY, NET_FILE = "net", "net.nnue"


def lock_directory(out: str, job: str):
    """Hold DIR/.lock for the whole run (keep the returned file open): two runs writing one
    directory would play the same tasks. ValueError if another `job` run holds it."""
    handle = open(os.path.join(out, ".lock"), "w")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise ValueError(f"another {job} run is writing {out}") from None
    return handle


def write_atomically(path: str, data: bytes) -> None:
    """Write `data` to `path` whole or not at all: a temporary name, fsync, rename."""
    temporary = path + ".tmp"
    with open(temporary, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())
    os.replace(temporary, path)


def read_text(path: str, what: str) -> str:
    """A text file's contents; InputError naming `what` it is and why it cannot be read."""
    try:
        with open(path, encoding="utf-8") as handle:
            return handle.read()
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise InputError(f"cannot read the {what} {path}: {reason}") from None


def run_configuration(given: str | None, resume: str | None, out: str | None, kept_name: str) -> tuple[str, str, str]:
    """A run's directory, its configuration's path and text: a new run's configuration `given` (its
    directory `out`, or the configuration's path without its extension plus .run), or a resumed run's
    kept one (`resume`: its directory)."""
    directory = resume or out or os.path.splitext(given)[0] + ".run"
    path = os.path.join(directory, kept_name) if resume else given
    if resume and not os.path.exists(path):
        raise InputError(f"{directory} holds no run to resume (no {kept_name})")
    return directory, path, read_text(path, "configuration")


def kept_input(config_text: str, config_path: str, out: str, key: str, kept_name: str,
               read: Callable[[str], object]):
    """What a run's configuration line `key = FILE` names, as `read(path)` gives it (FILE relative
    to the configuration's folder), or None without such a line. Once the run keeps its copy as
    RUNDIR/`kept_name` (keep_file), that copy is read instead, so editing or moving FILE changes no
    run. ConfigError naming the line when `read` raises ValueError (a file it cannot use)."""
    kept = os.path.join(out, kept_name)
    if os.path.exists(kept):
        return read(kept)
    for number, line_key, value in config_lines(config_text, config_path):
        if line_key == key:
            try:
                return read(os.path.join(os.path.dirname(config_path), value))
            except ValueError as error:
                raise ConfigError(f"{config_path}:{number}: {key}: {error}") from None
    return None


def keep_file(directory: "RunDirectory", name: str, data: bytes) -> None:
    """Keep a new run's input as RUNDIR/`name` (what kept_input reads from then on)."""
    path = directory.path(name)
    if not os.path.exists(path):
        write_atomically(path, data)


def start_weights(config_text: str, config_path: str, out: str) -> dict[str, int]:
    """The table an SPSA run starts from: the weights its specification's `start = FILE` line names
    (a parameter file or a genome, as EvalFile takes), or the shipped defaults; kept as
    RUNDIR/start.params (keep_start)."""
    return kept_input(config_text, config_path, out, START_KEY, START_FILE, read_weights) or default_eval_params()


def keep_start(directory: "RunDirectory", start: dict[str, int]) -> None:
    text = weights_text(start, "The weights this run started from (its specification's start, or the shipped defaults)")
    keep_file(directory, START_FILE, text.encode())


class RunDirectory:
    """A resumable run's directory (pyrope evolve, pyrope tune): one run at a time (the lock), its
    configuration kept as given (another one for the same directory is refused), state.json (the
    last checkpoint), files rewritten whole at each checkpoint, and files that only grow -- the
    checkpoint records their lengths, and reopening cuts off whatever a killed run appended after
    it, so that the resumed run writes it again exactly once."""

    def __init__(self, out: str, job: str, config_name: str, appended: tuple[str, ...]):
        self.out, self.job, self.config_name, self.appended = out, job, config_name, appended
        self.lengths = {name: 0 for name in appended}
        self.lock = None

    def path(self, name: str) -> str:
        return os.path.join(self.out, name)

    def open(self, config_text: str, source: str) -> dict | None:
        """Lock the directory, keep `config_text` (read from `source`) or check it is the kept one;
        the last checkpoint's state, or None for a new run."""
        os.makedirs(self.out, exist_ok=True)
        self.lock = lock_directory(self.out, self.job)
        kept = self.path(self.config_name)
        if not os.path.exists(kept):
            write_atomically(kept, config_text.encode("utf-8"))
        if read_text(kept, "configuration") != config_text:
            raise InputError(f"{self.out} holds a run of another configuration ({kept} differs from {source}): "
                             f"give another --out, or --resume {self.out}")
        state = None
        if os.path.exists(self.path("state.json")):
            state = json.loads(read_text(self.path("state.json"), "checkpoint"))
            self.lengths = state["lengths"]
        # Whatever was appended after the checkpoint -- or by a run killed before its first one -- goes.
        for name, length in self.lengths.items():
            with open(self.path(name), "ab") as handle:
                handle.truncate(length)
        return state["run"] if state else None

    def append(self, name: str, text: str) -> None:
        data = text.encode("utf-8")
        with open(self.path(name), "ab") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        self.lengths[name] += len(data)

    def checkpoint(self, state: dict, rewritten: dict[str, str]) -> None:
        """Rewrite each of `rewritten` (name: text) whole, then state.json (the run's `state`, the
        appended files' lengths and the Pyrope that wrote it)."""
        for name, text in rewritten.items():
            write_atomically(self.path(name), text.encode("utf-8"))
        record = {"run": state, "lengths": self.lengths, "pyrope": revision()}
        write_atomically(self.path("state.json"), json.dumps(record).encode("utf-8"))

    def close(self) -> None:
        if self.lock is not None:
            self.lock.close()
            self.lock = None
