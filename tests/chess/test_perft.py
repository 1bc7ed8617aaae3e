"""Perft node counts against the shared reference files, perft_divide against python-chess, and
the single-move legality test (is_legal, which the search asks of hash-table moves) against
the generator."""
import chess
import pytest

import pyrope
from perftfile import PERFT_FILES, load, load_all, parse_perft

# Depths whose node count is at most NODE_BUDGET run by default (the engine manages
# ~100M nodes/s, so the whole module stays well under 40 s); every position is searched
# at least to MIN_DEPTH whatever it costs. The slow test runs every listed depth.
NODE_BUDGET = 750_000
MIN_DEPTH = 3

POSITIONS = load_all()
IDS = [p.id for p in POSITIONS]
TRICKY = load("tricky")
KIWIPETE = next(p for p in TRICKY if p.name == "pos-2")


def ci_counts(position):
    return [(d, n) for d, n in position.counts if n <= NODE_BUDGET or d <= MIN_DEPTH]


def check_counts(position, counts):
    board = pyrope.Board(position.fen, chess960=position.chess960)
    fen, key = board.fen(), board.key
    got = {depth: board.perft(depth) for depth, _ in counts}
    assert got == dict(counts), f"{position.id}: {position.fen}"
    assert (board.fen(), board.key) == (fen, key), "perft left the board changed"


def test_reference_files_load():
    for source in PERFT_FILES:
        positions = load(source)
        assert positions, source
        names = [p.name for p in positions]
        assert len(names) == len(set(names)), f"duplicate ids in {source}.perft"
        for p in positions:
            assert len(p.fen.split()) == 4, p.id
            assert p.counts[0][0] == 1, p.id
    assert max(d for p in load_all() for d, _ in ci_counts(p)) >= 4


def test_parser():
    text = """
# comment
id a
epd 8/8/8/8/8/8/8/K6k w - -
perft 1 3
perft 2 9

id b
epd 8/8/8/8/8/8/8/K6k b - -
perft 1 3
"""
    a, b = parse_perft(text, "t")
    assert (a.id, a.fen, a.counts) == ("t:a", "8/8/8/8/8/8/8/K6k w - -", ((1, 3), (2, 9)))
    assert (b.name, b.counts) == ("b", ((1, 3),))
    for bad in ("perft 1 3", "id a\nbogus line", "id a\nepd 8/8/8/8/8/8/8/K6k w - -", "id a\nperft 1 2"):
        with pytest.raises(ValueError):
            parse_perft(bad, "t")


@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_perft(position):
    check_counts(position, ci_counts(position))


@pytest.mark.slow
@pytest.mark.parametrize("position", POSITIONS, ids=IDS)
def test_perft_every_depth(position):
    check_counts(position, position.counts)


@pytest.mark.parametrize("position", TRICKY, ids=[p.id for p in TRICKY])
def test_module_perft_matches_board(position):
    depth = min(3, position.counts[-1][0])
    expected = dict(position.counts)[depth]
    assert pyrope.perft(position.fen, depth, chess960=position.chess960) == expected
    # The chess960 flag changes notation only, never counts.
    assert pyrope.perft(position.fen, depth, chess960=not position.chess960) == expected


def test_perft_depth_zero_and_one():
    board = pyrope.Board()
    assert board.perft(0) == 1
    assert board.perft(1) == len(board.legal_moves()) == 20


def test_divide_start_position():
    board = pyrope.Board()
    divide = board.perft_divide(3)
    assert len(divide) == 20
    assert sorted(uci for uci, _ in divide) == sorted(board.legal_moves())
    assert sum(n for _, n in divide) == board.perft(3) == 8902


def python_chess_divide(board, depth):
    result = {}
    for move in board.legal_moves:
        board.push(move)
        result[board.uci(move)] = python_chess_perft(board, depth - 1)
        board.pop()
    return result


def python_chess_perft(board, depth):
    if depth <= 1:
        return board.legal_moves.count() if depth == 1 else 1
    total = 0
    for move in board.legal_moves:
        board.push(move)
        total += python_chess_perft(board, depth - 1)
        board.pop()
    return total


DIVIDE_CASES = [pytest.param(p.fen, p.chess960, id=p.id) for p in TRICKY] + [
    pytest.param(KIWIPETE.fen, False, id="kiwipete-standard-notation"),
]


@pytest.mark.parametrize("fen, chess960", DIVIDE_CASES)
def test_divide_matches_python_chess(fen, chess960):
    """Per-move depth-2 counts (Kiwipete is tricky:pos-2), moves in matching notation."""
    ours = pyrope.Board(fen, chess960=chess960)
    theirs = chess.Board(fen, chess960=chess960)
    divide = ours.perft_divide(2)
    assert len(divide) == len({uci for uci, _ in divide}), "a move listed twice"
    assert dict(divide) == python_chess_divide(theirs, 2)


def boards_and_children(positions):
    for position in positions:
        board = pyrope.Board(position.fen, chess960=position.chess960)
        yield board
        for uci in board.legal_moves():
            child = pyrope.Board(position.fen, chess960=position.chess960)
            child.push(uci)
            yield child


@pytest.mark.parametrize("source", list(PERFT_FILES))
def test_single_move_legality_agrees_with_generator(source):
    """Every one of the 65,536 16-bit values, in the first 40 positions of each file and in every
    position one move later (checks, pins, en passant, castling, promotions): is_legal accepts
    exactly the legal moves, so a TT move from another position is never played when illegal."""
    for board in boards_and_children(load(source)[:40]):
        expected = sorted(board.move_code(uci) for uci in board.legal_moves())
        assert board._codes_accepted_one_by_one() == expected, board.fen()
