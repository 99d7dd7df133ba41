"""The light playout policy: a point drawn uniformly from the points a colour may take.

`choose_light(s, z, c, rng)` returns a padded point of playable(c) minus the ko point, or PASS when
that set is empty, so it never fills its own eye and takes the opponent's eye-like points only to
capture. It is the card's and the benchmark's policy, and the heavy policy's last rule draws with it.
It draws from the board's list of empty points and rejects (and stops drawing) those c may not take,
so the choice is exactly uniform. `allowed` is the same test for any point, which the heavy rules
check every candidate against.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline
from .random_stream import random_below

PASS = bk.PASS

LIGHT_REJECTIONS = 16  # choose_light's stage 1 gives way to stage 2 after this many


@inline
def allowed_at(s, p, c, ko):
    """True if c may take empty point p in a playout: playable(c) and not the ko point."""
    return p != ko and bk.playable_at(s, p, c)


@inline
def _pick_allowed(s, c, ko, rng, window):
    """Stage 2 of choose_light: one of the allowed points among entries 0 .. window - 1 of the
    empty list, drawn uniformly (r below their number picks the r-th in list order), or PASS."""
    n = 0
    for i in range(window):
        n += allowed_at(s, bk.empty_point(s, i), c, ko)
    if n == 0:
        return PASS
    r = random_below(rng, n)
    for i in range(window):
        p = bk.empty_point(s, i)
        if allowed_at(s, p, c, ko):
            if r == 0:
                return p
            r -= 1
    return PASS  # not reached


@inline
def choose_light(s, z, c, rng):
    """A point drawn uniformly from playable(c) minus the ko point (the allowed points), or PASS
    if there is none. Exactly uniform, by rejection sampling over the list of empty points
    (board_kernels' EMPTIES; its order is arbitrary but fixed by the position's history):
      1. r drawn below the size of a window, at first the whole list, picks entry r; if c may
         not take it (its own eye, the opponent's eye where c does not capture, the ko point)
         it is swapped to the window's end, the window shrinks by one and the draw repeats.
         Each draw is uniform over a window that always holds every allowed point.
      2. after LIGHT_REJECTIONS rejections (near the end of a playout, where most empty
         points are eyes and a pass needs every one rejected), the allowed points left in the
         window are counted and one of them is drawn uniformly: the same distribution as
         going on with stage 1, at one test per point instead of a draw.
    The list stays the list of the same points (only their order changes): the position is
    unchanged. One random number and one load a draw, where a rank over bitset words would
    scan them."""
    ko = bk.ko_point_for(s, c)
    window = np.int64(s[bk.M_EMPTIES])
    rejected = 0
    while window > 0:
        if rejected == LIGHT_REJECTIONS:
            return _pick_allowed(s, c, ko, rng, window)
        i = random_below(rng, window)
        p = bk.empty_point(s, i)
        if allowed_at(s, p, c, ko):
            return p
        window -= 1
        bk.swap_empties(s, i, window)  # the rejected point leaves the window
        rejected += 1
    return PASS


@inline
def allowed(s, z, c, p):
    """True if p is empty, in playable(c) and not the point the ko forbids to c: the light draw's
    test (allowed_at) for a point that may hold a stone."""
    return bk.color_at(s, bk.stride(s), p) == bk.EMPTY and allowed_at(s, p, c, bk.ko_point_for(s, c))
