"""Playouts checked after every move: the board's consistency check and the playout rule, move by move.

The tests' and `foogo compile`'s way of showing that a policy keeps the card's rule (it picks only
playable points, never the ko point) and that the incremental board stays what a recount from
scratch gives (board_check.check) through whole playouts, from any position, with any built-in policy.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import jit_nogil
from .patterns import PATTERN_TABLE
from .policy import PASS, choose, policy_id
from .policy_heavy import SELF_ATARI_REJECT_PERMIL
from .random_stream import seed_rng

CHOSE_UNPLAYABLE, CHOSE_KO = 100, 101  # checked_playouts: the chooser broke the card's rule


def checked_playouts(s0, z0, zob, seed, count, cap, policy: str = "light"):
    """Run `count` playouts calling bk.check after every move; return (0, 0, 0) or the first
    failure as (problem code, playout index, move number): a bk.check code, CHOSE_UNPLAYABLE
    or CHOSE_KO."""
    return _checked_playouts(s0, z0, zob, seed, count, cap, policy_id(policy), PATTERN_TABLE)


@jit_nogil
def _checked_playouts(s0, z0, zob, seed, count, cap, policy, table):
    s = s0.copy()
    z = z0.copy()
    rng = np.zeros(1, dtype=np.uint64)
    for i in range(count):
        s[:] = s0
        z[:] = z0
        seed_rng(rng, seed, i)
        c = np.int64(s[bk.M_TO_MOVE])
        passes = 0
        for move in range(cap):
            p = choose(s, z, c, rng, policy, SELF_ATARI_REJECT_PERMIL, table)
            if p == PASS:
                bk.play_pass(s, c)
                passes += 1
                if passes == 2:
                    break
            else:
                if not bk.is_playable(s, p, c):
                    return CHOSE_UNPLAYABLE, i, move
                if p == bk.ko_point_for(s, c):
                    return CHOSE_KO, i, move
                bk.play(s, z, zob, p, c)
                passes = 0
            code, _ = bk.check(s, z, zob)
            if code != bk.CHECK_OK:
                return code, i, move
            c = 3 - c
    return 0, 0, 0
