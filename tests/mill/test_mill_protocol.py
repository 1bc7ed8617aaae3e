"""Mill's front-ends (`pyrope --game mill`): UGI (one complete turn per bestmove), Sanmill's UCI
dialect (a turn's tokens one bestmove each) and the terminal, as transcripts in-process and
over the installed command; whole games against a seeded random mover to their end, clocks,
`stop`, options changed mid-game, bad input, and a fuzz of random lines."""
from __future__ import annotations

import random
import string
import subprocess
import time

import pytest

from engine_process import PYROPE, EngineProcess
from pyrope.mill import MillBoard
from pyrope.mill.notation import split
from pyrope.mill.session import MillSession
from pyrope.mill.uci import MillUciFrontEnd, MillUgiFrontEnd

needs_command = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")
RESULTS = {"1-0": "p1win", "0-1": "p2win", "1/2-1/2": "draw", "*": "none"}
OPENING = "d6 d2 b6 f2"          # white's next turn f6 closes the mill b6-d6-f6


class InProcess:
    """A Mill front-end with its output collected; `go` lines wait for their bestmove."""

    def __init__(self, front_end: type) -> None:
        self.lines: list[str] = []
        self.front = front_end(MillSession(), self.lines.append)

    def send(self, *lines: str) -> list[str]:
        start = len(self.lines)
        for line in lines:
            answered = self.bestmoves()
            self.front.handle(line)
            if line.startswith("go perft"):
                continue
            if line.split()[:1] == ["go"] and "infinite" not in line:
                deadline = time.monotonic() + 20
                while self.bestmoves() == answered:
                    assert time.monotonic() < deadline, self.lines[-5:]
                    time.sleep(0.002)
        return self.lines[start:]

    def bestmoves(self) -> int:
        return sum(line.startswith("bestmove ") for line in self.lines)

    def describe(self) -> list[str]:
        """The lines of `d`."""
        return "\n".join(self.send("d")).splitlines()

    def fen(self) -> str:
        return next(line for line in self.describe() if line.startswith("Fen: "))[5:]


def bestmove(lines: list[str]) -> str:
    return next(line.split()[1] for line in lines if line.startswith("bestmove "))


def errors(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("info string error: ")]


def assert_refused(engine: InProcess, bad: dict[str, str]) -> None:
    """Each line is answered by one error naming its fault (the text given), and the position stays."""
    before = engine.fen()
    for line, fault in bad.items():
        out = engine.send(line)
        assert len(out) == 1 and errors(out) == out and fault in out[0], (line, out)
        assert engine.fen() == before


# --- UGI ------------------------------------------------------------------------------------

def test_ugi_greeting_lists_sanmills_rule_options_and_the_engine_options():
    engine = InProcess(MillUgiFrontEnd)
    lines = engine.send("ugi")
    assert lines[0].startswith("id name Pyrope") and lines[-1] == "ugiok"
    options = set(lines)
    for name in ("PiecesCount", "FlyPieceCount", "BoardFullAction", "StalemateAction", "NMoveRule",
                 "EndgameNMoveRule", "Hash", "Move Overhead", "MoveTime"):
        assert any(line.startswith(f"option name {name} type spin") for line in options), name
    for name in ("HasDiagonalLines", "MayFly", "MayRemoveFromMillsAlways", "MayRemoveMultiple",
                 "MayMoveInPlacingPhase", "ThreefoldRepetitionRule"):
        assert any(line.startswith(f"option name {name} type check") for line in options), name
    assert "option name Variant type combo default nine var nine var twelve var lasker var morabaraba" in options
    assert "option name Algorithm type combo default pvs var pvs var mtdf" in options
    assert "option name Clear Hash type button" in options
    uci = InProcess(MillUciFrontEnd).send("uci")
    assert uci[:-1] == lines[:-1] and uci[-1] == "uciok"


def test_ugi_answers_complete_turns_queries_and_perft():
    engine = InProcess(MillUgiFrontEnd)
    engine.send("ugi", "uginewgame", f"position startpos moves {OPENING}")
    assert engine.send("query p1turn", "query gameover", "query result") == [
        "response true", "response false", "response none"]
    board = MillBoard()
    board.push_moves(OPENING)
    lines = engine.send("go depth 3")
    assert bestmove(lines) in board.legal_moves() and lines[-2].startswith("info depth 3 score cp ")
    # At depth 1 the mill is the best turn: it comes with its removal, in one turn.
    assert bestmove(engine.send("go depth 1")) in ("f6xd2", "f6xf2")
    perft = engine.send("go perft 2")
    assert perft[-2] == f"Nodes searched: {MillBoard(board.fen()).perft(2)}"
    # Split tokens are one turn here too; a turn missing its removal is refused.
    engine.send(f"position startpos moves {OPENING} f6 xd2")
    assert engine.fen().startswith(".../OOO/.../....../.../..@/... b 6 7 0 0 6")
    lines = engine.send(f"position startpos moves {OPENING} f6")
    assert errors(lines) == ["info string error: Turn 5: 'f6' must take 1 stone, not 0."]
    assert engine.fen().startswith(".../OOO/.../....../.../..@/... b")


def test_ugi_game_over_answers_none_and_the_result():
    engine = InProcess(MillUgiFrontEnd)
    fen = "OOO/.../.../@...../.../.../@.. w 0 0 0 0 40"        # black has two stones: lost
    engine.send("ugi", f"position fen {fen}")
    assert engine.send("query gameover", "query result", "query p1turn") == [
        "response true", "response p1win", "response true"]
    assert engine.send("go depth 2") == ["info string no legal moves: fewer than three stones, 1-0",
                                         "bestmove none"]


def test_rule_options_checked_at_once_and_applied_from_the_next_game():
    engine = InProcess(MillUgiFrontEnd)
    engine.send("ugi", "uginewgame", f"position startpos moves {OPENING}")
    before = engine.fen()
    assert_refused(engine, {
           "setoption name Variant value tenmen": "Unknown Mill variant 'tenmen'",
           "setoption name PiecesCount value 11": "PiecesCount must be 9, 10 or 12, not 11",
           "setoption name PiecesCount value 13": "PiecesCount must be between 9 and 12, not 13",
           "setoption name MayFly value perhaps": "MayFly takes true or false, not 'perhaps'",
           "setoption name BoardFullAction value 5": "BoardFullAction must be between 0 and 4, not 5",
           "setoption name NMoveRule value -1": "NMoveRule must be between 0 and 1000, not -1",
           "setoption name Algorithm value alphabeta": "Algorithm takes pvs or mtdf",
           "setoption name Colour value white": "no such option: Colour"})
    out = engine.send("setoption name Variant value twelve")
    assert out == ["info string Variant twelve applies from the next position or new game; "
                   "the game in progress keeps its rules"]
    assert engine.fen() == before                       # nine men still, until the next position
    assert bestmove(engine.send("go depth 2")) in MillBoard(before).legal_moves()
    engine.send("uginewgame", "position startpos")
    assert engine.fen() == ".../.../.../....../.../.../... w 12 12 0 0 1"
    engine.send("setoption name PiecesCount value 10")  # no game in progress: nothing to say
    assert engine.send("position startpos") == []
    assert engine.fen().endswith("w 10 10 0 0 1")


def test_bad_lines_name_their_fault_and_change_nothing():
    engine = InProcess(MillUgiFrontEnd)
    engine.send("ugi", f"position startpos moves {OPENING}")
    before = engine.fen()
    assert_refused(engine, {
           "position startpos moves d6 d6": "'d6' goes to d6, which is not empty",
           "position startpos moves d6 d2 d6-d5": "moves a stone while white still has stones to place",
           "position fen .../.../... w 9 9 0 0 1": "rank",
           "position fen OOO/OOO/OOO/OOOOOO/.../.../... w 0 9 0 0 1": "",
           "position startpos moves d6 d2 b6 f2 f6xb6": "holds no black stone",
           "position startpos moves d6 d2 b6 f2 f6xd2xf2": "must take 1 stone, not 2",
           "position startpos moves q9": "not a Mill move",
           "position sideways": "position needs 'startpos' or 'fen <FEN>'",
           "frobnicate": "unknown command: frobnicate"})
    out = engine.send("go searchmoves d7 depth 1")
    assert errors(out) == ["info string error: go searchmoves and go mate are not supported for Mill; ignored"]
    assert bestmove(out) in MillBoard(before).legal_moves()
    # Depths beyond the search's own limit (99) mean no more than it.
    assert bestmove(engine.send("go depth 500 nodes 300")) in MillBoard(before).legal_moves()


# --- Sanmill's UCI dialect ------------------------------------------------------------------

def test_uci_dialect_answers_a_mill_in_two_goes():
    engine = InProcess(MillUciFrontEnd)
    engine.send("uci", "ucinewgame", f"position startpos moves {OPENING}")
    board = MillBoard()
    board.push_moves(OPENING)
    # At depth 1 the mill is the best turn: its first token now, its removal at the next go.
    first = bestmove(engine.send("go depth 1"))
    assert first == "f6"
    engine.send(f"position startpos moves {OPENING} f6")
    second = bestmove(engine.send("go depth 1"))
    assert board.push(first + second) in ("f6xd2", "f6xf2")
    # A turn the engine did not begin is completed with a legal removal too.
    engine.send("ucinewgame", f"position startpos moves {OPENING} f6")
    assert "Begun turn: f6" in engine.describe()
    assert "f6" + bestmove(engine.send("go depth 3")) in ("f6xd2", "f6xf2")


def test_uci_dialect_answers_two_removals_one_go_each():
    moves = "d5 d2 b2 d6 f4 f2 g7 a7 g1 e5 d1 c5 e4 e3"      # g4 closes two mills at once
    engine = InProcess(MillUciFrontEnd)
    engine.send("uci", "setoption name Variant value morabaraba")
    tokens: list[str] = []
    for _ in range(3):
        engine.send(f"position startpos moves {moves} {' '.join(tokens)}".rstrip())
        tokens.append(bestmove(engine.send("go depth 1")))
    board = MillBoard(variant="morabaraba")
    board.push_moves(moves)
    assert tokens[0] == "g4" and board.push("".join(tokens)).count("x") == 2


BLOCKED = "O@./.../.../O@..../.../.@./O@@ w 0 0 0 0 30"     # White cannot move; Black can


def test_blocked_side_turns_over_ugi_and_the_uci_dialect():
    rules = "setoption name MayFly value false"
    # UGI: one complete turn per bestmove, whatever StalemateAction makes of it.
    for action in (1, 2, 3):
        engine = InProcess(MillUgiFrontEnd)
        engine.send("ugi", rules, f"setoption name StalemateAction value {action}", f"position fen {BLOCKED}")
        board = MillBoard(BLOCKED, MayFly=False, StalemateAction=action)
        turn = bestmove(engine.send("go depth 3"))
        assert turn in board.legal_moves()
        engine.send(f"position fen {BLOCKED} moves {turn}")
        board.push(turn)
        assert engine.fen() == board.fen()
    # Sanmill's dialect, StalemateAction 2: the removal, then the slide at the next go.
    engine = InProcess(MillUciFrontEnd)
    engine.send("uci", rules, "setoption name StalemateAction value 2", f"position fen {BLOCKED}")
    board = MillBoard(BLOCKED, MayFly=False, StalemateAction=2)
    tokens = [bestmove(engine.send("go depth 3"))]
    while len(tokens) < 4:
        engine.send(f"position fen {BLOCKED} moves {' '.join(tokens)}")
        if not board.completions("".join(tokens)):
            break
        tokens.append(bestmove(engine.send("go depth 3")))
    assert board.push(" ".join(tokens)) in MillBoard(BLOCKED, MayFly=False, StalemateAction=2).legal_moves()


def test_uci_dialect_bare_go_thinks_movetime_and_clocks_are_kept():
    engine = InProcess(MillUciFrontEnd)
    engine.send("uci", "setoption name MoveTime value 1", "position startpos")
    start = time.monotonic()
    assert bestmove(engine.send("go")) in MillBoard().legal_moves()
    assert 0.5 < time.monotonic() - start < 5
    start = time.monotonic()
    assert bestmove(engine.send("go wtime 3000 btime 3000")) in MillBoard().legal_moves()
    assert time.monotonic() - start < 1.5        # about 3000/40 ms, far from the clock


# --- whole games over the installed command ---------------------------------------------------

def random_turn(board: MillBoard, rng: random.Random) -> str:
    return rng.choice(board.legal_moves())


def play_ugi_game(seed: int) -> None:
    rng = random.Random(seed)
    board = MillBoard()
    with EngineProcess("--game", "mill") as engine:
        engine.send("ugi")
        engine.read_until(lambda line: line == "ugiok")
        engine.send("setoption name NMoveRule value 40", "uginewgame")
        board = MillBoard(NMoveRule=40)
        pyrope_first = seed % 2 == 0
        while not board.is_game_over():
            if pyrope_first == board.white_to_move:
                engine.send(f"position startpos moves {' '.join(board.move_stack)}",
                            "go p1time 5000 p2time 5000 p1inc 50 p2inc 50")
                move = engine.read_until(lambda line: line.startswith("bestmove "))[-1].split()[1]
                assert move in board.legal_moves(), (board.fen(), move)
                board.push(move)
            else:
                board.push(random_turn(board, rng))
        engine.send(f"position startpos moves {' '.join(board.move_stack)}", "query gameover", "query result")
        answers = engine.read_until(lambda line: line.startswith("response ") and "true" not in line)
        assert answers[-2:] == ["response true", f"response {RESULTS[board.result()]}"]
        assert engine.quit() == ""
    if pyrope_first:
        assert board.result() != "0-1"      # a random mover does not beat it


@needs_command
def test_ugi_games_against_a_random_mover_end_as_the_board_says():
    for seed in (1, 2):
        play_ugi_game(seed)


@needs_command
def test_uci_dialect_game_token_by_token_against_a_random_mover():
    rng = random.Random(7)
    board = MillBoard(NMoveRule=40)
    tokens: list[str] = []
    with EngineProcess("--game", "mill") as engine:
        engine.send("uci", "setoption name NMoveRule value 40", "ucinewgame")
        engine.read_until(lambda line: line == "uciok")
        while not board.is_game_over():
            if board.white_to_move:
                turn = ""
                while not turn or board.completions(turn):        # the turn still owes removals
                    engine.send(f"position startpos moves {' '.join(tokens + split(turn))}".rstrip(),
                                "go movetime 20")
                    token = engine.read_until(lambda line: line.startswith("bestmove "))[-1].split()[1]
                    turn += token
                    assert turn in board.legal_moves() or board.completions(turn), (board.fen(), turn)
                board.push(turn)
                tokens += split(turn)
            else:
                turn = random_turn(board, rng)
                board.push(turn)
                tokens += split(turn)
        engine.send(f"position startpos moves {' '.join(tokens)}", "go depth 1")
        assert engine.read_until(lambda line: line.startswith("bestmove "))[-1] == "bestmove none"
        assert engine.quit() == ""
    assert board.result() != "0-1"


@needs_command
def test_terminal_game_of_pyrope_against_itself():
    board = MillBoard()
    with EngineProcess("--game", "mill") as engine:
        engine.send("variant nine NMoveRule=30", "force")
        engine.read_until(lambda line: line.startswith("Pyrope will not answer"))
        while not board.is_game_over():
            engine.send("go nodes 400")
            played = engine.read_until(lambda line: line.startswith("Pyrope plays "))[-1]
            number, side, turn = played.split()[2:]
            assert (number, side) == (board.fen().split()[6] + ".", board.turn)
            board.push(turn)
        assert engine.read_until(lambda line: line.startswith("Game over: "))[-1] == \
            f"Game over: {board.termination()} ({board.result()})."
        engine.send("go")
        assert engine.read_until(lambda line: line.startswith("The game is over"))
        assert engine.quit() == ""


@needs_command
def test_terminal_commands_and_their_errors():
    with EngineProcess("--game", "mill") as engine:
        engine.send("force", "d6", "d2 ", "b6", "f2", "f6", "f6 xd2", "undo", "f6xf2", "d", "db", "eval",
                    "perft 2", "fen nonsense", "variant tenmen", "variant lasker", "fen", "help")
        text = "\n".join(engine.read_until(lambda line: line.startswith("Start pyrope --game mill")))
        assert "1. white d6" in text and "5. white f6xd2" in text and "Took back 5. white f6xd2" in text
        assert "'f6' must take 1 stone, not 0." in text
        assert "7 .-----------.-----------." in text and "  a   b   c   d   e   f   g" in text
        assert "Mill endgame databases from" in text and "classes 3-3, 4-3, 4-4, 5-3" in text
        assert "Static evaluation: " in text and "perft 2: " in text
        assert "That FEN cannot be used: A Mill FEN has 7 fields" in text
        assert "Unknown Mill variant 'tenmen'" in text and "The rules stay as they were." in text
        assert "New game (lasker: PiecesCount=10" in text and "w 10 10 0 0 1" in text
        assert engine.quit() == ""


@needs_command
def test_stop_ends_go_infinite_and_isready_is_answered_meanwhile():
    with EngineProcess("--game", "mill") as engine:
        engine.send("ugi", f"position startpos moves {OPENING}", "go infinite")
        engine.read_until(lambda line: line == "ugiok")
        time.sleep(0.3)
        engine.send("isready")
        assert not any(line.startswith("bestmove") for line in engine.read_until(lambda line: line == "readyok"))
        start = time.monotonic()
        engine.send("stop")
        move = engine.read_until(lambda line: line.startswith("bestmove "))[-1].split()[1]
        assert time.monotonic() - start < 2
        board = MillBoard()
        board.push_moves(OPENING)
        assert move in board.legal_moves()
        assert engine.quit() == ""


# --- fuzz -----------------------------------------------------------------------------------

def garbage(rng: random.Random) -> str:
    points = [f + r for f in "abcdefg" for r in "1234567"]
    words = ["position", "startpos", "fen", "moves", "go", "depth", "nodes", "setoption", "name", "value",
             "Variant", "PiecesCount", "MayFly", "xb4", "d6-d5", "query", "p1turn", "stop", "-1", "99999999999", "500"]
    kind = rng.randrange(4)
    if kind == 0:
        return "".join(rng.choice(string.printable[:95]) for _ in range(rng.randrange(1, 30)))
    if kind == 1:
        return " ".join(rng.choice(words + points) for _ in range(rng.randrange(1, 8)))
    if kind == 2:
        return "position startpos moves " + " ".join(rng.choice(points + ["x" + p for p in points])
                                                     for _ in range(rng.randrange(1, 10)))
    return f"setoption name {rng.choice(words[10:13])} value {rng.choice(words + ['12', '10', 'true'])}"


@pytest.mark.parametrize("front_end", [MillUgiFrontEnd, MillUciFrontEnd])
def test_fuzz_never_crashes_and_never_plays_an_illegal_turn(front_end):
    rng = random.Random(18)
    engine = InProcess(front_end)
    engine.send("ugi" if front_end is MillUgiFrontEnd else "uci")
    for _ in range(600):
        engine.send(garbage(rng))
    engine.send("setoption name Variant value nine", "position startpos")
    session = engine.front.session
    for _ in range(20):
        line = garbage(rng)
        assert "readyok" in engine.send(line, "isready"), line
        engine.front.session.finish()       # a `go infinite` among the lines ends here
        if session.board.is_game_over():
            continue
        board, partial = session.board, session.partial
        move = bestmove(engine.send("go depth 2"))
        if partial:
            assert any(split(turn)[len(split(partial))] == move for turn in board.completions(partial))
        else:
            assert any(split(turn)[0] == move or turn == move for turn in board.legal_moves()), move


@needs_command
def test_fuzz_over_the_command_with_bytes_that_are_not_text():
    rng = random.Random(5)
    with EngineProcess("--game", "mill") as engine:
        engine.send("ugi")
        engine.read_until(lambda line: line == "ugiok")
        for _ in range(300):
            engine.send(bytes(rng.randrange(1, 256) for _ in range(rng.randrange(1, 20))).replace(b"\n", b" ")
                        if rng.random() < 0.5 else garbage(rng))
        # A search the noise started ends (with its bestmove) before uginewgame is done.
        engine.send("stop", "uginewgame", "isready")
        engine.read_until(lambda line: line == "readyok")
        engine.send("position startpos moves d6", "go depth 2")
        move = engine.read_until(lambda line: line.startswith("bestmove "))[-1].split()[1]
        board = MillBoard()
        board.push("d6")
        assert move in board.legal_moves()
        assert engine.quit() == ""


@needs_command
def test_command_line_names_the_games():
    wrong = subprocess.run([PYROPE, "--game", "checkers"], input="", capture_output=True, text=True, timeout=30)
    assert wrong.returncode == 2 and "invalid choice: 'checkers'" in wrong.stderr
    helped = subprocess.run([PYROPE, "--help"], capture_output=True, text=True, timeout=30, check=True)
    assert "--game {chess,mill}" in helped.stdout
    quiet = subprocess.run([PYROPE, "--game", "mill"], input="uci\nquit\n", capture_output=True, text=True,
                           timeout=30, check=True)
    assert quiet.stdout.splitlines()[-1] == "uciok" and quiet.stderr == ""
