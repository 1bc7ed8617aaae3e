"""A review written out: the game as annotated PGN (python-chess's `[%eval]` comments on every move,
NAGs ?!, ? and ?? on the marked ones, each with a sentence and the better line as a variation), the
summary a person reads at the terminal, and the graph of White's expected score over the game."""
from __future__ import annotations

import copy
from pathlib import Path

import chess
import chess.engine
import chess.pgn

from .. import __version__
from ..play.result import Score
from .review import MoveReview, Review

NAGS = {"inaccuracy": chess.pgn.NAG_DUBIOUS_MOVE, "mistake": chess.pgn.NAG_MISTAKE, "blunder": chess.pgn.NAG_BLUNDER}
SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
PLURALS = {"inaccuracy": "inaccuracies", "mistake": "mistakes", "blunder": "blunders"}
VARIATION_PLIES = 8         # how much of the better line a marked move's variation shows


def pov_score(score: Score, turn: chess.Color) -> chess.engine.PovScore:
    """A score for the side to move (`turn`) as python-chess's PovScore."""
    value = chess.engine.Mate(score.mate) if score.mate is not None else chess.engine.Cp(score.cp)
    return chess.engine.PovScore(value, turn)


def annotated(review: Review) -> chess.pgn.Game:
    """A copy of the reviewed game with the review's evaluations, marks and better lines."""
    game = copy.deepcopy(review.game)
    game.headers["Annotator"] = f"Pyrope {__version__}, {review.limit} a position"
    node = game
    for move in review.moves:
        node = node.next()
        turn = not move.white       # to move after it
        node.set_eval(pov_score(move.after.score, turn), move.after.depth or None)
        if move.verdict is None:
            continue
        node.nags.add(NAGS[move.verdict])
        node.comment = f"{move.verdict.capitalize()} (expected score {percent(move.expected_before)} -> " \
                       f"{percent(move.expected_after)}). {move.best_san} was best. {node.comment}".rstrip()
        board, variation = node.parent.board(), node.parent
        for index, uci in enumerate(move.before.line[:VARIATION_PLIES]):
            played = board.parse_uci(uci)
            variation = variation.add_variation(played) if index == 0 else variation.add_main_variation(played)
            board.push(played)
    return game


def write_pgn(games: list[chess.pgn.Game], path: Path) -> None:
    with open(path, "w", encoding="utf-8") as out:
        for game in games:
            print(game, file=out, end="\n\n")


def percent(expected: float) -> str:
    return f"{100 * expected:.0f}%"


def move_number(move: MoveReview) -> str:
    number = (move.ply + 1) // 2
    return f"{number}." if move.white else f"{number}..."


def summary(review: Review) -> list[str]:
    """Per side: the marks, the average cost; then every marked move with the better one."""
    headers = review.game.headers
    lines = []
    for white, name in ((True, headers.get("White", "?")), (False, headers.get("Black", "?"))):
        moves = [move for move in review.moves if move.white == white]
        counts = {verdict: sum(move.verdict == verdict for move in moves) for verdict in SYMBOLS}
        average = 100 * sum(move.cost for move in moves) / max(len(moves), 1)
        marks = ", ".join(f"{count} {verdict if count == 1 else PLURALS[verdict]}" for verdict, count in counts.items())
        lines.append(f"{'White' if white else 'Black'} ({name}): {marks}; average cost {average:.1f}% a move")
    for move in review.moves:
        if move.verdict is not None:
            lines.append(f"  {move_number(move)} {move.san}{SYMBOLS[move.verdict]} {move.verdict}: "
                         f"{percent(move.expected_before)} -> {percent(move.expected_after)}; {move.best_san} was best")
    return lines


def plot(review: Review, path: Path) -> None:
    """White's expected score over the game, the marked moves as dots, into an image file."""
    import matplotlib
    matplotlib.use("Agg")       # no display: a file
    import matplotlib.pyplot as pyplot

    expected = review.white_expected()
    first = review.game.board().ply()
    plies = list(range(first, first + len(expected)))
    figure, axes = pyplot.subplots(figsize=(10, 3.2))
    axes.fill_between(plies, 0.5, expected, color="0.85")
    axes.plot(plies, expected, color="0.2", linewidth=1.2)
    axes.axhline(0.5, color="0.5", linewidth=0.6)
    colours = {"inaccuracy": "#e0b000", "mistake": "#e07000", "blunder": "#d01010"}
    for verdict, colour in colours.items():
        marked = [(move.ply, expected[index + 1]) for index, move in enumerate(review.moves) if move.verdict == verdict]
        if marked:
            axes.scatter(*zip(*marked), color=colour, zorder=3, s=22, label=verdict)
    if any(move.verdict for move in review.moves):
        axes.legend(loc="upper right", fontsize="small")
    headers = review.game.headers
    axes.set_title(f"{headers.get('White', '?')} - {headers.get('Black', '?')}  {headers.get('Result', '*')}")
    axes.set_xlabel("ply")
    axes.set_ylabel("White's expected score")
    axes.set_ylim(0, 1)
    axes.set_xlim(plies[0], max(plies[-1], plies[0] + 1))
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)
