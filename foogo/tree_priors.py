"""What Go knowledge gives a new node's edges: the kind (and so the prior) of each move.

Two kinds of knowledge (params[P_KNOWLEDGE]). RULES: hand-written rules (captures, atari
escapes, self-atari, the neighbourhood of the last move, empty edges), in `prior`; with the
heavy policy (params[P_POLICY], see policy_heavy.py) a move matching one of the policy's 3x3
patterns next to the last move also counts. LEARNED: each move's share of the gammas of
features.py, fitted to games (`gamma_into`, `learned_kinds`, K_LEARNED). tree.expand calls
them for every candidate of a node it creates; what a kind is worth is tree_layout's
(prior_visits).
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from . import features as fe
from .jit import inline
from .patterns import matches_pattern
from .policy import HEAVY, HEAVY_NAKADE, LIGHT
from .tree_layout import (
    AW,
    K_CAPTURE,
    K_DISABLED,
    K_LEARNED,
    K_LINE0,
    K_LINE1,
    K_NEAR,
    K_PASS,
    K_PATTERN,
    K_PLAIN,
    K_RISKY,
    K_SAVE,
    LEARNED_FLOOR,
    LEARNED_LEVELS,
    LEARNED_SCALE,
    P_POLICY,
    PASS,
    N,
    W,
    prior_visits,
)


@inline
def tells_nakade(params, learned):
    """Whether a prior (the learned one, else the rules') tells a nakade (a self-atari that kills,
    features.tactics' `sacrifices`) from the other self-ataris: the learned prior with every heavy
    policy, whose playouts avoid the sacrifice (policy_heavy.py's (d) and (e)), so that the tree finds the
    ones that kill, rated by their own fitted gamma (features.T_NAKADE; measured against Pachi:
    bench/RESULTS.md, "The nakade prior becomes the default", "A nakade class of its own"); the
    rules' prior with the heavy-nakade policy only, as it was measured, which rates one as an atari."""
    if learned:
        return params[P_POLICY] != LIGHT
    return params[P_POLICY] == HEAVY_NAKADE


# the rules' prior kind of each tactics feature (features.T_*): an atari is plain here, and so is a nakade (as
# an atari); T_SAVE_LADDERED never comes (prior reads no ladders)
_TACTICS_KIND = np.array([K_PLAIN, K_CAPTURE, K_CAPTURE, K_SAVE, K_PLAIN, K_RISKY, K_RISKY, K_SAVE, K_PLAIN])


@inline
def prior(s, z, p, c, last, params, table):
    """The kind of prior (K_*) Go knowledge gives c playing p in position s: captures, atari
    escapes, self-atari (with the heavy-nakade policy, not a nakade), the neighbourhood of the last
    move (with the heavy policies, a move there matching one of their 3x3 patterns), an empty edge far
    from stones."""
    if p == PASS:
        return K_PASS
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    kind = K_PLAIN
    if not bk.no_stone_beside(s, P, p):  # tactics need a stone beside p
        kind = _TACTICS_KIND[fe.tactics(s, P, w, p, c, tells_nakade(params, False))]
        if kind != K_PLAIN:
            return kind
    if last >= 0:
        prow, pcol = bk.row_col(s, p)
        lrow, lcol = bk.row_col(s, last)
        dr = abs(prow - lrow)
        dc = abs(pcol - lcol)
        if dr <= 1 and dc <= 1:
            kind = K_NEAR
            if params[P_POLICY] >= HEAVY and matches_pattern(s, p, c, table):
                kind = K_PATTERN
    # an empty first or second line far from stones is a poor move in the opening
    n = s[bk.M_SIZE]
    line = fe.line_of(s, p)
    if line <= 1 and n >= 7 and fe.empty_square(s, z, p):
        kind = K_LINE0 if line == 0 else K_LINE1
    return kind


@inline
def gamma_into(s, z, zob, ls, lz, c, ef, e, p, row, near, gammas, parts, lrow, lcol, l2row, l2col, sacrifices,
               codes):
    """Edge e of point p gets its learned gamma in its AW field (free until _learned_kinds). row and near:
    the row whose stones_near `near` holds (-1: none yet); parts: features.fill_open_parts of gammas, which
    rate an open point (features.open_gamma); the last two moves at (lrow, lcol) and (l2row, l2col)
    (features.place_of); sacrifices: a nakade is rated as one, features.T_NAKADE (tells_nakade); codes[p]:
    p's SPATIAL code for c (spatial_patterns.spatial_code_at) if p is not open.
    Returns (gamma, p's row, its stones_near)."""
    row, col, near = fe.row_near(s, z, p, row, near)
    if fe.open_column(near, col):
        g = fe.open_gamma(parts, p, gammas, row, col, lrow, lcol, l2row, l2col)
    else:
        g = fe.gamma_of_code(s, z, zob, ls, lz, p, c, gammas, near, row, col, lrow, lcol, l2row, l2col, sacrifices,
                             codes[p])
    ef[AW, e] = g
    return g, row, near


@inline
def learned_kinds(ef, ek, first, last, n0, total):
    """Every enabled edge of first .. last - 1, its gamma in AW (gamma_into) and `total` their sum,
    gets the learned prior's kind (K_LEARNED + j) and virtual visits; AW goes back to 0. Shares are
    of max(total, LEARNED_FLOOR)."""
    total = max(total, LEARNED_FLOOR)
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

