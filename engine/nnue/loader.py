"""Putting a net into the core: the one shipped with Pyrope (nets/, loaded by every chess search
manager and by `pyrope bench`), a file the user names with NNUEFile, or the one `pyrope datagen
--net` plays with."""
from __future__ import annotations

from .._core import nnue_load, nnue_unload
from ..data import shipped
from . import netfile

DEFAULT_NET = shipped("nets") / "pyrope.nnue"       # how it was made: pyrope.json beside it, docs/nnue.md


def load(path: str | None) -> None:
    """Evaluate with the net at `path` (None: no net, the hand-crafted evaluation plays). A file
    that cannot be used raises NetFileError naming it and the fault, and the core keeps its net."""
    if path is None:
        nnue_unload()
        return
    net = netfile.read(path)
    try:
        nnue_load(net)
    except ValueError as error:         # integers beyond the core's ranges
        raise netfile.NetFileError(f"{path} cannot be used: {error}") from None
