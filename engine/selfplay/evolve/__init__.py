"""`pyrope evolve`: evaluation weights evolved in gene pools of self-play games (Genetic Chess)."""
