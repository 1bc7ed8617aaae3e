"""The opponent model (pyrope.kriegspiel.opponent, issue 64 item 3): counted from the referee's full
games, its counts agree with python-chess reading the same PGN as ordinary chess; its file round-trips
and a bad one is named; given to a metaposition it draws a moving enemy man to the squares the
model's men gained at that move, where without it every reachable square is alike; and players
take it as model=FILE in a match, whose journal fingerprints the file."""
from __future__ import annotations

import argparse
import io
import json
import subprocess
from array import array

import chess
import chess.pgn
import pytest

from engine_command import PYROPE
from pyrope.console import InputError
from pyrope.kriegspiel import command
from pyrope.kriegspiel.metaposition import Metaposition
from pyrope.kriegspiel.opponent import OpponentModel
from pyrope.kriegspiel.pgn import PgnReader
from pyrope.kriegspiel.referee import Announcement


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """Four full games of a random and a semi-random player, from the standard start and from a start at move 5."""
    path = tmp_path_factory.mktemp("games") / "games.pgn"
    for fen, seed in ((chess.STARTING_FEN, "3"), ("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 4 5", "4")):
        result = subprocess.run([PYROPE, "kriegspiel", "match", "--white", "random", "--black", "semi-random",
                                 "--games", "2", "--seed", seed, "--fen", fen, "--pgn", str(path), "--quiet"],
                                capture_output=True, text=True, timeout=120, stdin=subprocess.DEVNULL)
        assert result.returncode == 0, result.stderr
    return path


def chess_counts(path, horizon, player=None):
    """The independent count: python-chess reads the PGN as chess (its Variant tag dropped, which
    python-chess does not know); for each colour and moves made, the men of each type on each
    square summed, and how many positions were summed; with `player`, only that player's sides."""
    sums, seen = {}, {}
    text = "\n".join(line for line in path.read_text().splitlines() if not line.startswith("[Variant "))
    with io.StringIO(text) as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            sides = {color for color, tag in ((chess.WHITE, "White"), (chess.BLACK, "Black"))
                     if player in (None, game.headers[tag])}
            board = game.board()
            fullmove = board.fullmove_number
            made = {chess.WHITE: fullmove - 1 if board.turn == chess.WHITE else fullmove, chess.BLACK: fullmove - 1}
            snapshots = [(color, made[color], board.copy()) for color in chess.COLORS]
            for move in game.mainline_moves():
                mover = board.turn
                board.push(move)
                made[mover] += 1
                snapshots.append((mover, made[mover], board.copy()))
            for color, moves, position in snapshots:
                if moves > horizon or color not in sides:
                    continue
                seen[color, moves] = seen.get((color, moves), 0) + 1
                for square, piece in position.piece_map().items():
                    if piece.color == color:
                        key = (color, moves, piece.piece_type, square)
                        sums[key] = sums.get(key, 0) + 1
    return sums, seen


@pytest.mark.parametrize("player", [None, "semi-random"])
def test_the_counts_agree_with_python_chess(games, player):
    with open(games) as handle:
        model = OpponentModel.count(PgnReader(handle), horizon=12, players=None if player is None else {player})
    assert model.games == 4
    sums, seen = chess_counts(games, 12, player)
    assert (chess.BLACK, 4) in seen and (chess.WHITE, 0) in seen and (chess.WHITE, 12) in seen
    if player is not None:
        # The colours alternate, so the semi-random player's sides are Black in two games and
        # White in two; the model holds its men alone, 16 at the start, not both players' 32.
        assert seen[chess.WHITE, 0] == seen[chess.BLACK, 0] == 1
        assert sum(model.men(chess.WHITE, 0, t, square) for t in chess.PIECE_TYPES for square in chess.SQUARES) == 16
    for color in chess.COLORS:
        for moves in range(13):
            for piece_type in chess.PIECE_TYPES:
                for square in chess.SQUARES:
                    expected = sums.get((color, moves, piece_type, square), 0) / seen[color, moves] \
                        if (color, moves) in seen else 0.0
                    assert model.men(color, moves, piece_type, square) == pytest.approx(expected, abs=1e-6)


def test_the_file_round_trips_and_a_bad_one_is_named(games, tmp_path):
    with open(games) as handle:
        model = OpponentModel.count(PgnReader(handle), horizon=5)
    model.write(str(tmp_path / "model"))
    again = OpponentModel.read(str(tmp_path / "model"))
    assert (again.games, again.horizon, list(again.values)) == (4, 5, list(model.values))
    data = (tmp_path / "model").read_bytes()
    (tmp_path / "short").write_bytes(data[:-4])
    (tmp_path / "other").write_bytes(b"not a model at all")
    with pytest.raises(InputError, match="short: an opponent model of 5 moves holds 4608 values, not 4607"):
        OpponentModel.read(str(tmp_path / "short"))
    with pytest.raises(InputError, match="other is not a Pyrope Kriegspiel opponent model"):
        OpponentModel.read(str(tmp_path / "other"))


def knight_model():
    """Black's knights start on b8 and g8 and, at Black's first move, g8's goes to f6."""
    model = OpponentModel(1, 2, array("f", [0.0] * (2 * 3 * 6 * 64)))
    row = lambda moves, square: ((3 + moves) * 6 + chess.KNIGHT - 1) * 64 + square
    for moves, squares in ((0, (chess.B8, chess.G8)), (1, (chess.B8, chess.F6)), (2, (chess.B8, chess.F6))):
        for square in squares:
            model.values[row(moves, square)] = 1.0
    return model


def knight_density(model, fen=chess.STARTING_FEN):
    """The density of Black's knights after White's e2e4 and Black's unseen move that follows."""
    meta = Metaposition(fen, chess.WHITE, model)
    meta.hear(Announcement(chess.WHITE, None, (), 0, None))
    meta.played(chess.Move.from_uci("e2e4"))
    meta.hear(Announcement(chess.BLACK, None, (), 0, None))
    meta.hear(Announcement(chess.WHITE, None, (), 0, None))
    return meta.core.density()[chess.KNIGHT - 1]


def test_the_model_draws_a_moving_man_where_its_men_went():
    plain, modelled = knight_density(None), knight_density(knight_model())
    assert plain[chess.F6] == pytest.approx(plain[chess.H6]) and plain[chess.F6] > 0
    # The same mass leaves g8 either way; with the model f6 takes 1.05 parts of it to h6's 0.05.
    assert modelled[chess.G8] == pytest.approx(plain[chess.G8])
    assert modelled[chess.F6] == pytest.approx(21 * modelled[chess.H6])
    assert modelled[chess.F6] + modelled[chess.H6] == pytest.approx(plain[chess.F6] + plain[chess.H6])
    assert sum(modelled) == pytest.approx(sum(plain)) == pytest.approx(2.0)


def test_a_model_past_its_horizon_leaves_the_spread_even():
    # Black has made 2 moves: its third is past the model's horizon, 2.
    fen = "rnbqkb1r/pppppppp/5n2/8/8/5N2/PPPPPPPP/RNBQKB1R w KQkq - 2 3"
    assert knight_density(knight_model(), fen) == knight_density(None, fen)


def run_match(capsys, *words):
    parser = argparse.ArgumentParser()
    command.add_arguments(parser)
    code = command.run(parser.parse_args(["match", "--quiet", *words]))
    return code, *capsys.readouterr()


def test_players_take_a_model_in_a_match(games, tmp_path, capsys):
    model = tmp_path / "model"
    result = subprocess.run([PYROPE, "kriegspiel", "model", str(games), "--out", str(model), "--horizon", "10"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "4 games, 10 moves a side" in result.stdout, result.stderr
    provenance = json.loads((tmp_path / "model.json").read_text())
    assert provenance["games"] == 4 and provenance["sources"][0]["file"] == str(games)
    assert provenance["players"] == "every side"
    result = subprocess.run([PYROPE, "kriegspiel", "model", str(games), "--out", str(tmp_path / "none"),
                             "--player", "maximax"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 2 and f"no games played by maximax in {games}" in result.stderr
    code, out, err = run_match(capsys, "--white", "maximax", f"model={model}", "positions=200", "--black", "random",
                               "--games", "2", "--seed", "1", "--resume", str(tmp_path / "j.jsonl"))
    assert code == 0 and "Games: 2 of 2 played" in out, err
    header = json.loads((tmp_path / "j.jsonl").read_text().splitlines()[0])
    assert header["player list"][0]["model"]["file"] == str(model) and "model" not in header["player list"][1]
    assert run_match(capsys, "--white", "random", f"model={model}", "--black", "random")[0] == 2
    code, out, err = run_match(capsys, "--white", "mcts", f"model={games}", "--black", "random")
    assert code == 2 and "is not a Pyrope Kriegspiel opponent model" in err
