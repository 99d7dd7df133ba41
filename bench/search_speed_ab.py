"""The search-to-bench ratio of several foogo checkouts, in alternated processes, for a noisy machine.

    python bench/search_speed_ab.py CHECKOUT [CHECKOUT ...] [--repeats 5] [--size 9] [--policy light]
                                    [--knowledge learned] [--seconds 2] [--slices N]

Each repeat starts one process per checkout, in turn. A process imports foogo from its checkout,
warms up, then times on one thread by the CPU clock a `foogo bench` run and searches from the
empty board and from a middle-game position (bench/search_speed.py's), and reports the two
ratios of search to bench playouts per second. The ratio is taken inside each process, so a
machine whose speed drifts between processes (other guests on the host, pages given to one
process and not another) moves both figures of a process together. Prints each checkout's
median ratios with their range. A checkout is a directory holding the foogo package, such as
`git worktree add /tmp/old HEAD~1`. Each child warms up with a short search before it times
anything, but a checkout whose kernels were never compiled compiles them there, and one the
warm-up misses would be compiled inside a timed run: run the script once before its figures count.

--slices N takes each ratio by the sliced measure instead (bench/search_speed.py --slices: one search
of --seconds grown in N analyze runs, each after bench playouts of the same time), from the empty
board and from the middle game; the bench figure is then not reported. With --reuse each of those
searches grows into tree memory an untimed search of the same length used first, as a game's
searches do after its first move (bench/search_speed.py --reuse).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
CHILD_TIMEOUT = 600.0  # seconds a child process may take
# --seconds: a child takes up to 8 times it (--slices --reuse: on each of two positions an untimed and a timed
# search, each beside bench playouts as long), and its warm-up, within CHILD_TIMEOUT
MAX_SECONDS = 60.0

# run in a child process with the checkout first on sys.path
_CHILD = r"""
import json, sys
sys.path.insert(0, sys.argv[1])
sys.path.insert(0, sys.argv[2])
from foogo.bench import measure
from foogo.game import Game
from search_speed import middle_game, search_rate
size, policy, knowledge, seconds = int(sys.argv[3]), sys.argv[4], sys.argv[5], float(sys.argv[6])
slices, reuse = int(sys.argv[7]), sys.argv[8] == "reuse"
if slices:
    from search_speed import sliced_ratio, used_search
    sliced_ratio(Game(size), 0.4, 2, policy, 0, knowledge)  # compile and warm up
    ratios = []
    for game in (Game(size), middle_game(size)):
        search = used_search(game, seconds, policy, 2, knowledge) if reuse else None
        ratios.append(sliced_ratio(game, seconds, slices, policy, 2, knowledge, search)[0])
    print(json.dumps({"bench": 0.0, "empty": ratios[0], "middle": ratios[1]}))
    sys.exit()
search_rate(Game(size), 0.3, policy, 0, knowledge)  # compile and warm up
bench = measure(size, None, 1, repeats=1, policy=policy, min_seconds=seconds)["playouts_per_cpu_second"]
empty = search_rate(Game(size), seconds, policy, 2, knowledge)
middle = search_rate(middle_game(size), seconds, policy, 2, knowledge)
print(json.dumps({"bench": bench, "empty": empty / bench, "middle": middle / bench}))
"""


def one_process(checkout: str, args: argparse.Namespace) -> dict:
    """The ratios measured by one child process importing foogo from `checkout`."""
    out = subprocess.run([sys.executable, "-c", _CHILD, os.path.abspath(checkout), HERE, str(args.size),
                          args.policy, args.knowledge, str(args.seconds), str(args.slices),
                          "reuse" if args.reuse else "fresh"],
                         capture_output=True, text=True, check=True, timeout=CHILD_TIMEOUT)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--policy", default="light")
    parser.add_argument("--knowledge", default="learned")
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--slices", type=int, default=0, help="the sliced measure, in this many slices")
    parser.add_argument("--reuse", action="store_true",
                        help="with --slices: each timed search grows into memory an untimed one used first")
    args = parser.parse_args()
    from search_speed import check_counts

    check_counts(parser, args, MAX_SECONDS)
    runs: dict[str, list[dict]] = {c: [] for c in args.checkouts}
    for _ in range(args.repeats):
        for checkout in args.checkouts:
            runs[checkout].append(one_process(checkout, args))
    for checkout, results in runs.items():
        bench = statistics.median(r["bench"] for r in results)
        parts = []
        for key in ("empty", "middle"):
            values = [r[key] for r in results]
            parts.append(f"{key} {statistics.median(values):.3f} ({min(values):.3f}..{max(values):.3f})")
        measure = f"sliced ({args.slices}{', reused' if args.reuse else ''})" if args.slices else \
            f"bench {bench:.0f}/CPU s;"
        print(f"{checkout}: {args.size}x{args.size} {args.policy} {measure} search/bench " + "  ".join(parts),
              flush=True)


if __name__ == "__main__":
    main()
