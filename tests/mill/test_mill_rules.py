"""Mill rules: pyrope._mill (through pyrope.mill.MillBoard) against the plain referee in
tests/support/mill_reference.py and OpenSpiel's published perft counts; hand-made positions; FEN and
notation round trips; bad input."""
from __future__ import annotations

import dataclasses
import random

import pytest

from mill_reference import Referee, parse_turn
from pyrope.mill import VARIANTS, MillBoard, MillRules

# OpenSpiel nine_mens_morris, complete turns from the start.
OPENSPIEL_PERFT = [24, 552, 12_144, 255_024, 5_140_800]

# (variant, options, games): every preset plus option mixes; lower move limits keep games short.
CONFIGS = [
    ("nine", {}, 300),
    ("twelve", {}, 200),
    ("lasker", {"NMoveRule": 40}, 150),
    ("morabaraba", {}, 150),
    ("nine", {"MayRemoveMultiple": True, "MayRemoveFromMillsAlways": True, "NMoveRule": 30}, 200),
    ("twelve", {"MayRemoveMultiple": True, "NMoveRule": 30}, 200),
    ("nine", {"MayFly": False, "StalemateAction": 4, "NMoveRule": 30}, 200),
    ("nine", {"FlyPieceCount": 4, "EndgameNMoveRule": 8, "NMoveRule": 30}, 200),
    ("lasker", {"ThreefoldRepetitionRule": False, "NMoveRule": 20, "MayRemoveMultiple": True}, 150),
    ("morabaraba", {"MayFly": False, "NMoveRule": 0, "ThreefoldRepetitionRule": True,
                    "EndgameNMoveRule": 0}, 100),
    ("twelve", {"BoardFullAction": 4, "StalemateAction": 4, "NMoveRule": 20}, 150),
    # Blocked sides pass or take instead of losing; full boards are played on (rare in random play:
    # test_full_board_actions builds them).
    ("nine", {"MayFly": False, "StalemateAction": 1, "NMoveRule": 30}, 100),
    ("nine", {"MayFly": False, "StalemateAction": 2, "NMoveRule": 30}, 100),
    ("nine", {"MayFly": False, "StalemateAction": 3, "NMoveRule": 30}, 100),
    ("twelve", {"BoardFullAction": 1, "StalemateAction": 2, "MayFly": False, "NMoveRule": 20}, 60),
    ("twelve", {"BoardFullAction": 2, "StalemateAction": 3, "NMoveRule": 20}, 60),
    ("twelve", {"BoardFullAction": 3, "StalemateAction": 1, "NMoveRule": 20}, 60),
]
MAX_TURNS = 130


def referee(board: MillBoard) -> Referee:
    return Referee(dataclasses.asdict(board.rules))


def core_turns(board: MillBoard) -> set:
    return {parse_turn(text) for text in board.legal_moves()}


def random_play(board: MillBoard, rng: random.Random, turns: int, ref: Referee | None = None) -> None:
    """Up to `turns` random turns (fewer if the game ends), mirrored into `ref` when given."""
    for _ in range(turns):
        moves = board.legal_moves()
        if not moves:
            return
        move = rng.choice(moves)
        board.push(move)
        if ref is not None:
            ref.play(parse_turn(move))


def play_and_compare(board: MillBoard, ref: Referee, rng: random.Random) -> int:
    """A random game checked turn by turn; returns its length."""
    for ply in range(MAX_TURNS):
        assert board.fen() == ref.fen()
        assert board.key == board._core.recomputed_key()
        turns = core_turns(board)
        assert turns == ref.turns(), board.fen()
        result, reason = ref.outcome() if not turns else ("*", None)   # turns() is empty once it ends
        assert (board.result(), board.termination()) == (result, reason), board.fen()
        if not turns:
            assert result != "*"
            return ply
        move = rng.choice(sorted(board.legal_moves()))
        board.push(move)
        ref.play(parse_turn(move))
    return MAX_TURNS


@pytest.mark.parametrize("variant,options,games", CONFIGS, ids=lambda v: str(v) if not isinstance(v, dict) else
                         ",".join(f"{k}={w}" for k, w in v.items()) or "defaults")
def test_random_games_agree_with_reference(variant, options, games):
    rng = random.Random(f"{variant}{sorted(options.items())}")
    ended = 0
    for _ in range(games):
        board = MillBoard(variant=variant, **options)
        start_fen, start_key = board.fen(), board.key
        length = play_and_compare(board, referee(board), rng)
        ended += board.is_game_over()
        for _ in range(length):   # unmake restores everything, key included
            board.pop()
        assert (board.fen(), board.key) == (start_fen, start_key)
    assert ended >= games // 2   # most games reach an end, so the ends are compared too


def test_every_game_end_is_reached():
    """Random games under the configurations above end in these ways (a full board and repetitions
    are rare in random play: hand-made cases below cover them)."""
    seen = set()
    rng = random.Random(7)
    for variant, options, _ in CONFIGS:
        for _ in range(30):
            board = MillBoard(variant=variant, **options)
            random_play(board, rng, MAX_TURNS)
            seen.add(board.termination())
    assert {"fewer than three stones", "move count", "blocked"} <= seen, seen


def test_perft_matches_openspiel():
    board = MillBoard()
    assert [board.perft(d) for d in range(1, 6)] == OPENSPIEL_PERFT


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_perft_from_start_matches_reference(variant):
    board = MillBoard(variant=variant)
    ref = referee(board)
    depth = 4 if variant != "lasker" else 3
    assert [board.perft(d) for d in range(1, depth + 1)] == [ref.perft(d) for d in range(1, depth + 1)]


def test_reference_perft_matches_openspiel():
    ref = referee(MillBoard())
    assert [ref.perft(d) for d in range(1, 5)] == OPENSPIEL_PERFT[:4]


RANDOM_PERFT_CONFIGS = [("nine", {}), ("twelve", {"MayRemoveMultiple": True}), ("lasker", {}), ("morabaraba", {})]


def compare_random_perft(variant, options, positions, depth, seed):
    rng = random.Random(f"perft {variant} {seed}")
    for _ in range(positions):
        board = MillBoard(variant=variant, **options)
        ref = referee(board)
        random_play(board, rng, rng.randrange(4, 40), ref)
        assert board.fen() == ref.fen()
        assert [board.perft(d) for d in range(1, depth + 1)] == [ref.perft(d) for d in range(1, depth + 1)], board.fen()


@pytest.mark.parametrize("variant,options", RANDOM_PERFT_CONFIGS)
def test_perft_from_random_positions_matches_reference(variant, options):
    compare_random_perft(variant, options, 12, 3, 0)


@pytest.mark.slow
@pytest.mark.parametrize("variant,options", RANDOM_PERFT_CONFIGS)
def test_perft_depth_4_from_200_random_positions(variant, options):
    compare_random_perft(variant, options, 50, 4, 1)


@pytest.mark.slow
def test_reference_perft_depth_5_matches_openspiel():
    assert referee(MillBoard()).perft(5) == OPENSPIEL_PERFT[4]


# -- hand-made positions ------------------------------------------------------------------------

def test_two_mills_at_once():
    # White a1 d1 and g4 g7: g1 closes the first rank and the g file together.
    fen = "..O/.../.@./.@...O/.@./.../OO. w 5 5 0 0 9"
    board = MillBoard(fen)
    closing = sorted(m for m in board.legal_moves() if m.startswith("g1"))
    assert closing == ["g1xb4", "g1xd3", "g1xd5"]
    double = MillBoard(fen, MayRemoveMultiple=True)
    closing = sorted(m for m in double.legal_moves() if m.startswith("g1"))
    assert closing == ["g1xb4xd3", "g1xb4xd5", "g1xd3xd5"]
    double.push("g1xd3xb4")
    assert double.fen() == "..O/.../.@./.....O/.../.../OOO b 4 5 0 0 10"
    double.pop()
    with pytest.raises(ValueError, match="must take 2 stones"):
        double.push("g1xb4")


def test_removal_respects_mills_unless_all_stones_are_in_mills():
    board = MillBoard("@@@/.../.../....../.../.../OO. w 6 6 0 0 7")
    assert sorted(m for m in board.legal_moves() if m.startswith("g1")) == ["g1xa7", "g1xd7", "g1xg7"]
    fen = "@@@/.../.../.@..../.../.../OO. w 5 5 0 0 7"
    board = MillBoard(fen)
    assert sorted(m for m in board.legal_moves() if m.startswith("g1")) == ["g1xb4"]
    with pytest.raises(ValueError, match="in a mill"):
        board.push("g1xa7")
    always = MillBoard(fen, MayRemoveFromMillsAlways=True)
    assert len([m for m in always.legal_moves() if m.startswith("g1")]) == 4


def test_second_removal_sees_the_first():
    # g1 closes two mills under MayRemoveMultiple: e4 is black's only stone outside a mill, so it
    # goes first; then the b6-d6-f6 mill is all that is left and any of it may go. Printed
    # alphabetically (b6 before e4) would be illegal, so the legal order is printed.
    board = MillBoard("..O/@@@/.../...@.O/.../.../OO. w 4 4 0 0 9", Variant="nine", MayRemoveMultiple=True)
    assert sorted(m for m in board.legal_moves() if m.startswith("g1")) == ["g1xe4xb6", "g1xe4xd6", "g1xe4xf6"]
    with pytest.raises(ValueError, match="in a mill"):
        board.push("g1xb6xe4")
    assert board.push("g1 xe4 xd6") == "g1xe4xd6"


def test_flying_with_three_stones():
    fen = "O../.@./.../@...@./.../.O./O.@ w 0 0 0 0 40"
    board = MillBoard(fen)
    moves = board.legal_moves()
    assert all("-" in m for m in moves)
    assert len({m.split("x")[0] for m in moves}) == 3 * (24 - 3 - 4)
    grounded = MillBoard(fen, MayFly=False)
    assert set(grounded.legal_moves()) == {"a7-d7", "d2-d1", "d2-b2", "d2-f2", "d2-d3", "a1-d1"}
    four = MillBoard(fen, FlyPieceCount=4)
    assert set(four.legal_moves()) == set(moves)


def test_lasker_places_or_slides():
    board = MillBoard(variant="lasker")
    board.push_moves("d2 d6")
    moves = board.legal_moves()
    assert {"a1", "d2-d1", "d2-d3", "d2-b2", "d2-f2"} <= set(moves)
    assert len(moves) == 22 + 4
    board.push("d2-d3")
    assert board.fen() == ".../.@./.../....../.O./.../... b 9 9 0 1 4"
    assert "d6-d5" in board.legal_moves()
    nine = MillBoard()
    nine.push_moves("d2 d6")
    assert "d2-d3" not in nine.legal_moves() and len(nine.legal_moves()) == 22


def full_board_colouring(diagonal_lines) -> list[int]:
    rng = random.Random(12)
    points = list(range(24))
    while True:
        rng.shuffle(points)
        white = set(points[:12])
        if all(not (set(line) <= white) and not (set(line).isdisjoint(white)) for line in diagonal_lines):
            return sorted(white)


@pytest.mark.parametrize("variant,options,expected", [("twelve", {}, "0-1"), ("morabaraba", {}, "0-1"),
                                                      ("twelve", {"BoardFullAction": 4}, "1/2-1/2")])
def test_full_twelve_men_board(variant, options, expected):
    from pyrope.mill.geometry import POINTS
    board = MillBoard(variant=variant, **options)
    white = full_board_colouring(board.rules.lines())
    black = [p for p in range(24) if p not in white]
    board.push_moves([POINTS[p] for pair in zip(white, black) for p in pair])
    assert board.fen().split()[0].count(".") == 0
    assert (board.result(), board.termination()) == (expected, "board full")
    assert board.legal_moves() == []


@pytest.mark.parametrize("action", [1, 2, 3])
def test_full_board_actions(action):
    """BoardFullAction 1: White takes a stone, then Black; 2: the placement that fills the board
    takes one, then White; 3: White takes one. Then the game goes on, every step as the reference."""
    from pyrope.mill.geometry import POINTS
    board = MillBoard(variant="twelve", BoardFullAction=action)
    ref = referee(board)
    white = full_board_colouring(board.rules.lines())
    black = [p for p in range(24) if p not in white]
    placements = [POINTS[p] for pair in zip(white, black) for p in pair]
    for turn in placements[:-1]:
        board.push(turn)
        ref.play(parse_turn(turn))
    last = [m for m in board.legal_moves() if m.startswith(placements[-1])]
    if action == 2:     # Black's filling placement takes a white stone
        assert last and all(m.startswith(placements[-1] + "x") for m in last)
    else:
        assert last == [placements[-1]]
    assert core_turns(board) == ref.turns()
    board.push(sorted(last)[0])
    ref.play(parse_turn(sorted(last)[0]))
    takers = []
    for _ in range(3):
        assert core_turns(board) == ref.turns(), board.fen()
        assert board.result() == "*" and board.key == board._core.recomputed_key()
        moves = sorted(board.legal_moves())
        if not all(m.startswith("x") for m in moves):
            break
        takers.append(board.turn)
        board.push(moves[0])
        ref.play(parse_turn(moves[0]))
        assert board.fen() == ref.fen()
    stones = board.fen().split()[0].count("O") + board.fen().split()[0].count("@")
    if action == 2:
        assert takers == ["white"] and stones == 22          # Black took with its placement
        assert board.turn == "black"
    elif action == 1:
        assert takers == ["white", "black"] and stones == 22 and board.turn == "white"
    else:
        assert takers == ["white"] and stones == 23 and board.turn == "black"
    assert board.result() == "*"


BLOCKED = "O@./.../.../O@..../.../.@./O@@ w 0 0 0 0 30"     # White cannot move; Black can


def test_blocked_side_passes_under_stalemate_action_1():
    board = MillBoard(BLOCKED, MayFly=False, StalemateAction=1)
    assert board.legal_moves() == ["pass"]
    board.push("pass")
    assert board.turn == "black" and board.fen().split()[5] == "1"     # a pass counts toward NMoveRule
    assert board.legal_moves()                                         # the other side always can move
    assert board.pop() == "pass" and board.fen() == BLOCKED


@pytest.mark.parametrize("action", [2, 3])
def test_blocked_side_takes_a_stone(action):
    board = MillBoard(BLOCKED, MayFly=False, StalemateAction=action)
    moves = board.legal_moves()
    assert moves and all(m.startswith("x") for m in moves)
    if action == 3:
        assert all(len(m) == 3 for m in moves)     # a removal alone; then Black moves
    else:
        assert any("-" in m for m in moves)        # a removal, then a slide into the freed point
        slide = next(m for m in moves if "-" in m)
        assert slide[1:3] == slide.split("-")[1][:2]
    board.push(moves[0])
    assert board.turn == "black"


def test_blocked_side_turns_in_split_form():
    board = MillBoard(BLOCKED, MayFly=False, StalemateAction=2)
    turn = next(m for m in board.legal_moves() if "-" in m)
    removal, slide = turn[:3], turn[3:]
    assert board.push_moves([removal, slide]) == [turn]        # Sanmill's tokens, one turn
    board = MillBoard(BLOCKED, MayFly=False, StalemateAction=3)
    black = MillBoard(BLOCKED, MayFly=False, StalemateAction=3)
    first = board.legal_moves()[0]
    board.push(first)
    reply = board.legal_moves()[0]
    assert black.push_moves([first, reply]) == [first, reply]


def test_blocked_side():
    fen = "O@./.../.../O@..../.../.@./O@@ w 0 0 0 0 30"
    board = MillBoard(fen, MayFly=False)
    assert board.legal_moves() == []
    assert (board.result(), board.termination()) == ("0-1", "blocked")
    draw = MillBoard(fen, MayFly=False, StalemateAction=4)
    assert (draw.result(), draw.termination()) == ("1/2-1/2", "blocked")


def test_under_three_stones():
    board = MillBoard("OO./.../.../....../.../.../@@@ w 0 0 0 0 50")
    assert (board.result(), board.termination()) == ("0-1", "fewer than three stones")
    assert board.legal_moves() == []
    board = MillBoard("OO./.../.../....../.../.../@@@ w 1 0 0 0 50", variant="lasker")
    assert board.result() == "*"   # a stone in hand still counts


def test_move_count_rules():
    fen = "O.O/.../.../....../.../@@@/..O w 0 0 0 99 50"
    board = MillBoard(fen)
    assert board.result() == "*"
    board.push("a7-a4")
    assert (board.result(), board.termination()) == ("1/2-1/2", "move count")
    assert MillBoard(fen.replace(" 99 ", " 10 "), EndgameNMoveRule=10).termination() == "move count"
    four = "O.O/.../.../.O..../..@/@@@/..O w 0 0 0 10 50"
    assert MillBoard(four, EndgameNMoveRule=10).result() == "*"   # neither side is down to three
    assert MillBoard(fen.replace(" 99 ", " 10 "), NMoveRule=10, EndgameNMoveRule=0).termination() == "move count"
    assert MillBoard(fen, NMoveRule=0, EndgameNMoveRule=0).result() == "*"
    assert MillBoard(fen, NMoveRule=0, EndgameNMoveRule=10).result() == "*"   # 0 turns both off
    assert MillBoard(fen.replace(" 99 ", " 20 "), NMoveRule=20, EndgameNMoveRule=30).termination() == "move count"


def test_threefold_repetition():
    fen = "O../.../@.O/.@..@./O../.@./..O w 0 0 0 0 40"
    shuffle = ["a7-d7", "f4-f6", "d7-a7", "f6-f4"] * 2
    board = MillBoard(fen)
    board.push_moves(shuffle[:7])
    assert board.result() == "*"
    board.push(shuffle[7])
    assert (board.result(), board.termination()) == ("1/2-1/2", "threefold repetition")
    off = MillBoard(fen, ThreefoldRepetitionRule=False)
    off.push_moves(shuffle)
    assert off.result() == "*"


# -- notation, FEN, split form --------------------------------------------------------------------

def test_fen_and_notation_round_trip_over_random_games():
    rng = random.Random(3)
    for variant in VARIANTS:
        board = MillBoard(variant=variant, MayRemoveMultiple=True)
        for _ in range(60):
            copy = MillBoard(board.fen(), variant=variant, MayRemoveMultiple=True)
            moves = board.legal_moves()
            assert (copy.fen(), copy.key, copy.legal_moves()) == (board.fen(), board.key, moves)
            for move in moves[:8]:   # each printed turn parses back to itself
                assert copy.push(move) == move
                copy.pop()
            random_play(board, rng, 1)


def test_split_form_is_accepted():
    fen = "..O/.../.@./.@...O/.@./.../OO. w 5 5 0 0 9"
    joined, split = MillBoard(fen), MillBoard(fen)
    joined.push("g1xb4")
    split.push_moves(["g1", "xb4"])
    assert joined.fen() == split.fen()
    split.pop()
    split.push("g1 xb4")
    assert joined.fen() == split.fen()
    pending = MillBoard("..O/.../.@./.@...O/.@./.../OOO w 4 5 1 0 9")
    assert sorted(pending.legal_moves()) == ["xb4", "xd3", "xd5"]
    pending.push("xd5")
    assert pending.fen() == "..O/.../.../.@...O/.@./.../OOO b 4 5 0 0 10"


def test_keys_cover_side_hand_and_pending():
    fens = ["..O/.../.@./.@...O/.@./.../OOO w 4 5 1 0 9", "..O/.../.@./.@...O/.@./.../OOO w 4 5 0 0 9",
            "..O/.../.@./.@...O/.@./.../OOO b 4 5 0 0 9", "..O/.../.@./.@...O/.@./.../OOO w 5 4 0 0 9",
            "..O/.../.@./.@...O/.@./.../OOO w 4 4 0 0 9"]
    keys = {MillBoard(fen, variant="lasker").key for fen in fens}
    assert len(keys) == len(fens)


# -- bad input ------------------------------------------------------------------------------------

def one_sentence(error: ValueError) -> bool:
    text = str(error)
    return "\n" not in text and text.endswith(".") and len(text) < 200


@pytest.mark.parametrize("variant,options", [
    ("chinese", {}), ("nine", {"PiecesCount": 11}), ("nine", {"FlyPieceCount": 5}), ("nine", {"BoardFullAction": 5}),
    ("nine", {"StalemateAction": 7}), ("nine", {"NMoveRule": -1}), ("nine", {"EndgameNMoveRule": "x"}),
    ("nine", {"MayFly": "maybe"}), ("nine", {"Colour": 1}), ("nine", {"Variant": "chinese"}),
])
def test_bad_rules(variant, options):
    with pytest.raises(ValueError) as info:
        MillBoard(variant=variant, **options)
    assert one_sentence(info.value)


def test_options_as_uci_strings():
    rules = MillRules.from_options("nine", MayFly="false", PiecesCount="12", HasDiagonalLines="true")
    assert (rules.MayFly, rules.PiecesCount, rules.HasDiagonalLines) == (False, 12, True)


@pytest.mark.parametrize("fen,token", [
    (None, "h9"), (None, "d4"), (None, "d6-"), (None, "d6-d5-d4"), (None, "d6 d5"), (None, "d6-d5"), (None, "xd6"), (None, "d6xd5"), (None, ""),
    ("..O/.../.@./.@...O/.@./.../OO. w 5 5 0 0 9", "g1"),            # missing removal
    ("..O/.../.@./.@...O/.@./.../OO. w 5 5 0 0 9", "g1xb4xc5"),      # extra removal
    ("..O/.../.@./.@...O/.@./.../OO. w 5 5 0 0 9", "g1xa1"),         # takes own / empty
    ("..O/.../.@./.@...O/.@./.../OO. w 5 5 0 0 9", "g7"),            # occupied
    ("OOO/.@./.@./.@..../O../.../... w 0 0 0 0 30", "a7-a1"),          # not adjacent, four stones: no flying
    ("OOO/.@./.@./.@..../O../.../... w 0 0 0 0 30", "d6-d5"),          # not own stone
    ("OOO/.@./.@./.@..../O../.../... w 0 0 0 0 30", "a4"),             # placement without hand
    ("OO./.../.../....../.../.../@@@ w 0 0 0 0 50", "a7-a4"),          # game over
    ("@@@/.../.../.@..../.../.../OO. w 5 5 0 0 7", "g1xa7"),           # protected stone
])
def test_bad_moves_leave_board_unchanged(fen, token):
    board = MillBoard(fen) if fen else MillBoard()
    before = (board.fen(), board.key)
    with pytest.raises(ValueError) as info:
        board.push(token)
    assert one_sentence(info.value), str(info.value)
    assert (board.fen(), board.key) == before


def test_bad_move_sequence_is_undone():
    board = MillBoard()
    with pytest.raises(ValueError, match="Turn 3"):
        board.push_moves("d6 d2 d6")
    assert board.fen() == MillBoard().fen()


@pytest.mark.parametrize("fen", [
    ".../.../... w 9 9 0 0 1",
    ".../.../.../....../.../.../... w 9 9 0 0",
    ".../.../.../...../.../.../... w 9 9 0 0 1",
    "..X/.../.../....../.../.../... w 9 9 0 0 1",
    ".../.../.../....../.../.../... x 9 9 0 0 1",
    ".../.../.../....../.../.../... w 10 9 0 0 1",
    "OOO/OOO/OOO/O...../.../.../... w 0 9 0 0 1",
    ".../.../.../....../.../.../... b 9 9 0 0 1",
    ".../.../.../....../.../.../... w 9 9 1 0 1",
    "OOO/.../.../....../.../.../... w 6 9 2 0 1",
    "OOO/.../.../....../.../.../... b 6 6 1 0 1",
    ".../.../.../....../.../.../... w 9 9 0 -1 1",
    ".../.../.../....../.../.../... w 9 9 0 0 0",
    ".../.../.../....../.../.../... w nine 9 0 0 1",
])
def test_impossible_fens(fen):
    board = MillBoard()
    board.push("d6")
    before = board.fen()
    with pytest.raises(ValueError) as info:
        board.set_fen(fen)
    assert one_sentence(info.value), str(info.value)
    assert board.fen() == before


def test_pop_on_empty_history():
    with pytest.raises(IndexError):
        MillBoard().pop()


def test_presets_are_sanmills():
    presets = {name: dataclasses.asdict(rules) for name, rules in VARIANTS.items()}
    assert presets["nine"] == dataclasses.asdict(MillRules())
    assert presets["twelve"]["PiecesCount"] == 12 and presets["twelve"]["HasDiagonalLines"]
    assert presets["lasker"]["PiecesCount"] == 10 and presets["lasker"]["MayMoveInPlacingPhase"]
    changed = {n: {k for k, v in p.items() if v != presets["nine"][k]} for n, p in presets.items()}
    assert changed == {"nine": set(), "twelve": {"PiecesCount", "HasDiagonalLines"},
                       "lasker": {"PiecesCount", "MayMoveInPlacingPhase"},
                       "morabaraba": {"PiecesCount", "HasDiagonalLines", "MayRemoveMultiple"}}
