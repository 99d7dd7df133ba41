"""Choosing in the tree: the RAVE value of an edge, the node's best edge, and the screens that find it fast.

Selection maximises the RAVE blend (1 - beta) * Q + beta * Q_amaf, with
beta = AN / (AN + N + AN * N / equiv) (Gelly and Silver; Fuego's form), plus an
optional UCT term (select_uct). Priors are virtual visits counted inside N and W
(tree_layout.prior_visits), so they need no term of their own. With criticality
(params[P_CRIT] = k > 0; Coulom 2009, Pachi's crit_rave) an edge whose child has
more than params[P_CRIT_MIN] visits counts k * crit * AN more AMAF visits, all won
(crit_gain; its AMAF wins never below 0), where crit is the covariance-like
measure of how much owning the move's point at the end goes with winning.

The AMAF update and the screen of a node's edges are one vectorised pass
(`credit_and_screen`), which tree.iterate runs at each node of an iteration's
path; the node keeps its best edge (BEST), which the next descent reads.
"""

from __future__ import annotations

import numpy as np

from .intrinsics import screen_max
from .jit import fast_inline, inline, kernel
from .tree_layout import (
    AN,
    AW,
    BEST,
    CHILD,
    COUNT,
    CRIT_BO,
    CRIT_BW,
    CRIT_N,
    CRIT_WO,
    FIRST,
    K_DISABLED,
    P_CRIT,
    P_CRIT_MIN,
    P_EQUIV,
    P_PRIOR,
    P_UCT,
    VISITS,
    N,
    W,
    prior_visits,
)

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
def credit_and_screen(firstc, n_, w_, an_, aw_, color, result, equiv, values):
    """A node's AMAF update over its edges' rows, and _screen of the updated rows, in one pass LLVM
    vectorises: edge i, whose point's first player from here to the end of the iteration is
    firstc[i], gains an AMAF visit and `result` wins if that is `color` (the pass edge's point is
    a border point: firstc 0, never); values[i] = its estimate then. Returns the largest. Without a
    score weight (tree_score.playout_result) the update is exact under fast math, which adds 0, 0.5 or 1
    to whole numbers and halves; with one, a result's rounding is the stored value's, which the
    screen and the exact comparison (pick) both read."""
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


CRIT_FLOOR = -0.9  # crit_gain's least value: an edge keeps a tenth of its AMAF visits at the worst


@inline
def crit_gain(ni, child, coef, least):
    """coef times the criticality of the move that reached `child` (-1: none) once the child has more
    than `least` visits, else 0: crit = P(the point's owner won) - (P(black owned it) * P(black won)
    + P(white owned it) * P(white won)), from its CRIT_* counts (twice the covariance of owning the
    point and winning, when a point has an owner). Never below CRIT_FLOOR."""
    if coef == 0.0 or child < 0 or ni[child, VISITS] <= least or ni[child, CRIT_N] == 0:
        return 0.0
    n = np.float64(ni[child, CRIT_N])
    wo = ni[child, CRIT_WO] / n
    bo = ni[child, CRIT_BO] / n
    bw = ni[child, CRIT_BW] / n
    return max(coef * (wo - (2.0 * bo * bw - bo - bw + 1.0)), CRIT_FLOOR)


@inline
def _with_crit(an, aw, gain):
    """AMAF (visits, wins) with criticality's `gain` (crit_gain) counted in: gain * an more visits,
    all won, and wins never below 0. gain 0 leaves both exactly as they are."""
    return an * (1.0 + gain), max(aw + gain * an, 0.0)


@inline
def _exact_value(ef, e, equiv, gain):
    """Edge e's RAVE value as a fraction (a, b), b > 0, in float64 (see select_edge), with
    criticality's gain (crit_gain; 0: none)."""
    n = np.float64(ef[N, e])
    an, aw = _with_crit(np.float64(ef[AN, e]), np.float64(ef[AW, e]), gain)
    if n + an > 0:
        return ef[W, e] * (equiv + an) + equiv * aw, n * (equiv + an) + equiv * an
    return 0.5, 1.0


@inline
def crit_screen(ni, ei, ef, first, count, equiv, values, coef, least):
    """_screen's values of edges first .. first + count - 1 again for the edges with a criticality
    gain (crit_gain); returns the largest value. A scalar pass, for nodes with more than `least`
    visits only (the edges' children have fewer). An edge's N (its visits and prior) is at least its
    child's visits, so an edge with N <= least is passed by without reading its child."""
    eq = np.float32(equiv)
    top = np.float32(-1e30)
    for i in range(count):
        gain = 0.0
        if ef[N, first + i] > least:
            gain = crit_gain(ni, ei[CHILD, first + i], coef, least)
        if gain != 0.0:
            an, aw = _with_crit(ef[AN, first + i], ef[AW, first + i], np.float32(gain))
            values[i] = _estimate(ef[N, first + i], ef[W, first + i], an, aw, eq)
        top = max(top, values[i])
    return top


@kernel
def select_edge(ni, ei, ef, node, equiv, values, coef, least):
    """The edge of `node` with the highest RAVE value (disabled edges never), with criticality's
    weight coef counted for edges whose child has more than `least` visits (coef 0: none); -1 if none.
    values: float32 scratch at least as long as the node's edges."""
    first = np.int64(ni[node, FIRST])
    count = np.int64(ni[node, COUNT])
    last = first + count
    top = _screen(ef[N, first:last], ef[W, first:last], ef[AN, first:last], ef[AW, first:last], equiv, values)
    if coef != 0.0 and ni[node, VISITS] > least:
        top = crit_screen(ni, ei, ef, first, count, equiv, values, coef, least)
    return pick(ni, ei, ef, first, count, equiv, values, top, coef, least)


@inline
def pick(ni, ei, ef, first, count, equiv, values, top, coef, least):
    """select_edge's choice among edges first .. first + count - 1, given their screen: values, the
    estimates (_screen, and crit_screen with criticality), and top, the largest."""
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
            a, b = _exact_value(ef, first + i, equiv, crit_gain(ni, ei[CHILD, first + i], coef, least))
            if a * best_b > best_a * b:
                best_a = a
                best_b = b
                best = first + i
    return best


@inline
def keep_best(ni, node, e):
    """Keep edge e (-1: none) as the node's BEST, an offset from its first edge (-1 for none)."""
    ni[node, BEST] = e - ni[node, FIRST] if e >= 0 else -1


@inline
def _rank(ni, ei, ef, node, equiv, values, coef, least):
    """select_edge, kept as the node's BEST."""
    e = select_edge(ni, ei, ef, node, equiv, values, coef, least)
    keep_best(ni, node, e)
    return e


@inline
def best_edge(ni, ei, ef, node, equiv, values, coef, least):
    """select_edge, known since the node's last update (ni's BEST) or found now and kept."""
    best = ni[node, BEST]
    if best >= 0:
        return np.int64(ni[node, FIRST]) + best
    return _rank(ni, ei, ef, node, equiv, values, coef, least)


@kernel
def select_uct(ni, ei, ef, ek, node, params):
    """select_edge with an exploration term params[P_UCT] * sqrt(log(visits + 1) / (real visits + 1))."""
    equiv = params[P_EQUIV]
    c_uct = params[P_UCT]
    n0 = params[P_PRIOR]
    coef = params[P_CRIT]
    least = params[P_CRIT_MIN]
    first = ni[node, FIRST]
    log_visits = np.log(ni[node, VISITS] + 1.0)
    best = -1
    best_value = -1e300
    for e in range(first, first + ni[node, COUNT]):
        if ek[e] == K_DISABLED:  # its value is -1, but the exploration term could lift it
            continue
        n = ef[N, e]
        an, aw = _with_crit(np.float64(ef[AN, e]), np.float64(ef[AW, e]), crit_gain(ni, ei[CHILD, e], coef, least))
        r = equiv / (equiv + an)
        q = (ef[W, e] + r * aw) / (n + r * an) if n + an > 0 else 0.5
        q += c_uct * np.sqrt(log_visits / (n - prior_visits(ek[e], n0)[0] + 1.0))
        if q > best_value:
            best_value = q
            best = e
    return best

