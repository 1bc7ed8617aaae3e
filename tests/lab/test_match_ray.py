"""`pyrope match --ray`: the games as tasks of the job runner on a Ray cluster of a head and a worker
node that the test starts (ray.cluster_utils.Cluster: two nodes on this machine). The reference is
the same match played locally: node-limited Pyrope is deterministic, so every game (its moves and
result) must come out the same, whether the match runs on the cluster, is begun locally and
finished there, or loses its worker node while games are in flight."""
import json
import subprocess
import sys
import time

import chess.pgn
import pytest

from paths import OPENINGS, needs

ray = pytest.importorskip("ray", reason="Ray is an optional extra: pip install '.[cluster]'")
cluster_utils = pytest.importorskip("ray.cluster_utils", reason="Ray without its cluster utilities")

# One job file at a time (worker pools, Ray); a minute or more of games and cluster start-ups.
pytestmark = [pytest.mark.long, pytest.mark.xdist_group("jobs"), needs(OPENINGS)]


def match_argv(tmp_path, name, games, nodes, *extra):
    """A match of two Pyropes that differ in their hash size, at a fixed node count (no clock, so
    nothing in a game depends on timing), its record in NAME.pgn and its journal in NAME.jsonl."""
    return [sys.executable, "-m", "pyrope", "--no-progress", "match",
            "--engine", "cmd=pyrope", "name=small", "option.Hash=4",
            "--engine", "cmd=pyrope", "name=large", "option.Hash=32",
            "--each", "option.OwnBook=false", "--nodes", str(nodes), "--games", str(games),
            "--openings", str(OPENINGS), "--pgn", str(tmp_path / f"{name}.pgn"),
            "--resume", str(tmp_path / f"{name}.jsonl"), *extra]


def games(path):
    """Each game of a record file by its round: (white, black, result, its moves)."""
    found = {}
    with open(path, encoding="utf-8") as handle:
        while (game := chess.pgn.read_game(handle)) is not None:
            found[int(game.headers["Round"])] = (game.headers["White"], game.headers["Black"],
                                                 game.headers["Result"], [m.uci() for m in game.mainline_moves()])
    return found


def journal(path):
    lines = path.read_text(encoding="utf-8").splitlines()
    return json.loads(lines[0]), sorted((json.loads(line) for line in lines[1:]), key=lambda record: record["game"])


def score_line(stdout):
    return next(line for line in stdout.splitlines() if line.startswith("Score of"))


@pytest.fixture(scope="module")
def cluster():
    """A head node and a worker node, one CPU each."""
    nodes = cluster_utils.Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
    nodes.add_node(num_cpus=1)
    nodes.wait_for_nodes()
    yield nodes
    nodes.shutdown()


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """The reference: four games played on this machine, one at a time."""
    path = tmp_path_factory.mktemp("local")
    result = subprocess.run(match_argv(path, "local", 4, 4000), capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    return path, result.stdout


def test_a_match_on_the_cluster_plays_the_same_games_as_a_local_one(cluster, local, tmp_path):
    result = subprocess.run(match_argv(tmp_path, "ray", 4, 4000, "--ray", cluster.address),
                            capture_output=True, text=True, timeout=600)
    assert result.returncode == 0, result.stderr
    reference, stdout = local
    assert games(tmp_path / "ray.pgn") == games(reference / "local.pgn") and len(games(reference / "local.pgn")) == 4
    assert journal(tmp_path / "ray.jsonl") == journal(reference / "local.jsonl")
    assert score_line(result.stdout) == score_line(stdout)


def test_a_match_begun_locally_is_finished_on_the_cluster(cluster, local, tmp_path):
    first = subprocess.run(match_argv(tmp_path, "mixed", 2, 4000), capture_output=True, text=True, timeout=600)
    assert first.returncode == 0, first.stderr
    rest = subprocess.run(match_argv(tmp_path, "mixed", 4, 4000, "--ray", cluster.address),
                          capture_output=True, text=True, timeout=600)
    assert rest.returncode == 0, rest.stderr
    assert "Games resumed from" in rest.stdout and "Games: 4 of 4 played" in rest.stdout
    reference, stdout = local
    assert games(tmp_path / "mixed.pgn") == games(reference / "local.pgn")
    assert score_line(rest.stdout) == score_line(stdout)


def test_a_lost_worker_node_costs_only_its_game_in_flight(cluster, tmp_path):
    # A third node joins and is killed once the first game is journaled, with games in flight on
    # every node: the game it was playing is played again on another, and the match ends with the
    # games of a local run.
    doomed = cluster.add_node(num_cpus=1)
    cluster.wait_for_nodes()
    run = subprocess.Popen(match_argv(tmp_path, "lost", 4, 8000, "--ray", cluster.address),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    journal_path = tmp_path / "lost.jsonl"
    deadline = time.monotonic() + 300
    while run.poll() is None and time.monotonic() < deadline and \
            len(journal_path.read_text().splitlines() if journal_path.exists() else []) < 2:
        time.sleep(0.1)
    assert run.poll() is None, "the match ended before a node could be lost"
    cluster.remove_node(doomed, allow_graceful=False)
    stdout, stderr = run.communicate(timeout=600)
    assert run.returncode == 0, stderr
    reference = subprocess.run(match_argv(tmp_path, "reference", 4, 8000), capture_output=True, text=True,
                               timeout=600)
    assert reference.returncode == 0, reference.stderr
    assert games(tmp_path / "lost.pgn") == games(tmp_path / "reference.pgn")
    assert journal(tmp_path / "lost.jsonl") == journal(tmp_path / "reference.jsonl")
    assert score_line(stdout) == score_line(reference.stdout)
