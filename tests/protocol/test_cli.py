"""The `pyrope` command line as a person meets it: --help for the command and each subcommand,
--version, usage and exit code 2 for unknown arguments, errors as one sentence (a traceback only
with --debug), the board in chess symbols and colours only on a terminal, progress bars on a
terminal's stderr and never on a pipe."""
from __future__ import annotations

import os
import re
import signal
import subprocess
from importlib import metadata

import pytest

import pyrope
from engine_process import PYROPE, OnTerminal
from pyrope import cli
from pyrope.cli import SUBCOMMANDS
from pyrope.protocol.display import BoardStyle, draw_board

pytestmark = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ESCAPE = "\x1b["
SYMBOLS = set("♔♕♖♗♘♙♚♛♜♝♞♟")


def pyrope_run(*args: str, script: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([PYROPE, *args], input=script, capture_output=True, text=True, timeout=120)


def test_help_lists_every_subcommand_and_each_has_its_own_help():
    result = pyrope_run("--help")
    assert result.returncode == 0 and result.stderr == ""
    for name in SUBCOMMANDS:
        assert re.search(rf"^\s+{name}\s+\S", result.stdout, re.MULTILINE), name
        sub = pyrope_run(name, "--help")
        assert sub.returncode == 0 and sub.stderr == ""
        assert sub.stdout.startswith(f"usage: pyrope {name}")
        assert "examples:" in sub.stdout, name


def test_version_comes_from_the_package_metadata():
    result = pyrope_run("--version")
    assert result.returncode == 0
    assert result.stdout.strip() == f"pyrope {metadata.version('pyrope')}"


@pytest.mark.parametrize("args", [["--bogus"], ["frobnicate"], ["perft"], ["perft", "0"], ["perft", "3", "extra"],
                                  ["bench", "--threads", "two"]])
def test_unknown_or_bad_arguments_print_the_usage_and_exit_2(args):
    result = pyrope_run(*args, script="")
    assert result.returncode == 2
    assert result.stderr.startswith("usage: pyrope")
    assert result.stdout == ""


def test_an_error_is_one_sentence_and_debug_shows_the_traceback(tmp_path):
    # The work failing (exit 1): a book whose output folder does not exist.
    games = tmp_path / "games.pgn"
    games.write_text('[Result "1-0"]\n\n1. e4 e5 1-0\n\n')
    argv = ["book", "build", str(games), "-o", str(tmp_path / "missing" / "out.bin"), "--min-games", "1"]
    result = pyrope_run(*argv)
    assert result.returncode == 1
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith(f"pyrope book: No such file or directory: {tmp_path / 'missing' / 'out.bin'}")
    debug = pyrope_run("--debug", *argv)
    assert debug.returncode == 1 and "Traceback" in debug.stderr and "FileNotFoundError" in debug.stderr


def test_perft_divide_lists_each_root_move():
    result = pyrope_run("perft", "2", "--divide", "--fen", KIWIPETE)
    assert result.returncode == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    blank = lines.index("")
    divide = dict(line.split(": ") for line in lines[:blank])
    assert list(divide) == pyrope.Board(KIWIPETE).legal_moves()
    assert {move: int(nodes) for move, nodes in divide.items()} == dict(pyrope.Board(KIWIPETE).perft_divide(2))
    assert lines[blank + 1] == "nodes 2039"


def test_the_board_off_a_terminal_is_exactly_as_before():
    # GUIs and scripts read `d`: off a terminal it is Board's str(), letters only, no escapes.
    result = pyrope_run(script="uci\nposition startpos moves e2e4\nd\nquit\n")
    board = pyrope.Board()
    board.push("e2e4")
    assert "\n".join([str(board), "", f"Fen: {board.fen()}", f"Key: {board.key:016X}"]) in result.stdout
    assert ESCAPE not in result.stdout and not SYMBOLS & set(result.stdout)


def test_draw_board_styles():
    board = pyrope.Board(KIWIPETE)
    assert draw_board(board) == str(board)
    symbols = draw_board(board, BoardStyle(unicode=True))
    assert symbols.splitlines()[0] == "8  ♜ · · · ♚ · · ♜" and ESCAPE not in symbols
    assert symbols.splitlines()[-1] == str(board).splitlines()[-1]
    coloured = draw_board(board, BoardStyle(unicode=False, color=True))
    assert ESCAPE in coloured and not SYMBOLS & set(coloured)
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured).splitlines()[7] == "1 " + "".join(f" {piece} " for piece in "R   K  R")


@pytest.mark.parametrize("args, env, symbols, colour", [
    ([], {}, True, True),
    (["--ascii"], {}, False, True),
    ([], {"NO_COLOR": "1"}, True, False),
    ([], {"PYTHONIOENCODING": "ascii"}, False, True),   # a terminal that cannot show the symbols
])
@pytest.mark.parametrize("protocol", ["uci", "terminal"])
def test_on_a_terminal_the_board_has_symbols_and_colours_unless_asked_or_unable(protocol, args, env, symbols,
                                                                                 colour):
    if "PYTHONIOENCODING" in env and os.environ.get("PYROPE_COMMAND"):
        pytest.skip("an executable made by PyInstaller ignores Python's PYTHON* variables")
    terminal = OnTerminal(*args, env=env)
    code, shown, errors = terminal.finish(("uci\n" if protocol == "uci" else "") + "d\nquit\n")
    assert code == 0 and errors == ""
    board = shown[shown.index("8 "):]
    assert bool(SYMBOLS & set(board)) == symbols
    assert (ESCAPE in board) == colour
    assert "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1" in shown


def test_the_terminal_mode_switches_between_letters_and_symbols():
    code, shown, errors = OnTerminal(env={"NO_COLOR": "1"}).finish("ascii on\nd\nascii off\nd\nascii maybe\nquit\n")
    assert code == 0 and errors == ""
    letters, symbols = shown.split("The board is drawn in letters.")[1].split("The board is drawn in chess symbols.")
    assert "8  r n b q k b n r" in letters and not SYMBOLS & set(letters)
    assert "8  ♜ ♞ ♝ ♛ ♚ ♝ ♞ ♜" in symbols
    assert "ascii takes on or off" in symbols


@pytest.mark.parametrize("args, bar", [(["perft", "4"], "perft 4"), (["bench", "4"], "bench")])
def test_long_commands_show_a_progress_bar_on_a_terminal_but_not_on_a_pipe(args, bar):
    code, errors, output = OnTerminal(*args, which="stderr").finish()
    assert code == 0 and bar in errors and "Traceback" not in errors
    assert ESCAPE not in output and bar + ":" not in output      # stdout stays clean
    piped = pyrope_run(*args)
    assert piped.returncode == 0 and piped.stderr == ""
    quiet = OnTerminal(*args, "--no-progress", which="stderr").finish()
    assert quiet[0] == 0 and quiet[1] == ""


def test_main_called_in_this_process_gives_the_signal_handlers_back(capsys):
    """The `pyrope` process ignores SIGINT and SIGTERM once its command is done (its shutdown must not
    be interrupted); a caller in this process (a test, a tool) gets its own handlers back, or Ctrl-C
    would be lost on it and every engine it starts later would inherit ignored signals."""
    def handlers():
        return {number: signal.getsignal(number) for number in (signal.SIGINT, signal.SIGTERM)}
    before = handlers()
    assert cli.main(["perft", "2"]) == 0
    assert "nodes 400" in capsys.readouterr().out
    assert handlers() == before
    assert cli.main(["book", "show", "--book", "/nonexistent/book.bin"]) == 2     # an error's way out too
    assert "no such file" in capsys.readouterr().err
    assert handlers() == before
