"""`pyrope mill match`: Mill games between UGI engines and built-in players, on the one match runner
(pyrope.match.runner) that `pyrope match` uses for chess.

  players.py   how a player is given; the built-in random, reference and OpenSpiel MCTS players
  ugi.py       engines over UGI: an external program, or Pyrope's own front-end in this process
  game.py      openings, one game refereed by the rules core, its text record (MillGame)
  command.py   the command line
"""
