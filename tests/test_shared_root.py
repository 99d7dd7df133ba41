"""Root sharing between root-parallel trees (shared_root.py): each tree's root sees every tree's own
statistics during a search, and every playout is counted once in what the search reports and keeps."""

import numpy as np

from foogo import BLACK, Board
from foogo import tree as tk
from foogo.search import Search, SearchConfig
from foogo.shared_root import SharedRoot, exchange


def legal(board, color):
    return [p for p in board.geometry.points if board.is_legal(color, int(p))]


def root_real(tree):
    """(real visits, real wins, AMAF visits) summed over the tree's root edges."""
    ni, nh, ei, ef, ek, meta = tree.arrays
    root = int(meta[tk.ROOT])
    first, count = int(ni[root, tk.FIRST]), int(ni[root, tk.COUNT])
    rn, rw = tk.real_stats(ef, ek, first, count, tree.n0)
    keep = ek[first:first + count] != tk.K_DISABLED
    return float(rn.sum()), float(rw.sum()), float(ef[tk.AN, first:first + count][keep].sum())


def two_trees(playouts=200):
    """A two-thread search whose trees hold a root for the empty 9x9 board (a search without sharing)."""
    board = Board(9)
    search = Search(SearchConfig(playouts=playouts, threads=2, seed=3, share_root=False))
    search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    return board, search


def test_a_turn_adds_the_other_trees_own_statistics_and_end_takes_them_out():
    board, search = two_trees()
    params = search._params(board, 7.0)
    a, b = search.trees
    before_a, before_b = root_real(a), root_real(b)
    shared = SharedRoot(search.trees)
    a.run(120, params)
    shared.turn(0)  # a publishes 120 iterations and has nothing to take in
    assert root_real(a)[0] == before_a[0] + 120
    b.run(50, params)
    shared.turn(1)  # b publishes 50 and takes in a's 120
    assert root_real(b)[0] == before_b[0] + 50 + 120
    a.run(30, params)
    shared.turn(0)  # a publishes 30 more and takes in b's 50
    assert root_real(a)[0] == before_a[0] + 150 + 50
    shared.turn(0)  # a second turn with nothing new changes nothing
    assert root_real(a)[0] == before_a[0] + 150 + 50
    gained_a = [x - y for x, y in zip(root_real(a), before_a)]
    gained_b = [x - y for x, y in zip(root_real(b), before_b)]
    assert gained_a[1] > 0 and gained_a[2] > gained_b[2] > 0  # wins and AMAF visits travel as well
    shared.end()
    assert root_real(a)[0] == before_a[0] + 150
    assert root_real(b)[0] == before_b[0] + 50
    for tree in (a, b):
        ni, nh, ei, ef, ek, meta = tree.arrays
        root = int(meta[tk.ROOT])
        assert ni[root, tk.BEST] == -1  # its statistics changed: chosen again at the next descent


def test_own_statistics_are_what_the_search_reports_while_it_runs():
    board, search = two_trees()
    params = search._params(board, 7.0)
    shared = SharedRoot(search.trees)
    search._shared = shared
    before, _, _ = search._root_totals()
    for k, tree in enumerate(search.trees):
        tree.run(100, params)
        shared.turn(k)
    shared.turn(0)
    visits, _, per_tree = search._root_totals()
    assert sum(visits.values()) == sum(before.values()) + 200
    search._shared = None
    shared.end()
    assert search._root_totals()[0] == visits


def test_a_shared_search_counts_every_playout_once_and_keeps_own_statistics():
    board = Board(9)
    search = Search(SearchConfig(playouts=3000, threads=2, seed=5, share_root=True))
    first = search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    assert first.playouts == 3000 and sum(first.visits.values()) == 3000
    assert [root_real(tree)[0] for tree in search.trees] == [1500, 1500]
    second = search.genmove(board, BLACK, 7.0, legal(board, BLACK))  # the same roots, continued
    assert sum(second.visits.values()) == 6000
    assert [root_real(tree)[0] for tree in search.trees] == [3000, 3000]


def test_shared_trees_agree_more_on_their_best_move():
    # with the root shared, both trees spend their playouts below the same moves: their visit
    # distributions over the root's moves come much closer than two independent trees' (about 0.4
    # against 0.7-1.0 in threaded searches). The two trees take turns in this thread, batch by batch,
    # as the search's threads do when the scheduler interleaves them: a threaded search shares only
    # while both threads run, and under a loaded CI one thread once ran most of its playouts before
    # the other started (0.75 shared against 0.70 unshared), which says nothing about the sharing.
    def distance(share):
        board = Board(9)
        search = Search(SearchConfig(playouts=2, threads=2, seed=7, share_root=False, policy="light"))
        search.genmove(board, BLACK, 7.0, legal(board, BLACK))  # sets both trees' roots
        params = search._params(board, 7.0)
        trees = search.trees
        shared = SharedRoot(trees) if share else None
        for _ in range(60):  # 15,000 playouts a tree in batches of 250, about as a threaded search's
            for k, tree in enumerate(trees):
                tree.run(250, params)
                if shared is not None:
                    shared.turn(k)
        own = [dict(zip(*(shared.own_root_edges(k) if shared else tree.root_edges())[:2]))
               for k, tree in enumerate(trees)]
        moves = sorted(set(own[0]) | set(own[1]))
        a = np.array([own[0].get(m, 0.0) for m in moves])
        b = np.array([own[1].get(m, 0.0) for m in moves])
        return float(np.abs(a / a.sum() - b / b.sum()).sum())

    shared, independent = distance(True), distance(False)
    assert shared < 0.75 * independent, (shared, independent)


def numpy_turn(rows, base, imported, published, pool, enabled):
    """SharedRoot.turn's exchange as the numpy expressions it was written as first: (rows, published,
    imported, pool) after it."""
    rows, pool = rows.copy(), pool.copy()
    own = (rows - base - imported) * enabled
    pool += own - published
    others = pool - own
    rows += (others - imported).astype(np.float32)
    return rows, own, others, pool


def test_the_compiled_exchange_is_the_numpy_turn_bit_for_bit():
    rng = np.random.default_rng(5)
    for count in (1, 7, 82, 362):
        edges = rng.normal(0, 300, (4, count + 5)).astype(np.float32)
        rows = edges[:, 2:2 + count]  # a strided view, as the tree's rows are
        base = rng.normal(0, 50, (4, count))
        imported = rng.normal(0, 2000, (4, count))
        published = rng.normal(0, 2000, (4, count))
        pool = rng.normal(0, 5000, (4, count))
        enabled = rng.random(count) > 0.2
        want = numpy_turn(rows, base, imported, published, pool, enabled)
        exchange(rows, base, imported, published, pool, enabled)
        for got, expected in zip((rows, published, imported, pool), want):
            assert got.dtype == expected.dtype and got.tobytes() == np.ascontiguousarray(expected).tobytes()
