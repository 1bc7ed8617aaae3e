"""Is a change to Pyrope stronger? Build two committed revisions side by side and let `pyrope match`
judge them by SPRT (or by a fixed number of games), resumably.

    python3 bench/sprt.py BASE [TEST] [--tc 3+0.03] [--elo0 0 --elo1 5 | --no-sprt] [--games 20000]
        [--concurrency 2] [--threads 1] [--test-threads N] [--journal FILE] [--ray ADDRESS]

TEST defaults to HEAD. Each revision is exported with `git archive` and installed into its own venv
under --builds (default /tmp/pyrope-builds/<commit>), so both are frozen: editing the working tree
during a run changes neither (nor the match runner, which runs from the build of this checkout's
HEAD). Games: balanced openings in random order, each twice with colours
swapped, the book off, Hash 16 MB, one thread each unless --threads says otherwise (--test-threads
gives the test engine its own count: `sprt.py HEAD HEAD --test-threads 2` measures Lazy SMP); Pyrope's match
runner adjudicates (--resign, --draw). Every finished game is journaled (`--resume`): run the same
command again, in this session or a later one, and it plays on where it stopped (a build that /tmp
lost is rebuilt from its commit, and the journal's fingerprint holds the commits, so games of two
different pairs never mix). The journal defaults to bench/results/sprt/<base>-<test>-<tc>.jsonl.
With --ray the games are tasks on a Ray cluster (`pyrope match --ray`), run there by the runner's
build: on each node run the same command with --build-only first (the builds at the same --builds
path, Ray in the runner's), then start Ray on it with the `ray` it prints.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
OPENINGS = ROOT.parent / "shared" / "data" / "openings" / "balanced-8ply.epd"
# The builds run without PYTHONPATH or PYTHONHOME: either would put a working tree's `pyrope` ahead
# of each build's own, and both engines would then be that tree (an SPRT of a net against the
# hand-crafted evaluation, run with PYTHONPATH pointing at the net's tree, played the net against
# itself).
FROZEN = {name: value for name, value in os.environ.items() if name not in ("PYTHONPATH", "PYTHONHOME")}


def commit_of(revision: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{revision}^{{commit}}"],
                          capture_output=True, text=True, check=True).stdout.strip()


def build(commit: str, builds: Path) -> Path:
    """The `pyrope` command of `commit`, installed (once) in a venv of its own."""
    home = builds / commit
    command = home / "venv" / "bin" / "pyrope"
    if command.exists():
        return command
    source = home / "src"
    source.mkdir(parents=True, exist_ok=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", commit], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(source)], input=archive.stdout, check=True)
    print(f"building {commit[:10]} in {home}", file=sys.stderr, flush=True)
    subprocess.run([sys.executable, "-m", "venv", str(home / "venv")], check=True)
    subprocess.run([str(home / "venv" / "bin" / "pip"), "install", "-q", str(source)], check=True)
    return command


def plays_from_a_book(command: Path) -> bool:
    """Whether this build has an opening book to switch off (builds before the book have none)."""
    answer = subprocess.run([str(command)], input="uci\nquit\n", capture_output=True, text=True, timeout=30,
                            env=FROZEN)
    return "option name OwnBook " in answer.stdout


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("base", help="the revision to beat (a commit, branch or tag)")
    parser.add_argument("test", nargs="?", default="HEAD", help="the revision under test (default HEAD)")
    parser.add_argument("--tc", default="3+0.03", help="time control (default 3+0.03)")
    parser.add_argument("--elo0", type=float, default=0.0)
    parser.add_argument("--elo1", type=float, default=5.0)
    parser.add_argument("--no-sprt", action="store_true", help="play --games games, no early stop")
    parser.add_argument("--games", type=int, default=20000, help="most games (default 20000)")
    parser.add_argument("--concurrency", type=int, default=2)
    parser.add_argument("--threads", type=int, default=1, help="search threads of each engine (default 1)")
    parser.add_argument("--test-threads", type=int,
                        help="search threads of the test engine (default: --threads)")
    parser.add_argument("--builds", type=Path, default=Path("/tmp/pyrope-builds"))
    parser.add_argument("--journal", type=Path)
    parser.add_argument("--ray", metavar="ADDRESS", help="play on the Ray cluster at ADDRESS (or auto)")
    parser.add_argument("--build-only", action="store_true",
                        help="build the revisions and stop (what each node of a Ray cluster needs first)")
    args = parser.parse_args()

    base, test = commit_of(args.base), commit_of(args.test)
    threads = "" if args.test_threads is None else f"-{args.test_threads}t"
    journal = args.journal or ROOT / "bench" / "results" / "sprt" / f"{base[:7]}-{test[:7]}{threads}-{args.tc}.jsonl"
    journal.parent.mkdir(parents=True, exist_ok=True)
    engines = {f"test-{test[:7]}": build(test, args.builds), f"base-{base[:7]}": build(base, args.builds)}
    # The match runner too is a frozen build (of this checkout's commit): the working tree's own
    # build may be rebuilt while a run goes on, and an extension rewritten under a running
    # process crashes it.
    runner = build(commit_of("HEAD"), args.builds).with_name("python")
    if args.ray or args.build_only:
        # The runner hands its games to Ray, whose workers unpickle them with the same build.
        subprocess.run([str(runner.with_name("pip")), "install", "-q", "ray>=2.9"], check=True)
    if args.build_only:
        print(f"built: {', '.join(str(path) for path in engines.values())}; start Ray on this node with "
              f"{runner.with_name('ray')} start (--head, or --address HEAD:6379)", file=sys.stderr)
        return 0
    command = [str(runner), "-m", "pyrope.cli", "match", "--tc", args.tc, "--games", str(args.games),
               "--concurrency", str(args.concurrency), "--openings", str(OPENINGS), "--order", "random",
               "--resign", "--draw", "--resume", str(journal),
               "--each", "option.Hash=16", f"option.Threads={args.threads}"]
    if not args.no_sprt:
        command += ["--sprt", f"elo0={args.elo0:g}", f"elo1={args.elo1:g}"]
    if args.ray:
        command += ["--ray", args.ray]
    for name, path in engines.items():
        command += ["--engine", f"cmd={path}", f"name={name}"] + \
            (["option.OwnBook=false"] if plays_from_a_book(path) else [])
        if name.startswith("test-") and args.test_threads is not None:
            command.append(f"option.Threads={args.test_threads}")
    print(f"journal: {journal}", file=sys.stderr, flush=True)
    return subprocess.run(command, env=FROZEN).returncode


if __name__ == "__main__":
    sys.exit(main())
