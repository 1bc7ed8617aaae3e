"""The Kriegspiel page's socket through Starlette's TestClient: a whole game against the random
player, the person trying moves from the tries offered; the person's board never shows an enemy
man, and at the end the referee's PGN replays in python-chess (every move legal on the full board)
to the full board sent and to the result sent. Bad tries and messages are errors."""
from __future__ import annotations

import io
import random

import chess
import chess.pgn
import pytest

pytest.importorskip("starlette", reason="needs the web extra: pip install '.[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx: pip install httpx")

from starlette.testclient import TestClient  # noqa: E402

from pyrope.web.app import make_app  # noqa: E402

MAX_TRIES = 5000


@pytest.fixture(scope="module")
def client():
    with TestClient(make_app()) as client:
        yield client


def next_state(socket) -> dict:
    while True:
        message = socket.receive_json()
        assert message["type"] != "error", message
        if message["type"] == "state" and not message["thinking"]:
            return message


@pytest.mark.parametrize("colour", ["white", "black"])
def test_a_whole_game_against_the_random_player(client, colour):
    rng = random.Random(65)
    human = chess.WHITE if colour == "white" else chess.BLACK
    with client.websocket_connect("/ws/kriegspiel") as socket:
        socket.send_json({"type": "new", "color": colour, "opponent": "random"})
        state, refused = next_state(socket), set()      # refused: the tries refused this turn
        for _ in range(MAX_TRIES):
            if state["result"] is not None:
                break
            own = chess.Board(state["fen"])
            assert not own.occupied_co[not human], "an enemy man on the person's board"
            options = [move for move in state["tries"] if move not in refused]
            text = rng.choice(options) if options else "px"
            socket.send_json({"type": "try", "text": text})
            state = next_state(socket)
            refused = refused | {text} if state["log"][-1] == "Referee: Illegal move" else set()
        else:
            socket.send_json({"type": "resign"})
            state = next_state(socket)
        assert state["result"] is not None
        pgn = state["pgn"].replace('[Variant "Kriegspiel"]\n', "")
        game = chess.pgn.read_game(io.StringIO(pgn))
        assert not game.errors, game.errors
        final = game.end().board()
        assert final.board_fen() == chess.Board(state["full_fen"]).board_fen()
        if state["reason"] != "resignation":
            outcome = final.outcome(claim_draw=True)
            assert outcome is not None and outcome.result() == state["result"], state["reason"]


def test_bad_tries_are_errors(client):
    with client.websocket_connect("/ws/kriegspiel") as socket:
        socket.send_json({"type": "try", "text": "e2e4"})
        assert "no game" in socket.receive_json()["message"]
        socket.send_json({"type": "new", "opponent": "nobody"})
        assert socket.receive_json()["type"] == "error"
        socket.send_json({"type": "new", "color": "white", "opponent": "random"})
        state = next_state(socket)
        for text in ("Nf3", "", "e2e9", None):
            socket.send_json({"type": "try", "text": text})
            assert socket.receive_json()["type"] == "error"
        socket.send_json({"type": "try", "text": "e2e5"})       # a try, refused: only the person hears it
        refused = next_state(socket)
        assert refused["log"][-1] == "Referee: Illegal move" and refused["fen"] == state["fen"]
