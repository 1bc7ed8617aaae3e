"""The web server as a page sees it, through Starlette's TestClient: whole games against the engine
(their moves checked with python-chess), bad messages answered with an error and nothing changed,
independent games on independent sockets, a closed socket's search ended, twenty games at once,
a review over its socket, and `pyrope serve` listening on 127.0.0.1 unless told otherwise."""
from __future__ import annotations

import io
import random
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

import chess
import chess.pgn
import pytest

pytest.importorskip("starlette", reason="needs the web extra: pip install '.[web]'")
pytest.importorskip("uvicorn", reason="needs the web extra: pip install '.[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx: pip install httpx")

from starlette.testclient import TestClient  # noqa: E402

from pyrope.web.app import make_app  # noqa: E402
from web_support import chosen_move  # noqa: E402

SCHOLAR_BLUNDER = "1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qf3 Bc5 *"


@pytest.fixture(scope="module")
def client():
    with TestClient(make_app()) as client:
        yield client


def receive_until(socket, kind: str, condition=lambda message: True) -> dict:
    """The next message of `kind` meeting `condition` (others read past)."""
    while True:
        message = socket.receive_json()
        if message["type"] == kind and condition(message):
            return message


def state_where(socket, condition) -> dict:
    return receive_until(socket, "state", condition)


def human_to_move(state: dict) -> bool:
    return bool(state["legal"]) or state["result"] is not None


def new_game(socket, **settings) -> dict:
    socket.send_json({"type": "new", "nodes": 200, **settings})
    return state_where(socket, human_to_move)


def test_the_pages_and_everything_they_load_are_served_from_the_package(client):
    """No CDN, no network: every script, style sheet and link a page names is the server's own."""
    for page in ("/", "/chess", "/analysis", "/mill", "/kriegspiel"):
        response = client.get(page)
        assert response.status_code == 200 and response.headers["content-type"].startswith("text/html")
        for address in re.findall(r'(?:src|href)="([^"#]+)', response.text):
            assert address.startswith("/"), f"{page} loads {address} from elsewhere"
            assert client.get(address).status_code == 200, f"{page}: {address}"
    assert client.get("/static/nothing.js").status_code == 404


def replayed(moves: list[str]) -> chess.Board:
    """The game's moves played by python-chess (which raises on an illegal one)."""
    board = chess.Board()
    for uci in moves:
        move = chess.Move.from_uci(uci)
        assert move in board.legal_moves, f"{uci} is illegal in {board.fen()}"
        board.push(move)
    return board


def test_a_whole_game_against_the_engine_checked_with_python_chess(client):
    """The person plays python-chess's legal moves; the engine answers at 200 nodes; every state's
    legal moves are python-chess's, and the game ends with the result python-chess gives its
    final position, in a PGN that reads back."""
    rng = random.Random(65)
    with client.websocket_connect("/ws/chess") as socket:
        state = new_game(socket, color="white")
        for _ in range(400):
            board = replayed(state["moves"])
            assert state["fen"] == board.fen()
            if state["result"] is not None:
                break
            assert sorted(state["legal"]) == sorted(move.uci() for move in board.legal_moves)
            socket.send_json({"type": "move", "uci": chosen_move(board, rng).uci()})
            played = len(board.move_stack) + 1
            state = state_where(socket, lambda s: len(s["moves"]) >= played and human_to_move(s))
        assert state["result"] is not None, "no result in 400 moves"
        game = chess.pgn.read_game(io.StringIO(state["pgn"]))
        assert game.end().board().move_stack == board.move_stack
        outcome = board.outcome(claim_draw=True)
        assert outcome is not None and outcome.result() == state["result"] == game.headers["Result"]


def test_the_engine_plays_white_and_its_thinking_is_shown(client):
    with client.websocket_connect("/ws/chess") as socket:
        socket.send_json({"type": "new", "color": "black", "nodes": 5000})     # a node count: no book move
        info = receive_until(socket, "info")
        assert info["depth"] >= 1 and ("cp" in info["score"] or "mate" in info["score"])
        assert 0 <= info["white_expected"] <= 1
        board = chess.Board()
        for san in info["pv"]:
            board.push_san(san)         # the PV is legal SAN from the start position
        state = state_where(socket, human_to_move)
        assert len(state["moves"]) == 1 and chess.Move.from_uci(state["moves"][0]) in chess.Board().legal_moves


def test_bad_messages_are_errors_and_change_nothing(client):
    with client.websocket_connect("/ws/chess") as socket:
        socket.send_json({"type": "move", "uci": "e2e4"})
        assert "no game" in receive_until(socket, "error")["message"]
        state = new_game(socket, color="white")
        bad = ['{"type": "move", "uci": "e2e5"}', "not json", "[1, 2]", '{"type": "fly"}', '{"type": "move"}',
               '{"type": "new", "nodes": 0}', '{"type": "new", "elo": 5, "nodes": 10}',
               '{"type": "new", "movetime_ms": 100, "nodes": 10}', '{"type": "new", "color": "green", "nodes": 5}',
               '{"type": "new", "time": {"base_s": -1, "increment_s": 0}}', '{"type": "takeback"}']
        for text in bad:
            socket.send_text(text)
            error = receive_until(socket, "error")
            assert error["message"], text
        socket.send_bytes(b"\x00\x01")
        assert "binary" in receive_until(socket, "error")["message"]
        socket.send_json({"type": "move", "uci": "e2e4"})      # the game is still there, unchanged
        after = state_where(socket, human_to_move)
        assert after["moves"][0] == "e2e4" and len(after["moves"]) == 2 and state["moves"] == []


def test_a_message_after_the_game_ended_is_an_error(client):
    with client.websocket_connect("/ws/chess") as socket:
        new_game(socket, color="white")
        socket.send_json({"type": "resign"})
        over = state_where(socket, lambda s: s["result"] is not None)
        assert over["result"] == "0-1" and over["reason"] == "resignation" and over["legal"] == []
        assert chess.pgn.read_game(io.StringIO(over["pgn"])).headers["Result"] == "0-1"
        for message in ({"type": "move", "uci": "e2e4"}, {"type": "takeback"}, {"type": "resign"}):
            socket.send_json(message)
            assert "over" in receive_until(socket, "error")["message"]


def test_take_back_returns_to_the_persons_move(client):
    with client.websocket_connect("/ws/chess") as socket:
        new_game(socket, color="white")
        socket.send_json({"type": "move", "uci": "d2d4"})
        state_where(socket, lambda s: len(s["moves"]) == 2 and human_to_move(s))
        socket.send_json({"type": "takeback"})
        back = state_where(socket, lambda s: len(s["moves"]) == 0)
        assert back["fen"] == chess.STARTING_FEN and len(back["legal"]) == 20


def test_chess960_start_positions(client):
    with client.websocket_connect("/ws/chess") as socket:
        state = new_game(socket, color="white", chess960=True, position=0)
        board = chess.Board.from_chess960_pos(0)
        assert state["fen"] == board.fen() and state["chess960"]
        assert sorted(state["legal"]) == sorted(move.uci() for move in board.legal_moves)
        socket.send_json({"type": "new", "chess960": True, "position": 960, "nodes": 10})
        assert "position" in receive_until(socket, "error")["message"]


def test_a_game_from_a_fen(client):
    """A set-up position, Black to move, the person White: the engine moves first, the PGN carries
    the FEN, and python-chess replays the moves from it; a FEN the board refuses, or one with no
    move left, is an error and the game before it stays."""
    fen = "4k3/8/8/8/8/8/4P3/4K2R b K - 0 40"
    with client.websocket_connect("/ws/chess") as socket:
        state = new_game(socket, color="white", fen=fen)
        assert state["start_fen"] == fen and len(state["moves"]) == 1
        board = chess.Board(fen)
        board.push_uci(state["moves"][0])
        assert state["fen"] == board.fen() and sorted(state["legal"]) == sorted(m.uci() for m in board.legal_moves)
        game = chess.pgn.read_game(io.StringIO(state["pgn"]))
        assert game.headers["FEN"] == fen and game.end().board().fen() == board.fen()
        for bad, said in (("8/8/8/8/8/8/8/8 w - - 0 1", "king"), ("k7/1Q6/1K6/8/8/8/8/8 b - - 0 1", "over"),
                          ("garbage", "FEN"), (7, "FEN string")):
            socket.send_json({"type": "new", "fen": bad, "nodes": 10})
            assert said in receive_until(socket, "error")["message"], bad
        socket.send_json({"type": "move", "uci": "h1h8"})      # the game from the FEN is still there
        assert state_where(socket, lambda s: len(s["moves"]) >= 2)["moves"][1] == "h1h8"


def test_a_clock_counts_and_the_engine_moves_on_it(client):
    with client.websocket_connect("/ws/chess") as socket:
        socket.send_json({"type": "new", "color": "white", "time": {"base_s": 60, "increment_s": 1}})
        start = state_where(socket, human_to_move)
        assert start["clock"]["running"] == "white" and start["clock"]["white_ms"] <= 60_000
        time.sleep(0.3)
        socket.send_json({"type": "move", "uci": "e2e4"})
        state = state_where(socket, lambda s: len(s["moves"]) == 2)
        clock = state["clock"]
        assert clock["running"] == "white" and 60_000 - 300 + 1000 >= clock["white_ms"] > 50_000
        assert clock["black_ms"] <= 61_000


def test_running_out_of_time_loses(client):
    with client.websocket_connect("/ws/chess") as socket:
        socket.send_json({"type": "new", "color": "white", "time": {"base_s": 1, "increment_s": 0}})
        over = state_where(socket, lambda s: s["result"] is not None)       # nobody moves
        assert over["result"] == "0-1" and over["reason"] == "time forfeit"


def test_two_sockets_are_two_games(client):
    with client.websocket_connect("/ws/chess") as first, client.websocket_connect("/ws/chess") as second:
        new_game(first, color="white")
        new_game(second, color="white")
        first.send_json({"type": "move", "uci": "e2e4"})
        one = state_where(first, lambda s: len(s["moves"]) == 2)
        second.send_json({"type": "move", "uci": "g1f3"})
        two = state_where(second, lambda s: len(s["moves"]) == 2)
        assert one["moves"][0] == "e2e4" and two["moves"][0] == "g1f3"


def search_threads() -> int:
    return sum(thread.name == "pyrope-search" and thread.is_alive() for thread in threading.enumerate())


def test_closing_the_socket_ends_its_search(client):
    before = search_threads()
    with client.websocket_connect("/ws/chess") as socket:
        socket.send_json({"type": "new", "color": "black", "nodes": 10_000_000})     # many seconds
        receive_until(socket, "info")           # the engine is thinking
        assert search_threads() == before + 1
    deadline = time.monotonic() + 10
    while search_threads() > before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert search_threads() == before, "the closed game's search still runs"
    with client.websocket_connect("/ws/chess") as socket:       # and the server serves on
        assert new_game(socket, color="white")["legal"]


def test_twenty_games_at_once_do_not_mix(client):
    """Twenty sockets, each its own opening move, each answered in its own game."""
    openings = [move.uci() for move in chess.Board().legal_moves]
    sockets = [client.websocket_connect("/ws/chess") for _ in openings]
    opened = [socket.__enter__() for socket in sockets]
    try:
        for socket in opened:
            socket.send_json({"type": "new", "color": "white", "nodes": 100})
        for socket in opened:
            state_where(socket, human_to_move)
        for socket, move in zip(opened, openings):
            socket.send_json({"type": "move", "uci": move})
        for socket, move in zip(opened, openings):
            state = state_where(socket, lambda s: len(s["moves"]) == 2)
            board = chess.Board()
            board.push_uci(move)
            assert state["moves"][0] == move and chess.Move.from_uci(state["moves"][1]) in board.legal_moves
            socket.send_json({"type": "move", "uci": state["legal"][0]})
            third = state_where(socket, lambda s: len(s["moves"]) == 4)
            assert third["moves"][:3] == state["moves"] + [state["legal"][0]]
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)


def test_a_review_marks_the_missed_mate(client):
    """4.Qf3 misses Qxf7# (python-chess confirms the mate): a blunder, with the mate as the better move."""
    board = chess.Board()
    for san in ("e4", "e5", "Bc4", "Nc6", "Qh5", "Nf6"):
        board.push_san(san)
    board.push_san("Qxf7#")
    assert board.is_checkmate()
    with client.websocket_connect("/ws/analysis") as socket:
        socket.send_json({"type": "analyse", "pgn": SCHOLAR_BLUNDER, "nodes": 3000})
        progress = receive_until(socket, "progress")
        assert progress["total"] == 9
        review = receive_until(socket, "review")
    marked = {move["san"]: move for move in review["moves"] if move["verdict"]}
    assert marked["Qf3"]["verdict"] == "blunder" and marked["Qf3"]["best"] == "Qxf7#"
    assert len(review["white_expected"]) == len(review["fens"]) == 9
    annotated = chess.pgn.read_game(io.StringIO(review["pgn"]))
    assert [node.san() for node in annotated.mainline()] == "e4 e5 Bc4 Nc6 Qh5 Nf6 Qf3 Bc5".split()


def test_a_bad_review_request_is_an_error(client):
    with client.websocket_connect("/ws/analysis") as socket:
        for message in ({"type": "analyse", "pgn": "1. e4 e5 2. Ke3 *"}, {"type": "analyse", "pgn": ""},
                        {"type": "analyse", "pgn": "1. e4 *", "movetime_ms": 1}, {"type": "go"}):
            socket.send_json(message)
            assert receive_until(socket, "error")["message"]


def test_serve_listens_on_this_machine_only_by_default():
    process = subprocess.Popen([sys.executable, "-m", "pyrope", "serve", "--port", "0"], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True,
                               preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        line = process.stdout.readline()
        address = re.search(r"http://([\d.]+):(\d+)/", line)
        assert address and address.group(1) == "127.0.0.1", line
        with urllib.request.urlopen(address.group(0), timeout=30) as response:
            assert response.status == 200
        process.send_signal(signal.SIGINT)        # Ctrl-C ends it as it ends every command: 130
        _, stderr = process.communicate(timeout=30)
        assert process.returncode == 130 and "Traceback" not in stderr, stderr
    finally:
        process.kill()
        process.wait()


def test_serve_without_the_web_extra_says_which_extra_to_install():
    hide_uvicorn = "import sys; sys.modules['uvicorn'] = None; from pyrope.cli import main; sys.exit(main(['serve']))"
    result = subprocess.run([sys.executable, "-c", hide_uvicorn], capture_output=True, text=True, timeout=60)
    assert result.returncode == 1 and 'uvicorn is not installed (pip install "pyrope[web]"' in result.stderr, result.stderr
