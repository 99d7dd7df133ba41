"""The README's throughput table: light playouts/s and moves per playout by board size and threads.

    python bench/throughput.py [--playouts N] [--sizes 9,13,19] [--threads 1,2] [--repeats 3]

Prints one JSON line per (size, threads) from `foogo.bench.measure` (best of --repeats timings,
after a warm-up that also compiles), then a Markdown table with the machine and date.
Run it on an otherwise idle machine: it measures wall-clock throughput.
"""

from __future__ import annotations

import argparse
import datetime
import json

from foogo.bench import machine, measure


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=0, help="playouts per run (default: ~2 s of work per size)")
    parser.add_argument("--sizes", default="9,13,19")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    rows = []
    for size in (int(x) for x in args.sizes.split(",")):
        for threads in (int(x) for x in args.threads.split(",")):
            playouts = args.playouts or max(2000, int(1_000_000 * threads / size ** 2))
            report = measure(size, playouts, threads, seed=0, repeats=args.repeats)
            print(json.dumps(report), flush=True)
            rows.append(report)
    print()
    print(f"{machine()}, {datetime.date.today().isoformat()}")
    print()
    print("| size | threads | playouts/s | moves/playout | black wins (komi 7.5) | mean B-W score |")
    print("|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['size']}x{r['size']} | {r['threads']} | {r['playouts_per_second']:,.0f} | "
              f"{r['moves_per_playout']:.1f} | {100 * r['black_wins'] / r['playouts']:.1f}% | "
              f"{r['mean_score']:+.2f} |")


if __name__ == "__main__":
    main()
