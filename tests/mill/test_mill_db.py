"""Mill endgame databases: the compiled solver against an independent Python one, entries against
their successors, symmetric images, the file checks, and perfect play from database positions."""
from __future__ import annotations

import dataclasses
import random
import shutil
import sys
from pathlib import Path

import pytest

from pyrope.mill import MillBoard
from pyrope.mill import fen as fen_io
from pyrope.mill.db import tables
from pyrope.mill.db.build import dependencies, load_or_build, order, parse_classes
from pyrope.mill.db.probe import DEFAULT_DIR, MillDatabase, Value
from pyrope.mill.db.symmetry import symmetries
from pyrope.mill.db.verify import check_class
from pyrope.mill.geometry import INDEX
from pyrope.mill.match.players import OPENSPIEL_TURN_LIMIT
from pyrope.mill.rules import MillRules
from pyrope.mill.search import MillSearcher
from pyrope.mill.uci import MillUgiFrontEnd

sys.path.insert(0, str(Path(__file__).parent))
from mill_db_reference import BIT, POINTS, ReferenceSolver  # noqa: E402
from test_mill_protocol import InProcess, bestmove, errors  # noqa: E402

CLASSES = [(3, 3), (4, 3)]
pytestmark = pytest.mark.xdist_group("mill_db")   # its module fixture builds databases


@pytest.fixture(scope="module", params=["nine", "twelve"])
def built(request, tmp_path_factory):
    rules = MillRules.from_options(request.param)
    out = tmp_path_factory.mktemp(f"db-{request.param}")
    load_or_build(rules, CLASSES, out, threads=1, report=lambda line: None)
    return rules, out, MillDatabase(rules, out)


def to_core(bits: int) -> int:
    """A reference bit set (points in name order) as the core's (FEN order)."""
    return sum(1 << INDEX[p] for i, p in enumerate(POINTS) if bits >> i & 1)


def random_position(rng: random.Random) -> tuple[int, int]:
    """(mover, other) of a random placement-free position of the built classes (core bit sets)."""
    m, o = rng.choice([(3, 3), (4, 3), (3, 4)])
    points = rng.sample(range(24), m + o)
    return sum(1 << p for p in points[:m]), sum(1 << p for p in points[m:])


@pytest.mark.slow
@pytest.mark.parametrize("variant", ["nine", "twelve"])
def test_reference_solver_agrees_on_every_position(variant, tmp_path):
    """Every canonical position of 3-3 and 4-3: same result and distance (3-3 about 2.5 min, 4-3 far more)."""
    rules = MillRules.from_options(variant)
    load_or_build(rules, CLASSES, tmp_path, report=lambda line: None)
    db = MillDatabase(rules, tmp_path)
    reference = ReferenceSolver(dataclasses.asdict(rules))
    for a, b in CLASSES:
        reference.solve(a, b)
    assert len(reference.value) > 1_500_000
    for (mover, other), (result, distance) in reference.value.items():
        value = db.probe_sets(to_core(mover), to_core(other))
        assert value == Value({"W": "win", "L": "loss", "D": "draw"}[result], distance), (mover, other)


def test_reference_solver_agrees_on_3_3_sample(built):
    """The reference solves 3-3 whole only with --runslow; here its values of positions near the end."""
    rules, _, db = built
    reference = ReferenceSolver(dataclasses.asdict(rules))
    rng = random.Random(5)
    checked = 0
    while checked < 300:
        points = rng.sample(range(24), 6)
        mover, other = sum(1 << p for p in points[:3]), sum(1 << p for p in points[3:])
        children = reference.children(mover, other)
        if None not in children and children:
            continue            # only positions with a win in one, or a block, are known without solving
        expected = Value("win", 1) if None in children else Value("loss", 0)
        assert db.probe_sets(to_core(mover), to_core(other)) == expected
        checked += 1


def test_reference_solver_passes_a_removal_win_on_once(tmp_path):
    """The position that held twelve's tables back, a1 a4 a7 to move against b2 c3 c4 g4, is a
    draw, as the compiled solver says; the reference made it a win in 13 through this line. After
    a4-g1 the four stones (P) have seven turns, g4-f4 to a draw (D); after g4-g7 (C) the flying
    side wins in 11 both by a removal and by a1-c5 (G, lost in 10). The reference queued C at level
    11 for the removal and settled it there again through G, passed its win to P twice, and so
    found P lost in 12 with D's turn still open. Solved here with the rest of the line's turns
    valued from the compiled tables (their values agree with the full reference solve)."""
    rules = MillRules.from_options("twelve")
    load_or_build(rules, CLASSES, tmp_path, report=lambda line: None)
    db = MillDatabase(rules, tmp_path)
    reference = ReferenceSolver(dataclasses.asdict(rules))

    def key(mover: str, other: str) -> tuple[int, int]:
        return reference.canonical(*(sum(BIT[p] for p in side.split()) for side in (mover, other)))

    line = {"start": key("a1 a4 a7", "b2 c3 c4 g4"), "P": key("b2 c3 c4 g4", "a1 a7 g1"),
            "C": key("a1 a7 g1", "b2 c3 c4 g7"), "G": key("b2 c3 c4 g7", "a7 c5 g1"),
            "D": key("a1 a7 g1", "b2 c3 c4 f4")}
    for position in line.values():
        for child in reference.children(*position):
            if child is not None and child not in line.values():
                value = db.probe_sets(to_core(child[0]), to_core(child[1]))
                reference.value[child] = ({"win": "W", "loss": "L", "draw": "D"}[value.result], value.distance)
    reference.solve_positions(set(line.values()))
    solved = {name: reference.value[position] for name, position in line.items()}
    assert solved == {"start": ("D", None), "P": ("D", None), "C": ("W", 11), "G": ("L", 10), "D": ("D", None)}
    for name, position in line.items():
        value = db.probe_sets(to_core(position[0]), to_core(position[1]))
        assert (value.result[0].upper(), value.distance) == solved[name]


@pytest.mark.parametrize("variant", ["nine", "lasker", "twelve"])
def test_shipped_tables_load(variant):
    """3-3, 4-3, 4-4 and 5-3 ship for nine (lasker's too) and twelve; the disputed twelve position
    is the draw it is."""
    db = MillDatabase(MillRules.from_options(variant), DEFAULT_DIR)
    assert db.errors == [] and db.classes == [(3, 3), (4, 3), (4, 4), (5, 3)]
    if variant == "twelve":
        mover, other = (sum(1 << INDEX[p] for p in side.split()) for side in ("a1 a4 a7", "b2 c3 c4 g4"))
        assert db.probe_sets(mover, other) == Value("draw", None)


@pytest.mark.parametrize("cls", CLASSES)
def test_entries_agree_with_successors(built, cls):
    _, _, db = built
    checked, faults = check_class(db, *cls, sample=1500)
    assert checked == (1500 if cls[0] == cls[1] else 3000) and faults == []


def test_symmetric_images_and_colours_probe_the_same(built):
    rules, _, db = built
    perms = symmetries(rules.lines())
    assert len(perms) == 16     # the ring swap keeps twelve's diagonals too
    rng = random.Random(7)
    for _ in range(300):
        mover, other = random_position(rng)
        value = db.probe_sets(mover, other)
        for perm in perms:
            image = [sum(1 << perm[p] for p in range(24) if bits >> p & 1) for bits in (mover, other)]
            assert db.probe_sets(*image) == value
        white, black = (mover, other)
        assert db.probe((white, black, 0, 0, 0, 0)) == db.probe((black, white, 0, 0, 1, 0)) == value


def test_playing_the_databases_turn_takes_the_stored_distance(built):
    """Both sides play the perfect turn: a win ends in exactly its distance, a draw stays a draw."""
    _, _, db = built
    rng = random.Random(11)
    for _ in range(200):
        mover, other = random_position(rng)
        start = db.probe_sets(mover, other)
        for played in range(60 if start.result == "draw" else start.distance + 1):
            value = db.probe_sets(mover, other)
            if value.result != "draw" and value.distance == 0:
                break
            best = db.best_turn((mover, other, 0, 0, 0, 0))
            assert best is not None and best[1] == value
            frm, to, removed = best[0]
            mover, other = other & ~removed, mover ^ (1 << frm) | (1 << to)
            if bin(mover).count("1") < 3:
                played += 1
                break
        else:
            played = None
        if start.result == "draw":
            assert played is None
        else:
            assert played == start.distance


def test_two_byte_files_probe_as_one_byte_files(built, tmp_path):
    rules, out, db = built
    core = db.core
    sizes = (core.section_size(4, 3), core.section_size(3, 4))
    wide = memoryview(bytearray(2 * sum(sizes))).cast("H")
    for i, entry in enumerate(db.tables[(4, 3)].entries):
        wide[i] = entry
    shutil.copy(out / tables.file_name(rules, 3, 3), tmp_path)
    tables.write(tmp_path / tables.file_name(rules, 4, 3), rules, 4, 3, sizes, wide, 2)
    again = MillDatabase(rules, tmp_path)
    assert again.classes == [(3, 3), (4, 3)] and again.tables[(4, 3)].entries.itemsize == 2
    rng = random.Random(23)
    for _ in range(500):
        mover, other = random_position(rng)
        assert again.probe_sets(mover, other) == db.probe_sets(mover, other)


def test_fingerprint_is_the_rules_after_placement():
    nine = MillRules.from_options("nine")
    assert tables.fingerprint(nine) == tables.fingerprint(MillRules.from_options("nine", NMoveRule=30))
    assert tables.fingerprint(nine) == tables.fingerprint(MillRules.from_options("lasker"))
    assert tables.fingerprint(nine) != tables.fingerprint(MillRules.from_options("twelve"))
    assert tables.fingerprint(nine) != tables.fingerprint(MillRules.from_options("nine", MayFly=False))


def test_classes_are_built_after_what_they_remove_into():
    nine = MillRules.from_options("nine")
    assert dependencies(nine, 5, 4) == {(5, 3), (4, 4)}
    assert order(nine, [(4, 4)]) == [(3, 3), (4, 3), (4, 4)]
    assert parse_classes("3-3, 3-4") == [(3, 3), (4, 3)]
    for bad in ("3-2", "x", "13-3"):
        with pytest.raises(ValueError):
            parse_classes(bad)


def _damaged(built, tmp_path, damage):
    rules, out, _ = built
    for path in out.glob("*.mdb"):
        shutil.copy(path, tmp_path / path.name)
    victim = tmp_path / tables.file_name(rules, 4, 3)
    damage(victim, rules)
    db = MillDatabase(rules, tmp_path)
    assert db.classes == [(3, 3)]
    assert len(db.errors) == 1 and victim.name in db.errors[0]
    return db.errors[0]


def test_truncated_file_is_named_and_left_unused(built, tmp_path):
    def cut(path, rules):
        data = path.read_bytes()
        path.write_bytes(data[:len(data) // 2])
    assert "truncated" in _damaged(built, tmp_path, cut)


def test_corrupt_file_is_named_and_left_unused(built, tmp_path):
    def flip(path, rules):
        data = bytearray(path.read_bytes())
        data[-100] ^= 1
        path.write_bytes(bytes(data))
    assert "corrupt" in _damaged(built, tmp_path, flip)


def test_file_of_other_rules_is_named_and_left_unused(built, tmp_path):
    def other(path, rules):
        data = bytearray(path.read_bytes())
        data[12:44] = tables.fingerprint(MillRules.from_options("nine", MayFly=False))
        path.write_bytes(bytes(data))
    assert "other rules" in _damaged(built, tmp_path, other)


def test_missing_directory_is_named_and_play_goes_on(tmp_path):
    db = MillDatabase(MillRules.from_options("nine"), tmp_path / "nowhere")
    assert db.classes == [] and len(db.errors) == 1 and "nowhere" in db.errors[0]
    assert db.probe((0b111, 0b111000, 0, 0, 0, 0)) is None


def board_of(rules: MillRules, mover: int, other: int, **changes) -> MillBoard:
    """The placement-free position with white (the mover) to play."""
    return MillBoard(fen_io.write((mover, other, 0, 0, 0, 0, 0, 1)), **{**dataclasses.asdict(rules), **changes})


def test_searcher_plays_database_positions_perfectly(built):
    """Both sides take the searcher's turn: a win or loss ends after exactly its distance, a draw
    never turns into a loss."""
    rules, _, db = built
    searcher = MillSearcher(hash_mb=1)
    rng = random.Random(13)
    for _ in range(150):
        board = board_of(rules, *random_position(rng))
        start = db.probe(board._core.position())
        for _ in range(start.distance or 12):
            if board.is_game_over():
                break
            value = db.probe(board._core.position())
            result = searcher.search(board, depth=2, database=db)
            assert result.depth == 1 and result.nodes == 0      # answered by the database
            board.push(result.move)
            after = db.probe(board._core.position())
            assert after.after() == value
        if start.result == "draw":
            assert not board.is_game_over() or board.result() == "1/2-1/2"
        else:
            assert board.result() == ("1-0" if start.result == "win" else "0-1")
            assert len(board.move_stack) == start.distance


def test_a_win_longer_than_the_move_count_allows_is_searched(built):
    rules, _, db = built
    rng = random.Random(17)
    searcher = MillSearcher(hash_mb=1)
    while True:
        mover, other = random_position(rng)
        value = db.probe_sets(mover, other)
        if value.result == "win" and value.distance >= 5:
            break
    trusted = searcher.search(board_of(rules, mover, other), depth=2, database=db)
    limited = board_of(rules, mover, other, NMoveRule=3, EndgameNMoveRule=3)
    searched = searcher.search(limited, depth=2, database=db)
    assert trusted.nodes == 0 and trusted.mate == (value.distance + 1) // 2
    assert searched.nodes > 0


def test_ugi_go_in_a_database_position_answers_a_perfect_turn(built):
    rules, out, db = built
    engine = InProcess(MillUgiFrontEnd)
    variant = "nine" if not rules.HasDiagonalLines else "twelve"
    assert errors(engine.send("ugi", f"setoption name Variant value {variant}",
                              f"setoption name MillDBPath value {out}", "uginewgame")) == []
    rng = random.Random(19)
    for _ in range(5):
        mover, other = random_position(rng)
        fen = fen_io.write((mover, other, 0, 0, 0, 0, 0, 1))
        lines = engine.send(f"position fen {fen}", "go depth 3")
        board = board_of(rules, mover, other)
        turns = dict((board._text(move), value) for move, value in db.turn_values(board._core.position()))
        best = max(value.rank() for value in turns.values())
        assert turns[bestmove(lines)].rank() == best
        assert any(" tbhits 1 " in line for line in lines if line.startswith("info depth"))


def test_a_bad_database_path_is_named_and_play_goes_on(tmp_path):
    engine = InProcess(MillUgiFrontEnd)
    lines = engine.send("ugi", f"setoption name MillDBPath value {tmp_path / 'nowhere'}", "uginewgame",
                        "position fen O.@/.../.O./.@..@./.../.../..O b 0 0 0 0 30", "go depth 2")
    assert any("nowhere" in line and line.startswith("info string") for line in lines)
    assert bestmove(lines)


def test_two_threads_build_the_same_file(built, tmp_path):
    rules, out, _ = built
    load_or_build(rules, CLASSES, tmp_path, threads=2, report=lambda line: None)
    for a, b in CLASSES:
        name = tables.file_name(rules, a, b)
        assert (tmp_path / name).read_bytes() == (out / name).read_bytes()


# --- OpenSpiel's own search confirms the short wins ----------------------------------------------

def openspiel_children(state):
    """The states after each complete turn of the side to move (a removal it earns included)."""
    from test_mill_match import openspiel_turns
    children = []
    for actions in openspiel_turns(state).values():
        child = state.clone()
        for action in actions:
            child.apply_action(action)
        children.append(child)
    return children


def openspiel_wins_within(state, turns: int) -> bool:
    """Whether the side to move wins within `turns` complete turns, by a plain search on
    OpenSpiel's own game (its rules, its move generation; nothing of Pyrope's)."""
    mover = state.current_player()
    for child in openspiel_children(state):
        if child.is_terminal():
            if child.returns()[mover] > 0:
                return True
            continue
        if turns >= 3 and all(not grandchild.is_terminal() and openspiel_wins_within(grandchild, turns - 2)
                              or grandchild.is_terminal() and grandchild.returns()[mover] > 0
                              for grandchild in openspiel_children(child)):
            return True
    return False


def short_wins_of_random_openspiel_games(count: int, seed: int):
    """(OpenSpiel state, Pyrope FEN, value) of positions met in random OpenSpiel games of nine men's
    morris that the shipped databases call won in at most 4 turns: count // 2 in 1, the rest in 3
    (and not cut short by OpenSpiel's draw after 200 turns)."""
    pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open-spiel)")
    from test_mill_match import openspiel_turns
    game, rng = pyspiel.load_game("nine_mens_morris"), random.Random(seed)
    database = MillDatabase(MillRules.from_options("nine"), DEFAULT_DIR)
    wanted = {1: count // 2, 3: count - count // 2}
    found, seen = [], set()
    while len(found) < count:
        state, board = game.new_initial_state(), MillBoard()
        while not state.is_terminal() and not board.is_game_over() and len(found) < count:
            value = database.probe(board._core.position())
            if value is not None and value.result == "win" and wanted.get(value.distance) and board.fen() not in seen \
                    and len(board.move_stack) + value.distance <= OPENSPIEL_TURN_LIMIT:   # its draw at turn 200
                seen.add(board.fen())
                wanted[value.distance] -= 1
                found.append((state.clone(), board.fen(), value))
            turns = openspiel_turns(state)
            turn = rng.choice(sorted(turns))
            board.push(turn)
            for action in turns[turn]:
                state.apply_action(action)
    return found


@pytest.mark.parametrize("count", [100, pytest.param(1000, marks=pytest.mark.slow)])
def test_openspiel_confirms_the_databases_short_wins(count):
    """Positions of random OpenSpiel games that the databases call won in 1 or 3 turns: OpenSpiel's
    game, searched exhaustively, wins within that distance and not sooner."""
    positions = short_wins_of_random_openspiel_games(count, seed=count)
    assert {value.distance for _, _, value in positions} == {1, 3}
    for state, fen, value in positions:
        assert openspiel_wins_within(state, value.distance), fen
        if value.distance == 3:
            assert not openspiel_wins_within(state, 1), fen
