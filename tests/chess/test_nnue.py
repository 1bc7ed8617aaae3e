"""The core's net inference (ext/nnue.pxi) against pyrope.nnue.reference, the NumPy forward pass
that defines it: equal values, exactly, over random games, for the shipped shape and for king
buckets (mirrored) with output buckets; and the accumulators it keeps move by move (lazily, from the
pieces each move changed, and from the refresh cache when a king changes bucket) equal to a full
refresh after pushes, pops and null moves."""
import random
import re
import subprocess

import chess
import pytest

numpy = pytest.importorskip("numpy")

from engine_command import PYROPE
from nnue_nets import random_net

import pyrope
from pyrope import _core
from pyrope._core import Search
from pyrope.nnue import netfile, reference
from pyrope.nnue.loader import DEFAULT_NET
from pyrope.nnue import dataset


def random_game_boards(seed, games, chess960=False):
    """python-chess boards of random games (captures preferred now and then, so that the material
    thins out and promotions, castling and en passant all come up)."""
    rng = random.Random(seed)
    for _ in range(games):
        board = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        board.chess960 = chess960
        while not board.is_game_over() and board.ply() < 300:
            moves = list(board.legal_moves)
            captures = [move for move in moves if board.is_capture(move) or move.promotion]
            board.push(rng.choice(captures if captures and rng.random() < 0.5 else moves))
            yield board


def reference_values(net, fens):
    records = numpy.frombuffer(b"".join(dataset.encode(fen, 0, "1/2-1/2") for fen in fens),
                               dtype=dataset.record_dtype())
    return reference.evaluate_records(net, records).tolist()


@pytest.mark.parametrize("hidden, activation, out_range, games, layout, outputs", [
    (16, "screlu", 127, 25, "none", 1), (32, "screlu", 127, 25, "none", 1), (40, "crelu", 127, 25, "none", 1),
    (256, "screlu", 127, 125, "none", 1),       # the shipped shape: 10,000+ positions
    (256, "screlu", 32767, 25, "none", 1),      # output weights beyond any trained net's: exact sums in short chunks
    (64, "screlu", 127, 125, "16", 8),          # king and output buckets: 10,000+ positions
    (32, "screlu", 127, 25, "mirrored", 2), (48, "crelu", 127, 25, "4", 4), (32, "screlu", 127, 25, "8", 1),
])
def test_core_equals_reference_over_random_games(hidden, activation, out_range, games, layout, outputs):
    net = random_net(hidden, activation, seed=hidden, out_range=out_range, layout=layout, outputs=outputs)
    _core.nnue_load(net)
    fens, values = [], []
    features = {"en passant": 0, "promotion": 0, "black to move": 0}
    for board in random_game_boards(seed=hidden, games=games):
        move = board.peek()
        features["en passant"] += board.ep_square is not None and board.has_legal_en_passant()
        features["promotion"] += move.promotion is not None
        features["black to move"] += board.turn == chess.BLACK
        fens.append(board.fen())
    # One pyrope board replays every game move by move, so the lazily updated accumulators are used.
    pyrope_board = None
    for board in random_game_boards(seed=hidden, games=games):
        if board.ply() == 1:
            pyrope_board = pyrope.Board()
        pyrope_board.push(board.peek().uci())
        values.append(pyrope_board.nnue_evaluate())
    assert len(fens) >= 80 * games
    assert features["en passant"] > 0 and features["promotion"] > 0 and features["black to move"] > 0
    assert values == reference_values(net, fens)


def test_core_equals_reference_in_chess960_and_after_a_reload():
    for seed, layout in ((3, "none"), (4, "16")):
        net = random_net(64, seed=seed, layout=layout, outputs=4)
        _core.nnue_load(net)
        fens = [board.fen() for board in random_game_boards(seed=seed, games=4, chess960=True)]
        # Each position set up from its FEN (a full refresh), each twice (the second from the stored pair).
        values = []
        for fen in fens:
            position = pyrope.Board(fen, chess960=True)
            values.append(position.nnue_evaluate())
            assert position.nnue_evaluate() == values[-1]
        assert values == reference_values(net, fens)


def king_slot(layout, color, square):
    """Which refresh-cache entry a king of `color` on `square` uses: its bucket and board half."""
    seen = square if color == chess.WHITE else chess.square_mirror(square)
    return layout.buckets[seen], layout.mirrored and chess.square_file(seen) >= 4


@pytest.mark.parametrize("chess960", [False, True])
@pytest.mark.parametrize("layout", ["none", "16"])
def test_incremental_accumulators_equal_a_full_refresh(request, chess960, layout):
    """Random games (500 a variant; 5,000 with --runslow) walked with pushes, pops and null moves;
    castling (Chess960's king-takes-rook too), captures, promotions, en passant and (with king
    buckets) kings crossing into another bucket or board half all occur. The accumulators are
    compared with a full refresh after every step in odd games, and in even ones at a random
    quarter of the steps, so that there the lazy update spans several moves."""
    net = random_net(48, seed=7, layout=layout)
    _core.nnue_load(net)
    rng = random.Random(7 + chess960)
    kinds = {"castling": 0, "en passant": 0, "promotion": 0, "capture": 0, "null": 0, "pop": 0}
    if layout != "none":
        kinds["king crossing"] = 0
    games = 5000 if request.config.getoption("--runslow") else 500
    for game in range(games):
        mirror = chess.Board.from_chess960_pos(rng.randrange(960)) if chess960 else chess.Board()
        mirror.chess960 = chess960
        board = pyrope.Board(mirror.fen(), chess960=chess960)
        for step in range(rng.randrange(40, 160)):
            choice = rng.random()
            if choice < 0.1 and mirror.move_stack:
                board.pop()
                mirror.pop()
                kinds["pop"] += 1
            elif choice < 0.13 and not mirror.is_check() and mirror.move_stack:
                board.push_null()
                mirror.push(chess.Move.null())
                kinds["null"] += 1
            else:
                moves = list(mirror.legal_moves)
                if not moves:
                    break
                special = [m for m in moves if mirror.is_castling(m) or mirror.is_en_passant(m) or m.promotion]
                move = rng.choice(special if special and rng.random() < 0.5 else moves)
                kinds["castling"] += mirror.is_castling(move)
                kinds["en passant"] += mirror.is_en_passant(move)
                kinds["promotion"] += move.promotion is not None
                kinds["capture"] += mirror.is_capture(move)
                if layout != "none" and mirror.piece_type_at(move.from_square) == chess.KING:
                    after = mirror.copy(stack=False)
                    after.push(move)
                    kinds["king crossing"] += (king_slot(net.layout, mirror.turn, mirror.king(mirror.turn))
                                               != king_slot(net.layout, mirror.turn, after.king(mirror.turn)))
                board.push(mirror.uci(move, chess960=chess960))
                mirror.push(move)
            if game % 2 or rng.random() < 0.25:
                assert board.nnue_accumulators() == board.nnue_accumulators(refresh=True), (game, step, board.fen())
    assert min(kinds.values()) >= 50, kinds


def test_the_speed_walk_sums_the_reference_over_the_move_tree():
    """Board.nnue_walk, bench/nnue_speed.py's probe, evaluates every node of the legal move tree
    (Kiwipete: castling both ways, en passant and king moves across buckets two plies deep)."""
    net = random_net(32, seed=12, layout="16", outputs=8)
    _core.nnue_load(net)
    root = chess.Board("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1")
    fens = [root.fen()]
    for move in root.legal_moves:
        root.push(move)
        fens.append(root.fen())
        for reply in root.legal_moves:
            root.push(reply)
            fens.append(root.fen())
            root.pop()
        root.pop()
    assert len(fens) == 1 + 48 + 2039
    assert pyrope.Board(root.fen()).nnue_walk(2) == sum(reference_values(net, fens))


def test_a_copied_board_and_a_new_position_keep_their_own_accumulators():
    net = random_net(32, seed=9)
    _core.nnue_load(net)
    board = pyrope.Board()
    for move in ("e2e4", "d7d5", "e4d5", "g8f6"):
        board.push(move)
        board.nnue_evaluate()
    copy = board.copy()
    copy.push("f1b5")
    assert copy.nnue_evaluate() == reference_values(net, [copy.fen()])[0]
    assert board.nnue_evaluate() == reference_values(net, [board.fen()])[0]
    board.set_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")
    assert board.nnue_evaluate() == reference_values(net, [board.fen()])[0]


def test_without_a_net_or_with_one_out_of_range():
    with pytest.raises(ValueError, match="no net is loaded"):
        pyrope.Board().nnue_evaluate()
    net = random_net(16)
    net.ft_weights[:, 3] = 2000       # 32 pieces would take neuron 3 past int16
    with pytest.raises(ValueError, match="beyond int16"):
        _core.nnue_load(net)
    assert _core.nnue_loaded() == 0


def converse(*commands):
    text = "\n".join(commands + ("quit",)) + "\n"
    result = subprocess.run([PYROPE], input=text, capture_output=True, text=True, timeout=120, check=True)
    return result.stdout.splitlines()


def depth_one_scores(lines):
    """The score of each `go depth 1` in order (its last info line's)."""
    scores, last = [], None
    for line in lines:
        if " score cp " in line:
            last = int(line.split(" score cp ")[1].split()[0])
        elif line.startswith("bestmove"):
            scores.append(last)
    return scores


def test_uci_nnuefile_and_use_nnue(tmp_path):
    """The shipped net plays by default and NNUEFile shows it; another net decides the score when
    loaded; a bad file is named with its fault in one info string and the net in use stays; Use NNUE
    off, or NNUEFile <empty>, gives the hand-crafted score."""
    net = random_net(256, seed=5)
    good = tmp_path / "good.nnue"
    data = netfile.write(str(good), net)
    truncated = tmp_path / "truncated.nnue"
    truncated.write_bytes(data[:1000])
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    search = (f"position fen {fen}", "go depth 1")
    lines = converse("uci", "setoption name OwnBook value false", *search, f"setoption name NNUEFile value {good}", *search,
                     f"setoption name NNUEFile value {truncated}", *search,
                     "setoption name Use NNUE value false", *search,
                     "setoption name Use NNUE value true", "setoption name NNUEFile value <empty>", *search)
    assert f"option name NNUEFile type string default {DEFAULT_NET}" in lines
    assert "option name Use NNUE type check default true" in lines
    errors = [line for line in lines if line.startswith("info string")]
    assert len(errors) == 1 and "truncated.nnue" in errors[0] and "truncated" in errors[0].split(".nnue")[1]
    shipped, with_net, after_bad_file, switched_off, without_net = depth_one_scores(lines)
    assert with_net == after_bad_file != shipped
    assert switched_off == without_net not in (shipped, with_net)
    # Depth 1 with quiescence: the root's score is some leaf's net value, within the clamp.
    assert abs(with_net) <= 20000


def test_a_net_with_king_and_output_buckets_plays_through_uci(tmp_path):
    """NNUEFile takes a version 2 net (16 king buckets, 8 outputs): the engine's search with it,
    driven by python-chess, is the core's own search with that net loaded, node for node, and a
    game of 40 plies with it has only legal moves."""
    import chess.engine
    net = random_net(64, seed=13, layout="16", outputs=8)
    path = tmp_path / "buckets.nnue"
    netfile.write(str(path), net)
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    board = chess.Board()
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as engine:
        engine.configure({"NNUEFile": str(path), "OwnBook": False, "Hash": 16, "Threads": 1})
        info = engine.analyse(chess.Board(fen), chess.engine.Limit(depth=6), game=object())
        while not board.is_game_over() and board.ply() < 40:
            move = engine.play(board, chess.engine.Limit(depth=4)).move
            assert move in board.legal_moves
            board.push(move)
    assert board.ply() >= 20
    _core.nnue_load(net)
    try:
        own = Search(threads=1, hash_mb=16).run(pyrope.Board(fen), depth=6)
    finally:
        _core.nnue_unload()
    assert (info["nodes"], info["score"].white().score()) == (own["nodes"], own["score"]["cp"])


def test_bench_with_a_net_is_deterministic():
    """The bench signature with the random hidden-256 net (docs/nnue.md): any change to the
    inference or to how the search calls it must explain a different count (a change of the
    search moves it too: it is pinned again with the search's own signature)."""
    from pyrope.play.bench import run_bench
    from test_search import BENCH_SIGNATURE
    _core.nnue_load(random_net(256, seed=5))
    assert run_bench(lambda line: None) == 835272
    _core.nnue_enable(False)
    try:
        assert run_bench(lambda line: None) == BENCH_SIGNATURE
    finally:
        _core.nnue_enable(True)


def test_a_net_file_loads_and_evaluates_without_numpy(tmp_path):
    """The engine needs no NumPy to play with a net: netfile.read gives int16 memoryviews, which the
    core loads as they are. In a process where `import numpy` fails, the values equal the reference's."""
    import sys
    net = random_net(48, seed=9)
    path = tmp_path / "net.nnue"
    netfile.write(str(path), net)
    fens = [board.fen() for board in random_game_boards(seed=4, games=2)][:150]
    script = ("import sys; sys.modules['numpy'] = None\n"
              "from pyrope import _core, Board\nfrom pyrope.nnue import netfile\n"
              f"_core.nnue_load(netfile.read({str(path)!r}))\n"
              "for fen in sys.stdin.read().splitlines(): print(Board(fen).nnue_evaluate())\n")
    result = subprocess.run([sys.executable, "-c", script], input="\n".join(fens), capture_output=True,
                            text=True, timeout=120, check=True)
    assert [int(value) for value in result.stdout.split()] == reference_values(net, fens)


def test_xboard_nnuefile_and_usennue(tmp_path):
    """CECP offers both options (python-chess sees them); the net decides the score when loaded and
    UseNNUE=0 gives the hand-crafted score back; a bad file is one Error line naming it and its
    fault, and the net in use stays."""
    import chess.engine
    from pyrope.play.session import Session
    from pyrope.protocol.xboard import XboardFrontEnd
    good = tmp_path / "good.nnue"
    data = netfile.write(str(good), random_net(256, seed=5))
    bad = tmp_path / "bad.nnue"
    bad.write_bytes(data[:-7])
    board = chess.Board("r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3")
    with chess.engine.SimpleEngine.popen_xboard([PYROPE]) as engine:
        assert engine.options["NNUEFile"].type == "file" and engine.options["UseNNUE"].default == 1
        assert engine.options["NNUEFile"].default == str(DEFAULT_NET)

        def score(**options):
            engine.configure(options)
            return engine.play(board, chess.engine.Limit(depth=1), info=chess.engine.INFO_SCORE).info["score"].white()
        shipped, with_net, switched_off = score(OwnBook=0), score(NNUEFile=str(good)), score(UseNNUE=0)
    assert shipped != with_net != switched_off != shipped

    lines = []
    front_end = XboardFrontEnd(Session(), lines.append)
    for line in ("xboard", "protover 2", f"option NNUEFile={good}", f"option NNUEFile={bad}", "option UseNNUE=0"):
        assert front_end.handle(line)
    errors = [line for line in lines if line.startswith("Error")]
    assert len(errors) == 1 and re.match(r"Error \(.*bad\.nnue is truncated.*\): option NNUEFile=", errors[0])
    assert _core.nnue_loaded() == 256 and front_end.session.manager.net_enabled is False
    assert not front_end.handle("quit")


def test_the_shipped_net_loads_by_default_and_says_how_it_was_made():
    """nets/pyrope.nnue is a valid net that every chess search manager loads, and pyrope.json beside
    it (the provenance `pyrope train` wrote) names these very bytes and the data it was trained on."""
    import hashlib
    import json
    from pyrope.play.manager import SearchManager
    net = netfile.read(str(DEFAULT_NET))
    provenance = json.loads(DEFAULT_NET.with_suffix(".json").read_text())
    assert provenance["output"]["sha256"] == hashlib.sha256(DEFAULT_NET.read_bytes()).hexdigest()
    assert provenance["settings"]["hidden"] == net.hidden and provenance["inputs"]
    manager = SearchManager()
    assert manager.net_path == str(DEFAULT_NET) and manager.net_problem is None
    assert _core.nnue_loaded() == net.hidden and manager.net_enabled
    fen = "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3"
    assert pyrope.Board(fen).nnue_evaluate() == reference.evaluate(net, fen)


def test_a_broken_shipped_net_is_named_and_the_handcrafted_evaluation_plays(tmp_path, monkeypatch):
    """A damaged installation: UCI names the file and its fault in an info string after uciok, CECP
    in a comment; NNUEFile is then <empty>, the hand-crafted evaluation plays, and the engine goes on."""
    from pyrope.nnue import loader
    from pyrope.play.session import Session
    from pyrope.protocol.uci import UciFrontEnd
    from pyrope.protocol.xboard import XboardFrontEnd
    broken = tmp_path / "pyrope.nnue"
    broken.write_bytes(DEFAULT_NET.read_bytes()[:5000])
    monkeypatch.setattr(loader, "DEFAULT_NET", broken)
    lines = []
    front_end = UciFrontEnd(Session(), lines.append)
    for line in ("uci", "position startpos moves e2e4", "go depth 3"):
        front_end.handle(line)
    front_end.session.manager.finish()
    assert "option name NNUEFile type string default <empty>" in lines
    error = lines[lines.index("uciok") + 1]
    assert error.startswith("info string error: ") and str(broken) in error and "truncated" in error
    assert error.endswith("playing with the hand-crafted evaluation")
    assert any(line.startswith("bestmove ") for line in lines) and _core.nnue_loaded() == 0
    lines.clear()
    front_end = XboardFrontEnd(Session(), lines.append)
    for line in ("xboard", "protover 2"):
        front_end.handle(line)
    assert 'feature option="NNUEFile -file "' in lines
    assert any(line.startswith("# ") and str(broken) in line for line in lines)
