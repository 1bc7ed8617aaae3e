"""`pyrope kriegspiel play` (pyrope.kriegspiel.terminal, issue 16 item 5): your men only, the
referee's words, history as your filtered PGN, resign, help, bad tries named; the full board and
PGN at the end; the installed command plays from stdin."""
from __future__ import annotations

import argparse
import subprocess

import chess
import pytest

from engine_command import PYROPE
from pyrope.kriegspiel import command
from pyrope.kriegspiel.pgn import read_game
from pyrope.kriegspiel.roster import DEFAULT_PLAYER
from pyrope.kriegspiel.terminal import KriegspielTerminal

MATE_IN_ONE = "k7/8/1K6/8/8/8/8/7R w - - 0 1"


def play(lines, color=chess.WHITE, opponent="random", fen=None, seed=0):
    out = []
    KriegspielTerminal(out.append, color, opponent, fen, seed).run(lines)
    return "\n".join(out)


def test_a_mate_ends_the_game_with_the_full_board_and_pgn():
    text = play(["h1h8"], fen=MATE_IN_ONE)
    assert "White mates (1-0)" in text
    board_part = text.split("The full board:")[1]
    assert "k . . . . . . R" in board_part          # a8 king, h8 rook: the enemy shown at last
    pgn = board_part[board_part.index("[Event"):]
    game = read_game(pgn)
    assert game.headers["Result"] == "1-0" and game.plies[-1].move == "h1h8"


def test_only_your_men_are_shown_and_history_is_your_filtered_game():
    text = play(["board", "e2e4", "history", "quit"], seed=3)
    rows = [line[2:] for line in text.split("Referee:")[0].splitlines() if line[:1].isdigit()]
    assert len(rows) == 8 and not any(letter in "".join(rows) for letter in "pnbrqk")
    assert rows[6] == "P P P P P P P P"
    history = text[text.index("[Event"):text.index("Game abandoned")]
    game = read_game(history)
    assert game.headers["Narrator"] == "White"
    assert game.plies[0].move == "e2e4" and game.plies[1].move is None      # Black's move: ??


def test_as_black_the_opponent_moves_first_and_its_refused_tries_stay_private():
    text = play(["quit"], color=chess.BLACK, seed=5)
    lines = text.splitlines()
    referee_lines = [line for line in lines if line.startswith("Referee:")]
    assert referee_lines[0] == "Referee: White's move" and referee_lines[1].startswith("Referee: Black's move")
    assert "Illegal move" not in text and "Game abandoned" in text


@pytest.mark.parametrize("line,words", [("zz", "Not a try"), ("px", "Not a try"), ("e2e5", "Illegal move")])
def test_a_bad_try_is_named_and_the_game_goes_on(line, words):
    text = play([line, "e2e4", "quit"])
    assert words in text and "Referee: Black's move" in text


def test_resign_and_help():
    text = play(["help", "resign"])
    assert "Type a try" in text and "You resign (0-1)." in text
    assert '[Result "0-1"]' in text


@pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")
def test_the_installed_command_plays_from_stdin():
    out = subprocess.run([PYROPE, "kriegspiel", "play", "--fen", MATE_IN_ONE], input="h1h8\n",
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and "White mates (1-0)" in out.stdout
    bad = subprocess.run([PYROPE, "kriegspiel", "play", "--fen", "nonsense"], input="", capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and bad.stderr.startswith("pyrope kriegspiel play: ")


def test_the_terminal_defaults_to_the_strongest_player_as_the_protocol_does():
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    assert parser.parse_args(["play"]).opponent == DEFAULT_PLAYER == "maximax"
