"""The tree's growth: a new node and its edges (expansion, with their priors), and pruning in place.

What it is: `expand` (a node for a position: its candidate moves, each edge's prior kind and, for
the learned prior, its gamma), `disable` (a move the game's rules forbid at the root), `prune` (keep
the subtree of the position reached, less its rarely visited nodes, moved to the front of the same
arrays) and `real_stats` (an edge's visits and wins less its prior). The arrays are
tree_layout's, the priors tree_priors'. In a tree that several threads share, a node's room is
taken under meta's LOCK (`_allocate`); publishing the node is the caller's (tree.py). What it is
not: the search iteration (tree.py), which calls `expand` when an edge reaches its threshold.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from . import features as fe
from .bits import ONE, trailing_zeros
from .intrinsics import atomic_cas
from .jit import inline, kernel
from .nakade import nakade
from .spatial_patterns import spatial_code_at
from .tactics import big_self_atari
from .tree_layout import (
    AN,
    AW,
    BEST,
    CHILD,
    COLOR,
    COUNT,
    CREATED,
    CRIT_N,
    EDGES,
    FIRST,
    FULL,
    K_DISABLED,
    K_PASS,
    K_PLAIN,
    K_RISKY,
    KIND_VALUE,
    KIND_WEIGHT,
    LOCK,
    NODE_COLUMNS,
    NODES,
    P_KNOWLEDGE,
    P_PRIOR,
    P_SHARED,
    ROOT,
    RULES,
    VISITS,
    N,
    W,
    edge_base,
    node_edges,
    prior_visits,
)
from .tree_priors import gamma_into, learned_kinds, prior, tells_nakade

# ---------------------------------------------------------------- expansion

@inline
def _set_edge(ei, ef, ek, e, kind, n0):
    """Edge e enabled, of this prior kind, with no child."""
    ei[CHILD, e] = -1
    n, w = prior_visits(kind, n0)
    ef[N, e] = n
    ef[W, e] = w
    ef[AN, e] = 0.0
    ef[AW, e] = 0.0
    ek[e] = kind


@inline
def mark_disabled(ei, ef, ek, e):
    """Edge e disabled: of kind K_DISABLED and valued -1 (see disable); its child left as it is."""
    ef[N, e] = 1e30
    ef[W, e] = -1e30
    ef[AN, e] = 0.0
    ef[AW, e] = 0.0
    ek[e] = K_DISABLED


@inline
def _disable_edges(ei, ef, ek, first, last):
    """Edges first .. last - 1 disabled, with no child."""
    for e in range(first, last):
        mark_disabled(ei, ef, ek, e)
        ei[CHILD, e] = -1


@inline
def _allocate(ni, ei, meta, count, shared):
    """Room for a node of `count` edges: (its node, its first edge), or (-1, -1) with the full flag set
    if the tree has none. In a shared tree (tree parallelism) under meta's LOCK, a spin lock: nodes
    are made once in every few iterations and this holds it for a few loads and stores."""
    if shared:
        while atomic_cas(meta, LOCK, 0, 1) != 0:
            pass
    node = np.int64(-1)
    first = np.int64(-1)
    if meta[NODES] >= ni.shape[0] or meta[EDGES] + count > ei.shape[1]:
        meta[FULL] = 1
    else:
        node = meta[NODES]
        meta[NODES] = node + 1
        meta[CREATED] += 1
        first = meta[EDGES]
        meta[EDGES] = first + count
    if shared:
        atomic_cas(meta, LOCK, 1, 0)
    return node, first


@inline
def _code_ahead(s, z, p, c, gammas, codes, row, near):
    """codes[p] = the SPATIAL code of c at p, and the prior table's entries it will read asked for, unless
    p is open (features.open_gamma needs neither): the learned prior's first pass over a node's
    candidates, so that their table reads (a 4 MB table, which the tree's own traffic pushes out of the
    caches between expansions) overlap. row and near: as gamma_into's; returns them for p."""
    row, col, near = fe.row_near(s, z, p, row, near)
    if not fe.open_column(near, col):
        code = spatial_code_at(s, p, c, row, col)
        codes[p] = code
        fe.prefetch_gammas(gammas, code)
    return row, near


SEKI_FEW = 8  # a new node of at most this many candidate moves is asked whether it ends in a seki (_seki_ending)


@inline
def _seki_ending(s, c, ek, first, last, at):
    """True if every enabled edge of first .. last - 1 (point p's edge is at + p) is a self-atari of two stones
    or more that is no nakade (tactics.big_self_atari, nakade.py): where heavy-nakade's playouts (the late 9x9
    search's) pass by rule (e), the one move that keeps a seki (heavy's pass there too, and where a nakade is
    left as well). Asked whatever the search's policy and prior."""
    for e in range(first, last):
        if ek[e] != K_DISABLED:
            p = e - at
            if not big_self_atari(s, p, c) or nakade(s, p, c):
                return False
    return True


@inline
def _keep_seki(ei, ef, ek, first, last, n0):
    """A seki ending (_seki_ending) gets the playouts' view in the prior: the pass edge (`last`) the plain prior
    and each self-atari the risky one (K_PLAIN, K_RISKY), so that the tree tries the pass first. The learned
    prior would rate those self-ataris among themselves, the pass never: two self-ataris of a seki's shared
    liberties got 40 virtual visits at 0.875 each, against the pass's 10 at 0.1, and the tree, which would
    have needed some 300 real visits at every such node to try the pass, read a seki as white's string
    captured (a 5-s game against Pachi lost on the count at an estimate of 0.84-0.96)."""
    for e in range(first, last):
        if ek[e] != K_DISABLED:
            _set_edge(ei, ef, ek, e, K_RISKY, n0)
    _set_edge(ei, ef, ek, last, K_PLAIN, n0)


@kernel
def expand(ni, nh, ei, ef, ek, meta, s, z, zob, ls, lz, codes, c, moves, nmoves, params, table, gammas, parts):
    """Create a node for position (s, z) with c to move; its enabled edges are `moves[:nmoves]` (no PASS
    among them) if nmoves >= 0, else c's playable points minus ko and suicides, and pass.
    table is the pattern table for the heavy policy's priors (patterns.PATTERN_TABLE), gammas the
    learned prior's (gamma_table.GAMMAS) and parts its open points' (features.fill_open_parts, for s's
    size: gamma_table.open_parts); zob the board's Zobrist keys and (ls, lz) scratch shaped like (s, z),
    for the ladder reader; codes int64 scratch as long as s's points, for the learned prior's first pass
    (_code_ahead). A seki ending's edges get the playouts' view of it (_keep_seki). Returns the node, or -1 (and
    the full flag set) if the tree has no room.
    The node is the caller's to publish: no other thread reaches it before an edge's CHILD names it."""
    P = s[bk.M_P]
    count = node_edges(s)
    node, first = _allocate(ni, ei, meta, count, params[P_SHARED] > 0)
    if node < 0:
        return -1
    n0 = params[P_PRIOR]
    ni[node, FIRST] = first
    ni[node, COUNT] = count
    ni[node, VISITS] = 0
    ni[node, COLOR] = c
    ni[node, BEST] = -1
    for k in range(CRIT_N, NODE_COLUMNS):
        ni[node, k] = 0
    nh[node] = z[0]
    last = s[bk.M_LAST]
    rules = params[P_KNOWLEDGE] == RULES
    sacrifices = tells_nakade(params, True)
    at = first - edge_base(s)  # point p's edge is at + p
    _disable_edges(ei, ef, ek, first, first + count - 1)
    # the learned prior's gammas go into AW as each candidate is found, in point order (row by row:
    # stones_near is read once a row), and become kinds once their sum is known (learned_kinds)
    total = 0.0
    row = np.int64(-1)
    near = np.uint64(0)
    lrow, lcol = fe.place_of(s, np.int64(s[bk.M_LAST]))
    l2row, l2col = fe.place_of(s, np.int64(s[bk.M_LAST2]))
    enabled = 0  # candidate moves enabled (pass apart)
    if nmoves >= 0:
        enabled = nmoves
        if not rules:
            for i in range(nmoves):
                row, near = _code_ahead(s, z, np.int64(moves[i]), c, gammas, codes, row, near)
        for i in range(nmoves):
            p = np.int64(moves[i])
            kind = prior(s, z, p, c, last, params, table) if rules else K_PLAIN
            _set_edge(ei, ef, ek, at + p, kind, n0)
            if not rules:
                g, row, near = gamma_into(s, z, zob, ls, lz, c, ef, at + p, p, row, near, gammas, parts,
                                           lrow, lcol, l2row, l2col, sacrifices, codes)
                total += g
    else:
        nw = s[bk.M_NW]
        base = bk.empty_base(nw)
        if not rules:
            for i in range(nw):
                word = z[base + i]
                while word:
                    row, near = _code_ahead(s, z, i * 64 + np.int64(trailing_zeros(word)), c, gammas, codes, row,
                                            near)
                    word &= word - ONE
        for i in range(nw):
            word = z[base + i]
            while word:
                p = i * 64 + np.int64(trailing_zeros(word))
                word &= word - ONE
                if fe.may_consider(s, P, p, c):
                    enabled += 1
                    if rules:
                        _set_edge(ei, ef, ek, at + p, prior(s, z, p, c, last, params, table), n0)
                    else:  # enabled (its child is -1, its AN 0 since _disable_edges), rated below
                        g, row, near = gamma_into(s, z, zob, ls, lz, c, ef, at + p, p, row, near, gammas, parts,
                                                   lrow, lcol, l2row, l2col, sacrifices, codes)
                        ek[at + p] = K_PLAIN  # after the rating: its loads of s may reuse may_consider's
                        total += g
    if not rules:
        learned_kinds(ef, ek, first, first + count - 1, n0, total)
    _set_edge(ei, ef, ek, first + count - 1, K_PASS, n0)
    if 0 < enabled <= SEKI_FEW and _seki_ending(s, c, ek, first, first + count - 1, at):
        _keep_seki(ei, ef, ek, first, first + count - 1, n0)
    return node


def disable(ni, ei, ef, ek, node, e) -> None:
    """Forbid node's edge e (a move the game's rules forbid at this root): disabled and valued
    -1 (N = 1e30 visits, W = -1e30 wins: below every real value in [0, 1], whatever AMAF credit it
    gets), which select_edge never picks, and of kind K_DISABLED, which gives it no real visits. The
    node's best edge is then found again."""
    mark_disabled.py_func(ei, ef, ek, e)
    ni[node, BEST] = -1


def real_stats(ef, ek, first: int, count: int, n0: float):
    """Real (visits, wins) of edges first..first+count-1: N and W less the prior (0 for disabled
    edges). Exact while visits stay below 2**24 and the prior weight n0 is a whole number."""
    kinds = ek[first:first + count]
    n = n0 * KIND_WEIGHT[kinds]
    rn = ef[N, first:first + count].astype(np.float64) - n
    rw = ef[W, first:first + count].astype(np.float64) - n * KIND_VALUE[kinds]
    off = kinds == K_DISABLED
    rn[off] = 0.0
    rw[off] = 0.0
    return rn, rw


# ---------------------------------------------------------------- pruning

@kernel
def prune(ni, nh, ei, ef, ek, meta, root, min_visits, rank):
    """Keep only the subtree under node `root`, less every other node with fewer than min_visits
    visits (and what lies below it), moved in place to the front of the arrays (the root becomes
    node 0), and set meta's node and edge counts and root: what the game left behind, or what the
    search found not worth keeping, is dropped and its room reused, with no second set of arrays.
    A dropped node's edge keeps its statistics and may grow the node again. rank: int32 scratch
    as long as ni.

    In place works because a tree only grows by appending: a node's children have larger indices
    than the node, and edge blocks lie in the order of their nodes. So the kept nodes, taken in
    index order, move to indices no larger than their own (their rank among the kept ones), and
    their edges likewise, and nothing is overwritten before it is read."""
    n = meta[NODES]
    for i in range(n):
        rank[i] = -1
    rank[root] = 0
    for i in range(root, n):  # mark: a child comes after its parent, so one forward pass finds all
        if rank[i] >= 0:
            first = ni[i, FIRST]
            for e in range(first, first + ni[i, COUNT]):
                child = ei[CHILD, e]
                if child >= 0 and ni[child, VISITS] >= min_visits:
                    rank[child] = 0
    kept = 0
    for i in range(root, n):  # rank the marked nodes in index order
        if rank[i] >= 0:
            rank[i] = kept
            kept += 1
    edges = 0
    for i in range(root, n):
        new = rank[i]
        if new < 0:
            continue
        first = ni[i, FIRST]
        count = ni[i, COUNT]
        for k in range(NODE_COLUMNS):  # new <= i: the row moves forward, BEST an offset still right
            ni[new, k] = ni[i, k]
        ni[new, FIRST] = edges
        nh[new] = nh[i]
        for e in range(first, first + count):  # edges <= e: a forward copy is safe
            child = ei[CHILD, e]
            ei[CHILD, edges] = rank[child] if child >= 0 else -1  # rank -1: dropped
            for k in range(4):
                ef[k, edges] = ef[k, e]
            ek[edges] = ek[e]
            edges += 1
    meta[NODES] = kept
    meta[EDGES] = edges
    meta[ROOT] = 0
    meta[FULL] = 0
    return kept
