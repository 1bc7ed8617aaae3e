"""Mill rule options under Sanmill's UCI names, the Variant presets, and their validation.

MillRules.from_options(variant, **options) checks every value and raises ValueError with one
sentence naming the fault; .core_values() is the integer tuple pyrope._mill.MillCore.set_rules takes.
"""
from __future__ import annotations

from dataclasses import dataclass, fields, replace

from .geometry import lines

# Sanmill's numbering (docs/mill.md, "Rules", says how each is played):
BOARD_FULL_ACTIONS = ("firstPlayerLose", "firstAndSecondPlayerRemovePiece", "secondAndFirstPlayerRemovePiece",
                      "sideToMoveRemovePiece", "agreeToDraw")
STALEMATE_ACTIONS = ("endWithStalemateLoss", "changeSideToMove", "removeOpponentsPieceAndMakeNextMove",
                     "removeOpponentsPieceAndChangeSideToMove", "endWithStalemateDraw")


@dataclass(frozen=True)
class MillRules:
    PiecesCount: int = 9
    HasDiagonalLines: bool = False
    MayFly: bool = True
    FlyPieceCount: int = 3
    MayRemoveFromMillsAlways: bool = False
    MayRemoveMultiple: bool = False
    MayMoveInPlacingPhase: bool = False
    BoardFullAction: int = 0
    StalemateAction: int = 0
    NMoveRule: int = 100
    EndgameNMoveRule: int = 100
    ThreefoldRepetitionRule: bool = True

    @classmethod
    def from_options(cls, variant: str = "nine", **options) -> "MillRules":
        """The preset `variant` with `options` (Sanmill names, bools/ints or their UCI strings) applied."""
        variant = options.pop("Variant", variant)   # Sanmill's option name for the preset
        key = str(variant).strip().lower()
        if key not in VARIANTS:
            raise ValueError(f"Unknown Mill variant '{variant}'; choose one of {', '.join(VARIANTS)}.")
        rules = VARIANTS[key]
        names = {f.name: f.type for f in fields(cls)}
        changes = {}
        for name, value in options.items():
            if name not in names:
                raise ValueError(f"Unknown Mill rule option '{name}'.")
            changes[name] = _bool(name, value) if names[name] in (bool, "bool") else _int(name, value)
        rules = replace(rules, **changes)
        rules.check()
        return rules

    def check(self) -> None:
        if self.PiecesCount not in (9, 10, 12):
            raise ValueError(f"PiecesCount must be 9, 10 or 12, not {self.PiecesCount}.")
        if self.FlyPieceCount not in (3, 4):
            raise ValueError(f"FlyPieceCount must be 3 or 4, not {self.FlyPieceCount}.")
        for name, actions in (("BoardFullAction", BOARD_FULL_ACTIONS), ("StalemateAction", STALEMATE_ACTIONS)):
            if not 0 <= getattr(self, name) < len(actions):
                raise ValueError(f"{name} must be 0-{len(actions) - 1} ({', '.join(f'{i} {a}' for i, a in enumerate(actions))}), "
                                 f"not {getattr(self, name)}.")
        for name in ("NMoveRule", "EndgameNMoveRule"):
            if not 0 <= getattr(self, name) <= 1000:
                raise ValueError(f"{name} must lie in 0-1000 turns (0: off), not {getattr(self, name)}.")

    @property
    def max_removals(self) -> int:
        """Removals one turn can earn: one, or one per mill closed (three at a diagonal corner)."""
        return 3 if self.MayRemoveMultiple else 1

    def lines(self) -> tuple[tuple[int, int, int], ...]:
        return lines(self.HasDiagonalLines)

    def core_values(self) -> tuple[int, ...]:
        return (self.PiecesCount, int(self.MayFly), self.FlyPieceCount, int(self.MayRemoveFromMillsAlways),
                int(self.MayRemoveMultiple), int(self.MayMoveInPlacingPhase), self.BoardFullAction,
                self.StalemateAction, self.NMoveRule, self.EndgameNMoveRule, int(self.ThreefoldRepetitionRule))


def _bool(name: str, value) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "on", "yes"):
        return True
    if text in ("false", "0", "off", "no"):
        return False
    raise ValueError(f"{name} must be true or false, not '{value}'.")


def _int(name: str, value) -> int:
    if isinstance(value, bool):
        raise ValueError(f"{name} must be a whole number, not {value}.")
    try:
        return int(str(value).strip())
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not '{value}'.") from None


VARIANTS = {
    "nine": MillRules(),
    "twelve": MillRules(PiecesCount=12, HasDiagonalLines=True),
    "lasker": MillRules(PiecesCount=10, MayMoveInPlacingPhase=True),
    "morabaraba": MillRules(PiecesCount=12, HasDiagonalLines=True, MayRemoveMultiple=True),
}
