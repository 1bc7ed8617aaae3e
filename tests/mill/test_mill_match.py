"""Tests of `pyrope mill match` (engine/mill/match/, on the shared runner engine/match/):
its numbers come from the shared statistics; games between built-in players are legal turn by turn
and end as the rules say; a game against `pyrope --game mill` over UGI; faulty UGI engines
(tests/support/mill_ugi_mover.py) lose and are restarted; --resume plays only the missing games; bad
options give one error line and exit 2; OpenSpiel's MCTS player, when OpenSpiel is installed;
games from --positions against the databases' perfect player, and bench/mill_perfect.py."""
from __future__ import annotations

import argparse
import json
import random
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from engine_command import PYROPE
from paths import REPOSITORY, SUPPORT
from pyrope.mill import MillBoard
from pyrope.mill.db.probe import DEFAULT_DIR, MillDatabase, Value
from pyrope.mill.fen import write
from pyrope.mill.geometry import POINTS
from pyrope.mill.match import command, game, players
from pyrope.mill.rules import VARIANTS
from pyrope.match import stats
from pyrope.match.clock import Clock, TimeControl
from pyrope.match.runner import Ending, Match, draw, loss, schedule

needs_command = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")
try:
    import pyspiel
except ImportError:
    pyspiel = None
needs_openspiel = pytest.mark.skipif(pyspiel is None, reason="OpenSpiel is not installed (pip install open-spiel)")


def mover(mode="random", seed=1, *extra):
    """--player tokens for the test's UGI engine."""
    return ["cmd=" + shlex.join([sys.executable, str(SUPPORT / "mill_ugi_mover.py"), "--mode", mode,
                                 "--seed", str(seed), *map(str, extra)]), f"name={mode}"]


def parse(*argv):
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    return parser.parse_args([str(arg) for arg in argv])


def run_match(capsys, *argv):
    """Run `pyrope mill match ARGV` in-process; return (exit code, stdout)."""
    code = command.run(parse(*argv, "--quiet"))
    return code, capsys.readouterr().out


def refusal(capsys, *argv):
    """Run `pyrope mill match ARGV`, which must exit with 2 and one line on stderr; return that line."""
    assert command.run(parse(*argv, "--quiet")) == 2
    error = capsys.readouterr().err
    assert error.count("\n") == 1 and error.startswith("pyrope mill match: "), error
    return error


def score_line(report):
    """(wins, losses, draws, games) from 'Score of A vs B: W - L - D  [s] N'."""
    found = re.search(r"Score of \S+ vs \S+: (\d+) - (\d+) - (\d+)  \[[\d.]+\] (\d+)", report)
    return tuple(map(int, found.groups()))


def records(path):
    return game.parse_records(Path(path).read_text())


def replay(record):
    """The record's game replayed on the rules core: every turn must be legal."""
    options = dict(item.split("=") for item in record.tags["Rules"].split()) if record.tags["Rules"] != "-" else {}
    board = MillBoard(record.tags.get("FEN"), variant=record.tags["Variant"], **options)
    for turn, _ in record.turns:
        assert turn in board.legal_moves(), (record.tags["Round"], board.fen(), turn)
        board.push(turn)
    return board


def check_against_the_rules(record, journal_line=None):
    """A natural end is the rules' own (result and kind); an adjudicated game had not ended."""
    board = replay(record)
    if record.tags["Termination"] == "normal":
        assert board.outcome() == (record.tags["Result"], journal_line["kind"] if journal_line else board.termination())
    else:
        assert not board.is_game_over()


# --- statistics -----------------------------------------------------------------------------------

def test_score_elo_and_draw_kinds_come_from_the_shared_statistics():
    rules = VARIANTS["nine"]
    specs = [players.parse_player_spec(["random"]), players.parse_player_spec(["reference"])]
    tasks = schedule(2, 10, game.random_openings(rules, 5, 2, 4, seed=1))
    runner = Match(specs, tasks, game.MillGame(rules, "nine", TimeControl()))
    # Engine 0 plays White in the odd games: it wins games 1 and 2, draws 3-5, loses game 6 by its
    # own illegal move (as Black) and wins the rest.
    endings = [loss(False, "fewer than three stones", "normal", "x"), loss(True, "blocked", "normal", "x"),
               draw("threefold repetition"), draw("move count"), draw("threefold repetition"),
               loss(False, "illegal move", "rules infraction", "x", fault=True)] + \
        [loss(task.white == 1, "blocked", "normal", "x") for task in tasks[6:]]
    for task, ending in zip(tasks, endings):
        runner.record(task, ending, game.MillRecord({}))
    report = runner.report()
    tally = runner.tallies[0]
    assert (tally.wins, tally.losses, tally.draws) == (6, 1, 3)
    elo, margin = stats.elo_interval(6, 1, 3)
    assert f"Score of random vs reference: 6 - 1 - 3  [0.750] 10\nElo difference: {elo:.1f} +/- {margin:.1f} (95%)" \
        in report
    assert elo == pytest.approx(190.85, abs=0.01)
    assert "random: time forfeits: 0, illegal moves: 1, crashes: 0" in report
    assert report.endswith("Draws: threefold repetition: 2, move count: 1")


def test_openings_are_seeded_quiet_placements_and_grow_with_the_games():
    rules = VARIANTS["nine"]
    first = game.random_openings(rules, 6, 2, 4, seed=5)
    assert first == game.random_openings(rules, 6, 2, 4, seed=5)
    assert game.random_openings(rules, 9, 2, 4, seed=5)[:6] == first        # more games keep the first openings
    assert first != game.random_openings(rules, 6, 2, 4, seed=6)
    assert {len(opening.turns) for opening in game.random_openings(rules, 40, 2, 4, seed=1)} == {4, 6, 8}
    for opening in first:
        assert opening.fen is None
        assert all("-" not in turn and "x" not in turn for turn in opening.turns)
        board = MillBoard()
        board.push_moves(list(opening.turns))
        assert board.white_to_move
    assert game.random_openings(rules, 2, 0, 0, seed=1) == [game.Opening(), game.Opening()]
    # No opening hands the side to move a mill to close (76 of seed 18's first 200 would have).
    for variant in ("nine", "twelve"):
        for opening in game.random_openings(VARIANTS[variant], 60, 2, 4, seed=18):
            board = MillBoard(variant=variant)
            board.push_moves(list(opening.turns))
            assert not any("x" in turn for turn in board.legal_moves()), opening
    twelve = game.random_openings(VARIANTS["twelve"], 3, 3, 3, seed=1)
    assert all(len(opening.turns) == 6 for opening in twelve)


def test_go_words_and_the_limits_tag():
    tc = TimeControl(base=10.0, increment=0.1, moves=40)
    assert game.go_words(tc, Clock(tc), True) == "p1time 10000 p2time 10000 p1inc 100 p2inc 100 movestogo 40"
    assert game.go_words(TimeControl(movetime=0.05, nodes=900), None, False) == "movetime 50 nodes 900"
    assert game.go_words(TimeControl(depth=3), None, True) == "depth 3"
    assert [game.limits_tag(tc) for tc in (TimeControl(base=10.0, increment=0.1), TimeControl(nodes=900),
                                           TimeControl(movetime=0.05, depth=4), TimeControl())] == \
        ["10+0.1", "nodes 900", "0.05/move depth 4", "-"]


# --- games ----------------------------------------------------------------------------------------

def test_builtin_players_play_legal_turns_and_the_rules_end_their_games(tmp_path, capsys):
    for variant, opponent, extra in [("nine", "reference", []), ("twelve", "random", ["--maxturns", 60]),
                                     ("lasker", "reference", ["--rule", "NMoveRule=20"])]:
        record, journal = tmp_path / f"{variant}.txt", tmp_path / f"{variant}.jsonl"
        code, report = run_match(capsys, "--player", "random", "seed=4", "--player", opponent, "--games", 6,
                                 "--variant", variant, "--seed", 11, "--record", record, "--resume", journal, *extra)
        assert code == 0 and "Games: 6 of 6 played" in report, report
        lines = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
        played = records(record)
        assert [int(r.tags["Round"]) for r in played] == [line["game"] for line in lines] == [1, 2, 3, 4, 5, 6]
        for r, line in zip(played, lines):
            assert r.tags["Result"] == line["result"] and r.tags["Variant"] == variant
            assert [comment for _, comment in r.turns].count("opening") in (4, 6, 8)
            check_against_the_rules(r, line)
        wins, losses, draws = score_line(report)[:3]
        assert (wins, losses, draws) == (
            sum(line["result"] == ("1-0" if line["white"] == 0 else "0-1") for line in lines),
            sum(line["result"] == ("0-1" if line["white"] == 0 else "1-0") for line in lines),
            sum(line["result"] == "1/2-1/2" for line in lines))
    assert "[Rules \"NMoveRule=20\"]" in (tmp_path / "lasker.txt").read_text()


def test_the_same_seed_plays_the_same_games(tmp_path, capsys):
    for name in ("a", "b"):
        assert run_match(capsys, "--player", "reference", "--player", "random", "--games", 2, "--seed", 3,
                         "--record", tmp_path / name)[0] == 0
    first, second = ([[turn for turn, _ in r.turns] for r in records(tmp_path / name)] for name in ("a", "b"))
    assert first == second


@needs_command
def test_a_ugi_engine_in_a_subprocess_plays_whole_games(tmp_path, capsys):
    code, report = run_match(capsys, "--player", f"cmd={PYROPE} --game mill", "name=ugi", "--player", "random",
                             "--games", 2, "--nodes", 3000, "--seed", 2, "--record", tmp_path / "games.txt")
    assert code == 0 and score_line(report) == (2, 0, 0, 2), report
    assert "ugi: time forfeits: 0, illegal moves: 0, crashes: 0" in report
    for r in records(tmp_path / "games.txt"):
        check_against_the_rules(r)
        engine = [comment for turn, comment in r.turns if comment != "opening"][r.tags["White"] != "ugi"::2]
        assert re.fullmatch(r"[+-](\d+\.\d\d|M\d+)/\d+ \d+\.\d{3}s", engine[0])


def test_pyrope_in_process_with_its_options(tmp_path, capsys):
    code, report = run_match(capsys, "--player", "pyrope", "name=mtdf", "option.Algorithm=mtdf",
                             "option.MillDBPath=<empty>", "--player", "pyrope", "name=pvs", "--games", 2,
                             "--nodes", 2000, "--maxturns", 40, "--record", tmp_path / "games.txt")
    assert code == 0 and score_line(report)[3] == 2 and "crashes: 0" in report, report
    for r in records(tmp_path / "games.txt"):
        check_against_the_rules(r)


@pytest.mark.parametrize("mode, options, termination, counter", [
    ("crash", [], "abandoned", "crashes: 2"),
    ("garble", [], "rules infraction", "illegal moves: 2"),
    ("illegal", [], "rules infraction", "illegal moves: 2"),
    ("hang", ["--movetime", 0.05], "time forfeit", "time forfeits: 2"),
])
def test_a_faulty_engine_loses_and_the_match_goes_on(tmp_path, capsys, mode, options, termination, counter):
    code, report = run_match(capsys, "--player", "random", "--player", *mover(mode), "--games", 2,
                             *(options or ["--depth", 1]), "--record", tmp_path / "games.txt")
    assert code == 0, report
    assert f"Score of random vs {mode}: 2 - 0 - 0  [1.000] 2" in report
    faults = {line.split(":")[0]: line for line in report.splitlines() if ": time forfeits:" in line}
    assert counter in faults[mode] and faults["random"] == "random: time forfeits: 0, illegal moves: 0, crashes: 0"
    played = records(tmp_path / "games.txt")
    assert [r.tags["Termination"] for r in played] == [termination] * 2
    assert {r.tags["Result"] for r in played} == {"1-0", "0-1"}                   # it lost with both colours


def test_a_crashed_engine_is_restarted_for_its_next_game(tmp_path, capsys):
    marker = tmp_path / "crashed"
    code, report = run_match(capsys, "--player", *mover("crash-once", 1, "--marker", marker), "--player", "random",
                             "--games", 2, "--depth", 1, "--maxturns", 30, "--record", tmp_path / "games.txt")
    assert code == 0 and marker.exists(), report
    first, second = records(tmp_path / "games.txt")
    assert first.tags["Termination"] == "abandoned"
    assert first.tags["Reason"].startswith("White's engine crashed: its output ended (exit code 3)")
    assert second.tags["Termination"] != "abandoned"          # a new process played the whole game
    assert len(second.turns) > len(first.turns) + 10
    check_against_the_rules(second)


# --- resume ---------------------------------------------------------------------------------------

def test_resume_plays_only_the_missing_games(tmp_path, capsys):
    journal, record = tmp_path / "journal.jsonl", tmp_path / "games.txt"
    argv = ["--player", "reference", "--player", "random", "--resume", journal, "--record", record]
    code, first = run_match(capsys, *argv, "--games", 2)
    seed = int(re.search(r"seed (\d+)", first).group(1))
    assert code == 0 and "resumed" not in first
    code, second = run_match(capsys, *argv, "--games", 6)
    assert code == 0 and f"seed {seed}\n" in second                     # the journal's seed
    assert f"Games resumed from {journal}: 2\n" in second and "Games: 6 of 6 played" in second
    assert [int(r.tags["Round"]) for r in records(record)] == [1, 2, 3, 4, 5, 6]
    # Killed while writing game 6's line: that game alone is played again.
    journal.write_text(journal.read_text()[:-15])
    code, third = run_match(capsys, *argv, "--games", 6)
    assert code == 0 and f"Games resumed from {journal}: 5\n" in third
    assert [int(r.tags["Round"]) for r in records(record)] == [1, 2, 3, 4, 5, 6, 6]
    assert score_line(third) == score_line(second)                       # the same seeded games
    assert "(its rule set differs)" in refusal(capsys, *argv, "--games", 6, "--variant", "twelve")
    assert "(its player list differs)" in refusal(capsys, *argv[:2], "depth=1", *argv[2:])


# --- bad options ----------------------------------------------------------------------------------

@pytest.mark.parametrize("argv, message", [
    (["--player", "random"], "give at least two players"),
    (["--player", "randy", "--player", "random"], "unknown player 'randy'"),
    (["--player", "random", "depth=3", "--player", "random"], "random takes no field 'depth'"),
    (["--player", "random", "option.Hash=1", "--player", "random"], "random takes no engine options"),
    (["--player", "reference", "depth=0", "--player", "random"], "depth must be 1 or more"),
    (["--player", "name=x", "--player", "random"], "give cmd=COMMAND or one of"),
    (["--player", "pyrope", "--player", "random"], "give the engines a limit"),
    (["--player", "random", "--player", "random", "--rule", "PiecesCount=11"], "--rule: PiecesCount must be 9, 10 or 12"),
    (["--player", "random", "--player", "random", "--rule", "Colour=white"], "--rule: Unknown Mill rule option 'Colour'"),
    (["--player", "random", "--player", "random", "--openings", "4-2"], "--openings: expected 0 <= MIN <= MAX"),
    (["--player", "random", "--player", "random", "--player", "random", "--sprt"], "--sprt needs exactly two players"),
    (["--player", "random", "--player", "random", "--movetime", "0"], "--movetime must be more than 0"),
    (["--player", "cmd=/nonexistent/engine", "--player", "random", "--depth", "1"], "cannot start engine"),
    (["--player", *mover(), "--player", "random", "--depth", "1", "--variant", "twelve"],
     "has no option PiecesCount, which these rules need"),
    (["--player", *mover(), "option.Skill=3", "--player", "random", "--depth", "1"],
     "refused its options: error: no such option: Skill"),
])
def test_bad_options_give_one_error_and_exit_2(capsys, argv, message):
    assert message in refusal(capsys, *argv)


def test_the_mcts_player_needs_openspiel_and_nine_mens_morris(capsys, monkeypatch):
    if pyspiel is None:
        assert "the mcts player needs OpenSpiel" in refusal(capsys, "--player", "mcts", "--player", "random")
        return
    assert "plays nine men's morris only" in refusal(capsys, "--player", "mcts", "--player", "random",
                                                    "--variant", "lasker")
    monkeypatch.setitem(sys.modules, "pyspiel", None)
    assert "the mcts player needs OpenSpiel" in refusal(capsys, "--player", "mcts", "--player", "random")


# --- OpenSpiel ------------------------------------------------------------------------------------

@needs_openspiel
def test_openspiel_numbers_the_points_and_turns_as_the_mcts_player_assumes():
    """Random games on both: each position's legal turns, translated, are the core's."""
    spiel = pyspiel.load_game("nine_mens_morris")
    rng = random.Random(9)
    for _ in range(5):
        board, state = MillBoard(ThreefoldRepetitionRule=False, NMoveRule=0), spiel.new_initial_state()
        while not state.is_terminal() and not board.is_game_over():
            turns = openspiel_turns(state)
            assert sorted(turns) == sorted(board.legal_moves()), board.fen()
            turn = rng.choice(sorted(turns))
            board.push(turn)
            for action in turns[turn]:
                state.apply_action(action)


def openspiel_turns(state) -> dict:
    """Complete turns (notation) -> OpenSpiel actions, by following each removal the mover is owed."""
    turns = {}
    mover = state.current_player()
    for action in state.legal_actions():
        text = POINTS[action] if action < 24 else f"{POINTS[(action - 24) // 24]}-{POINTS[(action - 24) % 24]}"
        child = state.clone()
        child.apply_action(action)
        if not child.is_terminal() and child.current_player() == mover:
            for removal in child.legal_actions():
                turns[f"{text}x{POINTS[removal]}"] = [action, removal]
        else:
            turns[text] = [action]
    return turns


@needs_openspiel
def test_mcts_player_plays_legal_turns(tmp_path, capsys):
    code, report = run_match(capsys, "--player", "pyrope", "--player", "mcts", "simulations=200", "--games", 2,
                             "--nodes", 2000, "--record", tmp_path / "games.txt")
    assert code == 0 and "mcts: time forfeits: 0, illegal moves: 0, crashes: 0" in report, report
    for r in records(tmp_path / "games.txt"):
        check_against_the_rules(r)


def test_the_turn_limit_of_a_player_draws_the_game(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(players.RandomPlayer, "turn_limit", 12)
    code, report = run_match(capsys, "--player", "random", "--player", "random", "--games", 2, "--openings", 0,
                             "--record", tmp_path / "games.txt")
    assert code == 0 and "Draws: max turns: 2" in report, report
    assert all(len(r.turns) == 12 and r.tags["Reason"] == "Draw by the turn limit (12 turns)"
               for r in records(tmp_path / "games.txt"))


def test_ending_sentences_name_the_sides():
    board = MillBoard("OOO/.../.../@...../.../.../@.. b 0 0 0 0 40")
    assert game.natural_end(board) == Ending("1-0", "normal", "fewer than three stones",
                                             "Black has fewer than three stones", False)


# --- positions and the perfect player --------------------------------------------------------------

def database_positions(stones, count, seed):
    """Random FENs of a class of nine men's morris (either side to move), not over."""
    rng, fens = random.Random(seed), []
    while len(fens) < count:
        points = rng.sample(range(24), sum(stones))
        white, black = sum(1 << p for p in points[:stones[0]]), sum(1 << p for p in points[stones[0]:])
        fen = write((white, black, 0, 0, rng.randrange(2), 0, 0, 1))
        if not MillBoard(fen).is_game_over():
            fens.append(fen)
    return fens


def value_of(fen):
    return MillDatabase(VARIANTS["nine"], DEFAULT_DIR).probe(MillBoard(fen)._core.position())


def test_the_perfect_player_wins_fastest_keeps_draws_and_resists_longest():
    import asyncio
    perfect = game.PLAYERS["perfect"](players.parse_player_spec(["perfect", "seed=3"]))
    asyncio.run(perfect.new_game(VARIANTS["nine"], "1"))
    board = MillBoard("O.O/.O./.../@....@/.../.@./... w 0 0 0 0 1")    # d6-d7 (or b6-a7) closes a mill
    reply = asyncio.run(perfect.play(board, ""))
    assert reply.mate == 1 and value_of(board.fen()).distance == 1
    board.push(reply.turn)
    assert board.outcome() == ("1-0", "fewer than three stones")
    results = set()
    for fen in database_positions((4, 3), 40, seed=7) + database_positions((4, 4), 20, seed=7):
        board = MillBoard(fen)
        value = value_of(fen)
        reply = asyncio.run(perfect.play(board, ""))
        board.push(reply.turn)
        after = value_of(board.fen()) if not board.is_game_over() else None
        played = after.after() if after is not None else Value("win", 1)   # the turn ended the game
        assert played == value, (fen, reply.turn)          # the value kept: fastest win, draw, longest loss
        results.add(value.result)
    assert results == {"win", "draw", "loss"}


def test_games_from_positions_against_the_perfect_player_end_as_the_databases_say(tmp_path, capsys):
    fens = database_positions((3, 3), 2, seed=1) + database_positions((4, 3), 2, seed=2)
    assert {fen.split()[1] for fen in fens} == {"w", "b"}
    (tmp_path / "positions.fen").write_text("# four positions\n" + "\n\n".join(fens) + "\n")
    code, report = run_match(capsys, "--player", "pyrope", "--player", "perfect", "--positions",
                             tmp_path / "positions.fen", "--nodes", 20000, "--record", tmp_path / "games.txt")
    assert code == 0 and "Games: 8 of 8 played" in report, report       # two games a position by default
    played = records(tmp_path / "games.txt")
    assert [r.tags["FEN"] for r in played] == [MillBoard(fen).fen() for fen in fens for _ in (0, 1)]
    assert [r.tags["White"] for r in played[:2]] == ["pyrope", "perfect"]
    for r in played:
        check_against_the_rules(r)
        assert r.tags["SetUp"] == "1"
        value = value_of(r.tags["FEN"])
        mover_white = r.tags["FEN"].split()[1] == "w"
        expected = "1/2-1/2" if value.result == "draw" else \
            ("1-0" if (value.result == "win") == mover_white else "0-1")
        assert r.tags["Result"] == expected
        if value.distance is not None:
            assert len(r.turns) == value.distance
        if not mover_white:
            assert r.text().split("\n\n", 1)[1].startswith("1... ")


@pytest.mark.parametrize("content, extra, message", [
    ("O.O/.O./.../@....@/.../.@./... w 0 0 0 0 1\nnot a fen\n", [], "positions.fen, line 2: A Mill FEN has 7 fields"),
    ("# nothing\n", [], "holds no position"),
    ("O.O/.../.../@....@/.../.@./... w 0 0 0 0 1\n", [], "line 1: the game is already over"),
    ("OOO/OOO/.../@@@.../.../.../... w 0 0 0 0 1\n", [], "is not in the perfect player's databases"),
    ("O.O/.O./.../@....@/.../.@./... w 0 0 0 0 1\n", ["--openings", "2"], "give --openings or --positions"),
])
def test_bad_positions_give_one_error(tmp_path, capsys, content, extra, message):
    (tmp_path / "positions.fen").write_text(content)
    assert message in refusal(capsys, "--player", "random", "--player", "perfect", "--positions",
                              tmp_path / "positions.fen", *extra)


def test_the_perfect_player_needs_positions_and_databases_and_some_players_the_start(tmp_path, capsys):
    (tmp_path / "positions.fen").write_text("O.O/.O./.../@....@/.../.@./... w 0 0 0 0 1\n")
    assert "plays only from --positions" in refusal(capsys, "--player", "random", "--player", "perfect")
    assert "no such directory" in refusal(capsys, "--player", "random", "--player", "perfect",
                                          f"dir={tmp_path / 'none'}", "--positions", tmp_path / "positions.fen")
    assert "no database of these rules" in refusal(capsys, "--player", "random", "--player", "perfect",
                                                   f"dir={tmp_path}", "--positions", tmp_path / "positions.fen")
    assert "the reference player plays from the empty board only" in refusal(
        capsys, "--player", "reference", "--player", "random", "--positions", tmp_path / "positions.fen")


def test_the_perfect_play_bench_checks_pyrope_over_ugi(tmp_path):
    results = tmp_path / "perfect.jsonl"
    run = subprocess.run([sys.executable, str(REPOSITORY / "bench" / "mill_perfect.py"), "--variant", "nine",
                          "--classes", "3-3,4-4", "--positions", "3", "--results", str(results)],
                         capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    lines = [json.loads(line) for line in results.read_text().splitlines()]
    assert [(r["class"], r["games"], r["results agree"], r["faults"]) for r in lines] == \
        [("3-3", 6, 6, 0), ("4-4", 6, 6, 0)]
    assert all(r["exact length"] == r["decisive"] and not r["mismatches"] for r in lines)
