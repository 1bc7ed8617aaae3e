"""The bare enemy king (pyrope._kriegspiel.BareKing, pyrope.kriegspiel.endgame; issue 16 item 3,
the thesis's chapter 6). The referee is the oracle: for every square where the king may stand, the
referee's answer to our try on that true board must put the square in the set BareKing keeps for
that answer, and the king's true square must stay in the set over whole games. The search must
take a mate in one when the king is known, never risk a stalemate, and win the 3-piece endings."""
import random

import chess
import pytest

from pyrope._kriegspiel import BareKing
from pyrope.kriegspiel import Referee
from pyrope.kriegspiel.endgame import BareKingPlayer, bare_king_squares, bare_king_start, packed, unpacked
from pyrope.kriegspiel.players import CentreSeekingPlayer, RandomPlayer, play_game

ENDINGS = {"KRK": [chess.ROOK], "KQK": [chess.QUEEN], "KBBK": [chess.BISHOP, chess.BISHOP],
           "KRPK": [chess.ROOK, chess.PAWN], "KPPK": [chess.PAWN, chess.PAWN]}


def ours(board: chess.Board, color: chess.Color):
    return [(square, piece.piece_type) for square, piece in board.piece_map().items() if piece.color == color]


def with_king(board: chess.Board, color: chess.Color, king: chess.Square) -> chess.Board:
    """Our men of `board` and the enemy king on `king`, our move."""
    full = chess.Board(None)
    for square, piece in board.piece_map().items():
        if piece.color == color:
            full.set_piece_at(square, piece)
    full.set_piece_at(king, chess.Piece(chess.KING, not color))
    full.turn = color
    return full


def squares(mask: int) -> set[int]:
    return set(chess.SquareSet(mask))


def starts(count: int, seed: int):
    rng = random.Random(seed)
    for n in range(count):
        pieces = list(ENDINGS.values())[n % len(ENDINGS)]
        color = chess.WHITE if n % 2 == 0 else chess.BLACK
        yield bare_king_start(rng, pieces, color)


@pytest.mark.parametrize("fen", list(starts(60, 6)))
def test_every_answer_splits_the_kings_as_the_referee_answers(fen):
    """For each of our tries from a start with nothing known of the king, the referee's answer
    on each possible true board sends that square to the set BareKing keeps for that answer."""
    board = chess.Board(fen)
    color = board.turn
    kings = bare_king_squares(board, color, our_turn=True)
    assert board.king(not color) in squares(kings)
    moves = BareKing(color == chess.WHITE, ours(board, color), kings).moves()
    assert moves
    for move in moves:
        expected: dict[tuple, set[int]] = {}
        for king in squares(kings):
            referee = Referee(with_king(board, color, king).fen())
            uci = unpacked(move)
            answer = referee.try_move(uci.uci())
            key = ("refused",) if not answer.legal else (answer.announcement.check_bits,
                                                        answer.announcement.outcome is not None)
            expected.setdefault(key, set()).add(king)
        assert any(key != ("refused",) for key in expected), "a pseudomove is legal somewhere"
        for key, where in expected.items():
            search = BareKing(color == chess.WHITE, ours(board, color), kings)
            if key == ("refused",):
                search.refused(move)
                assert squares(search.kings) == where
            elif not key[1]:            # the game goes on: the kings this answer leaves
                search.played(move, key[0])
                assert squares(search.kings) == where, (uci, key)


@pytest.mark.parametrize("fen", list(starts(30, 7)))
def test_the_kings_step_spreads_as_python_chess_moves_it(fen):
    board = chess.Board(fen)
    color = board.turn
    kings = bare_king_squares(board, color, our_turn=False)
    search = BareKing(color == chess.WHITE, ours(board, color), kings)
    search.their_move()
    reached = set()
    for king in squares(kings):
        full = with_king(board, color, king)
        full.turn = not color
        if full.is_valid():
            reached |= {m.to_square for m in full.legal_moves if not full.piece_at(m.to_square)}
    assert squares(search.kings) == reached


@pytest.mark.parametrize("fen", ["k7/8/1K6/8/8/8/8/7R w - - 0 1", "7k/8/6K1/8/8/8/8/1Q6 w - - 0 1",
                                 "k7/8/2K5/8/8/8/8/1Q6 w - - 0 1"])
def test_a_known_king_is_mated_at_once(fen):
    board = chess.Board(fen)
    found = BareKing(True, ours(board, chess.WHITE), chess.BB_SQUARES[board.king(chess.BLACK)]).best(2)
    assert found is not None
    move, value = found
    board.push(unpacked(move))
    assert board.is_checkmate(), board.fen()
    assert value > 1e8


def test_a_move_that_may_stalemate_is_never_chosen():
    """King a8 or a7, our king c6, rook b1: several rook and king moves would leave a king on a8
    or a7 without a move; whatever the depth, the move chosen stalemates none of them."""
    board = chess.Board("k7/8/2K5/8/8/8/8/1R6 w - - 0 1")
    kings = chess.BB_A8 | chess.BB_A7
    for depth in (1, 2, 3, 4):
        move, _ = BareKing(True, ours(board, chess.WHITE), kings).best(depth)
        move = unpacked(move)
        for king in squares(kings):
            full = with_king(board, chess.WHITE, king)
            if move in full.legal_moves:
                full.push(move)
                assert not full.is_stalemate(), (depth, full.fen())


def test_a_loose_man_whose_loss_would_draw_is_kept():
    """King g8 or h8, our king f6, rook f7 (guarded): a rook step along the seventh rank to h7
    leaves it to a king that may take it -- a draw -- so the search keeps it guarded."""
    board = chess.Board("6k1/5R2/5K2/8/8/8/8/8 w - - 0 1")
    search = BareKing(True, ours(board, chess.WHITE), chess.BB_G8 | chess.BB_H8)
    for depth in (1, 2, 3, 4):
        move, value = search.best(depth)
        assert move != packed(chess.Move.from_uci("f7h7")), depth
        assert value > -1e8


@pytest.mark.parametrize("ending", sorted(ENDINGS))
def test_the_true_king_stays_in_the_set_and_games_end_without_stalemate(ending):
    """Whole games against a random king from starts where nothing is known: after every answer
    the king's true square is one the player keeps, and no game ends in stalemate."""
    rng = random.Random(ending)
    for game in range(12):
        color = chess.WHITE if game % 2 == 0 else chess.BLACK
        referee = Referee(bare_king_start(rng, ENDINGS[ending], color))
        player = BareKingPlayer(depth=2, known=False)
        checked = Watched(player, referee)
        players = {color: checked, not color: RandomPlayer(seed=game)}
        result = play_game(players[chess.WHITE], players[chess.BLACK], referee)
        assert result.termination != "stalemate", referee.start_fen
        assert checked.checks > 0


class Watched(BareKingPlayer):
    """A BareKingPlayer's knowledge checked against the referee after every message it hears."""

    def __init__(self, player: BareKingPlayer, referee: Referee) -> None:
        self.__dict__.update(player.__dict__)
        self.referee, self.checks = referee, 0

    def check(self) -> None:
        if self.referee.outcome is not None:
            return
        true_king = chess.Board(self.referee.fen()).king(not self.color)
        assert self.kings >> true_king & 1, (self.referee.fen(), sorted(squares(self.kings)))
        self.checks += 1

    def hear(self, announcement) -> None:
        super().hear(announcement)
        self.check()

    def answered(self, text: str, legal: bool) -> None:
        super().answered(text, legal)
        self.check()


@pytest.mark.parametrize("piece,opponent", [(chess.ROOK, RandomPlayer), (chess.ROOK, CentreSeekingPlayer),
                                            (chess.QUEEN, RandomPlayer), (chess.QUEEN, CentreSeekingPlayer)])
def test_krk_and_kqk_are_won_within_the_fifty_move_rule(piece, opponent):
    """Twelve starts each with nothing known: every one mated within the fifty-move rule
    (bench/kriegspiel.py endgame plays 500 a pairing)."""
    rng = random.Random(piece)
    for game in range(12):
        referee = Referee(bare_king_start(rng, [piece]))
        result = play_game(BareKingPlayer(known=False), opponent(seed=game), referee)
        assert result.termination == "checkmate" and result.result == "1-0", (referee.start_fen, result)


def test_a_player_hands_over_to_the_search_once_the_enemy_is_bare():
    """Semi-random with endgame=1 against random: once the enemy is bare, the bare-king search
    plays on from the metaposition's possible kings, which hold the true king after every message;
    it converts far more games than semi-random alone (same seeds)."""
    from pyrope.kriegspiel.endgame import HandOver
    from pyrope.kriegspiel.players import SemiRandomPlayer
    from pyrope.kriegspiel.roster import builtin

    handed, wins, wins_alone = 0, 0, 0
    for game in range(16):
        for endgame in (1, 0):
            referee = Referee()
            player = builtin("semi-random", str(game), seed=1, endgame=endgame)
            players = {chess.WHITE: player, chess.BLACK: RandomPlayer(seed=100 + game)}
            if endgame:
                assert isinstance(player, HandOver)
                watched = KingWatch(player, referee)
                players[chess.WHITE] = watched
            result = play_game(players[chess.WHITE], players[chess.BLACK], referee)
            assert result.termination != "crash"
            if endgame:
                handed += watched.checks > 0
                wins += result.result == "1-0"
            else:
                assert isinstance(player, SemiRandomPlayer)
                wins_alone += result.result == "1-0"
    assert handed >= 8
    assert wins > wins_alone


class KingWatch:
    """A HandOver player whose bare-king set is checked against the referee once it hands over."""

    def __init__(self, player, referee: Referee) -> None:
        self.player, self.referee, self.checks = player, referee, 0

    def __getattr__(self, name):
        return getattr(self.player, name)

    def check(self) -> None:
        if self.player.playing is self.player.inner or self.referee.outcome is not None:
            return
        true_king = chess.Board(self.referee.fen()).king(not self.player.color)
        assert self.player.playing.kings >> true_king & 1, self.referee.fen()
        self.checks += 1

    def start(self, color, fen) -> None:
        self.player.start(color, fen)

    def hear(self, announcement) -> None:
        self.player.hear(announcement)
        self.check()

    def answered(self, text, legal) -> None:
        self.player.answered(text, legal)
        self.check()

    def next_try(self) -> str:
        return self.player.next_try()


# --- A king and stuck pawns -----------------------------------------------------------------------

STUCK = ["7k/7p/7P/8/8/8/8/4KQ2 w - - 0 1",          # h7 blocked by h6: Qf7 would stalemate
         "7k/7p/1p5P/pP6/P7/8/8/4KQ2 w - - 0 1",      # three blocked pawns
         "k7/p7/P7/8/8/8/8/4K2R w - - 0 1",
         "8/2k5/3p4/p2P4/P7/8/8/Q3K3 w - - 0 1"]


@pytest.mark.parametrize("fen", STUCK)
def test_a_king_with_pawns_that_cannot_move_is_mated_by_the_search_that_keeps_them_stuck(fen):
    """The enemy has its king and pawns blocked by ours, all known: the hand-over gives them to
    the bare-king search as walls (it never frees one: our blockers stay, no man of ours steps
    where a pawn could take), and the search mates against a random king -- the random player
    alone would wander into stalemate or the fifty-move rule. The true king stays in the set."""
    from pyrope.kriegspiel.endgame import HandOver

    for seed in range(3):
        referee = Referee(fen)
        player = HandOver(RandomPlayer(seed))
        watched = KingWatch(player, referee)
        result = play_game(watched, RandomPlayer(seed=100 + seed), referee)
        assert isinstance(player.playing, BareKingPlayer)
        assert (result.result, result.termination) == ("1-0", "checkmate"), (fen, seed, referee.fen())


def test_pawns_are_walls_only_while_each_is_sure_and_stuck():
    from pyrope.kriegspiel.endgame import HandOver

    def walls(fen):
        player = HandOver(RandomPlayer(0))
        player.start(chess.WHITE, fen)
        return player.stuck_pawns()

    assert walls("7k/7p/1p5P/pP6/P7/8/8/4KQ2 w - - 0 1") == chess.BB_H7 | chess.BB_B6 | chess.BB_A5
    assert walls("7k/8/8/8/8/8/8/4KQ2 w - - 0 1") == 0                 # a bare king
    assert walls("7k/7p/8/8/8/8/8/4KQ2 w - - 0 1") is None              # h7 may step
    assert walls("7k/7p/6PP/8/8/8/8/4KQ2 w - - 0 1") is None            # h7 may take g6
    assert walls("6nk/7p/7P/8/8/8/8/4KQ2 w - - 0 1") is None            # a knight is left
    assert walls("7k/7p/7P/8/8/8/8/4KN2 w - - 0 1") is None             # no queen or rook to mate
    # In the search, the blocker on h6 never moves and no man steps onto g6 (h7 would take).
    search = BareKing(True, [(chess.E1, chess.KING), (chess.F1, chess.QUEEN), (chess.H6, chess.PAWN)],
                      chess.BB_H8, chess.BB_H7)
    moves = [unpacked(move) for move in search.moves()]
    assert moves and all(move.from_square != chess.H6 and move.to_square != chess.G6 for move in moves)
    assert unpacked(search.best(2)[0]) != chess.Move(chess.F1, chess.F7)    # the stalemate


def test_a_stuck_pawn_set_free_hands_the_game_to_random_tries_not_to_a_crash():
    """Were the king ever to take a man that keeps a pawn stuck, the search's belief would no
    longer hold the truth: the player falls back to tries it cannot rule out."""
    from pyrope.kriegspiel.endgame import HandOver

    fen = "8/7p/6kP/8/8/8/Q7/K7 w - - 0 1"
    referee, player = Referee(fen), HandOver(RandomPlayer(0))
    player.start(chess.WHITE, fen)
    player.hear(referee.opening)
    assert isinstance(player.playing, BareKingPlayer)
    player.playing._tried = chess.Move.from_uci("a2b1")            # h6 left loose, as if forced
    answer = referee.try_move("a2b1")
    player.answered("a2b1", True)
    player.hear(answer.announcement)
    answer = referee.try_move("g6h6")                               # the king takes the blocker
    player.hear(answer.announcement)
    assert isinstance(player.playing, RandomPlayer)
    assert referee.try_move(player.next_try()) is not None
