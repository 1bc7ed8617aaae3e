"""The built executable (bench/build_executable.py makes dist/pyrope): the UCI, CECP, UGI and
terminal test modules, and the games in xboard and PyChess, run again against it, in a pytest of
their own with PYROPE_COMMAND set."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest

from paths import REPOSITORY as ROOT, TESTS

# One folder (dist/pyrope/pyrope, the default build) or one file (dist/pyrope).
EXECUTABLE = next((path for path in (ROOT / "dist" / "pyrope" / "pyrope", ROOT / "dist" / "pyrope")
                   if path.is_file()), None)
PROTOCOL_MODULES = ["protocol/test_protocol.py", "protocol/test_uci_engine.py", "protocol/test_fuzz_uci.py",
                    "protocol/test_xboard.py", "protocol/test_ugi.py", "protocol/test_terminal.py",
                    "chess/test_book_play.py", "chess/test_tablebase_play.py", "chess/test_dtm_play.py",
                    "protocol/test_cli.py", "protocol/test_signals.py",
                    "gui/test_gui_xboard.py", "gui/test_gui_pychess.py"]   # the GUI games skip without the GUIs


@pytest.mark.skipif(EXECUTABLE is None, reason="no dist/pyrope: build it with python3 bench/build_executable.py")
def test_the_protocol_tests_pass_against_the_executable():
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                             *(str(TESTS / module) for module in PROTOCOL_MODULES)],
                            env={**os.environ, "PYROPE_COMMAND": str(EXECUTABLE)}, cwd=ROOT,
                            capture_output=True, text=True, timeout=1800)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
