"""The checks the GUI tests apply to what a GUI saved, tried on games and logs made up here (no GUI
needed): each fault they exist to catch is caught, and a sound game passes."""
from __future__ import annotations

import io

import chess.pgn

from gui_games import problems, reason_of
from xboard_gui import XboardMatch

FOOLS_MATE = "1. f3 e5 2. g4 Qh4#"


def game(moves: str, result: str, white: str = "Pyrope 0.1.0", black: str = "Fairy-Max 5.0b") -> chess.pgn.Game:
    text = f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n{moves} {result}\n'
    return chess.pgn.read_game(io.StringIO(text))


def test_a_mate_with_the_right_result_passes():
    finished = game(FOOLS_MATE + " {Xboard adjudication: Checkmate}", "0-1")
    assert reason_of(finished) == "Xboard adjudication: Checkmate"
    assert problems(finished, "Pyrope", reason_of(finished)) == []


def test_a_mate_with_the_wrong_result_is_caught():
    assert problems(game(FOOLS_MATE, "1-0"), "Pyrope", "White mates")


def test_an_illegal_move_is_caught():
    assert any("illegal" in problem for problem in problems(game("1. e4 e5 2. Ke3", "1-0"), "Pyrope", "Black resigns"))


def test_an_unfinished_game_is_caught():
    assert problems(game("1. e4 e5", "*"), "Pyrope", "")


def test_a_loss_on_time_counts_against_pyrope_only():
    assert problems(game("1. e4 e5 {White wins on time}", "0-1"), "Pyrope", "Black wins on time")
    assert problems(game("1. e4 e5 {White wins on time}", "1-0"), "Pyrope", "White wins on time") == []


def test_a_result_without_a_reason_the_board_supports_is_caught():
    assert problems(game("1. e4 e5", "1-0"), "Pyrope", "")
    assert problems(game("1. e4 e5", "1/2-1/2"), "Pyrope", "")
    assert problems(game("1. e4 e5", "1-0"), "Pyrope", "WHITE_ENGINE_DIED")
    assert problems(game("1. e4 e5", "1-0"), "Pyrope", "Black resigns") == []
    assert problems(game("1. e4 e5", "1/2-1/2"), "Pyrope", "Draw agreed") == []


def test_engine_errors_in_xboards_debug_log_are_found(tmp_path):
    match = XboardMatch(tmp_path, "uci")
    match.debug_log.write_text("100 <first : move e2e4\n"
                               "101 <second: Error (unknown command): computer\n"
                               "102 <first : Error (bad): egtpath syzygy /x\n"
                               "103 <first : Illegal move (no such piece): e3e4\n")
    match.adapter_log.write_text("1.0 Engine->Adapter: info depth 1\n"
                                 "1.1 Engine->Adapter: info string error: unknown command\n")
    assert match.moves_logged() == 1
    assert len(match.engine_errors()) == 3      # the opponent's own error is not Pyrope's
