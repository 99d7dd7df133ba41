"""What a tree costs the reference engines: their search's playouts against their own bench playouts.

    python bench/reference_tree_cost.py [--libego PATH] [--pachi PATH] [--size 9] [--playouts 100000]
                                        [--pachi-playouts 20000] [--repeats 5]

Issue 9 asks foogo's search to run at 90% or more of its bench's playouts/s (bench/search_speed.py).
This script measures the same ratio for the reference engines, so that foogo's figure can be read
beside what a tree costs a fast C++ engine and a strong C one, each with its own playouts.

libego (github.com/lukaszlew/libego), the playout-speed reference: libego's
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
the same way, the median of three) is its run's time.

Pachi 12.90 (built as the README says), the strength reference: its bench is the playout rate of
its plain Monte Carlo engine (`-e montecarlo playout=moggy -t =N`: N moggy playouts from the
position, no tree; bench/vs_pachi_playouts.py's measure), its search the UCT engine as matches
run it (`-t =N threads=1`: the tree, its pattern priors and RAVE, moggy playouts), each answering
`genmove b` on the empty board, timed by the engine's CPU clock (/proc) after one untimed genmove.
The UCT engine's playouts are the count its log gives last (`[N] best ...`), which may pass N.

Runs shorter than 2 s are flagged. Prints each run and, per engine, the median and range of both
rates and of their ratio (search over bench).
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

from option_caps import refuse_counts
from vs_libego import libego_session
from vs_pachi import engine_cpu_seconds

from foogo.bench import MAX_REPEATS
from foogo.gtp_client import GtpClient
from foogo.playout import MAX_BATCH

MIN_SECONDS = 2.0  # each timed run should last at least this long
PACHI_PLAYOUTS = re.compile(r"^\[(\d+)\] best", re.M)  # the UCT engine's progress lines: [playouts] best ...


def child_cpu_seconds(binary: str, size: int, commands: list[str]) -> float:
    """The CPU seconds of one libego process running `boardsize size`, `commands` and `quit`
    (vs_libego.libego_session, whose RuntimeError says when the binary fails, answers an error or
    was built for another size)."""
    before = os.times()
    libego_session(binary, size, commands)
    after = os.times()
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def measure_libego(binary: str, size: int, playouts: int, repeats: int) -> dict:
    """Alternate libego's benchmark and DoPlayouts runs; return the per-run rates, seconds and ratios."""
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
            print(f"libego run {index + 1}/{repeats} {kind:6}: {playouts / used:>9,.0f} playouts/s, {used:.2f} CPU s"
                  f"{flag}", file=sys.stderr, flush=True)
    ratios = [s / b for s, b in zip(runs["search"], runs["bench"])]
    return {"start_seconds": start, "runs": runs, "seconds": seconds, "ratios": ratios}


def pachi_genmove(client: GtpClient, log: Path | None) -> tuple[float, int | None]:
    """(CPU seconds, playouts its log reports last, or None without a log) of one `genmove b` on the
    cleared board."""
    client.send("clear_board", timeout=60)
    before = engine_cpu_seconds(client)
    client.send("genmove b", timeout=600)
    used = engine_cpu_seconds(client) - before
    if log is None:
        return used, None
    for _ in range(50):  # the stderr pump writes the log from another thread: give it its last lines
        found = PACHI_PLAYOUTS.findall(log.read_text(errors="replace"))
        if found:
            break
        time.sleep(0.1)
    if not found:
        raise RuntimeError(f"{client.argv[0]}: no '[N] best' line in its log: not Pachi's UCT engine?")
    log.write_text("")  # the next genmove's lines start afresh
    return used, int(found[-1])


def measure_pachi(binary: str, size: int, playouts: int, repeats: int) -> dict:
    """Alternate Pachi's montecarlo (bench) and UCT (search) genmoves; return rates, seconds and ratios."""
    with tempfile.TemporaryDirectory() as scratch:
        log = Path(scratch) / "uct.log"
        engines = {"bench": GtpClient(f"{binary} -e montecarlo playout=moggy -t ={playouts}"),
                   "search": GtpClient(f"{binary} -t ={playouts} threads=1", log_path=log)}
        logs = {"bench": None, "search": log}
        runs: dict[str, list[float]] = {"bench": [], "search": []}
        seconds: dict[str, list[float]] = {"bench": [], "search": []}
        try:
            for kind, client in engines.items():
                client.start()
                client.send(f"boardsize {size}", timeout=60)
                pachi_genmove(client, logs[kind])  # untimed: pattern files, first-use costs
            for index in range(repeats):
                for kind in ("bench", "search") if index % 2 == 0 else ("search", "bench"):
                    used, counted = pachi_genmove(engines[kind], logs[kind])
                    count = counted if counted is not None else playouts
                    runs[kind].append(count / used)
                    seconds[kind].append(used)
                    flag = "  (under 2 s: raise --pachi-playouts)" if used < MIN_SECONDS else ""
                    print(f"Pachi run {index + 1}/{repeats} {kind:6}: {count / used:>9,.0f} playouts/s, {count:,} "
                          f"playouts, {used:.2f} CPU s{flag}", file=sys.stderr, flush=True)
        finally:
            for client in engines.values():
                client.close()
    ratios = [s / b for s, b in zip(runs["search"], runs["bench"])]
    return {"runs": runs, "seconds": seconds, "ratios": ratios}


def spread(values: list[float], form: str) -> str:
    """'median (min..max)' of values, each in format `form`."""
    return f"{statistics.median(values):{form}} ({min(values):{form}}..{max(values):{form}})"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--libego", help="a libego engine binary whose benchmark plays the sampler")
    parser.add_argument("--pachi", help="a Pachi 12.90 binary")
    parser.add_argument("--size", type=int, default=9, help="the board size (default 9; libego's binary's own)")
    parser.add_argument("--playouts", type=int, default=100_000, help="libego's playouts a run (default 100,000)")
    parser.add_argument("--pachi-playouts", type=int, default=20_000, help="Pachi's playouts a run (default 20,000)")
    parser.add_argument("--repeats", type=int, default=5, help="runs of each kind (default 5)")
    args = parser.parse_args(argv)
    if not 2 <= args.size <= 25:
        parser.error("--size must be in 2..25")
    counts = (("--playouts", args.playouts, MAX_BATCH), ("--pachi-playouts", args.pachi_playouts, MAX_BATCH),
              ("--repeats", args.repeats, MAX_REPEATS))
    refuse_counts(parser, counts)  # foogo bench's own caps
    if not (args.libego or args.pachi):
        parser.error("give --libego, --pachi or both")
    try:
        libego = measure_libego(args.libego, args.size, args.playouts, args.repeats) if args.libego else None
        pachi = measure_pachi(args.pachi, args.size, args.pachi_playouts, args.repeats) if args.pachi else None
    except RuntimeError as error:
        print(f"reference_tree_cost: {error}", file=sys.stderr)
        return 1
    if libego is not None:
        print(f"libego {args.size}x{args.size}, {args.playouts:,} playouts a run, {args.repeats} runs of each, "
              f"CPU time less {libego['start_seconds']:.3f} s of start-up")
        print(f"  benchmark (sampler playouts): {spread(libego['runs']['bench'], ',.0f')} playouts/s")
        print(f"  DoPlayouts (MCTS, RAVE tree): {spread(libego['runs']['search'], ',.0f')} playouts/s")
        print(f"  search over bench:            {spread(libego['ratios'], '.3f')}")
    if pachi is not None:
        print(f"Pachi {args.size}x{args.size}, =N {args.pachi_playouts:,} a genmove, {args.repeats} runs of each, "
              f"engine CPU time")
        print(f"  montecarlo (moggy playouts):  {spread(pachi['runs']['bench'], ',.0f')} playouts/s")
        print(f"  UCT (tree, priors, moggy):    {spread(pachi['runs']['search'], ',.0f')} playouts/s")
        print(f"  search over bench:            {spread(pachi['ratios'], '.3f')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
