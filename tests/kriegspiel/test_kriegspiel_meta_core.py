"""The compiled metaposition (pyrope._kriegspiel.MetaCore, through pyrope.kriegspiel.metaposition)
holds exactly what the pure-Python one (tests/support/kriegspiel_metaposition_oracle.py) holds after every
update of seeded random games."""
import chess
import pytest

from test_kriegspiel_metaposition import Tracked

from kriegspiel_metaposition_oracle import PIECE_TYPES
from kriegspiel_metaposition_oracle import Metaposition as Oracle
from pyrope.kriegspiel.metaposition import Metaposition
from pyrope.kriegspiel.players import RandomPlayer, SemiRandomPlayer, play_game
from pyrope.kriegspiel.referee import Referee


def oracle_state(meta: Oracle) -> dict:
    return {"possible": [meta.possible[t] for t in PIECE_TYPES], "empty": meta.empty & ~meta.mine,
            "age": [min(a, 255) for a in meta.age], "pawns_min": list(meta.pawns_min),
            "pawns_max": list(meta.pawns_max), "captured": (meta.captured_pawns, meta.captured_pieces),
            "castling": meta.castling, "mine": meta.mine}


class Both:
    """The oracle and the compiled metaposition, given the same updates."""

    def __init__(self, fen: str, color: chess.Color) -> None:
        self.color, self.oracle, self.meta = color, Oracle(fen, color), Metaposition(fen, color)

    def our_move(self, move, announcement) -> None:
        self.oracle.our_move(move, announcement)
        self.meta.our_move(move, announcement)

    def their_move(self, announcement) -> None:
        self.oracle.their_move(announcement)
        self.meta.their_move(announcement)

    def refused(self, move, in_check) -> None:
        self.oracle.refused(move, in_check)
        self.meta.refused(move, in_check)


class Twin(Tracked):
    """A player keeping both metapositions from what it hears, compared after every update."""
    metaposition = Both

    def _check(self, when):
        self.updates += 1
        expected, got = oracle_state(self.meta.oracle), self.meta.meta.core.state()
        if expected != got and len(self.failures) < 3:
            diff = {key: (expected[key], got[key]) for key in expected if expected[key] != got[key]}
            self.failures.append((when, self.updates, diff))


@pytest.mark.parametrize("semi", [False, True])
def test_the_compiled_metaposition_equals_the_oracle(semi):
    mismatches, updates = [], 0
    kind = SemiRandomPlayer if semi else RandomPlayer
    for game in range(30):
        referee = Referee()
        white = Twin(kind(seed=2 * game), referee, mismatches)
        black = Twin(kind(seed=2 * game + 1), referee, mismatches)
        play_game(white, black, referee)
        updates += white.updates + black.updates
    assert updates > 1000
    assert mismatches == []


class Generating(Tracked):
    """At each of its turns, every legal move of the true position (castling aside, a promotion as
    a queen) must be among the metaposition's pseudomoves."""

    def next_try(self):
        if self.player.refused == set() and self.referee.turn == self.meta.color:
            board = chess.Board(self.referee.fen())
            pawn_tries = bool(self.player.announcement.pawn_tries)
            generated = set(self.meta.core.pseudomoves(pawn_tries))
            for move in board.legal_moves:
                if board.is_castling(move) or move.promotion not in (None, chess.QUEEN):
                    continue
                packed = move.from_square | move.to_square << 6 | (move.promotion or 0) << 12
                if packed not in generated and len(self.failures) < 3:
                    self.failures.append((board.fen(), move.uci(), pawn_tries))
            self.updates += 1
        return super().next_try()


def test_every_legal_move_is_a_pseudomove():
    failures, turns = [], 0
    for game in range(30):
        referee = Referee()
        white = Generating(SemiRandomPlayer(seed=game), referee, failures)
        black = Generating(RandomPlayer(seed=100 + game), referee, failures)
        play_game(white, black, referee)
        turns += white.updates + black.updates
    assert turns > 1000
    assert failures == []
