"""`pyrope kriegspiel`: Kriegspiel from the command line. `match` plays games between players on the
shared match runner and reports score, Elo with its 95% interval, draws by kind, game length and
tries per move (pyrope.kriegspiel.match); `play` is a game at the terminal (.terminal)."""
from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import sys

from .. import console
from ..console import InputError
from ..data import revision
from .._core import STARTING_FEN
from ..journal import Journal
from ..match.clock import Clock, TimeControl
from ..match.options import SprtSpec, check_counts, match_seed, parse_fields, time_control
from ..match.runner import Match, play_command, schedule
from .match import TRY_CAP, KriegspielMatchGame, check_start, parse_player_spec, read_openings
from .opponent import HORIZON, OpponentModel
from .pgn import PgnReader
from .roster import BUILTINS, DEFAULT_PLAYER
from .terminal import KriegspielTerminal

COMMAND = "pyrope kriegspiel match"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.epilog = ("examples:\n"
                     "  pyrope kriegspiel play --as black --opponent semi-random\n"
                     "  pyrope kriegspiel match --white semi-random --black random --games 100\n"
                     "  pyrope kriegspiel match --white random seed=3 --black centre --fen '8/8/8/4k3/8/8/3PK3/8 w - - 0 1'")
    actions = parser.add_subparsers(dest="kriegspiel_command", required=True, metavar="ACTION")
    match = actions.add_parser(
        "match", help="play Kriegspiel between players; report score, Elo, draws by kind, tries per move",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Play Kriegspiel games (ICC wild 16) between two players, colours alternating, each\n"
                    "start played twice, and report score, Elo with its 95% interval, faults, draws by kind,\n"
                    "game length and tries per move.",
        epilog="players (--white, --black: KIND then KEY=VALUE fields):\n"
               "  random [seed=N]        uniform among the tries it cannot rule out (thesis 4.6)\n"
               "  semi-random [seed=N]   recaptures first, then pawn captures when pawn tries are announced\n"
               "    (both: endgame=1 hands over to the bare-king search once the enemy is bare)\n"
               "  centre [seed=N]        its tries nearest the centre first (the thesis's defending king, 6.4)\n"
               "  maximax [seed=N] [positions=5000] [depth=2] [alpha=50] [endgame=1]\n"
               "                         Darkboard 1.0: weighted maximax over metapositions (thesis ch. 4;\n"
               "                         alpha in hundredths)\n"
               "  mcts [seed=N] [positions=5000] [exploration=40] [alpha=50] [endgame=1]\n"
               "                         Darkboard 2.0: Monte Carlo tree search, approach C (thesis 5.8;\n"
               "                         exploration: UCT's c in centipawns)\n"
               "    (both: model=FILE: an opponent model guides the metaposition's density, thesis 5.5;\n"
               "     `pyrope kriegspiel model GAMES.pgn --out FILE` counts one from full games)\n"
               "  cmd=COMMAND [dir=D] [option.NAME=VALUE ...]   a program speaking the Kriegspiel line protocol\n"
               "  any player: name=NAME  its name in the report and the PGN\n"
               "examples:\n"
               "  pyrope kriegspiel match --white semi-random --black random --games 100 --pgn games.pgn\n"
               "  pyrope kriegspiel match --white random --black random --games 1000 --concurrency 2 "
               "--resume rr.jsonl\n"
               "  pyrope kriegspiel match --white mcts --black maximax --tc 10+0.1 --games 20")
    play = actions.add_parser(
        "play", help="play Kriegspiel at the terminal against a built-in player",
        description="Play Kriegspiel (ICC wild 16) at the terminal: you see your own men, type tries, and hear\n"
                    "the referee's announcements; the full board and PGN at the end.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    play.add_argument("--as", dest="color", choices=("white", "black"), default="white", help="your side (default white)")
    play.add_argument("--opponent", choices=tuple(BUILTINS), default=DEFAULT_PLAYER,
                      help="the built-in player you face (default %(default)s, the strongest)")
    play.add_argument("--fen", help="start from this position (default: the standard start)")
    play.add_argument("--seed", type=int, default=0, help="the opponent's seed (default 0)")
    play.add_argument("--movetime", type=float, metavar="S",
                      help="the opponent's seconds a move, shared by its tries (default: its own node budget)")
    model = actions.add_parser(
        "model", help="count an opponent model from full Kriegspiel games (for players' model=FILE)",
        description="Count where each side's men of each type stand after its t-th move over the referee's full\n"
                    "games in Kriegspiel PGN (what `pyrope kriegspiel match --pgn` writes): the opponent model\n"
                    "that maximax and mcts players take as model=FILE (thesis 5.5). FILE.json says what it\n"
                    "was counted from.",
        formatter_class=argparse.RawDescriptionHelpFormatter)
    model.add_argument("pgn", nargs="+", metavar="GAMES.pgn", help="Kriegspiel PGN files of full games")
    model.add_argument("--out", required=True, metavar="FILE", help="the model file to write")
    model.add_argument("--horizon", type=console.positive_int, default=HORIZON,
                       help=f"moves a side counted (default {HORIZON})")
    model.add_argument("--player", action="append", metavar="NAME",
                       help="count only the sides this player played, by the games' White and Black tags "
                            "(repeatable; default: every side)")
    match.add_argument("--white", nargs="+", required=True, metavar="TOKEN",
                       help="the first player (White in the odd games): KIND [KEY=VALUE ...]")
    match.add_argument("--black", nargs="+", required=True, metavar="TOKEN",
                       help="the second player (Black in the odd games): KIND [KEY=VALUE ...]")
    match.add_argument("--games", type=int, default=2, help="games, rounded up to an even number (default 2)")
    starts = match.add_mutually_exclusive_group()
    starts.add_argument("--fen", help="every game from this position (default: the standard start)")
    starts.add_argument("--openings", metavar="FILE",
                        help="start positions, one FEN or EPD a line, each played twice with colours swapped")
    match.add_argument("--trycap", type=int, default=TRY_CAP,
                       help=f"refused tries in one turn that lose the game (default {TRY_CAP})")
    limits = match.add_argument_group("time control (--tc or --movetime, and/or --nodes): every player's, "
                                      "each move's tries sharing its time")
    limits.add_argument("--tc", help="clock: BASE+INC, MOVES/BASE or MOVES/BASE+INC in seconds (e.g. 10+0.1, 40/60), "
                                     "as pyrope match takes it")
    limits.add_argument("--movetime", type=float, metavar="S", help="fixed seconds a move (go movetime)")
    limits.add_argument("--nodes", type=int,
                        help="the searches' metapositions (positions, for the bare-king search) a try (go nodes)")
    limits.add_argument("--timemargin", type=int, default=100, metavar="MS",
                        help="milliseconds a player may overstep its clock or movetime before it loses on time "
                             "(default 100, as pyrope match)")
    limits.add_argument("--timeout", type=float, default=30.0, metavar="S",
                        help="cmd= players: seconds allowed for each answer before the game is lost (default 30)")
    match.set_defaults(depth=None)      # the shared time_control reads a depth: Kriegspiel has none
    match.add_argument("--seed", type=int, help="seed of the players' choices (default: a random one, reported)")
    match.add_argument("--concurrency", type=int, default=1, help="games played at the same time (default 1)")
    match.add_argument("--sprt", nargs="*", metavar="KEY=VALUE",
                       help="stop early by SPRT: elo0=0 elo1=10 alpha=0.05 beta=0.05 (the defaults)")
    match.add_argument("--pgn", metavar="FILE", help="append each game's full Kriegspiel PGN to FILE")
    match.add_argument("--resume", metavar="FILE",
                       help="journal each finished game in FILE; the same command again plays only the games it lacks")
    match.add_argument("--event", default="Pyrope Kriegspiel match", help="the PGN's Event tag")
    match.add_argument("--quiet", action="store_true", help="no progress line on stderr")


def build_match(args: argparse.Namespace) -> Match:
    """Check the options and build the match; ValueError says what was wrong."""
    players = [parse_player_spec(args.white, "--white"), parse_player_spec(args.black, "--black")]
    if players[0].name == players[1].name:
        players[1].name += "-2"
    starts = read_openings(args.openings) if args.openings else [check_start(args.fen or STARTING_FEN)]
    if args.trycap < 1:
        raise ValueError("--trycap must be 1 or more")
    check_counts(args)
    tc = time_control(args)
    Clock(players[0].time_control(tc), players[1].time_control(tc))     # ValueError if the odds do not fit
    sprt = None if args.sprt is None else parse_fields(SprtSpec, args.sprt, "--sprt")
    journal = Journal(args.resume) if args.resume else None
    match_seed(args, journal)
    games = args.games + args.games % 2
    if journal is not None:
        # A player without time odds or a model is written as before they existed, so older journals resume.
        player_list = [{key: value for key, value in dataclasses.asdict(spec).items()
                        if key not in ("time", "model") or value} for spec in players]
        journal.check({"game": "kriegspiel", "player list": player_list,
                       "starts": starts, "try cap": args.trycap, "seed": args.seed,
                       # "" without limits, as journals made before the clocks have it
                       "go": "" if tc == TimeControl() else {"time control": dataclasses.asdict(tc),
                                                              "timemargin": args.timemargin},
                       "sprt": None if sprt is None else dataclasses.asdict(sprt)})
    tasks = schedule(2, games, starts)
    game = KriegspielMatchGame(args.trycap, args.event, args.seed, args.timeout, tc, args.timemargin / 1000.0)
    return Match(players, tasks, game, args.concurrency, sprt, args.pgn, args.quiet or not console.show_progress, journal)


def run(args: argparse.Namespace) -> int:
    if args.kriegspiel_command == "play":
        return run_terminal(args)
    if args.kriegspiel_command == "model":
        return run_model(args)
    return play_command(COMMAND, lambda: build_match(args), lambda match: (
        f"Starts: {len({task.opening for task in match.tasks})}, each twice with colours swapped; seed {args.seed}"))


def run_terminal(args: argparse.Namespace) -> int:
    try:
        if args.fen:
            check_start(args.fen)
        if args.movetime is not None and not args.movetime > 0:
            raise ValueError(f"--movetime must be more than 0 seconds, not {args.movetime:g}")
        terminal = KriegspielTerminal(print, args.color == "white", args.opponent, args.fen, args.seed,
                                      prompt=sys.stdin.isatty(), movetime=args.movetime)
    except ValueError as error:
        print(f"pyrope kriegspiel play: {error}", file=sys.stderr)
        return 2
    terminal.run(sys.stdin)
    return 0


def run_model(args: argparse.Namespace) -> int:
    """Count the games into the model file and its provenance beside it."""
    def games():
        for path in args.pgn:
            try:
                with open(path, encoding="utf-8") as handle:
                    yield from PgnReader(handle)
            except OSError as error:
                raise InputError(f"cannot read {path}: {error.strerror}") from None
    model = OpponentModel.count(games(), args.horizon, args.player)
    if model.games == 0:
        played_by = f" played by {', '.join(args.player)}" if args.player else ""
        raise InputError(f"no games{played_by} in {', '.join(args.pgn)}")
    model.write(args.out)
    sources = []
    for path in args.pgn:
        with open(path, "rb") as handle:
            sources.append({"file": path, "sha256": hashlib.sha256(handle.read()).hexdigest()})
    with open(args.out, "rb") as handle:
        digest = hashlib.sha256(handle.read()).hexdigest()
    provenance = {"what": "a Kriegspiel opponent model: the expected men of each side by type and square after "
                          "its t-th move, counted from the referee's full games below", "games": model.games,
                  "horizon": model.horizon, "players": args.player or "every side", "sha256": digest,
                  "sources": sources,
                  "command": "pyrope kriegspiel model " + " ".join(args.pgn) + f" --out {args.out} --horizon {args.horizon}"
                             + "".join(f" --player {name}" for name in args.player or ()),
                  "pyrope": revision()}
    with open(args.out + ".json", "w", encoding="utf-8") as handle:
        json.dump(provenance, handle, indent=1)
        handle.write("\n")
    print(f"pyrope kriegspiel model: {model.games} games, {model.horizon} moves a side, to {args.out} "
          f"(provenance {args.out}.json)")
    return 0
