"""Mill search (pyrope.mill.search over pyrope._mill): forced wins and only moves proved by an
exhaustive search over the plain referee in tests/support/mill_reference.py; legal moves under every limit;
PVS, MTD(f) and table-free search agreeing; draws by repetition and move count; stop from another
thread; the bench's node count."""
from __future__ import annotations

import dataclasses
import random
import threading
import time
from contextlib import contextmanager

import pytest

from mill_reference import FEN_RANKS, Referee, parse_turn
from pyrope.mill import VARIANTS, MillBoard
from pyrope.mill.bench import DEFAULT_DEPTH, run_bench
from pyrope.mill.search import WEIGHTS, MillSearcher, SearchInfo

# The bench's signature at its default depth; a change of the search must explain a new number.
BENCH_NODES = 2_192_611


def referee(board: MillBoard) -> Referee:
    """A referee holding board's position (not its history: the positions below have none that matters)."""
    ref = Referee(dataclasses.asdict(board.rules))
    white, black, hand_w, hand_b, side, pending, quiet, turn = board._core.position()
    names = [name for rank in FEN_RANKS for name in rank]
    ref.stones = {name: 0 if white >> i & 1 else 1 for i, name in enumerate(names) if (white | black) >> i & 1}
    ref.hand, ref.side, ref.pending, ref.quiet, ref.turn = [hand_w, hand_b], side, pending, quiet, turn
    ref.seen = [ref.snapshot()]
    assert ref.fen() == board.fen()
    return ref


@contextmanager
def played(ref: Referee, turn):
    saved = (dict(ref.stones), list(ref.hand), ref.side, ref.pending, ref.quiet, ref.turn, len(ref.seen))
    ref.play(turn)
    try:
        yield
    finally:
        ref.stones, ref.hand, ref.side, ref.pending, ref.quiet, ref.turn, n = saved
        del ref.seen[n:]


def ordered(ref: Referee, first=None) -> list:
    """Turns with removals first (they win soonest), `first` before all; sorted for repeatability."""
    turns = sorted(ref.turns(), key=lambda t: (not t[2], str(t)))
    return ([first] + [t for t in turns if t != first]) if first is not None else turns


def wins_after(ref: Referee, turn, turns: int) -> bool:
    """Playing `turn` wins for the side to move by its `turns`-th turn whatever the opponent does."""
    win = "1-0" if ref.side == 0 else "0-1"
    with played(ref, turn):
        result, _ = ref.outcome()
        if result != "*" or turns == 1:
            return result == win
        for reply in ordered(ref):
            with played(ref, reply):
                result, _ = ref.outcome()
                if result == win:
                    continue
                if result != "*" or not wins_within(ref, turns - 1):
                    return False
        return True


def wins_within(ref: Referee, turns: int, first=None) -> bool:
    """The side to move can force a win by its `turns`-th turn (exhaustive AND-OR search)."""
    return any(wins_after(ref, turn, turns) for turn in ordered(ref, first))


# Positions from seeded random nine-men games, the side to move winning by force with its Nth turn.
FORCED_WINS = [
    ("OO./.../.../OOO@.O/@.@/.../O.. w 0 0 0 7 47", 1),   # a mill leaves black two stones
    ("@.@/@@@/..O/...O../.../..O/... b 0 0 0 1 36", 1),
    (".../.../.../....O./..@/.O./@@O w 0 0 0 15 135", 2),  # three against three, flying
    (".O./.../.../@...@./@../.O./..O b 0 0 0 22 142", 2),
    ("..@/OOO/O.O/....O@/..O/..O/@@O w 0 0 0 1 35", 2),
    ("..@/OOO/OO./....O@/..O/.@O/@.O w 0 0 0 3 37", 3),
    ("OOO/@../@.O/.@.@../@../@../.@. b 0 0 0 4 46", 3),
]


@pytest.mark.parametrize("fen,turns", FORCED_WINS)
@pytest.mark.parametrize("algorithm", ["pvs", "mtdf"])
def test_forced_win_is_found_with_its_distance(fen, turns, algorithm):
    board = MillBoard(fen)
    ref = referee(board)
    assert turns == 1 or not wins_within(ref, turns - 1)
    result = MillSearcher(algorithm=algorithm).search(board, depth=2 * turns + 2)
    assert result.mate == turns
    assert wins_after(ref, parse_turn(result.move), turns), result.move
    assert result.pv[0] == result.move and len(result.pv) == 2 * turns - 1
    board.push(result.move)
    if turns > 1:   # the loser's view: lost after its (turns - 1)th turn
        assert MillSearcher(algorithm=algorithm).search(board, depth=2 * turns).mate == 1 - turns


# Every turn but one lets the opponent win within two of its turns.
ONLY_MOVES = [
    ".OO/@../@@@/.OO.O./.../.../O.O b 0 0 0 1 44",
    "@@@/@.@/.O@/O.O.@@/.@O/.../... w 0 0 0 6 37",
]


@pytest.mark.parametrize("fen", ONLY_MOVES)
def test_only_move_is_found(fen):
    board = MillBoard(fen)
    ref = referee(board)
    move = parse_turn(MillSearcher().search(board, depth=6).move)
    for turn in ref.turns():
        with played(ref, turn):
            loses = ref.outcome()[0] == "*" and wins_within(ref, 2)
        assert loses == (turn != move), turn


def random_positions(variant: str, count: int, seed: int):
    rng = random.Random(seed)
    while count:
        board = MillBoard(variant=variant)
        for _ in range(rng.randrange(0, 80)):
            if board.is_game_over():
                break
            board.push(rng.choice(board.legal_moves()))
        if not board.is_game_over():
            count -= 1
            yield board


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_best_move_is_legal_under_every_limit(variant):
    searcher = MillSearcher(hash_mb=1)
    for board in random_positions(variant, 40, seed=len(variant)):
        legal = board.legal_moves()
        for limits in ({"nodes": 1}, {"depth": 1}, {"movetime_ms": 0.01}, {"depth": 4}):
            result = searcher.search(board, **limits)
            assert result.move in legal, (board.fen(), limits)
        searcher.stop()     # before the search starts: it ends at once with the first ordered move
        stopped = searcher.search(board)
        assert stopped.move in legal and stopped.depth == 0
        searcher.stop()
        searcher.prepare()  # forgets the stop given while no search ran
        assert searcher.search(board, depth=2).depth >= 1


def placement_positions():
    for variant in ("nine", "twelve", "morabaraba"):
        yield from ((variant, board.fen()) for board in random_positions(variant, 4, seed=7)
                    if board._core.position()[2] + board._core.position()[3] > 4)


@pytest.mark.parametrize("variant,fen", list(placement_positions()))
def test_pvs_mtdf_and_no_table_agree(variant, fen):
    # In placement every path to a position has the same length and no repetition exists, so the
    # depth-3 value is unique and the table cannot graft deeper results onto it. (Depth 3 is the
    # deepest searched full width: from 4 up, late turns are reduced by an order that the table,
    # killers and history shape, so the algorithms may differ there.) Quiescence is part of it.
    board = MillBoard(fen, variant=variant)
    scores = [MillSearcher(hash_mb=hash_mb, algorithm=algorithm).search(board, depth=3).score
              for algorithm, hash_mb in (("pvs", 4), ("mtdf", 4), ("pvs", 0))]
    assert scores[0] == scores[1] == scores[2], scores


def test_threefold_repetition_scores_zero():
    # Black, two stones down, can repeat the position a third time with d7-d6 (a draw).
    cycle = "d5-c5 d6-d7 c5-d5 d7-d6 d5-c5 d6-d7 c5-d5"
    board = MillBoard("..O/.@./.O@/.@.OOO/@@./O@@/OOO w 0 0 0 0 19")
    board.push_moves(cycle)
    result = MillSearcher().search(board, depth=3)
    assert (result.move, result.score) == ("d7-d6", 0)
    board.push("d7-d6")
    assert (board.result(), board.termination()) == ("1/2-1/2", "threefold repetition")
    free = MillBoard("..O/.@./.O@/.@.OOO/@@./O@@/OOO w 0 0 0 0 19", ThreefoldRepetitionRule=False)
    free.push_moves(cycle)
    assert MillSearcher().search(free, depth=3).score < -100


@pytest.mark.parametrize("fen,options", [
    # white, two stones up, has no mill to close: every turn reaches the 100th quiet turn
    ("..O/.@./.O@/.@.OOO/@@./O@@/OOO w 0 0 0 99 19", {}),
    # black, four stones up, has no mill to close; white's three stones bring the endgame limit
    ("O../@../.../@@@.../O.@/@@./..O b 0 0 0 9 46", {"EndgameNMoveRule": 10}),
])
def test_move_count_draw_scores_zero(fen, options):
    board = MillBoard(fen, **options)
    assert not any("x" in move for move in board.legal_moves())
    for depth in (1, 4):
        assert MillSearcher().search(board, depth=depth).score == 0
    fresh = MillBoard(" ".join(fen.split()[:5] + ["0", fen.split()[6]]), **options)
    assert MillSearcher().search(fresh, depth=1).score != 0


def test_stop_from_another_thread_returns_promptly():
    board = MillBoard(variant="twelve")
    searcher = MillSearcher()
    infos: list[SearchInfo] = []
    results = []
    thread = threading.Thread(target=lambda: results.append(searcher.search(board, on_info=infos.append)))
    thread.start()
    time.sleep(0.3)
    stopped_at = time.perf_counter()
    searcher.stop()
    thread.join(5)
    assert not thread.is_alive() and time.perf_counter() - stopped_at < 2   # generous: a loaded machine
    result = results[0]
    assert result.move in board.legal_moves()
    assert [info.depth for info in infos] == list(range(1, result.depth + 1))
    assert result.move == infos[-1].pv[0] and result.nodes >= infos[-1].nodes


@pytest.mark.parametrize("algorithm", ["pvs", "mtdf"])
def test_info_reports_a_legal_line_and_errors_propagate(algorithm):
    board = MillBoard(".OO/@O./.O./.@@@@O/..@/@O./O.O w 0 0 0 0 19")
    infos: list[SearchInfo] = []
    result = MillSearcher(algorithm=algorithm).search(board, depth=6, on_info=infos.append)
    assert [info.depth for info in infos] == [1, 2, 3, 4, 5, 6]
    for info in infos:
        line = MillBoard(board.fen())
        assert line.push_moves(info.pv) == info.pv and info.nps >= 0
    assert (result.score, result.pv) == (infos[-1].score, infos[-1].pv)

    def fail(info):
        raise KeyError("front-end gone")
    with pytest.raises(KeyError):
        MillSearcher().search(board, depth=6, on_info=fail)


def test_bad_limits_and_options():
    searcher = MillSearcher()
    with pytest.raises(ValueError, match="depth"):
        searcher.search(MillBoard(), depth=0)
    with pytest.raises(ValueError, match="algorithm"):
        searcher.set_algorithm("minimax")
    with pytest.raises(ValueError, match="weight"):
        searcher.set_weights(Stones=3)
    with pytest.raises(ValueError, match="over"):
        searcher.search(MillBoard(".../.../OOO/....../.@@/.../... w 0 0 0 0 94"))
    assert set(searcher.weights) == set(WEIGHTS)


def test_weights_change_the_evaluation():
    board = MillBoard("..O/.O./.../.@..../.O./@@@/... w 5 5 0 0 9")
    searcher = MillSearcher()
    before = searcher.evaluate(board)
    searcher.set_weights(OpenMill=WEIGHTS["OpenMill"] + 10)
    assert searcher.evaluate(board) != before


def test_bench_node_count_is_deterministic_and_pinned():
    lines: list[str] = []
    first = run_bench(lines.append, DEFAULT_DEPTH)
    assert first == run_bench(lines.append, DEFAULT_DEPTH) == BENCH_NODES
    assert any(line.startswith("Nodes/second") for line in lines)
