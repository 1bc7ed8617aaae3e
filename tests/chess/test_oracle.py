"""Seeded random playouts, checked after every move against python-chess.

Compared at every ply: the legal moves (in the notation python-chess prints for a board with
the same chess960 flag), the captures/quiets/evasions split, check/mate/stalemate/insufficient
material, fifty moves and repetitions, outcome(), FEN (X-FEN and Shredder-FEN), the
Polyglot Zobrist key, side to move and counters. After the playout every move is taken back
and FEN and key must return to each earlier value.
"""
import random

import chess
import chess.polyglot
import pytest

import pyrope
from perftfile import load

STANDARD_GAMES, STANDARD_PLIES = 300, 70     # from the start position
LONG_GAMES, LONG_PLIES = 12, 600             # from the start position, played to the end
CHESS960_PERFT_PLIES = 10                    # one game from each chess960.perft position
RANDOM_960_STARTS, RANDOM_960_PLIES = 60, 80 # Chess960 start positions (518 = standard)
TRICKY_SEEDS, TRICKY_PLIES = 4, 60           # games from each tricky.perft position
RANDOM_FENS, RANDOM_FEN_PLIES = 100, 40      # games from a sample of random.perft positions
# Chances of steering a playout (see choose_move).
RETREAT_BIAS, CASTLE_BIAS, CAPTURE_BIAS = 0.3, 0.5, 0.5


def playout_cases():
    for seed in range(STANDARD_GAMES):
        yield pytest.param(chess.STARTING_FEN, False, seed, STANDARD_PLIES, id=f"standard-{seed}")
    for seed in range(LONG_GAMES):
        yield pytest.param(chess.STARTING_FEN, False, 10_000 + seed, LONG_PLIES, id=f"long-{seed}")
    for p in load("chess960"):
        yield pytest.param(p.fen, True, 0, CHESS960_PERFT_PLIES, id=p.id)
    starts = sorted({518, *random.Random(960).sample(range(960), RANDOM_960_STARTS - 1)})
    for n in starts:
        fen = chess.Board.from_chess960_pos(n).fen()
        yield pytest.param(fen, True, n, RANDOM_960_PLIES, id=f"960-start-{n}")
    for p in load("tricky"):
        for seed in range(TRICKY_SEEDS):
            yield pytest.param(p.fen, True, seed, TRICKY_PLIES, id=f"{p.id}-{seed}")
    for p in random.Random(4558).sample(load("random"), RANDOM_FENS):
        yield pytest.param(p.fen, False, 0, RANDOM_FEN_PLIES, id=p.id)


def expected_outcomes(theirs, has_moves):
    """The outcomes a correct engine may report (several rules can hold at once)."""
    allowed = set()
    if not has_moves:
        if theirs.is_check():
            allowed.add(("0-1", "Black mates") if theirs.turn == chess.WHITE else ("1-0", "White mates"))
            return allowed  # checkmate settles the game, whatever else holds
        allowed.add(("1/2-1/2", "Stalemate"))
    if theirs.is_insufficient_material():
        allowed.add(("1/2-1/2", "Insufficient material"))
    if theirs.is_fifty_moves():
        allowed.add(("1/2-1/2", "Fifty-move rule"))
    if theirs.is_repetition(3):
        allowed.add(("1/2-1/2", "Threefold repetition"))
    return allowed


class Where:
    """Names the position in assertion messages; formatted only when one fails."""

    def __init__(self, fen, chess960, played):
        self.fen, self.chess960, self.played = fen, chess960, played

    def __str__(self):
        return f"at {self.fen!r} (chess960={self.chess960}) + {' '.join(self.played) or 'no moves'}"


def check_position(ours, theirs, where):
    """Compare every observable of `ours` with python-chess; returns {uci: chess.Move}."""
    moves = {theirs.uci(m): m for m in theirs.legal_moves}
    captures = {uci for uci, m in moves.items() if theirs.is_capture(m) or m.promotion}
    in_check = theirs.is_check()

    for kind, expected in (("all", set(moves)), ("captures", captures),
                           ("quiets", set(moves) - captures)):
        got = ours.legal_moves(kind)
        assert len(got) == len(set(got)), f"{kind}: a move listed twice {sorted(got)} {where}"
        assert set(got) == expected, (
            f"{kind}: missing {sorted(expected - set(got))}, extra {sorted(set(got) - expected)} {where}")
    try:
        evasions = ours.legal_moves("evasions")
    except ValueError:
        assert not in_check, f"evasions refused although in check {where}"
    else:
        assert in_check, f"evasions given although not in check {where}"
        assert sorted(evasions) == sorted(moves), where

    fen = theirs.fen()
    assert ours.fen() == fen, where
    fields = fen.split()
    fields[2] = theirs.castling_shredder_fen()
    assert ours.fen(shredder=True) == " ".join(fields), where
    assert ours.key == chess.polyglot.zobrist_hash(theirs), where
    assert ours.white_to_move == (theirs.turn == chess.WHITE), where
    assert (ours.halfmove_clock, ours.fullmove_number) == (theirs.halfmove_clock, theirs.fullmove_number), where

    assert ours.is_check() == in_check, where
    assert ours.has_legal_moves() == bool(moves), where
    assert ours.is_checkmate() == (in_check and not moves), where
    assert ours.is_stalemate() == (not in_check and not moves), where
    assert ours.is_insufficient_material() == theirs.is_insufficient_material(), where
    assert ours.is_fifty_moves() == theirs.is_fifty_moves(), where
    for count in (2, 3):
        assert ours.is_repetition(count) == theirs.is_repetition(count), f"count={count} {where}"
    allowed = expected_outcomes(theirs, bool(moves))
    outcome = ours.outcome()
    if allowed:
        assert outcome is not None and tuple(outcome) in allowed, f"{outcome} not in {allowed} {where}"
    else:
        assert outcome is None, where
    return moves


def choose_move(rng, theirs, moves, played):
    """A random legal move, nudged towards the rarer events a uniform choice seldom meets."""
    if len(played) >= 2:
        back = played[-2][2:4] + played[-2][:2]   # undo our last move: repetitions
        if back in moves and rng.random() < RETREAT_BIAS:
            return back
    ucis = sorted(moves)
    castles = [u for u in ucis if theirs.is_castling(moves[u])]
    if castles and rng.random() < CASTLE_BIAS:
        return rng.choice(castles)
    forcing = [u for u in ucis if theirs.is_capture(moves[u]) or moves[u].promotion]
    if forcing and rng.random() < CAPTURE_BIAS:   # reach endgames sooner
        return rng.choice(forcing)
    return rng.choice(ucis)


def castling_alias(theirs, move):
    """e1g1 -> e1h1 etc.: the king-takes-rook spelling a standard board also accepts."""
    if theirs.chess960 or not theirs.is_castling(move):
        return None
    rook_file = 7 if chess.square_file(move.to_square) == 6 else 0
    rook = chess.square(rook_file, chess.square_rank(move.from_square))
    return chess.square_name(move.from_square) + chess.square_name(rook)


@pytest.mark.parametrize("fen, chess960, seed, max_plies", list(playout_cases()))
def test_random_playout(fen, chess960, seed, max_plies):
    rng = random.Random(seed)
    theirs = chess.Board(fen, chess960=chess960)
    ours = pyrope.Board(fen, chess960=chess960)
    played, history = [], []
    where = Where(fen, chess960, played)

    for _ in range(max_plies + 1):
        moves = check_position(ours, theirs, where)
        if not moves or theirs.is_insufficient_material() or len(played) == max_plies:
            break
        uci = choose_move(rng, theirs, moves, played)
        history.append((ours.fen(), ours.key))
        alias = castling_alias(theirs, moves[uci])
        ours.push(alias if alias and rng.random() < 0.5 else uci)
        theirs.push(moves[uci])
        played.append(uci)

    # Take everything back; move_stack is checked last so a notation slip there
    # does not hide a make/unmake bug.
    stack = ours.move_stack
    for ply in reversed(range(len(played))):
        assert ours.pop() == played[ply]
        assert (ours.fen(), ours.key) == history[ply], (
            f"after popping {played[ply]} from {fen!r} + {' '.join(played[:ply])}")
    assert ours.move_stack == []
    assert stack == played
