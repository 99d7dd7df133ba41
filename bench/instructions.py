"""Instructions per playout or per search iteration, counted by valgrind: a speed screen that needs no quiet machine.

    python bench/instructions.py CHECKOUT [CHECKOUT ...] [--what bench|search] [--size 9]
                                 [--policy light] [--expand 8] [--crit 0] [--low 5000] [--high 25000]
                                 [--runs 2] [--branches]

Timing needs a machine nobody else uses; an instruction count does not, so a kernel change can be
screened while a match fills both cores. For each checkout (a directory holding the foogo
package, such as `git worktree add /tmp/old HEAD~1`), a child process imports foogo from it and
runs, under valgrind's cachegrind without its cache simulation, either `foogo bench`'s playouts
from the empty board (--what bench) or one fixed-playout search from it (--what search, with the
given policy and expansion threshold, the checkout's default unless --expand, and criticality's
weight --crit, SearchConfig.crit, if not 0), once with --low and once with --high playouts. The
difference of the two instruction counts over the difference of the counts is the cost of one
playout or iteration: what a process's start costs (about 10^9 instructions, which vary by
+-3*10^7 from run to run) cancels out. Each count is the least of --runs runs. --branches also
runs valgrind's branch simulation and gives the mispredicted branches per playout or iteration
beside the instructions: a simple predictor (a table of two-bit counters), so a proxy for what a
processor mispredicts, good for telling a change that removes unpredictable branches (a random
neighbour's colour) from one that only removes instructions; the simulation makes runs slower.

Valgrind 3.19 does not decode AVX-512, so the children compile the kernels for haswell
(NUMBA_CPU_NAME and NUMBA_CPU_FEATURES, in a numba cache of their own under the temporary
directory, so that ordinary builds keep theirs) with PYTHONHASHSEED=0. Instructions are not cycles: a
change that trades instructions for cache misses or mispredicted branches is judged by timing in
the end (bench/search_speed_ab.py), but a change that adds instructions rarely wins.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

from option_caps import refuse_counts

from foogo.bench import MAX_REPEATS
from foogo.playout import MAX_BATCH

HASWELL = ("+64bit,+adx,+aes,+avx,+avx2,+bmi,+bmi2,+cmov,+cx16,+f16c,+fma,+fsgsbase,+lzcnt,+mmx,+movbe,"
           "+pclmul,+popcnt,+rdrnd,+sse,+sse2,+sse3,+sse4.1,+sse4.2,+ssse3,+xsave,+xsaveopt")

# run in a child process with the checkout first on sys.path: argv = checkout, what, size, policy,
# expand, playouts, crit
_CHILD = r"""
import sys
sys.path.insert(0, sys.argv[1])
from foogo.game import Game
from foogo.playout import run_playouts
from foogo.search import Search, SearchConfig
what, size, policy, expand, n = sys.argv[2], int(sys.argv[3]), sys.argv[4], float(sys.argv[5]), int(sys.argv[6])
crit = float(sys.argv[7])
game = Game(size)
if what == "bench":
    run_playouts(game.board, n, seed=1, threads=1, policy=policy)
else:
    extra = {"expand_threshold": expand} if expand > 0 else {}  # 0: the checkout's default
    if crit > 0:
        extra["crit"] = crit
    search = Search(SearchConfig(playouts=n, threads=1, seed=1, policy=policy, resign_threshold=None, **extra))
    search.genmove(game.board, game.to_move, 7.5, game.legal_points(game.to_move))
"""


def child_env(checkout: str) -> dict:
    """The environment of a counted child: haswell kernels in a cache of their own, fixed hashing."""
    env = dict(os.environ, NUMBA_CPU_NAME="haswell", NUMBA_CPU_FEATURES=HASWELL, PYTHONHASHSEED="0",
               NUMBA_CACHE_DIR=os.path.join(tempfile.gettempdir(), "foogo-valgrind-cache",
                                            os.path.abspath(checkout).strip("/").replace("/", "+")))
    env.pop("PYTHONPATH", None)
    return env


def _counted(pattern: str, text: str) -> int:
    """The number valgrind printed after `pattern` (digits with thousands commas)."""
    found = re.search(pattern + r"\s+([\d,]+)", text)
    if found is None:
        raise RuntimeError(f"no {pattern!r} count in valgrind's output:\n{text[-2000:]}")
    return int(found.group(1).replace(",", ""))


def child_argv(checkout: str, args, playouts: int) -> list[str]:
    """The command of a child run (_CHILD) of checkout at `playouts`, with args' settings."""
    return [sys.executable, "-c", _CHILD, checkout, args.what, str(args.size), args.policy, str(args.expand),
            str(playouts), str(args.crit)]


def count(checkout: str, args, playouts: int) -> tuple[int, int]:
    """(instructions, mispredicted branches or 0 without --branches) of one child run at `playouts`,
    each the least of args.runs runs."""
    argv = child_argv(checkout, args, playouts)
    branch = ["--branch-sim=yes"] if args.branches else []
    best = None
    for _ in range(args.runs):
        done = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", *branch,
                               "--cachegrind-out-file=/dev/null", *argv],
                              env=child_env(checkout), capture_output=True, text=True, check=True)
        value = (_counted(r"I\s+refs:", done.stderr),
                 _counted(r"Mispredicts:", done.stderr) if args.branches else 0)
        best = value if best is None else (min(best[0], value[0]), min(best[1], value[1]))
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+")
    parser.add_argument("--what", choices=("bench", "search"), default="search")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--policy", default="light")
    parser.add_argument("--expand", type=float, default=0.0,
                        help="the search's expansion threshold (default: each checkout's own)")
    parser.add_argument("--crit", type=float, default=0.0,
                        help="the search's criticality weight (SearchConfig.crit; default 0: the checkout's default)")
    parser.add_argument("--low", type=int, default=5000)
    parser.add_argument("--high", type=int, default=25000)
    parser.add_argument("--runs", type=int, default=2, help="runs per count; the least is kept")
    parser.add_argument("--branches", action="store_true",
                        help="also count mispredicted branches (valgrind's branch simulation)")
    args = parser.parse_args()
    if not 0 < args.low < args.high <= MAX_BATCH:  # run_playouts refuses more (--what bench); hours under valgrind
        parser.error(f"need 0 < --low < --high <= {MAX_BATCH:,}")
    refuse_counts(parser, (("--runs", args.runs, MAX_REPEATS),))  # a bench's timed runs
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt-get install valgrind)")
    unit = "playout" if args.what == "bench" else "iteration"
    print(f"{args.what}, {args.size}x{args.size}, {args.policy}"
          + (f", expansion at {args.expand:g}" if args.what == "search" and args.expand > 0 else "")
          + (f", criticality {args.crit:g}" if args.what == "search" and args.crit > 0 else "")
          + f": instructions per {unit} ({args.low} -> {args.high})")
    for checkout in args.checkouts:
        subprocess.run(child_argv(checkout, args, 200), env=child_env(checkout), check=True)  # compile, uncounted
        low, high = count(checkout, args, args.low), count(checkout, args, args.high)
        span = args.high - args.low
        print(f"  {checkout}: {(high[0] - low[0]) / span:,.0f}"
              + (f", mispredicted branches {(high[1] - low[1]) / span:,.1f}" if args.branches else ""))


if __name__ == "__main__":
    main()
