"""How many moves a player still has to play, by the empty points on the board: what a clock's allocation divides by.

    python bench/moves_left.py DIR [DIR ...] [--bucket 6]

Reads every SGF under each DIR (a `foogo match` or bench/parallel_match.py output directory), replays
its moves, and before each move counts the empty points and the moves the player to move still
plays in that game, its own included. Prints, per bucket of empty points, the positions, the mean,
median, 75th and 90th percentile of the moves left, and the empty points per move left (the mean's
divisor: gtp/clock.TimeManager.EMPTY_PER_MOVE is set from it).
"""

from __future__ import annotations

import argparse
import collections
import glob
import os
import statistics
import sys

from sgfmill import boards, sgf


def positions(path: str):
    """(empty points, the mover's moves left) before each move of the SGF at path; [] if it cannot be read."""
    try:
        with open(path, "rb") as f:
            game = sgf.Sgf_game.from_bytes(f.read())
    except (OSError, ValueError) as exc:
        print(f"skipped {path}: {exc}", file=sys.stderr)
        return []
    size = game.get_size()
    board = boards.Board(size)
    moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    moves = [(colour, point) for colour, point in moves if colour]
    out = []
    for k, (colour, point) in enumerate(moves):
        empty = size * size - len(board.list_occupied_points())
        out.append((empty, (len(moves) - k + 1) // 2))
        if point is not None:
            try:
                board.play(point[0], point[1], colour)
            except ValueError:
                break  # an illegal move in a record: the rest is not a game
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="+")
    parser.add_argument("--bucket", type=int, default=6, help="empty points per row (default 6)")
    args = parser.parse_args(argv)
    if args.bucket < 1:
        parser.error("--bucket must be at least 1")
    rows = collections.defaultdict(list)
    games = 0
    for d in args.dirs:
        if not os.path.isdir(d):
            parser.error(f"not a directory: {d}")
        for path in sorted(glob.glob(os.path.join(d, "**", "*.sgf"), recursive=True)):
            found = positions(path)
            games += bool(found)
            for empty, left in found:
                rows[empty // args.bucket * args.bucket].append(left)
    if not rows:
        print("no games found")
        return 1
    print(f"{games} games")
    print("| empty points | positions | mean moves left | median | p75 | p90 | empty per move left |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for low in sorted(rows, reverse=True):
        left = sorted(rows[low])
        mean = statistics.mean(left)
        middle = low + (args.bucket - 1) / 2
        print(f"| {low}-{low + args.bucket - 1} | {len(left)} | {mean:.1f} | {left[len(left) // 2]} | "
              f"{left[int(0.75 * len(left))]} | {left[int(0.9 * len(left))]} | {middle / mean:.2f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
