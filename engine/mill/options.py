"""Mill's options (play.options' Option and Registry): the engine's that chess shares, Sanmill's
rule options and its Variant preset, the search algorithm, MoveTime and the databases' path.

Rule options are checked at once and act from the next `position`, `ucinewgame` or `uginewgame`
(MillSession.set_rule); a value a spin's range allows but the rules do not (PiecesCount 11) is
refused by the rules.
"""
from __future__ import annotations

import dataclasses

from .._mill import ALGORITHMS
from ..play.options import CHECK, CLEAR_HASH, COMBO, HASH, MOVE_OVERHEAD, SPIN, STRING, Option, Registry, Report
from .rules import VARIANTS, MillRules
from .search import DEFAULT_ALGORITHM

NINE = MillRules()      # the rules' defaults: nine men's morris


def set_rule(session, name: str, value: object) -> Report:
    text = str(value).lower() if isinstance(value, bool) else str(value)
    keeps = session.set_rule(name, text)
    return Report(notes=[f"{name} {text} applies from the next position or new game; "
                         "the game in progress keeps its rules"] if keeps else [])


def set_algorithm(session, name: str) -> None:
    if name.lower() not in ALGORITHMS:
        raise ValueError(f"Algorithm takes {' or '.join(ALGORITHMS)}, not {name!r}")
    session.manager.set_algorithm(name.lower())


def rule(name: str, kind: str, **range_) -> Option:
    return Option(name=name, kind=kind, default=getattr(NINE, name), **range_,
                  action=lambda session, value: set_rule(session, name, value))


RULE_SPINS = {"PiecesCount": (9, 12), "FlyPieceCount": (3, 4), "BoardFullAction": (0, 4), "StalemateAction": (0, 4),
              "NMoveRule": (0, 1000), "EndgameNMoveRule": (0, 1000)}
RULE_CHECKS = [field.name for field in dataclasses.fields(MillRules) if isinstance(getattr(NINE, field.name), bool)]

MILL = Registry(
    HASH, MOVE_OVERHEAD,
    *(rule(name, SPIN, minimum=low, maximum=high) for name, (low, high) in RULE_SPINS.items()),
    # Seconds for a `go` without limits, as Sanmill's GUI sends (0: until stop).
    Option(name="MoveTime", kind=SPIN, default=1, minimum=0, maximum=60, setting="move_time"),
    *(rule(name, CHECK) for name in RULE_CHECKS),
    Option(name="Algorithm", kind=COMBO, default=DEFAULT_ALGORITHM, choices=tuple(ALGORITHMS), action=set_algorithm),
    Option(name="Variant", kind=COMBO, default="nine", choices=tuple(VARIANTS),
           action=lambda session, value: set_rule(session, "Variant", value)),
    CLEAR_HASH,
    Option(name="MillDBPath", kind=STRING, found_at_start=True, setting="manager.db_path",
           action=lambda session, path: Report(notes=session.manager.set_db_path(path, session.rules))),
)
