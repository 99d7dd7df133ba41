"""Root sharing between root-parallel trees: each thread's tree sees every tree's root statistics.

With T threads the search grows T independent trees (search.py). Left alone, each spreads its
playouts over the root's moves as if it were the only one, and each ends up half as deep under
the best move as a single tree with all the playouts would be. Sharing the root (the "slow root
parallelisation" of Bourki et al., 2010, on one machine): between batches of iterations a tree
publishes what its own iterations added to its root edges' four statistic rows (visits and wins,
AMAF visits and wins) since its last turn, and takes in what the other trees have published since
its own last turn. Its root selection then reads the experience of all the trees, so they all
spend their playouts below the moves that are best on the evidence of all of them, and each goes
deeper there. Only the root is shared: below it each tree keeps its own statistics.

A tree's root rows are therefore base (what they held when the search began: the prior, and any
reused statistics) + own (its iterations this search) + imported (the others' own, as of its last
turn). Everything that reports the search (the chosen move, win rates, the early stop) reads own
only (`own_root_edges`), and `end` takes the imported part out again, so that the rows a tree keeps for
the next search, and the totals summed over trees, count every playout once.

Turns take a lock and run between a tree's batches, in the tree's own thread, so a tree's rows
change under it only by its own iterations. One turn is one compiled pass over the root's edges
(`exchange`): as numpy operations it cost 32 us a turn on a 9x9 root, 1.7% of a two-thread light
search's CPU and 1.2% of a heavy one's (bench/RESULTS.md, "On the Intel Xeon again").
"""

from __future__ import annotations

import threading

import numpy as np

from . import tree as tk
from .jit import kernel


class SharedRoot:
    """The root statistics that a search's trees (search_tree.SearchTree, roots set to the same position) share."""

    def __init__(self, trees):
        """Begin sharing: the trees' roots are set and no thread runs yet."""
        self.trees = trees
        self.lock = threading.Lock()
        counts = {tree.root_block()[2] for tree in trees}
        if len(counts) != 1:
            raise ValueError("the trees' roots have different edge counts")
        count = counts.pop()
        self.enabled = np.ones(count, dtype=bool)  # edges enabled in every tree (the others never change)
        self.base = []
        for tree in trees:
            ni, nh, ei, ef, ek, meta = tree.arrays
            _, first, _ = tree.root_block()
            self.enabled &= ek[first:first + count] != tk.K_DISABLED
            self.base.append(ef[:, first:first + count].astype(np.float64))
        self.pool = np.zeros((4, count))  # every tree's own statistics, as published
        self.published = [np.zeros((4, count)) for _ in trees]
        self.imported = [np.zeros((4, count)) for _ in trees]

    def turn(self, k: int) -> None:
        """Tree k publishes its own statistics and takes in the others' (call between its batches)."""
        tree = self.trees[k]
        ni, nh, ei, ef, ek, meta = tree.arrays
        root, first, count = tree.root_block()
        rows = ef[:, first:first + count]
        with self.lock:
            exchange(rows, self.base[k], self.imported[k], self.published[k], self.pool, self.enabled)
            ni[root, tk.BEST] = -1  # its statistics changed: the next descent chooses again

    def own_root_edges(self, k: int):
        """Tree k's root_edges (moves, real visits, real wins) less what it imported: its own."""
        tree = self.trees[k]
        with self.lock:  # rows and imported as of the same turn
            moves, visits, wins = tree.root_edges()
            keep = tree.root_enabled()
            imported = self.imported[k]
            return moves, visits - imported[tk.N][keep], wins - imported[tk.W][keep]

    def end(self) -> None:
        """Take every tree's imported statistics out of its root rows (no thread runs any more)."""
        for k, tree in enumerate(self.trees):
            ni, nh, ei, ef, ek, meta = tree.arrays
            root, first, count = tree.root_block()
            ef[:, first:first + count] -= self.imported[k].astype(np.float32)
            self.imported[k][:] = 0
            ni[root, tk.BEST] = -1


@kernel
def exchange(rows, base, imported, published, pool, enabled):
    """One tree's turn (SharedRoot.turn) over its root's statistic rows (float32[4, count]): its own
    statistics, own = (rows - base - imported) where the edge is enabled everywhere, else 0, replace what it
    published before in the pool; it takes in what the others published since its last turn, others = pool
    - own, less what it had imported (added to rows, rounded to float32), and keeps own as published and
    others as imported (float64[4, count] each)."""
    for i in range(rows.shape[0]):
        for j in range(rows.shape[1]):
            own = (np.float64(rows[i, j]) - base[i, j] - imported[i, j]) * enabled[j]
            pool[i, j] += own - published[i, j]
            published[i, j] = own
            others = pool[i, j] - own
            rows[i, j] += np.float32(others - imported[i, j])
            imported[i, j] = others
