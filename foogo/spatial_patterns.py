"""A move's shape as the learned prior reads it: the colours around it, seen from the mover.

What it is: the 3x3 code of a move seen from the mover (`mover_code`: the mover's stones as BLACK,
the opponent's as WHITE) and its SPATIAL code, the colours of the 28 points within gridcular distance
6 of it (dx + dy + max(dx, dy) <= 6: the 5x5 square and the four points three steps away on its lines;
`spatial_code`), read from the board on demand, and `swap_colours`, which turns either code to the
other side. features.py rates moves by them and owns the table their patterns'
gammas are kept in; bench/learn_gammas.py counts them in games.

The SPATIAL code is 56 bits, 2 per point (EMPTY, the mover's, the opponent's, off board): bits 0-15
the 3x3 code (mover_code, patterns.pattern_code's layout), 16-23 the four points two steps away on
the lines through the move (RING[:4]), 24-39 the eight a knight's move away (RING[4:]), 40-55 the
corners of the 5x5 square (OUTER[:4]) and the four points three steps away on the lines (OUTER[4:]).
It has three sizes, nested as Coulom's and Pachi's patterns are: level k is its first LEVEL_BITS[k - 1]
bits, the points within distance 4 (12 points), 5 (20) and 6 (28).

What it is not: a pattern table or a policy (patterns.py holds the heavy policy's 3x3 shapes), nor
symmetric: a code is the board as it stands, and the 8 rotations and reflections are folded by the
table that stores the patterns (features.insert_spatial).
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline
from .patterns import pattern_code

RING = ((2, 0), (0, 2), (-2, 0), (0, -2), (2, 1), (1, 2), (-1, 2), (-2, 1), (-2, -1), (-1, -2), (1, -2), (2, -1))
OUTER = ((2, 2), (2, -2), (-2, 2), (-2, -2), (3, 0), (0, 3), (-3, 0), (0, -3))
LEVEL_BITS = (24, 40, 56)  # the code bits of levels 1, 2 and 3
LEVEL_MASKS = tuple((1 << bits) - 1 for bits in LEVEL_BITS)


@inline
def swap_colours(code):
    """A 3x3 or SPATIAL code with BLACK and WHITE swapped: 1 and 2 trade places in every 2-bit field (the
    fields whose two bits differ flip both; 28 fields, the most a code has). Plain integer operations, so
    that `swap_colours.py_func` does the same to a numpy array of codes."""
    differ = (code ^ (code >> 1)) & 0x55555555555555
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
def _outer(s, P, n, w, p, row, col):
    """The 16 outer bits of p at (row, col) (OUTER order, 2 per point, board colours), as _ring reads
    its points."""
    inside = row >= 4 and col >= 4 and row <= n - 3 and col <= n - 3
    return (_ring_point(s, P, n, w, row, col, p, 2, 2, inside)
            | (_ring_point(s, P, n, w, row, col, p, 2, -2, inside) << 2)
            | (_ring_point(s, P, n, w, row, col, p, -2, 2, inside) << 4)
            | (_ring_point(s, P, n, w, row, col, p, -2, -2, inside) << 6)
            | (_ring_point(s, P, n, w, row, col, p, 3, 0, inside) << 8)
            | (_ring_point(s, P, n, w, row, col, p, 0, 3, inside) << 10)
            | (_ring_point(s, P, n, w, row, col, p, -3, 0, inside) << 12)
            | (_ring_point(s, P, n, w, row, col, p, 0, -3, inside) << 14))


@inline
def spatial_code(s, p, c):
    """The 56-bit SPATIAL code of c at on-board p (see RING and OUTER); its low 16 bits are mover_code's."""
    row, col = bk.row_col(s, p)
    return spatial_code_at(s, p, c, row, col)


@inline
def spatial_code_at(s, p, c, row, col):
    """spatial_code of c at on-board p, at (row, col)."""
    P = bk.stride(s)
    n = np.int64(s[bk.M_SIZE])
    w = np.int64(s[bk.M_W])
    code = pattern_code(s, p) | (_ring(s, P, n, w, p, row, col) << 16) | (_outer(s, P, n, w, p, row, col) << 40)
    return swap_colours(code) if c == bk.WHITE else code
