"""The built-in Kriegspiel players by name -- what `--white KIND key=value ...`, the terminal and
the protocol's `player` name -- with their whole-number parameters and defaults. Apart from
players.py because the searching players (endgame, maximax, mcts) build on players.py's classes.
"""
from __future__ import annotations

from typing import Callable, Optional

from .endgame import HandOver
from .maximax import MaximaxPlayer
from .mcts import MctsPlayer
from .opponent import OpponentModel
from .players import CentreSeekingPlayer, Player, RandomPlayer, SemiRandomPlayer


def converting(player: Player, params: dict[str, int]) -> Player:
    """`player`, handing over to the bare-king search once the enemy is bare when `endgame` is 1."""
    if not params.get("endgame"):
        return player
    return HandOver(player)


# The player the protocol and the terminal use unless told otherwise: the strongest measured. The
# maximax wins 95.5% against the random player and 83.2% against the semi-random over 1,000 games
# each (bench/results/kriegspiel/), and the MCTS stayed below it at equal budgets (issue 16: twelve
# versions between -94 and -2 Elo); bench/kriegspiel_strength.py's time-* checks measure both at
# equal time.
DEFAULT_PLAYER = "maximax"

# The built-in kinds, their whole-number parameters with defaults, and how each is made for a game
# (from its parameters, the game's seed and an opponent model or None). endgame=1: the bare-king
# search converts won endings.
Make = Callable[[dict[str, int], str, Optional[OpponentModel]], Player]
BUILTINS: dict[str, tuple[dict[str, int], Make]] = {
    "random": ({"seed": 0, "endgame": 0},
               lambda p, seed, model: converting(RandomPlayer(f"{p['seed']}:{seed}"), p)),
    "semi-random": ({"seed": 0, "endgame": 0},
                    lambda p, seed, model: converting(SemiRandomPlayer(f"{p['seed']}:{seed}"), p)),
    "centre": ({"seed": 0}, lambda p, seed, model: CentreSeekingPlayer(f"{p['seed']}:{seed}")),
    # alpha in hundredths (the parameters are whole numbers): 50 is the risk coefficient 0.5.
    "maximax": ({"seed": 0, "endgame": 1, "positions": 5000, "depth": 2, "alpha": 50},
                lambda p, seed, model: converting(_maximax(f"{p['seed']}:{seed}", p, model), p)),
    # exploration: UCT's c in centipawns.
    "mcts": ({"seed": 0, "endgame": 1, "positions": 5000, "exploration": 40, "alpha": 50},
             lambda p, seed, model: converting(_mcts(f"{p['seed']}:{seed}", p, model), p)),
}
# The kinds that keep a metaposition, whose density an opponent model can guide.
MODELLED = ("maximax", "mcts")


def _maximax(seed: str, params: dict[str, int], model: Optional[OpponentModel]) -> Player:
    return MaximaxPlayer(seed, params["positions"], params["depth"], params["alpha"] / 100, model)


def _mcts(seed: str, params: dict[str, int], model: Optional[OpponentModel]) -> Player:
    return MctsPlayer(seed, params["positions"], params["exploration"], params["alpha"] / 100, model)


def builtin(kind: str, game_seed: str, model: Optional[OpponentModel] = None, **params: int) -> Player:
    """A fresh built-in player of `kind` for one game: its defaults, overridden by those of
    `params` it takes (others are ignored: `endgame` means nothing to the centre-seeking king),
    and for the MODELLED kinds an opponent model."""
    defaults, make = BUILTINS[kind]
    return make({**defaults, **{key: value for key, value in params.items() if key in defaults}}, game_seed, model)
