import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--runslow", action="store_true", default=False,
        help="also run tests marked @pytest.mark.slow (every listed perft depth: hours)",
    )


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip_slow = pytest.mark.skip(reason="slow test: run with --runslow")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip_slow)


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
