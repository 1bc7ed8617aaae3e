"""Mill endgame databases: placement-free classes solved by retrograde analysis (pyrope._mill's
MillDBCore), stored one class a file (tables.py), built (build.py) and probed (probe.py)."""
