"""What every long job's output directory needs: one run at a time writing it (a lock), files written
whole or not at all, and the name of the Pyrope that wrote them (for provenance records)."""
from __future__ import annotations

import fcntl
import os
import subprocess

from .. import __version__


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


def revision() -> str:
    """Pyrope's version and, when it runs from a git checkout, the commit (with -dirty for changes)."""
    try:
        described = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "describe", "--always",
                                    "--dirty", "--abbrev=12"], capture_output=True, text=True, timeout=10)
    except OSError:         # no git
        return __version__
    return f"{__version__}+{described.stdout.strip()}" if described.returncode == 0 else __version__
