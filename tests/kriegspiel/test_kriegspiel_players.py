"""Kriegspiel players (pyrope.kriegspiel.players, issue 16 item 3): the random and semi-random
players of the thesis's section 4.6 and play_game. They see only what their side may know, never
repeat a refused try in a turn, try only what they cannot rule out, keep the semi-random player's
priorities, repeat a game from the same seeds, and finish seeded games by the rules, with PGN that
reads back."""
import collections
import itertools

import chess
import pytest

from pyrope.kriegspiel import Announcement, Check, Referee, parse_try
from pyrope.kriegspiel.own import OwnBoard
from pyrope.kriegspiel.pgn import game_from_referee, read_game
from pyrope.kriegspiel.players import Player, RandomPlayer, SemiRandomPlayer, play_game, possible_tries
from pyrope.kriegspiel.roster import builtin

GAMES = 60
QUIET = Announcement(to_move=chess.WHITE, capture=None, checks=(), pawn_tries=0, outcome=None)


class Logged(Player):
    """A player wrapped so that everything it is told and every try it makes is logged, in order."""

    def __init__(self, inner):
        self.inner = inner
        self.log = []

    def start(self, color, fen):
        self.log.append(("start", color, fen))
        self.inner.start(color, fen)

    def hear(self, announcement):
        assert isinstance(announcement, Announcement)
        self.log.append(("hear", announcement))
        self.inner.hear(announcement)

    def answered(self, text, legal):
        assert isinstance(legal, bool)
        self.log.append(("answered", text, legal))
        self.inner.answered(text, legal)

    def next_try(self):
        text = self.inner.next_try()
        self.log.append(("try", text))
        return text


class Checked(Logged):
    """A logged player whose every try is checked against the referee's truth: it must be a try its
    side cannot rule out, computed here from its true men (not the player's belief), and must not
    repeat a try refused this turn."""

    def __init__(self, inner, referee):
        super().__init__(inner)
        self.referee = referee
        self.refused = set()

    def answered(self, text, legal):
        super().answered(text, legal)
        self.refused = set() if legal else self.refused | {text}

    def next_try(self):
        text = super().next_try()
        assert text not in self.refused, f"{text} tried again after its refusal"
        assert self._cannot_rule_out(text), f"{text} could be ruled out in {self.referee.fen()}"
        return text

    def _cannot_rule_out(self, text):
        color = self.referee.turn
        board = chess.Board(self.referee.fen())
        for square in chess.SquareSet(board.occupied_co[not color]):
            board.remove_piece_at(square)
        board.ep_square = None
        announcement = self.referee.announcement
        attempt = parse_try(text)
        if hasattr(attempt, "kingside"):
            return not announcement.checks and any(
                board.is_castling(move) and (move.to_square > move.from_square) == attempt.kingside
                for move in board.pseudo_legal_moves)
        move = chess.Move(attempt.from_square, attempt.to_square, attempt.promotion)
        if board.is_pseudo_legal(move):
            return True
        diagonal = chess.BB_PAWN_ATTACKS[color][move.from_square] & chess.BB_SQUARES[move.to_square]
        return (board.piece_type_at(move.from_square) == chess.PAWN and bool(diagonal)
                and board.color_at(move.to_square) is None and announcement.pawn_tries > 0)


def played(white, black, fen=None, try_cap=1000):
    referee = Referee(fen) if fen else Referee()
    white, black = Checked(white, referee), Checked(black, referee)
    return referee, play_game(white, black, referee, try_cap), white, black


def fair_seeded_wins(kind, games=6, **params):
    """Built-in player `kind` (with `params`) against the random player, colours alternating, each
    game checked (Checked: only tries its side cannot rule out, none refused twice) and free of
    faults; returns its wins, after checking that the first game's seed replays it."""
    wins, records = 0, []
    for number in range(games):
        mover, other = builtin(kind, str(number), **params), RandomPlayer(number)
        white, black = (mover, other) if number % 2 == 0 else (other, mover)
        referee, result, _, _ = played(white, black)
        assert result.termination not in ("try cap", "bad try", "crash")
        wins += result.result == ("1-0" if number % 2 == 0 else "0-1")
        records.append([turn.move for turn in referee.turns])
    again, _, _, _ = played(builtin(kind, "0", **params), RandomPlayer(0))
    assert [turn.move for turn in again.turns] == records[0]
    return wins


# --- What a player may know ---------------------------------------------------------------------

def test_a_player_is_told_only_its_colour_the_start_public_announcements_and_its_own_answers():
    referee, _, white, black = played(RandomPlayer(1), RandomPlayer(2))
    for color, player in ((chess.WHITE, white), (chess.BLACK, black)):
        assert player.log[0] == ("start", color, referee.start_fen)
        assert {event[0] for event in player.log[1:]} == {"hear", "answered", "try"}
        # Every try is answered at once, and only its own.
        for event, after in zip(player.log, player.log[1:]):
            if event[0] == "try":
                assert after[:2] == ("answered", event[1])
    heard = [event[1] for event in white.log if event[0] == "hear"]
    assert heard == [referee.opening] + [turn.announcement for turn in referee.turns]


def test_games_that_differ_only_in_hidden_moves_give_the_same_tries():
    """White plays from one seed against Black from many. Up to the first thing White is told
    differently, White's tries must be the same: its first difference is never a try of its own.
    The check can fail: many pairs of games differ in Black's moves before White can tell."""
    games = []
    for seed in range(40):
        referee, _, white, _ = played(RandomPlayer(7), RandomPlayer(seed))
        games.append((white.log, referee.moves()))
    hidden_differences = 0
    for (log_a, moves_a), (log_b, moves_b) in itertools.combinations(games, 2):
        first = next(i for i, (a, b) in enumerate(zip(log_a, log_b)) if a != b)
        assert log_a[first][0] != "try" and log_b[first][0] != "try"
        white_tries_seen = sum(event[0] == "try" for event in log_a[:first])
        hidden_differences += moves_a[1] != moves_b[1] and white_tries_seen >= 2
    assert hidden_differences >= 50


# --- The tries it cannot rule out ---------------------------------------------------------------

def tries_of(fen, color=chess.WHITE, **announced):
    return set(possible_tries(OwnBoard(fen, color), Announcement(**{**QUIET.__dict__, **announced})))


def test_pawn_captures_only_when_pawn_tries_are_announced():
    fen = "4k3/8/8/8/8/8/3P4/4K3 w - - 0 1"
    assert {"d2c3", "d2e3"}.isdisjoint(tries_of(fen))
    assert {"d2c3", "d2e3", "d2d3", "d2d4"} <= tries_of(fen, pawn_tries=1)


def test_castling_as_o_o_unless_in_check_and_promotion_once_as_a_queen():
    fen = "4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1"
    tries = tries_of(fen)
    assert {"o-o", "o-o-o", "b7b8=q"} <= tries and not {"e1g1", "b7b8=n", "b7b8"} & tries
    assert {"o-o", "o-o-o"}.isdisjoint(tries_of(fen, checks=(Check.RANK,)))
    # An own man between king and rook rules castling out; an unseen enemy man does not.
    assert "o-o-o" not in tries_of("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1")
    assert "o-o-o" in tries_of("4k3/8/8/8/8/8/8/Rn2K2R w KQ - 0 1")
    # A Chess960-style start (king b1, rook a1): castling is still written o-o-o.
    assert "o-o-o" in tries_of("1k6/8/8/8/8/8/8/RK6 w A - 0 1")


# --- The semi-random player's priorities --------------------------------------------------------

def first_tries(player, referee, count):
    """The player's first `count` tries of its turn, each answered as refused (the player cannot
    tell: only its own knowledge is asked)."""
    tries = []
    for _ in range(count):
        tries.append(player.next_try())
        player.answered(tries[-1], False)
    return tries


def after_black(fen, black_move, seed):
    referee = Referee(fen)
    player = SemiRandomPlayer(seed)
    player.start(chess.WHITE, fen)
    player.hear(referee.opening)
    player.hear(referee.try_move(black_move).announcement)
    return player, referee


@pytest.mark.parametrize("seed", range(5))
def test_semi_random_first_takes_back_on_the_capture_square(seed):
    # Black's d5xe4 takes White's pawn; rook e2, knight c3 and queen b1 could take back on e4.
    player, referee = after_black("4k3/8/8/3p4/4P3/2N5/4R3/1Q2K3 b - - 0 1", "d5e4", seed)
    tries = first_tries(player, referee, 4)
    assert set(tries[:3]) == {"e2e4", "c3e4", "b1e4"}
    assert not tries[3].endswith("e4")


@pytest.mark.parametrize("seed", range(5))
def test_semi_random_first_tries_its_pawn_captures_when_pawn_tries_are_announced(seed):
    # After ...f7f5, White's e4 pawn has two pawn tries; a2b3 cannot be ruled out either.
    player, referee = after_black("4k3/5p2/8/3p4/4P3/8/P7/4K2R b - - 0 1", "f7f5", seed)
    assert referee.pawn_tries == 2
    tries = first_tries(player, referee, 4)
    assert set(tries[:3]) == {"e4d5", "e4f5", "a2b3"}
    assert tries[3] not in ("e4d5", "e4f5", "a2b3")


def test_the_random_player_has_no_such_priorities():
    firsts = set()
    for seed in range(20):
        referee = Referee("4k3/8/8/3p4/4P3/2N5/4R3/1Q2K3 b - - 0 1")
        player = RandomPlayer(seed)
        player.start(chess.WHITE, referee.start_fen)
        player.hear(referee.opening)
        player.hear(referee.try_move("d5e4").announcement)
        firsts.add(player.next_try())
    assert not firsts <= {"e2e4", "c3e4", "b1e4"}


# --- Seeds and whole games ----------------------------------------------------------------------

def record(referee):
    return [(turn.refused, turn.move) for turn in referee.turns]


def test_the_same_seeds_give_the_same_game():
    first, _, _, _ = played(SemiRandomPlayer(3), RandomPlayer(4))
    again, _, _, _ = played(SemiRandomPlayer(3), RandomPlayer(4))
    other, _, _, _ = played(SemiRandomPlayer(5), RandomPlayer(4))
    assert record(first) == record(again) != record(other)


def test_a_player_passing_the_try_cap_loses():
    referee, result, _, _ = played(RandomPlayer(1), RandomPlayer(2), "4k3/8/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
                                   try_cap=1)
    assert (result.result, result.termination) in (("0-1", "try cap"), ("1-0", "try cap"))
    assert referee.outcome is None and referee.tries_this_turn == 1


class Scribbler(RandomPlayer):
    """Writes a try the referee cannot read."""

    def next_try(self):
        return "Nf3"


def test_a_player_writing_a_try_the_referee_cannot_read_loses():
    referee = Referee()
    result = play_game(RandomPlayer(1), Scribbler(2), referee)
    assert (result.result, result.termination) == ("1-0", "bad try") and len(referee.turns) == 1


@pytest.mark.parametrize("white_kind, black_kind", [(RandomPlayer, RandomPlayer), (SemiRandomPlayer, RandomPlayer)])
def test_seeded_games_end_by_the_rules_and_their_pgn_reads_back(white_kind, black_kind):
    """GAMES games, colours alternating (the first kind is White in the even games); the tally of
    results and endings from the first kind's side is printed (docs/kriegspiel.md gives it)."""
    tally = collections.Counter()
    for number in range(GAMES):
        first, second = white_kind(number), black_kind(10_000 + number)
        white, black = (first, second) if number % 2 == 0 else (second, first)
        referee, result, _, _ = played(white, black)
        assert referee.outcome is not None and result.result == referee.outcome.result()
        assert all(len(set(turn.refused)) == len(turn.refused) for turn in referee.turns)
        game = game_from_referee(referee, {"Round": str(number + 1)})
        for kept in (game, game.filtered(chess.WHITE), game.filtered(chess.BLACK)):
            text = kept.pgn()
            assert read_game(text).pgn() == text
        won = {"1-0": number % 2 == 0, "0-1": number % 2 == 1}.get(result.result)
        tally["draw" if won is None else "win" if won else "loss", result.termination] += 1
    print(f"\n{white_kind.__name__} vs {black_kind.__name__}:", dict(sorted(tally.items())))
    assert sum(tally.values()) == GAMES
