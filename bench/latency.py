"""Responsiveness: time from `stop` to `bestmove` over many trials, for each thread count.

Each trial sets a bench position, sends `go infinite`, waits a random 5-60 ms (so the stop lands
anywhere in the search, early iterations included) and measures from writing `stop` to reading
the `bestmove` line, pipe latency included -- what a GUI sees.

    python3 bench/latency.py [--trials 1000] [--threads 1 2]
"""
from __future__ import annotations

import argparse
import random
import shutil
import subprocess
import time

from tqdm import tqdm

from pyrope.play.bench import POSITIONS


def read_until(process: subprocess.Popen, prefix: str) -> str:
    while True:
        line = process.stdout.readline()
        if not line:
            raise RuntimeError("pyrope exited")
        if line.startswith(prefix):
            return line


def measure(threads: int, trials: int, rng: random.Random) -> list[float]:
    process = subprocess.Popen([shutil.which("pyrope")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                               text=True, bufsize=1)

    def send(line: str) -> None:
        process.stdin.write(line + "\n")
        process.stdin.flush()

    send("uci")
    send(f"setoption name Threads value {threads}")
    send("isready")
    read_until(process, "readyok")
    latencies = []
    for _ in tqdm(range(trials), desc=f"Threads {threads}", unit="trial"):
        send(f"position fen {rng.choice(POSITIONS)}")
        send("go infinite")
        time.sleep(rng.uniform(0.005, 0.060))
        start = time.perf_counter()
        send("stop")
        read_until(process, "bestmove")
        latencies.append((time.perf_counter() - start) * 1000)
    send("quit")
    process.wait(timeout=30)
    return latencies


def percentile(sorted_values: list[float], fraction: float) -> float:
    return sorted_values[min(len(sorted_values) - 1, int(fraction * len(sorted_values)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--trials", type=int, default=1000)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for threads in args.threads:
        values = sorted(measure(threads, args.trials, rng))
        under = sum(value < 50 for value in values)
        print(f"Threads {threads}: {len(values)} trials, median {percentile(values, 0.5):.2f} ms, "
              f"p90 {percentile(values, 0.9):.2f} ms, p99 {percentile(values, 0.99):.2f} ms, "
              f"max {values[-1]:.2f} ms, under 50 ms: {under}/{len(values)} ({100 * under / len(values):.1f}%)")


if __name__ == "__main__":
    main()
