"""The terminal mode of the installed `pyrope` (moves in SAN and UCI, the engine answering, undo,
d, eval, perft, game ends, friendly errors) and the choice of protocol by the first line."""
from __future__ import annotations

import re
import subprocess

import chess
import pytest

import pyrope
from engine_process import PYROPE, EngineProcess

pytestmark = pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed")

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
ENGINE_MOVE = re.compile(r"Pyrope plays \d+(?:\. |\.\.\.)(\S+)$")


def reply(engine: EngineProcess, line: str, last: str) -> list[str]:
    """Send `line`; return the output up to the line starting with `last`."""
    engine.send(line)
    return engine.read_until(lambda output: output.startswith(last))


def shown_fen(engine: EngineProcess) -> str:
    lines = reply(engine, "d", "Key: ")
    return next(line for line in lines if line.startswith("FEN: ")).removeprefix("FEN: ")


def engine_move(engine: EngineProcess, board: chess.Board, command: str) -> list[str]:
    """Send `command`, wait for Pyrope's move, check it is legal SAN on `board` and play it there."""
    lines = reply(engine, command, "Pyrope plays ")
    board.push_san(ENGINE_MOVE.match(lines[-1]).group(1))      # raises if the move is illegal
    return lines


@pytest.mark.parametrize("script, expected", [
    ("uci\n", "uciok"),
    ("\n\nugi\n", "ugiok"),
    ("xboard\nprotover 2\n", "feature done=1"),
    ("position startpos moves e2e4\ngo perft 1\n", "Nodes searched: 20"),    # UCI without the handshake
    ("d\n", "FEN: rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("help\n", "  perft N        count the positions N plies ahead (1 to 10)"),
])
def test_the_first_line_chooses_the_protocol(script, expected):
    result = subprocess.run([PYROPE], input=script + "quit\n", capture_output=True, text=True, timeout=30,
                            check=True)
    assert expected in result.stdout.splitlines()
    assert result.stderr == ""


def test_moves_in_san_and_uci_undo_board_eval_and_perft():
    board = chess.Board()
    with EngineProcess() as engine:
        assert reply(engine, "force", "Pyrope will not") == [
            "Pyrope will not answer your moves: you play both sides; go makes it move."]
        for typed, shown in [("e4", "1. e4"), ("e7e5", "1...e5"), ("Nf3", "2. Nf3"), ("g8f6", "2...Nf6"),
                             ("Bc4", "3. Bc4"), ("Bc5", "3...Bc5"), ("O-O", "4. O-O")]:
            assert reply(engine, typed, shown) == [shown]
            board.push_san(shown.split()[-1].split("...")[-1])
        assert shown_fen(engine) == board.fen()
        assert reply(engine, "undo", "Took back") == ["Took back 4. O-O"]     # force: one ply only
        assert reply(engine, "e1g1", "4. O-O") == ["4. O-O"]                  # castling typed in UCI
        assert reply(engine, "Ke3", "Ke3") == ["Ke3 is not a legal move here."]
        assert reply(engine, "e5e4", "e5e4") == ["e5e4 is not a legal move here."]
        assert reply(engine, "flurb", "Unknown") == ["Unknown command or move: flurb (type help for the list)."]
        assert shown_fen(engine) == board.fen()

        lines = reply(engine, "eval", "total ")
        terms = {line.split()[0] for line in lines[1:-2]}
        assert {"material", "psqt", "mobility", "pawns", "king", "threats", "tempo"} <= terms
        score = pyrope.Board(board.fen()).evaluate() * (1 if board.turn == chess.WHITE else -1)
        assert lines[-1] == f"total {score / 100:+.2f} (pawns, White's point of view)"

        engine.send("new")
        assert reply(engine, "perft 3", "perft ")[-1].startswith("perft 3: 8902 nodes (")
        engine.send(f"fen {KIWIPETE}")
        assert reply(engine, "perft 3", "perft ")[-1].startswith("perft 3: 97862 nodes (")
        assert engine.quit() == ""


def test_game_end_is_announced_and_further_moves_are_refused():
    with EngineProcess() as engine:
        engine.send("force", "f3", "e5", "g4")
        lines = reply(engine, "Qh4#", "Game over")
        assert lines[-2:] == ["2...Qh4#", "Game over: Black mates (0-1)."]
        over = "The game is over (Black mates, 0-1): type new, undo or fen <FEN>."
        assert reply(engine, "a3", "The game") == [over]
        assert reply(engine, "go depth 2", "The game") == [over]
        assert reply(engine, "undo", "Took back") == ["Took back 2...Qh4#"]
        assert reply(engine, "Qh4", "Game over")[-1] == "Game over: Black mates (0-1)."
        lines = reply(engine, "fen 7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "Game over")
        assert lines == ["Position set: Black to move.", "Game over: Stalemate (1/2-1/2)."]
        engine.quit()


def test_the_engine_moves_on_go_and_answers_moves_with_the_same_limits():
    board = chess.Board()
    with EngineProcess() as engine:
        lines = engine_move(engine, board, "go depth 3")
        infos = [line for line in lines if line.startswith("depth ")]
        assert [int(line.split()[1]) for line in infos] == [1, 2, 3]
        reply_move = next(move for move in board.legal_moves if not board.is_capture(move))
        typed = board.san(reply_move)
        board.push(reply_move)
        lines = engine_move(engine, board, typed)           # depth 3 again, without asking
        assert lines[0].endswith(typed) and lines[-2].startswith("depth  3 ")
        assert reply(engine, "undo", "Took back 1")[-2:] == [f"Took back {lines[-1].removeprefix('Pyrope plays ')}",
                                                             f"Took back 1...{typed}"]
        board.pop()
        board.pop()
        assert shown_fen(engine) == board.fen()
        engine.quit()


def test_the_engine_stays_responsive_while_thinking():
    with EngineProcess() as engine:
        engine.send("fen " + KIWIPETE, "go infinite")
        engine.read_until(lambda line: line.startswith("depth  4 "))
        assert shown_fen(engine) == KIWIPETE
        assert reply(engine, "e5f7", "Pyrope is")[-1] == (
            "Pyrope is thinking: type stop to make it move now, or undo to take your move back.")
        engine_move(engine, chess.Board(KIWIPETE), "stop")
        # new (like undo and fen) drops a search in progress together with its move.
        engine.send("go infinite")
        engine.read_until(lambda line: line.startswith("depth  3 "))
        lines = reply(engine, "new", "New game")
        assert shown_fen(engine) == chess.STARTING_FEN
        engine.process.stdin.close()
        rest = [line for line in iter(engine.lines.get, None)]
        assert not any(line.startswith("Pyrope plays") for line in lines + rest)


MISTAKES = [
    ("fen 8/8/8 w - - 0 1", "That FEN cannot be used: board field has 3 ranks, expected 8."),
    ("fen", "fen needs a position, like: fen 8/8/8/4k3/8/8/4P3/4K3 w - - 0 1"),
    ("perft 11", "perft needs a depth from 1 to 10, like: perft 4"),
    ("perft x", "perft needs a depth from 1 to 10, like: perft 4"),
    ("bench deep", "bench takes an optional depth of 1 or more, like: bench 8"),
    ("stop", "Pyrope is not thinking."),
    ("undo", "There is no move to take back."),
    ("Nd2", "Nd2 is ambiguous here: add the file or rank the piece comes from (like Nbd2)."),
    ("castle", "Unknown command or move: castle (type help for the list)."),
    ("castle kingside", "Unknown command: castle kingside (type help for the list)."),
]


def test_mistakes_get_a_one_line_answer_and_keep_the_position():
    fen = "4k3/8/8/8/8/8/8/1N1K1N2 w - - 0 1"
    with EngineProcess() as engine:
        engine.send("force", f"fen {fen}")
        engine.read_until(lambda line: line.startswith("Position set"))
        for command, answer in MISTAKES:
            assert reply(engine, command, answer.split()[0]) == [answer], command
        assert shown_fen(engine) == fen
        # A go with nothing usable reports each word and thinks as long as for a reply.
        assert reply(engine, "go to bed", "unknown") == ["unknown go parameter 'to'; ignored"]
        engine.send("stop")
        engine.read_until(lambda line: line.startswith("Pyrope plays"))
        lines = reply(engine, "bench 2", "Nodes/second")
        assert any(line.startswith("Nodes searched  : ") for line in lines)
        engine.quit()
