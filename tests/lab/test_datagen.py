"""`pyrope datagen` and the job runner under it: records that decode to python-chess's FEN, positions
that are legal and quiet by python-chess, scores from white's point of view, results that match how
the games ended, resumption after a larger --positions and after a killed run, the same games on one
or two workers and on Ray, and the errors a person meets."""
from __future__ import annotations

import dataclasses
import fcntl
import hashlib
import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import chess
import pytest

from engine_command import PYROPE
from pyrope._core import Board, Search
from pyrope.nnue import netfile
from pyrope.nnue import dataset
from pyrope.selfplay.game import white_score
from pyrope.jobs import JobError, LocalWorkers, RayWorkers, run_job

pytestmark = [pytest.mark.skipif(PYROPE is None, reason="the pyrope command is not installed"),
              pytest.mark.xdist_group("jobs")]  # one job file at a time: worker pools, Ray, module fixtures

# Small and fast: 1000 nodes a move, two games per task (a shard), a fixed seed.
FAST = ["--nodes", "1000", "--games-per-task", "2", "--seed", "7", "--no-progress"]


def datagen(out: Path, positions: int, *extra: str, workers: int = 1) -> subprocess.CompletedProcess:
    return subprocess.run([PYROPE, "datagen", "--positions", str(positions), "--out", str(out),
                           "--workers", str(workers), *FAST, *extra], capture_output=True, text=True, timeout=120)


def shards(out: Path) -> dict[int, bytes]:
    return {int(path.stem): path.read_bytes() for path in (out / "positions").glob("*.bin")}


def games(out: Path) -> list[dict]:
    logs = []
    for path in sorted((out / "games").glob("*.jsonl")):
        logs += [json.loads(line) for line in path.read_text().splitlines()]
    return logs


def journal_tasks(out: Path) -> list[int]:
    return [json.loads(line)["task"] for line in (out / "journal.jsonl").read_text().splitlines()[1:]]


@pytest.fixture(scope="module")
def one_worker(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("one") / "data"
    result = datagen(out, 300)
    assert result.returncode == 0, result.stderr
    assert "Games:" in result.stdout and "positions/hour" in result.stdout
    return out


def random_positions(count: int, seed: int) -> list[chess.Board]:
    """Positions along random games, which meet partial castling rights, en passant and both sides."""
    rng = random.Random(seed)
    positions = []
    while len(positions) < count:
        board = chess.Board()
        for _ in range(rng.randrange(1, 80)):
            if board.is_game_over():
                break
            # Pawn double steps often, so that en passant comes up.
            moves = list(board.legal_moves)
            doubles = [m for m in moves if board.piece_type_at(m.from_square) == chess.PAWN
                       and abs(m.to_square - m.from_square) == 16]
            board.push(rng.choice(doubles if doubles and rng.random() < 0.3 else moves))
            positions.append(board.copy(stack=False))
    return positions[:count]


def test_records_round_trip_to_python_chess_fens():
    positions = random_positions(3000, seed=1)
    for number, board in enumerate(positions):
        score, result = number % 4001 - 2000, ["1-0", "1/2-1/2", "0-1"][number % 3]
        record = dataset.encode(board.fen(), score, result)
        assert len(record) == dataset.RECORD_SIZE
        assert dataset.decode(record) == (board.fen(), score, result)
    fens = [board.fen().split() for board in positions]
    assert any(fields[3] != "-" for fields in fens), "no en passant met"
    assert {fields[1] for fields in fens} == {"w", "b"}
    assert {"KQkq", "-"} < {fields[2] for fields in fens} and len({fields[2] for fields in fens}) > 4


def test_shards_load_as_numpy_records(one_worker):
    numpy = pytest.importorskip("numpy", reason="numpy is the trainer's reader")
    path = sorted((one_worker / "positions").glob("*.bin"))[0]
    array = dataset.load(str(path))
    records = dataset.read_records(str(path))
    assert array.dtype.itemsize == dataset.RECORD_SIZE and len(array) == len(records)
    assert numpy.array_equal(array["score"], [record.score for record in records])
    assert list(array["result"]) == [dataset.RESULTS[record.result] for record in records]


def test_stored_positions_are_the_games_legal_quiet_positions(one_worker):
    data = shards(one_worker)
    logs = {log["game"]: log for log in games(one_worker)}
    assert sorted(logs) == list(range(len(logs)))       # game numbers 0..n-1, none twice
    checked = 0
    for task, blob in data.items():
        records = [dataset.decode(blob[i:i + 32]) for i in range(0, len(blob), 32)]
        task_games = [logs[number] for number in (2 * task, 2 * task + 1)]
        assert len(records) == sum(len(log["plies"]) for log in task_games)
        records = iter(records)
        for log in task_games:
            board = chess.Board(log["opening"])
            moves = [chess.Move.from_uci(move) for move in log["moves"].split()]
            for ply in log["plies"]:
                record = next(records)
                position = board.copy(stack=False)
                for move in moves[:ply]:
                    position.push(move)
                assert record.fen == position.fen() and position.is_valid()
                assert not position.is_check()
                assert record.result == log["result"] and abs(record.score) < 1000
                if ply < len(moves):        # the move searched there was played: not a capture
                    assert not position.is_capture(moves[ply]) and moves[ply].promotion is None
                checked += 1
    assert checked >= 300


def test_results_match_how_unadjudicated_games_ended(one_worker):
    ends = set()
    for log in games(one_worker):
        board = chess.Board(log["opening"])
        for move in log["moves"].split():
            board.push_uci(move)
        ends.add(log["end"])
        if log["end"] == "checkmate":
            assert board.is_checkmate() and log["result"] == ("0-1" if board.turn == chess.WHITE else "1-0")
        elif log["end"] == "repetition":
            assert board.is_repetition(3) and log["result"] == "1/2-1/2"
        elif log["end"] == "stalemate":
            assert board.is_stalemate() and log["result"] == "1/2-1/2"
        elif log["end"] == "insufficient material":
            assert board.is_insufficient_material() and log["result"] == "1/2-1/2"
        elif log["end"] == "fifty moves":
            assert board.halfmove_clock >= 100 and log["result"] == "1/2-1/2"
        else:
            assert log["end"] in ("win adjudication", "draw adjudication", "ply limit")
            assert not board.is_game_over(claim_draw=True)
    assert len(ends) >= 2


def test_scores_are_from_whites_point_of_view():
    search = Search(threads=1, hash_mb=1)
    for fen in ["4k3/8/8/8/8/8/8/QQQ1K3 w - - 0 1", "4k3/8/8/8/8/8/8/QQQ1K3 b - - 0 1"]:
        board = Board(fen)
        assert white_score(search.run(board, nodes=2000), board.white_to_move) > 1000
    mirrored = Board("qqq1k3/8/8/8/8/8/8/4K3 w - - 0 1")
    assert white_score(search.run(mirrored, nodes=2000), mirrored.white_to_move) < -1000
    record = dataset.decode(dataset.encode("4k3/8/8/8/8/8/8/QQ2K3 b - - 0 1", 950, "1-0"))
    assert record.score == 950 and record.result == "1-0"


def test_a_larger_count_extends_the_run_without_touching_finished_shards(one_worker, tmp_path):
    out = tmp_path / "data"
    assert datagen(out, 100).returncode == 0
    first = {path: path.stat().st_mtime_ns for path in (out / "positions").glob("*.bin")}
    result = datagen(out, 300)
    assert result.returncode == 0, result.stderr
    assert all(path.stat().st_mtime_ns == mtime for path, mtime in first.items())
    tasks = journal_tasks(out)
    assert tasks == sorted(set(tasks)) and shards(out) == shards(one_worker)


def test_a_killed_run_resumes_without_losing_or_repeating_games(one_worker, tmp_path):
    out = tmp_path / "data"
    command = [PYROPE, "datagen", "--positions", "300", "--out", str(out), "--workers", "1", *FAST]
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    journal = out / "journal.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (journal.exists() and len(journal.read_text().splitlines()) >= 3):
        time.sleep(0.05)
    process.kill()          # SIGKILL: no chance to tidy up
    process.wait()
    before = shards(out)
    assert 2 <= len(before) and sum(len(blob) for blob in before.values()) < 300 * 32, "killed too late"
    result = datagen(out, 300)
    assert result.returncode == 0, result.stderr
    after = shards(out)
    assert all(after[task] == blob for task, blob in before.items())
    assert after == shards(one_worker)
    assert sorted(log["game"] for log in games(out)) == list(range(2 * len(after)))


def test_a_lost_shard_is_played_again_and_a_second_run_is_refused(one_worker, tmp_path):
    out = tmp_path / "data"
    subprocess.run(["cp", "-r", str(one_worker), str(out)], check=True)
    (out / "positions" / "000001.bin").unlink()
    result = datagen(out, 300)
    assert result.returncode == 0, result.stderr
    assert shards(out) == shards(one_worker)
    with open(out / ".lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        result = datagen(out, 400)
    assert result.returncode == 1 and f"another datagen run is writing {out}" in result.stderr


def test_ctrl_c_saves_what_is_finished_and_says_how_to_go_on(tmp_path):
    out = tmp_path / "data"
    command = [PYROPE, "datagen", "--positions", "100000", "--out", str(out), "--workers", "1", *FAST]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    journal = out / "journal.jsonl"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not (journal.exists() and len(journal.read_text().splitlines()) >= 2):
        time.sleep(0.05)
    process.send_signal(signal.SIGINT)
    stdout, stderr = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "Games:" in stdout and "run the same command to go on" in stderr and "Traceback" not in stderr
    saved = sum(len(blob) for blob in shards(out).values()) // 32
    assert saved > 0 and f"positions: {saved} " in stdout


def test_two_workers_play_the_same_games_as_one(one_worker, tmp_path):
    out = tmp_path / "data"
    result = datagen(out, 300, workers=2)
    assert result.returncode == 0, result.stderr
    two, one = shards(out), shards(one_worker)
    # Two workers may finish one more task than one worker needed; every task is the same game.
    assert set(one) <= set(two) and all(two[task] == one[task] for task in one)


def test_openings_from_an_epd_file(tmp_path, balanced_openings):
    out = tmp_path / "data"
    result = datagen(out, 20, "--openings", str(balanced_openings), "--random-plies", "0")
    assert result.returncode == 0, result.stderr
    lines = {" ".join(line.split()[:4]) for line in balanced_openings.read_text().splitlines()}
    assert all(" ".join(log["opening"].split()[:4]) in lines for log in games(out))


def test_a_net_plays_the_next_generation(one_worker, tmp_path):
    """--net (here a random net, whose games are nothing like the hand-crafted evaluation's): the
    journal names the net by its hash (a run without one names none, so runs begun before the
    option existed resume), the net plays other games than the hand-crafted evaluation from the
    same seed (its openings too: their random plies are checked by a search), and the directory
    refuses to go on with another evaluation."""
    def header(out: Path) -> dict:
        return json.loads((out / "journal.jsonl").read_text().splitlines()[0])

    from nnue_nets import random_net
    net = tmp_path / "random.nnue"
    # No output bias: a random one (up to +-2^20) puts every position thousands of centipawns from
    # level, and whether any randomised opening then passes the balance check is luck.
    net_bytes = netfile.write(str(net), dataclasses.replace(random_net(32, out_range=8), out_bias=0))
    out = tmp_path / "data"
    result = datagen(out, 40, "--net", str(net))
    assert result.returncode == 0, result.stderr
    assert f"nodes a move with the net {net}" in result.stdout
    assert header(out)["net_hash"] == hashlib.sha256(net_bytes).hexdigest()
    assert "net_hash" not in header(one_worker)
    netted, handcrafted = games(out), games(one_worker)
    assert len(netted) >= 2
    assert [log["moves"] for log in netted] != [log["moves"] for log in handcrafted[:len(netted)]]
    result = datagen(out, 80)
    assert result.returncode == 2 and "journal of another job (its net_hash differs)" in result.stderr
    broken = tmp_path / "broken.nnue"
    broken.write_bytes(net_bytes[:-3])
    result = datagen(tmp_path / "other", 40, "--net", str(broken))
    assert result.returncode == 2 and result.stderr.count("\n") == 1
    assert f"{broken} is truncated" in result.stderr


def test_ray_runs_the_same_games(one_worker, tmp_path):
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install '.[cluster]'")
    out = tmp_path / "data"
    result = datagen(out, 60, "--ray", "local")
    assert result.returncode == 0, result.stderr
    ray_shards, local = shards(out), shards(one_worker)
    assert ray_shards and all(local[task] == blob for task, blob in ray_shards.items())


def test_bad_input_is_one_clear_line(one_worker, tmp_path):
    result = datagen(tmp_path / "data", -5)
    assert result.returncode == 2 and "argument --positions: -5 is not 1 or more" in result.stderr
    blocker = tmp_path / "file"
    blocker.write_text("")
    result = datagen(blocker / "data", 10)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert result.stderr.startswith(f"pyrope datagen: cannot make the output directory {blocker / 'data'}")
    # A finished shard cut short: named, and the run refuses to build on it.
    damaged = tmp_path / "damaged"
    subprocess.run(["cp", "-r", str(one_worker), str(damaged)], check=True)
    shard = damaged / "positions" / "000001.bin"
    shard.write_bytes(shard.read_bytes()[:-5])
    result = datagen(damaged, 300)
    assert result.returncode == 1 and result.stderr.count("\n") == 1
    assert f"{shard} is damaged" in result.stderr
    with pytest.raises(dataset.ShardError, match=r"000001\.bin is truncated .* ends at byte"):
        dataset.read_records(str(shard))
    # Other settings for a directory begun with these: refused, naming what differs.
    result = datagen(one_worker, 300, "--nodes", "2000")
    assert result.returncode == 2 and "journal of another job (its nodes differs)" in result.stderr


class FlakyJob:
    """A job for the runner alone: task i returns i*i; task 2's worker dies on its first attempt
    (a marker file tells the attempts apart); task 3 raises if `broken`."""
    unit = "squares"

    def __init__(self, marker: str, total: int, broken: bool = False):
        self.marker, self.total, self.broken = marker, total, broken

    def fingerprint(self):
        return {"job": "flaky", "broken": self.broken}

    def task_ids(self):
        return range(6)

    def perform(self, task_id):
        if task_id == 2 and not os.path.exists(self.marker):
            Path(self.marker).write_text("died once")
            os._exit(1)
        if task_id == 3 and self.broken:
            raise ValueError("task three is broken")
        return task_id * task_id

    def save(self, task_id, result):
        return {"count": 1, "square": result}


def test_runner_retries_a_task_whose_worker_died(tmp_path):
    job = FlakyJob(str(tmp_path / "marker"), total=6)
    records = run_job(job, str(tmp_path / "journal.jsonl"), LocalWorkers(2))
    assert {task: record["square"] for task, record in records.items()} == {i: i * i for i in range(6)}
    assert (tmp_path / "marker").exists()
    # Run again: everything is journaled, nothing is performed.
    assert run_job(job, str(tmp_path / "journal.jsonl"), LocalWorkers(2)) == records


def test_runner_stops_on_a_task_that_raises(tmp_path):
    job = FlakyJob(str(tmp_path / "marker"), total=6, broken=True)
    (tmp_path / "marker").write_text("")
    with pytest.raises(JobError, match="task 3 failed: task three is broken"):
        run_job(job, str(tmp_path / "journal.jsonl"), LocalWorkers(1))


def test_ray_retries_a_task_whose_worker_died(tmp_path):
    ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install '.[cluster]'")
    # Ray's workers cannot import this test module: send FlakyJob's code with it.
    ray.cloudpickle.register_pickle_by_value(sys.modules[__name__])
    job = FlakyJob(str(tmp_path / "marker"), total=6)
    records = run_job(job, str(tmp_path / "journal.jsonl"), RayWorkers("local", 1))
    assert {task: record["square"] for task, record in records.items()} == {i: i * i for i in range(6)}
    assert (tmp_path / "marker").exists()
