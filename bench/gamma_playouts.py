"""Playouts that draw each move in proportion to the learned prior's gammas: a prototype, to judge before
building a fast one whether such playouts predict games better than the heavy policy's rules.

    PYTHONPATH=bench python bench/policy_diff.py DIRS --out FILE \
        --policies heavy-nakade gamma_playouts:gamma gamma_playouts:gamma_half ...

Each policy here is a custom playout policy (policy.py's seam, `foogo bench --policy MODULE:FUNCTION`): at
every move it rates each point the mover may take (playable(c) minus the ko point) by the product of its
learned gammas (features.py's groups: its 3x3 pattern, tactics class with nakade as T_NAKADE but ladders
unread, distances to the last two moves, line), raised to a power (a temperature: 1 draws as the fit's
model of Pachi's moves does, 0.5 flattens it), and draws one point in proportion to those weights: a
softmax policy in Coulom's sense (2007, "Computing Elo ratings of move patterns in the game of Go"), as
Crazy Stone and Erica played them. The spatial patterns are left out, as the playouts of those programs
did.

What it is not: a fast policy. It rates every allowed point twice at every move (about 40 points a move
on 9x9, some 100 cycles each: once for the total, once for the draw), 5,000 playouts a CPU second, some 14
times slower than heavy; a fast one would keep each
point's weight and update only the points around the last move and captures. Nor is it a trained
playout policy: the gammas were fitted to Pachi's moves in the tree's candidates, not balanced for
simulation (Huang, Coulom and Lin, 2010), so a policy that imitates strong moves may still judge
positions badly; the Brier score is the test.

Judged (2026-12-04, bench/results/gamma-playouts-brier-2026-12-04.txt): on 150 games out of the gammas'
sample these playouts predict the results worse than heavy-nakade's rules (Brier +0.019 at moves 30-49, +0.003
to +0.035), and flatter ones (power 0.5) worse still; kept as the reproducer of that result.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from foogo import board_kernels as bk
from foogo import features as fe
from foogo.gamma_table import GROUP_GAMMAS
from foogo.policy_light import PASS, allowed_at
from foogo.random_stream import random_below
from foogo.spatial_patterns import mover_code

UNIT = 1 << 30  # a uniform draw in [0, 1) as random_below(rng, UNIT) / UNIT
P_PATTERN, P_TACTICS, P_LAST, P_LAST2, P_LINE = fe.OFFSETS


def gamma_policy(power: float = 1.0, table: np.ndarray = GROUP_GAMMAS):
    """A custom playout policy that draws each allowed point with chance proportional to the product of
    its features' gammas in `table` (load_gammas' layout), each raised to `power`."""
    weights = np.asarray(table, dtype=np.float64) ** power

    @njit
    def rate(s, z, c, p, P, w, size, lrow, lcol, l2row, l2col):
        row, col = bk.row_col(s, p)
        g = weights[P_PATTERN + mover_code(s, p, c)]
        g *= weights[P_TACTICS + fe.tactics(s, P, w, p, c, True)]
        g *= weights[P_LAST + fe.distance_between(row, col, lrow, lcol)]
        g *= weights[P_LAST2 + fe.distance_between(row, col, l2row, l2col)]
        return g * weights[P_LINE + fe.line_feature_at(size, row, col, fe.stones_near(s, z, row))]

    @njit
    def choose(s, z, c, rng, _table):
        # two passes over the allowed points, the second rating them again, as the playout kernels
        # allocate nothing: the total, then the point where the running sum passes the draw
        ko = bk.ko_point_for(s, c)
        n = np.int64(s[bk.M_EMPTIES])
        P = bk.stride(s)
        w = np.int64(s[bk.M_W])
        size = np.int64(s[bk.M_SIZE])
        lrow, lcol = fe.place_of(s, np.int64(s[bk.M_LAST]))
        l2row, l2col = fe.place_of(s, np.int64(s[bk.M_LAST2]))
        total = 0.0
        for i in range(n):
            p = bk.empty_point(s, i)
            if allowed_at(s, p, c, ko):
                total += rate(s, z, c, p, P, w, size, lrow, lcol, l2row, l2col)
        if total <= 0.0:
            return PASS
        r = random_below(rng, UNIT) / UNIT * total
        chosen = PASS
        for i in range(n):
            p = bk.empty_point(s, i)
            if allowed_at(s, p, c, ko):
                chosen = p
                r -= rate(s, z, c, p, P, w, size, lrow, lcol, l2row, l2col)
                if r < 0.0:
                    break
        return chosen

    return choose


gamma = gamma_policy(1.0)
gamma_half = gamma_policy(0.5)
