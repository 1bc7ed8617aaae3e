"""Kriegspiel benchmarks (issue 16):

    python3 bench/kriegspiel.py referee [--games 200] [--positions 2000] [--repeat 50] [--seed 16]
    python3 bench/kriegspiel.py players [--games 1000]
    python3 bench/kriegspiel.py endgame [--endings KRK KQK] [--starts 500] [--depth 4] [--nodes 400000]
    python3 bench/kriegspiel.py metaposition [--games 20]
    python3 bench/kriegspiel.py search [--games 10] [--positions 5000]
    python3 bench/kriegspiel.py captures [--openings 30]
    python3 bench/kriegspiel.py deadline [--games 4] [--starts 20] [--budgets 0.01 0.05 0.1] [--movetime 0.1]

`players` plays the built-in players' tally of docs/kriegspiel.md ("Numbers"): random vs random and
semi-random vs random, --games each through players.play_game, colours alternating, player seeds
n and 10000 + n for game n; results from the first player's side, draws by kind, plies and tries.

`endgame` plays section 6.4's tests: the bare-king search (pyrope.kriegspiel.endgame) from --starts
starts of each ending where nothing is known of the king (its piece beside its king, the bare king
anywhere legal), against the random king and the centre-seeking king, and reports mates within the
fifty-move rule, other endings by kind, moves to mate and time a move.

`referee`, `metaposition` and `search` count per second of this process's CPU time
(time.process_time): what a second of thinking does, which a busy machine does not lower (its
wall-clock rate would). `search` measures the Darkboard players' searches on one thread: the
maximax's metapositions a second (its enhanced search) and the MCTS's metapositions and nodes (our
turns) a second, each
given --positions metapositions, from White's metaposition at every fifth White move of --games
seeded semi-random vs random games (only the searches are timed).

`deadline` measures how far past their time the searches return (time limit only, no node
limit): the maximax's enhanced and basic searches and the MCTS on the metapositions `search` uses
(White's at every tenth turn of --games games), the bare-king search (depth up to 8, so the time
ends it) from --starts KRK and KQK starts each, at each of --budgets seconds; then whole moves --
every try of a move sharing its time, Python's work included -- of the maximax and the MCTS at
--movetime against the random player (--moves-games games each). Over by: the call's (or the
move's) wall time less its budget, median, 95th percentile and max, in ms.

`captures` checks the density's chance of a capture (what the MCTS's capture answers are weighed
by) against the referee: maximax self-play from the first --openings balanced openings, each twice
with colours swapped; for every legal try onto a square that may hold an enemy man but surely
need not (pawn captures left out: legal means a capture), the density's expected enemy men there
(MetaCore.density(), summed over types, at most 1) before the try, and whether the referee then
announced a capture; binned by the chance. Before that it gives the mean log of the density's chance of
each true enemy man on its square (at most 1, at least 1e-6), every turn of ours: how well the
density places the enemy's men.

`referee` measures the referee's tries per second on one thread, three ways, on tries a player
seeing only its own men might make (tests/support/kriegspiel_tries.py: its men's moves on its own board,
pawn captures onto every square a pawn attacks, some nonsense):

- compiled: RefereeCore.probe, the C loop a player's search would use, over every candidate try of
  --positions positions drawn from --games seeded random games, each position's tries answered
  --repeat times (a legal try is played and taken back, so every try meets the same position);
- Python API: Referee.try_move(text), in the same random games, tries in random order until one is
  legal (only the referee's calls are timed);
- the PyPI `kriegspiel` package (if installed): Wild16Game.ask_for on the very same tries, timed
  the same way.
"""
from __future__ import annotations

import argparse
import array
import math
import random
import sys
import time
from pathlib import Path

import chess

from pyrope._kriegspiel import RefereeCore
from pyrope.kriegspiel import Referee
from pyrope.kriegspiel.endgame import DEPTH, MAX_NODES, BareKingPlayer, bare_king_start, packed
from pyrope.kriegspiel.players import Player

ROOT = Path(__file__).resolve().parent.parent
# This file's name would hide the PyPI package `kriegspiel` (the comparison) behind it on sys.path.
sys.path[:] = [entry for entry in sys.path if Path(entry or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT / "tests" / "support"))     # the random tries the oracle test uses
from kriegspiel_tries import candidate_moves, written  # noqa: E402


def play_games(games: int, seed: int, oracle_class=None):
    """Seeded random games on the Python referee (and the oracle, asked the same tries).
    Returns [(fen, every candidate try of that turn)], the tries asked, and the seconds spent in
    Referee.try_move and in the oracle's ask_for."""
    if oracle_class is not None:
        from kriegspiel import KriegspielMove, QuestionAnnouncement
    positions, asked, ours, theirs = [], 0, 0.0, 0.0
    for game in range(games):
        rng = random.Random(seed * 1_000_003 + game)
        referee, board = Referee(), chess.Board()
        oracle = oracle_class() if oracle_class is not None else None
        while referee.outcome is None:
            candidates = candidate_moves(board, rng, captures_first=rng.random() < 0.5)
            positions.append((board.fen(), candidates))
            for move in candidates:
                text, move = written(move, board, rng)
                start = time.process_time()
                answer = referee.try_move(text)
                middle = time.process_time()
                if oracle is not None:
                    oracle.ask_for(KriegspielMove(QuestionAnnouncement.COMMON, move))
                    theirs += time.process_time() - middle
                ours += middle - start
                asked += 1
                if answer.legal:
                    board.push(move)
                    break
    return positions, asked, ours, theirs


def probe_speed(positions, repeat: int) -> tuple[int, float, int]:
    """(tries answered, seconds, legal ones) for RefereeCore.probe over the positions."""
    core = RefereeCore()
    tries_total, seconds, legal = 0, 0.0, 0
    for fen, candidates in positions:
        core.set_fen(fen)
        tries = array.array("H", [packed(move) for move in candidates])
        answers = array.array("i", [0] * len(tries))
        start = time.process_time()
        for _ in range(repeat):
            found = core.probe(tries, answers)
        seconds += time.process_time() - start
        tries_total += repeat * len(tries)
        legal += repeat * found
    return tries_total, seconds, legal


def referee(args) -> None:
    try:
        from kriegspiel import Wild16Game
    except ImportError:
        Wild16Game = None
    positions, asked, ours, theirs = play_games(args.games, args.seed, Wild16Game)
    rng = random.Random(args.seed)
    sample = rng.sample(positions, min(args.positions, len(positions)))
    tries, seconds, legal = probe_speed(sample, args.repeat)
    print(f"{args.games} random games, {len(positions)} positions; one thread")
    print(f"compiled (RefereeCore.probe): {tries / seconds:12,.0f} tries/s  "
          f"({tries:,} tries of {len(sample)} positions, {legal / tries:.1%} legal, {seconds:.2f} s)")
    print(f"Python API (Referee.try_move): {asked / ours:11,.0f} tries/s  ({asked:,} tries, {ours:.2f} s)")
    if Wild16Game is None:
        print("PyPI kriegspiel: not installed (pip install kriegspiel)")
    else:
        print(f"PyPI kriegspiel (Wild16Game.ask_for): {asked / theirs:,.0f} tries/s  "
              f"({asked:,} tries, {theirs:.2f} s)")


def players(args) -> None:
    from collections import Counter

    from pyrope.kriegspiel.players import RandomPlayer, SemiRandomPlayer, play_game
    for first in (RandomPlayer, SemiRandomPlayer):
        tally, plies, tries = Counter(), 0, 0
        start = time.perf_counter()
        for n in range(args.games):
            ours, theirs = first(seed=n), RandomPlayer(seed=10000 + n)
            white, black = (ours, theirs) if n % 2 == 0 else (theirs, ours)
            referee = Referee()
            result = play_game(white, black, referee)
            if result.result == "1/2-1/2":
                tally[result.termination] += 1
            else:
                tally["wins" if (result.result == "1-0") == (n % 2 == 0) else "losses"] += 1
            plies += len(referee.turns)
            tries += sum(len(turn.refused) + 1 for turn in referee.turns)
        seconds = time.perf_counter() - start
        draws = ", ".join(f"{kind} {count}" for kind, count in tally.items() if kind not in ("wins", "losses"))
        print(f"{first.__name__} vs RandomPlayer, {args.games} games: {tally['wins']} wins, {tally['losses']} "
              f"losses; draws: {draws}; {plies / args.games:.0f} plies a game, {tries / plies:.2f} tries a move; "
              f"{args.games / seconds:.1f} games/s")


def endgame(args) -> None:
    """Section 6.4's tests: BareKingPlayer from starts where nothing is known of the bare king,
    against the random king and the centre-seeking king, the same starts for both."""
    from collections import Counter

    from pyrope.kriegspiel.players import CentreSeekingPlayer, RandomPlayer, play_game
    for ending in args.endings:
        pieces = [chess.Piece.from_symbol(letter).piece_type for letter in ending[1:-1]]
        rng = random.Random(f"{args.seed}-{ending}")
        starts = [bare_king_start(rng, pieces) for _ in range(args.starts)]
        for opponent in (RandomPlayer, CentreSeekingPlayer):
            tally, lengths, moves, nodes = Counter(), [], 0, 0
            start = time.perf_counter()
            for n, fen in enumerate(starts):
                referee, player = Referee(fen), BareKingPlayer(args.depth, args.nodes, known=False)
                result = play_game(player, opponent(seed=n), referee)
                tally[result.termination] += 1
                ours = (len(referee.turns) + 1) // 2
                moves, nodes = moves + ours, nodes + player.nodes
                if result.termination == "checkmate":
                    lengths.append(ours)
            seconds = time.perf_counter() - start
            others = ", ".join(f"{kind} {count}" for kind, count in sorted(tally.items()) if kind != "checkmate")
            lengths.sort()
            print(f"{ending} vs {opponent.__name__}, {args.starts} starts: mated {len(lengths)} "
                  f"({len(lengths) / args.starts:.1%}); {others or 'no other ending'}; moves to mate: "
                  f"mean {sum(lengths) / max(1, len(lengths)):.1f}, median {lengths[len(lengths) // 2] if lengths else 0}, "
                  f"max {max(lengths, default=0)}; {seconds / max(1, moves) * 1000:.0f} ms and "
                  f"{nodes / max(1, moves):,.0f} nodes a move", flush=True)


def metaposition(args) -> None:
    """Metaposition updates a second: the compiled one (through its Python face) and the pure-Python
    oracle (tests/support/kriegspiel_metaposition_oracle.py), replaying the same updates of seeded games."""
    from kriegspiel_metaposition_oracle import Metaposition as Oracle

    from pyrope.kriegspiel.metaposition import Metaposition
    from pyrope.kriegspiel.players import RandomPlayer, SemiRandomPlayer, play_game

    games = []          # (fen, color, [(move or None, announcement)]) for each side of each game
    for n in range(args.games):
        referee = Referee()
        play_game(SemiRandomPlayer(seed=n), RandomPlayer(seed=10000 + n), referee)
        for color in (chess.WHITE, chess.BLACK):
            updates = [(chess.Move.from_uci(turn.move) if turn.mover == color else None, turn.announcement)
                       for turn in referee.turns if turn.announcement.outcome is None]
            games.append((referee.start_fen, color, updates))
    total = sum(len(updates) for _, _, updates in games)
    for name, kind in (("compiled (MetaCore)", Metaposition), ("pure Python (the oracle)", Oracle)):
        start = time.process_time()
        for fen, color, updates in games:
            meta = kind(fen, color)
            for move, announcement in updates:
                if move is None:
                    meta.their_move(announcement)
                else:
                    meta.our_move(move, announcement)
        seconds = time.process_time() - start
        print(f"{name}: {total / seconds:,.0f} updates/s ({total:,} updates of {args.games} games, {seconds:.2f} s)")


def white_metapositions(games: int):
    """White's metaposition and pseudomoves at every tenth turn of seeded semi-random vs random
    games (n against 10000 + n), as the searches would meet them."""
    from pyrope.kriegspiel.metaposition import Metaposition
    from pyrope.kriegspiel.players import RandomPlayer, SemiRandomPlayer, play_game

    for n in range(games):
        referee = Referee()
        play_game(SemiRandomPlayer(seed=n), RandomPlayer(seed=10000 + n), referee)
        meta = Metaposition(referee.start_fen, chess.WHITE)
        heard = referee.opening         # what White heard before its move
        for number, turn in enumerate(referee.turns):
            if turn.announcement.outcome is not None:
                break
            if turn.mover == chess.WHITE:
                moves = meta.core.pseudomoves(bool(heard.pawn_tries)) if number % 10 == 0 else []
                if moves:
                    yield meta, moves
                meta.our_move(chess.Move.from_uci(turn.move), turn.announcement)
            else:
                meta.their_move(turn.announcement)
            heard = turn.announcement


def search(args) -> None:
    """The maximax's and the MCTS's speed on the same metapositions (see the module's docstring)."""
    from pyrope._kriegspiel import Maximax, Mcts

    maximax, mcts = Maximax(), Mcts()
    spent = {"maximax": [0, 0.0, 0], "mcts": [0, 0.0, 0]}     # metapositions, seconds, nodes
    for meta, moves in white_metapositions(args.games):
        power = [False] * len(moves)
        for name, run, nodes in (
                ("maximax", lambda: maximax.best(meta.core, moves, power, False, args.positions), None),
                ("mcts", lambda: mcts.best(meta.core, moves, power, args.positions), mcts)):
            start = time.process_time()
            run()
            spent[name][1] += time.process_time() - start
            spent[name][0] += (nodes or maximax).positions
            spent[name][2] += nodes.nodes if nodes else 0
    for name, (positions, seconds, nodes) in spent.items():
        extra = f", {nodes / seconds:,.0f} nodes/s" if nodes else ""
        print(f"{name}: {positions / seconds:,.0f} metapositions/s{extra} ({positions:,} in {seconds:.2f} s)")


def overshoots(name: str, budget: float, elapsed: list[float], work: list[int]) -> None:
    """One line: how far past `budget` the calls returned (median, 95th percentile, max, in ms)."""
    over = sorted(1000 * (e - budget) for e in elapsed)
    print(f"{name:18s} {1000 * budget:5.0f} ms {len(over):5d} calls: over by median {over[len(over) // 2]:+.2f}, "
          f"p95 {over[int(0.95 * (len(over) - 1))]:+.2f}, max {over[-1]:+.2f} ms; "
          f"{sum(work) / len(work):,.0f} units a call")


def deadline(args) -> None:
    """How far past their time the searches return (see the module's docstring)."""
    from pyrope._kriegspiel import BareKing, Maximax, Mcts
    from pyrope.kriegspiel.players import RandomPlayer, play_game
    from pyrope.kriegspiel.roster import builtin
    from pyrope.match.clock import Clock, TimeControl

    metas = list(white_metapositions(args.games))
    maximax, mcts = Maximax(), Mcts()
    rng = random.Random(6)
    kings = []
    for ending in ([chess.ROOK], [chess.QUEEN]):
        for _ in range(args.starts):
            board = chess.Board(bare_king_start(rng, ending))
            men = [(square, piece.piece_type) for square, piece in board.piece_map().items() if piece.color]
            kings.append(BareKing(True, men, chess.BB_ALL & ~board.occupied_co[chess.WHITE]))
    for budget in args.budgets:
        for name, run, searched in (
                ("maximax enhanced", lambda m, moves: maximax.best(m.core, moves, [False] * len(moves), False, None,
                                                                   2, budget), maximax),
                ("maximax basic", lambda m, moves: maximax.best(m.core, moves, [False] * len(moves), True, None,
                                                                2, budget), maximax),
                ("mcts", lambda m, moves: mcts.best(m.core, moves, [False] * len(moves), None, budget), mcts)):
            elapsed, work = [], []
            for meta, moves in metas:
                start = time.perf_counter()
                run(meta, moves)
                elapsed.append(time.perf_counter() - start)
                work.append(searched.positions)
            overshoots(name, budget, elapsed, work)
        elapsed, work, early = [], [], 0
        for king in kings:
            start = time.perf_counter()
            king.best(8, 2 ** 62, (), budget)
            elapsed.append(time.perf_counter() - start)
            work.append(king.nodes)
        overshoots("bare king (depth 8)", budget, elapsed, work)
    # Whole moves: every try of a move shares its time (MoveBudget), Python's work per try included.
    for kind in ("maximax", "mcts"):
        elapsed = []
        for n in range(args.moves_games):
            referee = Referee()
            clock = Clock(TimeControl(movetime=args.movetime))
            play_game(Timed(builtin(kind, str(n)), elapsed), RandomPlayer(seed=n), referee, clock=clock, margin=1.0)
        overshoots(f"{kind} moves", args.movetime, elapsed, [1])


class Timed(Player):
    """`inner`, its moves' wall times (first try to the legal one) appended to `elapsed`."""

    def __init__(self, inner: Player, elapsed: list[float]) -> None:
        self.inner, self.elapsed = inner, elapsed

    def start(self, color, fen):
        self.inner.start(color, fen)

    def hear(self, announcement):
        self.inner.hear(announcement)

    def go(self, budget):
        self.began = time.perf_counter()
        self.inner.go(budget)

    def next_try(self):
        return self.inner.next_try()

    def answered(self, text, legal):
        self.inner.answered(text, legal)
        if legal:
            self.elapsed.append(time.perf_counter() - self.began)


OPENINGS = ROOT.parent / "shared" / "data" / "openings" / "balanced-8ply.epd"
CHANCE_BINS = (0.0, 0.02, 0.05, 0.1, 0.2, 0.35, 0.5, 0.75, 0.999, 1.01)


def captures(args) -> None:
    """The density's capture chance of legal tries against the referee's answers (see above)."""
    from pyrope.kriegspiel.match import read_openings
    from pyrope.kriegspiel.maximax import MaximaxPlayer
    from pyrope.kriegspiel.players import play_game

    seen = []       # (chance, captured)
    placed = []     # the log of the density's chance of each true enemy man, each of our turns

    class Probe(MaximaxPlayer):
        chance = None

        def answered(self, text, legal):
            move, meta = self._tried, self.meta
            square = chess.BB_SQUARES[move.to_square]
            pawn_capture = (meta.ours.piece_type_at(move.from_square) == chess.PAWN
                            and chess.square_file(move.from_square) != chess.square_file(move.to_square))
            if legal and meta.maybe_enemy & meta.empty & square and not pawn_capture:
                density = meta.core.density()
                self.chance = min(1.0, sum(kind[move.to_square] for kind in density))
            super().answered(text, legal)

        def hear(self, announcement):
            if self.chance is not None and announcement.to_move != self.color:
                seen.append((self.chance, announcement.capture is not None))
                self.chance = None
            super().hear(announcement)
            if announcement.to_move == self.color:     # after the enemy's move (or before the first)
                density = self.meta.core.density()
                for square, piece in referee.piece_map(not self.color).items():
                    placed.append(math.log(min(1.0, max(density[piece.piece_type - 1][square], 1e-6))))

    for n, fen in enumerate(read_openings(str(OPENINGS))[:args.openings]):
        for swap in (0, 1):
            referee = Referee(fen)
            play_game(Probe(f"w{n}:{swap}"), Probe(f"b{n}:{swap}"), referee)
    print(f"{2 * args.openings} maximax games; the true enemy men's mean log-chance under the density "
          f"{sum(placed) / len(placed):.3f} ({len(placed)} men on our turns)")
    print("legal tries that may capture, by the density's chance")
    print("chance      tries   mean chance   captured")
    for low, high in zip(CHANCE_BINS, CHANCE_BINS[1:]):
        binned = [(chance, captured) for chance, captured in seen if low <= chance < high]
        if binned:
            print(f"{low:.3f}-{min(high, 1.0):.3f} {len(binned):7d} {sum(c for c, _ in binned) / len(binned):13.3f} "
                  f"{sum(t for _, t in binned) / len(binned):10.3f}")


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    actions = parser.add_subparsers(dest="action", required=True)
    action = actions.add_parser("referee", help="the referee's tries per second")
    action.add_argument("--games", type=int, default=200, help="seeded random games (default 200)")
    action.add_argument("--positions", type=int, default=2000,
                        help="positions of those games the compiled loop answers (default 2000)")
    action.add_argument("--repeat", type=int, default=50, help="times each position's tries are answered (default 50)")
    action.add_argument("--seed", type=int, default=16)
    action.set_defaults(run=referee)
    action = actions.add_parser("players", help="the built-in players' results against the random player")
    action.add_argument("--games", type=int, default=1000, help="games of each pairing (default 1000)")
    action.set_defaults(run=players)
    action = actions.add_parser("endgame", help="the bare-king search's mates from starts where nothing is known")
    action.add_argument("--endings", nargs="+", default=["KRK", "KQK"], help="e.g. KRK KQK KBBK (default KRK KQK)")
    action.add_argument("--starts", type=int, default=500, help="starts of each ending (default 500)")
    action.add_argument("--depth", type=int, default=DEPTH, help=f"search depth in our moves (default {DEPTH})")
    action.add_argument("--nodes", type=int, default=MAX_NODES, help=f"node budget a move (default {MAX_NODES:,})")
    action.add_argument("--seed", type=int, default=6)
    action.set_defaults(run=endgame)
    action = actions.add_parser("metaposition", help="metaposition updates a second, compiled and pure Python")
    action.add_argument("--games", type=int, default=20, help="seeded semi-random vs random games (default 20)")
    action.set_defaults(run=metaposition)
    action = actions.add_parser("search", help="the maximax's and the MCTS's metapositions (and nodes) a second")
    action.add_argument("--games", type=int, default=10, help="seeded semi-random vs random games (default 10)")
    action.add_argument("--positions", type=int, default=5000, help="metapositions a search (default 5000)")
    action.set_defaults(run=search)
    action = actions.add_parser("deadline", help="how far past their time the searches and whole moves return")
    action.add_argument("--games", type=int, default=4, help="seeded semi-random vs random games (default 4)")
    action.add_argument("--starts", type=int, default=20, help="KRK and KQK starts each (default 20)")
    action.add_argument("--budgets", type=float, nargs="+", default=[0.01, 0.05, 0.1],
                        help="seconds a search (default 0.01 0.05 0.1)")
    action.add_argument("--movetime", type=float, default=0.1, help="seconds a move in the games (default 0.1)")
    action.add_argument("--moves-games", type=int, default=2,
                        help="games each of the maximax and the MCTS at --movetime against the random player (default 2)")
    action.set_defaults(run=deadline)
    action = actions.add_parser("captures", help="the density's capture chance against the referee's answers")
    action.add_argument("--openings", type=int, default=30, help="balanced openings, each twice (default 30)")
    action.set_defaults(run=captures)
    args = parser.parse_args(argv)
    args.run(args)


if __name__ == "__main__":
    main()
