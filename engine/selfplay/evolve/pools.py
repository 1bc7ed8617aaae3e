"""The gene pools of `pyrope evolve` and what a round does to them (Genetic Chess, section 5).

Each round pairs every pool's genomes at random; a pair plays a bout, two games from one opening
with colours swapped, so that White's edge (section 6.2) picks no winner. A bout won (more than one
point of two) makes the winner breed with the loser -- each gene from either parent, then about two
genes mutated -- and the child takes the loser's place. A drawn bout keeps both, except that with
the draw-kill probability one of them, chosen at random, is replaced by its child with a fresh
mutant of the start genome or with a genome that died earlier (half the time each, when one has
died). Every `migration interval` games, each pool's best (most bouts won while alive; the older on
a tie) is copied into the next pool, in place of its member with the fewest wins (the younger on a
tie). The per-move budget moves by its increment after each round.

Everything random follows from the seed and the round's number, and a round's results are applied
in bout order, so a run gives the same pools however its games were spread over workers or runs.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Mapping, Sequence

from ..bouts import Bout
from .config import EvolveConfig
from .genome import Genome, crossover, mutate, start_genome

START_ID = 0        # the start table's genome: the parent of the first pools, the gauntlets' yardstick


@dataclass
class Standing:
    """A living genome's record: bouts won and drawn, the current streaks, when it was born."""
    wins: int = 0
    draws: int = 0
    bouts: int = 0
    win_streak: int = 0
    draw_streak: int = 0
    born: int = 0               # the run's games when it was born


@dataclass
class PoolCounts:
    """A pool's games: White wins, Black wins, draws; and the genomes new blood made."""
    white: int = 0
    black: int = 0
    draws: int = 0
    new_blood: int = 0


@dataclass
class RoundReport:
    """What a round did, for the summary: per bout (bout, first's points, what happened)."""
    round: int
    events: list[tuple[Bout, float, str]] = field(default_factory=list)
    new_blood: list[tuple[int, int]] = field(default_factory=list)          # (pool, genome) born of a draw
    migrated: list[tuple[int, int, int]] = field(default_factory=list)      # (genome, from pool, to pool)


class Evolution:
    """The pools, the genomes alive and dead, and the run's counters; `state()` and `restore()`
    give and take everything but the genomes themselves (those are archived by the caller)."""

    def __init__(self, config: EvolveConfig, start: Mapping[str, int]):
        self.config = config
        self.genes = config.genes
        self.genomes: dict[int, Genome] = {START_ID: start_genome(self.genes, start, START_ID)}
        self.rounds = 0
        self.games = 0
        self.next_id = 1
        self.next_bout = 0
        self.nodes = config.minimum_nodes if config.oscillating else config.maximum_nodes
        self.direction = 1
        self.standings: dict[int, Standing] = {}
        self.counts = [PoolCounts() for _ in range(config.pools)]
        self.dead: list[int] = []
        self.most_wins = (0, START_ID)
        self.longest_lived = (0, START_ID)
        rng = self._rng("first pools")
        self.pools = [[self._born(mutate(self._start_child(), self.genes, rng)) for _ in range(config.population)]
                      for _ in range(config.pools)]

    def _rng(self, purpose: str) -> random.Random:
        return random.Random(f"{self.config.seed}/{purpose}/{self.rounds}")

    def _start_child(self) -> Genome:
        """The start genome as a parent's child (_born gives it its id)."""
        return Genome(self.next_id, (START_ID,), self.genomes[START_ID].genes)

    def _born(self, genome: Genome) -> int:
        """Give a new genome its id and standing; the id."""
        genome = Genome(self.next_id, genome.parents, genome.genes)
        self.genomes[genome.id] = genome
        self.standings[genome.id] = Standing(born=self.games)
        self.next_id += 1
        return genome.id

    def reserve_bouts(self, count: int) -> range:
        """Bout numbers for bouts outside the rounds (the gauntlets)."""
        self.next_bout += count
        return range(self.next_bout - count, self.next_bout)

    def alive(self) -> set[int]:
        return {genome for pool in self.pools for genome in pool}

    # ------------------------------------------------------------------------------- a round

    def plan_round(self) -> list[Bout]:
        """The next round's bouts: each pool's genomes shuffled and paired (with an odd population
        the last one rests)."""
        rng = self._rng("pairs")
        bouts = []
        for number, pool in enumerate(self.pools):
            order = list(pool)
            rng.shuffle(order)
            for first, second in zip(order[0::2], order[1::2]):
                bouts.append(Bout(self.next_bout + len(bouts), number, first, second, self.nodes))
        return bouts

    def apply_round(self, bouts: Sequence[Bout], results: Mapping[int, Sequence[str]]) -> RoundReport:
        """Apply the round's games, `results[bout id]` being its two games' results ("1-0", "0-1",
        "1/2-1/2"; the first game with `first` as White), in bout order."""
        rng = self._rng("breeding")
        report = RoundReport(self.rounds + 1)
        for bout in bouts:
            first_game, second_game = results[bout.id]
            points = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}[first_game] \
                + {"1-0": 0.0, "1/2-1/2": 0.5, "0-1": 1.0}[second_game]
            counts = self.counts[bout.pool]
            for result in (first_game, second_game):
                counts.white += result == "1-0"
                counts.black += result == "0-1"
                counts.draws += result == "1/2-1/2"
            self.games += 2
            report.events.append((bout, points, self._settle(bout, points, rng, report)))
        self.next_bout += len(bouts)
        self.rounds += 1
        if self.games // self.config.migration_interval > (self.games - 2 * len(bouts)) // self.config.migration_interval:
            report.migrated = self._migrate()
        self._move_budget()
        return report

    def _settle(self, bout: Bout, points: float, rng: random.Random, report: RoundReport) -> str:
        """The bout's consequence for its pool; a line saying what happened."""
        first, second = self.standings[bout.first], self.standings[bout.second]
        for standing in (first, second):
            standing.bouts += 1
        if points != 1.0:
            winner, loser = (bout.first, bout.second) if points > 1.0 else (bout.second, bout.first)
            won, lost = self.standings[winner], self.standings[loser]
            won.wins += 1
            won.win_streak += 1
            won.draw_streak = lost.win_streak = lost.draw_streak = 0
            if won.wins > self.most_wins[0]:
                self.most_wins = (won.wins, winner)
            child = self._breed(winner, loser, rng)
            self._replace(bout.pool, loser, child)
            return f"{winner} wins; {loser} dies, {child} is born"
        for standing in (first, second):
            standing.draws += 1
            standing.draw_streak += 1
            standing.win_streak = 0
        if rng.random() >= self.config.draw_kill_probability:
            return "drawn"
        victim = rng.choice((bout.first, bout.second))
        if self.dead and rng.random() < 0.5:
            partner, what = self.genomes[rng.choice(self.dead)], "a dead genome"
        else:
            partner, what = mutate(self._start_child(), self.genes, rng, genes=len(self.genes)), "a fresh mutant"
        child = self._born(mutate(crossover(self.genomes[victim], partner, rng, self.next_id), self.genes, rng))
        self.counts[bout.pool].new_blood += 1
        report.new_blood.append((bout.pool, child))
        self._replace(bout.pool, victim, child)
        return f"drawn; {victim} mates with {what} and dies, {child} is born"

    def _breed(self, winner: int, loser: int, rng: random.Random) -> int:
        child = crossover(self.genomes[winner], self.genomes[loser], rng, self.next_id)
        return self._born(mutate(child, self.genes, rng))

    def _replace(self, pool: int, old: int, new: int) -> None:
        members = self.pools[pool]
        members[members.index(old)] = new
        if old not in self.alive():
            lived = self.standings.pop(old).bouts
            if lived > self.longest_lived[0]:
                self.longest_lived = (lived, old)
            self.dead.append(old)

    def _migrate(self) -> list[tuple[int, int, int]]:
        best = [max(pool, key=lambda genome: (self.standings[genome].wins, -genome)) for pool in self.pools]
        moves = []
        for source, genome in enumerate(best):
            target = (source + 1) % len(self.pools)
            if target == source or genome in self.pools[target]:
                continue
            weakest = min(self.pools[target], key=lambda other: (self.standings[other].wins, -other))
            self._replace(target, weakest, genome)
            moves.append((genome, source, target))
        return moves

    def _move_budget(self) -> None:
        config = self.config
        if not config.oscillating:
            return
        self.nodes += self.direction * config.nodes_increment
        if self.nodes >= config.maximum_nodes:
            self.nodes, self.direction = config.maximum_nodes, -1
        elif self.nodes <= config.minimum_nodes:
            self.nodes, self.direction = config.minimum_nodes, 1

    # ------------------------------------------------------------------------------- the state

    def champion(self) -> int:
        """The living genome with the most bouts won (the older on a tie)."""
        return max(self.alive(), key=lambda genome: (self.standings[genome].wins, -genome))

    def state(self) -> dict:
        return {"rounds": self.rounds, "games": self.games, "next_id": self.next_id, "next_bout": self.next_bout,
                "nodes": self.nodes, "direction": self.direction, "pools": self.pools, "dead": self.dead,
                "standings": {str(genome): vars(standing) for genome, standing in self.standings.items()},
                "counts": [vars(counts) for counts in self.counts],
                "most_wins": list(self.most_wins), "longest_lived": list(self.longest_lived)}

    def restore(self, state: dict, genomes: Mapping[int, Genome]) -> None:
        """Take a state() back, with every genome it names (living and dead)."""
        self.rounds, self.games = state["rounds"], state["games"]
        self.next_id, self.next_bout = state["next_id"], state["next_bout"]
        self.nodes, self.direction = state["nodes"], state["direction"]
        self.pools = [list(pool) for pool in state["pools"]]
        self.dead = list(state["dead"])
        self.standings = {int(genome): Standing(**fields) for genome, fields in state["standings"].items()}
        self.counts = [PoolCounts(**fields) for fields in state["counts"]]
        self.most_wins, self.longest_lived = tuple(state["most_wins"]), tuple(state["longest_lived"])
        self.genomes = {START_ID: self.genomes[START_ID], **genomes}
