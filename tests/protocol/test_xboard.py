"""The xboard / CECP 2 front-end: python-chess's XBoardProtocol plays and analyses through it, raw
transcripts check each command's reply and the state it leaves, and a fuzz run of malformed lines
must neither crash nor hang it."""
from __future__ import annotations

import queue
import random
import re
import subprocess
import threading

import chess
import chess.engine
import pytest

from engine_command import PYROPE
from pyrope import Board
from pyrope.play.result import Score
from pyrope.play.session import Session
from pyrope.play.timeman import Limits
from pyrope.protocol.xboard import XboardFrontEnd, castling_moves, parse_level, xboard_move, xboard_score

ENGINE = [PYROPE]      # a first line of `xboard` selects this front-end
needs_pyrope = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# Chess960: White's only mate is castling king-side (king stays on g1, the rook lands on f1).
CASTLING_MATE = "4rkr1/4p1p1/8/8/8/8/8/6KR w H - 0 1"

# A thinking line: ply score time(cs) nodes pv.
THINKING = r"\d+ -?\d+ \d+ \d+ .*"

# Every line the engine may print, by the forms of the CECP spec.
REPLY_FORMS = re.compile("|".join([
    r"feature .+", r"pong \S+", r"move \S+", r"Error \([^()]+\): .*", r"Illegal move( \([^()]+\))?: .*",
    "-?" + THINKING, r"stat01: \d+ \d+ \d+ \d+ \d+( \S+)?", r"(1-0|0-1|1/2-1/2) \{[^{}]+\}",
    r"Hint: \S+", r"offer draw", r"# .*", r" .*", r""]))


class Conversation:
    """The front-end in this process: send lines, wait for its replies."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.moves_seen = 0
        self.changed = threading.Condition()
        self.front_end = XboardFrontEnd(Session(), self._write)
        # These tests drive searches (move now, pondering, analysis); a book move would answer at
        # once instead. The book's own CECP behaviour is tested in test_book_play.py.
        self.front_end.session.manager.book.enabled = False
        self.started: list[Limits] = []
        self.ponderhits = 0
        manager = self.front_end.session.manager
        start, ponderhit = manager.start, manager.ponderhit

        def recording_start(board, limits, on_info, on_done):
            with self.changed:
                self.started.append(limits)
                self.changed.notify_all()
            start(board, limits, on_info, on_done)

        def recording_ponderhit():
            self.ponderhits += 1
            ponderhit()

        manager.start, manager.ponderhit = recording_start, recording_ponderhit

    def _write(self, text: str) -> None:
        with self.changed:
            self.lines.append(text)
            self.changed.notify_all()

    def send(self, *lines: str) -> list[str]:
        """Send lines; return what was written while they were handled."""
        mark = len(self.lines)
        for line in lines:
            assert self.front_end.handle(line)
        return self.lines[mark:]

    def find(self, pattern: str, start: int = 0, timeout: float = 20) -> int:
        """The index of the first line from `start` on that matches `pattern` (waiting for it)."""
        def found():
            return next((i for i in range(start, len(self.lines)) if re.fullmatch(pattern, self.lines[i])), None)
        with self.changed:
            assert self.changed.wait_for(lambda: found() is not None, timeout), \
                f"no {pattern!r} in {self.lines[start:]}"
            return found()

    def wait_for(self, pattern: str, start: int = 0, timeout: float = 20) -> str:
        return self.lines[self.find(pattern, start, timeout)]

    def wait_until(self, condition, timeout: float = 20) -> None:
        with self.changed:
            assert self.changed.wait_for(condition, timeout)

    def hint(self) -> str:
        """The move `hint` names; thinking lines of a ponder search may come before its reply."""
        return next(line.split()[1] for line in self.send("hint") if line.startswith("Hint: "))

    def engine_move(self) -> str:
        """Wait for the engine's next move (after those already returned) and return it."""
        index = self.find(r"move \S+", self.moves_seen)
        self.moves_seen = index + 1
        return self.lines[index].split()[1]

    @property
    def board(self) -> Board:
        return self.front_end.session.board


@pytest.fixture
def talk():
    conversation = Conversation()
    yield conversation
    assert not conversation.front_end.handle("quit")


# -- features and options ---------------------------------------------------------------------

def test_protover_lists_features_between_done_0_and_done_1(talk):
    lines = talk.send("xboard", "protover 2")
    assert lines[0] == "feature done=0" and lines[-1] == "feature done=1"
    features = " ".join(line.removeprefix("feature ") for line in lines)
    for feature in ("ping=1", "setboard=1", "usermove=1", "san=0", "time=1", "draw=1", "sigint=0",
                    "sigterm=0", "reuse=1", "analyze=1", "colors=0", 'variants="normal,fischerandom"',
                    "memory=1", "smp=1", 'myname="Pyrope '):
        assert feature in features
    for option in ('option="MultiPV -spin 1 1 64"', 'option="MoveOverhead -spin 30 0 5000"',
                   'option="ClearHash -button"', 'option="LimitStrength -check 0"'):
        assert option in features
    assert talk.send("accepted ping", "rejected san") == []


def test_options_reach_the_search_manager(talk, tmp_path):
    manager = talk.front_end.session.manager
    replies = talk.send("option MultiPV=3", "option Move Overhead=120", "option ClearHash", "memory 8", "cores 2",
                        "option LimitStrength=1", "option Elo=1500")
    assert replies == []
    assert (manager.multipv, manager.move_overhead) == (3, 120)
    assert (manager.limit_strength, manager.elo) == (True, 1500)
    assert talk.send("option UCI_LimitStrength=0", "option UCI_Elo=1700") == []     # the UCI spellings
    assert (manager.limit_strength, manager.elo) == (False, 1700)
    assert talk.send("option LimitStrength=2") == ["Error (LimitStrength must be between 0 and 1, not 2): "
                                                   "option LimitStrength=2"]
    bad = tmp_path / "weights.txt"
    bad.write_text("pawn_value_mg = lots\n")
    errors = talk.send("option MultiPV=65", "option MultiPV", "option Hash=64", "cores 0", "memory x",
                       f"option EvalFile={bad}")
    assert errors[:5] == ["Error (MultiPV must be between 1 and 64, not 65): option MultiPV=65",
                          "Error (MultiPV needs a value): option MultiPV",
                          "Error (unknown option): option Hash=64",
                          "Error (cores must be between 1 and 256, not 0): cores 0",
                          "Error (memory must be a whole number, not 'x'): memory x"]
    assert re.fullmatch(r"Error \([^()]*weights.txt[^()]*pawn_value_mg[^()]*\): option EvalFile=.*", errors[5])
    assert manager.multipv == 3


# -- python-chess drives the engine -----------------------------------------------------------

def play_game(engine: chess.engine.SimpleEngine, board: chess.Board, limit: chess.engine.Limit,
              plies: int, ponder: bool = False) -> None:
    """Let the engine play both sides until python-chess sees a finished (or claimable) game:
    every move must come and be legal -- the engine claims a result only where the game is over."""
    while not board.is_game_over(claim_draw=True) and board.ply() < plies:
        result = engine.play(board, limit, ponder=ponder)
        assert result.move in board.legal_moves, (board.fen(), result.move)
        board.push(result.move)


@needs_pyrope
def test_python_chess_plays_with_time_per_move_clocks_and_pondering():
    with chess.engine.SimpleEngine.popen_xboard(ENGINE) as engine:
        assert engine.id["name"].startswith("Pyrope")
        engine.configure({"MoveOverhead": 10, "memory": 32, "cores": 2})   # MultiPV: python-chess manages it
        play_game(engine, chess.Board(), chess.engine.Limit(time=0.05), 16)
        play_game(engine, chess.Board(), chess.engine.Limit(white_clock=1.5, black_clock=1.5, white_inc=0.02,
                                                            black_inc=0.02), 12)
        engine.configure({"cores": 1})
        play_game(engine, chess.Board(KIWIPETE), chess.engine.Limit(time=0.05), 8, ponder=True)
        result = engine.play(chess.Board(), chess.engine.Limit(depth=3))
        assert result.move in chess.Board().legal_moves


@needs_pyrope
def test_python_chess_plays_fischer_random_and_a_node_limit():
    board = chess.Board.from_chess960_pos(959 - 518)
    with chess.engine.SimpleEngine.popen_xboard(ENGINE) as engine:
        play_game(engine, board, chess.engine.Limit(time=0.05), 12)
        result = engine.play(chess.Board(CASTLING_MATE, chess960=True), chess.engine.Limit(depth=3))
        assert chess.Board(CASTLING_MATE, chess960=True).is_castling(result.move)
    with chess.engine.SimpleEngine.popen_xboard(ENGINE) as engine:
        result = engine.play(chess.Board(), chess.engine.Limit(nodes=3000), info=chess.engine.INFO_ALL)
        assert result.move in chess.Board().legal_moves
        assert result.info["nodes"] <= 3000 + 2048      # the search checks its limit every 2048 nodes


@needs_pyrope
def test_python_chess_analyses_in_analyze_mode():
    board = chess.Board(KIWIPETE)
    with chess.engine.SimpleEngine.popen_xboard(ENGINE) as engine:
        info = engine.analyse(board, chess.engine.Limit(depth=6))
        assert info["depth"] >= 6
        # python-chess stops reading the PV at the first move that is not legal there.
        assert len(info["pv"]) >= 2 and info["pv"][0] in board.legal_moves
        assert "score" in info
        # Still a working player afterwards.
        assert engine.play(board, chess.engine.Limit(depth=2)).move in board.legal_moves


# -- transcripts ------------------------------------------------------------------------------

def test_ping_answers_at_once_when_pondering_or_analysing_and_after_the_move_when_thinking(talk):
    talk.send("new", "hard", "st 0.3", "usermove e2e4", "ping 1")
    move = talk.wait_for(r"move \S+")
    assert talk.lines.index("pong 1") > talk.lines.index(move)      # CECP: no pong before the move owed
    talk.wait_until(lambda: any(limits.ponder for limits in talk.started))
    assert talk.send("ping 2") == ["pong 2"]
    talk.send("force", "analyze")
    assert talk.send("ping 3") == ["pong 3"]
    talk.send("exit")


def test_ponder_hit_continues_the_search_and_a_miss_starts_a_new_one(talk):
    board = chess.Board()
    talk.send("new", "hard", "post", "st 0.2", "usermove e2e4")
    board.push_uci("e2e4")
    board.push_uci(talk.engine_move())
    expected = talk.hint()
    talk.wait_until(lambda: talk.started[-1].ponder)
    talk.send(f"usermove {expected}")
    board.push_uci(expected)
    reply = talk.engine_move()
    assert talk.ponderhits == 1 and chess.Move.from_uci(reply) in board.legal_moves
    board.push_uci(reply)
    talk.wait_until(lambda: len(talk.started) == 3 and talk.started[-1].ponder)
    expected = talk.hint()
    other = next(move.uci() for move in board.legal_moves if move.uci() != expected)
    talk.send(f"usermove {other}")
    board.push_uci(other)
    assert chess.Move.from_uci(talk.engine_move()) in board.legal_moves
    assert talk.ponderhits == 1 and not talk.started[3].ponder


def test_move_now_moves_and_force_stops_without_a_move(talk):
    talk.send("new", "force", "post", "st 1000", "go")      # 1000 s: only `?` can make it move in time
    talk.wait_for(THINKING)
    talk.send("?")
    assert chess.Move.from_uci(talk.engine_move()) in chess.Board().legal_moves
    talk.send("usermove e7e5")
    talk.wait_for(THINKING, talk.moves_seen)
    mark = len(talk.lines)
    talk.send("force", "ping 5")
    assert not any(line.startswith("move") for line in talk.lines[mark:])
    assert talk.board.move_stack[1:] == ["e7e5"] and len(talk.board.move_stack) == 2


def test_level_st_sd_and_nps_become_search_limits(talk):
    talk.send("new", "force", "level 40 0:30 0", "time 2500", "otim 2000", "sd 2", "go")
    talk.engine_move()
    first = talk.started[-1]
    assert (first.wtime, first.btime, first.winc, first.movestogo, first.depth) == (25000, 20000, 0, 40, 2)
    talk.send("time 2400", "otim 1900", "usermove a7a6")
    talk.engine_move()
    assert (talk.started[-1].wtime, talk.started[-1].movestogo) == (24000, 39)
    talk.send("force", "level 0 2 12", "go")
    talk.engine_move()
    limits = talk.started[-1]
    assert (limits.wtime, limits.btime, limits.winc, limits.binc, limits.movestogo) == \
        (120000, 120000, 12000, 12000, 0)
    talk.send("force", "st 0.25", "go")
    talk.engine_move()
    assert (talk.started[-1].movetime, talk.started[-1].wtime, talk.started[-1].depth) == (250, None, 2)
    talk.send("force", "nps 1000", "st 3", "go")
    talk.engine_move()
    assert (talk.started[-1].nodes, talk.started[-1].movetime) == (3000, 0)
    talk.send("new", "force", "st 0.05", "go")
    talk.engine_move()
    assert (talk.started[-1].depth, talk.started[-1].nodes, talk.started[-1].movetime) == (0, 0, 50)


@pytest.mark.parametrize("text, expected", [
    (["40", "5", "0"], (40, 300_000, 0)),
    (["40", "0:30", "0"], (40, 30_000, 0)),
    (["0", "2", "12"], (0, 120_000, 12_000)),
    (["0", "0:02", "0.05"], (0, 2_000, 50)),
    (["40", "25+5", "0"], (40, 1_500_000, 0)),      # what follows the time is ignored (spec)
    (["0", "1.5", "0.5"], (0, 90_000, 500)),
])
def test_level_arguments(text, expected):
    assert parse_level(text) == expected


@pytest.mark.parametrize("bad, reply", [
    ("usermove e2e5", "Illegal move: e2e5"),
    ("e2e4", "Illegal move: e2e4"),
    ("O-O", "Illegal move (no castling): O-O"),
    ("usermove", "Error (needs one move): usermove"),
    ("usermove e7e5 g1f3", "Error (too many parameters): usermove e7e5 g1f3"),
    ("variant crazyhouse", "Error (unsupported variant): variant crazyhouse"),
    ("level 40 5", "Error (level needs MPS BASE INC): level 40 5"),
    ("level 40 5 0 1", "Error (too many parameters): level 40 5 0 1"),
    ("level x 5 0", "Error (moves per session must be a whole number, not 'x'): level x 5 0"),
    ("level 40 :30 0", "Error (base time must be minutes or minutes:seconds, not ':30'): level 40 :30 0"),
    ("st 0", "Error (time per move must be more than 0 seconds): st 0"),
    ("st soon", "Error (time per move must be a number of seconds, not 'soon'): st soon"),
    ("sd 0", "Error (depth must be between 1 and 1000, not 0): sd 0"),
    ("time", "Error (needs one clock): time"),
    ("otim 1.5", "Error (clock in centiseconds must be a whole number, not '1.5'): otim 1.5"),
    ("nps -5", "Error (node rate must be between 0 and 1000000000, not -5): nps -5"),
    ("setboard 8/8/8/8/8/8/8/8 w - - 0 1", "Error (white has 0 kings, expected exactly one): "
                                           "setboard 8/8/8/8/8/8/8/8 w - - 0 1"),
    ("setboard", "Error (needs a FEN): setboard"),
    ("result", "Error (needs a result): result"),
    ("protover two", "Error (protocol version must be a whole number, not 'two'): protover two"),
    ("flurb 1 2", "Error (unknown command): flurb 1 2"),
])
def test_bad_input_gets_one_cecp_reply_and_keeps_the_game(talk, bad, reply):
    talk.send("new", "force", "usermove e2e4")
    before = talk.board.fen()
    assert talk.send(bad) == [reply]
    assert talk.board.fen() == before
    talk.send("usermove e7e5")
    assert talk.board.move_stack == ["e2e4", "e7e5"]


def test_undo_and_remove_take_moves_back(talk):
    talk.send("new", "force", "e2e4", "e7e5", "g1f3", "b8c6", "undo")
    assert talk.board.move_stack == ["e2e4", "e7e5", "g1f3"]
    talk.send("remove")
    assert talk.board.move_stack == ["e2e4"]
    assert talk.send("remove") == ["Error (command not legal now): remove"]
    assert talk.board.move_stack == ["e2e4"]


def test_setboard_and_fischer_random_castling_both_ways(talk):
    fen = "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1"
    talk.send("new", "variant fischerandom", "force", f"setboard {fen}", "usermove O-O-O", "usermove O-O")
    reference = chess.Board(fen, chess960=True)
    reference.push_san("O-O-O")
    reference.push_san("O-O")
    assert talk.board.fen().split()[:3] == reference.fen().split()[:3]
    assert talk.send("setboard not a fen") and talk.board.fen().split()[:3] == reference.fen().split()[:3]


def test_castling_is_written_e1g1_in_chess_and_o_o_in_fischer_random():
    chess_board = Board("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1")
    assert castling_moves(chess_board) == {"O-O": "e1h1", "O-O-O": "e1a1"}
    assert {xboard_move(chess_board, move) for move in ("e1g1", "e1c1")} == {"e1g1", "e1c1"}
    frc = Board(CASTLING_MATE, chess960=True)
    assert xboard_move(frc, "g1h1") == "O-O" and xboard_move(frc, "g1f1") == "g1f1"


def test_mate_scores_follow_the_spec():
    assert [xboard_score(score) for score in (Score(mate=3), Score(mate=-2), Score(cp=-37))] == [100003, -100002, -37]


def test_engine_claims_its_own_mate_and_writes_o_o(talk):
    talk.send("new", "variant fischerandom", "force", f"setboard {CASTLING_MATE}", "post", "sd 3", "go")
    talk.wait_for(r"1-0 \{White mates\}")
    assert "move O-O" in talk.lines
    assert any(re.fullmatch(r"\d+ 100001 \d+ \d+ O-O", line) for line in talk.lines)


@pytest.mark.parametrize("fen, moves, claim", [
    ("6k1/1p3ppp/8/8/8/8/5PPP/R5K1 b - - 0 1", ["b7b6", "a1a8"], r"1-0 \{White mates\}"),
    ("7k/8/7K/5Q2/8/8/8/8 w - - 0 1", ["f5f7"], r"1/2-1/2 \{Stalemate\}"),
    (chess.STARTING_FEN, ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"],
     r"1/2-1/2 \{Draw by repetition\}"),
    ("4k3/8/8/8/8/8/8/R3K3 w - - 99 80", ["a1a2"], r"1/2-1/2 \{50 move rule\}"),
    ("4k3/8/8/8/8/8/3n4/4K3 w - - 0 1", ["e1d2"], r"1/2-1/2 \{Insufficient material\}"),
])
def test_opponent_move_that_ends_the_game_is_claimed(talk, fen, moves, claim):
    """In force mode nothing is claimed; the engine plays the side not on move (playother) and
    claims the end of the game after the opponent's last move instead of thinking."""
    talk.send("new", "force", f"setboard {fen}", *[f"usermove {move}" for move in moves[:-1]], "playother")
    lines = talk.send(f"usermove {moves[-1]}")
    assert len(lines) == 1 and re.fullmatch(claim, lines[0])
    assert talk.send("go") == lines      # a finished game is claimed again, not searched


def test_draw_offers_are_accepted_only_when_clearly_worse(talk):
    talk.send("new", "force", "sd 3", "go")
    talk.engine_move()
    assert talk.send("draw") == []
    talk.send("new", "force", "setboard 3qk3/8/8/8/8/8/8/4K3 w - - 0 1", "sd 3", "go")
    talk.engine_move()
    assert talk.send("draw") == ["offer draw"]


def test_hint_bk_and_stat01(talk):
    talk.send("new", "sd 4", "usermove d2d4")
    reply = talk.engine_move()
    hint = talk.send("hint")
    board = chess.Board()
    board.push_uci("d2d4")
    board.push_uci(reply)
    assert len(hint) == 1 and chess.Move.from_uci(hint[0].removeprefix("Hint: ")) in board.legal_moves
    book = talk.send("bk")
    assert book[-1] == "" and all(re.fullmatch(r" +\d+\.\d% +\d+ [a-h][1-8][a-h][1-8]| not in the book", line)
                                  for line in book[:-1])
    talk.send("option OwnBook=0", "option BookFile=")
    assert talk.send("bk") == [" no opening book", ""]
    talk.send("force", "post", "analyze")
    talk.wait_for(THINKING)
    # Thinking lines may come from the search while `.` is handled.
    status = [line for line in talk.send(".") if not re.fullmatch(THINKING, line)]
    total = board.legal_moves.count()
    assert len(status) == 1 and re.fullmatch(rf"stat01: \d+ \d+ \d+ \d+ {total}( \S+)?", status[0])
    mark = len(talk.lines)
    talk.send(next(iter(board.legal_moves)).uci())       # analysis follows the position
    talk.wait_for(r"\d+ -?\d+ \d+ \d+ [a-h][1-8].*", mark)
    talk.send("exit")
    assert talk.send(".") == []


# -- fuzz -------------------------------------------------------------------------------------

COMMANDS = ["xboard", "protover", "accepted", "rejected", "new", "variant", "force", "go", "playother", "level",
            "st", "sd", "nps", "time", "otim", "usermove", "?", "ping", "draw", "result", "setboard", "hint", "bk",
            "undo", "remove", "hard", "easy", "post", "nopost", "analyze", "exit", ".", "name", "rating",
            "computer", "memory", "cores", "option"]
WORDS = ["", "0", "1", "2", "-1", "40", "0:30", "1:", ":", "5+3", "0.01", "-0.5", "1e9", "nan", "inf",
         "99999999999999999999",
         "e2e4", "e7e5", "g1f3", "a7a8q", "e1g1", "O-O", "O-O-O", "@@@@", "normal", "fischerandom", "suicide",
         "MultiPV=2", "MultiPV=0", "MoveOverhead=abc", "ClearHash", "EvalFile=/nonexistent", "=", "1-0",
         "{White mates}", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR", "w", "KQkq", "-", "8/8/8", "ü", "(x)",
         "\t"]
# Moves that are often legal: every first move of either side.
AFTER_E4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
MOVES = sorted({move.uci() for fen in (chess.STARTING_FEN, AFTER_E4) for move in chess.Board(fen).legal_moves})
FENS = [chess.STARTING_FEN, KIWIPETE, "7k/8/6QK/8/8/8/8/8 b - - 0 1", "8/8/8/8/8/8/8/8 w - - 0 1",
        "bqnb1rkr/pp3ppp/3ppn2/2p5/5P2/P2P4/NPP1P1PP/BQ1BNRKR w HFhf - 2 9"]


FUZZ_CHARACTERS = "abcdefgh12345678 =:-+?.@OQKRNBqrnbx\t()/{}é"


def fuzz_line(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.15:
        return "".join(rng.choice(FUZZ_CHARACTERS) for _ in range(rng.randrange(1, 20)))
    if kind < 0.2:
        return f"setboard {rng.choice(FENS)}"
    if kind < 0.4:
        return rng.choice(["", "usermove "]) + rng.choice(MOVES)
    command = rng.choice(COMMANDS + ["flurb", "e2e4", "e7e5", "d2d4", "O-O"])
    if command in ("memory", "cores"):       # real values stay small: the machine is shared
        return f"{command} {rng.choice(['1', '2', '0', '-3', 'x', '99999999999999999999', ''])}"
    return " ".join([command] + [rng.choice(WORDS) for _ in range(rng.choice([0, 1, 1, 2, 3]))])


class Process:
    """The engine as a subprocess, read by a thread so that a hang is a timeout, not a stuck test."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(ENGINE, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                        encoding="utf-8", bufsize=1)
        self.output: queue.Queue[str] = queue.Queue()
        self.lines: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.output.put(line.rstrip("\n"))

    def send(self, *lines: str) -> None:
        self.process.stdin.write("".join(line + "\n" for line in lines))
        self.process.stdin.flush()

    def expect(self, pattern: str, timeout: float = 20) -> str:
        while True:
            line = self.output.get(timeout=timeout)      # queue.Empty: the engine hangs
            self.lines.append(line)
            if re.fullmatch(pattern, line):
                return line


@needs_pyrope
def test_fuzz_never_crashes_or_hangs_and_a_legal_game_follows():
    rng = random.Random(20240611)
    fuzz = [fuzz_line(rng) for _ in range(3000)]
    engine = Process()
    try:
        engine.send("xboard", "protover 2", "st 0.01", *fuzz, "exit", "force", "new", "ping 424242")
        engine.expect("pong 424242")
        assert all(REPLY_FORMS.fullmatch(line) for line in engine.lines), \
            [line for line in engine.lines if not REPLY_FORMS.fullmatch(line)][:5]
        unknown = [line for line in fuzz if line.split() and line.split()[0] not in COMMANDS
                   and not re.fullmatch(r"[a-h][1-8][a-h][1-8][nbrqNBRQ]?|O-O(-O)?|0-0(-0)?", line.strip())]
        assert sum(line.startswith("Error (unknown command)") for line in engine.lines) == len(unknown)

        board = chess.Board()
        engine.send("easy", "st 0.02", "go")
        while not board.is_game_over(claim_draw=True) and board.ply() < 30:
            if board.ply() % 2 == 0:
                move = chess.Move.from_uci(engine.expect(r"move \S+").split()[1])
                assert move in board.legal_moves
            else:
                move = rng.choice(list(board.legal_moves))
                engine.send(f"usermove {move.uci()}")
            board.push(move)
        engine.send("quit")
        assert engine.process.wait(timeout=20) == 0
    finally:
        engine.process.kill()
