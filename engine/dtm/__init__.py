"""Pyrope's own endgame tables (distance to mate): generation and the `pyrope tb` command."""
