"""What creating a tree node costs: tree.expand timed on the positions of a real search's nodes.

    python bench/expand_cost.py [--size 9] [--playouts 20000] [--positions 5000] [--repeats 5]
                                [--seconds 2] [--position empty|middle] [--parts] [--policy light|heavy]

A search of --playouts playouts (light, learned prior, one thread, seed 1: the same tree on every
run of the same foogo) is grown from the empty board or bench/search_speed.py's middle game; its
nodes' positions, in breadth-first order up to --positions, are rebuilt by replaying their moves
(each one checked against the node's Zobrist hash). Then one kernel loop expands each position in
turn into the same small tree (its counts reset before each expansion, so the memory stays warm:
the search's first touches of fresh memory are not in this figure), --repeats runs of at least
--seconds of CPU time. --policy is the search's whose expansions are timed (heavy: the learned prior
tells nakades from other self-ataris, tree_priors.tells_nakade); the positions are the light search's
either way, so that the two figures compare. Prints the median (min..max) nanoseconds per expansion
and a digest of the positions, which two checkouts must share for their figures to compare: run it
once per checkout (`PYTHONPATH=DIR python bench/expand_cost.py`), alternating.

--parts splits the learned prior's work per candidate instead: over every empty point of the same
positions, nanoseconds a point to read its SPATIAL code (spatial_patterns.spatial_code), to look codes up in
the spatial table (spatial_table.spatial_gamma, in point order and shuffled), and for the whole gamma
(features.move_gamma), each the median of --repeats runs of about --seconds.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import statistics
import time

import numpy as np
from numba import njit
from option_caps import refuse_counts, refuse_seconds
from search_speed import middle_game

from foogo import board_kernels as bk
from foogo import features as fe
from foogo import spatial_table as st
from foogo import tree as tk
from foogo.bench import MAX_REPEATS
from foogo.bits import ONE, trailing_zeros
from foogo.game import Game
from foogo.gamma_table import GAMMAS, open_parts
from foogo.patterns import PATTERN_TABLE
from foogo.search import MAX_PLAYOUTS, MAX_SECONDS, Search, SearchConfig
from foogo.spatial_patterns import spatial_code


def node_positions(game: Game, playouts: int, limit: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(S, Z, colours): the positions of up to `limit` nodes of a fixed-seed search from the game's
    position, breadth first, as stacked (s, z) arrays, each checked against its node's hash."""
    search = Search(SearchConfig(playouts=playouts, policy="light", seed=1, threads=1, resign_threshold=None))
    search.genmove(game.board, game.to_move, game.komi, game.legal_points(game.to_move))
    tree = search.trees[0]
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
def expand_all(ni, nh, ei, ef, ek, meta, S, Z, colours, zob, ls, lz, params, table, gammas, parts, rounds):
    """Expand every position `rounds` times into the same tree, reset before each; returns the edges made."""
    moves = np.zeros(1, dtype=np.int32)
    codes = np.zeros(S.shape[1], dtype=np.int64)
    made = 0
    for _ in range(rounds):
        for i in range(S.shape[0]):
            meta[tk.NODES] = 0
            meta[tk.EDGES] = 0
            tk.expand(ni, nh, ei, ef, ek, meta, S[i], Z[i], zob, ls, lz, codes, colours[i], moves, -1, params, table,
                      gammas, parts)
            made += meta[tk.EDGES]
    return made


@njit
def spatial_codes_all(S, Z, colours, out, rounds):
    """out[k] = the SPATIAL code of the k-th empty point of the positions (for its node's colour), `rounds`
    times over; returns (their sum, so that nothing is left uncomputed, and the number of points)."""
    total = 0
    k = 0
    for _ in range(rounds):
        k = 0
        for i in range(S.shape[0]):
            s = S[i]
            z = Z[i]
            nw = s[bk.M_NW]
            base = bk.empty_base(nw)
            for j in range(nw):
                word = z[base + j]
                while word:
                    p = j * 64 + np.int64(trailing_zeros(word))
                    word &= word - ONE
                    code = spatial_code(s, p, colours[i])
                    out[k] = code
                    k += 1
                    total += code
    return total, k


@njit
def spatial_lookups(codes, gammas, rounds):
    """The sum of the spatial gammas of `codes`, `rounds` times over."""
    total = 0.0
    for _ in range(rounds):
        for i in range(codes.shape[0]):
            total += st.spatial_gamma(gammas, codes[i])
    return total


@njit
def gammas_all(S, Z, colours, zob, ls, lz, gammas, rounds):
    """The sum of the learned gammas (features.move_gamma) of every empty point of the positions."""
    total = 0.0
    for _ in range(rounds):
        for i in range(S.shape[0]):
            s = S[i]
            z = Z[i]
            nw = s[bk.M_NW]
            base = bk.empty_base(nw)
            for j in range(nw):
                word = z[base + j]
                while word:
                    p = j * 64 + np.int64(trailing_zeros(word))
                    word &= word - ONE
                    total += fe.move_gamma(s, z, zob, ls, lz, p, colours[i], gammas,
                                           fe.stones_near(s, z, bk.row_col(s, p)[0]), True)
    return total


def part_costs(S, Z, colours, zob, repeats: int, seconds: float) -> dict[str, list[float]]:
    """Nanoseconds a point of each part (see --parts), `repeats` runs each, parts alternated."""
    out = np.zeros(S.shape[0] * int(S[0][bk.M_P]), dtype=np.int64)
    points = spatial_codes_all(S, Z, colours, out, 1)[1]
    codes = out[:points].copy()
    shuffled = codes[np.random.default_rng(1).permutation(points)]
    ls, lz = S[0].copy(), Z[0].copy()
    parts = {"spatial code": lambda r: spatial_codes_all(S, Z, colours, out, r),
             "spatial lookups, point order": lambda r: spatial_lookups(codes, GAMMAS, r),
             "spatial lookups, shuffled": lambda r: spatial_lookups(shuffled, GAMMAS, r),
             "whole gamma": lambda r: gammas_all(S, Z, colours, zob, ls, lz, GAMMAS, r)}
    rounds = {}
    for name, run in parts.items():  # compile, warm up and size each part's runs
        run(1)
        start = time.process_time()
        run(4)
        rounds[name] = max(1, int(4 * seconds / max(time.process_time() - start, 1e-9)))
    ns = {name: [] for name in parts}
    for _ in range(repeats):
        for name, run in parts.items():
            start = time.process_time()
            run(rounds[name])
            ns[name].append((time.process_time() - start) / (rounds[name] * points) * 1e9)
    return ns


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--positions", type=int, default=5000)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--position", default="empty", choices=("empty", "middle"))
    parser.add_argument("--parts", action="store_true", help="the learned prior's cost a point, by part (see above)")
    parser.add_argument("--policy", default="light", choices=("light", "heavy"),
                        help="the policy whose search's expansions are timed (see above)")
    args = parser.parse_args()
    # the engine's caps: a search's playouts, a bench's timed runs
    refuse_counts(parser, (("--playouts", args.playouts, MAX_PLAYOUTS), ("--repeats", args.repeats, MAX_REPEATS)))
    if args.positions < 1:  # no more than the tree's nodes are taken, however many are asked
        parser.error(f"--positions must be at least 1, got {args.positions}")
    # a search's own cap (a day); inf or nan never stopped the rounds' doubling
    refuse_seconds(parser, "--seconds", args.seconds, MAX_SECONDS)
    game = Game(args.size) if args.position == "empty" else middle_game(args.size)
    S, Z, colours = node_positions(game, args.playouts, args.positions)
    digest = hashlib.sha256(S.tobytes() + colours.tobytes()).hexdigest()[:12]
    geometry = game.board.geometry
    if args.parts:
        ns = part_costs(S, Z, colours, geometry.zobrist, args.repeats, args.seconds)
        print(f"{args.size}x{args.size} {args.position}: the learned prior's parts on every empty point of {len(S)} "
              f"node positions (digest {digest}), ns a point, median (min..max) of {args.repeats} runs")
        for name, values in ns.items():
            print(f"  {name:30s} {statistics.median(values):6.1f} ({min(values):.1f}..{max(values):.1f})")
        return
    arrays = tk.new_tree(4, 4 * tk.edges_per_node(geometry))
    params = Search(SearchConfig(policy=args.policy))._params(game.board, 7.5)
    ls, lz = S[0].copy(), Z[0].copy()
    extra = (S, Z, colours, geometry.zobrist, ls, lz, params, PATTERN_TABLE, GAMMAS, open_parts(geometry.size))
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

    print(f"{args.size}x{args.size} {args.position}, {args.policy}: tree.expand on {len(S)} node positions "
          f"(digest {digest}), {statistics.median(ns):.0f} ns per expansion, median ({min(ns):.0f}..{max(ns):.0f}) of "
          f"{args.repeats} runs of {rounds} rounds (foogo from {os.path.dirname(foogo.__file__)})")


if __name__ == "__main__":
    main()
