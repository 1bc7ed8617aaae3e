"""Where the data shipped with Pyrope lies: pyrope/<name>/ when installed (or frozen by
PyInstaller), <name>/ at the top of the repository in an editable install; and which Pyrope made
data (`revision`, for the provenance records of what is built)."""
from __future__ import annotations

import os
import subprocess
from pathlib import Path

from . import __version__

PACKAGE = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """The directory of the shipped `name` (books, tablebases)."""
    installed = PACKAGE / name
    repository = PACKAGE.parent / name
    return installed if installed.is_dir() or not repository.is_dir() else repository


def revision() -> str:
    """Pyrope's version and, when it runs from a git checkout, the commit (with -dirty for changes)."""
    try:
        described = subprocess.run(["git", "-C", os.path.dirname(os.path.abspath(__file__)), "describe", "--always",
                                    "--dirty", "--abbrev=12"], capture_output=True, text=True, timeout=10)
    except OSError:         # no git
        return __version__
    return f"{__version__}+{described.stdout.strip()}" if described.returncode == 0 else __version__
