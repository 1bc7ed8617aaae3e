"""Time budgets for the Kriegspiel players (issue 64 item 1): the searches (maximax, MCTS, bare
king) stop at their deadline and, given time enough, find what the node-budget search finds; a
move's time is shared by its tries (pyrope.kriegspiel.budget); the line protocol's `go movetime`
and `go wtime ...` bound the answer and bad limits are one error line; the match keeps clocks
(--tc as `pyrope match` takes it) and a player past its time loses on time.

Timing is asserted loosely (a search given 50 ms returns within five times that): the machine is
shared. The precise overshoot is `python3 bench/kriegspiel.py deadline` (docs/kriegspiel.md)."""
from __future__ import annotations

import argparse
import asyncio
import random
import re
import time

import chess
import pytest

from pyrope._kriegspiel import BareKing, Maximax, Mcts
from pyrope.kriegspiel import Referee, command
from test_kriegspiel_match import run_match
from pyrope.kriegspiel.budget import TRY_SHARE, MoveBudget
from pyrope.kriegspiel.endgame import bare_king_start
from pyrope.kriegspiel.match import KriegspielMatchGame, PlayerSpec
from pyrope.kriegspiel.metaposition import Metaposition
from pyrope.kriegspiel.players import RandomPlayer, play_game
from pyrope.kriegspiel.protocol import KriegspielFrontEnd, go_words, parse_go
from pyrope.kriegspiel.terminal import KriegspielTerminal
from pyrope.match.clock import Clock, TimeControl
from pyrope.match.runner import GameTask
from pyrope.play.timeman import DEFAULT_MOVE_OVERHEAD_MS, Limits, plan_move

BUDGET = 0.05
BOUND = 5 * BUDGET          # loose: a loaded machine may not run us for tens of ms
MIDGAME = "r1bqkb1r/pppp1ppp/2n2n2/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R w KQkq - 4 4"


def timed(call):
    start = time.perf_counter()
    found = call()
    return found, time.perf_counter() - start


def midgame():
    meta = Metaposition(MIDGAME, chess.WHITE)
    moves = sorted(meta.core.pseudomoves(False))
    return meta, moves, [False] * len(moves)


@pytest.mark.parametrize("shallow", [False, True])
def test_the_maximax_stops_at_its_deadline(shallow):
    meta, moves, power = midgame()
    search = Maximax()
    for _ in range(3):
        (found, _), elapsed = timed(lambda: search.best(meta.core, moves, power, shallow, None, 2, BUDGET))
        assert found in moves and elapsed < BOUND
    # No time at all: every move's static value, which always finishes.
    (found, _), elapsed = timed(lambda: search.best(meta.core, moves, power, shallow, None, 2, 0.0))
    assert found in moves and search.positions >= len(moves) and elapsed < BOUND


def test_the_mcts_stops_at_its_deadline():
    meta, moves, power = midgame()
    search = Mcts()
    for _ in range(3):
        (found, _), elapsed = timed(lambda: search.best(meta.core, moves, power, None, BUDGET))
        assert found in moves and elapsed < BOUND and search.positions > len(moves)
    (found, _), elapsed = timed(lambda: search.best(meta.core, moves, power, None, 0.0))
    assert found in moves and elapsed < BOUND


def test_the_bare_king_search_stops_at_its_deadline():
    board = chess.Board(bare_king_start(random.Random(3), [chess.ROOK]))
    men = [(square, piece.piece_type) for square, piece in board.piece_map().items() if piece.color]
    search = BareKing(True, men, chess.BB_ALL & ~board.occupied_co[chess.WHITE])
    for _ in range(3):
        found, elapsed = timed(lambda: search.best(12, 2 ** 62, (), BUDGET))   # depth 12: the time ends it
        assert found[0] in search.moves() and elapsed < BOUND


def test_with_time_to_spare_a_timed_search_is_the_node_budget_search():
    """The last iteration of a timed search capped at N metapositions is the search of N."""
    meta, moves, power = midgame()
    assert Maximax().best(meta.core, moves, power, False, 600, 2, 30.0) == Maximax().best(meta.core, moves, power, False, 600)
    assert Maximax().best(meta.core, moves, power, True, 600, 2, 30.0) == Maximax().best(meta.core, moves, power, True, 600)
    assert Mcts().best(meta.core, moves, power, 600, 30.0) == Mcts().best(meta.core, moves, power, 600)


@pytest.mark.parametrize("call,message", [
    (lambda m, moves, power: Maximax().best(m.core, moves, power, False, None), "positions"),
    (lambda m, moves, power: Maximax().best(m.core, moves, power, False, 100, 2, -1.0), "seconds"),
    (lambda m, moves, power: Mcts().best(m.core, moves, power, None), "positions"),
    (lambda m, moves, power: Mcts().best(m.core, moves, power, 100, float("nan")), "seconds"),
])
def test_bad_limits_are_refused(call, message):
    meta, moves, power = midgame()
    with pytest.raises(ValueError, match=message):
        call(meta, moves, power)


def test_a_moves_tries_share_its_time():
    budget = MoveBudget(Limits(movetime=100), True)
    move_time = (100 - DEFAULT_MOVE_OVERHEAD_MS) / 1000
    first = budget.seconds()
    assert move_time * TRY_SHARE * 0.9 < first <= move_time * TRY_SHARE
    time.sleep(first)                   # the first try spends its share: the second gets half the rest
    assert budget.seconds() <= TRY_SHARE * (move_time - first) + 1e-3
    assert budget.search(5000)[0] is None                                   # time alone decides
    assert MoveBudget(Limits(movetime=100, nodes=70)).search(5000)[0] == 70
    assert MoveBudget().search(5000) == (5000, None)                        # nothing given: the player's own


def test_a_clock_gives_the_chess_time_managers_time():
    limits = Limits(wtime=60_000, btime=1_000, winc=500, binc=0)
    for white in (True, False):
        expected = plan_move(limits, white, DEFAULT_MOVE_OVERHEAD_MS).max_time / 1000
        assert abs(MoveBudget(limits, white).seconds() - TRY_SHARE * expected) < 0.01
    assert MoveBudget(Limits(wtime=0, btime=0)).seconds() < 0.002             # a flag about to fall: at once


def front_end(kind: str):
    lines = []
    front = KriegspielFrontEnd(lines.append)
    for line in ("kriegspiel", f"setoption name Player value {kind}", "newgame white", "umpire tomove white"):
        front.handle(line)
    del lines[:]
    return front, lines


@pytest.mark.parametrize("kind", ["maximax", "mcts"])
@pytest.mark.parametrize("go", ["go movetime 200", "go wtime 4000 btime 4000 winc 100 binc 100",
                                "go wtime 8000 btime 8000 movestogo 40"])
def test_a_go_with_a_time_limit_is_answered_in_time(kind, go):
    """The whole move, however many tries: each `illegal` answered at once with the next try."""
    front, lines = front_end(kind)
    limits = parse_go(go.split()[1:])
    move_time = (limits.movetime or plan_move(limits, True, DEFAULT_MOVE_OVERHEAD_MS).max_time) / 1000
    referee = Referee(MIDGAME)
    start = time.perf_counter()
    front.handle(go)
    while True:
        words = lines.pop().split()
        assert words[0] == "try" and not lines
        legal = referee.try_move(words[1]).legal
        front.handle("legal" if legal else "illegal")
        if legal:
            break
    assert time.perf_counter() - start < 5 * move_time


def test_go_limits_read_back_and_bad_ones_keep_the_game():
    for go in ("go", "go movetime 100 nodes 5000", "go wtime 0 btime 3000 winc 10 binc 20 movestogo 5"):
        assert go_words(parse_go(go.split()[1:])) == go
    front, lines = front_end("maximax")
    for line, answer in (("go movetime -5", "error go: movetime is 1 to"),
                         ("go wtime x", "error go: wtime is a whole number, not 'x'"),
                         ("go wtime 1000 binc", "error go: 'binc' needs a value"),
                         ("go movetime 99999999999999999999", "error go: movetime is 1 to")):
        front.handle(line)
        assert lines == [answer] or lines[0].startswith(answer), lines
        del lines[:]
    front.handle("go movetime 50")
    assert len(lines) == 1 and lines[0].startswith("try ")


class Slow(RandomPlayer):
    """A random player that thinks `seconds` before each try."""

    def __init__(self, seed, seconds):
        super().__init__(seed)
        self.seconds = seconds

    def next_try(self):
        time.sleep(self.seconds)
        return super().next_try()


def test_a_player_past_its_time_loses_on_time():
    for color in (chess.WHITE, chess.BLACK):
        players = {color: Slow(1, 0.03), not color: RandomPlayer(2)}
        result = play_game(players[chess.WHITE], players[chess.BLACK], Referee(),
                           clock=Clock(TimeControl(movetime=0.01)), margin=0.01)
        assert (result.result, result.termination) == ("0-1" if color == chess.WHITE else "1-0", "time")
    # On a clock: 1 s for the game at 30 ms a try runs out within a few dozen moves.
    result = play_game(Slow(1, 0.03), RandomPlayer(2), Referee(), clock=Clock(TimeControl(base=1.0)), margin=0.0)
    assert (result.result, result.termination) == ("0-1", "time")


class Spec:
    def __init__(self, player):
        self.spec, self.player = PlayerSpec("slow", "slow"), player

    def for_game(self, seed):
        return self.player


def test_the_match_counts_a_loss_on_time_as_a_time_forfeit():
    game = KriegspielMatchGame(tc=TimeControl(movetime=0.01), margin=0.01)
    ending, record = asyncio.run(game.play(GameTask(1, 0, 0, 1, chess.STARTING_FEN),
                                           Spec(Slow(1, 0.03)), Spec(RandomPlayer(2))))
    assert (ending.kind, ending.termination, ending.result, ending.fault) == ("time forfeit", "time forfeit", "0-1", True)
    assert record.headers["TimeControl"] == "0.01/move"
    # The reason says what the forfeit was: 30 ms for a try, 20 ms allowed (10 and a margin of 10).
    used = re.fullmatch(r"White loses on time: (\d+\.\d{3})s used, 0\.020s allowed, 1 try", ending.reason)
    assert used and float(used.group(1)) >= 0.03


def test_the_terminal_opponent_thinks_its_movetime():
    lines = []
    start = time.perf_counter()
    terminal = KriegspielTerminal(lines.append, chess.BLACK, "maximax", movetime=0.05)
    terminal.run(["quit"])              # the opponent, White, moves first
    assert time.perf_counter() - start < 5 * 0.05 + 1.0 and "Game abandoned." in lines
    assert any(line.startswith("Referee: ") and "Black's move" in line for line in lines)


def test_a_bad_terminal_movetime_exits_2(capsys):
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    assert command.run(parser.parse_args(["play", "--movetime", "-1"])) == 2
    assert "--movetime must be more than 0" in capsys.readouterr().err


@pytest.mark.parametrize("limit", [["--tc", "3+0.05"], ["--tc", "40/4"], ["--movetime", "0.05"]])
def test_a_match_under_a_time_control_has_no_time_losses(capsys, tmp_path, limit):
    """Four short games (a won ending, so that they end soon) of the searching players."""
    journal = tmp_path / "games.jsonl"
    words = ["--white", "maximax", "--black", "mcts", "--fen", "4k3/8/8/8/8/8/PPPP4/R3K3 w Q - 0 1",
             "--games", "4", "--seed", "2", "--resume", str(journal), *limit]
    code, out, _ = run_match(capsys, *words)
    assert code == 0, out
    wins, losses, draws = map(int, re.search(r"Score of .*?: (\d+) - (\d+) - (\d+)", out).groups())
    assert wins + losses + draws == 4
    assert "maximax: time forfeits: 0" in out and "mcts: time forfeits: 0" in out
    code, out, _ = run_match(capsys, *words)          # the journal holds the time control: all resumed
    assert code == 0 and "Games resumed" in out
    code, _, err = run_match(capsys, *words[:-2], "--tc", "9+1")
    assert code == 2 and "journal of another match (its go differs)" in err


@pytest.mark.parametrize("words,message", [
    (["--tc", "0+1"], "base time"), (["--tc", "x"], "bad time control"), (["--movetime", "-1"], "--movetime"),
    (["--tc", "10", "--movetime", "1"], "either --tc or --movetime"), (["--nodes", "0"], "--nodes"),
])
def test_bad_time_controls_give_one_line(capsys, words, message):
    code, out, err = run_match(capsys, "--white", "random", "--black", "random", *words)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1


def test_time_odds_give_each_side_its_own_limits():
    clock = Clock(TimeControl(movetime=0.05), TimeControl(movetime=0.2))
    assert (clock.limits(chess.WHITE).movetime, clock.limits(chess.BLACK).movetime) == (50, 200)
    assert (clock.allowance(chess.WHITE, 0.01), clock.allowance(chess.BLACK, 0.01)) == pytest.approx((0.06, 0.21))
    assert clock.charge(chess.BLACK, 0.15, 0.01) and not clock.charge(chess.WHITE, 0.15, 0.01)
    clock = Clock(TimeControl(base=10, increment=1), TimeControl(base=20))
    for side in (chess.WHITE, chess.BLACK):
        limits = clock.limits(side)
        assert (limits.wtime, limits.btime, limits.winc, limits.binc) == (10_000, 20_000, 1_000, 0)
    assert clock.charge(chess.WHITE, 2.0, 0.0) and clock.remaining == {chess.WHITE: 9.0, chess.BLACK: 20}
    with pytest.raises(ValueError, match="both sides on a clock or neither"):
        Clock(TimeControl(base=10), TimeControl(movetime=1))


@pytest.mark.parametrize("odds", [chess.WHITE, chess.BLACK])
def test_a_player_with_its_own_time_moves_under_it(odds):
    # Both take 30 ms a try; the match gives 10 ms a move, the side with odds its own second: the
    # other side loses on time at its first move, and the record tells each side's control.
    specs = {side: Spec(Slow(1, 0.03)) for side in (chess.WHITE, chess.BLACK)}
    specs[odds].spec = PlayerSpec("slow", "slow", time=TimeControl(movetime=1))
    game = KriegspielMatchGame(tc=TimeControl(movetime=0.01), margin=0.01)
    ending, record = asyncio.run(game.play(GameTask(1, 0, 0, 1, chess.STARTING_FEN), specs[chess.WHITE], specs[chess.BLACK]))
    assert (ending.kind, ending.result) == ("time forfeit", "1-0" if odds == chess.WHITE else "0-1")
    tag = "WhiteTimeControl" if odds == chess.WHITE else "BlackTimeControl"
    assert record.headers[tag] == "1/move" and record.headers["TimeControl"] == "0.01/move"
    assert ("BlackTimeControl" if odds == chess.WHITE else "WhiteTimeControl") not in record.headers


@pytest.mark.parametrize("words,message", [
    (["--white", "random", "movetime=-1", "--black", "random"], "movetime must be more than 0"),
    (["--white", "random", "tc=x", "--black", "random"], "bad time control"),
    (["--white", "random", "tc=10", "movetime=1", "--black", "random"], "one tc= or movetime="),
    (["--white", "random", "tc=10", "--black", "random"], "both sides on a clock or neither"),
])
def test_bad_time_odds_give_one_line(capsys, words, message):
    code, out, err = run_match(capsys, *words)
    assert code == 2 and out == "" and message in err and len(err.strip().splitlines()) == 1
