"""Does a long search keep growing its tree within --memory? (issue 10: 19x19, 2M playouts)

    python bench/tree_growth.py [--size 19] [--playouts 2000000] [--threads 2] [--memory 512]

Runs one search from the empty board for a playout count and prints, ten times along the way, the
playouts so far, the nodes in the trees, the nodes ever created, the collections run (a full tree
drops its little-visited nodes and raises its expansion threshold, search_tree.SearchTree.collect) and
the expansion threshold. Without collections a tree stops growing once it is full. Prints the
peak resident memory at the end. Not a speed benchmark: it reports counts, not rates.
"""

from __future__ import annotations

import argparse
import resource
import threading

from option_caps import refuse_counts

from foogo import BLACK, Board
from foogo import tree as tk
from foogo.search import MAX_PLAYOUTS, MAX_SECONDS, Search, SearchConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=19)
    parser.add_argument("--playouts", type=int, default=2_000_000)
    parser.add_argument("--threads", type=int, default=2)
    parser.add_argument("--memory", type=int, default=512, help="MB for the trees (foogo gtp --memory)")
    parser.add_argument("--policy", default="light")
    args = parser.parse_args()
    refuse_counts(parser, (("--playouts", args.playouts, MAX_PLAYOUTS),))  # a search's cap
    board = Board(args.size)
    try:  # SearchConfig's own checks: --threads, --memory; the longest search it allows (it refused 1e9 s)
        config = SearchConfig(seconds=MAX_SECONDS, threads=args.threads, memory_mb=args.memory, policy=args.policy,
                              resign_threshold=None)
    except ValueError as error:
        parser.error(str(error))
    search = Search(config)
    stop = threading.Event()
    marks = [args.playouts * k // 10 for k in range(1, 11)]
    print(f"{args.size}x{args.size}, {args.playouts} playouts, {args.threads} threads, --memory {args.memory}")
    print(f"{'playouts':>10} {'nodes':>9} {'created':>10} {'collections':>11} {'expand at':>9}")

    def progress(result) -> None:
        if marks and result.playouts >= marks[0]:
            marks.pop(0)
            metas = [tree.meta for tree in search.trees]
            threshold = max(max(int(m[tk.EXPAND_AT]) for m in metas), int(search.expand_threshold(args.size)))
            print(f"{result.playouts:>10} {sum(int(m[tk.NODES]) for m in metas):>9} "
                  f"{sum(int(m[tk.CREATED]) for m in metas):>10} {sum(int(m[tk.COLLECTIONS]) for m in metas):>11} "
                  f"{threshold:>9}", flush=True)
            if not marks:
                stop.set()

    legal = [p for p in board.geometry.points if board.is_legal(BLACK, int(p))]
    result = search.genmove(board, BLACK, 7.5, legal, stop=stop, progress=progress, interval=0.1)
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"move {board.geometry.name(result.move)}, {result.playouts} playouts in {result.seconds:.1f} s, "
          f"peak RSS {peak:.0f} MB")


if __name__ == "__main__":
    main()
