"""The Kriegspiel line protocol (pyrope.kriegspiel.protocol, .external; issue 16 item 6): transcripts
of Pyrope's side, the umpire's words read back to the referee's announcements, one `error` line for
every bad line with nothing changed (and random garbage never breaking it), full games over a
subprocess driven by ExternalPlayer (the match's reference driver), and programs that die, hang or
garble losing their game."""
from __future__ import annotations

import random
import sys

import chess
import pytest

from engine_command import PYROPE
from pyrope.kriegspiel import Referee
from pyrope.kriegspiel.external import ExternalPlayer
from pyrope.kriegspiel.players import RandomPlayer, SemiRandomPlayer, play_game
from pyrope.kriegspiel.protocol import KriegspielFrontEnd, parse_umpire, umpire_words

needs_command = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")


def front_end():
    lines = []
    front = KriegspielFrontEnd(lines.append)
    return front, lines


def say(front, lines, *commands):
    del lines[:]
    for command in commands:
        assert front.handle(command)
    return list(lines)


def test_the_handshake_and_a_first_try():
    front, lines = front_end()
    out = say(front, lines, "kriegspiel", "isready")
    assert out[0].startswith("id name Pyrope") and out[1].startswith("id author")
    # The default is the strongest player measured (the maximax), every player selectable.
    assert out[2].startswith("option name Player type combo default maximax")
    assert all(f"var {kind}" in out[2] for kind in ("random", "semi-random", "centre", "maximax", "mcts"))
    assert out[-2:] == ["kriegspielok", "readyok"]
    out = say(front, lines, "setoption name Player value random", "setoption name Seed value 7",
              "newgame white", "umpire tomove white", "go movetime 100 nodes 5000")
    assert len(out) == 1 and out[0].startswith("try ")
    referee = Referee()
    answer = referee.try_move(out[0].split()[1])          # a try its own men allow
    out = say(front, lines, "legal" if answer.legal else "illegal")
    assert out == ([] if answer.legal else [out[0]]) and (answer.legal or out[0].startswith("try "))


def test_umpire_words_read_back_as_the_referee_announced():
    """Every announcement of 30 random games (captures, every check kind, pawn tries, each end)."""
    seen = set()
    for seed in range(30):
        referee = Referee()
        players = {chess.WHITE: RandomPlayer(seed), chess.BLACK: RandomPlayer(seed + 100)}
        play_game(players[chess.WHITE], players[chess.BLACK], referee)
        for announcement in [referee.opening] + [turn.announcement for turn in referee.turns]:
            words = umpire_words(announcement).split()
            assert words[0] == "umpire"
            read = parse_umpire(words[1:], announcement.to_move)
            assert read == announcement, words
            seen.update(word for word in words if word in ("capture", "check", "pawntries", "end"))
    assert seen == {"capture", "check", "pawntries", "end"}


@pytest.mark.parametrize("line,answer", [
    ("bogus", "error unknown command: bogus"),
    ("go", "error go: no game"),
    ("umpire tomove white", "error umpire: no game"),
    ("legal", "error legal: no game"),
    ("newgame purple", "error newgame: expected"),
    ("newgame white fen not/a/fen", "error newgame:"),
    ("setoption name Player value grandmaster", "error setoption: Player is one of"),
    ("setoption name Hash value 16", "error setoption: no option"),
    ("setoption Player", "error setoption: expected"),
])
def test_a_bad_line_gets_one_error_line(line, answer):
    front, lines = front_end()
    out = say(front, lines, line)
    assert len(out) == 1 and out[0].startswith(answer), out


@pytest.mark.parametrize("line,answer", [
    ("go", "error go: not our turn"),
    ("go depth 3", "error go: a limit is one of wtime, btime, winc, binc, movestogo, movetime, nodes, not 'depth'"),
    ("go movetime", "error go: 'movetime' needs a value"),
    ("go movetime -5", "error go: movetime is 1 to 1099511627776, not -5"),
    ("go wtime x", "error go: wtime is a whole number, not 'x'"),
    ("go nodes 0", "error go: nodes is 1 to"),
    ("umpire tomove purple", "error umpire: tomove is white or black"),
    ("umpire capture e9 pawn tomove white", "error umpire:"),
    ("umpire capture e4 rook tomove white", "error umpire: a capture is of a pawn or a piece"),
    ("umpire check diagonal tomove white", "error umpire: a check is"),
    ("umpire pawntries 40 tomove white", "error umpire: pawntries is 0 to 16"),
    ("umpire tomove", "error umpire: 'tomove' needs a value"),
    ("umpire end 1-0 resignation", "error umpire: end is"),
    ("umpire check rank", "error umpire: an announcement has either tomove or end"),
    ("umpire capture e2 pawn tomove black", "error umpire: no man of ours"),
    ("illegal", "error illegal: no try of ours"),
])
def test_in_a_game_a_bad_line_changes_nothing(line, answer):
    """Black, White to move: each bad line is one error, and the game then goes on as before."""
    front, lines = front_end()
    say(front, lines, "newgame black", "umpire tomove white")
    out = say(front, lines, line)
    assert len(out) == 1 and out[0].startswith(answer), out
    out = say(front, lines, "umpire tomove black", "go")
    assert len(out) == 1 and out[0].startswith("try ")


def test_random_garbage_never_breaks_it():
    rng = random.Random(16)
    words = ["go", "umpire", "legal", "illegal", "newgame", "white", "black", "fen", "tomove", "capture", "e4",
             "check", "rank", "pawntries", "3", "end", "1-0", "checkmate", "setoption", "name", "value", "isready",
             "stop", "\x00", "é", "-1", "99999999999999999999"]
    front, lines = front_end()
    for _ in range(3000):
        line = " ".join(rng.choice(words) for _ in range(rng.randint(1, 6)))
        before = len(lines)
        assert front.handle(line)
        assert len(lines) - before <= 2          # an error, or a try (after illegal: none or one)
    out = say(front, lines, "newgame white", "umpire tomove white", "go")
    assert out[-1].startswith("try ")


@needs_command
@pytest.mark.parametrize("color", [chess.WHITE, chess.BLACK])
def test_full_games_over_a_subprocess(color):
    """Pyrope over the protocol against the semi-random player, three games in one process: every
    game ends by the rules, and the program is still answering."""
    program = ExternalPlayer([PYROPE], {"Player": "semi-random", "Seed": 4}, timeout=30)
    try:
        for seed in range(3):
            referee = Referee()
            players = {color: program, not color: SemiRandomPlayer(seed)}
            result = play_game(players[chess.WHITE], players[chess.BLACK], referee)
            assert result.termination in ("checkmate", "stalemate", "insufficient_material", "fifty_moves",
                                          "threefold_repetition"), result
            assert referee.outcome is not None
    finally:
        program.close()


PROGRAMS = {
    "dies": "import sys; print('kriegspielok', flush=True); sys.stdin.readline(); sys.exit()",
    "hangs": "import sys, time\nfor line in sys.stdin:\n    if line.startswith('kriegspiel'): print('kriegspielok', flush=True)\n"
             "    elif line.startswith('isready'): print('readyok', flush=True)\n    elif line.startswith('go'): time.sleep(60)",
    "garbles": "import sys\nfor line in sys.stdin:\n    if line.startswith('kriegspiel'): print('kriegspielok', flush=True)\n"
               "    elif line.startswith('isready'): print('readyok', flush=True)\n"
               "    elif line.startswith('go'): print('try e2e4 e7e5', flush=True)",
}


@pytest.mark.parametrize("kind", sorted(PROGRAMS))
def test_a_program_that_fails_loses_and_is_started_again(kind):
    program = ExternalPlayer([sys.executable, "-c", PROGRAMS[kind]], timeout=2)
    try:
        for _ in range(2):
            result = play_game(program, RandomPlayer(1), Referee())
            assert (result.result, result.termination) == ("0-1", "crash")
    finally:
        program.close()
