"""`foogo bench`: playout throughput from the empty board, in libego's report format.

Prints playouts/s, nanoseconds per move, moves per playout, black/white wins and
draws, and the mean black-minus-white area score (or the same as one JSON object
with --json). Light playouts by default; `--policy heavy` times the heavy policy
(policy_heavy.py) and says so in the report's first line and its "policy" key.

How it measures, so that figures can be compared: a warm-up batch (which also
compiles or loads the kernels) is not timed, a calibration batch of at least
0.2 s (by the CPU clock with one thread, the wall clock with several) sizes
the runs (unless a playout count is given); then `repeats` runs of the same
seeded playouts, each at least `min_seconds` long unless a playout count is
given. Each run is timed by the CPU clock (process time, all
threads) and the wall clock; the report gives the median and the min..max of
the runs. With one thread the CPU figure is the steadier (other processes on
the machine do not count against it) and is the headline; with several
threads the wall-clock figure is (CPU time then sums over the threads).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import platform
import statistics
import sys
import time

from .board import Board
from .geometry import MAX_SIZE, MIN_SIZE
from .numbers import check_komi, float_option, int_option, shown
from .playout import (
    MAX_BATCH,
    MAX_SEED,
    MAX_THREADS,
    PolicyError,
    custom_policy_function,
    default_threads,
    run_playouts,
)

JSON_KEYS = ("size", "threads", "playouts", "repeats", "playouts_per_second", "playouts_per_second_min",
             "playouts_per_second_max", "playouts_per_cpu_second", "playouts_per_cpu_second_min",
             "playouts_per_cpu_second_max", "ns_per_move", "clock", "seconds", "moves_per_playout",
             "black_wins", "white_wins", "draws", "mean_score")
WARM_UP_PLAYOUTS = 2000
CALIBRATION_SECONDS = 0.2
MAX_REPEATS = 1000  # timed runs one bench may ask for


def playouts_for(seconds: float, rate: float) -> int:
    """A playout count that takes at least `seconds` at `rate` playouts/s, rounded up
    to a round number (the next 1, 2 or 5 times a power of ten of at least 1000)."""
    need = max(1000, math.ceil(seconds * rate * 1.1))
    scale = 10 ** max(3, int(math.log10(need)))
    for step in (1, 2, 5, 10):
        if step * scale >= need:
            return step * scale
    return 10 * scale  # pragma: no cover (the loop always returns)


def measure(size: int = 9, playouts: int | None = None, threads: int = 1, seed: int = 0,
            komi: float = 7.5, repeats: int = 3, policy="light", min_seconds: float = 2.0) -> dict:
    """Time `repeats` runs of the same seeded playouts of a policy (a name, "module:function" or a
    custom policy function: see playout.custom_batch) from the empty board
    (`playouts` each, or enough for `min_seconds` of wall time, at most MAX_BATCH, when None); return the report
    dict with medians and min..max of playouts/s by wall and by CPU clock, and ns per move."""
    board = Board(size)
    warm_up = WARM_UP_PLAYOUTS if playouts is None else min(WARM_UP_PLAYOUTS, playouts)  # a slow policy's short run
    run_playouts(board, warm_up, seed=seed + 1, threads=threads, policy=policy)  # compile or load
    if playouts is None:  # size the runs from a calibration batch of at least CALIBRATION_SECONDS
        # by the CPU clock on one thread: a run's wall time is then at least the CPU time it was sized
        # for, however busy the machine was while it calibrated (a slow calibration by the wall clock
        # sized runs that a quieter minute then finished early); by the wall clock with several threads
        count = WARM_UP_PLAYOUTS
        while True:
            start = time.process_time()
            calibration = run_playouts(board, count, seed=seed + 2, threads=threads, policy=policy)
            seconds = time.process_time() - start if threads == 1 else calibration.seconds
            if seconds >= CALIBRATION_SECONDS or count >= 1 << 24:
                break
            count *= 4
        # a run holds at most MAX_BATCH playouts' results (run_playouts' limit): past some ten minutes of
        # the fastest playouts, --min-seconds gets that many instead
        playouts = min(playouts_for(min_seconds, count / max(seconds, 1e-9)), MAX_BATCH)
    wall, cpu = [], []
    batch = None
    for _ in range(max(1, repeats)):
        start = time.process_time()
        batch = run_playouts(board, playouts, seed=seed, threads=threads, policy=policy)
        cpu.append(time.process_time() - start)
        wall.append(batch.seconds)
    assert batch is not None
    moves = int(batch.moves.sum())
    black, white, draws = batch.wins(komi)
    wall_rates = [playouts / max(s, 1e-9) for s in wall]
    cpu_rates = [playouts / max(s, 1e-9) for s in cpu]  # per CPU second: per core with threads
    return {
        "size": size,
        "threads": threads,
        "playouts": playouts,
        "repeats": len(wall),
        "playouts_per_second": round(statistics.median(wall_rates), 1),
        "playouts_per_second_min": round(min(wall_rates), 1),
        "playouts_per_second_max": round(max(wall_rates), 1),
        "playouts_per_cpu_second": round(statistics.median(cpu_rates), 1),
        "playouts_per_cpu_second_min": round(min(cpu_rates), 1),
        "playouts_per_cpu_second_max": round(max(cpu_rates), 1),
        "ns_per_move": round(1e9 * statistics.median(cpu) / max(moves, 1), 1),
        "clock": "cpu" if threads == 1 else "wall",
        "seconds": round(statistics.median(wall), 4),
        "cpu_seconds": round(statistics.median(cpu), 4),
        "moves_per_playout": round(moves / playouts, 2) if playouts else 0.0,
        "black_wins": black,
        "white_wins": white,
        "draws": draws,
        "mean_score": round(float(batch.scores.mean()), 3) if playouts else 0.0,
        "komi": komi,
        "capped": int(batch.capped.sum()),
        "policy": policy if isinstance(policy, str) else getattr(policy, "__name__", repr(policy)),
    }


def headline(report: dict) -> tuple[float, float, float]:
    """The report's headline playouts/s as (median, min, max): by the CPU clock with one thread,
    by the wall clock with several."""
    key = "playouts_per_cpu_second" if report["clock"] == "cpu" else "playouts_per_second"
    return report[key], report[f"{key}_min"], report[f"{key}_max"]


def format_report(report: dict) -> str:
    """The libego-style text block for one report."""
    n = report["playouts"] or 1
    policy = report.get("policy", "light")
    cpu = (report["playouts_per_cpu_second"], report["playouts_per_cpu_second_min"],
           report["playouts_per_cpu_second_max"])
    wall = (report["playouts_per_second"], report["playouts_per_second_min"], report["playouts_per_second_max"])
    first, second = (cpu, wall) if report["clock"] == "cpu" else (wall, cpu)
    names = ("CPU", "wall") if report["clock"] == "cpu" else ("wall", "CPU/core")
    return "\n".join([
        f"foogo {policy} playouts, {report['size']}x{report['size']}, {report['threads']} thread(s), "
        f"komi {report['komi']}",
        f"  playouts          {report['playouts']} per run, {report['repeats']} runs of {report['seconds']:.2f} s",
        f"  playouts/s        {first[0]:.0f} ({names[0]} clock, median; {first[1]:.0f}..{first[2]:.0f})",
        f"                    {second[0]:.0f} ({names[1]} clock, median; {second[1]:.0f}..{second[2]:.0f})",
        f"  ns/move           {report['ns_per_move']:.1f} (CPU time per move and thread)",
        f"  moves/playout     {report['moves_per_playout']:.2f}",
        f"  black wins        {report['black_wins']} ({100 * report['black_wins'] / n:.2f}%)",
        f"  white wins        {report['white_wins']} ({100 * report['white_wins'] / n:.2f}%)",
        f"  draws             {report['draws']}",
        f"  mean score (B-W)  {report['mean_score']:+.3f} (before komi)",
        f"  hit move cap      {report['capped']}",
    ])


def machine_info() -> dict:
    """CPU model (from /proc/cpuinfo), logical core count, OS and Python version."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as handle:
            for line in handle:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "system": platform.platform(),
            "python": platform.python_version()}


def machine() -> str:
    """A one-line description of this machine's CPU and core count."""
    info = machine_info()
    return f"{info['cpu']}, {info['cores']} cores, Python {info['python']}"


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the `foogo bench` options."""
    parser.add_argument("--size", type=int_option, default=9, help=f"board size {MIN_SIZE}..{MAX_SIZE} (default 9)")
    parser.add_argument("--threads", type=int_option, default=1, help="threads (default 1)")
    parser.add_argument("--playouts", type=int_option, default=None,
                        help="playouts per timed run (default: enough for --min-seconds)")
    parser.add_argument("--min-seconds", type=float_option, default=2.0,
                        help="with no --playouts, each timed run lasts at least this long, or holds "
                             f"{MAX_BATCH:,} playouts if that comes first (default 2)")
    parser.add_argument("--seed", type=int_option, default=0, help="random seed (default 0)")
    parser.add_argument("--komi", type=float_option, default=7.5, help="komi for the win counts (default 7.5)")
    parser.add_argument("--repeats", type=int_option, default=3,
                        help="timed runs; the report gives their median and min..max (default 3)")
    parser.add_argument("--policy", default="light", metavar="light|heavy|heavy-nakade|heavy-race|MODULE:FUNCTION",
                        help="playout policy: light (default), heavy, heavy-nakade, heavy-race, or a custom "
                             "policy function, its module found from the current directory too (e.g. "
                             "examples.capture_first:capture_first from the repository's root)")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of the text report")


def run(args: argparse.Namespace) -> int:
    """Run the benchmark described by parsed arguments; return the exit code."""
    if not MIN_SIZE <= args.size <= MAX_SIZE:
        print(f"foogo bench: --size must be from {MIN_SIZE} to {MAX_SIZE}, got {shown(args.size)}", file=sys.stderr)
        return 2
    if (args.playouts is not None and args.playouts < 1) or args.threads < 1 or args.repeats < 1:
        print("foogo bench: --playouts, --threads and --repeats must be at least 1", file=sys.stderr)
        return 2
    if args.threads > MAX_THREADS:
        print(f"foogo bench: --threads must be at most {MAX_THREADS}", file=sys.stderr)
        return 2
    if (args.playouts or 0) > MAX_BATCH or args.repeats > MAX_REPEATS:
        print(f"foogo bench: --playouts must be at most {MAX_BATCH:,} (a batch keeps each playout's result) "
              f"and --repeats at most {MAX_REPEATS}", file=sys.stderr)
        return 2
    try:
        check_komi(args.komi)  # the one komi rule (at most 1000 either way): 1e30 counted every playout for white
    except ValueError as error:
        print(f"foogo bench: --{error}", file=sys.stderr)
        return 2
    if not -MAX_SEED - 1 <= args.seed <= MAX_SEED - 2:  # the warm-up and calibration runs take seed + 1 and + 2
        print("foogo bench: --seed must be from -2**63 to 2**63 - 3", file=sys.stderr)
        return 2
    if ":" in args.policy and os.getcwd() not in sys.path:
        # `--policy module:function` may name a module in the current directory, as `python -m foogo`
        # finds it (the `foogo` script does not look there): after every installed module
        sys.path.append(os.getcwd())
    try:
        custom = custom_policy_function(args.policy) is not None
    except ValueError as error:
        print(f"foogo bench: {error}", file=sys.stderr)
        return 2
    if not 0 < args.min_seconds <= 3600:
        print("foogo bench: --min-seconds must be above 0 and at most 3600", file=sys.stderr)
        return 2
    # the first line at once: on a fresh install the report follows some 10 s of compilation (light), 40 s (heavy);
    # a custom policy's kernel is compiled in every process (numba caches no kernel specialised on a function)
    loading = ("compiling the custom policy's kernel first (in every run: a few seconds)" if custom else
               "loading the kernels first (compiled once after an install: about 10 s, 40 s for heavy playouts)")
    print(f"foogo bench: {args.size}x{args.size} {args.policy} playouts, {args.repeats} timed runs; {loading}",
          file=sys.stderr, flush=True)
    if args.threads > default_threads():
        print(f"foogo bench: note: {args.threads} threads on {default_threads()} cores", file=sys.stderr)
    try:
        report = measure(args.size, args.playouts, args.threads, args.seed, args.komi, args.repeats, args.policy,
                         args.min_seconds)
    except PolicyError as error:  # a custom policy that does not compile as one, or chose a point it may not take
        print(f"foogo bench: {error}", file=sys.stderr)
        return 1
    except Exception as error:  # noqa: BLE001 (a custom policy's own error, raised inside its playouts)
        if custom:
            print(f"foogo bench: the playout policy {args.policy} failed: {type(error).__name__}: {error}",
                  file=sys.stderr)
        elif isinstance(error, ValueError):
            print(f"foogo bench: {error}", file=sys.stderr)
        else:
            raise
        return 1
    if args.json:
        print(json.dumps(report))
    else:
        print(format_report(report))
        print(f"  machine           {machine()}")
    return 0
