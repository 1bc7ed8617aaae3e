"""What every test shares: the --runslow switch and the `slow` and `long` markers, the reference data
of ../shared/data as session fixtures that skip with a reason when it is absent, and a core left
as each test found it."""
from __future__ import annotations

import os
import signal
from pathlib import Path

import pytest

import paths


def pytest_addoption(parser):
    parser.addoption(
        "--runslow", action="store_true", default=False,
        help="also run tests marked @pytest.mark.slow (every listed perft depth: hours) and "
             "@pytest.mark.long (minutes each; CI=true runs these too)",
    )


def pytest_configure(config):
    # Tests interrupt the engines they start with SIGINT. A pytest started as a shell's background
    # job (or by a runner that does so) ignores SIGINT, and its children would inherit that and
    # never hear the signal: give this process (each xdist worker too) Python's own handler, which
    # its children do not inherit.
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow test: run with --runslow")
    # CI runs the long checks within its budget; a person waiting for an answer runs them with --runslow.
    skip_long = None if os.environ.get("CI") == "true" else \
        pytest.mark.skip(reason="long test: run with --runslow (CI=true runs it)")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip_slow)
        elif skip_long is not None and item.get_closest_marker("long") is not None:
            item.add_marker(skip_long)


def shared(path: Path) -> Path:
    """`path` under ../shared/data, or the test skipped, saying what is missing."""
    if not path.exists():
        pytest.skip(f"../shared/data/{path.relative_to(paths.SHARED_DATA)} is not there")
    return path


@pytest.fixture(scope="session")
def syzygy_dir() -> Path:
    """Every 3-4 piece Syzygy table (WDL and DTZ)."""
    return shared(paths.SYZYGY)


@pytest.fixture(scope="session")
def syzygy_suite() -> Path:
    """suites/syzygy-endgame.epd: 200 positions with their expected WDL and DTZ."""
    return shared(paths.SYZYGY_SUITE)


@pytest.fixture(scope="session")
def polyglot_book() -> Path:
    """books/performance.bin, a real Polyglot book."""
    return shared(paths.SHARED_BOOK)


@pytest.fixture(scope="session")
def balanced_openings() -> Path:
    """openings/balanced-8ply.epd, the openings of our strength matches."""
    return shared(paths.OPENINGS)


@pytest.fixture(autouse=True)
def no_net_left_behind():
    """The core's net is one per process, and every chess SearchManager loads the shipped one: each
    test starts from the core's own default (no net, Use NNUE on), whatever the test before it made."""
    yield
    try:
        from pyrope import _core
    except ImportError:         # a test run without the compiled core: nothing was loaded
        return
    _core.nnue_unload()
    _core.nnue_enable(True)
