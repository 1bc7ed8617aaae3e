"""How a `pyrope` process ends: SIGINT and SIGTERM (idle, or mid-search in UCI, CECP and the
terminal mode) and the end of input mid-search end it as `quit` does -- exit code 0, nothing on
stderr, no thread left to keep it alive; a tool interrupted says so in one sentence, exit code 130."""
from __future__ import annotations

import signal
import time

import pytest

from engine_process import PYROPE, EngineProcess, OnTerminal

pytestmark = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"

# (the commands that start a search, or none, and a line that shows the search has begun)
UCI_IDLE = (["uci", "isready"], lambda line: line == "readyok")
UCI_SEARCHING = (["uci", f"position fen {KIWIPETE}", "go infinite"], lambda line: line.startswith("info depth 4 "))
CECP_IDLE = (["xboard", "protover 2", "ping 1"], lambda line: line == "pong 1")
CECP_THINKING = (["xboard", "protover 2", "post", "level 0 60 0", f"setboard {KIWIPETE}", "go"],
                 lambda line: line.startswith("4 "))
CECP_ANALYSING = (["xboard", "protover 2", "post", f"setboard {KIWIPETE}", "analyze"],
                  lambda line: line.startswith("4 "))
TERMINAL_IDLE = (["help"], lambda line: line.startswith("Start pyrope with"))
TERMINAL_THINKING = (["go infinite"], lambda line: line.startswith("depth  4 "))
SCRIPTS = {"uci idle": UCI_IDLE, "uci searching": UCI_SEARCHING, "cecp idle": CECP_IDLE,
           "cecp thinking": CECP_THINKING, "cecp analysing": CECP_ANALYSING, "terminal idle": TERMINAL_IDLE,
           "terminal thinking": TERMINAL_THINKING}


def started(script: str) -> tuple[EngineProcess, list[str]]:
    commands, begun = SCRIPTS[script]
    engine = EngineProcess()
    engine.send(*commands)
    return engine, engine.read_until(begun)


def ended(engine: EngineProcess) -> tuple[int, list[str], str]:
    """Wait for the process to end by itself; its exit code, remaining output and stderr."""
    code = engine.process.wait(timeout=60)
    engine.reader.join(timeout=10)
    lines = []
    while not engine.lines.empty():
        line = engine.lines.get()
        if line is not None:
            lines.append(line)
    return code, lines, engine.process.stderr.read().decode("utf-8", "replace")


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("script", list(SCRIPTS))
def test_a_signal_ends_the_engine_as_quit_does(script, sent):
    engine, _ = started(script)
    with engine:
        engine.process.send_signal(sent)
        code, lines, stderr = ended(engine)
    assert (code, stderr) == (0, "")
    if script == "uci searching":       # as after quit: the search stops and its move is told
        assert lines[-1].startswith("bestmove ")


@pytest.mark.parametrize("script", ["uci searching", "cecp thinking", "cecp analysing", "terminal thinking"])
def test_the_end_of_input_mid_search_ends_the_engine_cleanly(script):
    engine, _ = started(script)
    with engine:
        engine.process.stdin.close()
        code, lines, stderr = ended(engine)
    assert (code, stderr) == (0, "")
    if script == "uci searching":
        assert lines[-1].startswith("bestmove ")
    if script == "terminal thinking":   # an infinite search at the end of a script: stopped, its move played
        assert lines[-1].startswith("Pyrope plays ")


def test_commands_before_the_handshake_then_a_signal():
    engine = EngineProcess()
    with engine:
        engine.send("position startpos moves e2e4", "isready")      # UCI chosen without `uci`
        engine.read_until(lambda line: line == "readyok")
        engine.process.send_signal(signal.SIGTERM)
        code, _, stderr = ended(engine)
    assert (code, stderr) == (0, "")


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
def test_an_interrupted_tool_says_so_and_exits_130(sent):
    # perft 8 takes hours; its progress bar on a terminal's stderr shows that it has started.
    terminal = OnTerminal("perft", "8", which="stderr")
    terminal.read_until("perft 8")
    terminal.process.send_signal(sent)
    code, errors, output = terminal.finish()
    assert code == 130
    assert errors.rstrip().endswith("pyrope perft: interrupted.") and "Traceback" not in errors
    assert output == ""


@pytest.mark.parametrize("sent", [signal.SIGINT, signal.SIGTERM], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("command", [("bench", "40"), ("mill", "bench", "40")], ids=["bench", "mill bench"])
def test_a_bench_interrupted_mid_search_ends_at_once(command, sent):
    # Depth 40 would take days: the compiled search holds its thread, and only a search stopped
    # from outside it (the signal heard by another thread) lets the process end now.
    terminal = OnTerminal(*command, which="stderr")
    terminal.read_until("bench")        # the progress bar: the first position's search is starting
    time.sleep(1)                       # and is under way (it runs for days), not still being set up
    terminal.process.send_signal(sent)
    code, errors, output = terminal.finish()
    assert code == 130
    assert errors.rstrip().endswith(f"pyrope {command[0]}: interrupted.") and "Traceback" not in errors
