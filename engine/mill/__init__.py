"""Mill (Nine and Twelve Men's Morris and relatives): rules over the compiled core pyrope._mill."""
from .board import MillBoard
from .rules import VARIANTS, MillRules

__all__ = ["MillBoard", "MillRules", "VARIANTS"]
