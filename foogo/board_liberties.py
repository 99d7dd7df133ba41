"""Exact liberties on demand: what the API and a few policy questions need, and the hot path does not.

The moves keep pseudo-liberties (board_moves.py), which answer "in atari?" and "which liberty?"
exactly; these kernels count the rest when asked. The policy questions also walk the distinct strings
beside a point, kept as four head slots (`among`, `remember_string`).
"""

from __future__ import annotations

import numpy as np

from .board_layout import (
    EMPTY,
    M_W,
    MARK,
    PLN,
    PLQ,
    PLS,
    _at,
    _next_generation,
    color_at,
    head_of,
    is_stone_of,
    next_stone,
    stride,
    string_in_atari,
)
from .jit import inline, kernel


@inline
def among(h, a, b, d, e):
    """True if string head h is one of the heads a, b, d, e (-1 for a free slot)."""
    return h == a or h == b or h == d or h == e


@inline
def remember_string(h, a, b, d, e):
    """(seen, a, b, d, e): whether string h is one of the heads a, b, d, e already met beside a point (-1 for a
    free slot: a point has four neighbours), and the four with h put in the first free one."""
    if among(h, a, b, d, e):
        return True, a, b, d, e
    if a < 0:
        return False, h, b, d, e
    if b < 0:
        return False, a, h, d, e
    if d < 0:
        return False, a, b, h, e
    return False, a, b, d, h


@inline
def other_liberties(s, P, w, h, p):
    """Liberties of string h other than its liberty p, counted up to 2: (count 0..2, the one such
    liberty when the count is 1, else -1). O(1): take p's pseudo-liberties out of h's count,
    sum and sum of squares; what is left is one point exactly when n * q == s * s."""
    k = (is_stone_of(s, P, p - w, h) + is_stone_of(s, P, p - 1, h) + is_stone_of(s, P, p + 1, h)
         + is_stone_of(s, P, p + w, h))
    n = np.int64(s[_at(P, PLN, h)]) - k
    t = np.int64(s[_at(P, PLS, h)]) - k * p
    q = np.int64(s[_at(P, PLQ, h)]) - k * p * p
    if n == 0:
        return 0, -1
    if n * q == t * t:
        return 1, t // n
    return 2, -1


@inline
def first_liberty(s, P, w, h):
    """An empty point beside string h, or -1 if it has none: a walk over its stones to the first."""
    r = h
    while True:
        for q in (r - w, r - 1, r + 1, r + w):
            if color_at(s, P, q) == EMPTY:
                return q
        r = next_stone(s, P, r)
        if r == h:
            return -1


@inline
def two_liberties(s, P, w, h):
    """(a, b), the two liberties of string h if it has exactly two, else (-1, -1): exact, a walk to its first
    liberty (first_liberty) and other_liberties for the rest."""
    if string_in_atari(s, P, h):
        return -1, -1
    a = first_liberty(s, P, w, h)
    if a < 0:
        return -1, -1
    count, b = other_liberties(s, P, w, h, a)
    if count == 1:
        return a, b
    return -1, -1


@inline
def liberties_upto(s, P, w, h, limit):
    """Exact number of liberties of string h counted up to `limit` (returned when it has that many or more): a walk
    over its stones marking each liberty once, stopping at the limit."""
    gen = _next_generation(s)
    count = 0
    r = h
    while True:
        for e in (r - w, r - 1, r + 1, r + w):
            if color_at(s, P, e) == EMPTY and s[_at(P, MARK, e)] != gen:
                s[_at(P, MARK, e)] = gen
                count += 1
                if count >= limit:
                    return count
        r = next_stone(s, P, r)
        if r == h:
            return count


@kernel
def liberty_count(s, p):
    """Exact number of liberties of the string holding the stone at p (a walk over its stones,
    each liberty marked once)."""
    P = stride(s)
    w = np.int64(s[M_W])
    h = head_of(s, P, p)
    if string_in_atari(s, P, h):
        return 1
    return liberties_upto(s, P, w, h, P)  # no string has as many liberties as the board has points

