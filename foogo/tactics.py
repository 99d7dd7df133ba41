"""Self-atari: whether a stone at an empty point would leave its own string with one liberty.

The heavy playouts never play such a move for a string of two stones or more (policy_heavy.py), the
ladder reader asks it of the runner's extensions (ladders.py) and the learned prior reads it as a
move feature (features.py).
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline


@inline
def self_atari(s, p, c):
    """True if a c stone at empty p would leave its string with at most one liberty and capture nothing."""
    P = bk.stride(s)
    if bk.empty_neighbours(s, P, p) >= 2:  # two liberties of its own: one load, not four branches
        return False
    w = np.int64(s[bk.M_W])
    lib1 = -1  # the one liberty found so far; a second distinct one ends the test
    for q in (p - w, p - 1, p + 1, p + w):
        cq = bk.color_at(s, P, q)
        other_lib = -1
        if cq == bk.EMPTY:
            other_lib = q
        elif cq == c:
            g = bk.head_of(s, P, q)
            if not bk.string_in_atari(s, P, g):  # p is not its only liberty: count the others
                count, other_lib = bk.other_liberties(s, P, w, g, p)
                if count >= 2:
                    return False
        elif cq == 3 - c and bk.string_in_atari(s, P, bk.head_of(s, P, q)):
            return False
        if other_lib >= 0:
            if lib1 < 0:
                lib1 = other_lib
            elif other_lib != lib1:
                return False
    return True


@inline
def big_self_atari(s, p, c):
    """True if c at empty p is a self-atari (see self_atari) of a string of two stones or more."""
    return bk.stones_beside(s, bk.stride(s), p, c) > 0 and self_atari(s, p, c)
