"""`pyrope evolve` (Genetic Chess gene pools): the operators and their bounds, the pools' rules
(replacement after draws at the set rate, migration, the budget schedule), evolution moving towards
a hidden optimum with a stand-in game, genome files and their faults, EvalFile over UCI and CECP,
configuration faults, and runs that end the same killed and resumed, on one or two workers or Ray."""
from __future__ import annotations

import json
import random
import signal
import socket
import subprocess
import time
from pathlib import Path

import chess
import chess.engine
import pytest

from engine_command import PYROPE
from paths import REPOSITORY
from pyrope._core import ParamFileError, default_eval_params, eval_params, load_eval_params, set_eval_params
from pyrope.selfplay.configfile import ConfigError
from pyrope.selfplay.evolve.config import DEFAULT_GENES, parse_config
from pyrope.selfplay.evolve.genome import crossover, format_genome, genome_params, mutate, to_genome
from pyrope.play.manager import SearchManager
from pyrope.weights.files import load_genome, parse_genomes
from pyrope.selfplay.evolve.pools import START_ID, Evolution

pytestmark = pytest.mark.xdist_group("jobs")  # one job file at a time: worker pools, Ray, module fixtures

START = default_eval_params()
SMALL = """\
population = 4
pools = 2
migration interval = 8
minimum nodes = 150
maximum nodes = 350
nodes increment = 100
games = 24
random plies = 6
draw kill probability = 0.3
gauntlet interval = 16
gauntlet bouts = 2
"""


def config(text: str = SMALL):
    return parse_config(text, "test.cfg", START)


def evolve(*words: str, timeout: float = 300) -> subprocess.CompletedProcess:
    return subprocess.run([PYROPE, "evolve", *words], capture_output=True, text=True, timeout=timeout)


def run_files(out: Path) -> dict:
    """What defines a run's outcome: its pools, every genome, its summaries and its state."""
    state = json.loads((out / "state.json").read_text())["run"]
    return {"pools": (out / "pools.txt").read_text(), "genomes": (out / "genomes.txt").read_text(),
            "summary": (out / "summary.txt").read_text(), "state": state}


def bouts_journaled(out: Path) -> list[int]:
    lines = (out / "games.jsonl").read_text().splitlines()[1:]
    return [json.loads(line)["task"] for line in lines]


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> Path:
    """A whole run of SMALL (24 games at 150-350 nodes, and a gauntlet of 4 games) on one worker."""
    folder = tmp_path_factory.mktemp("evolve")
    (folder / "small.cfg").write_text(SMALL)
    result = evolve(str(folder / "small.cfg"), "--workers", "1")
    assert result.returncode == 0, result.stderr
    return folder / "small.run"


# ------------------------------------------------------------------------------------- operators


def test_crossover_takes_whole_genes_half_from_each_parent():
    genes = config().genes
    rng = random.Random(1)
    evolution = Evolution(config(), START)
    first, second = (evolution.genomes[genome] for genome in evolution.pools[0][:2])
    first = mutate(first, genes, rng, genes=len(genes))
    second = mutate(second, genes, rng, genes=len(genes))
    from_first = 0
    for _ in range(400):
        child = crossover(first, second, rng, 99)
        for spec in genes:
            assert child.genes[spec.name] in (first.genes[spec.name], second.genes[spec.name])
        from_first += sum(child.genes[spec.name] is first.genes[spec.name] for spec in genes)
    share = from_first / (400 * len(genes))
    assert 0.45 < share < 0.55


def test_mutation_moves_two_genes_on_average_and_stays_within_bounds():
    genes = config().genes
    rng = random.Random(2)
    genome = Evolution(config(), START).genomes[START_ID]
    moved = 0
    for _ in range(2000):
        child = mutate(genome, genes, rng)
        moved += sum(child.genes[spec.name] != genome.genes[spec.name] for spec in genes)
        genome = child
    assert 1.8 < moved / 2000 < 2.2
    for spec in genes:
        gene = genome.genes[spec.name]
        assert spec.priority_low <= gene.priority <= spec.priority_high
        assert all(low <= weight <= high for weight, low, high in zip(gene.weights, spec.low, spec.high))


def test_default_bounds_keep_each_weight_on_its_side_of_zero():
    for spec in config().genes:
        for name, low, high in zip(spec.params, spec.low, spec.high):
            assert low <= START[name] <= high
            if START[name] > 0:
                assert low > 0
            if START[name] < 0:
                assert high < 0


def test_the_default_genes_cover_the_table_but_its_scale_factors():
    covered = {name for spec in config().genes for name in spec.params}
    assert len(config().genes) == len(DEFAULT_GENES)
    assert covered == {name for name in START if not name.startswith("scale_")}


# ------------------------------------------------------------------------------------- pools


def play_round(evolution: Evolution, result) -> None:
    bouts = evolution.plan_round()
    evolution.apply_round(bouts, {bout.id: result(bout) for bout in bouts})


def test_drawn_bouts_lead_to_replacement_at_the_set_rate():
    text = SMALL.replace("population = 4", "population = 16").replace("migration interval = 8", "migration interval = 100000")
    evolution = Evolution(config(text), START)
    replaced = bouts = 0
    for _ in range(40):
        before = [list(pool) for pool in evolution.pools]
        play_round(evolution, lambda bout: ("1-0", "1-0"))      # each wins with White: 1-1
        bouts += 16
        replaced += sum(len(set(old) - set(new)) for old, new in zip(before, evolution.pools))
    # 640 drawn bouts at 0.3: 192 expected, standard deviation 11.6
    assert 150 < replaced < 235
    assert sum(counts.new_blood for counts in evolution.counts) == replaced


def test_a_won_bout_replaces_the_loser_by_its_child_with_the_winner():
    evolution = Evolution(config(SMALL.replace("migration interval = 8", "migration interval = 1000")), START)
    bouts = evolution.plan_round()
    report = evolution.apply_round(bouts, {bout.id: ("1-0", "1/2-1/2") for bout in bouts})
    for bout, points, _ in report.events:
        assert points == 1.5
        assert bout.second not in evolution.alive() and bout.first in evolution.alive()
    children = [genome for pool in evolution.pools for genome in pool if genome >= 9]
    assert sorted(evolution.genomes[child].parents for child in children) == \
        sorted((bout.first, bout.second) for bout in bouts)


def test_migration_copies_each_pools_best_into_the_next_and_the_budget_oscillates():
    evolution = Evolution(config(SMALL.replace("migration interval = 8", "migration interval = 16")), START)
    budgets = []
    for number in range(8):
        budgets.append(evolution.nodes)
        bouts = evolution.plan_round()
        # Each bout's first wins both games, so the winners (a win each) lead their pools.
        report = evolution.apply_round(bouts, {bout.id: ("1-0", "0-1") for bout in bouts})
        if number == 0:
            assert report.migrated == []            # 8 games: no migration yet
        if number == 1:                             # 16 games: each pool's best moves to the other
            assert [(source, target) for _, source, target in report.migrated] == [(0, 1), (1, 0)]
            for genome, source, target in report.migrated:
                assert genome in evolution.pools[source] and genome in evolution.pools[target]
                assert evolution.standings[genome].wins == max(evolution.standings[other].wins
                                                               for other in evolution.pools[source])
    assert budgets == [150, 250, 350, 250, 150, 250, 350, 250]
    steady = Evolution(config(SMALL + "oscillating = no\n"), START)
    play_round(steady, lambda bout: ("1-0", "0-1"))
    assert steady.nodes == 350


def test_evolution_moves_towards_a_hidden_optimum_with_a_stand_in_game():
    """The stand-in game: the genome nearer a hidden optimum of three weights wins each game with
    a chance that grows with how much nearer it is."""
    text = ("population = 16\npools = 3\nmigration interval = 200\ngames = 6000\n"
            "gene material = knight_value_mg bishop_value_mg rook_value_mg\n")
    evolution = Evolution(config(text), START)
    names = {spec.name: spec.params for spec in evolution.genes}
    target = {"knight_value_mg": 420, "bishop_value_mg": 300, "rook_value_mg": 560}
    rng = random.Random(7)

    def distance(genome: int) -> float:
        params = genome_params(evolution.genomes[genome], names)
        return sum(abs(params[name] - value) for name, value in target.items())

    def game(white: int, black: int) -> str:
        edge = (distance(black) - distance(white)) / 60
        return "1-0" if rng.random() < 1 / (1 + 10 ** -edge) else "0-1"
    start = distance(START_ID)
    while evolution.games < 6000:
        play_round(evolution, lambda bout: (game(bout.first, bout.second), game(bout.second, bout.first)))
    alive = sorted(distance(genome) for genome in evolution.alive())
    assert alive[len(alive) // 2] < 0.5 * start and distance(evolution.champion()) < 0.5 * start


# ------------------------------------------------------------------------------------- genome files


def test_genome_files_round_trip_and_export_as_parameter_files(small_run, tmp_path):
    genes = config().genes
    text = (small_run / "genomes.txt").read_text()
    parsed = parse_genomes(text, "genomes.txt", START)
    genomes = [to_genome(genome, genes, "genomes.txt") for genome in parsed]
    assert [genome.id for genome in genomes] == sorted(genome.id for genome in genomes)
    assert "".join(format_genome(genome, genes) for genome in genomes) == text
    living = parse_genomes((small_run / "pools.txt").read_text(), "pools.txt", START)
    oldest = min(genome.id for genome in living)
    assert load_genome(str(small_run / "pools.txt")).id == oldest
    exported = tmp_path / "best.txt"
    result = evolve("export", f"{small_run / 'pools.txt'}#{living[-1].id}", "-o", str(exported))
    assert result.returncode == 0, result.stderr
    names = {spec.name: spec.params for spec in genes}
    try:
        load_eval_params(str(exported))
        genome = next(to_genome(parsed, genes, "") for parsed in living if parsed.id == living[-1].id)
        assert eval_params() == {**START, **genome_params(genome, names)}
    finally:
        set_eval_params(START)


@pytest.mark.parametrize("change, fault", [
    (lambda text: text.replace("END\n", "", 1), "has no END"),
    (lambda text: text + text.split("END\n")[0] + "END\n", "is repeated"),
    (lambda text: text.replace("pawn_value_mg:", "pawn_worth_mg:", 1), "unknown parameter 'pawn_worth_mg'"),
    (lambda text: text.replace("knight_value_eg: ", "knight_value_eg: x", 1), "needs a number"),
    (lambda text: text.replace("Priority: ", "Priority: -", 1), "Priority must be a positive number"),
])
def test_a_damaged_genome_file_is_refused_with_its_line(small_run, tmp_path, change, fault):
    damaged = tmp_path / "damaged.txt"
    damaged.write_text(change((small_run / "pools.txt").read_text()))
    with pytest.raises(ParamFileError, match=fault) as raised:
        load_genome(str(damaged))
    assert str(raised.value).startswith(f"{damaged}:")
    with pytest.raises(ParamFileError, match="no genome with ID 424242"):
        load_genome(f"{small_run / 'pools.txt'}#424242")


def test_evalfile_loads_a_genome_over_uci_and_cecp(small_run):
    living = parse_genomes((small_run / "pools.txt").read_text(), "pools.txt", START)
    target = f"{small_run / 'pools.txt'}#{living[-1].id}"
    manager = SearchManager()
    try:
        manager.load_eval_file(target)
        assert eval_params() == {**START, **living[-1].params()} != START
    finally:
        manager.load_eval_file(None)
    with chess.engine.SimpleEngine.popen_uci(PYROPE) as engine:
        engine.configure({"EvalFile": target})
        assert engine.play(chess.Board(), chess.engine.Limit(nodes=500)).move in chess.Board().legal_moves
    missing = f"{small_run / 'pools.txt'}#424242"
    uci = subprocess.run([PYROPE], input=f"uci\nsetoption name EvalFile value {target}\nisready\n"
                         f"setoption name EvalFile value {missing}\nisready\nquit\n",
                         capture_output=True, text=True, timeout=60).stdout
    cecp = subprocess.run([PYROPE], input=f"xboard\nprotover 2\noption EvalFile={target}\n"
                          f"option EvalFile={missing}\nquit\n", capture_output=True, text=True, timeout=60).stdout
    uci_errors = [line for line in uci.splitlines() if line.startswith("info string error")]
    cecp_errors = [line for line in cecp.splitlines() if line.startswith("Error")]
    assert len(uci_errors) == 1 and "no genome with ID 424242" in uci_errors[0]
    assert len(cecp_errors) == 1 and "no genome with ID 424242" in cecp_errors[0]


# ------------------------------------------------------------------------------------- configuration


@pytest.mark.parametrize("line, fault", [
    ("populaton = 8", "test.cfg:2: populaton: unknown key"),
    ("population = 1", "test.cfg:2: population: must be 2 or more"),
    ("draw kill probability = 1.5", "test.cfg:2: draw kill probability: a probability is within [0, 1]"),
    ("games = 10", "test.cfg:2: games: given twice (first on line 1)"),
    ("gene passer bounds = 0..10", "test.cfg:2: gene passer: no such gene"),
    ("gene kings = pst_emperor_*", "test.cfg:2: gene kings: the pattern 'pst_emperor_*' matches no parameter"),
    ("gene material bounds = 100..200\ngene material = *_value_mg", "test.cfg:2: gene material bounds: 100..200 "
     "excludes pawn_value_mg's start value"),
    ("gene material priority = 1.5..2\ngene material = *_value_mg", "test.cfg:2: gene material priority: 1.5..2 "
     "must be above 0 and hold the start priority 1"),
    ("gene a = *_value_mg\ngene b = pawn_*", "test.cfg:3: gene b: the parameter 'pawn_value_mg' is already in the gene 'a'"),
    ("minimum nodes = 9000", "test.cfg:2: minimum nodes: 9000 is above the maximum, 5000"),
])
def test_configuration_faults_name_file_line_and_field(line, fault):
    with pytest.raises(ConfigError) as raised:
        config("games = 24\n" + line + "\n")
    assert str(raised.value).startswith(fault)


def test_a_bad_configuration_exits_2_with_one_sentence(tmp_path):
    (tmp_path / "bad.cfg").write_text(SMALL.replace("pools = 2", "pools = 0"))
    result = evolve(str(tmp_path / "bad.cfg"))
    assert result.returncode == 2 and result.stderr.strip().count("\n") == 0
    assert f"{tmp_path / 'bad.cfg'}:2: pools: must be 1 or more" in result.stderr


# ------------------------------------------------------------------------------------- runs


def test_a_gauntlet_measures_the_champion_against_the_start_table(small_run):
    state = json.loads((small_run / "state.json").read_text())["run"]
    [gauntlet] = state["gauntlets"]
    assert gauntlet["games"] == 16 and gauntlet["wins"] + gauntlet["losses"] + gauntlet["draws"] == 4
    records = [json.loads(line) for line in (small_run / "games.jsonl").read_text().splitlines()[1:]]
    played = [record for record in records if record["pool"] == -1]
    assert [record["genomes"] for record in played] == [[gauntlet["player"], START_ID]] * 2
    assert all(record["nodes"] == 350 for record in played)
    wins = sum(record["games"][0]["result"] == "1-0" for record in played) + \
        sum(record["games"][1]["result"] == "0-1" for record in played)
    assert wins == gauntlet["wins"]
    assert f"Gauntlet after 16 games: champion {gauntlet['player']}" in (small_run / "summary.txt").read_text()
    assert [entry["games"] for entry in state["history"]] == [8, 16, 24]
    pytest.importorskip("matplotlib", reason="progress.png needs the tune extra: pip install '.[tune]'")
    assert (small_run / "progress.png").read_bytes().startswith(b"\x89PNG")


def test_a_run_killed_and_resumed_ends_as_the_uninterrupted_run(small_run, tmp_path):
    (tmp_path / "small.cfg").write_text(SMALL)
    out = tmp_path / "killed.run"
    process = subprocess.Popen([PYROPE, "evolve", str(tmp_path / "small.cfg"), "--out", str(out), "--workers", "1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not ((out / "games.jsonl").exists() and len(bouts_journaled(out)) >= 5):
        time.sleep(0.02)
    process.kill()          # SIGKILL, mid-round (a round holds 4 bouts)
    process.wait()
    killed_at = len(bouts_journaled(out))
    assert 5 <= killed_at < 14, "killed too late"
    with open(out / "games.jsonl", "a") as journal:
        journal.write('{"task": 99, "cou')         # a line cut short by the kill
    result = evolve("--resume", str(out), "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert run_files(out) == run_files(small_run)
    assert sorted(bouts_journaled(out)) == list(range(14))      # 3 rounds of 4 bouts, a gauntlet of 2


def test_a_run_killed_in_its_first_round_starts_again_cleanly(small_run, tmp_path):
    (tmp_path / "small.cfg").write_text(SMALL)
    out = tmp_path / "early.run"
    process = subprocess.Popen([PYROPE, "evolve", str(tmp_path / "small.cfg"), "--out", str(out), "--workers", "1"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not ((out / "games.jsonl").exists() and len(bouts_journaled(out)) >= 1):
        time.sleep(0.01)
    process.kill()          # before the first checkpoint: the first pools are archived, no state yet
    process.wait()
    assert not (out / "state.json").exists() and (out / "genomes.txt").stat().st_size > 0, "killed too late"
    result = evolve("--resume", str(out), "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert run_files(out) == run_files(small_run)


def test_two_workers_and_ray_end_as_one_worker(small_run, tmp_path):
    (tmp_path / "small.cfg").write_text(SMALL)
    result = evolve(str(tmp_path / "small.cfg"), "--out", str(tmp_path / "two.run"), "--workers", "2")
    assert result.returncode == 0, result.stderr
    assert run_files(tmp_path / "two.run") == run_files(small_run)
    pytest.importorskip("ray", reason="Ray is an optional extra: pip install '.[cluster]'")
    result = evolve(str(tmp_path / "small.cfg"), "--out", str(tmp_path / "ray.run"), "--ray", "local")
    assert result.returncode == 0, result.stderr
    assert run_files(tmp_path / "ray.run") == run_files(small_run)


def test_resuming_with_another_configuration_or_version_is_refused(small_run, tmp_path):
    (tmp_path / "other.cfg").write_text(SMALL.replace("games = 24", "games = 48"))
    copy = tmp_path / "copy.run"
    subprocess.run(["cp", "-r", str(small_run), str(copy)], check=True)
    result = evolve(str(tmp_path / "other.cfg"), "--out", str(copy))
    assert result.returncode == 2 and "holds a run of another configuration" in result.stderr
    journal = (copy / "games.jsonl").read_text().splitlines()
    header = json.loads(journal[0])
    header["pyrope"] = "0.0.1"
    (copy / "games.jsonl").write_text("\n".join([json.dumps(header)] + journal[1:]) + "\n")
    result = evolve("--resume", str(copy))
    assert result.returncode == 2 and "(its pyrope differs)" in result.stderr


def test_ctrl_c_keeps_the_finished_games_and_the_last_checkpoint(small_run, tmp_path):
    (tmp_path / "small.cfg").write_text(SMALL)
    out = tmp_path / "stopped.run"
    process = subprocess.Popen([PYROPE, "evolve", str(tmp_path / "small.cfg"), "--out", str(out), "--workers", "1"],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not ((out / "state.json").exists() and len(bouts_journaled(out)) >= 5):
        time.sleep(0.02)
    process.send_signal(signal.SIGINT)
    _, stderr = process.communicate(timeout=60)
    assert process.returncode == 130 and "interrupted" in stderr and "Traceback" not in stderr
    assert json.loads((out / "state.json").read_text())["run"]["evolution"]["rounds"] >= 1
    result = evolve("--resume", str(out), "--workers", "1")
    assert result.returncode == 0, result.stderr
    assert run_files(out) == run_files(small_run)


def test_an_unreachable_ray_cluster_is_one_sentence_not_a_hang(tmp_path):
    (tmp_path / "small.cfg").write_text(SMALL)
    with socket.socket() as probe:         # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    result = evolve(str(tmp_path / "small.cfg"), "--ray", f"127.0.0.1:{port}", timeout=60)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert f"no Ray cluster answers at 127.0.0.1:{port}" in result.stderr or "--ray needs Ray" in result.stderr


def test_the_comparison_rates_a_run_by_its_variance_weighted_line_through_the_start():
    import importlib.util
    spec = importlib.util.spec_from_file_location("evolve_bench", REPOSITORY / "bench" / "evolve.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    # Two gauntlets on the line of 5 Elo per 1,000 games; a noisier one off it counts for less.
    line = [{"games": 2000, "elo": 10.0, "margin": 20.0}, {"games": 4000, "elo": 20.0, "margin": 20.0}]
    slope, margin = bench.gain_rate(line)
    # Each weighs (1.96 / 20)^2 at 2 and 4 thousand games: the margin is 1.96 / sqrt(sum w x^2) = sqrt(20).
    assert slope == pytest.approx(5.0) and margin == pytest.approx(20 ** 0.5)
    slope_noisy, _ = bench.gain_rate(line + [{"games": 6000, "elo": 90.0, "margin": 200.0}])
    slope_sure, _ = bench.gain_rate(line + [{"games": 6000, "elo": 90.0, "margin": 20.0}])
    assert 5.0 < slope_noisy < slope_sure
    # Pooled: the gauntlets' games as one match.
    assert bench.pooled([{"wins": 3, "losses": 1, "draws": 0}, {"wins": 0, "losses": 2, "draws": 2}]) \
        == "3-3-2, +0.0 +/- " + f"{bench.elo_interval(3, 3, 2)[1]:.1f}"
