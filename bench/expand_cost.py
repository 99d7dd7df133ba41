"""What creating a tree node costs: tree.expand timed on the positions of a real search's nodes.

    python bench/expand_cost.py [--size 9] [--playouts 20000] [--positions 5000] [--repeats 5]
                                [--seconds 2] [--position empty|middle]

A search of --playouts playouts (light, learned prior, one thread, seed 1: the same tree on every
run of the same foogo) is grown from the empty board or bench/search_speed.py's middle game; its
nodes' positions, in breadth-first order up to --positions, are rebuilt by replaying their moves
(each one checked against the node's Zobrist hash). Then one kernel loop expands each position in
turn into the same small tree (its counts reset before each expansion, so the memory stays warm:
the search's first touches of fresh memory are not in this figure), --repeats runs of at least
--seconds of CPU time. Prints the median (min..max) nanoseconds per expansion and a digest of the
positions, which two checkouts must share for their figures to compare: run it once per checkout
(`PYTHONPATH=DIR python bench/expand_cost.py`), alternating.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import sys
import time

import numpy as np
from numba import njit

from foogo import board_kernels as bk
from foogo import tree as tk
from foogo.features import GAMMAS
from foogo.game import Game
from foogo.policy import PATTERN_TABLE
from foogo.search import Search, SearchConfig


def node_positions(game: Game, playouts: int, limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(S, Z, colours): the positions of up to `limit` nodes of a fixed-seed search from the game's
    position, breadth first, as stacked (s, z) arrays, each checked against its node's hash."""
    search = Search(SearchConfig(playouts=playouts, policy="light", seed=1, threads=1, resign_threshold=None))
    search.genmove(game.board, game.to_move, game.komi, game.legal_points(game.to_move))
    tree = search._trees[0]
    ni, nh, ei, _, ek, meta = tree.arrays
    frontier = [(int(meta[tk.ROOT]), game.board.copy())]
    states, zs, colours = [], [], []
    while frontier and len(states) < limit:
        node, board = frontier.pop(0)
        s, z = board._state()
        assert np.uint64(z[0]) == nh[node], "a node's position was not rebuilt"
        states.append(s.copy())
        zs.append(z.copy())
        colour = int(ni[node, tk.COLOR])
        colours.append(colour)
        first = int(ni[node, tk.FIRST])
        for offset, move in enumerate(tk.node_moves(ni, ek, node, tree.base)):
            child = int(ei[tk.CHILD, first + offset])
            if child >= 0 and move != bk.PASS:
                after = board.copy()
                after.play(colour, int(move))
                frontier.append((child, after))
    return np.stack(states), np.stack(zs), np.array(colours, dtype=np.int64)


@njit
def expand_all(ni, nh, ei, ef, ek, meta, S, Z, colours, zob, ls, lz, params, table, gammas, rounds):
    """Expand every position `rounds` times into the same tree, reset before each; returns the edges made."""
    moves = np.zeros(1, dtype=np.int32)
    made = 0
    for _ in range(rounds):
        for i in range(S.shape[0]):
            meta[tk.NODES] = 0
            meta[tk.EDGES] = 0
            tk.expand(ni, nh, ei, ef, ek, meta, S[i], Z[i], zob, ls, lz, colours[i], moves, -1, params, table,
                      gammas)
            made += meta[tk.EDGES]
    return made


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--position", default="empty", choices=("empty", "middle"))
    args = parser.parse_args()
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from search_speed import middle_game

    game = Game(args.size) if args.position == "empty" else middle_game(args.size)
    S, Z, colours = node_positions(game, args.playouts, args.positions)
    digest = hashlib.sha256(S.tobytes() + colours.tobytes()).hexdigest()[:12]
    geometry = game.board.geometry
    arrays = tk.new_tree(4, 4 * tk.edges_per_node(geometry))
    params = Search(SearchConfig(policy="light"))._params(game.board, 7.5)
    ls, lz = S[0].copy(), Z[0].copy()
    extra = (S, Z, colours, geometry.zobrist, ls, lz, params, PATTERN_TABLE, GAMMAS)
    expand_all(*arrays, *extra, 1)  # compile and warm up
    rounds = 1
    while True:  # enough rounds for --seconds
        start = time.process_time()
        expand_all(*arrays, *extra, rounds)
        if time.process_time() - start >= args.seconds / 4:
            break
        rounds *= 2
    rounds = max(1, int(rounds * args.seconds / max(time.process_time() - start, 1e-9)))
    ns = []
    for _ in range(args.repeats):
        start = time.process_time()
        expand_all(*arrays, *extra, rounds)
        ns.append((time.process_time() - start) / (rounds * len(S)) * 1e9)
    import foogo

    print(f"{args.size}x{args.size} {args.position}: tree.expand on {len(S)} node positions (digest {digest}), "
          f"{statistics.median(ns):.0f} ns per expansion, median ({min(ns):.0f}..{max(ns):.0f}) of "
          f"{args.repeats} runs of {rounds} rounds (foogo from {os.path.dirname(foogo.__file__)})")


if __name__ == "__main__":
    main()
