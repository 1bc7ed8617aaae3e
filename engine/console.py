"""The `pyrope` process's manners towards a person: progress bars on stderr, errors as one
sentence, SIGTERM treated as Ctrl-C so that both end the process in an orderly way, and the
argument checks and the bad-input error the subcommands share.

Nothing here writes to stdout: stdout belongs to the protocol a GUI parses.
"""
from __future__ import annotations

import argparse
import concurrent.futures
import signal
import sys
from typing import Any, Callable, Iterable, TypeVar

Item = TypeVar("Item")

# `--no-progress` turns the bars off; without it they show whenever stderr is a terminal.
show_progress = True


def progress(iterable: Iterable[Item] | None = None, **options) -> Iterable[Item]:
    """A tqdm bar over `iterable` on stderr. tqdm's disable=None hides it when stderr is not a
    terminal, so a GUI, a pipe or a test sees nothing of it."""
    from tqdm import tqdm     # loaded only by long commands: an engine a GUI starts must answer quickly
    tqdm.monitor_interval = 0     # no monitor thread: a bar is updated often enough, and no thread outlives its work
    return tqdm(iterable, file=sys.stderr, disable=None if show_progress else True, dynamic_ncols=True,
                **options)


def above_progress(write: Callable[[str], None]) -> Callable[[str], None]:
    """`write` made to lift any bar out of the way first and redraw it after, so that a line on
    stdout and a bar on stderr sharing one terminal do not garble each other."""
    from tqdm import tqdm

    def write_above(text: str) -> None:
        with tqdm.external_write_mode(file=sys.stdout):
            write(text)
    return write_above


def interrupt_on_sigterm() -> None:
    """SIGTERM raises KeyboardInterrupt as SIGINT does: one path (stop the search, join the
    threads, close files) serves a GUI closing the engine and a person pressing Ctrl-C. Without
    this SIGTERM would kill the process before it could end a running search or a match."""
    signal.signal(signal.SIGTERM, signal.default_int_handler)


def interruptible(work: Callable[[], Any], stop: Callable[[], None]) -> Any:
    """work()'s result, with work run on a thread of its own so that Ctrl-C or SIGTERM can end it.
    A compiled search holds the main thread without returning to Python, and Python runs a signal's
    handler only between its own instructions: a search run on the main thread would finish before
    the interrupt was heard. Here the main thread waits (a wait a signal interrupts), calls stop()
    (the searcher's) on KeyboardInterrupt, and the pool's shutdown waits for the work to end."""
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="interruptible") as pool:
        future = pool.submit(work)
        try:
            return future.result()
        except KeyboardInterrupt:
            stop()
            raise


def ignore_signals() -> None:
    """While shutting down, a second Ctrl-C or SIGTERM must not interrupt the shutdown itself
    (it would leave a traceback and maybe a running thread)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)


def signal_handlers() -> dict:
    """SIGINT's and SIGTERM's handlers as they are now, for restore_signals."""
    return {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}


def restore_signals(handlers: dict) -> None:
    """Put back what signal_handlers() saw (a handler not set from Python, None, is left as it is)."""
    for number, handler in handlers.items():
        if handler is not None:
            signal.signal(number, handler)


class InputError(ValueError):
    """What a command was given cannot be used: an input file that is missing, unreadable or
    malformed, an argument value out of range, or a --resume journal or run directory that another
    job began. The command line says it in one sentence and exits 2; any other error is the work
    failing (exit 1). Raise it where the input is read, so that every command keeps this one rule."""


def sentence(error: BaseException) -> str:
    """An exception as a plain sentence for the user, without Python's decoration."""
    if isinstance(error, OSError) and error.strerror:
        text = error.strerror + (f": {error.filename}" if error.filename else "")
    else:
        text = str(error) or type(error).__name__
    return text if text.endswith((".", "!", "?")) else text + "."


def report_error(prefix: str, error: BaseException) -> None:
    print(f"{prefix}: {sentence(error)} (--debug shows where it happened)", file=sys.stderr)


def positive_int(text: str) -> int:
    """An argparse type: a whole number of 1 or more (argparse turns the error into usage + exit 2)."""
    return at_least(text, 1)


def non_negative_int(text: str) -> int:
    """An argparse type: a whole number of 0 or more."""
    return at_least(text, 0)


def int_range(lowest: int, highest: int) -> Callable[[str], int]:
    """An argparse type: a whole number from `lowest` to `highest` (an option's range)."""
    def parse(text: str) -> int:
        value = at_least(text, lowest)
        if value > highest:
            raise argparse.ArgumentTypeError(f"{value} is more than {highest}")
        return value
    return parse


def at_least(text: str, lowest: int) -> int:
    """The whole number `text` if it is `lowest` or more; else argparse's ArgumentTypeError."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < lowest:
        raise argparse.ArgumentTypeError(f"{value} is not {lowest} or more")
    return value


def fraction(text: str) -> float:
    """An argparse type: a number from 0 to 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{value} is not between 0 and 1")
    return value


def require(packages: Iterable[str], extra: str, what: str) -> None:
    """ValueError naming the first of `packages` that is not installed and the extra that adds it."""
    import importlib
    for package in packages:
        try:
            importlib.import_module(package)
        except ImportError:
            raise ValueError(f'{package} is not installed (pip install "pyrope[{extra}]" adds what {what} needs)') from None

