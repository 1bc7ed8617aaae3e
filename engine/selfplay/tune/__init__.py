"""`pyrope tune`: the evaluation's weights tuned by self-play games (SPSA) or positions (Texel)."""
