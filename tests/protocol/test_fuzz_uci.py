"""Fuzzing the UCI and UGI front-ends of the installed `pyrope` with seeded random bad lines.

Thousands of unknown commands, byte noise (including bytes that are not UTF-8), truncated position
commands, corrupted FENs, illegal moves, option values of the wrong type or out of range and go
commands with garbage: each line must get its own `info string error: ...`, none may change the
position, crash or hang the engine, every bestmove meanwhile must be legal, and afterwards the
engine must still play a legal game.
"""
from __future__ import annotations

import random
import string

import chess
import pytest

from engine_process import PYROPE, EngineProcess

pytestmark = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")

LINES_PER_RUN = 1500

# Every command either protocol knows: a random line must not start with one of them by chance.
KNOWN_COMMANDS = {"uci", "ugi", "debug", "isready", "register", "ucinewgame", "uginewgame", "setoption",
                  "position", "go", "stop", "ponderhit", "d", "bench", "quit", "query"}

PROTOCOLS = {
    # handshake, new game, go's clock words, commands of other protocols
    "uci": ("uci", "uciok", "ucinewgame", ("wtime", "btime", "winc", "binc", "movestogo"),
            ("ugi", "uginewgame", "query p1turn", "xboard", "protover 2", "usermove e2e4")),
    "ugi": ("ugi", "ugiok", "uginewgame", ("p1time", "p2time", "p1inc", "p2inc"),
            ("uci", "ucinewgame", "xboard", "protover 2", "usermove e2e4")),
}
LIMIT_WORDS = ("depth", "nodes", "movetime", "mate")
SPIN_RANGES = {"Hash": (1, 65536), "Threads": (1, 256), "MultiPV": (1, 64), "Move Overhead": (0, 5000)}


def random_position(rng: random.Random) -> chess.Board:
    """A position some random plies into a game, with the game still going on."""
    while True:
        board = chess.Board()
        for _ in range(rng.randrange(40)):
            if board.is_game_over():
                break
            board.push(rng.choice(list(board.legal_moves)))
        if not board.is_game_over(claim_draw=True):
            return board


class BadLines:
    """Lines that are wrong in one of several ways; each must be answered by an error."""

    def __init__(self, rng: random.Random, protocol: str) -> None:
        self.rng = rng
        _, _, _, self.clock_words, self.foreign = PROTOCOLS[protocol]
        self.families = [self.unknown_command, self.noise, self.truncated_position, self.bad_fen,
                         self.illegal_move, self.bad_option, self.bad_go, self.foreign_command]

    def line(self) -> bytes:
        made = self.rng.choice(self.families)()
        return made if isinstance(made, bytes) else made.encode()

    def word(self) -> str:
        return "".join(self.rng.choice(string.ascii_letters + string.digits + "_-")
                       for _ in range(self.rng.randint(1, 12)))

    def unknown_command(self) -> str:
        while (command := self.word()) in KNOWN_COMMANDS:
            pass
        return " ".join([command] + [self.word() for _ in range(self.rng.randrange(4))])

    def noise(self) -> bytes:
        alphabet = [bytes([b]) for b in range(32, 256)] + [b"\t", "é".encode(), "♞".encode(), b"\x00"]
        while True:
            line = b"".join(self.rng.choice(alphabet) for _ in range(self.rng.randint(1, 80)))
            words = line.decode("utf-8", "replace").split()
            if words and words[0] not in KNOWN_COMMANDS:
                return line

    def truncated_position(self) -> str:
        board = random_position(self.rng)
        placement = board.fen().split()[0]
        moves = " ".join(move.uci() for move in board.move_stack)
        return self.rng.choice([
            "position",
            "position fen",
            "position moves e2e4",
            f"position fen {placement[:self.rng.randrange(1, len(placement))]} w - - 0 1",
            f"position startpos moves {moves} {self.rng.choice(['e2', 'e', 'g1f', 'a7a8x'])}",
            f"position startpos move {moves}",
            f"position {board.fen()}",
        ])

    def bad_fen(self) -> str:
        fields = random_position(self.rng).fen().split()
        kind = self.rng.randrange(9)
        if kind == 0:       # a letter that is no piece
            index = self.rng.choice([i for i, char in enumerate(fields[0]) if char.isalpha()])
            fields[0] = fields[0][:index] + self.rng.choice("xyzXYZ") + fields[0][index + 1:]
        elif kind == 1:
            fields[0] += "/8"
        elif kind == 2:     # one rank too long
            fields[0] = fields[0].replace("/", self.rng.choice(["p/", "1/", "N/"]), 1)
        elif kind == 3:
            fields[1] = self.rng.choice(["x", "W", "white", "-"])
        elif kind == 4:
            fields[2] = self.rng.choice(["Z", "KQkqK", "kqKQx"])
        elif kind == 5:
            fields[3] = self.rng.choice(["e9", "z3", "e4", "33"])
        elif kind == 6:
            fields[4] = self.rng.choice(["-1", "abc", "1.5"])
        elif kind == 7:
            fields = fields[:self.rng.randrange(4)] if self.rng.random() < 0.5 else fields + ["extra"]
        else:               # a king missing
            fields[0] = fields[0].replace(self.rng.choice("Kk"), "1")
        return "position fen " + " ".join(fields)

    def illegal_move(self) -> str:
        board = random_position(self.rng)
        prefix = " ".join(move.uci() for move in board.move_stack)
        while True:
            move = chess.Move(self.rng.randrange(64), self.rng.randrange(64))
            target = board.piece_at(move.to_square)
            mover = board.piece_at(move.from_square)
            castling_form = (mover is not None and mover.piece_type == chess.KING and target is not None
                             and target.piece_type == chess.ROOK and target.color == mover.color)
            if move not in board.legal_moves and move.from_square != move.to_square and not castling_form:
                break
        bad = self.rng.choice([move.uci(), move.uci() + "q", "e2e9", "E2E4", "O-O", "0000", "e7e8k"])
        return f"position startpos moves {prefix} {bad}".replace("  ", " ")

    def bad_option(self) -> str:
        name = self.rng.choice(list(SPIN_RANGES))
        low, high = SPIN_RANGES[name]
        return self.rng.choice([
            f"setoption name {name} value {self.rng.choice(['lots', '1.5', '', '0x10', '-', '1e3'])}",
            f"setoption name {name} value {self.rng.choice([low - 1, high + 1, 10 ** 30, -(10 ** 30)])}",
            f"setoption name UCI_Chess960 value {self.rng.choice(['yes', '1', 'maybe', ''])}",
            f"setoption name {self.word()} value 1",
            f"setoption name EvalFile value /nonexistent/{self.word()}.txt",
            "setoption", "setoption name", f"setoption value {self.rng.randrange(100)}",
            f"setoption {name} {self.rng.randrange(100)}",
        ])

    def bad_go(self) -> str:
        rng = self.rng
        numbers = self.clock_words + LIMIT_WORDS
        wrong = rng.choice([
            f"{rng.choice(numbers)} {rng.choice(['soon', '1.5', '-', 'inf', ''])}",
            f"{rng.choice(['depth', 'nodes', 'movetime', 'mate'])} {rng.choice([0, -1, -(10 ** 12)])}",
            self.word() if self.word() not in numbers else "sideways",
        ])
        noise = [f"{rng.choice(numbers)} {rng.choice([1, 50, 2 ** 31 - 1])}" for _ in range(rng.randrange(3))]
        words = noise + [wrong]
        rng.shuffle(words)
        return rng.choice([
            f"go {' '.join(words)} depth {rng.randint(1, 2)}",      # the search stays short
            f"go depth 1 searchmoves {rng.choice(['a1a1', 'zz', 'e2e9', 'h1h1q'])}",
            f"go perft {rng.choice(['', 'x', '0', '-2', '1 2'])}",
        ])

    def foreign_command(self) -> str:
        return self.rng.choice(self.foreign)


def ready_chunks(engine: EngineProcess, count: int) -> list[list[str]]:
    """The output split at readyok, for the next `count` readyoks."""
    chunks = []
    for _ in range(count):
        chunks.append(engine.read_until(lambda line: line == "readyok", timeout=60)[:-1])
    return chunks


def play_a_game(engine: EngineProcess, protocol: str) -> None:
    """A game against itself on a short clock; every move must be legal."""
    clocks = "p1time 1000 p2time 1000 p1inc 20 p2inc 20" if protocol == "ugi" else \
        "wtime 1000 btime 1000 winc 20 binc 20"
    board = chess.Board()
    while not board.is_game_over(claim_draw=True) and board.ply() < 30:
        moves = " ".join(move.uci() for move in board.move_stack)
        engine.send(f"position startpos moves {moves}".rstrip(), f"go {clocks}")
        move = engine.read_until(lambda line: line.startswith("bestmove "))[-1].split()[1]
        assert chess.Move.from_uci(move) in board.legal_moves, (board.fen(), move)
        board.push_uci(move)


@pytest.mark.parametrize("protocol, seed", [("uci", 1), ("ugi", 2)])
def test_random_bad_lines_get_errors_and_the_engine_still_plays(protocol, seed):
    rng = random.Random(seed)
    handshake, greeting_end, new_game, _, _ = PROTOCOLS[protocol]
    position = random_position(rng)
    lines = BadLines(rng, protocol)
    bad = [lines.line() for _ in range(LINES_PER_RUN)]
    with EngineProcess() as engine:
        engine.send(handshake)
        engine.read_until(lambda line: line == greeting_end)
        engine.send(f"position fen {position.fen()}")
        for line in bad:
            engine.send(line, "isready")
        for line, chunk in zip(bad, ready_chunks(engine, len(bad))):
            errors = [out for out in chunk if out.startswith("info string error: ")]
            assert errors and all(len(error) > len("info string error: ") + 10 for error in errors), line
        engine.send("d", new_game, "isready")
        searched = [out for chunk in ready_chunks(engine, 1) for out in chunk]
        assert f"Fen: {position.fen()}" in searched           # no bad line changed the position
        # Every search the fuzz started had reported before the new game (which ends searches).
        for out in searched:
            if out.startswith("bestmove "):
                assert chess.Move.from_uci(out.split()[1]) in position.legal_moves, out
        play_a_game(engine, protocol)
        assert engine.quit() == ""


@pytest.mark.parametrize("go", ["go depth 1000000000000 movetime 100", "go mate 1000000000000 movetime 100",
                                "go nodes 100000000000000000000 movetime 100", "go perft 1000000000000"])
def test_numbers_beyond_the_search_range_get_an_error_and_a_prompt_answer(go):
    with EngineProcess() as engine:
        # The search must answer these (a book move would come before readyok).
        engine.send("uci", "setoption name OwnBook value false", "position startpos", go, "isready")
        lines = engine.read_until(lambda line: line == "readyok", timeout=10)
        assert any(line.startswith("info string error: ") for line in lines)
        if "perft" not in go:
            engine.read_until(lambda line: line.startswith("bestmove"), timeout=3)
        assert engine.quit() == ""
