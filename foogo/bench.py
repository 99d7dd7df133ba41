"""`foogo bench`: playout throughput from the empty board, in libego's report format.

Prints playouts/s, moves per playout, black/white wins and draws, and the mean
black-minus-white area score (or the same as one JSON object with --json).
Light playouts by default; `--policy heavy` times the heavy policy (policy.py)
and says so in the report's first line and its "policy" key.
The first batch is a warm-up that also triggers compilation; it is not timed.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys

from .board import Board
from .geometry import MAX_SIZE, MIN_SIZE
from .playout import default_threads, run_playouts

JSON_KEYS = ("size", "threads", "playouts", "seconds", "playouts_per_second", "moves_per_playout",
             "black_wins", "white_wins", "draws", "mean_score")


def measure(size: int = 9, playouts: int = 100_000, threads: int = 1, seed: int = 0,
            komi: float = 7.5, repeats: int = 1, policy: str = "light") -> dict:
    """Run `playouts` playouts of the named policy from the empty board (best of `repeats` timings);
    return the report dict."""
    board = Board(size)
    run_playouts(board, min(playouts, 2000), seed=seed + 1, threads=threads, policy=policy)  # compile, warm up
    best = None
    for _ in range(max(1, repeats)):
        batch = run_playouts(board, playouts, seed=seed, threads=threads, policy=policy)
        if best is None or batch.seconds < best.seconds:
            best = batch
    black, white, draws = best.wins(komi)
    return {
        "size": size,
        "threads": threads,
        "playouts": playouts,
        "seconds": round(best.seconds, 4),
        "playouts_per_second": round(playouts / best.seconds, 1) if best.seconds > 0 else float("inf"),
        "moves_per_playout": round(float(best.moves.mean()), 2) if playouts else 0.0,
        "black_wins": black,
        "white_wins": white,
        "draws": draws,
        "mean_score": round(float(best.scores.mean()), 3) if playouts else 0.0,
        "komi": komi,
        "capped": int(best.capped.sum()),
        "policy": policy,
    }


def format_report(report: dict) -> str:
    """The libego-style text block for one report."""
    n = report["playouts"] or 1
    policy = report.get("policy", "light")
    return "\n".join([
        f"foogo {policy} playouts, {report['size']}x{report['size']}, {report['threads']} thread(s), komi {report['komi']}",
        f"  playouts          {report['playouts']}",
        f"  seconds           {report['seconds']:.3f}",
        f"  playouts/s        {report['playouts_per_second']:.0f}",
        f"  moves/playout     {report['moves_per_playout']:.2f}",
        f"  black wins        {report['black_wins']} ({100 * report['black_wins'] / n:.2f}%)",
        f"  white wins        {report['white_wins']} ({100 * report['white_wins'] / n:.2f}%)",
        f"  draws             {report['draws']}",
        f"  mean score (B-W)  {report['mean_score']:+.3f} (before komi)",
        f"  hit move cap      {report['capped']}",
    ])


def machine() -> str:
    """A one-line description of this machine's CPU and core count."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return f"{cpu}, {os.cpu_count()} cores, Python {platform.python_version()}"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the `foogo bench` options."""
    parser.add_argument("--size", type=int, default=9, help=f"board size {MIN_SIZE}..{MAX_SIZE} (default 9)")
    parser.add_argument("--threads", type=int, default=1, help="threads (default 1)")
    parser.add_argument("--playouts", type=int, default=100_000, help="playouts to time (default 100000)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--komi", type=float, default=7.5, help="komi for the win counts (default 7.5)")
    parser.add_argument("--repeats", type=int, default=1, help="time this many runs, report the fastest")
    parser.add_argument("--policy", choices=("light", "heavy"), default="light",
                        help="playout policy (default light)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the text report")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark described by parsed arguments; return the exit code."""
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        print(f"foogo bench: --size must be from {MIN_SIZE} to {MAX_SIZE}, got {args.size}", file=sys.stderr)
        return 2
    if args.playouts < 1 or args.threads < 1 or args.repeats < 1:
        print("foogo bench: --playouts, --threads and --repeats must be at least 1", file=sys.stderr)
        return 2
    if args.threads > default_threads():
        print(f"foogo bench: note: {args.threads} threads on {default_threads()} cores", file=sys.stderr)
    report = measure(args.size, args.playouts, args.threads, args.seed, args.komi, args.repeats, args.policy)
    if args.json:
        print(json.dumps(report))
    else:
        print(format_report(report))
        print(f"  machine           {machine()}")
    return 0
