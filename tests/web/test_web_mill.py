"""The Mill page's socket through Starlette's TestClient: a whole game against the engine, every
state's legal turns and the final result compared with the Mill referee written from the rules
(pyrope.mill.reference, which shares nothing with the core); bad turns answered with an error."""
from __future__ import annotations

import dataclasses
import random

import pytest

pytest.importorskip("starlette", reason="needs the web extra: pip install '.[web]'")
pytest.importorskip("httpx", reason="Starlette's TestClient needs httpx: pip install httpx")

from starlette.testclient import TestClient  # noqa: E402

from mill_reference import Referee, parse_turn  # noqa: E402
from pyrope.mill.rules import VARIANTS  # noqa: E402
from pyrope.web.app import make_app  # noqa: E402


@pytest.fixture(scope="module")
def client():
    with TestClient(make_app()) as client:
        yield client


def next_state(socket, condition) -> dict:
    while True:
        message = socket.receive_json()
        if message["type"] == "state" and condition(message):
            return message


def settled(state: dict) -> bool:
    return bool(state["legal"]) or state["result"] is not None


@pytest.mark.parametrize("variant", ["nine", "morabaraba"])
def test_a_whole_game_against_the_engine_checked_by_the_referee(client, variant):
    rng = random.Random(65)
    with client.websocket_connect("/ws/mill") as socket:
        socket.send_json({"type": "new", "color": "white", "variant": variant, "nodes": 300})
        state = next_state(socket, settled)
        for _ in range(400):
            referee = Referee(dataclasses.asdict(VARIANTS[variant]))
            for turn in state["turns"]:
                assert parse_turn(turn) in referee.turns(), f"{turn} is illegal after {state['turns']}"
                referee.play(parse_turn(turn))
            assert referee.fen() == state["fen"]
            if state["result"] is not None:
                break
            assert {parse_turn(turn) for turn in state["legal"]} == referee.turns()
            socket.send_json({"type": "move", "turn": rng.choice(state["legal"])})
            played = len(state["turns"]) + 1
            state = next_state(socket, lambda s: len(s["turns"]) >= played and settled(s))
        assert state["result"] is not None, "no result in 400 turns"
        assert referee.outcome()[0] == state["result"]


def test_bad_turns_are_errors_and_change_nothing(client):
    with client.websocket_connect("/ws/mill") as socket:
        socket.send_json({"type": "new", "variant": "chess", "nodes": 10})
        assert socket.receive_json()["type"] == "error"
        socket.send_json({"type": "new", "color": "white", "nodes": 100})
        state = next_state(socket, settled)
        for message in ({"type": "move", "turn": "z9"}, {"type": "move", "turn": "d6-d5"}, {"type": "takeback"},
                        {"type": "move"}):
            socket.send_json(message)
            assert socket.receive_json()["type"] == "error"
        socket.send_json({"type": "move", "turn": "d6"})
        after = next_state(socket, lambda s: len(s["turns"]) == 2)
        assert after["turns"][0] == "d6" and state["turns"] == [] and after["stones"]["d6"] == "white"
        socket.send_json({"type": "takeback"})
        back = next_state(socket, lambda s: s["turns"] == [])
        assert back["fen"] == state["fen"] and back["legal"] == state["legal"]


def test_a_game_from_a_fen_and_a_resignation(client):
    """A set-up position, Black to move, the person White: Pyrope moves first, the turns replay in
    the referee from that FEN; a FEN the rules refuse or one whose game is over is an error and the
    game stays; a resignation ends it, and nothing more is taken."""
    fen = "..O/.../..@/O...../@@./@../O.@ b 0 0 0 0 20"      # no mill Black can close in one turn
    with client.websocket_connect("/ws/mill") as socket:
        socket.send_json({"type": "new", "color": "white", "fen": fen, "nodes": 300})
        state = next_state(socket, settled)
        assert state["start_fen"] == fen and len(state["turns"]) == 1 and state["result"] is None
        referee = Referee.from_fen(dataclasses.asdict(VARIANTS["nine"]), fen)
        referee.play(parse_turn(state["turns"][0]))
        assert referee.fen() == state["fen"] and {parse_turn(turn) for turn in state["legal"]} == referee.turns()
        for bad, said in (("..O/.../..@/O...@./@../@@./O..", "7 fields"), ("OOO/OOO/OOO/OOOO@@/@@@/@@@/@@@ w 0 0 0 0 1", "fen"),
                          ("O../.../.../....../.../.../@.. w 0 0 0 0 40", "over"), (5, "Mill FEN string")):
            socket.send_json({"type": "new", "fen": bad, "nodes": 10})
            error = socket.receive_json()
            assert error["type"] == "error" and said in error["message"], (bad, error)
        socket.send_json({"type": "resign"})
        over = next_state(socket, lambda s: s["result"] is not None)
        assert over["result"] == "0-1" and over["reason"] == "resignation" and over["turns"] == state["turns"]
        for message in ({"type": "move", "turn": state["legal"][0]}, {"type": "resign"}, {"type": "takeback"}):
            socket.send_json(message)
            assert "over" in socket.receive_json()["message"]


def test_the_perfect_databases_verdict_is_shown_where_they_hold_the_position(client):
    """Three men each (class 3-3, shipped): the side to move flies into a mill and wins in one turn
    -- the reference referee finds that turn -- and the state says so, as White's result; the
    start position, which no database holds, has no verdict."""
    rules = dataclasses.asdict(VARIANTS["nine"])
    with client.websocket_connect("/ws/mill") as socket:
        socket.send_json({"type": "new", "color": "white", "nodes": 100})
        assert next_state(socket, settled)["database"] is None
        for colour, side, result in (("white", "w", "1-0"), ("black", "b", "0-1")):
            fen = f"..O/.../..@/O...../.../@@./O.. {side} 0 0 0 0 20"
            socket.send_json({"type": "new", "color": colour, "fen": fen, "nodes": 100})
            state = next_state(socket, settled)
            assert state["database"] == {"result": result, "turns": 1}
            referee = Referee.from_fen(rules, fen)
            ends = []
            for turn in referee.turns():
                saved = referee.save()
                referee.play(turn)
                ends.append(referee.outcome()[0])
                referee.restore(saved)
            assert result in ends
