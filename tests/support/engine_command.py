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
GIVEN = os.environ.get("PYROPE_COMMAND")
# A path given relative to here is made absolute: GUIs start engines from folders of their own.
PYROPE = ((os.path.abspath(GIVEN) if os.sep in GIVEN else GIVEN) if GIVEN
          else (str(BESIDE_PYTHON) if BESIDE_PYTHON.exists() else shutil.which("pyrope")))
