"""foogo's heavy playouts against Pachi's moggy playouts: playouts per CPU second, side by side.

    python bench/vs_pachi_playouts.py --pachi PATH [--size 9] [--games 40000] [--repeats 5] [--policy heavy]

Pachi (tag pachi-12.90, built outside this repository: see the README) has a plain Monte Carlo
engine, `-e montecarlo playout=moggy`, which answers `genmove` by playing --games moggy playouts
from the position, with no tree; its CPU time for one `genmove b` on the empty board (user +
system, from /proc, after one untimed genmove) over --games is its playout rate. foogo's is
`foogo bench --policy heavy` (the same measure as `foogo bench`, runs of at least 2 s), or with --policy
heavy-nakade the playouts the heavy search plays once a quarter of the points hold stones. The two
alternate --repeats times in one run, one thread each (the montecarlo engine has one); prints the
medians with their min..max and the ratio. Pachi's count includes its first move's choice among
the candidates, a few percent of a playout; its gamelen cap (400 moves) is never reached on 9x9
or 19x19.
"""

from __future__ import annotations

import argparse
import statistics
import sys

from option_caps import refuse_counts, refuse_seconds
from vs_pachi import engine_cpu_seconds

from foogo.bench import MAX_REPEATS, measure
from foogo.gtp_client import GtpClient
from foogo.playout import MAX_BATCH
from foogo.search import MAX_SECONDS


def pachi_rate(client: GtpClient, games: int) -> float:
    """Moggy playouts per CPU second of one genmove of the montecarlo engine on the empty board."""
    client.send("clear_board", timeout=60)
    before = engine_cpu_seconds(client)
    client.send("genmove b", timeout=600)
    return games / (engine_cpu_seconds(client) - before)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pachi", required=True, help="path of the pachi binary")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--games", type=int, default=40000, help="Pachi's playouts per measurement")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="foogo's minimum run per measurement")
    parser.add_argument("--policy", choices=("heavy", "heavy-nakade"), default="heavy", help="foogo's playouts")
    args = parser.parse_args()
    # foogo bench's caps on a run's playouts (Pachi's here) and its timed runs; --seconds inf or nan was a
    # traceback from measure after Pachi's first genmove
    refuse_counts(parser, (("--games", args.games, MAX_BATCH), ("--repeats", args.repeats, MAX_REPEATS)))
    refuse_seconds(parser, "--seconds", args.seconds, MAX_SECONDS)
    client = GtpClient(f"{args.pachi} -e montecarlo playout=moggy -t ={args.games}")
    client.start()
    try:
        client.send(f"boardsize {args.size}", timeout=60)
        pachi_rate(client, args.games)  # untimed: first-use costs
        foogo = f"foogo {args.policy}"
        rates: dict[str, list[float]] = {foogo: [], "Pachi moggy": []}
        for _ in range(args.repeats):
            rates[foogo].append(measure(args.size, None, 1, repeats=1, policy=args.policy,
                                        min_seconds=args.seconds)["playouts_per_cpu_second"])
            rates["Pachi moggy"].append(pachi_rate(client, args.games))
    finally:
        client.close()
    medians = {name: statistics.median(values) for name, values in rates.items()}
    for name, values in rates.items():
        print(f"{args.size}x{args.size} {name:18} {medians[name]:9.0f} playouts/CPU s "
              f"({min(values):.0f}..{max(values):.0f}, {len(values)} runs)")
    ratio = medians[foogo] / medians["Pachi moggy"]
    print(f"{args.size}x{args.size} ratio {foogo} / Pachi moggy: {ratio:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
