"""Putting a net into the core: the one shipped with Pyrope (nets/, loaded by every chess search
manager and by `pyrope bench`), a file the user names with NNUEFile, or the bytes of one that
self-play (`pyrope datagen --net`, a tuning run's `net = FILE`) sends to its workers.

The core holds one net for the whole process. Loading the file the core already holds, unchanged,
does nothing: the web server (pyrope.web) makes a Session, and so a search manager that loads the
shipped net, for each game while other games search, and a reload would free the weights under
their searches."""
from __future__ import annotations

import os

from .._core import nnue_load, nnue_loaded, nnue_unload
from ..data import shipped
from . import netfile

DEFAULT_NET = shipped("nets") / "pyrope.nnue"       # how it was made: pyrope.json beside it, docs/nnue.md

_held: tuple | None = None      # (path, size, mtime) of the file the core holds, as loaded here


def load(path: str | None) -> None:
    """Evaluate with the net at `path` (None: no net, the hand-crafted evaluation plays). A file
    that cannot be used raises NetFileError naming it and the fault, and the core keeps its net."""
    global _held
    if path is None:
        nnue_unload()
        _held = None
        return
    stamp = file_stamp(path)
    if stamp is not None and stamp == _held and nnue_loaded():
        return
    net = netfile.read(path)
    try:
        nnue_load(net)
    except ValueError as error:         # integers beyond the core's ranges
        raise netfile.NetFileError(f"{path} cannot be used: {error}") from None
    _held = stamp


def file_bytes(path: str) -> bytes:
    """The bytes of the net file at `path`, for self-play's workers, once this process's core has
    taken them (NetFileError as `load`: a fault shows here, not on the workers)."""
    load(path)
    return netfile.read_bytes(path)


def load_bytes(net: bytes) -> None:
    """Evaluate with the net file whose contents are `net` (b"": no net): how a self-play worker,
    which may be on another machine, gets the run's net. NetFileError as `load`."""
    global _held
    _held = None
    if not net:
        nnue_unload()
        return
    try:
        nnue_load(netfile.from_bytes(net))
    except ValueError as error:
        raise netfile.NetFileError(f"the net cannot be used: {error}") from None


def file_stamp(path: str) -> tuple | None:
    """What tells a file apart from a changed one (None: it cannot be read; netfile.read says why)."""
    try:
        status = os.stat(path)
    except OSError:
        return None
    return os.path.realpath(path), status.st_size, status.st_mtime_ns
