"""Where the tests find things, said once: the repository (its bench/ scripts, README, results),
this folder of helpers (scripts the tests start as engines), and the reference data that lives
outside the repository in ../shared/data beside the checkout (perft suites, Syzygy tables, a
Polyglot book, balanced openings, tactical suites), with the skip marker of a test that needs one
of them. tests/conftest.py turns the data paths into session fixtures that skip with a reason."""
from __future__ import annotations

from pathlib import Path

import pytest

SUPPORT = Path(__file__).resolve().parent
TESTS = SUPPORT.parent
REPOSITORY = TESTS.parent
SHARED_DATA = REPOSITORY.parent / "shared" / "data"
SYZYGY = SHARED_DATA / "syzygy"
SYZYGY_SUITE = SHARED_DATA / "suites" / "syzygy-endgame.epd"
OPENINGS = SHARED_DATA / "openings" / "balanced-8ply.epd"
SHARED_BOOK = SHARED_DATA / "books" / "performance.bin"
PERFT_DIR = SHARED_DATA / "perft"


def needs(path: Path) -> pytest.MarkDecorator:
    """Skip the test, saying why, when `path` is not there."""
    return pytest.mark.skipif(not path.exists(), reason=f"../shared/data/{path.relative_to(SHARED_DATA)} is not there")
