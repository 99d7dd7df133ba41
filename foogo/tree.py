"""Compiled UCT-RAVE tree: its growth (expansion, pruning) and the search iteration over it.

A whole iteration (descent, expansion, playout, backup, AMAF update) runs in one
compiled call without touching Python. The arrays and their fields are
tree_layout's, the choice at a node tree_select's, the knowledge a new node's
edges start with tree_priors'; this module re-exports the layout's names, so
`tree.FIRST`, `tree.K_LEARNED` and the like read as before. The AMAF update
needs no lookup: the colour that first played each point is a row too
(iterate's firstc, over the same span as a node's edges), and the update runs
over whole rows, which LLVM vectorises. These passes are most of the search's
cost beyond its playouts.

Inside the tree moves follow the playout rule (no own-eye fills) and the board
rule (no suicide, simple ko); the root's moves are given by the caller, who
knows the game's rules (superko). Nothing here knows about time or threads.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from . import features as fe
from .bits import ONE, trailing_zeros
from .jit import PROFILE, atomic_add, atomic_cas, inline, kernel, prefetch, rdtsc, uncached_nogil
from .playout import BROKEN, checked_chooser, play_out_with
from .policy import choose
from .tree_layout import *  # noqa: F401,F403 (the layout's names, read as tree.*)
from .tree_layout import (
    AN,
    AW,
    BEST,
    C_AMAF,
    C_BACKUP,
    C_COPY,
    C_DESCENT,
    C_EXPANSION,
    C_PLAYOUT,
    CHILD,
    COLOR,
    COUNT,
    CREATED,
    CYCLES,
    EDGES,
    EXPAND_AT,
    FIRST,
    FULL,
    GROWING,
    K_DISABLED,
    K_PASS,
    K_PLAIN,
    KIND_VALUE,
    KIND_WEIGHT,
    LOCK,
    NO_CHILD,
    NODES,
    OWNERSHIP_EVERY,
    P_CAP,
    P_EQUIV,
    P_EXPAND,
    P_KNOWLEDGE,
    P_KOMI,
    P_POLICY,
    P_PRIOR,
    P_SHARED,
    P_UCT,
    PASS,
    PLAYOUT_STONES,
    ROOT,
    RULES,
    SAMPLES,
    VIRTUAL_LOSS,
    VISITS,
    N,
    W,
    edge_base,
    edge_move,
    node_edges,
    prior_visits,
)
from .tree_priors import gamma_into, learned_kinds, prior
from .tree_select import best_edge, credit_and_screen, keep_best, pick, select_edge, select_uct  # noqa: F401 (select_edge: tree API)

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
def _mark_disabled(ei, ef, ek, e):
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
        _mark_disabled(ei, ef, ek, e)
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


@kernel
def expand(ni, nh, ei, ef, ek, meta, s, z, zob, ls, lz, c, moves, nmoves, params, table, gammas):
    """Create a node for position (s, z) with c to move; its enabled edges are `moves[:nmoves]` (no PASS
    among them) if nmoves >= 0, else c's playable points minus ko and suicides, and pass.
    table is the pattern table for the heavy policy's priors (policy.PATTERN_TABLE), gammas the
    learned prior's (gamma_table.GAMMAS); zob the board's Zobrist keys and (ls, lz) scratch shaped like
    (s, z), for the ladder reader. Returns the node, or -1 (and the full flag set) if the tree has no room.
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
    nh[node] = z[0]
    last = s[bk.M_LAST]
    rules = params[P_KNOWLEDGE] == RULES
    at = first - edge_base(s)  # point p's edge is at + p
    _disable_edges(ei, ef, ek, first, first + count - 1)
    # the learned prior's gammas go into AW as each candidate is found, in point order (row by row:
    # stones_near is read once a row), and become kinds once their sum is known (learned_kinds)
    total = 0.0
    row = np.int64(-1)
    near = np.uint64(0)
    lrow, lcol = fe.place_of(s, np.int64(s[bk.M_LAST]))
    l2row, l2col = fe.place_of(s, np.int64(s[bk.M_LAST2]))
    if nmoves >= 0:
        for i in range(nmoves):
            p = np.int64(moves[i])
            kind = prior(s, z, p, c, last, params, table) if rules else K_PLAIN
            _set_edge(ei, ef, ek, at + p, kind, n0)
            if not rules:
                g, row, near = gamma_into(s, z, zob, ls, lz, c, ef, at + p, p, row, near, gammas,
                                           lrow, lcol, l2row, l2col)
                total += g
    else:
        nw = s[bk.M_NW]
        base = bk.empty_base(nw)
        for i in range(nw):
            word = z[base + i]
            while word:
                p = i * 64 + np.int64(trailing_zeros(word))
                word &= word - ONE
                if fe.may_consider(s, P, p, c):
                    if rules:
                        _set_edge(ei, ef, ek, at + p, prior(s, z, p, c, last, params, table), n0)
                    else:  # enabled (its child is -1, its AN 0 since _disable_edges), rated below
                        g, row, near = gamma_into(s, z, zob, ls, lz, c, ef, at + p, p, row, near, gammas,
                                                   lrow, lcol, l2row, l2col)
                        ek[at + p] = K_PLAIN  # after the rating: its loads of s may reuse may_consider's
                        total += g
    if not rules:
        learned_kinds(ef, ek, first, first + count - 1, n0, total)
    _set_edge(ei, ef, ek, first + count - 1, K_PASS, n0)
    return node


def disable(ni, ei, ef, ek, node, e) -> None:
    """Forbid node's edge e (a move the game's rules forbid at this root): disabled and valued
    -1 (N = 1e30 visits, W = -1e30 wins: below every real value in [0, 1], whatever AMAF credit it
    gets), which select_edge never picks, and of kind K_DISABLED, which gives it no real visits. The
    node's best edge is then found again."""
    _mark_disabled.py_func(ei, ef, ek, e)
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
        visits = ni[i, VISITS]
        color = ni[i, COLOR]
        best = ni[i, BEST]  # an offset: still right where the edges go
        h = nh[i]
        ni[new, FIRST] = edges
        ni[new, COUNT] = count
        ni[new, VISITS] = visits
        ni[new, COLOR] = color
        ni[new, BEST] = best
        nh[new] = h
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


@kernel
def run_iterations(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                   values, owners, ownership, scores, rng, params, table, gammas, replies, count):
    """iterate with the built-in playout policies (params[P_POLICY]) on a tree one thread grows; see iterate."""
    return iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                   values, owners, ownership, scores, rng, params, table, gammas, replies, count, choose, False,
                   False)


@kernel
def run_shared_iterations(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                          values, owners, ownership, scores, rng, params, table, gammas, replies, count):
    """run_iterations on a tree several threads grow at once (params[P_SHARED] set). A kernel of its own,
    so that run_iterations has none of the atomic steps: with them in it, as branches on params, the
    one-thread search lost 3% of its speed."""
    return iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                   values, owners, ownership, scores, rng, params, table, gammas, replies, count, choose, False,
                   True)


_CUSTOM_ITERATIONS: dict = {}


def custom_iterations(policy):
    """run_iterations (and run_shared_iterations: params[P_SHARED] decides) for a custom playout policy
    (playout.custom_batch says what one is), compiled on first use; it returns -1 when the policy chose
    a point it may not take."""
    kernel_ = _CUSTOM_ITERATIONS.get(policy)
    if kernel_ is not None:
        return kernel_
    checked = checked_chooser(policy)

    @uncached_nogil
    def kernel_(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                values, owners, ownership, scores, rng, params, table, gammas, replies, count):
        return iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                       values, owners, ownership, scores, rng, params, table, gammas, replies, count, checked, True,
                       params[P_SHARED] > 0)

    _CUSTOM_ITERATIONS[policy] = kernel_
    return kernel_


@inline
def learn_replies(trace, ntrace, winner, replies):
    """The last-good-reply tables' update after an iteration (Drake's LGRF-1): along the stones it
    played (trace[:ntrace], point * 2 + colour - 1), each move of the winner becomes its reply to
    the opponent's move just before, and a move of the loser that is its stored reply to that
    move is forgotten (-1). Moves after a pass (two stones of one colour in a row) are skipped."""
    for j in range(1, ntrace):
        before = trace[j - 1]
        v = trace[j]
        if (v ^ before) & 1 == 0:
            continue
        c = (v & 1) + 1
        prev = before >> 1
        if c == winner:
            replies[c - 1, prev] = v >> 1
        elif replies[c - 1, prev] == v >> 1:
            replies[c - 1, prev] = -1


# ---------------------------------------------------------------- prefetching

LINE_BYTES = 64  # a cache line: prefetching one element brings in its line


@inline
def _prefetch_row(row, first, last):
    """Ask for elements first .. last - 1 of a 1-d row, one per cache line (and the last)."""
    for e in range(first, last, LINE_BYTES // row.itemsize):
        prefetch(row, e)
    prefetch(row, last - 1)


@inline
def _prefetch_stats(ni, ef, node):
    """Ask for node's four statistic rows, which its AMAF update reads after the playout: asked for
    while descending, they arrive while the playout runs (a node below the top few levels is
    seldom still in cache; bench/results/search_cycles-*.txt has the part with and without)."""
    first = np.int64(ni[node, FIRST])
    last = first + np.int64(ni[node, COUNT])
    for k in range(4):
        _prefetch_row(ef[k], first, last)


# ---------------------------------------------------------------- threads sharing the tree

# With params[P_SHARED] several threads run iterate on one tree at once, each with scratch arrays of
# its own (tree parallelism, as in Pachi and Fuego). What needs it is atomic: a descent's virtual
# loss, a backup's visit and win, the claim and publication of a new node (_grow) and the allocation
# of its room (_allocate's lock). The AMAF rows and a node's BEST are updated as they are with one
# thread: two threads crediting one node's row at the same instant can lose one of the credits, a
# rare and harmless loss (Fuego's lock-free search accepts the same; Enzenberger and Mueller 2009).


@inline
def _take(ni, ef, node, e, shared):
    """The descent takes node's edge e. In a shared tree, e counts a visit with no win (a virtual loss)
    at once, which the backup turns into the real result (_back_up), so that the other threads see e
    as worse while this iteration runs and spread over other moves; and the node's best edge, which
    does not show the loss, is found again at the next descent through it."""
    if shared:
        atomic_add(ef[N], e, VIRTUAL_LOSS)
        ni[node, BEST] = -1


@inline
def _back_up(ni, ef, node, e, result, shared):
    """The backup's visit to node and its edge e, won `result` for the edge's mover (a shared tree
    counted e's visit at the descent: _take)."""
    if shared:
        atomic_add(ni[node], VISITS, 1)
        atomic_add(ef[W], e, result)
    else:
        ni[node, VISITS] += 1
        ef[N, e] += 1.0
        ef[W, e] += result


@inline
def _grow(ni, nh, ei, ef, ek, meta, s, z, zob, ls, lz, color, trace, params, table, gammas, e, shared):
    """Expand edge e's child (position s, z with `color` to move) and link it: the child, or -1 if the
    tree is full or, in a shared tree, another thread is growing it. A shared tree's thread claims the
    edge first (CHILD GROWING) and publishes the node when it is whole; readers take any CHILD below 0
    for none."""
    if shared and atomic_cas(ei[CHILD], e, NO_CHILD, GROWING) != NO_CHILD:
        return -1
    child = expand(ni, nh, ei, ef, ek, meta, s, z, zob, ls, lz, color, trace, -1, params, table, gammas)
    if shared:
        atomic_cas(ei[CHILD], e, GROWING, child)
    else:
        ei[CHILD, e] = child
    return child


# ---------------------------------------------------------------- profiling builds

@inline
def _clock():
    """The cycle counter in profiling builds (jit.PROFILE), else 0: then the timers compile away."""
    if PROFILE:
        return rdtsc()
    return np.int64(0)


@inline
def _charge(meta, part, since):
    """Count the cycles since `since` (a _clock reading) to part C_* of meta; returns the clock now."""
    if PROFILE:
        now = rdtsc()
        meta[CYCLES + part] += now - since
        return now
    return np.int64(0)


@inline
def iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc, values,
            owners, ownership, scores, rng, params, table, gammas, replies, count, chooser, full, shared):
    """Run `count` search iterations from the root position (root_s, root_z) on the tree, playing
    out with the policy params[P_POLICY] (table: policy.PATTERN_TABLE) and growing nodes with the prior
    params[P_KNOWLEDGE] (gammas: gamma_table.GAMMAS). With a replies table (int32[2, P], -1 for none;
    playout.NO_REPLIES's shape for none) the playouts play last good replies, which each iteration
    updates (learn_replies).

    Scratch arrays: s, z and ls, lz (board copies: the iteration's, the ladder reader's), trace (int32,
    >= cap + depth), tstart and path (int64[depth]), firstc (int8[P], zeros), values (float32[P + 1]),
    owners (int8[P]). ownership (float64[P]) accumulates
    final owners (+1 black, -1 white) on one iteration in OWNERSHIP_EVERY. scores (float64[root
    edges, 3]) accumulates, per root edge, the iterations through it and the sum and sum of squares
    of their final margins (black's area score less komi). full: the playouts keep the hash and the
    empty set (play_out_with; False only with the built-in choose: the tree's own moves always do,
    and each iteration starts from a fresh copy of the root). shared: other threads run iterate on
    the tree at the same time (params[P_SHARED]; see "threads sharing the tree" above), a constant
    in the built-in kernels. Returns the number of iterations run (fewer if the tree is empty; -1
    if a custom policy's chooser broke the rule)."""
    P = root_s[bk.M_P]
    base = edge_base(root_s)
    komi = params[P_KOMI]
    expand_at = max(params[P_EXPAND], np.float64(meta[EXPAND_AT]))
    n0 = params[P_PRIOR]
    equiv = params[P_EQUIV]
    uct = params[P_UCT] > 0
    cap = np.int64(params[P_CAP])
    policy = np.int64(params[P_POLICY])
    max_depth = path.shape[0]
    seen = 0.0 if shared else 1.0  # this iteration's visit to an edge: counted at the descent if shared
    root = meta[ROOT]
    if meta[NODES] == 0:
        return 0
    for _ in range(count):
        clock = _clock()
        bk.copy_position(root_s, root_z, s, z)
        clock = _charge(meta, C_COPY, clock)
        node = root
        depth = 0
        ntrace = 0
        passes = np.int64(s[bk.M_PASSES])
        terminal = False
        color = np.int64(ni[root, COLOR])
        s[bk.M_TO_MOVE] = color
        while True:
            e = select_uct(ni, ei, ef, ek, node, params) if uct else best_edge(ni, ef, node, equiv, values)
            if e < 0 or depth >= max_depth:
                break
            _take(ni, ef, node, e, shared)
            path[depth] = e
            tstart[depth] = ntrace
            depth += 1
            move = edge_move(ni, node, e, base)
            if move == PASS:
                bk.play_pass(s, color)
                passes += 1
            else:
                bk.play_inline(s, z, zob, move, color)
                passes = 0
                trace[ntrace] = move * 2 + color - 1
                ntrace += 1
            color = 3 - color
            if passes >= 2:
                terminal = True
                break
            child = ei[CHILD, e]
            if child < 0:
                if ef[N, e] - prior_visits(ek[e], n0)[0] + seen >= expand_at:  # real visits with this one
                    started = _clock()
                    _grow(ni, nh, ei, ef, ek, meta, s, z, zob, ls, lz, color, trace, params, table, gammas, e,
                          shared)
                    _charge(meta, C_EXPANSION, started)
                break
            node = child
            _prefetch_stats(ni, ef, node)
        clock = _charge(meta, C_DESCENT, clock)
        # ownership is sampled on one iteration in OWNERSHIP_EVERY: enough for a map, and
        # labelling every point after every playout would cost several percent of the search
        sample = meta[SAMPLES] % OWNERSHIP_EVERY == 0
        meta[SAMPLES] += 1
        marks = owners if sample else owners[:0]
        if terminal:
            score = bk.area(s, marks)
        else:
            score, nmoves, capped = play_out_with(s, z, zob, rng, cap, trace[ntrace:], marks, chooser, policy,
                                                  table, replies, full)
            if capped == BROKEN:
                return -1
            ntrace += min(nmoves, trace.shape[0] - ntrace)
            if PROFILE:
                meta[PLAYOUT_STONES] += nmoves
        clock = _charge(meta, C_PLAYOUT, clock)
        margin = score - komi
        black_result = 1.0 if margin > 0 else (0.0 if margin < 0 else 0.5)
        if replies.shape[0] > 0 and margin != 0:
            learn_replies(trace, ntrace, bk.BLACK if margin > 0 else bk.WHITE, replies)
        if sample:
            for p in range(P):
                ownership[p] += (owners[p] == bk.BLACK) - (owners[p] == bk.WHITE)
        if depth > 0:
            r = path[0] - ni[root, FIRST]
            scores[r, 0] += 1.0
            scores[r, 1] += margin
            scores[r, 2] += margin * margin
        # backup along the path; the mover at depth d alternates from the root's colour
        mover = np.int64(ni[root, COLOR])
        node = root
        k = ntrace - 1
        for d in range(depth):
            e = path[d]
            result = black_result if mover == bk.BLACK else 1.0 - black_result
            _back_up(ni, ef, node, e, result, shared)
            node = ei[CHILD, e]
            mover = 3 - mover
            if node < 0:
                break
        clock = _charge(meta, C_BACKUP, clock)
        # AMAF: walking back from the end, firstc[p] holds the colour that played p first from
        # depth d on; each node on the path credits the edges its colour played first later
        for d in range(depth - 1, -1, -1):
            stop = tstart[d]  # a local: numba's stores to firstc could alias tstart's memory for LLVM
            while k >= stop:
                v = trace[k]
                firstc[v >> 1] = (v & 1) + 1
                k -= 1
            # the node above path[d] is the parent of edge path[d]
            parent = root if d == 0 else ei[CHILD, path[d - 1]]
            if parent < 0:
                continue
            pcolor = ni[parent, COLOR]
            result = black_result if pcolor == bk.BLACK else 1.0 - black_result
            first = np.int64(ni[parent, FIRST])
            width = np.int64(ni[parent, COUNT])
            last = first + width
            top = credit_and_screen(firstc[base:base + width], ef[N, first:last], ef[W, first:last],
                                     ef[AN, first:last], ef[AW, first:last], pcolor, np.float32(result), equiv,
                                     values)
            # its statistics changed only here (see BEST)
            keep_best(ni, parent, pick(ef, first, width, equiv, values, top))
        firstc[:] = 0  # a memset: cheaper than clearing the trace's points one by one
        _charge(meta, C_AMAF, clock)
    return count
