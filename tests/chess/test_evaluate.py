"""Static evaluation: colour symmetry, sign convention, sanity values, endgame scaling, and the
parameter table with its file format (round trip and every kind of bad file)."""
from __future__ import annotations

import random

import chess
import pytest

from pyrope import Board
from pyrope import _core as core

import perftfile

START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"


def mirror_fen(fen: str) -> str:
    """The colour-flipped position (white and black swapped, board flipped vertically)."""
    return chess.Board(fen).mirror().fen()


def perft_fens() -> list[str]:
    # Standard-chess positions only: python-chess's mirror needs ordinary castling rights.
    positions = perftfile.load("random") + perftfile.load("tricky")
    return [p.fen for p in positions if not p.chess960]


def playout_fens(games: int = 40, plies: int = 120, seed: int = 2024) -> list[str]:
    """Positions from random games, which reach endgames the perft files lack."""
    rng = random.Random(seed)
    fens = []
    for _ in range(games):
        board = Board()
        for _ in range(plies):
            moves = board.legal_moves()
            if not moves:
                break
            board.push(rng.choice(moves))
            fens.append(board.fen())
    return fens


@pytest.fixture(autouse=True)
def default_weights():
    """Every test starts and ends with the built-in weights."""
    core.set_eval_params(core.default_eval_params())
    yield
    core.set_eval_params(core.default_eval_params())


def evaluate(fen: str) -> int:
    return Board(fen).evaluate()


def white_view(fen: str) -> int:
    board = Board(fen)
    return board.evaluate() if board.white_to_move else -board.evaluate()


# --- symmetry and sign ---------------------------------------------------------------------

def test_colour_symmetry_on_perft_positions():
    fens = perft_fens()[::8]
    assert len(fens) > 500
    broken = [(fen, evaluate(fen), evaluate(mirror_fen(fen))) for fen in fens
              if evaluate(fen) != evaluate(mirror_fen(fen))]
    assert not broken, broken[:5]


def test_colour_symmetry_on_random_playouts():
    fens = playout_fens()
    assert len(fens) > 2000
    broken = [(fen, evaluate(fen), evaluate(mirror_fen(fen))) for fen in fens
              if evaluate(fen) != evaluate(mirror_fen(fen))]
    assert not broken, broken[:5]


def test_terms_are_antisymmetric_under_mirroring():
    for fen in perft_fens()[::97]:
        terms, mirrored = Board(fen).eval_terms(), Board(mirror_fen(fen)).eval_terms()
        for name in core.TERM_NAMES:
            if name == "tempo":
                continue
            assert terms[name] == tuple(-x for x in mirrored[name]), (fen, name)
        assert terms["phase"] == mirrored["phase"]


def test_side_to_move_sign_convention():
    # A queen up for white: positive when white moves, negative when black moves.
    white_up = "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR {} KQkq - 0 1"
    assert evaluate(white_up.format("w")) > 700
    assert evaluate(white_up.format("b")) < -700
    # Changing only the side to move changes the score by the tempo bonus, from both views.
    for fen in perft_fens()[::211]:
        board = chess.Board(fen)
        if board.is_check():
            continue
        board.turn = not board.turn
        board.ep_square = None
        if board.is_check():
            continue
        terms = Board(fen).eval_terms()
        assert abs(white_view(fen) - white_view(board.fen())) <= 2 * max(core.eval_params()["tempo_mg"],
                                                                          core.eval_params()["tempo_eg"]) + 2
        assert terms["score"] == evaluate(fen)


def test_terms_add_up_to_the_score():
    for fen in perft_fens()[::53]:
        board = Board(fen)
        terms = board.eval_terms()
        mg = sum(terms[name][0] for name in core.TERM_NAMES)
        eg = sum(terms[name][1] for name in core.TERM_NAMES)
        phase, scale = terms["phase"], terms["scale"]
        expected = 0 if scale == 0 else int((mg * phase + int(eg * scale / 64) * (24 - phase)) / 24)
        assert terms["score"] == (expected if board.white_to_move else -expected), fen


# --- sanity ----------------------------------------------------------------------------------

def test_start_position_is_level_but_for_the_tempo():
    params = core.eval_params()
    assert abs(evaluate(START)) <= max(params["tempo_mg"], params["tempo_eg"])
    # The position is symmetric, so whoever is to move is ahead by exactly the tempo bonus.
    assert evaluate(START) == evaluate(START.replace(" w ", " b ")) > 0


@pytest.mark.parametrize("fen", [
    "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR b KQkq - 0 1",
    "4k3/8/8/8/8/8/8/3QK3 w - - 0 1",
])
def test_a_queen_up_is_winning(fen):
    assert evaluate(fen) > 700


@pytest.mark.parametrize("fen", [
    "8/8/4k3/8/8/3NK3/8/8 w - - 0 1",        # KNK
    "8/8/4k3/8/8/3BK3/8/8 b - - 0 1",        # KBK
    "8/8/4k3/8/8/2NNK3/8/8 w - - 0 1",       # KNNK
    "8/8/4k3/3n4/8/3BK3/8/8 w - - 0 1",      # KBKN
    "7k/8/8/8/7P/8/8/1B2K3 w - - 0 1",       # KBPK, wrong bishop, king in the corner
    "k7/8/1K6/8/8/8/8/8 w - - 0 1",          # bare kings
])
def test_drawn_material_evaluates_as_zero(fen):
    assert abs(evaluate(fen)) <= 5
    assert Board(fen).eval_terms()["scale"] == 0 or abs(evaluate(fen)) <= 5


def test_right_bishop_rook_pawn_is_not_a_draw():
    assert evaluate("7k/8/8/8/7P/8/8/2B1K3 w - - 0 1") > 200


def test_rook_versus_minor_without_pawns_is_scaled_down():
    """It is rarely won: at most a quarter of the score is kept (64 is no scaling)."""
    terms = Board("8/8/4k3/3n4/8/3RK3/8/8 w - - 0 1").eval_terms()
    assert terms["scale"] <= 16


def test_opposite_bishops_scale_an_extra_pawn_down():
    same = "8/5b2/4k3/2P5/1P6/3BK3/8/8 w - - 0 1"      # bishops on light squares
    opposite = "8/5b2/4k3/2P5/1P6/4K3/8/2B5 w - - 0 1"  # white bishop dark-squared
    assert Board(opposite).eval_terms()["scale"] < 64
    assert Board(same).eval_terms()["scale"] == 64
    assert 0 < evaluate(opposite) < evaluate(same) / 2


def test_unstoppable_passer_against_a_bare_king():
    # The black king is outside the pawn's square: white queens by force.
    outside = "8/8/8/8/P7/8/6k1/4K3 w - - 0 1"
    inside = "8/8/8/2k5/P7/8/8/4K3 w - - 0 1"
    assert Board(outside).eval_terms()["passed"][1] - Board(inside).eval_terms()["passed"][1] \
        >= core.eval_params()["unstoppable_passer_eg"]


def test_pawn_table_follows_parameter_changes():
    fen = "4k3/pp3ppp/8/8/8/8/PP1P1PPP/4K3 w - - 0 1"   # white has an isolated d-pawn
    before = evaluate(fen)
    core.set_eval_params({"isolated_pawn_mg": -200, "isolated_pawn_eg": -200})
    assert evaluate(fen) < before - 100


def test_evaluation_runs_in_parallel_threads_without_the_gil():
    # Each call evaluates without the GIL using its own pawn table; concurrent runs must agree
    # with a sequential one (and with Board.evaluate, which uses the Python-side table).
    import threading

    fens = perft_fens()[::10]
    expected = core.eval_speed(fens, 3, 10)[3]
    assert expected == 3 * sum(evaluate(fen) for fen in fens)
    results = []
    threads = [threading.Thread(target=lambda: results.append(core.eval_speed(fens, 3, 8)[3]))
               for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


# --- parameter table and files ---------------------------------------------------------------

def test_parameter_names_are_unique_and_cover_the_groups():
    names = core.eval_param_names()
    assert len(names) == len(set(names))
    for name in ("pawn_value_mg", "queen_value_eg", "pst_knight_mg_e4", "pst_king_eg_h8",
                 "knight_mobility_mg_3", "queen_mobility_eg_27", "passed_pawn_eg_7",
                 "king_attack_weight_queen", "scale_opposite_bishops", "tempo_mg"):
        assert name in names
    assert set(core.eval_params()) == set(names)


def test_default_material_and_tables_keep_their_shape():
    # The defaults are PeSTO's tables retuned (Texel); what must hold is their order
    # of piece values and that central knights beat cornered ones, not particular numbers.
    params = core.default_eval_params()
    for phase in ("mg", "eg"):
        values = [params[f"{piece}_value_{phase}"] for piece in ("pawn", "knight", "bishop", "rook", "queen")]
        assert values[0] < min(values[1:3]) and max(values[1:3]) < values[3] < values[4]
        assert params[f"pst_knight_{phase}_e4"] > params[f"pst_knight_{phase}_a1"]


def test_set_eval_params_rejects_bad_input_and_keeps_weights():
    before = core.eval_params()
    with pytest.raises(ValueError, match="no_such_weight"):
        core.set_eval_params({"tempo_mg": 5, "no_such_weight": 1})
    with pytest.raises(ValueError, match="tempo_eg"):
        core.set_eval_params({"tempo_eg": 1.5})
    assert core.eval_params() == before


def test_parameter_file_round_trip(tmp_path):
    path = tmp_path / "weights.txt"
    core.set_eval_params({"tempo_mg": 33, "pst_queen_eg_d5": -7})
    changed = core.eval_params()
    core.save_eval_params(path)
    core.set_eval_params(core.default_eval_params())
    core.load_eval_params(path)
    assert core.eval_params() == changed
    second = tmp_path / "again.txt"
    core.save_eval_params(second)
    assert second.read_text() == path.read_text()


def test_parameter_file_accepts_comments_and_blank_lines(tmp_path):
    path = tmp_path / "weights.txt"
    core.save_eval_params(path)
    lines = path.read_text().splitlines()
    text = "\n".join(["# tuned", ""] + [line + "   # why not" for line in lines[1:]]) + "\n"
    path.write_text(text.replace(f"tempo_mg = {core.eval_params()['tempo_mg']}", "tempo_mg = -4"))
    core.load_eval_params(path)
    assert core.eval_params()["tempo_mg"] == -4


def _bad_file(tmp_path, edit):
    path = tmp_path / "bad.txt"
    core.save_eval_params(path)
    lines = path.read_text().splitlines()
    path.write_text("\n".join(edit(lines)) + "\n")
    return path


def _replace(name, new_line):
    def edit(lines):
        return [new_line if line.split(" = ")[0] == name else line for line in lines]
    return edit


def _line_of(path, text):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


@pytest.mark.parametrize("case, edit, marker, parameter", [
    ("malformed", _replace("bishop_pair_mg", "bishop_pair_mg 30"), "bishop_pair_mg 30", "bishop_pair_mg"),
    ("unknown", _replace("rook_seventh_eg", "rook_on_eighth_eg = 5"), "rook_on_eighth_eg", "rook_on_eighth_eg"),
    ("non-integer", _replace("hanging_mg", "hanging_mg = 2.5"), "hanging_mg", "hanging_mg"),
    ("non-integer word", _replace("tempo_eg", "tempo_eg = ten"), "tempo_eg", "tempo_eg"),
    ("non-integer underscores", _replace("tempo_eg", "tempo_eg = 1_0"), "tempo_eg", "tempo_eg"),
    ("empty value", _replace("bishop_pair_eg", "bishop_pair_eg ="), "bishop_pair_eg", "bishop_pair_eg"),
    ("duplicate", lambda lines: lines + ["tempo_mg = 1"], None, "tempo_mg"),
])
def test_bad_parameter_file_names_line_and_parameter(tmp_path, case, edit, marker, parameter):
    core.set_eval_params({"tempo_mg": 21})
    before = core.eval_params()
    path = _bad_file(tmp_path, edit)
    lineno = _line_of(path, marker) if marker else len(path.read_text().splitlines())
    with pytest.raises(core.ParamFileError) as info:
        core.load_eval_params(path)
    message = str(info.value)
    assert str(path) in message and f":{lineno}:" in message and parameter in message, message
    assert core.eval_params() == before


def test_parameter_file_missing_a_name(tmp_path):
    before = core.eval_params()
    path = _bad_file(tmp_path, lambda lines: [line for line in lines if not line.startswith("knight_outpost_eg")])
    with pytest.raises(core.ParamFileError) as info:
        core.load_eval_params(path)
    message = str(info.value)
    assert str(path) in message and "knight_outpost_eg" in message and "missing" in message
    assert f":{len(path.read_text().splitlines())}:" in message
    assert core.eval_params() == before


def test_missing_parameter_file(tmp_path):
    before = core.eval_params()
    path = tmp_path / "nowhere.txt"
    with pytest.raises(core.ParamFileError, match="nowhere.txt"):
        core.load_eval_params(path)
    assert isinstance(core.ParamFileError("x"), ValueError)
    assert core.eval_params() == before


def test_errors_leave_evaluation_unchanged(tmp_path):
    fen = perft_fens()[7]
    score = evaluate(fen)
    path = _bad_file(tmp_path, lambda lines: [line.replace(" = ", " = 1") for line in lines[:-1]] + ["oops"])
    with pytest.raises(core.ParamFileError):
        core.load_eval_params(path)
    assert evaluate(fen) == score
