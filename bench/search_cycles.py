"""Where a search iteration's cycles go: a profiling build's per-part cycle counts, beside a bench playout.

    python bench/search_cycles.py [--size 9] [--policy light] [--seconds 2] [--repeats 5]
                                  [--knowledge learned] [--position empty|middle] [--slices N]
                                  [--expand N] [--leaves N]

Runs itself again with FOOGO_PROFILE=1 (jit.PROFILE: the search kernels count the processor's cycle
counter per part of an iteration, tree.CYCLE_PARTS) and a numba cache directory of its own
(FOOGO_PROFILE_CACHE, else foogo-profile-cache in the temporary directory), so that ordinary builds
keep theirs; a first run compiles the search kernels there (a minute or so). Give each checkout
compared its own FOOGO_PROFILE_CACHE, or they recompile each other out.
Each repeat times, by the same counter, `foogo bench`'s playouts from the empty board (cycles a
playout, copy and scoring included) and then one search of --seconds (Search.analyze, which has
no early stop) from the position; with --slices N, the search grows in N analyze runs on the same
tree, each after bench playouts of the same time (as bench/search_speed.py --slices), which keeps
the comparison steady on a machine whose speed drifts within seconds. --expand sets the search's
expansion threshold (SearchConfig.expand_threshold; 1e9 keeps the tree to its root: the floor of
what any tree costs). --reuse times every repeat on one Search, cleared (new_game) before each, after
an untimed search of the same length: as in a game after its first move, the tree grows into memory
a search has used, so the first touch of fresh pages (bench/search_speed.py --reuse) is not counted.
Prints
the median (min..max) over the repeats of the cycles per iteration of each part: copy (the root
position into the scratch board), descent (selection and the tree's moves; expansion apart),
expansion, playout (and scoring), backup, amaf (the first-play walk, the update and the next
choice at each node of the path); their sum beside the bench playout; the playout's and the
bench's cycles per stone played; the expansion's cycles per node created, with the iterations
per node (a node's cost inside a search, where the tree's traffic has evicted what
bench/expand_cost.py finds in the caches); and the AMAF part's cycles per node of an iteration's
path (the nodes whose visits the backup counts, each updated and screened once). The counter runs
at a fixed rate whatever the core's clock does, so compare parts within one run; the counters
themselves cost about 6 readings an iteration.
--leaves N then searches once more and draws N of its leaf positions (leaf_boards: where its
playouts started, as often as they did) and, once per repeat, times bench playouts from them in
turn beside the bench's playouts from the empty board, as long each: their cycles per stone. A
playout that starts a few moves in skips the cheapest stones of one from the empty board, so this
tells how much of the playout's higher cost a stone inside the search is the start and how much is
the tree's traffic between playouts.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time

MAX_LEAVES = 25_000  # --leaves: each a board (35 KB of arrays at 25x25), under 900 MB in all


def _profiling_process() -> None:
    """Run this script again in a profiling build (FOOGO_PROFILE=1, its own numba cache), unless this is one."""
    if os.environ.get("FOOGO_PROFILE") == "1":
        return
    cache = os.environ.get("FOOGO_PROFILE_CACHE") or os.path.join(tempfile.gettempdir(), "foogo-profile-cache")
    env = dict(os.environ, FOOGO_PROFILE="1", NUMBA_CACHE_DIR=cache)
    os.execve(sys.executable, [sys.executable, *sys.argv], env)


def leaf_boards(search, board, count: int, seed: int) -> list:
    """`count` positions where the search's playouts started, drawn as its iterations reached them: from
    the root, an edge taken with probability in proportion to its real visits and its move played,
    until an edge without a child node, or a stop at a node with the share of its edge's visits that
    ended there before the node was made (the edge's visits less the node's edges')."""
    import numpy as np

    from foogo import tree as tk

    tree = search.trees[0]
    ni, _, ei, ef, ek, meta = tree.arrays
    n0 = search.config.prior
    base = tk.edge_base_of(tree.geometry)
    rng = np.random.default_rng(seed)
    boards = []
    while len(boards) < count:
        b = board.copy()
        node = int(meta[tk.ROOT])
        color = int(ni[node, tk.COLOR])
        arrived = None  # the real visits of the edge that led to node (None at the root)
        while True:
            first, width = int(ni[node, tk.FIRST]), int(ni[node, tk.COUNT])
            visits, _ = tk.real_stats(ef, ek, first, width, n0)
            stop = 0.0 if arrived is None else max(arrived - visits.sum(), 0.0)
            weights = np.append(visits, stop)
            if weights.sum() <= 0:
                break
            k = int(rng.choice(width + 1, p=weights / weights.sum()))
            if k == width:
                break
            move = tk.node_moves(ni, ek, node, base)[k]
            b.play(color, "pass" if move == tk.PASS else tree.geometry.name(int(move)))
            color = 3 - color
            arrived = visits[k]
            node = int(ei[tk.CHILD, first + k])
            if node < 0:
                break
        boards.append(b)
    return boards


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--policy", default="light", choices=("light", "heavy"))
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--knowledge", default="learned")
    parser.add_argument("--position", default="empty", choices=("empty", "middle"))
    parser.add_argument("--slices", type=int, default=1, help="grow each search in this many slices (see above)")
    parser.add_argument("--reuse", action="store_true",
                        help="time searches that grow into tree memory an earlier search used (see above)")
    parser.add_argument("--leaves", type=int, default=0,
                        help="also time bench playouts from this many of the search's leaf positions (see above)")
    parser.add_argument("--expand", type=float, default=None,
                        help="the search's expansion threshold (default: SearchConfig's)")
    args = parser.parse_args()
    from option_caps import refuse_counts
    from search_speed import analyze_for, bench_for, check_counts, middle_game

    check_counts(parser, args)  # before _profiling_process starts this script again, in a profiling build
    if args.slices < 1:
        parser.error(f"--slices must be at least 1, got {args.slices}")
    refuse_counts(parser, (("--leaves", args.leaves, MAX_LEAVES),), least=0)
    _profiling_process()

    from numba import njit

    from foogo import tree as tk
    from foogo.board import Board
    from foogo.game import Game
    from foogo.intrinsics import rdtsc
    from foogo.jit import PROFILE
    from foogo.playout import run_playouts
    from foogo.search import Search, SearchConfig

    assert PROFILE, "not a profiling build"

    @njit
    def cycles():
        return rdtsc()

    game = Game(args.size) if args.position == "empty" else middle_game(args.size)
    legal = game.legal_points(game.to_move)
    board = Board(args.size)

    played = 0  # bench playouts so far: each run plays new ones
    expand = {} if args.expand is None else {"expand_threshold": args.expand}

    def bench_run(seconds: float) -> tuple[int, int, int]:
        """(cycles, playouts, stones) of bench playouts for about `seconds`."""
        nonlocal played
        start = cycles()
        playouts, _, stones = bench_for(board, seconds, args.policy, 1, played)
        spent = cycles() - start
        played += playouts
        return spent, playouts, stones

    def bench_leaves_run(boards, seconds: float) -> tuple[int, int]:
        """(cycles, stones) of bench playouts for about `seconds`, taking the boards in turn, 64 from each."""
        nonlocal played
        spent = stones = 0
        start_cpu = time.process_time()
        while time.process_time() - start_cpu < seconds:
            for b in boards:
                start = cycles()
                batch = run_playouts(b, 64, seed=1, first=played, policy=args.policy)
                spent += cycles() - start
                stones += int(batch.moves.sum())
                played += 64
        return spent, stones

    def new_search() -> Search:
        return Search(SearchConfig(threads=1, seed=2, policy=args.policy, resign_threshold=None,
                                   knowledge=args.knowledge, **expand))

    kept = new_search() if args.reuse else None  # --reuse: every repeat's search, cleared before it

    def repeat(seconds: float, slices: int) -> dict[str, float]:
        """One search of `seconds` in `slices` analyze runs, each after bench playouts of the same
        time: its parts per iteration, and the bench's cycles per playout and per stone."""
        search = new_search() if kept is None else kept
        search.new_game()
        whole = iterations = 0
        bench = [0, 0, 0]
        for _ in range(slices):
            bench = [a + b for a, b in zip(bench, bench_run(seconds / slices))]
            start = cycles()
            iterations += analyze_for(search, game, legal, seconds / slices).playouts
            whole += cycles() - start
        n = max(iterations, 1)
        meta = search.trees[0].meta  # the counts of every slice: each continued the same tree
        parts = {name: value / n for name, value in tk.cycle_counts(meta).items()}
        parts["descent"] -= parts["expansion"]
        parts["search"] = whole / n
        parts["stones"] = tk.playout_stones(meta) / n
        parts["nodes"] = meta[tk.CREATED] / n  # the root's among them: set_root creates it
        ni = search.trees[0].arrays.ni  # a node's visits: the iterations whose backup and AMAF passed it
        parts["path nodes"] = ni[:meta[tk.NODES], tk.VISITS].sum() / n
        parts["bench playout"] = bench[0] / bench[1]
        parts["bench per stone"] = bench[0] / bench[2]
        return parts

    for _ in range(2):  # compile or load, and warm up: a first search may spend its budget compiling
        repeat(0.5, 1)
    if args.reuse:  # a search as long as the timed ones, so that they grow into memory it used
        repeat(args.seconds, 1)
    runs = [repeat(args.seconds, args.slices) for _ in range(args.repeats)]
    if args.leaves:
        search = new_search() if kept is None else kept
        search.new_game()
        analyze_for(search, game, legal, args.seconds)
        leaves = leaf_boards(search, game.board, args.leaves, seed=3)
        for r in runs:  # alternated with the empty board's bench, as long each
            spent, stones = bench_leaves_run(leaves, args.seconds)
            r["leaf per stone"] = spent / stones
            spent, _, stones = bench_run(args.seconds)
            r["empty per stone, beside"] = spent / stones

    def line(name: str, key: str) -> str:
        values = [r[key] for r in runs]
        return f"  {name:28} {statistics.median(values):9,.0f} ({min(values):,.0f}..{max(values):,.0f})"

    import foogo

    print(f"{args.size}x{args.size} {args.policy} playouts, {args.knowledge} prior, {args.position} position: "
          f"cycles per search iteration, median (min..max) of {args.repeats} searches of {args.seconds:g} s "
          f"in {args.slices} slice(s), expansion threshold {args.expand or 'default'}"
          f"{', memory reused' if args.reuse else ''} "
          f"(foogo from {os.path.dirname(foogo.__file__)})")
    for name in tk.CYCLE_PARTS:
        print(line(name, name))
    for r in runs:
        r["sum"] = sum(r[name] for name in tk.CYCLE_PARTS)  # descent is net of expansion
        r["tree"] = r["sum"] - r["playout"]
        r["playout per stone"] = r["playout"] / max(r["stones"], 1e-9)
        r["per node"] = r["expansion"] / max(r["nodes"], 1e-9)
        r["iterations per node"] = 1.0 / max(r["nodes"], 1e-9)
        r["per path node"] = r["amaf"] / max(r["path nodes"], 1e-9)
    print(line("sum of the parts", "sum"))
    print(line("the tree's parts (sum - playout)", "tree"))
    print(line("whole search (analyze)", "search"))
    print(line("bench playout", "bench playout"))
    print(line("playout, per stone", "playout per stone"))
    print(line("bench playout, per stone", "bench per stone"))
    print(line("expansion, per node created", "per node"))
    print(line("iterations per node created", "iterations per node"))
    print(line("amaf, per node of the path", "per path node"))
    print(f"  {'nodes of the path':28} {statistics.median(r['path nodes'] for r in runs):9.2f}")
    if args.leaves:
        print(line("bench from the leaves, per stone", "leaf per stone"))
        print(line("bench from empty beside it", "empty per stone, beside"))


if __name__ == "__main__":
    main()
