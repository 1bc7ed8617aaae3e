"""Pyrope's own endgame tables (distance to mate): generation, the shipped set, probing and bad files.

The oracles: Syzygy's WDL (through chess.syzygy for sampled positions, and through the compiled
Syzygy probe, itself checked against chess.syzygy in test_syzygy.py, for every position of every
table), the known longest mates, and python-chess playing out the mating lines.
"""
from __future__ import annotations

import random
import shutil
import struct
import subprocess
import sys
from pathlib import Path

import chess
import chess.syzygy
import pytest

from pyrope._core import Board, DtmGenerator, DtmTables, TablebaseError, Tablebases
from pyrope.dtm.generate import all_endings, generate_table, plan, smaller_endings
from pyrope.play.tablebases import DEFAULT_DTM_PATH, TablebasePlayer
from pyrope.selfplay.endgames import random_endgame
from paths import SYZYGY, needs


SHIPPED = ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK", *all_endings(4, pawns=False)]
KNOWN_LONGEST_MATES = {"KQvK": 10, "KRvK": 16, "KBBvK": 19, "KBNvK": 33}   # moves

needs_syzygy = needs(SYZYGY)
needs_shipped = pytest.mark.skipif(not (DEFAULT_DTM_PATH / "KQvK.ptb").exists(),
                                   reason="the shipped tables are not installed (pip install ., not -e)")


def generate(name: str, out: Path) -> DtmGenerator:
    generator = DtmGenerator(name, DtmTables(str(out)))
    generator.initialise(0, generator.entries)
    while generator.run_level():
        pass
    generator.write(str(out / f"{generator.name}.ptb"))
    return generator


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """KQvK, KRvK, KBvK, KNvK and KPvK made from nothing, as `pyrope tb generate` would."""
    out = tmp_path_factory.mktemp("dtm")
    for name in plan(["KPvK"], set()):
        generate(name, out)
    return out


@pytest.fixture(scope="module")
def syzygy(syzygy_dir):
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tablebase:
        yield tablebase


def test_plan_makes_smaller_tables_first():
    assert smaller_endings("KPvK") == {"KQvK", "KRvK", "KBvK", "KNvK"}
    assert smaller_endings("KQvKR") == {"KQvK", "KRvK"}
    assert smaller_endings("KPvKP") == {"KPvK", "KQvKP", "KRvKP", "KBvKP", "KNvKP"}
    order = plan(["KPvKP"], set())
    for name in order:
        assert all(order.index(smaller) < order.index(name) for smaller in smaller_endings(name))
    assert plan(["KQvKR"], {"KQvK", "KRvK"}) == ["KQvKR"]
    assert len(all_endings(3)) == 5 and len(all_endings(4)) == 30 and len(all_endings(4, pawns=False)) == 20


def test_generated_tables_have_the_known_longest_mates(made):
    for name, moves in (("KQvK", 10), ("KRvK", 16), ("KPvK", 28)):
        generator = generate(name, made)
        assert (generator.stats()["longest_mate_plies"] + 1) // 2 == moves


@needs_syzygy
def test_every_generated_position_has_syzygys_result(made):
    Tablebases(str(SYZYGY))
    tables = DtmTables(str(made))
    for name in ["KQvK", "KRvK", "KBvK", "KNvK", "KPvK"]:
        compared, disagreements = tables.compare_with_syzygy(name)
        assert compared > 40_000 and disagreements == [], name


def test_probe_agrees_with_chess_syzygy_and_mating_lines_mate_in_time(made, syzygy):
    tables = DtmTables(str(made))
    rng = random.Random(7)
    for white in ["Q", "R", "P"]:      # (KBvK and KNvK: random_endgame wants a game not over)
        for _ in range(300):
            board = random_endgame(rng, white, "") if rng.random() < 0.5 else random_endgame(rng, "", white)
            result, plies = tables.probe(Board(board.fen()))
            wdl = syzygy.probe_wdl(board)
            assert result == (wdl > 0) - (wdl < 0), board.fen()
            if result > 0:
                assert plies % 2 == 1
                assert_mates_in(tables, board, plies)


def assert_mates_in(tables: DtmTables, board: chess.Board, plies: int) -> None:
    """Best play by the tables (the winner's quickest move, the loser's slowest) mates in exactly
    `plies`, checked by python-chess; and every position on the way keeps to the distance."""
    board = board.copy()
    for remaining in range(plies, 0, -1):
        options = []
        for move in board.legal_moves:
            board.push(move)
            result, child = tables.probe(Board(board.fen()))
            board.pop()
            options.append((-result, child + 1 if result else 0, move))
        if remaining % 2:       # the winner: some move loses for the other side in remaining - 1
            best = min((o for o in options if o[0] > 0), key=lambda o: o[1])
        else:                   # the loser: every move loses, the slowest in remaining - 1
            assert all(o[0] < 0 for o in options)
            best = max(options, key=lambda o: o[1])
        assert best[1] == remaining, board.fen()
        board.push(best[2])
    assert board.is_checkmate()


@needs_shipped
def test_shipped_set_has_every_three_man_and_pawnless_four_man_table():
    tables = DtmTables(str(DEFAULT_DTM_PATH))
    assert sorted(tables.files) == sorted(SHIPPED)
    assert sum(Path(p).stat().st_size for p in tables.files.values()) < 25_000_000
    for name, moves in KNOWN_LONGEST_MATES.items():
        with open(tables.files[name], "rb") as f:
            header = f.read(128)
        assert (struct.unpack_from("<H", header, 112)[0] + 1) // 2 == moves, name


@needs_shipped
@needs_syzygy
@pytest.mark.long       # every position of every shipped table: minutes of one core; CI runs it
def test_every_position_of_the_shipped_tables_has_syzygys_result():
    Tablebases(str(SYZYGY))
    tables = DtmTables(str(DEFAULT_DTM_PATH))
    for name in SHIPPED:
        compared, disagreements = tables.compare_with_syzygy(name)
        assert compared > 40_000 and disagreements == [], name


@needs_shipped
def test_shipped_tables_probe_both_colour_orders_and_name_a_missing_table(syzygy):
    tables = DtmTables(str(DEFAULT_DTM_PATH))
    rng = random.Random(3)
    for white, black in [("Q", "R"), ("R", "Q"), ("BN", ""), ("", "BN"), ("R", "N"), ("Q", "Q")]:
        for _ in range(200):
            board = random_endgame(rng, white, black)
            result, _ = tables.probe(Board(board.fen()))
            wdl = syzygy.probe_wdl(board)
            assert result == (wdl > 0) - (wdl < 0), board.fen()
    with pytest.raises(TablebaseError, match="no Pyrope table for KPvKP"):     # not shipped
        tables.probe(Board("8/8/8/8/3pP3/8/8/K6k b - e3 0 1"))


@pytest.fixture(scope="module")
def pawns_both_sides(tmp_path_factory) -> Path:
    """KPvKP and the tables its promotions reach (KQvKP ... KNvKP), made on top of the shipped set:
    the tables whose generation has to resolve en passant."""
    if not (DEFAULT_DTM_PATH / "KQvK.ptb").exists():
        pytest.skip("the shipped tables are not installed")
    out = tmp_path_factory.mktemp("pawns")
    for name in plan(["KPvKP"], set(DtmTables(str(DEFAULT_DTM_PATH)).files)):
        generate_table(name, str(out), [str(DEFAULT_DTM_PATH)])
    return out


@needs_syzygy
@pytest.mark.long       # KPvKP made and every position of it compared: minutes of one core; CI runs it
def test_tables_with_pawns_on_both_sides_resolve_en_passant(pawns_both_sides, syzygy):
    Tablebases(str(SYZYGY))
    made = DtmTables(str(pawns_both_sides))
    for name in ["KPvKP", "KQvKP"]:
        compared, disagreements = made.compare_with_syzygy(name)
        assert compared > 7_000_000 and disagreements == [], name
    # Positions right after a double step that the other side may take en passant: the probe
    # weighs the capture against the table's value (which assumes no such right).
    tables = DtmTables(f"{pawns_both_sides}:{DEFAULT_DTM_PATH}")
    rng = random.Random(5)
    checked = 0
    while checked < 300:
        board = random_endgame(rng, "P", "P")
        pawn, enemy = board.pieces(chess.PAWN, chess.WHITE), board.pieces(chess.PAWN, chess.BLACK)
        mover = rng.choice([chess.WHITE, chess.BLACK])
        to = rng.choice(range(24, 32)) if mover == chess.WHITE else rng.choice(range(32, 40))
        step = 8 if mover == chess.WHITE else -8
        board.remove_piece_at(next(iter(pawn if mover == chess.WHITE else enemy)))
        if board.piece_at(to) or board.piece_at(to - step) or board.piece_at(to - 2 * step):
            continue
        board.set_piece_at(to, chess.Piece(chess.PAWN, mover))
        board.turn = not mover
        board.ep_square = to - step
        if not board.is_valid() or not board.has_legal_en_passant() or board.is_game_over():
            continue
        result, _ = tables.probe(Board(board.fen()))
        wdl = syzygy.probe_wdl(board)
        assert result == (wdl > 0) - (wdl < 0), board.fen()
        checked += 1


@needs_shipped
def test_mate_line_and_ranking_follow_the_distance_to_mate():
    player = TablebasePlayer()
    board = Board("8/8/8/8/8/2k5/8/KR6 w - - 0 1")      # KRvK
    line = player.mate_line(board)
    assert line is not None and line.result == 1
    result, plies = player.own.probe(board)
    assert line.plies == plies and line.mate == (plies + 1) // 2
    final = chess.Board(board.fen())
    for move in line.pv:
        final.push_uci(move)
    assert final.is_checkmate() and len(line.pv) == plies
    ranking = player.rank_root(board)
    assert ranking.result == 1 and line.pv[0] in ranking.moves
    # Late in the fifty-move count the shortest mate may not arrive in time: no instant answer.
    assert player.mate_line(Board("8/8/8/8/8/2k5/8/KR6 w - - 95 80")) is None
    # Drawn: no line; the ranking keeps the drawing moves.
    drawn = Board("8/8/8/8/8/2k5/8/KB6 w - - 0 1")
    assert player.mate_line(drawn) is None and player.rank_root(drawn).result == 0
    player.load_own("")
    assert player.mate_line(board) is None


def break_copy(tmp_path: Path, name: str, change) -> Path:
    directory = tmp_path / "broken"
    directory.mkdir(exist_ok=True)
    data = bytearray((DEFAULT_DTM_PATH / f"{name}.ptb").read_bytes())
    (directory / f"{name}.ptb").write_bytes(bytes(change(data)))
    return directory


@needs_shipped
@pytest.mark.parametrize("change, fault", [
    (lambda d: d[:100], "truncated"),
    (lambda d: d[:-10], "truncated"),
    (lambda d: b"NotATabl" + d[8:], "wrong magic"),
    (lambda d: d[:8] + b"\x07\x00" + d[10:], "unknown format version"),
    (lambda d: d[:5000] + bytes([d[5000] ^ 0x40]) + d[5001:], "checksum"),
])
def test_a_broken_file_is_named_with_its_fault(tmp_path, change, fault):
    directory = break_copy(tmp_path, "KQvK", change)
    tables = DtmTables(str(directory))
    with pytest.raises(TablebaseError, match=f"KQvK.ptb: .*{fault}"):
        tables.probe(Board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"))


@needs_shipped
def test_a_file_named_for_another_material_is_refused(tmp_path):
    directory = tmp_path / "renamed"
    directory.mkdir()
    shutil.copy(DEFAULT_DTM_PATH / "KRvK.ptb", directory / "KQvK.ptb")
    with pytest.raises(TablebaseError, match="KQvK.ptb: holds another material"):
        DtmTables(str(directory)).probe(Board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"))


def test_directories_without_tables_are_reported(tmp_path):
    tables = DtmTables(f"{tmp_path / 'nowhere'}:{tmp_path}")
    assert tables.problems == [f"Pyrope table directory {tmp_path / 'nowhere'}: no such directory",
                               f"Pyrope table directory {tmp_path}: no tables (*.ptb) in it"]
    with pytest.raises(TablebaseError, match="no Pyrope table for KQvK"):
        tables.probe(Board("8/8/8/8/8/2k5/8/KQ6 w - - 0 1"))
    with pytest.raises(TablebaseError, match="castling"):
        tables.probe(Board())


def test_generate_command_makes_what_is_missing_and_summarises(tmp_path):
    run = subprocess.run([sys.executable, "-m", "pyrope", "--no-progress", "tb", "generate", "KRvK", "--out",
                          str(tmp_path)], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    assert "1 table(s) to make" in run.stdout
    line = next(line for line in run.stdout.splitlines() if line.startswith("KRvK "))
    assert "16 moves" in line and "50,015" in line
    assert (tmp_path / "KRvK.ptb").exists()
    bad = subprocess.run([sys.executable, "-m", "pyrope", "tb", "generate", "KXvK", "--out", str(tmp_path)],
                         capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "not an ending's name" in bad.stderr and "Traceback" not in bad.stderr


@needs_syzygy
def test_verify_and_probe_commands(made):
    verify = subprocess.run([sys.executable, "-m", "pyrope", "tb", "verify", "KQvK", "KPvK", "--dir", str(made),
                             "--syzygy", str(SYZYGY)], capture_output=True, text=True, timeout=300)
    assert verify.returncode == 0, verify.stdout + verify.stderr
    assert "KQvK" in verify.stdout and "agrees" in verify.stdout
    probe = subprocess.run([sys.executable, "-m", "pyrope", "tb", "probe", "8/8/8/8/8/2k5/1Q6/K7 b - - 0 1",
                            "--dir", str(made)], capture_output=True, text=True, timeout=60)
    assert probe.returncode == 0 and "loss, mated in" in probe.stdout
