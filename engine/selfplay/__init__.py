"""Jobs made of many games: the match runner (and, later, data generation, tuning, evolution)."""
