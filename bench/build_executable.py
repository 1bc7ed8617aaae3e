"""Build Pyrope's executable with PyInstaller (pyrope.spec), measure it, and test it.

    python3 -m pip install ".[dist]" && python3 bench/build_executable.py [--onefile] [--no-tests]

Builds from the installed package: dist/pyrope/pyrope (a folder, the default: nothing to unpack
at start) or, with --onefile, dist/pyrope (one file that unpacks itself at each start). Prints
the size and the time from process start to `uciok` (median of 10 starts), then runs
tests/package/test_executable.py, which runs the protocol test modules against the executable.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def seconds_to_uciok(executable: Path) -> float:
    start = time.perf_counter()
    process = subprocess.Popen([str(executable)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    process.stdin.write("uci\n")
    process.stdin.flush()
    for line in process.stdout:
        if line.strip() == "uciok":
            break
    elapsed = time.perf_counter() - start
    process.communicate("quit\n", timeout=30)
    return elapsed


def size_mb(path: Path) -> float:
    files = [path] if path.is_file() else [p for p in path.rglob("*") if p.is_file()]
    return sum(p.stat().st_size for p in files) / 2**20


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--onefile", action="store_true", help="one file instead of a folder")
    parser.add_argument("--no-tests", action="store_true", help="build and measure only")
    args = parser.parse_args()
    shutil.rmtree(ROOT / "dist" / "pyrope", ignore_errors=True)
    env = {**os.environ, "PYROPE_ONEDIR": "0" if args.onefile else "1"}
    subprocess.run([sys.executable, "-m", "PyInstaller", "--noconfirm", "--log-level", "WARN",
                    "--workpath", str(ROOT / "build"), "--distpath", str(ROOT / "dist"), str(ROOT / "pyrope.spec")],
                   check=True, env=env, cwd=ROOT)
    built = ROOT / "dist" / "pyrope"
    executable = built if args.onefile else built / "pyrope"
    starts = [seconds_to_uciok(executable) for _ in range(10)]
    print(f"{executable}: {'one file' if args.onefile else 'one folder'}, {size_mb(built):.1f} MB; "
          f"uciok {statistics.median(starts):.3f} s after start (median of 10; {min(starts):.3f}-{max(starts):.3f})")
    if args.no_tests:
        return 0
    return subprocess.run([sys.executable, "-m", "pytest", "-q", str(ROOT / "tests" / "package" / "test_executable.py")],
                          cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main())
