"""The engine command the process-level tests drive: PYROPE_COMMAND when set (a built executable,
see bench/build_executable.py), else the installed `pyrope` -- preferably the script beside this
Python, which starts faster than a version manager's shim (python-chess gives an engine 2 s to
answer its handshake)."""
from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

BESIDE_PYTHON = Path(sys.executable).with_name("pyrope")
PYROPE = (os.environ.get("PYROPE_COMMAND")
          or (str(BESIDE_PYTHON) if BESIDE_PYTHON.exists() else shutil.which("pyrope")))
