"""The throughput table of bench/RESULTS.md: playouts/s, ns per move and moves per playout by size and threads.

    python bench/throughput.py [--sizes 9,13,19] [--threads 1,2] [--repeats 5] [--min-seconds 2]
                               [--policy light]

Each (size, threads) cell comes from `foogo.bench.measure`: an untimed warm-up, then --repeats
runs of the same seeded playouts, each at least --min-seconds long; the cell gives the median and
the min..max of the runs. One thread is timed by the CPU clock (steadier on a shared machine),
several threads by the wall clock. Prints one JSON line per cell as it goes, then a Markdown
table under the machine and the date. Run it on an otherwise idle machine.
"""

from __future__ import annotations

import argparse
import datetime
import json

from option_caps import refuse_counts, refuse_seconds

from foogo.bench import MAX_REPEATS, headline, machine, measure
from foogo.playout import MAX_THREADS
from foogo.policy import POLICIES
from foogo.search import MAX_SECONDS


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="9,13,19")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--policy", default="light", choices=POLICIES)  # every built-in policy, from its owner
    args = parser.parse_args()
    try:
        counts = [int(x) for x in args.threads.split(",")]
    except ValueError:
        parser.error(f"--threads wants numbers of threads separated by commas, got {args.threads!r}")
    refuse_counts(parser, [*(("--threads", n, MAX_THREADS) for n in counts), ("--repeats", args.repeats, MAX_REPEATS)])
    # inf or nan: a traceback from measure after its warm-up
    refuse_seconds(parser, "--min-seconds", args.min_seconds, MAX_SECONDS)
    rows = []
    for size in (int(x) for x in args.sizes.split(",")):
        for threads in counts:
            report = measure(size, None, threads, seed=0, repeats=args.repeats, policy=args.policy,
                             min_seconds=args.min_seconds)
            print(json.dumps(report), flush=True)
            rows.append(report)
    print()
    print(f"{machine()}, {datetime.date.today().isoformat()}, {args.policy} playouts, "
          f"median of {args.repeats} runs of >= {args.min_seconds:g} s (min..max)")
    print()
    print("| size | threads | playouts/s | clock | ns/move | moves/playout | mean B-W score |")
    print("|---:|---:|---:|---|---:|---:|---:|")
    for r in rows:
        rate, lo, hi = headline(r)
        print(f"| {r['size']}x{r['size']} | {r['threads']} | {rate:,.0f} ({lo:,.0f}..{hi:,.0f}) | "
              f"{r['clock']} | {r['ns_per_move']:.0f} | {r['moves_per_playout']:.1f} | {r['mean_score']:+.2f} |")


if __name__ == "__main__":
    main()
