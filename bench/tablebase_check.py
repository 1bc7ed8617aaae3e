"""Tablebase play as a GUI sees it: random 3-4 man positions, each answered by the engine through
python-chess's UCI client at a fixed time a move; every move must keep the position's result by
`chess.syzygy` (the independent prober), and the engine's last `info` must report table probes
in `tbhits`, as Stockfish's does. Run with the default options and again with `SyzygyPath`:

    python3 bench/tablebase_check.py [--positions 300] [--time 0.1] [--seed 1] [--syzygy DIR]
        [--engine pyrope]

The results that count are a fault count of 0 (a move that changed the result) and tbhits > 0 in
at least 90% of the positions, for each setting.
"""
from __future__ import annotations

import argparse
import random
import shlex
from dataclasses import dataclass
from pathlib import Path

import chess
import chess.engine
import chess.syzygy

SHARED_SYZYGY = (Path(__file__).resolve().parents[1] / ".." / "shared" / "data" / "syzygy").resolve()
PIECES = "QRBNP"


def endings() -> list[str]:
    """Every 3-4 man material as Syzygy names it, the stronger side first (KQvK ... KPvKP)."""
    names = [f"K{a}vK" for a in PIECES]
    names += [f"K{a}{b}vK" for i, a in enumerate(PIECES) for b in PIECES[i:]]
    names += [f"K{a}vK{b}" for i, a in enumerate(PIECES) for b in PIECES[i:]]
    return names


def random_positions(count: int, rng: random.Random) -> list[chess.Board]:
    """`count` legal positions with a move to play (KBvK and KNvK included, dead draws though they
    are), evenly over the endings, either colour stronger, either side to move, pawns on ranks 2-7,
    fifty-move counter 0."""
    names, boards = endings(), []
    while len(boards) < count:
        white, black = names[len(boards) % len(names)].split("v")
        if rng.random() < 0.5:
            white, black = black, white
        board = chess.Board(None)
        for symbol in white + black.lower():
            piece = chess.Piece.from_symbol(symbol)
            squares = [s for s in chess.SQUARES if board.piece_at(s) is None
                       and (piece.piece_type != chess.PAWN or 1 <= chess.square_rank(s) <= 6)]
            board.set_piece_at(rng.choice(squares), piece)
        board.turn = rng.random() < 0.5
        if board.is_valid() and any(board.legal_moves):
            boards.append(board)
    return boards


def result_class(wdl: int) -> int:
    """Win 1, draw 0, loss -1 under the fifty-move rule: a cursed win or blessed loss is a draw."""
    return 1 if wdl == 2 else -1 if wdl == -2 else 0


def result_after(board: chess.Board, move: chess.Move, tables: chess.syzygy.Tablebase) -> int:
    """The class of the result for the side that played `move` from `board`."""
    child = board.copy()
    child.push(move)
    if child.is_checkmate():
        return 1
    if child.is_stalemate() or child.is_insufficient_material():
        return 0
    return -result_class(tables.probe_wdl(child))


@dataclass
class Outcome:
    positions: int = 0
    reported: int = 0           # tbhits > 0 in the last info
    faults: list = None         # (FEN, move, result before, result after)

    @property
    def reported_share(self) -> float:
        return self.reported / max(self.positions, 1)


def check(command: list[str], options: dict, boards: list[chess.Board], seconds: float,
          syzygy: Path) -> Outcome:
    """Play each board's move with the engine set to `options`; count tbhits and result faults."""
    outcome = Outcome(faults=[])
    with chess.syzygy.open_tablebase(str(syzygy)) as tables, \
            chess.engine.SimpleEngine.popen_uci(command) as engine:
        engine.configure(options)
        for board in boards:
            played = engine.play(board, chess.engine.Limit(time=seconds), info=chess.engine.INFO_ALL,
                                 game=object())        # a new game each time: no hash carried over
            before = result_class(tables.probe_wdl(board))
            after = result_after(board, played.move, tables)
            outcome.positions += 1
            outcome.reported += played.info.get("tbhits", 0) > 0
            if after != before:
                outcome.faults.append((board.fen(), played.move.uci(), before, after))
    return outcome


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=300)
    parser.add_argument("--time", type=float, default=0.1, help="seconds a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--syzygy", type=Path, default=SHARED_SYZYGY)
    parser.add_argument("--engine", default="pyrope", help="the engine's command line")
    args = parser.parse_args()
    boards = random_positions(args.positions, random.Random(args.seed))
    settings = {"default options": {}, f"SyzygyPath {args.syzygy}": {"SyzygyPath": str(args.syzygy)}}
    for name, options in settings.items():
        outcome = check(shlex.split(args.engine), options, boards, args.time, args.syzygy)
        print(f"{name}: {outcome.positions} positions at {args.time} s, tbhits > 0 in {outcome.reported} "
              f"({100 * outcome.reported_share:.1f}%), result changed by {len(outcome.faults)} moves")
        for fault in outcome.faults:
            print("  fault:", *fault)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
