"""One exit-code convention for every `pyrope` subcommand: 0 done, 1 the work failed, 2 bad input or
usage, 130 interrupted (cli.BAD_INPUT and console.InputError hold the rule; `pyrope --help` tells it).

Bad input (2) is what a command was given and cannot use, found before or while reading it: a usage
error, an option value out of range, a FEN that is not a position, an input file or directory that
is missing, unreadable or malformed (`book show` of a file that is not a book, `tb probe` of a
damaged table), a --resume journal or run directory of another job. The stderr is one sentence
naming it (argparse's usage errors are its usage and one line).

The work failing (1) is the work run and failing, or finding the faults it looks for: `tb verify`
and `mill db verify` meeting a damaged table (their job is to check the tables, so a damaged one is
what they report, where `tb probe` calls the same file bad input), an output that cannot be written.

perft reads no files: it has no missing-input case. Each case is one process of about a
second at most; every subcommand has a usage or bad-value case, and all but the long runs (train,
evolve, tune: their own tests) and serve (it runs until Ctrl-C: tests/web) a successful one.
"""
from __future__ import annotations

import importlib.util
import shlex
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from pyrope.cli import SUBCOMMANDS
from pyrope.mill.db.probe import DEFAULT_DIR as MILL_TABLES
from pyrope.play.tablebases import DEFAULT_DTM_PATH
from paths import SUPPORT, SYZYGY, needs

KQK = "8/8/8/8/8/2k5/1Q6/K7 b - - 0 1"
KRK = "8/8/8/4k3/8/8/2R1K3/8 w - - 0 1"
MILL_FEN = "O.@/.../.O./.@..@./.../.../..O b 0 0 0 0 30"
MOVER = f"cmd={shlex.join([sys.executable, str(SUPPORT / 'random_mover.py')])}"

needs_syzygy = needs(SYZYGY)
needs_shipped = pytest.mark.skipif(not (DEFAULT_DTM_PATH / "KQvK.ptb").exists(),
                                   reason="the shipped tables are not installed (pip install ., not -e)")


def needs(package: str, extra: str):
    # train and tune's Texel fit check their packages before their inputs.
    return pytest.mark.skipif(importlib.util.find_spec(package) is None,
                              reason=f"needs {package}: pip install '.[{extra}]'")


def pyrope(tmp_path: Path, *argv: str) -> subprocess.CompletedProcess:
    """Run `pyrope ARGV` in tmp_path, no input on stdin; {tmp}, {missing}, {garbage}, {not_a_book}
    and {pgn} in ARGV name files there (the last three made here)."""
    (tmp_path / "garbage.txt").write_text("this is no configuration\n")
    (tmp_path / "not-a-book.bin").write_bytes(b"seventeen bytes!!")
    (tmp_path / "games.pgn").write_text('[Result "1-0"]\n\n1. e4 e5 1-0\n\n')
    names = {"tmp": tmp_path, "missing": tmp_path / "missing.file", "garbage": tmp_path / "garbage.txt",
             "not_a_book": tmp_path / "not-a-book.bin", "pgn": tmp_path / "games.pgn"}
    return subprocess.run([sys.executable, "-m", "pyrope", "--no-progress", *(word.format(**names) for word in argv)],
                          input="", capture_output=True, text=True, timeout=120, cwd=tmp_path)


def one_sentence(result: subprocess.CompletedProcess) -> bool:
    return result.stderr.startswith("pyrope ") and result.stderr.count("\n") == 1 and "Traceback" not in result.stderr


MISSING_INPUT = {
    "match --openings": ["match", "--engine", "cmd=a", "--engine", "cmd=b", "--depth", "1", "--openings", "{missing}"],
    "analyse": ["analyse", "{missing}"],
    "book build": ["book", "build", "{missing}", "-o", "{tmp}/out.bin"],
    "book show": ["book", "show", "--book", "{missing}"],
    "book merge": ["book", "merge", "{missing}", "{missing}", "-o", "{tmp}/out.bin"],
    "tb info": ["tb", "info", "--dir", "{missing}"],
    "tb probe": ["tb", "probe", KQK, "--dir", "{missing}"],
    "tb verify": ["tb", "verify", "--dir", "{missing}", "--syzygy", "{missing}"],
    "mill db info": ["mill", "db", "info", "{missing}"],
    "mill db probe": ["mill", "db", "probe", MILL_FEN, "--dir", "{missing}"],
    "mill db verify": ["mill", "db", "verify", "--dir", "{missing}"],
    "mill match --positions": ["mill", "match", "--player", "random", "--player", "random", "--positions", "{missing}"],
    "kriegspiel match --openings": ["kriegspiel", "match", "--white", "random", "--black", "random",
                                    "--openings", "{missing}"],
    "kriegspiel match model=": ["kriegspiel", "match", "--white", "mcts", "model={missing}", "--black", "random"],
    "kriegspiel model": ["kriegspiel", "model", "{missing}", "--out", "{tmp}/out.model"],
    "datagen --openings": ["datagen", "--positions", "1", "--out", "{tmp}/data", "--openings", "{missing}"],
    "datagen --net": ["datagen", "--positions", "1", "--out", "{tmp}/data", "--net", "{missing}"],
    "bench --net": ["bench", "1", "--net", "{missing}"],
    "train": pytest.param(["train", "{missing}", "-o", "{tmp}/out.nnue"], marks=needs("torch", "train")),
    "evolve": ["evolve", "{missing}"],
    "evolve --resume": ["evolve", "--resume", "{missing}"],
    "evolve export": ["evolve", "export", "{missing}"],
    "tune --method spsa": ["tune", "--method", "spsa", "{missing}"],
    "tune --resume": ["tune", "--resume", "{missing}"],
    "tune --method texel": pytest.param(["tune", "--method", "texel", "{missing}", "-o", "{tmp}/out.params"],
                                        marks=needs("scipy", "tune")),
}

BAD_VALUE = {
    "perft --fen": ["perft", "1", "--fen", "nonsense"],
    "match with one engine": ["match", "--engine", "cmd=a", "--depth", "1"],
    "analyse of a file that is not PGN": ["analyse", "{garbage}"],
    "analyse of a game the file lacks": ["analyse", "{pgn}", "--game", "2"],
    "book show of a FEN": ["book", "show", "nonsense"],
    "book show of a file that is not a book": ["book", "show", "--book", "{not_a_book}"],
    "tb generate of a name": ["tb", "generate", "KXvK", "--out", "{tmp}"],
    "tb generate of nothing": ["tb", "generate", "--out", "{tmp}"],
    "tb probe of a FEN": ["tb", "probe", "nonsense"],
    "mill db build of a class": ["mill", "db", "build", "--classes", "x", "--out", "{tmp}/db"],
    "mill db probe of a FEN": ["mill", "db", "probe", "nonsense"],
    "mill match with one player": ["mill", "match", "--player", "random"],
    "kriegspiel play --fen": ["kriegspiel", "play", "--fen", "nonsense"],
    "kriegspiel match of a player": ["kriegspiel", "match", "--white", "bogus", "--black", "random"],
    "kriegspiel model of a file that is not PGN": ["kriegspiel", "model", "{garbage}", "--out", "{tmp}/out.model"],
    "bench --net of a file that is not a net": ["bench", "1", "--net", "{garbage}"],
    "datagen --random-plies": ["datagen", "--positions", "1", "--out", "{tmp}/data", "--random-plies", "-1"],
    "evolve of a malformed configuration": ["evolve", "{garbage}"],
    "tune of a malformed specification": ["tune", "--method", "spsa", "{garbage}"],
}

USAGE = {
    "perft 0": ["perft", "0"],
    "bench --threads two": ["bench", "--threads", "two"],
    "bench --threads 100000": ["bench", "--threads", "100000"],      # beyond the engine's Threads range
    "match --games x": ["match", "--games", "x"],
    "analyse --time 0": ["analyse", "{pgn}", "--time", "0"],
    "serve --port x": ["serve", "--port", "x"],
    "serve --port 70000": ["serve", "--port", "70000"],
    "book without an action": ["book"],
    "book build --max-ply 0": ["book", "build", "{pgn}", "-o", "{tmp}/out.bin", "--max-ply", "0"],
    "tb generate --block-size 0": ["tb", "generate", "KRvK", "--block-size", "0", "--out", "{tmp}"],
    "tb verify without --syzygy": ["tb", "verify"],
    "mill bench --hash -5": ["mill", "bench", "1", "--hash", "-5"],
    "mill db verify --sample -5": ["mill", "db", "verify", "--sample", "-5"],
    "kriegspiel match without players": ["kriegspiel", "match"],
    "kriegspiel model without --out": ["kriegspiel", "model", "{pgn}"],
    "datagen --positions -5": ["datagen", "--positions", "-5", "--out", "{tmp}/data"],
    "train --hidden 0": ["train", "{tmp}", "-o", "{tmp}/out.nnue", "--hidden", "0"],
    "evolve without a configuration": ["evolve"],
    "tune without a specification": ["tune"],
}

DONE = {
    "perft": ["perft", "1"],
    "bench": ["bench", "1"],
    "match": ["match", "--engine", MOVER, "name=a", "--engine", MOVER, "name=b", "--depth", "1", "--maxmoves", "5",
              "--quiet"],
    "analyse": ["analyse", "{pgn}", "--nodes", "200", "-o", "{tmp}/annotated.pgn"],
    "book build": ["book", "build", "{pgn}", "-o", "{tmp}/out.bin", "--min-games", "1"],
    "book show": ["book", "show"],
    "tb info": pytest.param(["tb", "info"], marks=needs_shipped),
    "tb probe": pytest.param(["tb", "probe", KQK], marks=needs_shipped),
    "tb verify": pytest.param(["tb", "verify", "KQvK", "--syzygy", str(SYZYGY)], marks=[needs_shipped, needs_syzygy]),
    "mill bench": ["mill", "bench", "1"],
    "mill db info": ["mill", "db", "info"],
    "mill db probe": ["mill", "db", "probe", MILL_FEN],
    "mill match": ["mill", "match", "--player", "random", "--player", "random", "--games", "2", "--quiet"],
    "kriegspiel play": ["kriegspiel", "play", "--fen", KRK],
    "kriegspiel match": ["kriegspiel", "match", "--white", "random", "--black", "random", "--fen", KRK, "--quiet"],
    "datagen": ["datagen", "--positions", "10", "--nodes", "100", "--workers", "1", "--out", "{tmp}/data"],
}


@pytest.mark.parametrize("argv", MISSING_INPUT.values(), ids=MISSING_INPUT)
def test_a_missing_input_is_bad_input(tmp_path, argv):
    result = pyrope(tmp_path, *argv)
    assert result.returncode == 2 and one_sentence(result), result.stderr
    assert str(tmp_path / "missing.file") in result.stderr


@pytest.mark.parametrize("argv", BAD_VALUE.values(), ids=BAD_VALUE)
def test_a_value_that_cannot_be_used_is_bad_input(tmp_path, argv):
    result = pyrope(tmp_path, *argv)
    assert result.returncode == 2 and one_sentence(result), result.stderr


@pytest.mark.parametrize("argv", USAGE.values(), ids=USAGE)
def test_a_usage_error_is_bad_input(tmp_path, argv):
    result = pyrope(tmp_path, *argv)
    assert result.returncode == 2 and result.stderr.startswith("usage: pyrope "), result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize("argv", DONE.values(), ids=DONE)
def test_work_done_is_0(tmp_path, argv):
    result = pyrope(tmp_path, *argv)
    assert result.returncode == 0, result.stderr


def test_every_subcommand_is_covered():
    def commands(cases):
        return {(case if isinstance(case, list) else case.values[0])[0] for case in cases.values()}
    assert commands(USAGE) | commands(BAD_VALUE) >= set(SUBCOMMANDS)
    # train, evolve and tune take minutes (their own tests); serve runs until Ctrl-C (tests/web).
    assert commands(DONE) >= set(SUBCOMMANDS) - {"train", "evolve", "tune", "serve"}


def damaged_copy(source: Path, folder: Path) -> Path:
    """A copy of `source` in `folder` with bytes of its second half flipped: its checksum fails."""
    folder.mkdir(exist_ok=True)
    data = bytearray(source.read_bytes())
    for index in range(len(data) // 2, len(data), 997):
        data[index] ^= 0x5A
    (folder / source.name).write_bytes(data)
    return folder


@needs_shipped
@needs_syzygy
def test_a_damaged_table_fails_verify_and_is_bad_input_to_probe(tmp_path):
    damaged_copy(DEFAULT_DTM_PATH / "KQvK.ptb", tmp_path / "tables")
    verify = pyrope(tmp_path, "tb", "verify", "--dir", "{tmp}/tables", "--syzygy", str(SYZYGY))
    assert verify.returncode == 1 and "checksum mismatch" in verify.stdout, verify.stdout + verify.stderr
    probe = pyrope(tmp_path, "tb", "probe", KQK, "--dir", "{tmp}/tables")
    assert probe.returncode == 2 and one_sentence(probe) and "checksum mismatch" in probe.stderr


def test_a_damaged_mill_database_fails_verify(tmp_path):
    for path in MILL_TABLES.glob("mill-3-3-*.mdb"):
        damaged_copy(path, tmp_path / "db")
    result = pyrope(tmp_path, "mill", "db", "verify", "--dir", "{tmp}/db")
    assert result.returncode == 1 and "corrupt" in result.stdout, result.stdout + result.stderr


@pytest.mark.parametrize("argv", [
    ["match", "--engine", MOVER, "name=a", "--engine", MOVER, "name=b", "--depth", "1", "--quiet",
     "--pgn", "{missing}/games.pgn"],
    ["book", "build", "{pgn}", "-o", "{missing}/out.bin", "--min-games", "1"],
], ids=["match --pgn", "book build -o"])
def test_an_output_that_cannot_be_written_is_the_work_failing(tmp_path, argv):
    result = pyrope(tmp_path, *argv)
    assert result.returncode == 1 and one_sentence(result), result.stderr
    assert str(tmp_path / "missing.file") in result.stderr


@pytest.mark.parametrize("argv", [["bench", "40"], ["kriegspiel", "match", "--white", "random", "--black", "random",
                                                   "--games", "100000", "--quiet"]], ids=["bench", "kriegspiel match"])
def test_sigint_exits_130(argv):
    # Its own session, SIGINT at its default: a shell's background job (CI's, say) ignores SIGINT,
    # and a child would inherit that. tests/protocol/test_signals.py interrupts perft at a terminal.
    process = subprocess.Popen([sys.executable, "-m", "pyrope", "--no-progress", *argv], stdin=subprocess.DEVNULL,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        assert process.stdout.readline()        # its first line: the work has begun
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    finally:
        process.kill()
        process.wait()
    assert process.returncode == 130 and "interrupted" in stderr and "Traceback" not in stderr
