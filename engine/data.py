"""Where the data shipped with Pyrope lies: pyrope/<name>/ when installed (or frozen by
PyInstaller), <name>/ at the top of the repository in an editable install."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parent


def shipped(name: str) -> Path:
    """The directory of the shipped `name` (books, tablebases)."""
    installed = PACKAGE / name
    repository = PACKAGE.parent / name
    return installed if installed.is_dir() or not repository.is_dir() else repository
