"""Bouts -- two games from one opening, colours swapped, between two tables of evaluation and
search parameters, at a node budget or on a clock, with the run's net or none -- as tasks of the job runner: what evolution's rounds (evolve/) and SPSA's iterations (tune/) are made
of. A bout's opening follows from the run's seed and the bout's number, so any worker plays it the same.
"""
from __future__ import annotations

import os
import socket
from dataclasses import dataclass
import math
from typing import Callable, Mapping, Sequence

from .game import play_bout
from ..nnue import loader
from ..match.clock import TimeControl
from ..match.stats import elo_interval


@dataclass(frozen=True)
class Bout:
    id: int             # numbers every bout of a run: the task id
    pool: int           # evolution's pool (-1: a gauntlet); 0 for SPSA
    first: int          # the two weight sets' ids: the first is White in the bout's first game
    second: int
    nodes: int          # a move's budget, or with `tc` the opening check's alone
    tc: TimeControl | None = None   # the clock both sides play on (None: none)


@dataclass(frozen=True)
class BoutJob:
    """Bouts as a job of the runner (jobs.py): a task puts the net file's bytes `net` into its
    process's core (b"": none, the weights evaluate) and plays one bout with `play` (game.play_bout,
    or a stand-in in tests) between the tables `params` holds under the bout's two ids; its journal
    record names the bout (id, `round`, pool, the two ids, the budget and clock), the opening, both games and
    the worker."""
    fingerprint_: dict
    bouts: tuple[Bout, ...]
    params: Mapping[int, Mapping[str, int]]
    random_plies: int
    seed: int
    total: int
    round: int
    play: Callable = play_bout
    net: bytes = b""
    unit: str = "games"

    def fingerprint(self) -> dict:
        return self.fingerprint_

    def task_ids(self):
        return [bout.id for bout in self.bouts]

    def perform(self, task_id: int) -> dict:
        bout = next(bout for bout in self.bouts if bout.id == task_id)
        loader.load_bytes(self.net)
        opening, games = self.play(self.params[bout.first], self.params[bout.second], bout.nodes,
                                   f"{self.seed}/bout/{bout.id}", self.random_plies, bout.tc)
        return {"opening": opening, "games": games, "worker": f"{socket.gethostname()}:{os.getpid()}"}

    def save(self, task_id: int, result: dict) -> dict:
        bout = next(bout for bout in self.bouts if bout.id == task_id)
        budget = {"tc": bout.tc.pgn()} if bout.tc else {}
        return {"count": len(result["games"]), "round": self.round, "pool": bout.pool,
                "genomes": [bout.first, bout.second], "nodes": bout.nodes, **budget, **result}


def gauntlet_due(interval: int, games: int, gauntlets: Sequence[dict]) -> bool:
    """Whether the run's `games` have passed a multiple of `interval` (0: never) since the last gauntlet."""
    last = gauntlets[-1]["games"] if gauntlets else 0
    return bool(interval) and games // interval > last // interval


def gauntlet_result(bouts: Sequence[Bout], records: Mapping[int, dict], games: int, player) -> dict:
    """A gauntlet's outcome for the bouts' first side (`player`), after the run's `games`: wins,
    losses and draws over the bouts' games, and the Elo difference with its 95% margin."""
    points = {"1-0": 1.0, "1/2-1/2": 0.5, "0-1": 0.0}
    scores = [score for bout in bouts for score in (points[records[bout.id]["games"][0]["result"]],
                                                    1.0 - points[records[bout.id]["games"][1]["result"]])]
    wins, draws = scores.count(1.0), scores.count(0.5)
    elo, margin = elo_interval(wins, len(scores) - wins - draws, draws)
    return {"games": games, "player": player, "wins": wins, "losses": len(scores) - wins - draws, "draws": draws,
            "elo": elo, "margin": margin}


def gauntlet_text(gauntlet: dict, player: str) -> str:
    elo = f"{gauntlet['elo']:+.0f} +/- {gauntlet['margin']:.0f}" if math.isfinite(gauntlet["margin"]) \
        else f"{gauntlet['elo']:+.0f}"
    return (f"Gauntlet after {gauntlet['games']} games: {player} against the start table "
            f"{gauntlet['wins']}-{gauntlet['losses']}-{gauntlet['draws']}, {elo} Elo")


def plot_gauntlets(axes, gauntlets: Sequence[dict], scale: float = 1.0, **style) -> None:
    """Draw gauntlets on matplotlib `axes`: Elo against the start table with the 95% margin, at
    each gauntlet's games times `scale` (SPSA plots iterations: 0.5); a grey line at 0."""
    finite = [g for g in gauntlets if math.isfinite(g["elo"])]
    axes.errorbar([g["games"] * scale for g in finite], [g["elo"] for g in finite], marker="o", capsize=3,
                  yerr=[g["margin"] if math.isfinite(g["margin"]) else 0 for g in finite], **style)
    axes.axhline(0, color="grey", linewidth=0.8)
