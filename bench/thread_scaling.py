"""How playouts scale with threads: N threads against one, alternated in one run, by the wall clock.

    python bench/thread_scaling.py [--sizes 9,19] [--threads 2] [--repeats 5] [--min-seconds 2]
                                   [--policy light] [--search [--parallel root|tree]]

For each size the same seeded playouts run on one thread, then on N threads (N times as many, so
both runs last about as long), --repeats times alternated; each pair gives the ratio of their
playouts per wall-clock second, and the table gives the median and min..max of those ratios. A
machine's drift moves both runs of a pair alike, which comparing separate runs (one thread by the
CPU clock, several by the wall clock, as bench/throughput.py's table does) does not cancel.

With --search the runs are searches instead (Search.analyze from the empty board, a fresh Search
each run, for --min-seconds of wall time, learned prior, shared roots as `foogo gtp --threads N`
has them; --parallel tree: one tree that the N threads grow, as `foogo gtp --parallel tree`): search
playouts per wall-clock second with N threads over one thread.

Two more columns tell why a ratio falls short of N: "per core", the N-thread run's playouts per
CPU second of this process over the one-thread run's (below 1: the threads slow each other, through
shared caches or memory), and "others", the CPU the rest of the machine used during the N-thread
runs, from /proc/stat, as a share of the cores (above 0: other processes took cores from ours).
"""

from __future__ import annotations

import argparse
import datetime
import os
import statistics
import threading
import time

from option_caps import refuse_counts, refuse_seconds

from foogo import Board
from foogo.bench import MAX_REPEATS, machine
from foogo.game import Game
from foogo.playout import MAX_BATCH, MAX_THREADS, run_playouts
from foogo.search import MAX_SECONDS, Search, SearchConfig

BUSY_FIELDS = (0, 1, 2, 5, 6, 7)  # user, nice, system, irq, softirq, steal: /proc/stat's cpu line


def busy_seconds() -> float | None:
    """CPU seconds the whole machine has been busy (all cores), from /proc/stat; None off Linux."""
    try:
        with open("/proc/stat") as f:
            fields = f.readline().split()[1:]
    except OSError:
        return None
    ticks = os.sysconf("SC_CLK_TCK")
    return sum(int(fields[i]) for i in BUSY_FIELDS) / ticks


def timed(board, count: int, threads: int, policy: str) -> tuple[float, float, float | None]:
    """(wall seconds, this process's CPU seconds, other processes' CPU seconds) of one run."""
    busy = busy_seconds()
    cpu = time.process_time()
    batch = run_playouts(board, count, seed=0, threads=threads, policy=policy)
    cpu = time.process_time() - cpu
    others = None
    if busy is not None:
        after = busy_seconds()
        assert after is not None
        others = max(0.0, after - busy - cpu)
    return batch.seconds, cpu, others


def timed_search(size: int, seconds: float, threads: int, policy: str,
                 parallel: str = "root") -> tuple[float, float, float | None, int]:
    """(wall seconds, this process's CPU seconds, other processes' CPU seconds, playouts) of one search of
    `seconds` of wall time from the empty board on a fresh Search (SearchConfig.parallel: `parallel`)."""
    game = Game(size)
    extra = {"parallel": parallel} if parallel != "root" else {}  # named only when asked: older checkouts
    search = Search(SearchConfig(threads=threads, seed=1, policy=policy, resign_threshold=None, **extra))
    stop = threading.Event()
    timer = threading.Timer(seconds, stop.set)  # a sleeping thread: no CPU of its own
    busy = busy_seconds()
    cpu = time.process_time()
    wall = time.perf_counter()
    timer.start()
    result = search.analyze(game.board, game.to_move, 7.5, game.legal_points(game.to_move), stop, None)
    wall = time.perf_counter() - wall
    cpu = time.process_time() - cpu
    timer.join()
    others = None
    if busy is not None:
        after = busy_seconds()
        assert after is not None
        others = max(0.0, after - busy - cpu)
    return wall, cpu, others, result.playouts


def measure_search(size: int, threads: int, repeats: int, min_seconds: float, policy: str,
                   parallel: str = "root") -> dict:
    """measure's pairs for searches (timed_search): per pair the playouts per wall-second ratio, the
    per-CPU-second ratio and the others' share of the cores during the N-thread search."""
    timed_search(size, 0.3, 1, policy)  # compile or load the kernels, warm the caches
    timed_search(size, 0.3, threads, policy, parallel)
    ratios, per_core, others = [], [], []
    for _ in range(repeats):
        wall1, cpu1, _, n1 = timed_search(size, min_seconds, 1, policy)
        wall_n, cpu_n, other, n_n = timed_search(size, min_seconds, threads, policy, parallel)
        ratios.append((n_n / wall_n) / (n1 / wall1))
        per_core.append((n_n / cpu_n) / (n1 / cpu1))
        if other is not None:
            others.append(other / (wall_n * threads))
    return {"size": size, "threads": threads, "playouts": None, "ratios": ratios, "per_core": per_core,
            "others": others}


def measure(size: int, threads: int, repeats: int, min_seconds: float, policy: str) -> dict:
    """The alternated runs of one size: per pair the wall-clock ratio, the per-core ratio and the
    others' share of the cores during the N-thread run."""
    board = Board(size)
    run_playouts(board, 2000, seed=1, threads=threads, policy=policy)  # compile or load, start threads
    count = 1000
    while True:
        seconds = run_playouts(board, count, seed=2, policy=policy).seconds
        if seconds >= 0.5:
            break
        count *= 2
    # the N-thread run holds threads * count playouts' results, at most run_playouts' MAX_BATCH: past some minutes
    # of the fastest playouts, --min-seconds gets that many instead (as foogo bench's calibrated runs do)
    count = min(int(count * min_seconds / seconds) + 1, MAX_BATCH // threads)
    ratios, per_core, others = [], [], []
    for _ in range(repeats):
        wall1, cpu1, _ = timed(board, count, 1, policy)
        wall_n, cpu_n, other = timed(board, threads * count, threads, policy)
        ratios.append((threads * count / wall_n) / (count / wall1))
        per_core.append((threads * count / cpu_n) / (count / cpu1))
        if other is not None:
            others.append(other / (wall_n * threads))
    return {"size": size, "threads": threads, "playouts": count, "ratios": ratios, "per_core": per_core,
            "others": others}


def spread(values: list[float], digits: int = 2) -> str:
    """median (min..max)."""
    if not values:
        return "n/a"
    return f"{statistics.median(values):.{digits}f} ({min(values):.{digits}f}..{max(values):.{digits}f})"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="9,19")
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--min-seconds", type=float, default=2.0)
    parser.add_argument("--policy", default="light", choices=("light", "heavy"))
    parser.add_argument("--search", action="store_true", help="time searches (Search.analyze), not playouts")
    parser.add_argument("--parallel", default="root", choices=("root", "tree"),
                        help="with --search: a tree per thread, or one tree for all (SearchConfig.parallel)")
    args = parser.parse_args()
    # a search's threads, a bench's timed runs (a pair of runs is one), a search's time (a day)
    refuse_counts(parser, (("--threads", args.threads, MAX_THREADS), ("--repeats", args.repeats, MAX_REPEATS)))
    refuse_seconds(parser, "--min-seconds", args.min_seconds, MAX_SECONDS)
    if args.search:
        rows = [measure_search(int(size), args.threads, args.repeats, args.min_seconds, args.policy, args.parallel)
                for size in args.sizes.split(",")]
    else:
        rows = [measure(int(size), args.threads, args.repeats, args.min_seconds, args.policy)
                for size in args.sizes.split(",")]
    what = (f"searches with {args.policy} playouts, {args.parallel} parallelism" if args.search
            else f"{args.policy} playouts")
    print(f"{machine()}, {datetime.date.today().isoformat()}, {what}, {args.repeats} alternated "
          f"pairs of runs of >= {args.min_seconds:g} s, median (min..max)")
    print()
    print(f"| size | threads | {args.threads} threads / 1 (wall) | per core | others' share of the cores |")
    print("|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['size']}x{r['size']} | {r['threads']} | {spread(r['ratios'])} | {spread(r['per_core'])} | "
              f"{spread(r['others'], 3)} |")


if __name__ == "__main__":
    main()
