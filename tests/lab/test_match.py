"""Tests of the match runner (the package engine/match/): statistics with concrete numbers, the parsers of the
command-line values, the rules of a game, and real mini matches against tests/support/random_mover.py."""
import argparse
import json
import math
import random
import re
import shlex
import shutil
import socket
import subprocess
import sys

import chess
import chess.pgn
import pytest

from pyrope import match
from paths import SUPPORT



def mover(mode="random", seed=1):
    """--engine tokens for the test helper engine."""
    command = shlex.join([sys.executable, str(SUPPORT / "random_mover.py"), "--mode", mode, "--seed", str(seed)])
    return [f"cmd={command}", f"name={mode}"]


# --- statistics -----------------------------------------------------------------------------------

def test_elo_from_score():
    assert match.elo_from_score(0.75) == pytest.approx(190.8485, abs=1e-4)
    assert match.elo_from_score(0.25) == pytest.approx(-190.8485, abs=1e-4)
    assert match.elo_from_score(0.5) == 0.0
    assert match.elo_from_score(0.9) == pytest.approx(381.6970, abs=1e-4)
    assert match.elo_from_score(1.0) == math.inf and match.elo_from_score(0.0) == -math.inf
    assert match.score_from_elo(190.8485) == pytest.approx(0.75, abs=1e-6)
    with pytest.raises(ValueError, match="0..1"):
        match.elo_from_score(1.5)


def test_elo_interval():
    # 30-20-50: s = 0.55, per-game variance 0.1225, stderr 0.035, 95%: 0.55 +/- 0.0686.
    elo, margin = match.elo_interval(30, 20, 50)
    assert elo == pytest.approx(34.860, abs=1e-3)
    assert margin == pytest.approx(48.470, abs=1e-3)
    # Symmetric: swapping wins and losses negates the Elo and keeps the margin.
    assert match.elo_interval(20, 30, 50) == pytest.approx((-34.860, 48.470), abs=1e-3)
    elo, margin = match.elo_interval(10, 10, 0)       # s = 0.5 +/- 1.96 * 0.5 / sqrt(20)
    assert elo == 0.0
    assert margin == pytest.approx(match.elo_from_score(0.5 + 1.959964 * 0.5 / math.sqrt(20)), abs=1e-3)
    assert match.elo_interval(10, 10, 0)[1] == pytest.approx(163.32, abs=0.01)
    # More draws, same score: a narrower interval.
    assert match.elo_interval(10, 10, 80)[1] < match.elo_interval(50, 50, 0)[1]
    assert match.elo_interval(8, 2, 0)[1] == math.inf                 # the interval reaches a score of 1
    assert match.elo_interval(5, 0, 0) == (math.inf, math.inf)
    with pytest.raises(ValueError, match="no games"):
        match.elo_interval(0, 0, 0)


def test_likelihood_of_superiority():
    assert match.likelihood_of_superiority(10, 10) == 0.5
    assert match.likelihood_of_superiority(0, 0) == 0.5
    assert match.likelihood_of_superiority(60, 40) == pytest.approx(0.9772, abs=1e-4)


def test_sprt_bounds_and_decision():
    lower, upper = match.sprt_bounds(0.05, 0.05)
    assert (lower, upper) == pytest.approx((-2.9444, 2.9444), abs=1e-4)
    assert match.sprt_bounds(0.05, 0.1) == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))
    assert match.sprt_decision(3.0, (lower, upper)) == "H1 accepted"
    assert match.sprt_decision(-3.0, (lower, upper)) == "H0 accepted"
    assert match.sprt_decision(0.5, (lower, upper)) is None


def test_sprt_llr():
    # 600-400-1000 (s = 0.55, var = 0.1225) against elo0=0, elo1=10 (s0 = 0.5, s1 = 0.514387):
    # LLR = 2000 * 0.014387 * (1.1 - 1.014387) / (2 * 0.1225) = 10.05: H1.
    assert match.sprt_llr(600, 400, 1000, 0, 10) == pytest.approx(10.055, abs=0.001)
    assert match.sprt_llr(600, 400, 1000, 0, 10) > match.sprt_bounds(0.05, 0.05)[1]
    # Equal strength over many games (s = 0.5, var = 0.125): 10000 * -0.014387^2 / 0.25 = -8.28: H0.
    assert match.sprt_llr(2500, 2500, 5000, 0, 10) == pytest.approx(-8.280, abs=0.001)
    assert match.sprt_llr(2500, 2500, 5000, 0, 10) < match.sprt_bounds(0.05, 0.05)[0]
    assert match.sprt_llr(400, 600, 1000, 0, 10) == pytest.approx(-13.434, abs=0.001)
    # Few games: between the bounds; no variance yet: 0.
    assert abs(match.sprt_llr(3, 2, 5, 0, 10)) < 1
    assert match.sprt_llr(0, 0, 0, 0, 10) == 0.0
    assert match.sprt_llr(10, 0, 0, 0, 10) == 0.0


def test_sprt_forecast():
    # Undecided tests (LLR 1.24, -1.76, 0.49): one well ahead mostly passes by 2,000 games, one
    # well behind mostly fails and never passes, an even one short of its cap mostly runs out.
    h1, h0, undecided = match.sprt_forecast(120, 90, 150, 0, 10, cap=2000, runs=300)
    assert h1 > 0.75 and h1 + h0 + undecided == pytest.approx(1.0)
    h1, h0, _ = match.sprt_forecast(90, 120, 150, 0, 10, cap=2000, runs=300)
    assert h0 > 0.9 and h1 < 0.02
    assert match.sprt_forecast(500, 500, 600, 0, 10, cap=1700, runs=300)[2] > 0.9
    # The same seed gives the same forecast; a test at its cap or already decided has no chances left.
    assert match.sprt_forecast(110, 95, 150, 0, 10, cap=800, runs=100, seed=3) == \
        match.sprt_forecast(110, 95, 150, 0, 10, cap=800, runs=100, seed=3)
    assert match.sprt_forecast(737, 722, 977, 0, 10, cap=2436) == (0.0, 0.0, 1.0)
    assert match.sprt_forecast(300, 200, 300, 0, 10, cap=2000) == (1.0, 0.0, 0.0)


# --- command-line values --------------------------------------------------------------------------

@pytest.mark.parametrize("text, expected, pgn", [
    ("10+0.1", match.TimeControl(base=10.0, increment=0.1), "10+0.1"),
    ("40/5", match.TimeControl(base=5.0, moves=40), "40/5"),
    ("40/5+0.1", match.TimeControl(base=5.0, increment=0.1, moves=40), "40/5+0.1"),
    ("60", match.TimeControl(base=60.0), "60"),
    ("1:30+1", match.TimeControl(base=90.0, increment=1.0), "90+1"),
    (" .5+.05 ", match.TimeControl(base=0.5, increment=0.05), "0.5+0.05"),
])
def test_parse_tc(text, expected, pgn):
    assert match.parse_tc(text) == expected
    assert match.parse_tc(text).pgn() == pgn


@pytest.mark.parametrize("text, message", [
    ("", "bad time control ''"), ("10+", "expected BASE"), ("fast", "e.g. 10"), ("10+0.1+1", "bad time control"),
    ("-5", "bad time control"), ("0+1", "base time must be more than 0"), ("0/60", "moves per period"),
])
def test_parse_tc_rejects(text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        match.parse_tc(text)


def test_time_control_pgn_without_clock():
    assert match.TimeControl(movetime=0.05).pgn() == "0.05/move"
    assert match.TimeControl(depth=5).pgn() == "-"


def test_parse_engine_spec():
    spec = match.parse_engine_spec(["cmd=sunfish-uci", "name=Sunfish", "option.Hash=64", "option.Ponder=false"])
    assert spec.command == ["sunfish-uci"] and spec.name == "Sunfish" and spec.protocol == "uci"
    assert spec.options == {"Hash": "64", "Ponder": False}
    spec = match.parse_engine_spec(["cmd=python3 'my engine.py' --fast", "proto=xboard", "dir=/tmp"])
    assert spec.command == ["python3", "my engine.py", "--fast"]
    assert spec.name == "python3" and spec.protocol == "xboard" and spec.directory == "/tmp"
    # Later fields win (how --each defaults combine with an engine's own fields).
    assert match.parse_engine_spec(["proto=xboard", "cmd=/usr/games/fairymax", "proto=uci"]).protocol == "uci"
    assert match.parse_engine_spec(["cmd=/usr/games/fairymax"]).name == "fairymax"


@pytest.mark.parametrize("tokens, message", [
    (["name=X"], "no command given"), (["cmd="], "no command given"),
    (["cmd=x", "colour=red"], "unknown field 'colour'"), (["cmd=x", "fast"], "expected KEY=VALUE, got 'fast'"),
    (["cmd=x", "proto=ugi"], "proto must be uci or xboard"), (["cmd=x", "option.=1"], "option without a name"),
    (["cmd=python3 'unclosed"], "cannot split command"),
])
def test_parse_engine_spec_rejects(tokens, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        match.parse_engine_spec(tokens)


def test_parse_fields():
    assert match.parse_fields(match.DrawRule, [], "--draw") == match.DrawRule(40, 8, 10)
    assert match.parse_fields(match.DrawRule, ["movenumber=34", "score=20"], "--draw") == match.DrawRule(34, 8, 20)
    assert match.parse_fields(match.ResignRule, ["score=400"], "--resign") == match.ResignRule(3, 400)
    assert match.parse_fields(match.SprtSpec, ["elo1=5", "beta=0.1"], "--sprt") == match.SprtSpec(0, 5, 0.05, 0.1)
    message = "--draw: unknown key 'moves' (expected movenumber, movecount, score)"
    with pytest.raises(ValueError, match=re.escape(message)):
        match.parse_fields(match.DrawRule, ["moves=3"], "--draw")
    with pytest.raises(ValueError, match="--resign: score must be an integer, got '4.5'"):
        match.parse_fields(match.ResignRule, ["score=4.5"], "--resign")
    with pytest.raises(ValueError, match="--resign: movecount must be 1 or more"):
        match.parse_fields(match.ResignRule, ["movecount=0"], "--resign")
    with pytest.raises(ValueError, match="--sprt: elo1 must be larger than elo0"):
        match.parse_fields(match.SprtSpec, ["elo0=5", "elo1=0"], "--sprt")
    with pytest.raises(ValueError, match="--sprt: alpha and beta"):
        match.parse_fields(match.SprtSpec, ["alpha=1"], "--sprt")


# --- openings -------------------------------------------------------------------------------------

EPD = """# two openings
rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - c0 "sf15 d12 +34";

rnbq1rk1/pppp1ppp/4pn2/8/1bPP4/2N5/PPQ1PPPP/R1B1KBNR w KQ - hmvc 3; fmvn 5;
"""

PGN = """[Event "a"]

1. e4 e5 2. Nf3 Nc6 *

[Event "b"]
[FEN "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1"]
[SetUp "1"]

1. e4 Kd7 *
"""


def test_epd_openings():
    first, second = match.parse_epd_openings(EPD, "x.epd")
    assert first.fen() == "rnbqk2r/ppp1bppp/4pn2/3p4/2PP4/2N2N2/PP2PPPP/R1BQKB1R w KQkq - 0 1"
    assert second.halfmove_clock == 3 and second.fullmove_number == 5 and not second.move_stack


def test_pgn_openings():
    first, second = match.parse_pgn_openings(PGN, "x.pgn")
    assert [move.uci() for move in first.move_stack] == ["e2e4", "e7e5", "g1f3", "b8c6"]
    assert first.root() == chess.Board()
    assert second.root().fen() == "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1" and len(second.move_stack) == 2


@pytest.mark.parametrize("parse, text, message", [
    (match.parse_epd_openings, "8/8/8/8 w - -\n", "x:1: bad EPD"),
    (match.parse_epd_openings, "\n# only a comment\n", "x: no positions found"),
    (match.parse_epd_openings, "4k3/8/8/8/8/8/8/4K2K w - -\n", "x:1: not a legal position"),
    (match.parse_epd_openings, "k7/1Q6/1K6/8/8/8/8/8 b - -\n", "x:1: the game is already over"),
    (match.parse_pgn_openings, "1. e4 e5 2. Ke3 *\n", "x: game 1: illegal san: 'Ke3'"),
    (match.parse_pgn_openings, "", "x: no games found"),
])
def test_bad_openings(parse, text, message):
    with pytest.raises(ValueError, match=re.escape(message)):
        parse(text, "x")


def test_load_openings(tmp_path):
    (tmp_path / "a.epd").write_text(EPD)
    (tmp_path / "b.pgn").write_text(PGN)
    (tmp_path / "c.txt").write_text(PGN)                      # a [tag] first: PGN whatever the name
    assert len(match.load_openings(str(tmp_path / "a.epd"))) == 2
    assert len(match.load_openings(str(tmp_path / "b.pgn"))[0].move_stack) == 4
    assert len(match.load_openings(str(tmp_path / "c.txt"))[0].move_stack) == 4
    with pytest.raises(ValueError, match="cannot read openings file"):
        match.load_openings(str(tmp_path / "missing.epd"))


# --- rules of a game ------------------------------------------------------------------------------

def test_natural_end():
    assert match.natural_end(chess.Board()) is None
    mate = chess.Board("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1")
    assert match.natural_end(mate) == match.Ending("1-0", "normal", "checkmate", "White mates", chess.BLACK)
    board = chess.Board()
    for move in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1"]:
        board.push_uci(move)
    # Black *could* claim a threefold with ...Ng8, but it has not happened: play on.
    assert board.can_claim_threefold_repetition() and match.natural_end(board) is None
    board.push_uci("f6g8")
    assert match.natural_end(board).kind == "threefold repetition"
    assert match.natural_end(chess.Board("4k3/8/8/8/8/8/8/4KR2 w - - 100 80")).kind == "fifty-move rule"
    assert match.natural_end(chess.Board("4k3/8/8/8/8/8/8/4KN2 w - - 0 1")).kind == "insufficient material"


def test_draw_adjudication():
    rule = match.DrawRule(movenumber=2, movecount=2, score=10)
    assert match.draw_adjudicated([50, 50, 5, -5, 0, 10], rule)
    assert not match.draw_adjudicated([50, 50, 5, -5, 0, 11], rule)           # one score out of the band
    assert not match.draw_adjudicated([5, -5, 0, None], rule)                 # a move without a score
    assert not match.draw_adjudicated([0, 0, 0], rule)                        # before movenumber
    assert match.draw_adjudicated([0, 0, 0, 0], rule)


def test_resign_adjudication():
    rule = match.ResignRule(movecount=2, score=600)
    assert match.resign_adjudicated([0, -700, -650, -900, -600], rule) == chess.WHITE
    assert match.resign_adjudicated([0, 700, 650, 900, 100000], rule) == chess.BLACK
    assert match.resign_adjudicated([0, -700, -650, -900, 0], rule) is None    # the engines disagree
    assert match.resign_adjudicated([-700, -700, -700], rule) is None         # too few moves


def test_tablebase_adjudication(syzygy_dir):
    adjudicate = match.TablebaseAdjudicator(str(syzygy_dir))
    assert adjudicate.max_pieces == 4
    assert adjudicate(chess.Board()) is None
    # KQ v K, Black to move: lost for Black (DTZ 14 plies).
    ending = adjudicate(chess.Board("8/8/8/8/8/8/1Q6/K6k b - - 0 1"))
    assert (ending.result, ending.termination, ending.loser) == ("1-0", "adjudication", chess.BLACK)
    assert adjudicate(chess.Board("8/8/8/8/8/8/1Q6/K6k b - - 85 60")).result == "1-0"     # 85 + 14 < 100
    # 95 + 14 > 100: the fifty-move rule comes first.
    assert adjudicate(chess.Board("8/8/8/8/8/8/1Q6/K6k b - - 95 60")).result == "1/2-1/2"
    assert adjudicate(chess.Board("8/8/8/8/8/8/1Q6/K6k b - - 87 60")) is None     # 101: DTZ may be one ply off
    assert adjudicate(chess.Board("8/8/8/8/8/2k5/8/K1N4N w - - 0 1")).result == "1/2-1/2"
    with pytest.raises(ValueError, match="is not a directory"):
        match.TablebaseAdjudicator(str(syzygy_dir / "nowhere"))


def test_game_clock():
    clock = match.GameClock(match.TimeControl(base=10.0, increment=0.5, moves=2))
    limit = clock.limit(chess.WHITE)
    assert (limit.white_clock, limit.black_clock, limit.white_inc, limit.remaining_moves) == (10.0, 10.0, 0.5, 2)
    assert clock.charge(chess.WHITE, 4.0, 0.1) and clock.remaining[chess.WHITE] == 6.5
    assert clock.limit(chess.WHITE).remaining_moves == 1
    assert clock.charge(chess.WHITE, 6.55, 0.1)                  # 0.05 s over: within the margin
    assert clock.remaining[chess.WHITE] == 10.5                  # 0 + increment + a new period
    assert clock.allowance(chess.WHITE, 0.1) == pytest.approx(10.6)
    assert not clock.charge(chess.WHITE, 10.7, 0.1)              # flag
    movetime = match.GameClock(match.TimeControl(movetime=0.5))
    assert movetime.limit(chess.WHITE).time == 0.5
    assert movetime.charge(chess.BLACK, 0.55, 0.1) and not movetime.charge(chess.BLACK, 0.61, 0.1)
    assert match.GameClock(match.TimeControl(depth=3)).allowance(chess.WHITE, 0.1) is None


def test_schedule():
    openings = [chess.Board(), chess.Board("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1")]
    tasks = match.schedule(3, 6, openings)
    assert [(t.number, t.pairing, t.white, t.black) for t in tasks[:7]] == [
        (1, 0, 0, 1), (2, 0, 1, 0), (3, 0, 0, 1), (4, 0, 1, 0), (5, 0, 0, 1), (6, 0, 1, 0), (7, 1, 0, 2)]
    assert [openings.index(t.opening) for t in tasks[:6]] == [0, 0, 1, 1, 0, 0]   # reused cyclically
    assert len(tasks) == 12


# --- real matches ---------------------------------------------------------------------------------

def run_match(capsys, *argv):
    """Run `pyrope match ARGV` in-process; return (exit code, stdout)."""
    parser = argparse.ArgumentParser()
    match.add_arguments(parser)
    code = match.run(parser.parse_args([str(arg) for arg in argv]))
    return code, capsys.readouterr().out


def read_games(path):
    games = []
    with open(path) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            games.append(game)
    return games


def score_line(report):
    """(first, second, wins, losses, draws, games) from 'Score of A vs B: W - L - D  [s] N'."""
    found = re.search(r"Score of (\S+) vs (\S+): (\d+) - (\d+) - (\d+)  \[[\d.]+\] (\d+)", report)
    first, second, *counts = found.groups()
    return (first, second, *map(int, counts))


@pytest.mark.skipif(shutil.which("sunfish-uci") is None, reason="sunfish-uci is missing (pip install sunfish)")
def test_sunfish_against_random_mover(tmp_path, capsys, balanced_openings):
    (tmp_path / "two.epd").write_text("".join(balanced_openings.read_text().splitlines(keepends=True)[:2]))
    pgn = tmp_path / "games.pgn"
    code, report = run_match(capsys, "--engine", "cmd=sunfish-uci", "name=Sunfish", "--engine", *mover(),
                             "--games", 4, "--nodes", 300, "--maxmoves", 60, "--concurrency", 2,
                             "--openings", tmp_path / "two.epd", "--pgn", pgn, "--quiet")
    assert code == 0, report
    first, second, wins, losses, draws, games = score_line(report)
    assert (first, second, games) == ("Sunfish", "random", 4)
    assert "Elo difference:" in report and "Games: 4 of 4 played" in report

    played = read_games(pgn)
    assert sorted(int(game.headers["Round"]) for game in played) == [1, 2, 3, 4]
    points = {"Sunfish": 0.0, "random": 0.0}
    for game in played:
        headers = game.headers
        fen = balanced_openings.read_text().splitlines()[(int(headers["Round"]) - 1) // 2]
        assert headers["FEN"] == chess.Board(fen.split(" c0")[0] + " 0 1").fen() and headers["SetUp"] == "1"
        assert headers["TimeControl"] == "-" and headers["Termination"] in ("normal", "adjudication")
        assert (headers["White"] == "Sunfish") == (int(headers["Round"]) % 2 == 1)     # colours alternate
        white, black = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5)}[headers["Result"]]
        points[headers["White"]] += white
        points[headers["Black"]] += black
        board = game.end().board()
        if headers["Termination"] == "normal":
            assert board.is_checkmate() or board.is_stalemate() or board.is_insufficient_material() \
                or board.is_repetition(3) or board.is_fifty_moves()
        assert re.fullmatch(r"[+-](\d+\.\d\d|M\d+)/\d+ \d+\.\d{3}s.*", game.next().comment)
    assert points["Sunfish"] == wins + draws / 2 and points["random"] == losses + draws / 2


@pytest.mark.parametrize("mode, options, termination, counter, reason", [
    ("illegal", [], "rules infraction", "illegal moves: 2", "makes an illegal move: "),
    ("crash", [], "abandoned", "crashes: 2", "'s engine crashed: "),
    ("hang", ["--movetime", 0.05], "time forfeit", "time forfeits: 2", " loses on time: no move within 0.150s"),
])
def test_faulty_engine_loses_and_match_goes_on(tmp_path, capsys, mode, options, termination, counter, reason):
    pgn, journal = tmp_path / "games.pgn", tmp_path / "journal.jsonl"
    code, report = run_match(capsys, "--engine", *mover(), "--engine", *mover(mode), "--games", 2,
                             "--depth", 1, *options, "--pgn", pgn, "--resume", journal, "--quiet")
    assert code == 0, report
    assert "Score of random vs " + mode + ": 2 - 0 - 0  [1.000] 2" in report
    faults = {line.split(":")[0]: line for line in report.splitlines() if ": time forfeits:" in line}
    assert counter in faults[mode] and faults["random"] == "random: time forfeits: 0, illegal moves: 0, crashes: 0"
    games = read_games(pgn)
    assert [game.headers["Termination"] for game in games] == [termination, termination]
    assert {game.headers["Result"] for game in games} == {"1-0", "0-1"}       # it lost with both colours
    # The journal keeps each fault's reason, for its diagnosis.
    entries = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    assert [entry["fault"] for entry in entries] == [1, 1] and all(reason in entry["reason"] for entry in entries)


def test_sprt_report_and_gauntlet(capsys):
    code, report = run_match(capsys, "--engine", *mover(), "--engine", *mover("illegal"), "--games", 2,
                             "--depth", 1, "--sprt", "elo1=5", "--quiet")
    assert code == 0 and "SPRT: inconclusive (LLR 0.00, bounds -2.94 2.94" in report
    code, report = run_match(capsys, "--engine", *mover(), "--engine", *mover("illegal"),
                             "--engine", *mover("crash"), "--games", 1, "--depth", 1, "--quiet")
    assert "Score of random vs illegal: 2 - 0 - 0" in report and "Score of random vs crash: 2 - 0 - 0" in report


def test_sprt_stops_the_match():
    tasks = match.schedule(2, 1000, [chess.Board()])
    runner = match.Match([match.parse_engine_spec(["cmd=a"]), match.parse_engine_spec(["cmd=b"])], tasks,
                         match.Rules(match.TimeControl(depth=1)), sprt=match.SprtSpec(0, 10))
    results = iter(["1-0", "0-1", "1-0", "1/2-1/2"] * 1000)                 # 3:1 for the first engine
    while runner.decision is None:
        task = tasks[sum(t.games for t in runner.tallies)]
        result = next(results)
        runner.record(task, match.Ending(result, "normal", "checkmate", "x"), chess.pgn.Game())
    assert runner.decision == "H1 accepted" and runner.tallies[0].games < 100


# --- resumed matches ------------------------------------------------------------------------------

def cheap_match(tmp_path, *argv):
    """argv of a fast match between two random movers, journaled to tmp_path/journal.jsonl, PGN in games.pgn."""
    return ["--engine", *mover(seed=1), "--engine", *mover(seed=2), "--depth", 1, "--maxmoves", 10, "--quiet",
            "--resume", tmp_path / "journal.jsonl", "--pgn", tmp_path / "games.pgn", *argv]


def refusal(capsys, *argv):
    """Run `pyrope match ARGV`, which must exit with 2; return its stderr."""
    parser = argparse.ArgumentParser()
    match.add_arguments(parser)
    assert match.run(parser.parse_args([str(arg) for arg in argv])) == 2
    return capsys.readouterr().err


def journal_lines(tmp_path):
    return [json.loads(line) for line in (tmp_path / "journal.jsonl").read_text().splitlines()]


def rounds(tmp_path):
    return [int(game.headers["Round"]) for game in read_games(tmp_path / "games.pgn")]


def first_engine_results(games):
    """(wins, losses, draws) of engine 0 in these journal lines."""
    draws = sum(game["result"] == "1/2-1/2" for game in games)
    wins = sum(game["result"] == ("1-0" if game["white"] == 0 else "0-1") for game in games)
    return wins, len(games) - wins - draws, draws


def journal_game(number, score):
    """A journal line for game `number` of a two-engine match in which engine 0 scored `score` (1, 0.5, 0)."""
    white = 0 if number % 2 else 1
    result = "1/2-1/2" if score == 0.5 else "1-0" if (score == 1) == (white == 0) else "0-1"
    return json.dumps({"game": number, "pairing": 0, "white": white, "black": 1 - white, "result": result,
                       "kind": "max moves" if score == 0.5 else "checkmate", "fault": None}) + "\n"


def test_resume_extends_a_match(tmp_path, capsys):
    (tmp_path / "two.epd").write_text(EPD)
    argv = cheap_match(tmp_path, "--openings", tmp_path / "two.epd", "--order", "random")
    code, first = run_match(capsys, *argv, "--games", 4)
    assert code == 0 and "Games: 4 of 4 played" in first and "resumed" not in first, first
    code, second = run_match(capsys, *argv, "--games", 8)
    assert code == 0, second
    seed = int(re.search(r"seed (\d+)", first).group(1))
    assert f"seed {seed}\n" in second                           # no --seed: the journal's
    assert f"Games resumed from {tmp_path / 'journal.jsonl'}: 4\n" in second
    assert "Games: 8 of 8 played" in second
    games = journal_lines(tmp_path)[1:]
    assert [game["game"] for game in games] == list(range(1, 9))
    assert not any("reason" in game for game in games)          # a reason is kept for a fault only
    assert score_line(second)[2:] == (*first_engine_results(games), 8)
    assert rounds(tmp_path) == list(range(1, 9))                 # the second run played games 5 to 8 only
    openings = match.parse_epd_openings(EPD)
    random.Random(seed).shuffle(openings)
    assert [game.headers["FEN"] for game in read_games(tmp_path / "games.pgn")] == \
        [openings[(number - 1) // 2 % 2].fen() for number in range(1, 9)]


def test_resume_refuses_another_match(tmp_path, capsys):
    argv = cheap_match(tmp_path, "--games", 2, "--order", "random", "--seed", 7)
    assert run_match(capsys, *argv)[0] == 0
    journal = (tmp_path / "journal.jsonl").read_bytes()
    for extra, message in [(["--tc", "5+0.05"], "is the journal of another match (its time control differs): "),
                           (["--seed", "8", "--maxmoves", "20"], "(its maxmoves, seed differ): "),
                           (["--resume", tmp_path / "games.pgn"], "games.pgn is not a journal: line 1 ")]:
        assert message in refusal(capsys, *argv, *extra)
    assert (tmp_path / "journal.jsonl").read_bytes() == journal and rounds(tmp_path) == [1, 2]


def test_resume_gauntlet_keeps_its_game_count(tmp_path, capsys):
    argv = ["--engine", *mover(), "--engine", *mover("illegal"), "--engine", *mover("crash"), "--depth", 1,
            "--quiet", "--resume", tmp_path / "journal.jsonl"]
    assert run_match(capsys, *argv, "--games", 2)[0] == 0
    assert "(its game count differs)" in refusal(capsys, *argv, "--games", 4)   # task numbers would shift


def test_resume_replays_a_game_cut_short(tmp_path, capsys):
    argv = cheap_match(tmp_path, "--games", 2)
    assert run_match(capsys, *argv)[0] == 0
    journal = tmp_path / "journal.jsonl"
    journal.write_text(journal.read_text()[:-20])               # killed while writing game 2's line
    (tmp_path / "games.pgn").unlink()
    code, report = run_match(capsys, *argv)
    assert code == 0 and "journal.jsonl: 1\n" in report and "Games: 2 of 2 played" in report, report
    assert rounds(tmp_path) == [2]
    assert [line.get("game") for line in journal_lines(tmp_path)] == [None, 1, 2]   # the fragment was cut off


def test_resume_rebuilds_the_report(tmp_path, capsys):
    argv = ["--engine", *mover(), "--engine", *mover("illegal"), "--games", 2, "--depth", 1, "--quiet",
            "--resume", tmp_path / "journal.jsonl"]
    code, report = run_match(capsys, *argv)
    assert code == 0 and "illegal: time forfeits: 0, illegal moves: 2" in report
    code, again = run_match(capsys, *argv)                      # nothing left to play
    assert code == 0 and again.replace(f"Games resumed from {tmp_path / 'journal.jsonl'}: 2\n", "") == report


def test_resume_sprt_pools_the_journal(tmp_path, capsys):
    argv = cheap_match(tmp_path, "--sprt", "elo0=0", "elo1=100")
    assert run_match(capsys, *argv, "--games", 2)[0] == 0
    with open(tmp_path / "journal.jsonl", "a") as journal:     # games 3-6 of an earlier session
        journal.writelines(journal_game(number, score) for number, score in zip(range(3, 7), (1, 0, 0.5, 1)))
    code, report = run_match(capsys, *argv, "--games", 8)
    assert code == 0, report
    wins, losses, draws = first_engine_results(journal_lines(tmp_path)[1:])
    assert score_line(report)[2:] == (wins, losses, draws, 8) and rounds(tmp_path) == [1, 2, 7, 8]
    assert f"SPRT: inconclusive (LLR {match.sprt_llr(wins, losses, draws, 0, 100):.2f}, " in report

    with open(tmp_path / "journal.jsonl", "a") as journal:     # 52 more, 2 of 3 won: H1 before anything is played
        journal.writelines(journal_game(number, 1 if number % 3 else 0.5) for number in range(9, 61))
    code, report = run_match(capsys, *argv, "--games", 100)
    wins, losses, draws = first_engine_results(journal_lines(tmp_path)[1:])
    assert code == 0 and f"SPRT: H1 accepted (LLR {match.sprt_llr(wins, losses, draws, 0, 100):.2f}, " in report
    assert "Games: 60 of 100 played" in report and rounds(tmp_path) == [1, 2, 7, 8]


@pytest.mark.parametrize("argv, message", [
    (["--engine", "cmd=a"], "at least two engines"),
    (["--engine", "cmd=a", "--engine", "cmd=b"], "give a time control"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "10", "--movetime", "1"], "either --tc or --movetime"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--tc", "ten"], "bad time control 'ten'"),
    (["--engine", "cmd=a", "--engine", "cmd=b", "--depth", "2", "--openings", "/nonexistent.epd"],
     "cannot read openings"),
    (["--engine", "cmd=/nonexistent/engine", "--engine", "cmd=b", "--depth", "2", "--quiet"],
     "cannot start engine"),
])
def test_bad_command_lines(capsys, argv, message):
    parser = argparse.ArgumentParser()
    match.add_arguments(parser)
    assert match.run(parser.parse_args(argv)) == 2
    assert message in capsys.readouterr().err


def test_an_unreachable_ray_cluster_is_one_sentence_not_a_hang():
    with socket.socket() as probe:         # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = subprocess.run([sys.executable, "-m", "pyrope", "match", "--engine", "cmd=pyrope", "name=a",
                             "--engine", "cmd=pyrope", "name=b", "--nodes", "100", "--ray", f"127.0.0.1:{port}"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in result.stderr or "--ray needs Ray" in result.stderr
