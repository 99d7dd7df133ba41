"""Compile every kernel foogo ships into numba's cache ahead of use, the parts side by side: `foogo compile`.

A fresh install compiles each kernel on its first call and caches it (jit.py): about 4 s for the board,
a minute or more for the search's iteration, and several times that with numba's bounds checks on
(NUMBA_BOUNDSCHECK=1, CI's second stage). Processes that start together on a cold cache (pytest's
workers, two engines of a match) each compile every kernel they call. `foogo compile` does
the work once, in processes side by side (one a core by default), so that whatever starts next loads
them all from the cache. With a warm cache it only loads them (about a second a process).

The parts (PARTS), each the calls that compile one group of kernels; the two search iterations
are by far the largest kernels, so each has a part:

* ``search``  searches on one thread and on two with their roots shared: tree.run_iterations
              (every built-in playout policy is one kernel's branch), expansion, selection, the
              tree's compaction on reuse, shared_root.exchange;
* ``shared``  a search of two threads growing one tree (tree.run_shared_iterations), the
              iteration compiled again with atomic updates;
* ``board``   the board, the game, scoring, ownership, ladders, the learned prior's features, the
              playout batches of each built-in policy (foogo bench, run_playouts), single playouts
              and the playouts checked after every move (playout_check.checked_playouts).

Every part compiles the heavy policy's rules and most of the playout on its own: alone on an empty cache
each took 84-88 CPU s (2026-12-06, a 2-core Xeon), but after the search's part in the same process the shared
tree's took 16-18 s (only its own iteration is new) and the board's 54 s. So with fewer processes than parts,
the shared tree's part runs in the search's process (`process_groups`): on two cores 103 s and 84 s side
by side, where three processes took 259 CPU s on two cores.

Custom playout policies compile when they are made (playout.custom_batch) and are never cached.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import traceback

from .cores import default_threads
from .geometry import BLACK, WHITE
from .numbers import int_option

PARTS = ("search", "shared", "board")  # the largest first, so that N processes finish close together
AFTER_SEARCH = "shared"  # the part that reuses most of the search's compiled helpers when it runs in its process


def _board() -> None:
    """The kernels of the board, the game and the playout batches."""
    from .board import board_from_ascii
    from .features import candidates
    from .game import Game
    from .gamma_table import move_gammas
    from .ladders import ladder_captured
    from .playout import move_cap, play_out, run_playouts
    from .playout_check import checked_playouts
    from .playout_ownership import ownership
    from .policy import POLICIES  # every built-in policy, from its owner: a new one is compiled too

    game = Game(5)
    game.play(BLACK, "C3")
    game.legal_points(WHITE)
    str(game.board)
    game.undo()
    game.score(playouts=2)
    board = board_from_ascii("""
        . X O . .
        X O . . .
        . X . . .
        . . . . .
        . . . . .
    """)
    board.check_consistency()
    board.liberties("B4")
    board.playable(BLACK)
    board.area_score(7.0)
    ladder_captured(board, "B4")
    moves, _ = candidates(board, WHITE)
    move_gammas(board, WHITE, moves)
    s, z = board._state()
    for policy in POLICIES:
        run_playouts(board, 2, policy=policy)
        ownership(board, playouts=2, policy=policy)
        play_out(board, policy=policy)
        checked_playouts(s, z, board.geometry.zobrist, 0, 2, move_cap(board.size), policy)


def compile_part(name: str) -> None:
    """Compile (or load from the cache) the kernels of one of PARTS, in this process."""
    from .search import warm_up_search

    if name == "search":
        warm_up_search(threads=1)
        warm_up_search(threads=2, parallel="root")
    elif name == "shared":
        warm_up_search(threads=2, parallel="tree")
    elif name == "board":
        _board()
    else:
        raise ValueError(f"unknown part {name!r}: expected one of {', '.join(PARTS)}")


def _child_environment() -> dict:
    """This process's environment, with this foogo's directory first on PYTHONPATH: a part's process
    compiles the kernels of the same checkout as its parent, wherever it was started from."""
    env = os.environ.copy()
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env["PYTHONPATH"] = os.pathsep.join([root] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def default_jobs() -> int:
    """compile_all's processes when none are given: one a core this process may use, at most one a part."""
    return max(1, min(len(PARTS), default_threads()))


def process_groups(jobs: int, parts=None) -> list[tuple[str, ...]]:
    """The parts (PARTS by default) as compile_all gives them to processes, in order: each part in a
    process of its own when `jobs` allows, else AFTER_SEARCH in the search's process (where it reuses the
    search's compiled helpers), and with one job every part in one process (each reusing the helpers the
    ones before it compiled)."""
    parts = list(PARTS if parts is None else parts)
    if jobs == 1:
        return [tuple(parts)]
    if jobs >= len(parts) or "search" not in parts or AFTER_SEARCH not in parts:
        return [(part,) for part in parts]
    return [(part, AFTER_SEARCH) if part == "search" else (part,) for part in parts if part != AFTER_SEARCH]


def compile_all(jobs: int | None = None, out=None, timeout: float | None = None) -> int:
    """Compile every part in `jobs` processes at once (default_jobs() by default; process_groups says which
    parts each runs, in a fresh process that inherits the environment: NUMBA_CACHE_DIR, NUMBA_BOUNDSCHECK);
    report each process's parts and time to `out` when given. A process still running after `timeout`
    seconds is stopped and counts as failed. Returns 0, or the exit code of the first process that failed
    (1 for one stopped by a signal; its error went to stderr). No process outlives the call: an exception
    here (an interrupt) stops the ones still running."""
    jobs = default_jobs() if jobs is None else jobs
    if jobs < 1:
        raise ValueError(f"jobs must be at least 1, got {jobs}")
    waiting = process_groups(jobs)
    running: dict[subprocess.Popen, tuple[str, float]] = {}
    failed = 0
    try:
        while waiting or running:
            while waiting and len(running) < jobs:
                group = waiting.pop(0)
                process = subprocess.Popen([sys.executable, "-m", "foogo.compile_kernels"]
                                           + [argument for part in group for argument in ("--part", part)],
                                           env=_child_environment())
                running[process] = (", ".join(group), time.perf_counter())
            for process, (_, start) in running.items():
                if timeout is not None and process.poll() is None and time.perf_counter() - start > timeout:
                    process.kill()
                    process.wait()
            done = next((p for p in running if p.poll() is not None), None)
            if done is None:
                time.sleep(0.05)
                continue
            part, start = running.pop(done)
            code = done.returncode if done.returncode >= 0 else 1  # a signal's negative code
            failed = failed or code
            if out is not None:
                status = ("ready" if done.returncode == 0 else f"failed (exit {done.returncode})"
                          if done.returncode > 0 else f"stopped (signal {-done.returncode})")
                print(f"foogo compile: {part} {status} in {time.perf_counter() - start:.1f} s", file=out, flush=True)
    finally:
        for process in running:
            process.kill()
            process.wait()
    return failed


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """The `foogo compile` options."""
    parser.add_argument("--jobs", type=int_option, choices=range(1, 9), default=None, metavar="N",
                        help=f"processes compiling at once, 1-8 (default: one a core, at most {len(PARTS)}; "
                        "with fewer, the shared tree's part runs after the search's in its process)")
    # parts, in this process (compile_part refuses an unknown one, which fails that part and not the others)
    parser.add_argument("--part", action="append", help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    """`foogo compile`: every part (or, with the internal --part, those parts here, in order: a part that fails
    has its error on stderr and the next still runs); the exit code."""
    if args.part is not None:
        failed = 0
        for part in args.part:
            try:
                compile_part(part)
            except Exception:  # a part's failure leaves the parts after it in this process to compile
                print(f"foogo compile: part {part} failed:\n{traceback.format_exc()}", file=sys.stderr, flush=True)
                failed = 1
        return failed
    start = time.perf_counter()
    code = compile_all(args.jobs, out=sys.stdout)
    if code == 0:
        print(f"foogo compile: every kernel ready in {time.perf_counter() - start:.1f} s")
    return code


if __name__ == "__main__":
    parser = argparse.ArgumentParser(prog="python -m foogo.compile_kernels")
    configure_parser(parser)
    sys.exit(run(parser.parse_args()))
