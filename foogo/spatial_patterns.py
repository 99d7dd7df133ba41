"""A move's shape as the learned prior reads it: the colours around it, seen from the mover.

What it is: the 3x3 code of a move seen from the mover (`mover_code`: the mover's stones as BLACK,
the opponent's as WHITE) and its SPATIAL code, the colours of the 20 points of the 5x5 square around
it less the corners (`spatial_code`), read from the board on demand, and `swap_colours`, which turns
either code to the other side. features.py rates moves by them and owns the table their patterns'
gammas are kept in; bench/learn_gammas.py counts them in games.

The SPATIAL code is 40 bits, 2 per point (EMPTY, the mover's, the opponent's, off board): bits 0-15
the 3x3 code (mover_code, patterns.pattern_code's layout), 16-23 the four points two steps away on
the lines through the move (RING[:4]), 24-39 the eight a knight's move away (RING[4:]). It has two
sizes, as Coulom's patterns do: level 1 is its first LEVEL_BITS[0] bits (the 12 inner points), level
2 all of it.

What it is not: a pattern table or a policy (patterns.py holds the heavy policy's 3x3 shapes), nor
symmetric: a code is the board as it stands, and the 8 rotations and reflections are folded by the
table that stores the patterns (spatial_table.insert_spatial).
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline
from .patterns import pattern_code

RING = ((2, 0), (0, 2), (-2, 0), (0, -2), (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1))
LEVEL_BITS = (24, 40)  # the code bits of levels 1 and 2
LEVEL_MASKS = tuple((1 << bits) - 1 for bits in LEVEL_BITS)


@inline
def swap_colours(code):
    """A 3x3 or SPATIAL code with BLACK and WHITE swapped: 1 and 2 trade places in every 2-bit field (the
    fields whose two bits differ flip both; 20 fields, the most a code has). Plain integer operations, so
    that `swap_colours.py_func` does the same to a numpy array of codes."""
    differ = (code ^ (code >> 1)) & 0x5555555555
    return code ^ (differ | (differ << 1))


@inline
def mover_code(s, p, c):
    """p's 3x3 code (patterns.pattern_code) with c's stones as BLACK and the opponent's as WHITE."""
    code = pattern_code(s, p)
    return swap_colours(code) if c == bk.WHITE else code


@inline
def _ring_point(s, P, n, w, row, col, p, dr, dc, inside):
    """The board colour of the point (dr, dc) from p at (row, col), 3 off the board; inside: the
    whole ring is on the board (no test needed)."""
    if not inside:
        r = row + dr
        k = col + dc
        if r < 1 or r > n or k < 1 or k > n:
            return np.int64(3)
    return np.int64(bk.color_at(s, P, p + dr * w + dc))


@inline
def _ring(s, P, n, w, p, row, col):
    """The 24 ring bits of p at (row, col) (RING order, 2 per point, board colours), read point by
    point: one named step per point, so that each offset is a constant."""
    inside = row >= 3 and col >= 3 and row <= n - 2 and col <= n - 2
    return (_ring_point(s, P, n, w, row, col, p, 2, 0, inside)
            | (_ring_point(s, P, n, w, row, col, p, 0, 2, inside) << 2)
            | (_ring_point(s, P, n, w, row, col, p, -2, 0, inside) << 4)
            | (_ring_point(s, P, n, w, row, col, p, 0, -2, inside) << 6)
            | (_ring_point(s, P, n, w, row, col, p, 2, 1, inside) << 8)
            | (_ring_point(s, P, n, w, row, col, p, 1, 2, inside) << 10)
            | (_ring_point(s, P, n, w, row, col, p, -1, 2, inside) << 12)
            | (_ring_point(s, P, n, w, row, col, p, -2, 1, inside) << 14)
            | (_ring_point(s, P, n, w, row, col, p, -2, -1, inside) << 16)
            | (_ring_point(s, P, n, w, row, col, p, -1, -2, inside) << 18)
            | (_ring_point(s, P, n, w, row, col, p, 1, -2, inside) << 20)
            | (_ring_point(s, P, n, w, row, col, p, 2, -1, inside) << 22))


@inline
def spatial_code(s, p, c):
    """The 40-bit SPATIAL code of c at on-board p (see RING); its low 16 bits are mover_code's."""
    row, col = bk.row_col(s, p)
    return spatial_code_at(s, p, c, row, col)


@inline
def spatial_code_at(s, p, c, row, col):
    """spatial_code of c at on-board p, at (row, col)."""
    P = bk.stride(s)
    code = pattern_code(s, p) | (_ring(s, P, np.int64(s[bk.M_SIZE]), np.int64(s[bk.M_W]), p, row, col) << 16)
    return swap_colours(code) if c == bk.WHITE else code
