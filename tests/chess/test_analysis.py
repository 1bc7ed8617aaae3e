"""`pyrope analyse` and the review behind it (pyrope.analysis): the moves a game's known blunders are
marked, the better move is the one python-chess says mates, the annotated PGN reads back in
python-chess, the thresholds mark what they say, and bad input is exit 2.

The references are python-chess's rules (which move mates, what a legal game is) and the
thresholds' own definition; node-limited searches with one thread make every review repeatable."""
from __future__ import annotations

import importlib.util
import io

import chess
import chess.pgn
import pytest

from pyrope.analysis.review import Evaluation, Reviewer, verdict
from pyrope.cli import main
from pyrope.play.result import Score

# 3...Nf6?? lets 4.Qxf7# in; 4.Qf3?? misses it.
MISSED_MATE = '[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6 4. Qf3 Bc5 *\n'
# 2.g4?? walks into 2...Qh4#, which ends the game.
FOOLS_MATE = '[Result "0-1"]\n\n1. f3 e5 2. g4 Qh4# 0-1\n'
# Chess960: the king on f1 and the rook on g1 castle at once.
CHESS960 = ('[Variant "Chess960"]\n[SetUp "1"]\n[FEN "nrbbqkrn/pppppppp/8/8/8/8/PPPPPPPP/NRBBQKRN w GBgb - 0 1"]\n'
            '[Result "*"]\n\n1. O-O O-O 2. d4 d5 *\n')
# Morphy's Opera Game from 16.Qb8+: Black's one move, 16...Nxb8, is met by 17.Rd8#.
OPERA_FINISH = ('[SetUp "1"]\n[FEN "4kb1r/p2n1ppp/4q3/4p1B1/4P3/1Q6/PPP2PPP/2KR4 w k - 0 16"]\n[Result "1-0"]\n\n'
                '16. Qb8+ Nxb8 17. Rd8# 1-0\n')
NODES = 3000


def review(text: str):
    return Reviewer(nodes=NODES).review(chess.pgn.read_game(io.StringIO(text)))


def test_a_mate_in_one_allowed_and_then_missed_are_both_blunders():
    moves = {move.san: move for move in review(MISSED_MATE).moves}
    allowed, missed = moves["Nf6"], moves["Qf3"]
    assert allowed.verdict == missed.verdict == "blunder"
    board = chess.Board()
    for san in "e4 e5 Bc4 Nc6 Qh5 Nf6".split():
        board.push_san(san)
    board.push_san(missed.best_san)
    assert missed.best_san == "Qxf7#" and board.is_checkmate()
    assert allowed.best_san != "Nf6" and allowed.expected_after == 0.0 and missed.expected_before == 1.0


def test_the_mate_that_ends_the_game_is_not_searched_and_not_marked():
    result = review(FOOLS_MATE)
    g4, mate = result.moves[2], result.moves[3]
    assert g4.san == "g4" and g4.verdict == "blunder"
    assert mate.san == "Qh4#" and mate.verdict is None and mate.after == Evaluation(Score(mate=0), [])
    assert result.white_expected()[-1] == 0.0


def test_a_position_with_one_legal_move_is_worth_what_follows_it():
    """A timed search stops at once on a forced move (16...Nxb8); the review looks past it, so the
    position after 16.Qb8+ is lost for Black, as python-chess's 17.Rd8# shows (a search of 100 ms,
    less Move Overhead, finds a mate in one even on a loaded machine)."""
    game = chess.pgn.read_game(io.StringIO(OPERA_FINISH))
    board = game.board()
    board.push_san("Qb8+")
    assert board.legal_moves.count() == 1
    result = Reviewer(movetime_ms=100).review(game)
    forced = result.moves[1]
    assert forced.before.score.mate == -1 and forced.before.line[:2] == ["d7b8", "d1d8"]
    assert result.white_expected()[1:] == [1.0, 1.0, 1.0]      # the first position's mate in 2 may need more time


def test_a_chess960_game_is_reviewed_with_its_castling():
    result = review(CHESS960)
    assert [move.san for move in result.moves] == ["O-O", "O-O", "d4", "d5"]
    board = chess.pgn.read_game(io.StringIO(CHESS960)).board()
    for move in result.moves:       # every better move is legal where it was offered
        assert board.parse_san(move.best_san) in board.legal_moves
        board.push(move.move)


@pytest.mark.parametrize("cost, expected", [(0.5, "blunder"), (0.15, "blunder"), (0.149, "mistake"),
                                            (0.10, "mistake"), (0.099, "inaccuracy"), (0.05, "inaccuracy"),
                                            (0.049, None), (0.0, None)])
def test_the_thresholds_mark_what_they_say(cost, expected):
    level = Evaluation(Score(cp=0), [])
    assert verdict(cost, level, level) == expected


def test_a_forced_mate_thrown_away_is_an_inaccuracy_even_when_the_game_stays_won():
    mate, still_won, mated = Evaluation(Score(mate=3), []), Evaluation(Score(cp=-2000), []), Evaluation(Score(mate=-2), [])
    assert verdict(0.001, mate, still_won) == "inaccuracy"      # after: the opponent to move, far behind
    assert verdict(0.0, mate, mated) is None                    # the mate kept: the opponent is mated


def test_the_command_writes_an_annotated_pgn_that_python_chess_reads(tmp_path, capsys):
    (tmp_path / "game.pgn").write_text(MISSED_MATE)
    out = tmp_path / "annotated.pgn"
    assert main(["--no-progress", "analyse", str(tmp_path / "game.pgn"), "--nodes", str(NODES), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "3... Nf6?? blunder" in printed and "4. Qf3?? blunder" in printed and "Qxf7# was best" in printed
    game = chess.pgn.read_game(io.StringIO(out.read_text()))
    assert not game.errors and game.headers["Annotator"].startswith("Pyrope")
    nodes = list(game.mainline())
    assert [node.san() for node in nodes] == "e4 e5 Bc4 Nc6 Qh5 Nf6 Qf3 Bc5".split()
    assert all(node.eval() is not None for node in nodes)
    by_san = {node.san(): node for node in nodes}
    assert chess.pgn.NAG_BLUNDER in by_san["Nf6"].nags and chess.pgn.NAG_BLUNDER in by_san["Qf3"].nags
    better = by_san["Qf3"].parent.variations[1]         # the better line follows the move played
    assert better.san() == "Qxf7#" and better.board().is_checkmate()
    assert by_san["Nf6"].eval().white().mate() == 1     # after 3...Nf6 White mates in one


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="--plot needs matplotlib: pip install '.[analyse]'")
def test_the_plot_is_an_image_of_the_game(tmp_path):
    import matplotlib.image
    (tmp_path / "game.pgn").write_text(FOOLS_MATE)
    image = tmp_path / "graph.png"
    assert main(["--no-progress", "analyse", str(tmp_path / "game.pgn"), "--nodes", "500", "--plot", str(image)]) == 0
    height, width, _ = matplotlib.image.imread(image).shape
    assert width > height > 100


@pytest.mark.parametrize("text, words", [
    ("1. e4 e5 2. Ke3 *\n", "illegal san: 'Ke3'"),
    ('[Variant "Crazyhouse"]\n\n1. e4 e5 *\n', "cannot be analysed"),
    ('[Result "*"]\n\n*\n', "no moves"),
    ("\n\n", "no PGN game"),
])
def test_a_game_that_cannot_be_reviewed_is_bad_input(tmp_path, capsys, text, words):
    (tmp_path / "game.pgn").write_text(text)
    assert main(["--no-progress", "analyse", str(tmp_path / "game.pgn"), "--nodes", "100"]) == 2
    error = capsys.readouterr().err
    assert error.startswith("pyrope analyse: ") and words in error and "Traceback" not in error


def test_plot_of_several_games_asks_for_one(tmp_path, capsys):
    (tmp_path / "games.pgn").write_text(FOOLS_MATE + "\n" + FOOLS_MATE)
    assert main(["analyse", str(tmp_path / "games.pgn"), "--plot", str(tmp_path / "g.png")]) == 2
    assert "--game N" in capsys.readouterr().err
