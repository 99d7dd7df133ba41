"""Area scoring of the packed position: stones plus empty regions bordered by one colour only.

Without owners (every playout's end) it starts from the stone balance the moves keep and reads
each empty point from its packed neighbour counts, flooding only regions of two or more points;
with owners it scans every point.
"""

from __future__ import annotations

import numpy as np

from .board_layout import (
    BLACK,
    EMPTY,
    M_BALANCE,
    M_EMPTIES,
    M_W,
    MARK,
    OFFBOARD,
    QUEUE,
    WHITE,
    _at,
    _empty_neighbours,
    _next_generation,
    color_at,
    empty_point,
    nbr_counts,
    stride,
)
from .jit import inline, kernel


@inline
def _flood_region(s, P, w, p, gen, tail):
    """Mark the empty region of unmarked empty point p (generation gen) and queue its points in
    QUEUE from entry tail on. Returns (the queue's new end, the OR of the border's stone colours:
    BLACK, WHITE, both (3) or none (0))."""
    s[_at(P, MARK, p)] = gen
    s[_at(P, QUEUE, tail)] = p
    head = tail
    tail += 1
    border = 0
    while head < tail:
        e = s[_at(P, QUEUE, head)]
        head += 1
        for q in (e - w, e - 1, e + 1, e + w):
            cq = color_at(s, P, q)
            if cq == EMPTY:
                if s[_at(P, MARK, q)] != gen:
                    s[_at(P, MARK, q)] = gen
                    s[_at(P, QUEUE, tail)] = q
                    tail += 1
            elif cq != OFFBOARD:
                border |= cq
    return tail, border


@inline
def _region_points(border, n):
    """What an empty region of n points whose border's colours OR to `border` adds to black's area
    less white's: n, -n, or 0 for dame (both colours, or none)."""
    return n if border == BLACK else (-n if border == WHITE else 0)


@inline
def _region_owner(border):
    """The owner of an empty region whose border's colours OR to `border`: BLACK, WHITE, or EMPTY (dame)."""
    return np.int64(border) if border == BLACK or border == WHITE else np.int64(EMPTY)


@inline
def _lone_point(n):
    """For an empty point with no empty neighbour (its packed counts n, see NBR): +1 if its stone
    neighbours are all black, -1 if all white, 0 if both. Off-board neighbours count as both
    colours in n, so each colour's own count is its field less the off-board count."""
    off = n >> 8
    return np.int64((n >> 4) & 15 == off) - np.int64(n & 15 == off)


@inline
def _area_of_empties(s):
    """area without owners: the stone balance, then each empty point of the list: a point with no
    empty neighbour (nearly all of them at the end of a playout) is read from its neighbour counts,
    the others by flooding their region once."""
    P = stride(s)
    w = np.int64(s[M_W])
    score = np.int64(s[M_BALANCE])
    gen = 0
    for i in range(s[M_EMPTIES]):
        p = empty_point(s, i)
        n = nbr_counts(s, P, p)
        if _empty_neighbours(n) == 0:
            score += _lone_point(n)
        else:
            if gen == 0:
                gen = _next_generation(s)
            if s[_at(P, MARK, p)] != gen:
                tail, border = _flood_region(s, P, w, p, gen, 0)
                score += _region_points(border, tail)
    return score


@inline
def point_owner(s, p):
    """The owner of on-board point p as area scoring counts it: its stone's colour; for an empty point
    the one colour that borders its empty region, or EMPTY (dame) if both or none do."""
    P = stride(s)
    c = np.int64(color_at(s, P, p))
    if c != EMPTY:
        return c
    n = nbr_counts(s, P, p)
    if _empty_neighbours(n) == 0:
        k = _lone_point(n)
        return np.int64(BLACK) if k > 0 else (np.int64(WHITE) if k < 0 else np.int64(EMPTY))
    _, border = _flood_region(s, P, np.int64(s[M_W]), p, _next_generation(s), 0)
    return _region_owner(border)


@inline
def _area_with_owners(s, owners):
    """area, writing each point's owner into owners: a scan of every point."""
    P = stride(s)
    w = np.int64(s[M_W])
    gen = _next_generation(s)
    score = 0
    for p in range(P):
        c = color_at(s, P, p)
        if c == BLACK:
            score += 1
        elif c == WHITE:
            score -= 1
        elif c == EMPTY and s[_at(P, MARK, p)] != gen:
            tail, border = _flood_region(s, P, w, p, gen, 0)
            score += _region_points(border, tail)
            owner = _region_owner(border)
            for i in range(tail):
                owners[s[_at(P, QUEUE, i)]] = owner
        if c != EMPTY:
            owners[p] = c if c != OFFBOARD else EMPTY
    return score


@kernel
def area(s, owners):
    """Black area minus white area: stones plus empty regions whose border is one colour only.

    If owners is non-empty (int8[P]) it receives each point's owner: BLACK, WHITE or EMPTY (dame)."""
    if owners.shape[0] > 0:
        return _area_with_owners(s, owners)
    return _area_of_empties(s)

