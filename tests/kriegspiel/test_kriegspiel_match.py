"""`pyrope kriegspiel match` (pyrope.kriegspiel.match and .command, issue 16 item 4) on the shared
runner: the report's counts add up to the games, which the PGN holds and python-chess reads as chess;
the same seed replays the same games and another seed others; --resume plays only the missing
games; faults lose; bad options give one error line and exit 2."""
from __future__ import annotations

import argparse
import io
import json
import logging
import re
import subprocess
import sys

import chess
import chess.pgn
import pytest

from engine_command import PYROPE
from pyrope.kriegspiel import command
from pyrope.kriegspiel import Referee
from pyrope.kriegspiel.pgn import PgnReader
from pyrope.kriegspiel.players import Player, RandomPlayer, play_game

KRK = "8/8/8/4k3/8/8/2R1K3/8 w - - 0 1"


def run_match(capsys, *words):
    """`pyrope kriegspiel match WORDS` in this process, through the command's own parser and run."""
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    code = command.run(parser.parse_args(["match", "--quiet", *words]))
    out, err = capsys.readouterr()
    return code, out, err


def score(out: str) -> tuple[int, int, int]:
    wins, losses, draws = map(int, re.search(r"Score of .*?: (\d+) - (\d+) - (\d+)", out).groups())
    return wins, losses, draws


def test_a_match_reports_every_game_and_writes_readable_pgn(capsys, tmp_path):
    pgn = tmp_path / "games.pgn"
    code, out, _ = run_match(capsys, "--white", "semi-random", "--black", "random", "name=rnd", "--games", "12",
                             "--seed", "3", "--pgn", str(pgn))
    assert code == 0
    wins, losses, draws = score(out)
    assert wins + losses + draws == 12
    assert "Score of semi-random vs rnd" in out and "Elo difference" in out
    draw_kinds = re.search(r"Draws: (.*)", out).group(1)
    assert draws == sum(int(n) for n in re.findall(r": (\d+)", draw_kinds)) if draws else draw_kinds == "none"
    assert re.search(r"Game length: [\d.]+ plies on average; tries per move: [\d.]+", out)
    games = list(PgnReader(pgn.read_text()))
    assert len(games) == 12
    for index, game in enumerate(games):
        assert game.headers["White"] == ("semi-random" if index % 2 == 0 else "rnd")
        logging.getLogger("chess.pgn").setLevel(logging.CRITICAL)   # it logs the unknown variant
        plain = chess.pgn.read_game(io.StringIO(game.pgn()))
        del plain.headers["Variant"]                                 # python-chess: plain chess
        board = plain.end().board()
        assert len(board.move_stack) == len(game.plies)
        if game.headers["Result"] == "1/2-1/2":
            assert board.is_stalemate() or board.is_insufficient_material() or board.is_fifty_moves() \
                or board.can_claim_threefold_repetition()
        else:
            assert board.is_checkmate()


def test_the_same_seed_replays_the_same_games_and_another_seed_others(capsys, tmp_path):
    texts = []
    for seed in (5, 5, 6):
        pgn = tmp_path / f"{len(texts)}.pgn"
        run_match(capsys, "--white", "random", "--black", "random", "--games", "4", "--seed", str(seed), "--pgn", str(pgn))
        texts.append(re.sub(r'\[Date "[^"]*"\]', "", pgn.read_text()))
    assert texts[0] == texts[1]
    assert texts[0] != texts[2]


def test_resume_plays_only_the_missing_games(capsys, tmp_path):
    journal = tmp_path / "match.jsonl"
    words = ["--white", "centre", "--black", "random", "--fen", KRK, "--seed", "2", "--resume", str(journal)]
    code, out, _ = run_match(capsys, *words, "--games", "4")
    assert code == 0 and sum(score(out)) == 4
    first = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    code, out, _ = run_match(capsys, *words, "--games", "8")
    assert code == 0 and sum(score(out)) == 8
    assert "Games resumed from" in out and ": 4" in out.split("Games resumed from")[1].splitlines()[0]
    records = [json.loads(line) for line in journal.read_text().splitlines()[1:]]
    assert records[:4] == first and sorted(r["game"] for r in records) == list(range(1, 9))
    code, _, err = run_match(capsys, "--white", "random", "--black", "random", "--fen", KRK, "--seed", "2",
                             "--resume", str(journal), "--games", "8")
    assert code == 2 and "journal" in err.lower()


def test_the_try_cap_loses(capsys):
    """With a cap of one refused try, random players soon reach it: such games are faults, lost."""
    code, out, _ = run_match(capsys, "--white", "random", "--black", "random", "--games", "6", "--seed", "1",
                             "--trycap", "1")
    assert code == 0
    assert "try cap" in re.search(r"Terminations: (.*)", out).group(1)


class Failing(RandomPlayer):
    """A player that fails on its fifth try."""

    def next_try(self):
        self.calls = getattr(self, "calls", 0) + 1
        if self.calls == 5:
            raise RuntimeError("broken")
        return super().next_try()


def test_a_failing_player_loses_its_game():
    for color in (chess.WHITE, chess.BLACK):
        players = {color: Failing(seed=1), not color: RandomPlayer(seed=2)}
        result = play_game(players[chess.WHITE], players[chess.BLACK], Referee())
        assert result.termination == "crash"
        assert result.result == ("0-1" if color == chess.WHITE else "1-0")


@pytest.mark.parametrize("words,message", [
    (["--white", "grandmaster", "--black", "random"], "unknown player"),
    (["--white", "random", "depth=3", "--black", "random"], "takes no field"),
    (["--white", "random", "seed=x", "--black", "random"], "whole number"),
    (["--white", "seed=1", "--black", "random"], "kind"),
    (["--white", "random", "--black", "random", "--fen", "not a fen"], ""),
    (["--white", "random", "--black", "random", "--fen", "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"], "over"),
    (["--white", "random", "--black", "random", "--trycap", "0"], "--trycap"),
    (["--white", "random", "--black", "random", "--games", "0"], "--games"),
    (["--white", "random", "--black", "random", "--openings", "/nonexistent"], "cannot read"),
])
def test_bad_options_give_one_line_and_exit_2(capsys, words, message):
    code, out, err = run_match(capsys, *words)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and err.startswith("pyrope kriegspiel match: ")
    assert message in err


def test_openings_file_each_twice_and_a_bad_line_named(capsys, tmp_path):
    good = tmp_path / "starts.epd"
    good.write_text(f"# two starts\n{KRK}\n8/8/8/4k3/8/8/3QK3/8 w - - bm Qd5;\n")
    code, out, _ = run_match(capsys, "--white", "random", "--black", "centre", "--openings", str(good), "--games", "4")
    assert code == 0 and sum(score(out)) == 4 and out.startswith("Starts: 2")
    bad = tmp_path / "bad.epd"
    bad.write_text(f"{KRK}\nnonsense here\n")
    code, _, err = run_match(capsys, "--white", "random", "--black", "centre", "--openings", str(bad))
    assert code == 2 and "line 2" in err


@pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")
def test_the_installed_command_plays_a_match():
    out = subprocess.run([PYROPE, "kriegspiel", "match", "--white", "semi-random", "--black", "random",
                          "--games", "2", "--seed", "9"], capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
    assert out.returncode == 0, out.stderr
    assert sum(score(out.stdout)) == 2


@pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")
def test_a_program_over_the_protocol_plays_in_a_match(capsys, tmp_path):
    pgn = tmp_path / "games.pgn"
    code, out, _ = run_match(capsys, "--white", f"cmd={PYROPE}", "name=proto", "option.Player=semi-random",
                             "--black", "random", "--games", "4", "--seed", "8", "--pgn", str(pgn), "--movetime", "0.1")
    assert code == 0, out
    assert sum(score(out)) == 4 and "proto: time forfeits: 0, illegal moves: 0, crashes: 0" in out
    assert len(list(PgnReader(pgn.read_text()))) == 4
    code, _, err = run_match(capsys, "--white", "cmd=", "--black", "random")
    assert code == 2 and "cmd= is empty" in err
