"""The reference data the tests read, which lives outside the repository in ../shared/data beside
the checkout (perft suites, Syzygy tables, a Polyglot book, balanced openings, tactical suites):
its paths, said once, and the skip marker of a test that needs one of them."""
from __future__ import annotations

from pathlib import Path

import pytest

SHARED_DATA = Path(__file__).resolve().parents[2] / "shared" / "data"
SYZYGY = SHARED_DATA / "syzygy"
OPENINGS = SHARED_DATA / "openings" / "balanced-8ply.epd"
SHARED_BOOK = SHARED_DATA / "books" / "performance.bin"
PERFT_DIR = SHARED_DATA / "perft"


def needs(path: Path) -> pytest.MarkDecorator:
    """Skip the test, saying why, when `path` is not there."""
    return pytest.mark.skipif(not path.exists(), reason=f"../shared/data/{path.relative_to(SHARED_DATA)} is not there")
