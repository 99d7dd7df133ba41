"""Compiled UCT-RAVE tree: flat node and edge arrays, and the search iteration over them.

A tree is six arrays, so that a whole iteration (descent, expansion, playout,
backup, AMAF update) runs in one compiled call without touching Python:

``ni`` int32[N, 5]   per node: first edge, edge count, visits, colour to move, best edge (its
                     offset from the first; -1: not known, select_edge finds it)
``nh`` uint64[N]     per node: Zobrist hash of its position (for tree reuse)
``ei`` int32[1, E]   per edge: its child node or -1 (its move it has by position: below)
``ef`` float32[4, E] per edge, one row each: visits and wins including the prior (N, W),
                     AMAF visits and wins (AN, AW); wins are counted for the colour
                     that plays the edge's move
``ek`` uint8[E]      per edge: the kind of its prior (K_*), which gives the prior's
                     virtual visits and wins (prior_visits): real visits are N minus
                     them, so they take no room of their own
``meta`` int64[16]   nodes used, edges used, root node, full flag, iterations run, the
                     expansion threshold raised by collections (0: params'), nodes
                     ever created, collections run; then, in profiling builds
                     (jit.PROFILE), the cycles spent in each part of an iteration
                     (CYCLE_PARTS) and the stones the playouts played

An edge is 21 bytes. A node's edges are contiguous, one for every padded point
from the first on-board point to the last (`node_edges`; the border points
between rows, occupied points and moves the rules forbid are disabled: kind
K_DISABLED), then pass: edge `first + p - base` is point p (`edge_base`), so an
edge's move is its position (`edge_move`, `node_moves`) and takes no room. Each field has a row of
its own. So the AMAF update needs no lookup: the colour that first played each
point is a row too (iterate's firstc, over the same span), and the update runs
over whole rows, which LLVM vectorises. The same pass estimates each updated
edge's value for select_edge's screen, which picks the node's best edge; the
node keeps it (BEST): the next descent through the node reads it, for a node's
statistics change only in an iteration's backup through it, so the choice is
the one select_edge would make then. These passes are most of the search's
cost beyond its playouts.

Selection maximises the RAVE blend (1 - beta) * Q + beta * Q_amaf, with
beta = AN / (AN + N + AN * N / equiv) (Gelly and Silver; Fuego's form), plus an
optional UCT term. Priors are virtual visits from Go knowledge, of one of two
kinds (params[P_KNOWLEDGE]). RULES: hand-written rules (captures, atari
escapes, self-atari, the neighbourhood of the last move, empty edges), in
`prior` here; with the heavy policy (params[P_POLICY], see policy.py) a move
matching one of the policy's 3x3 patterns next to the last move also counts.
LEARNED: each move's share of the gammas of features.py, fitted to games
(`_gamma_into`, `_learned_kinds`, K_LEARNED). With the heavy policy iterations play heavy
playouts, whichever the prior.

Inside the tree moves follow the playout rule (no own-eye fills) and the board
rule (no suicide, simple ko); the root's moves are given by the caller, who
knows the game's rules (superko). Nothing here knows about time or threads.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from . import features as fe
from .bits import ONE, trailing_zeros
from .jit import PROFILE, fast_inline, inline, kernel, prefetch, rdtsc, screen_max, uncached_nogil
from .playout import BROKEN, PASS, checked_chooser, play_out_with
from .policy import HEAVY, choose, matches_pattern, self_atari  # noqa: F401 (self_atari: tree API)

DISABLED = -3  # an edge that is no move here: a border or occupied point, one the tree does not
#                consider (expand), or a move the game's rules forbid at this root (disable)

# ni columns
FIRST, COUNT, VISITS, COLOR, BEST = 0, 1, 2, 3, 4
# ei rows
CHILD = 0
# ef columns
N, W, AN, AW = 0, 1, 2, 3
# meta fields
NODES, EDGES, ROOT, FULL, SAMPLES, EXPAND_AT, CREATED, COLLECTIONS = 0, 1, 2, 3, 4, 5, 6, 7
CYCLES = 8  # meta[CYCLES + C_*]: cycles spent in each part of the iterations (profiling builds only)
CYCLE_PARTS = ("copy", "descent", "expansion", "playout", "backup", "amaf")  # descent includes expansion
C_COPY, C_DESCENT, C_EXPANSION, C_PLAYOUT, C_BACKUP, C_AMAF = range(len(CYCLE_PARTS))
PLAYOUT_STONES = CYCLES + len(CYCLE_PARTS)  # meta[PLAYOUT_STONES]: stones the playouts played (profiling)
META_SIZE = 16
OWNERSHIP_EVERY = 16
# params fields (float64 array)
P_KOMI, P_EQUIV, P_UCT, P_EXPAND, P_PRIOR, P_CAP, P_POLICY, P_KNOWLEDGE = 0, 1, 2, 3, 4, 5, 6, 7
# P_POLICY: LIGHT or HEAVY; P_KNOWLEDGE: RULES or LEARNED (the prior)
NPARAMS = 8


NODE_BYTES = 5 * 4 + 8
EDGE_BYTES = 4 + 4 * 4 + 1


@inline
def _span_edges(n, w):
    """The edges of a node on an n x n board of padded width w: padded points first (the first
    on-board point) .. last (the last on-board point), then pass."""
    return (n - 1) * w + n + 1


@inline
def node_edges(s):
    """The edges of every node of position s's board (_span_edges)."""
    return _span_edges(np.int64(s[bk.M_SIZE]), np.int64(s[bk.M_W]))


def edges_per_node(geometry) -> int:
    """The edges of every node on a Geometry's board (node_edges)."""
    return int(_span_edges.py_func(geometry.size, geometry.width))


@inline
def _first_point(w):
    return w + 1


@inline
def edge_base(s):
    """The padded point of a node's first edge (the first on-board point): its edge first + p - base
    is point p's, and first + node_edges - 1, the pass edge's, would be a border point's."""
    return _first_point(np.int64(s[bk.M_W]))


def edge_base_of(geometry) -> int:
    """edge_base on a Geometry's board."""
    return int(_first_point.py_func(geometry.width))


@inline
def edge_move(ni, node, e, base):
    """The move of node's edge e: the padded point base + its offset, or PASS for the last edge.
    Whether the edge is enabled is its kind's business (K_DISABLED)."""
    k = e - np.int64(ni[node, FIRST])
    return PASS if k == np.int64(ni[node, COUNT]) - 1 else base + k


def node_moves(ni, ek, node: int, base: int) -> np.ndarray:
    """The moves of node's edges, in order (int32): edge_move's, and DISABLED for a disabled edge.
    base: edge_base_of the board's geometry."""
    first, count = int(ni[node, FIRST]), int(ni[node, COUNT])
    moves = np.arange(base, base + count, dtype=np.int32)
    moves[count - 1] = PASS
    moves[ek[first:first + count] == K_DISABLED] = DISABLED
    return moves


def cycle_counts(meta) -> dict[str, int]:
    """Part name (CYCLE_PARTS) -> cycles its iterations spent there, from a tree's meta: all 0 unless
    the kernels were built for profiling (jit.PROFILE)."""
    return {name: int(meta[CYCLES + k]) for k, name in enumerate(CYCLE_PARTS)}


def playout_stones(meta) -> int:
    """Stones the tree's playouts played, from its meta (profiling builds; else 0)."""
    return int(meta[PLAYOUT_STONES])


def new_tree(max_nodes: int, max_edges: int):
    """Empty tree arrays (ni, nh, ei, ef, ek, meta) with the given capacities."""
    ni = np.zeros((max_nodes, 5), dtype=np.int32)
    nh = np.zeros(max_nodes, dtype=np.uint64)
    ei = np.zeros((1, max_edges), dtype=np.int32)
    ef = np.zeros((4, max_edges), dtype=np.float32)
    ek = np.zeros(max_edges, dtype=np.uint8)
    meta = np.zeros(META_SIZE, dtype=np.int64)
    return ni, nh, ei, ef, ek, meta


# ---------------------------------------------------------------- priors

# prior kinds: what Go knowledge says of a move, and the prior it earns (KIND_WEIGHT * params[P_PRIOR]
# virtual visits winning KIND_VALUE of them). With the rules' prior (params[P_KNOWLEDGE] == RULES) an
# edge gets one of the first ten; with the learned prior (LEARNED) a move gets K_LEARNED + j, where
# j = round(LEARNED_SCALE * sqrt(pi)) (at most LEARNED_LEVELS - 1) for pi, the share of its gamma
# (features.py) among the node's moves: n0 virtual visits at 0.5 and n0 * j virtual wins, the
# shape of Pachi's pattern prior (whose ratio of pattern to even prior is 15 too). Every weight
# is a whole number, so that real visits stay exact (real_stats).
K_PLAIN, K_PASS, K_CAPTURE, K_SAVE, K_RISKY, K_NEAR, K_PATTERN, K_LINE0, K_LINE1, K_DISABLED = range(10)
K_LEARNED = 10
LEARNED_LEVELS = 16
LEARNED_SCALE = 15.0
KIND_NAMES = ("plain", "pass", "capture", "save", "self-atari", "near last move", "pattern",
              "empty first line", "empty second line", "disabled") + tuple(
              f"learned {j}" for j in range(LEARNED_LEVELS))
KIND_WEIGHT = np.array([1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 0.0]
                       + [1.0 + j for j in range(LEARNED_LEVELS)])
KIND_VALUE = np.array([0.5, 0.1, 0.9, 0.8, 0.2, 0.6, 0.7, 0.3, 0.45, 0.0]
                      + [(0.5 + j) / (1.0 + j) for j in range(LEARNED_LEVELS)])
RULES, LEARNED = 0, 1  # params[P_KNOWLEDGE]
KNOWLEDGE = ("rules", "learned")  # names, indexed by id


@inline
def prior_visits(kind, n0):
    """The prior's virtual (visits, wins) for an edge of this kind, n0 = params[P_PRIOR]."""
    n = n0 * KIND_WEIGHT[kind]
    return n, n * KIND_VALUE[kind]


# the rules' prior kind of each tactics feature (features.T_*): an atari is plain here
_TACTICS_KIND = np.array([K_PLAIN, K_CAPTURE, K_CAPTURE, K_SAVE, K_PLAIN, K_RISKY, K_RISKY])  # (no ladders read)


@inline
def prior(s, z, p, c, last, params, table):
    """The kind of prior (K_*) Go knowledge gives c playing p in position s: captures, atari
    escapes, self-atari, the neighbourhood of the last move (with the heavy policy, a move there
    matching one of its 3x3 patterns), an empty edge far from stones."""
    if p == PASS:
        return K_PASS
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    kind = K_PLAIN
    if not bk.no_stone_beside(s, P, p):  # tactics need a stone beside p
        kind = _TACTICS_KIND[fe.tactics(s, P, w, p, c)]
        if kind != K_PLAIN:
            return kind
    if last >= 0:
        prow, pcol = bk.row_col(s, p)
        lrow, lcol = bk.row_col(s, last)
        dr = abs(prow - lrow)
        dc = abs(pcol - lcol)
        if dr <= 1 and dc <= 1:
            kind = K_NEAR
            if params[P_POLICY] == HEAVY and matches_pattern(s, p, c, table):
                kind = K_PATTERN
    # an empty first or second line far from stones is a poor move in the opening
    n = s[bk.M_SIZE]
    line = fe.line_of(s, p)
    if line <= 1 and n >= 7 and fe.empty_square(s, z, p):
        kind = K_LINE0 if line == 0 else K_LINE1
    return kind


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
def _gamma_into(s, z, zob, ls, lz, c, ef, e, p, row, near, gammas, lrow, lcol, l2row, l2col):
    """Edge e of point p gets its learned gamma in its AW field (free until _learned_kinds). row and near:
    the row whose stones_near `near` holds (-1: none yet); the last two moves at (lrow, lcol) and
    (l2row, l2col) (features.place_of); returns (gamma, p's row, its stones_near)."""
    prow, pcol = bk.row_col(s, p)
    if prow != row:
        row = prow
        near = fe.stones_near(s, z, row)
    g = fe.gamma_at(s, z, zob, ls, lz, p, c, gammas, near, prow, pcol, lrow, lcol, l2row, l2col)
    ef[AW, e] = g
    return g, row, near


@inline
def _learned_kinds(ef, ek, first, last, n0, total):
    """Every enabled edge of first .. last - 1, its gamma in AW (_gamma_into) and `total` their sum,
    gets the learned prior's kind (K_LEARNED + j) and virtual visits; AW goes back to 0."""
    for e in range(first, last):
        if ek[e] == K_DISABLED:
            continue
        j = min(np.int64(LEARNED_SCALE * np.sqrt(ef[AW, e] / total) + 0.5), LEARNED_LEVELS - 1)
        kind = K_LEARNED + j
        n, w = prior_visits(kind, n0)
        ef[N, e] = n
        ef[W, e] = w
        ef[AW, e] = 0.0
        ek[e] = kind


@kernel
def expand(ni, nh, ei, ef, ek, meta, s, z, zob, ls, lz, c, moves, nmoves, params, table, gammas):
    """Create a node for position (s, z) with c to move; its enabled edges are `moves[:nmoves]` (no PASS
    among them) if nmoves >= 0, else c's playable points minus ko and suicides, and pass.
    table is the pattern table for the heavy policy's priors (policy.PATTERN_TABLE), gammas the
    learned prior's (features.GAMMAS); zob the board's Zobrist keys and (ls, lz) scratch shaped like
    (s, z), for the ladder reader. Returns the node, or -1 (and the full flag set) if the tree has no room."""
    P = s[bk.M_P]
    count = node_edges(s)
    if meta[NODES] >= ni.shape[0] or meta[EDGES] + count > ei.shape[1]:
        meta[FULL] = 1
        return -1
    n0 = params[P_PRIOR]
    node = meta[NODES]
    meta[NODES] = node + 1
    meta[CREATED] += 1
    first = meta[EDGES]
    meta[EDGES] = first + count
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
    # stones_near is read once a row), and become kinds once their sum is known (_learned_kinds)
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
                g, row, near = _gamma_into(s, z, zob, ls, lz, c, ef, at + p, p, row, near, gammas,
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
                        g, row, near = _gamma_into(s, z, zob, ls, lz, c, ef, at + p, p, row, near, gammas,
                                                   lrow, lcol, l2row, l2col)
                        ek[at + p] = K_PLAIN  # after the rating: its loads of s may reuse may_consider's
                        total += g
    if not rules:
        _learned_kinds(ef, ek, first, first + count - 1, n0, total)
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


# ---------------------------------------------------------------- one iteration

SCREEN_MARGIN = 1e-5  # far above the screen's float32 error (< 1e-6 on values in [-1, 1])


@fast_inline
def _estimate(n, w, an, aw, eq):
    """An edge's RAVE value (see select_edge) in float32 under fast math, to within 1e-6 (a
    reciprocal estimate and a Newton step for the division). A never-visited edge (N = AN = 0)
    gets 0.5."""
    a = w * (eq + an) + eq * aw
    b = n * (eq + an) + eq * an
    return (a + np.float32(0.5e-30)) / (b + np.float32(1e-30))


@fast_inline
def _screen(n_, w_, an_, aw_, equiv, values):
    """values[i] = the estimate (_estimate) of edge i of a node's edges' rows; returns the largest.
    One loop LLVM vectorises."""
    eq = np.float32(equiv)
    top = np.float32(-1e30)
    for i in range(n_.shape[0]):
        v = _estimate(n_[i], w_[i], an_[i], aw_[i], eq)
        values[i] = v
        top = screen_max(top, v)
    return top


@fast_inline
def _passing(values, count, bar):
    """(how many, sum of the offsets of) values[:count] that reach bar: one loop LLVM vectorises,
    which gives the offset itself when only one does. Counted in int32 lanes (count * count / 2 is
    at most 3e5), each sum cast back to int32 (numba widens int32 arithmetic to int64, which halves
    the lanes): 8 ns for 90 values here, against 11 for the float32 sums it replaced."""
    passed = np.int32(0)
    where = np.int32(0)
    for i in range(count):
        hit = np.int32(values[i] >= bar)
        passed = np.int32(passed + hit)
        where = np.int32(where + np.int32(np.int32(i) * hit))
    return np.int64(passed), np.int64(where)


@fast_inline
def _credit_and_screen(firstc, n_, w_, an_, aw_, color, result, equiv, values):
    """A node's AMAF update over its edges' rows, and _screen of the updated rows, in one pass LLVM
    vectorises: edge i, whose point's first player from here to the end of the iteration is
    firstc[i], gains an AMAF visit and `result` wins if that is `color` (the pass edge's point is
    a border point: firstc 0, never); values[i] = its estimate then. Returns the largest. The update
    is exact under fast math, which adds 0, 0.5 or 1 to whole numbers and halves."""
    c = np.int8(color)
    eq = np.float32(equiv)
    top = np.float32(-1e30)
    for i in range(an_.shape[0]):
        hit = np.float32(firstc[i] == c)
        an = an_[i] + hit
        aw = aw_[i] + hit * result
        an_[i] = an
        aw_[i] = aw
        v = _estimate(n_[i], w_[i], an, aw, eq)
        values[i] = v
        top = screen_max(top, v)
    return top


@inline
def _exact_value(ef, e, equiv):
    """Edge e's RAVE value as a fraction (a, b), b > 0, in float64 (see select_edge)."""
    n = np.float64(ef[N, e])
    an = np.float64(ef[AN, e])
    if n + an > 0:
        return ef[W, e] * (equiv + an) + equiv * ef[AW, e], n * (equiv + an) + equiv * an
    return 0.5, 1.0


@kernel
def select_edge(ni, ef, node, equiv, values):
    """The edge of `node` with the highest RAVE value (disabled edges never); -1 if none.
    values: float32 scratch at least as long as the node's edges."""
    first = np.int64(ni[node, FIRST])
    count = np.int64(ni[node, COUNT])
    last = first + count
    top = _screen(ef[N, first:last], ef[W, first:last], ef[AN, first:last], ef[AW, first:last], equiv, values)
    return _pick(ef, first, count, equiv, values, top)


@inline
def _pick(ef, first, count, equiv, values, top):
    """select_edge's choice among edges first .. first + count - 1, given their screen: values, the
    estimates (_screen), and top, the largest."""
    # (1 - beta) * W/N + beta * AW/AN with beta = AN / (AN + N + AN * N / equiv) is a / b with
    # a = W * (equiv + AN) + equiv * AW and b = N * (equiv + AN) + equiv * AN. An edge beats the best
    # so far when a * best_b > best_a * b, exactly (ties keep the first edge). A vectorised pass
    # estimates every value, to within 1e-6, and their maximum first, so every edge of the best exact
    # value has an estimate within 2e-6 of that maximum: only the edges within SCREEN_MARGIN of it
    # are compared exactly, in order, and the choice is the exact one. Mostly one edge passes, and a
    # second vectorised pass gives its offset. Real values lie in [0, 1] and a disabled edge's is -1
    # (see disable): a choice must beat -0.5. So an edge that passes alone is real, beats -0.5 and
    # is the choice, with no exact comparison (8 ns a node of 90 edges).
    bar = max(top - np.float32(SCREEN_MARGIN), np.float32(-0.5))
    passed, where = _passing(values, count, bar)
    if passed == 1:
        return first + where
    hi = count if passed > 1 else 0
    best = -1
    best_a = -0.5
    best_b = 1.0
    for i in range(hi):
        if values[i] >= bar:
            a, b = _exact_value(ef, first + i, equiv)
            if a * best_b > best_a * b:
                best_a = a
                best_b = b
                best = first + i
    return best


@inline
def _keep_best(ni, node, e):
    """Keep edge e (-1: none) as the node's BEST, an offset from its first edge (-1 for none)."""
    ni[node, BEST] = e - ni[node, FIRST] if e >= 0 else -1


@inline
def _rank(ni, ef, node, equiv, values):
    """select_edge, kept as the node's BEST."""
    e = select_edge(ni, ef, node, equiv, values)
    _keep_best(ni, node, e)
    return e


@inline
def _best_edge(ni, ef, node, equiv, values):
    """select_edge, known since the node's last update (ni's BEST) or found now and kept."""
    best = ni[node, BEST]
    if best >= 0:
        return np.int64(ni[node, FIRST]) + best
    return _rank(ni, ef, node, equiv, values)


@kernel
def select_uct(ni, ei, ef, ek, node, params):
    """select_edge with an exploration term params[P_UCT] * sqrt(log(visits + 1) / (real visits + 1))."""
    equiv = params[P_EQUIV]
    c_uct = params[P_UCT]
    n0 = params[P_PRIOR]
    first = ni[node, FIRST]
    log_visits = np.log(ni[node, VISITS] + 1.0)
    best = -1
    best_value = -1e300
    for e in range(first, first + ni[node, COUNT]):
        if ek[e] == K_DISABLED:  # its value is -1, but the exploration term could lift it
            continue
        n = ef[N, e]
        an = ef[AN, e]
        r = equiv / (equiv + an)
        q = (ef[W, e] + r * ef[AW, e]) / (n + r * an) if n + an > 0 else 0.5
        q += c_uct * np.sqrt(log_visits / (n - prior_visits(ek[e], n0)[0] + 1.0))
        if q > best_value:
            best_value = q
            best = e
    return best


@kernel
def run_iterations(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                   values, owners, ownership, scores, rng, params, table, gammas, replies, count):
    """iterate with the built-in playout policies (params[P_POLICY]); see iterate."""
    return iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                   values, owners, ownership, scores, rng, params, table, gammas, replies, count, choose, False)


_CUSTOM_ITERATIONS: dict = {}


def custom_iterations(policy):
    """run_iterations for a custom playout policy (playout.custom_batch says what one is), compiled on
    first use; it returns -1 when the policy chose a point it may not take."""
    kernel_ = _CUSTOM_ITERATIONS.get(policy)
    if kernel_ is not None:
        return kernel_
    checked = checked_chooser(policy)

    @uncached_nogil
    def kernel_(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                values, owners, ownership, scores, rng, params, table, gammas, replies, count):
        return iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, s, z, ls, lz, trace, tstart, path, firstc,
                       values, owners, ownership, scores, rng, params, table, gammas, replies, count, checked, True)

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
            owners, ownership, scores, rng, params, table, gammas, replies, count, chooser, full):
    """Run `count` search iterations from the root position (root_s, root_z) on the tree, playing
    out with the policy params[P_POLICY] (table: policy.PATTERN_TABLE) and growing nodes with the prior
    params[P_KNOWLEDGE] (gammas: features.GAMMAS). With a replies table (int32[2, P], -1 for none;
    playout.NO_REPLIES's shape for none) the playouts play last good replies, which each iteration
    updates (learn_replies).

    Scratch arrays: s, z and ls, lz (board copies: the iteration's, the ladder reader's), trace (int32,
    >= cap + depth), tstart and path (int64[depth]), firstc (int8[P], zeros), values (float32[P + 1]),
    owners (int8[P]). ownership (float64[P]) accumulates
    final owners (+1 black, -1 white) on one iteration in OWNERSHIP_EVERY. scores (float64[root
    edges, 3]) accumulates, per root edge, the iterations through it and the sum and sum of squares
    of their final margins (black's area score less komi). full: the playouts keep the hash and the
    empty set (play_out_with; False only with the built-in choose: the tree's own moves always do,
    and each iteration starts from a fresh copy of the root). Returns the number of iterations run
    (fewer if the tree is empty; -1 if a custom policy's chooser broke the rule)."""
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
            e = select_uct(ni, ei, ef, ek, node, params) if uct else _best_edge(ni, ef, node, equiv, values)
            if e < 0 or depth >= max_depth:
                break
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
                if ef[N, e] - prior_visits(ek[e], n0)[0] + 1 >= expand_at:  # real visits + this one
                    started = _clock()
                    child = expand(ni, nh, ei, ef, ek, meta, s, z, zob, ls, lz, color, trace, -1, params, table,
                                   gammas)
                    _charge(meta, C_EXPANSION, started)
                    ei[CHILD, e] = child
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
            ni[node, VISITS] += 1
            e = path[d]
            result = black_result if mover == bk.BLACK else 1.0 - black_result
            ef[N, e] += 1.0
            ef[W, e] += result
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
            top = _credit_and_screen(firstc[base:base + width], ef[N, first:last], ef[W, first:last],
                                     ef[AN, first:last], ef[AW, first:last], pcolor, np.float32(result), equiv,
                                     values)
            # its statistics changed only here (see BEST)
            _keep_best(ni, parent, _pick(ef, first, width, equiv, values, top))
        firstc[:] = 0  # a memset: cheaper than clearing the trace's points one by one
        _charge(meta, C_AMAF, clock)
    return count
