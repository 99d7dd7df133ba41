"""Self-atari: whether a stone at an empty point would leave its own string with one liberty; and the
false-eye seki, a move that is no self-atari and still gives a group away.

The heavy playouts never play such a move for a string of two stones or more (policy_heavy.py), the
ladder reader asks it of the runner's extensions (ladders.py) and the learned prior reads it as a
move feature (features.py). With policy_heavy.FALSE_EYE_SEKI they do not break a false-eye seki
either (breaks_false_eye_seki).
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


@inline
def breaks_false_eye_seki(s, p, c):
    """True if c at empty p fills its own false eye in a false-eye seki: p's neighbours are c's stones or the
    edge, in exactly two strings, each with p and one more liberty (l1, l2, not the same), and the stones
    of the other colour beside l1 are one string whose liberties are l1 and l2. Filling p joins the two
    strings on l1 and l2, the inside string's own liberties, and the inside string then takes them (Pachi's
    breaking_false_eye_seki; the playable rule lets c fill p, since a false eye is no eye)."""
    P = bk.stride(s)
    if bk.empty_neighbours(s, P, p) != 0 or bk.stones_beside(s, P, p, 3 - c) != 0:
        return False  # not c's eye shape: one load of p's packed counts decides most draws
    w = np.int64(s[bk.M_W])
    g1 = g2 = l1 = l2 = -1
    for q in (p - w, p - 1, p + 1, p + w):
        if bk.color_at(s, P, q) != c:  # the edge
            continue
        g = bk.head_of(s, P, q)
        if g == g1 or g == g2:
            continue
        count, lib = bk.other_liberties(s, P, w, g, p)
        if count != 1 or g2 >= 0:  # a string with other liberties than p and one more, or a third string
            return False
        if g1 < 0:
            g1, l1 = g, lib
        else:
            g2, l2 = g, lib
    if g2 < 0 or l1 == l2:
        return False
    inside = -1
    for q in (l1 - w, l1 - 1, l1 + 1, l1 + w):
        if bk.color_at(s, P, q) != 3 - c:
            continue
        g = bk.head_of(s, P, q)
        if g == inside:
            continue
        if inside >= 0:
            return False  # two strings of the other colour beside l1
        count, lib = bk.other_liberties(s, P, w, g, l1)
        if count != 1 or lib != l2:
            return False
        inside = g
    return inside >= 0
