"""Make foogo's opening book (foogo/book.py) from foogo's own long searches.

    python bench/make_book.py [--playouts 1000000] [--jobs 2] [--out foogo/data/book9.json]

The positions, each taken up to the board's 8 symmetries (book.key) so that each is searched once:
  1. the empty board, black to move;
  2. every first move of black, white to move (15 positions on 9x9);
  3. the book's first move for black and every answer of white, black to move (14 after E5).
Each is searched by `Search` with the settings `foogo gtp` plays with (heavy playouts, the learned
prior, one thread) for --playouts playouts, once for each of the seeds 0 .. --seeds - 1, and the
move most of those searches chose is stored (ties: the larger mean share of the root's visits), with
their mean win rate and visit share. One seed is not enough: a search concentrates its visits on one
move early and keeps them there, so two seeds of 1,000,000 playouts answered black's F6 with E5 (97%
of the visits) and with D4 (67%). The same commit, count and seeds give the same book. Searches run
--jobs at a time in worker processes (one per core). Prints each position's answer and writes the
book; bench/RESULTS.md ("The opening book") gives the command and what the book is worth.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from option_caps import refuse_counts

from foogo import book as bk_
from foogo.bench import MAX_REPEATS
from foogo.board import Board
from foogo.geometry import BLACK, WHITE, geometry
from foogo.playout import MAX_THREADS
from foogo.search import MAX_PLAYOUTS, Search, SearchConfig


def search(task):
    """(key, entry dict, moves, chosen vertex, seconds) for one search of a position given as (size, komi,
    moves, color, playouts, seed)."""
    size, komi, moves, color, playouts, seed = task
    board = Board(size)
    for c, vertex in moves:
        board.play(c, vertex)
    k, frame = bk_.key(board, color)
    config = SearchConfig(playouts=playouts, threads=1, policy="heavy", seed=seed, resign_threshold=None)
    started = time.perf_counter()
    result = Search(config).genmove(board, color, komi)
    # the move in the key's frame: the book turns it back into any asking position's
    g = board.geometry
    row, col = bk_.transform(size, frame, *g.row_col(result.move))
    total = sum(result.visits.values()) or 1
    entry = {"move": g.name(g.point(row, col)), "winrate": round(result.winrate, 4),
             "visits": round(result.visits.get(result.move, 0) / total, 4)}
    return k, entry, moves, result.vertex, time.perf_counter() - started


def distinct_moves(size: int, moves, color: int) -> list[str]:
    """The moves of color after `moves` that lead to positions distinct up to symmetry (first of each)."""
    g = geometry(size)
    base = Board(size)
    for c, vertex in moves:
        base.play(c, vertex)
    seen = set()
    out = []
    for row in range(size):
        for col in range(size):
            vertex = g.name(g.point(row, col))
            if base.color_at(vertex) != 0:
                continue
            board = base.copy()
            board.play(color, vertex)
            k, _ = bk_.key(board, 3 - color)
            if k not in seen:
                seen.add(k)
                out.append(vertex)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=7.0)
    parser.add_argument("--playouts", type=int, default=1_000_000)
    parser.add_argument("--seeds", type=int, default=3,
                        help="searches a position, one per seed 0..N-1; the move most of them chose is kept")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", type=Path, default=Path(bk_.BOOK_PATH))
    args = parser.parse_args()
    # a search's playouts; a position's searches, like a bench's timed runs (their tasks are listed before the
    # first); worker processes, one a core, like a search's threads
    refuse_counts(parser, (("--playouts", args.playouts, MAX_PLAYOUTS), ("--seeds", args.seeds, MAX_REPEATS),
                           ("--jobs", args.jobs, MAX_THREADS)))
    started = time.perf_counter()
    entries: dict = {}

    def run(positions):
        """Search each position (size, komi, moves, color, playouts) once per seed; keep the move most
        seeds chose (ties: the larger mean share of the visits), with its searches' mean figures."""
        tasks = [position + (seed,) for position in positions for seed in range(args.seeds)]
        votes: dict = {}
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for k, entry, moves, vertex, seconds in pool.map(search, tasks):
                votes.setdefault(k, []).append(entry)
                line = " ".join(f"{'B' if c == BLACK else 'W'} {v}" for c, v in moves) or "(empty board)"
                print(f"{line:>16} -> {vertex:4} win rate {entry['winrate']:.3f}, visits {entry['visits']:.1%}"
                      f" ({seconds:.0f} s)", flush=True)
        for k, found in votes.items():
            moves_ = [e["move"] for e in found]
            best = max(set(moves_), key=lambda m: (moves_.count(m), sum(e["visits"] for e in found if e["move"] == m)))
            chosen = [e for e in found if e["move"] == best]
            entries[k] = {"move": best, "winrate": round(sum(e["winrate"] for e in chosen) / len(chosen), 4),
                          "visits": round(sum(e["visits"] for e in chosen) / len(chosen), 4)}
            if len(chosen) < len(found):
                print(f"  seeds disagree: {' '.join(moves_)} (key frame) -> {best}", flush=True)

    # 1. the empty board
    run([(args.size, args.komi, [], BLACK, args.playouts)])
    # 2. every first move of black, and 3. every answer to the book's first move
    root = Board(args.size)
    first = bk_.Book(args.size, args.komi, args.playouts, "", {
        k: bk_.Entry(e["move"], e["winrate"], e["visits"]) for k, e in entries.items()}).move(root, BLACK, args.komi)
    opening = [(BLACK, geometry(args.size).name(first))]
    tasks = [(args.size, args.komi, [(BLACK, v)], WHITE, args.playouts)
             for v in distinct_moves(args.size, [], BLACK)]
    tasks += [(args.size, args.komi, opening + [(WHITE, v)], BLACK, args.playouts)
              for v in distinct_moves(args.size, opening, WHITE)]
    run(tasks)
    book = {"format": bk_.FORMAT, "size": args.size, "komi": args.komi, "playouts": args.playouts,
            "source": f"bench/make_book.py --playouts {args.playouts} --seeds {args.seeds}: foogo's heavy search "
                      f"with the learned prior, one thread, the move most of seeds 0..{args.seeds - 1} chose",
            "entries": dict(sorted(entries.items()))}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(book, indent=1) + "\n")
    bk_.load_book(str(args.out))  # what was written reads back
    print(f"wrote {args.out}: {len(entries)} positions ({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
