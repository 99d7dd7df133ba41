"""Choosing in the tree (tree_select.py): select_edge is the exact argmax of the RAVE values, with and
without criticality, whose counts cover every iteration through a node."""

import numpy as np
import pytest

from foogo import tree as tk
from foogo.game import Game
from foogo.search import Search, SearchConfig


def _exact_best(ef, first, count, equiv, gains=None):
    """select_edge by exact rational arithmetic: the first edge of the highest RAVE value above -0.5;
    gains: edge -> criticality's gain (its AMAF visits and wins rounded to floats first, as select_edge does)."""
    from fractions import Fraction
    best, best_value = -1, Fraction(-1, 2)
    for e in range(first, first + count):
        n, w, an, aw = (float(x) for x in ef[:, e])
        gain = (gains or {}).get(e, 0.0)
        an, aw = an * (1.0 + gain), max(aw + gain * an, 0.0)
        n, w, an, aw = (Fraction(x) for x in (n, w, an, aw))
        eq = Fraction(equiv)
        value = (w * (eq + an) + eq * aw) / (n * (eq + an) + eq * an) if n + an > 0 else Fraction(1, 2)
        if value > best_value:
            best, best_value = e, value
    return best


@pytest.mark.parametrize("seed", range(6))
def test_select_edge_is_the_exact_argmax_with_ties_and_disabled_edges(seed):
    rng = np.random.default_rng(seed)
    count, first = 98, 5
    ni, nh, ei, ef, ek, meta = tk.new_tree(2, first + count)
    ni[0, tk.FIRST], ni[0, tk.COUNT] = first, count
    for trial in range(200):
        n = rng.integers(0, 6, count).astype(np.float32) * rng.choice([1, 1000], count)
        w = np.floor(n * rng.random(count) * 2) / 2  # halves: values tie often
        an = rng.integers(0, 50, count).astype(np.float32) * (rng.random(count) < 0.7)
        aw = np.floor(an * rng.random(count) * 2) / 2
        ef[:, first:] = np.stack([n, w, an, aw])
        for e in first + rng.choice(count, rng.integers(0, count + 1), replace=False):
            if rng.random() < 0.3:
                tk.disable(ni, ei, ef, ek, 0, e)
        equiv = float(rng.choice([1.0, 1000.0, 3000.0]))
        best = _exact_best(ef, first, count, equiv)
        if trial % 2 and best >= 0:  # the best value tied by other edges, before it or after it
            for e in first + rng.choice(count, rng.integers(1, 4), replace=False):
                ef[:, e] = ef[:, best]
                ek[e] = ek[best]
            best = _exact_best(ef, first, count, equiv)
        assert tk.select_edge(ni, ei, ef, 0, equiv, np.zeros(count + 1, np.float32), 0.0, 0.0) == best


def _crit(wo, bo, bw, n, coef):
    """tree_select.crit_gain's formula, by hand: coef * (P(owner won) - P(black owned) P(black won) - P(white
    owned) P(white won)), never below CRIT_FLOOR."""
    wo, bo, bw = wo / n, bo / n, bw / n
    return max(coef * (wo - (bo * bw + (1 - bo) * (1 - bw))), -0.9)


@pytest.mark.parametrize("seed", range(4))
def test_select_edge_with_criticality_is_the_exact_argmax(seed):
    """Edges whose child has more than `least` visits count criticality's gain in their AMAF statistics;
    the others, and every edge with coef 0, as before."""
    rng = np.random.default_rng(100 + seed)
    count, first, kids = 40, 1, 25
    ni, nh, ei, ef, ek, meta = tk.new_tree(1 + kids, first + count)
    ni[0, tk.FIRST], ni[0, tk.COUNT], ni[0, tk.VISITS] = first, count, 10**6
    least = 2000.0
    for _ in range(100):
        ef[:, first:] = 0
        ei[tk.CHILD, :] = -1
        n = rng.integers(1, 5000, count).astype(np.float32)
        ef[tk.N, first:] = n
        ef[tk.W, first:] = np.floor(n * rng.random(count) * 2) / 2
        an = rng.integers(0, 5000, count).astype(np.float32)
        ef[tk.AN, first:] = an
        ef[tk.AW, first:] = np.floor(an * rng.random(count) * 2) / 2
        coef = float(rng.choice([0.0, 1.1, 3.0]))
        gains = {}
        for k, e in enumerate(first + rng.choice(count, kids, replace=False)):
            child = 1 + k
            ei[tk.CHILD, e] = child
            visits = int(rng.integers(1000, 3000))
            crit_n = int(rng.integers(0, visits))
            wo, bo, bw = (int(rng.integers(0, crit_n + 1)) for _ in range(3))
            ni[child, tk.VISITS], ni[child, tk.CRIT_N] = visits, crit_n
            ef[tk.N, e] = max(ef[tk.N, e], visits + rng.integers(0, 20))  # an edge has its child's visits and more
            ni[child, tk.CRIT_WO], ni[child, tk.CRIT_BO], ni[child, tk.CRIT_BW] = wo, bo, bw
            if coef and visits > least and crit_n:
                gains[int(e)] = _crit(wo, bo, bw, crit_n, coef)
        assert (len(gains) > 0) == (coef > 0)
        best = _exact_best(ef, first, count, 1000.0, gains)
        assert tk.select_edge(ni, ei, ef, 0, 1000.0, np.zeros(count + 1, np.float32), coef, least) == best


def test_criticality_counts_each_iteration_through_a_node_that_ended_with_a_winner():
    game = Game(7)
    search = Search(SearchConfig(playouts=3000, seed=5, crit=1.1, crit_min_visits=100, resign_threshold=None))
    search.genmove(game.board, "b", 0.5)  # komi 0.5: no draws, so every iteration counts
    ni, nh, ei, ef, ek, meta = search.trees[0].arrays
    nodes = int(meta[tk.NODES])
    root = int(meta[tk.ROOT])
    for node in range(nodes):
        counts = ni[node, tk.CRIT_N:tk.CRIT_BW + 1]
        assert all(0 <= c <= counts[0] for c in counts[1:])
    first, count = ni[root, tk.FIRST], ni[root, tk.COUNT]
    children = [int(c) for c in ei[tk.CHILD, first:first + count - 1] if c >= 0]  # pass apart
    assert children
    for child in children:  # the child's visits and the iteration that created it: at komi 0.5 no line
        # is drawn, not even one that ended in two passes whose counts disagree (tree_score.settled takes one)
        assert ni[child, tk.CRIT_N] == ni[child, tk.VISITS] + 1
    gains = [tk.crit_gain.py_func(ni, c, 1.1, 100.0) for c in children]
    assert any(g != 0 for g in gains) and all(g >= -0.9 for g in gains)
