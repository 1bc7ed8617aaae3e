"""The match runner and `pyrope match`, split by concern:

  stats.py           Elo, its interval, LOS, SPRT: pure functions of the results
  options.py         command-line values every match command shares (KEY=VALUE fields, --sprt)
  clock.py           time controls and the clocks the runner keeps
  runner.py          the one runner: scheduling, workers, tallies, journal, SPRT, report; the Game interface
  chess_engines.py   UCI/xboard engine processes (python-chess)
  chess_game.py      a chess game: natural ends, adjudication, one game, its PGN (ChessGame)
  chess_openings.py  EPD and PGN openings
  command.py         `pyrope match` itself

Every game's matches use this runner: Mill's (`pyrope mill match`, pyrope.mill.match) and
Kriegspiel's (`pyrope kriegspiel match`, pyrope.kriegspiel.match) are other Games on it, and the
weights' gate (pyrope.weights.build) counts with its tallies. It is a tool beside the engine: the
engine a GUI starts never imports it. The names of `pyrope match` are gathered here, so that
`pyrope.match` is the command's module.
"""
from .chess_engines import INFO, EngineProcess, EngineSpec, engine_fault, parse_engine_spec
from .chess_game import (MATE_CP, ChessGame, DrawRule, GameClock, ResignRule, Rules, TablebaseAdjudicator,
                         draw_adjudicated, format_comment, natural_end, play_game, resign_adjudicated)
from .chess_openings import load_openings, parse_epd_openings, parse_pgn_openings
from .clock import Clock, TimeControl, parse_tc
from .command import Match, add_arguments, build_match, fingerprint, run
from .options import SprtSpec, parse_fields, split_key_value
from .runner import (QUIT_TIMEOUT, START_TIMEOUT, Ending, EngineStartError, GameTask, Tally, draw, fault_ending,
                     loss, schedule)
from .stats import (elo_from_score, elo_interval, likelihood_of_superiority, score_and_variance, score_from_elo,
                    sprt_bounds, sprt_decision, sprt_forecast, sprt_llr)

__all__ = ["INFO", "EngineProcess", "EngineSpec", "engine_fault", "parse_engine_spec", "MATE_CP",
           "ChessGame", "DrawRule", "GameClock", "ResignRule", "Rules", "TablebaseAdjudicator",
           "draw_adjudicated", "format_comment", "natural_end", "play_game", "resign_adjudicated",
           "load_openings", "parse_epd_openings", "parse_pgn_openings", "Clock", "TimeControl", "parse_tc",
           "Match", "add_arguments", "build_match", "fingerprint", "run", "SprtSpec", "parse_fields",
           "split_key_value", "QUIT_TIMEOUT", "START_TIMEOUT", "Ending", "EngineStartError", "GameTask",
           "Tally", "draw", "fault_ending", "loss", "schedule", "elo_from_score", "elo_interval",
           "likelihood_of_superiority", "score_and_variance", "score_from_elo", "sprt_bounds",
           "sprt_decision", "sprt_forecast", "sprt_llr"]
