"""Playouts/s inside the search against `foogo bench` on the same board (the issue asks >= 85%).

    python bench/search_speed.py [--size 9] [--seconds 5] [--threads 1]

Runs the UCT-RAVE search from the empty board and from a middle-game position for a fixed time,
and the plain light-playout benchmark for comparison; prints both rates and their ratio.
"""

from __future__ import annotations

import argparse

from foogo import BLACK, Board
from foogo.bench import measure
from foogo.search import Search, SearchConfig


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--threads", type=int, default=1)
    args = parser.parse_args()
    bench = measure(args.size, max(2000, 300_000 // args.size), args.threads, repeats=3)["playouts_per_second"]
    board = Board(args.size)
    legal = [p for p in board.geometry.points if board.is_legal(BLACK, p)]
    search = Search(SearchConfig(seconds=args.seconds, threads=args.threads, seed=1))
    search.genmove(board, BLACK, 7.0, legal, time_budget=0.5)  # compile and warm up
    for label, position in (("empty board", board), ("middle game", _middle_game(args.size))):
        color = position.to_move
        moves = [p for p in position.geometry.points if position.is_legal(color, p)]
        result = Search(SearchConfig(seconds=args.seconds, threads=args.threads, seed=2)).genmove(
            position, color, 7.0, moves)
        rate = result.playouts_per_second
        print(f"{args.size}x{args.size} {label:12s} search {rate:9.0f} playouts/s   "
              f"bench {bench:9.0f}   ratio {rate / bench:.2f}")


def _middle_game(size: int) -> Board:
    """A position a third of the way through a random game (fixed seed), black to move."""
    board = Board(size)
    from foogo.playout import seed_rng, choose_light
    import numpy as np
    from foogo import board_kernels as bk
    s, z = board._state()
    rng = np.zeros(1, dtype=np.uint64)
    seed_rng(rng, 42, 0)
    color = BLACK
    for _ in range(size * size // 3):
        p = choose_light(s, z, color, rng)
        if p >= 0:
            bk.play(s, z, board.geometry.zobrist, p, color)
        color = 3 - color
    s[bk.M_TO_MOVE] = BLACK
    s[bk.M_LAST] = -2
    return board


if __name__ == "__main__":
    main()
