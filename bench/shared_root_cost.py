"""What shared roots' turns cost a two-thread search: the CPU of SharedRoot.turn over the search's CPU.

    python bench/shared_root_cost.py [--size 9] [--seconds 3] [--policies light,heavy] [--threads 2]

Each policy: one untimed short search, then a search of --seconds from the empty board with shared roots
(`foogo gtp --threads 2`'s default), every turn timed by its thread's CPU clock. Prints the turns, their
mean cost and their share of the search's process CPU. A diagnostic, not a benchmark: the shares are what
the change to shared_root.exchange was judged by ("On the Intel Xeon again" in bench/RESULTS.md).
"""

from __future__ import annotations

import argparse
import threading
import time

from foogo import BLACK, Board, shared_root
from foogo.search import Search, SearchConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--policies", default="light,heavy")
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    try:  # SearchConfig's own checks (--seconds at most a day, --threads at most MAX_THREADS), before any search
        for policy in args.policies.split(","):
            SearchConfig(seconds=args.seconds, threads=args.threads, policy=policy)
    except ValueError as error:
        parser.error(str(error))
    turn = shared_root.SharedRoot.turn
    spent = {"cpu": 0.0, "turns": 0}
    lock = threading.Lock()

    def timed(self, k):
        start = time.thread_time()
        turn(self, k)
        with lock:
            spent["cpu"] += time.thread_time() - start
            spent["turns"] += 1

    shared_root.SharedRoot.turn = timed  # type: ignore[method-assign]
    for policy in args.policies.split(","):
        search = Search(SearchConfig(seconds=args.seconds, threads=args.threads, policy=policy, seed=3,
                                     resign_threshold=None))
        board = Board(args.size)
        search.genmove(board, BLACK, 7.0, time_budget=0.3)  # compiles or loads the kernels
        search.new_game()
        spent.update(cpu=0.0, turns=0)
        cpu = time.process_time()
        result = search.genmove(board, BLACK, 7.0, time_budget=args.seconds)
        cpu = time.process_time() - cpu
        turns = max(spent["turns"], 1)
        print(f"{args.size}x{args.size} {policy}, {args.threads} threads: {result.playouts} playouts in "
              f"{result.seconds:.2f} s ({result.stopped}), "
              f"{spent['turns']} turns of {spent['cpu'] / turns * 1e6:.1f} us, "
              f"{spent['cpu'] / cpu * 100:.2f}% of the search's CPU")


if __name__ == "__main__":
    main()
