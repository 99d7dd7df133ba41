"""What a tree costs the reference engine: libego's MCTS playouts against its own benchmark playouts.

    python bench/reference_tree_cost.py --libego PATH [--size 9] [--playouts 100000] [--repeats 5]

Issue 9 asks foogo's search to run at 90% or more of its bench's playouts/s (bench/search_speed.py).
This script measures the same ratio for libego (github.com/lukaszlew/libego), the playout-speed
reference, so that foogo's figure can be read beside what a tree costs a fast C++ engine. libego's
MCTS (`DoPlayouts N`: N iterations of its RAVE tree from the current position, each a descent,
an expansion when a node is ready, a playout and the trace's update) plays its playouts with its
3x3-pattern sampler, so the binary must be built with its `benchmark` playing the sampler too:
libego as it comes, with only `move_count = 0;` added in `Run` (source/goboard/benchmark.cpp) so
that a second benchmark reports right, and `bool ok = static_cast<bool> (in);` in
source/gtp/gtp.cpp for g++ 12; not the light-playout copy that bench/vs_libego.py takes (README,
"Reference engines", gives the build). Both figures then use the same playout policy, and the
ratio is the tree's share alone.

Each repeat runs, in alternating order, one libego process for `benchmark N` and one for
`DoPlayouts N` from the empty board; a process's CPU time (user and system, from the kernel's
accounting of the finished child) less that of a process that only starts and quits (measured
the same way, the median of three) is its run's time. Runs shorter than 2 s are flagged. Prints
each run and the median and range of both rates and of their ratio (search over bench).
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys

MIN_SECONDS = 2.0  # each timed run should last at least this long


def child_cpu_seconds(binary: str, size: int, commands: list[str]) -> float:
    """Run `boardsize size`, then `commands`, then `quit` in one libego process; the CPU seconds it used.

    Raises RuntimeError if the binary cannot run, exits badly, or answers any command with an error
    (a binary built for another size refuses `boardsize`)."""
    session = "\n".join([f"boardsize {size}", *commands, "quit"]) + "\n"
    before = os.times()
    try:
        done = subprocess.run([binary], input=session, capture_output=True, text=True, timeout=3600)
    except (OSError, subprocess.TimeoutExpired) as error:
        raise RuntimeError(f"cannot run {binary}: {error}") from error
    after = os.times()
    if done.returncode != 0:
        raise RuntimeError(f"{binary} exited with {done.returncode}:\n{done.stderr[-2000:]}")
    answers = [line for line in done.stdout.splitlines() if line.startswith(("=", "?"))]
    if len(answers) < len(commands) + 2 or any(answer.startswith("?") for answer in answers):
        raise RuntimeError(f"{binary}: a command failed or went unanswered (refused `boardsize {size}`: built for "
                           f"another size?):\n{done.stdout[-2000:]}")
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def measure(binary: str, size: int, playouts: int, repeats: int) -> dict:
    """Alternate benchmark and DoPlayouts runs; return the per-run rates and their summaries."""
    child_cpu_seconds(binary, size, ["benchmark 2000", "DoPlayouts 2000"])  # warm the binary's pages
    start = statistics.median(child_cpu_seconds(binary, size, []) for _ in range(3))
    runs: dict[str, list[float]] = {"bench": [], "search": []}
    seconds: dict[str, list[float]] = {"bench": [], "search": []}
    commands = {"bench": f"benchmark {playouts}", "search": f"DoPlayouts {playouts}"}
    for index in range(repeats):
        order = ("bench", "search") if index % 2 == 0 else ("search", "bench")
        for kind in order:
            used = max(child_cpu_seconds(binary, size, [commands[kind]]) - start, 1e-9)
            runs[kind].append(playouts / used)
            seconds[kind].append(used)
            flag = "  (under 2 s: raise --playouts)" if used < MIN_SECONDS else ""
            print(f"run {index + 1}/{repeats} {kind:6}: {playouts / used:>9,.0f} playouts/s, {used:.2f} CPU s{flag}",
                  file=sys.stderr, flush=True)
    ratios = [s / b for s, b in zip(runs["search"], runs["bench"])]
    return {"start_seconds": start, "runs": runs, "seconds": seconds, "ratios": ratios}


def spread(values: list[float], form: str) -> str:
    """'median (min..max)' of values, each in format `form`."""
    return f"{statistics.median(values):{form}} ({min(values):{form}}..{max(values):{form}})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--libego", required=True, help="a libego engine binary whose benchmark plays the sampler")
    parser.add_argument("--size", type=int, default=9, help="the binary's board size (default 9)")
    parser.add_argument("--playouts", type=int, default=100_000, help="playouts a run (default 100,000)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each kind (default 5)")
    args = parser.parse_args(argv)
    if args.playouts < 1 or args.repeats < 1 or not 2 <= args.size <= 25:
        parser.error("--playouts and --repeats must be at least 1 and --size in 2..25")
    try:
        result = measure(args.libego, args.size, args.playouts, args.repeats)
    except RuntimeError as error:
        print(f"reference_tree_cost: {error}", file=sys.stderr)
        return 1
    print(f"libego {args.size}x{args.size}, {args.playouts:,} playouts a run, {args.repeats} runs of each, "
          f"CPU time less {result['start_seconds']:.3f} s of start-up")
    print(f"  benchmark (sampler playouts): {spread(result['runs']['bench'], ',.0f')} playouts/s")
    print(f"  DoPlayouts (MCTS, RAVE tree): {spread(result['runs']['search'], ',.0f')} playouts/s")
    print(f"  search over bench:            {spread(result['ratios'], '.3f')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
