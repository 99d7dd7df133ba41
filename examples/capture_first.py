"""A custom playout policy: capture when a capture is on the board, else play uniformly at random.

Use it from Python:

    from foogo import Board, run_playouts
    from examples.capture_first import capture_first
    batch = run_playouts(Board(9), 10000, policy=capture_first)

or from the command line, from the repository's root:

    foogo bench --policy examples.capture_first:capture_first

A policy is a numba function `policy(s, z, color, rng, table) -> point`: the position's arrays
(read through foogo.board_kernels' accessors), the side to move, the playout's random stream and
the heavy policy's pattern table. It answers a padded point or PASS; the point must be empty, not
the ko point and not a single-stone suicide (playout.custom_batch checks every choice).
"""

import numpy as np
from numba import njit

from foogo import board_kernels as bk
from foogo.bits import ONE, trailing_zeros
from foogo.policy import PASS, choose_light


@njit
def capture_first(s, z, color, rng, table):
    """The first point (in board order) where `color` captures a string in atari, else a light move."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    nw = s[bk.M_NW]
    base = bk.empty_base(nw)
    ko = bk.ko_point_for(s, color)
    for i in range(nw):
        word = z[base + i]
        while word:  # the empty points, lowest first
            p = i * 64 + np.int64(trailing_zeros(word))
            word &= word - ONE
            if p == ko:
                continue
            for q in (p - w, p - 1, p + 1, p + w):
                if bk.color_at(s, P, q) == 3 - color and bk.string_in_atari(s, P, bk.head_of(s, P, q)):
                    return p
    p = choose_light(s, z, color, rng)
    return p if p >= 0 else PASS
