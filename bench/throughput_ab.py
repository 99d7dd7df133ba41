"""`foogo bench` playouts per CPU second of several foogo checkouts, in alternated processes.

    python bench/throughput_ab.py CHECKOUT [CHECKOUT ...] [--repeats 5] [--sizes 9,19]
                                  [--playouts9 400000] [--playouts19 80000] [--policy light]

A checkout is a directory holding the foogo package, such as `git worktree add /tmp/old HEAD~1`.
Each repeat runs, for each size and then each checkout in turn, one fresh process
`python -m foogo bench --size S --playouts N --repeats 1 --json --policy P` with the checkout first
on PYTHONPATH (its kernel load and warm-up are not timed; its one timed batch is by the CPU clock,
one thread). Alternating keeps a machine's drift out of the comparison. Every checkout is run once,
untimed, first, so that one whose kernels are not yet compiled compiles them there. Prints, per
size, each checkout's median playouts/s with the min..max of its runs and its ratio to the first
checkout's median; runs shorter than 2 s are flagged. Run it on an idle machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

from option_caps import refuse_counts

from foogo.bench import MAX_REPEATS
from foogo.playout import MAX_BATCH


def bench(checkout: str, size: int, playouts: int, policy: str) -> dict:
    """One `foogo bench` process of `checkout`: its JSON report."""
    env = dict(os.environ, PYTHONPATH=os.path.abspath(checkout))
    done = subprocess.run([sys.executable, "-m", "foogo", "bench", "--size", str(size), "--playouts", str(playouts),
                           "--repeats", "1", "--json", "--policy", policy],
                          env=env, capture_output=True, text=True, check=True, cwd=os.path.abspath(checkout))
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--sizes", default="9,19")
    parser.add_argument("--playouts9", type=int, default=400_000)
    parser.add_argument("--playouts19", type=int, default=80_000)
    parser.add_argument("--policy", default="light")
    args = parser.parse_args()
    # foogo bench's own caps, checked before any process starts
    refuse_counts(parser, (("--repeats", args.repeats, MAX_REPEATS), ("--playouts9", args.playouts9, MAX_BATCH),
                           ("--playouts19", args.playouts19, MAX_BATCH)))
    sizes = [int(x) for x in args.sizes.split(",")]
    counts = {size: args.playouts9 if size <= 9 else args.playouts19 for size in sizes}
    for checkout in args.checkouts:
        for size in sizes:
            bench(checkout, size, 1000, args.policy)  # compile if need be, untimed
    rates: dict = {(c, s): [] for c in args.checkouts for s in sizes}
    short = False
    for r in range(args.repeats):
        for size in sizes:
            for checkout in args.checkouts:
                report = bench(checkout, size, counts[size], args.policy)
                rates[checkout, size].append(report["playouts_per_cpu_second"])
                short |= report["cpu_seconds"] < 2.0
                print(f"repeat {r + 1}, {size}x{size}, {checkout}: {report['playouts_per_cpu_second']:,.0f}/s",
                      file=sys.stderr)
    print(f"{args.policy} playouts per CPU second, one thread, median (min..max) of {args.repeats} alternated runs")
    print("| checkout | " + " | ".join(f"{s}x{s}" for s in sizes) + " |")
    print("|---|" + "---:|" * len(sizes))
    first = {s: statistics.median(rates[args.checkouts[0], s]) for s in sizes}
    for checkout in args.checkouts:
        cells = []
        for size in sizes:
            runs = rates[checkout, size]
            median = statistics.median(runs)
            cells.append(f"{median:,.0f} ({min(runs):,.0f}..{max(runs):,.0f}) x{median / first[size]:.3f}")
        print(f"| {checkout} | " + " | ".join(cells) + " |")
    if short:
        print("note: some runs took less than 2 s; raise --playouts9 / --playouts19")


if __name__ == "__main__":
    main()
