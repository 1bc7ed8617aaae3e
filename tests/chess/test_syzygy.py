"""Syzygy tablebases: the compiled WDL/DTZ probe against python-chess's chess.syzygy (the oracle)
on the endgame suite and on 100,000 random positions over all 35 three- and four-piece tables
(WDL for all, DTZ for 20,000; en passant and castling rights included), then bad directories
and bad table files, and concurrent first probes of a table."""
from __future__ import annotations

import os
import random
import shutil
import threading
from pathlib import Path

import chess
import chess.syzygy
import pytest

import pyrope
from paths import SYZYGY

TABLE_NAMES = sorted(path.stem for path in SYZYGY.glob("*.rtbw"))

RANDOM_POSITIONS = 100_000
DTZ_EVERY = 5           # DTZ is compared for every fifth position: 20,000


@pytest.fixture(scope="module")
def reference(syzygy_dir):
    with chess.syzygy.open_tablebase(str(syzygy_dir)) as tables:
        yield tables


def both(tables: pyrope.Tablebases, reference, fen: str) -> tuple[tuple[int, int], tuple[int, int]]:
    board = pyrope.Board(fen)
    theirs = chess.Board(fen)
    return ((tables.probe_wdl(board), tables.probe_dtz(board)),
            (reference.probe_wdl(theirs), reference.probe_dtz(theirs)))


def test_the_set_is_found(syzygy_dir):
    tables = pyrope.Tablebases(str(syzygy_dir))
    assert (tables.wdl_tables, tables.dtz_tables, tables.max_pieces) == (35, 35, 4)
    assert tables.problems == []


def test_every_suite_position_matches_python_chess_and_the_suite(reference, syzygy_dir, syzygy_suite):
    tables = pyrope.Tablebases(str(syzygy_dir))
    compared = 0
    for line in syzygy_suite.read_text().splitlines():
        if not line.strip():
            continue
        fields = line.split()
        fen = " ".join(fields[:4])
        expected = dict(op.split() for op in " ".join(fields[4:]).split(";") if op.strip())
        ours, theirs = both(tables, reference, fen)
        assert ours == theirs == (int(expected["wdl"]), int(expected["dtz"])), fen
        compared += 1
    assert compared == 200


def random_board(rng: random.Random, name: str) -> chess.Board:
    """A position of the table's material, pieces on random squares (pawns on ranks 2-7); the
    side not to move may be in check, the caller rejects those."""
    white, black = name.split("v")
    board = chess.Board(None)
    place(rng, board, white + black.lower())
    board.turn = rng.random() < 0.5
    return board


def place(rng: random.Random, board: chess.Board, letters: str) -> None:
    """Put the pieces (FEN letters) on random empty squares, pawns on ranks 2-7."""
    pieces = board.piece_map()
    for letter in letters:
        square = rng.randrange(8, 56) if letter in "Pp" else rng.randrange(64)
        while square in pieces:
            square = rng.randrange(8, 56) if letter in "Pp" else rng.randrange(64)
        pieces[square] = chess.Piece.from_symbol(letter)
    board.set_piece_map(pieces)


def en_passant_board(rng: random.Random) -> chess.Board:
    """KPvKP where the side not to move has just pushed a pawn two squares past an enemy pawn."""
    turn = rng.random() < 0.5
    file = rng.randrange(8)
    capturer_file = file + rng.choice([f for f in (-1, 1) if 0 <= file + f < 8])
    rank = 4 if turn == chess.WHITE else 3        # where the pushed pawn stands (0-based)
    board = chess.Board(None)
    board.set_piece_at(chess.square(file, rank), chess.Piece(chess.PAWN, not turn))
    board.set_piece_at(chess.square(capturer_file, rank), chess.Piece(chess.PAWN, turn))
    behind = {chess.square(file, rank + (1 if turn == chess.WHITE else -1)),
              chess.square(file, rank + (2 if turn == chess.WHITE else -2))}
    for color in (chess.WHITE, chess.BLACK):
        square = rng.choice([s for s in range(64) if board.piece_at(s) is None and s not in behind])
        board.set_piece_at(square, chess.Piece(chess.KING, color))
    board.turn = turn
    board.ep_square = chess.square(file, rank + (1 if turn == chess.WHITE else -1))
    return board


@pytest.mark.long       # python-chess probing 100,000 positions: a minute or more of one core; CI runs it
def test_random_positions_match_python_chess(reference, syzygy_dir):
    """100,000 random legal positions, about 2,860 per table, both sides to move; every third
    KPvKP position has an en-passant capture available. WDL is compared for all of them and
    DTZ for every fifth (20,000)."""
    rng = random.Random(20261123)
    tables = pyrope.Tablebases(str(syzygy_dir))
    per_table = -(-RANDOM_POSITIONS // len(TABLE_NAMES))
    compared = dtz_compared = en_passant = 0
    tables_seen = set()
    for name in TABLE_NAMES:
        made = 0
        while made < per_table and compared < RANDOM_POSITIONS:
            theirs = en_passant_board(rng) if name == "KPvKP" and made % 3 == 0 else random_board(rng, name)
            if theirs.was_into_check():
                continue
            fen = theirs.fen(en_passant="fen")
            board = pyrope.Board(fen)
            assert tables.probe_wdl(board) == reference.probe_wdl(theirs), fen
            if compared % DTZ_EVERY == 0:
                assert tables.probe_dtz(board) == reference.probe_dtz(theirs), fen
                dtz_compared += 1
            en_passant += theirs.has_legal_en_passant()
            tables_seen.add(name)
            made += 1
            compared += 1
    assert compared == RANDOM_POSITIONS and dtz_compared == RANDOM_POSITIONS // DTZ_EVERY
    assert len(tables_seen) == 35 and en_passant > 500


def test_positions_with_castling_rights_fail_like_python_chess(reference, syzygy_dir):
    rng = random.Random(7)
    tables = pyrope.Tablebases(str(syzygy_dir))
    failed = 0
    for name in [n for n in TABLE_NAMES if "R" in n.split("v")[0]]:
        for _ in range(20):
            board = chess.Board(None)
            board.set_piece_at(chess.E1, chess.Piece(chess.KING, chess.WHITE))
            board.set_piece_at(chess.H1, chess.Piece(chess.ROOK, chess.WHITE))
            white, black = name.replace("R", "", 1).replace("K", "", 1).split("v")
            place(rng, board, white + black.lower())
            board.turn = rng.random() < 0.5
            board.castling_rights = chess.BB_H1
            if board.was_into_check():
                continue
            with pytest.raises(KeyError):
                reference.probe_wdl(board)
            ours = pyrope.Board(board.fen())
            for probe in (tables.probe_wdl, tables.probe_dtz):
                with pytest.raises(pyrope.TablebaseError, match="castling rights"):
                    probe(ours)
            failed += 1
    assert failed > 100


def test_a_material_without_tables_is_named(syzygy_dir):
    tables = pyrope.Tablebases(str(syzygy_dir))
    with pytest.raises(pyrope.TablebaseError, match=r"no WDL table for KQRvKR \(KQRvKR.rtbw is not in"):
        tables.probe_wdl(pyrope.Board("8/8/3k4/3r4/8/8/3QR3/4K3 w - - 0 1"))
    with pytest.raises(pyrope.TablebaseError, match="at most 7 pieces"):
        tables.probe_wdl(pyrope.Board("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1"))


def test_a_missing_directory_is_reported_and_the_others_are_used(reference, syzygy_dir):
    missing = "/nonexistent/syzygy"
    tables = pyrope.Tablebases(missing + os.pathsep + str(syzygy_dir))
    assert tables.problems == [f"syzygy directory {missing}: no such directory"]
    assert (tables.wdl_tables, tables.dtz_tables) == (35, 35)
    fen = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1"
    ours, theirs = both(tables, reference, fen)
    assert ours == theirs
    alone = pyrope.Tablebases(missing)
    assert alone.problems and (alone.wdl_tables, alone.dtz_tables, alone.max_pieces) == (0, 0, 0)
    with pytest.raises(pyrope.TablebaseError, match="no WDL table for KQvK"):
        alone.probe_wdl(pyrope.Board(fen))


def test_a_directory_without_tables_is_reported(tmp_path):
    (tmp_path / "readme.txt").write_text("not a table")
    tables = pyrope.Tablebases(str(tmp_path))
    assert tables.problems == [f"syzygy directory {tmp_path}: no Syzygy tables (*.rtbw, *.rtbz) in it"]
    assert tables.wdl_tables == 0


def bad_set(tmp_path: Path, name: str, content: bytes) -> pyrope.Tablebases:
    """tmp_path holds `name` with the given bytes and comes first in the path, so it is the
    file used for that table; the shared set serves every other table."""
    (tmp_path / name).write_bytes(content)
    return pyrope.Tablebases(str(tmp_path) + os.pathsep + str(SYZYGY))


def test_a_truncated_table_names_the_file_and_other_tables_still_work(tmp_path, reference, syzygy_dir):
    whole = (syzygy_dir / "KQvK.rtbw").read_bytes()
    tables = bad_set(tmp_path, "KQvK.rtbw", whole[:len(whole) // 2])
    with pytest.raises(pyrope.TablebaseError,
                       match=rf"{tmp_path / 'KQvK.rtbw'}: truncated: its header needs at least \d+ bytes, "
                             rf"the file has {len(whole) // 2}"):
        tables.probe_wdl(pyrope.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"))
    # The fault stays: the next probe fails the same way instead of reading a broken file.
    with pytest.raises(pyrope.TablebaseError, match="truncated"):
        tables.probe_wdl(pyrope.Board("8/8/8/4k3/8/8/8/KQ6 b - - 0 1"))
    # KQvKR positions whose captures lead into KQvK fail too; KRvK is untouched.
    with pytest.raises(pyrope.TablebaseError, match="KQvK.rtbw"):
        tables.probe_wdl(pyrope.Board("8/8/8/4k3/8/8/8/KQ5r w - - 0 1"))
    fen = "8/8/8/4k3/8/8/8/KR6 w - - 0 1"
    ours, theirs = both(tables, reference, fen)
    assert ours == theirs
    short = bad_set(tmp_path, "KRvK.rtbw", whole[:3])
    with pytest.raises(pyrope.TablebaseError, match="KRvK.rtbw: truncated: too short for a table header"):
        short.probe_wdl(pyrope.Board(fen))


def test_a_file_with_other_content_has_the_wrong_magic(tmp_path, syzygy_dir):
    tables = bad_set(tmp_path, "KRvK.rtbw", (syzygy_dir / "KRvK.rtbz").read_bytes())
    with pytest.raises(pyrope.TablebaseError,
                       match=r"KRvK.rtbw: wrong magic number \(not a Syzygy WDL table\): D7 66 0C A5, "
                             r"expected 71 E8 23 5D"):
        tables.probe_wdl(pyrope.Board("8/8/8/4k3/8/8/8/KR6 w - - 0 1"))
    text = bad_set(tmp_path, "KQvK.rtbz", b"this is not a tablebase file at all\n" * 4)
    with pytest.raises(pyrope.TablebaseError, match=r"KQvK.rtbz: wrong magic number \(not a Syzygy DTZ table\)"):
        text.probe_dtz(pyrope.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"))


def test_a_table_of_other_material_under_the_name_is_refused(tmp_path, syzygy_dir):
    tables = bad_set(tmp_path, "KRvK.rtbw", (syzygy_dir / "KQvK.rtbw").read_bytes())
    with pytest.raises(pyrope.TablebaseError, match="KRvK.rtbw: bad header: the pieces in the header are not"):
        tables.probe_wdl(pyrope.Board("8/8/8/4k3/8/8/8/KR6 w - - 0 1"))


def test_a_wdl_table_without_its_dtz_sibling(tmp_path, reference, syzygy_dir):
    shutil.copy(syzygy_dir / "KQvK.rtbw", tmp_path / "KQvK.rtbw")
    tables = pyrope.Tablebases(str(tmp_path))
    assert (tables.wdl_tables, tables.dtz_tables, tables.max_pieces) == (1, 0, 3)
    board = pyrope.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")
    assert tables.probe_wdl(board) == 2
    with pytest.raises(pyrope.TablebaseError, match=r"no DTZ table for KQvK \(KQvK.rtbz is not in"):
        tables.probe_dtz(board)
    with chess.syzygy.open_tablebase(str(tmp_path)) as theirs, pytest.raises(chess.syzygy.MissingTableError):
        theirs.probe_dtz(chess.Board(board.fen()))


def test_a_replaced_set_refuses_to_probe(syzygy_dir):
    first = pyrope.Tablebases(str(syzygy_dir))
    second = pyrope.Tablebases(str(syzygy_dir))
    with pytest.raises(pyrope.TablebaseError, match="replaced by a newer one"):
        first.probe_wdl(pyrope.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1"))
    assert second.probe_wdl(pyrope.Board("8/8/8/4k3/8/8/8/KQ6 w - - 0 1")) == 2


def test_threads_opening_the_same_tables_agree(reference, syzygy_dir):
    """Probes release the GIL; several threads hit unopened tables at once and must all read
    them whole (the lazy open is locked)."""
    rng = random.Random(3)
    fens = []
    while len(fens) < 400:
        board = random_board(rng, rng.choice(["KQvKR", "KRPvK", "KPvKP", "KBNvK"]))
        if not board.was_into_check():
            fens.append(board.fen())
    expected = [reference.probe_dtz(chess.Board(fen)) for fen in fens]
    tables = pyrope.Tablebases(str(syzygy_dir))
    results = {}

    def work(index):
        results[index] = [tables.probe_dtz(pyrope.Board(fen)) for fen in fens]

    threads = [threading.Thread(target=work, args=(i,)) for i in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert all(results[i] == expected for i in range(4))
