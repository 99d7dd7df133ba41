"""Nakade: the self-ataris that kill, because the stones the opponent captures leave it a dead eye.

What it is: `nakade(s, p, c)`, the exception the "heavy-nakade" playout policy (the
default heavy search's playouts in the late game: SearchConfig.late_nakade) makes
to the heavy playouts' rule against self-atari of two stones or more
(policy_heavy.py, rules (d) and (e)). c at p makes a
string S with one liberty L. It is a nakade when
  1. every opponent string touching S has L as its only liberty (S ataris them
     all from the inside), so the opponent must capture at L, and L touches no
     empty point, no other string of c and no opponent string with another
     liberty: the opponent's only liberties afterwards are S's points, the
     captured area is its whole eye; and
  2. S's points make a dead eye shape with c to play next: any 2 or 3 points;
     of 4, the square and the pyramid (a point touching the three others); of 5,
     the bulky five (a square and one more) and the cross; of 6, the rabbity six
     (a cross and the point between two of its arms). Counted from the shape's
     adjacencies alone: its number of edges and its largest degree tell these
     apart from every other polyomino of the same size (straight, bent, zigzag
     and the other shapes with two separate eyes left).
Without it the playouts never play such a sacrifice: a corner where white's
group and four black stones share their last two liberties read as a seki, and
foogo (white) lost that game to Pachi with every heavy playout won from 50 moves
before black's square-four sacrifice. It is not the default: at equal CPU against
Pachi it did not win more games (bench/RESULTS.md, "A nakade exception").

The same policy then follows the sacrifice up: `vital_point(s, c, last)` is the
point c plays in a small eye space of the opponent beside the opponent's last
move (the area its capture left, or what is left after it played inside): the
middle of three, the centre of the pyramid, bulky five, cross and rabbity six.
With the sacrifice alone the playouts gave the killing side about half of the
playouts of such corners, as the defender's random moves inside often made two
eyes; with the vital point, most (bench/RESULTS.md, "Where two playout
policies disagree").

What it is not: no reading of the opponent's other options (capturing outside,
a ko), no corner shapes (the bent four), no eye shapes larger than six. nakade
is called only on the rare draws that are already a big self-atari, so it costs
the playout nothing elsewhere; vital_point looks beside every last move.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline

MAX_STONES = 6  # the largest shape one vital point kills (the rabbity six)


@inline
def dead_shape(stones, edges, top):
    """True if a connected shape of `stones` points, `edges` adjacent pairs and largest degree
    `top` is dead when the attacker plays next (see the module's list)."""
    if stones <= 3:
        return True
    if stones == 4:
        return edges == 4 or top == 3
    if stones == 5:
        return edges == 5 or top == 4
    return stones == 6 and edges == 6 and top == 4


@inline
def _sole_liberty(s, P, w, h, p, lib):
    """True if string h's liberties other than p are exactly the one point lib."""
    count, other = bk.other_liberties(s, P, w, h, p)
    return count == 1 and other == lib


@inline
def _degree_in(s, P, w, r, p, c, lib):
    """Point r of S (p or a stone of a string p joins): its neighbours in S (stones of c, which are
    its own string's, and p), or -1 if it touches an opponent string with a liberty besides lib."""
    degree = 0
    for q in (r - w, r - 1, r + 1, r + w):
        cq = bk.color_at(s, P, q)
        degree += (cq == c) | (q == p)
        if cq == 3 - c and not _sole_liberty(s, P, w, bk.head_of(s, P, q), p, lib):
            return -1
    return degree


@inline
def nakade(s, p, c):
    """True if c at empty p, a self-atari of a string of two stones or more, is a nakade: it
    ataris every opponent string around its string, whose points make a dead eye shape."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    other = 3 - c
    # the strings p joins (distinct heads), their size and S's one liberty L
    h0 = h1 = h2 = h3 = np.int64(-1)
    stones = 1
    lib = np.int64(-1)
    for q in (p - w, p - 1, p + 1, p + w):
        cq = bk.color_at(s, P, q)
        if cq == bk.EMPTY:
            lib = q
        elif cq == c:
            h = bk.head_of(s, P, q)
            seen, h0, h1, h2, h3 = bk.remember_string(h, h0, h1, h2, h3)
            if not seen:
                stones += bk.string_size(s, P, h)
                count, found = bk.other_liberties(s, P, w, h, p)
                if count == 1:
                    lib = found
    if stones > MAX_STONES or lib < 0:
        return False
    # L itself must open no way out: after the capture there, the opponent's only liberties are S's
    # points (no empty point beside L, no other string of c, no opponent string with another liberty)
    for q in (lib - w, lib - 1, lib + 1, lib + w):
        cq = bk.color_at(s, P, q)
        if q == p:
            continue
        if cq == bk.EMPTY or (cq == c and not bk.among(bk.head_of(s, P, q), h0, h1, h2, h3)):
            return False
        if cq == other and not _sole_liberty(s, P, w, bk.head_of(s, P, q), p, lib):
            return False
    # S's points, p and the joined strings' stones: their degrees, and the opponent strings they touch
    top = _degree_in(s, P, w, p, p, c, lib)
    if top < 0:
        return False
    edges2 = top  # twice the edges: the sum of the degrees
    for h in (h0, h1, h2, h3):
        if h < 0:
            continue
        r = h
        while True:
            degree = _degree_in(s, P, w, r, p, c, lib)
            if degree < 0:
                return False
            edges2 += degree
            top = max(top, degree)
            r = bk.next_stone(s, P, r)
            if r == h:
                break
    return dead_shape(stones, edges2 // 2, top)


# ---------------------------------------------------------------- the vital point after the opponent's move

@inline
def _nth(i, e0, e1, e2, e3, e4, e5):
    """The i-th of six points held in locals (a flood fill's queue without an array)."""
    if i == 0:
        return e0
    if i == 1:
        return e1
    if i == 2:
        return e2
    if i == 3:
        return e3
    if i == 4:
        return e4
    return e5


@inline
def _among(p, e0, e1, e2, e3, e4, e5):
    """True if p is one of the six points e0..e5 (unused ones hold -1, never a point)."""
    return p == e0 or p == e1 or p == e2 or p == e3 or p == e4 or p == e5


@inline
def _eye_space(s, P, w, q, c):
    """(n, its points e0..e5): the empty region of point q when it has at most MAX_STONES points and
    adjacencies and touches no stone of c (only the opponent's stones and the edge bound it; every
    dead shape fits); n = 0 otherwise, with the points found before it stopped (so a caller can
    skip them). Open ground stops it within three points."""
    e0 = q
    e1 = e2 = e3 = e4 = e5 = np.int64(-1)
    n = 1
    head = 0
    ends = 0  # twice the region's adjacencies, as far as it is known: a dead shape has at most 6
    while head < n:
        e = _nth(head, e0, e1, e2, e3, e4, e5)
        head += 1
        ends += bk.empty_neighbours(s, P, e)
        if bk.stones_beside(s, P, e, c) != 0 or ends > 2 * MAX_STONES:
            return 0, e0, e1, e2, e3, e4, e5
        for r in (e - w, e - 1, e + 1, e + w):
            if bk.color_at(s, P, r) != bk.EMPTY or _among(r, e0, e1, e2, e3, e4, e5):
                continue
            if n == MAX_STONES:
                return 0, e0, e1, e2, e3, e4, e5
            if n == 1:
                e1 = r
            elif n == 2:
                e2 = r
            elif n == 3:
                e3 = r
            elif n == 4:
                e4 = r
            else:
                e5 = r
            n += 1
    return n, e0, e1, e2, e3, e4, e5


@inline
def _degree(e, w, n, e0, e1, e2, e3, e4, e5):
    """How many of the n points e0, e1, ... are orthogonal neighbours of point e (padded points: one
    step is 1 or w, and a border column keeps a row's end from the next row's start)."""
    degree = 0
    for i in range(n):
        d = abs(_nth(i, e0, e1, e2, e3, e4, e5) - e)
        degree += (d == 1) | (d == w)
    return degree


@inline
def _killing_point(w, n, e0, e1, e2, e3, e4, e5):
    """The vital point of the region e0.. of n points if its shape is dead with the attacker to play
    (dead_shape) and one point has the largest degree; else PASS."""
    edges2 = 0  # twice the adjacencies: the sum of the degrees
    top = 0
    best = bk.PASS
    ties = 0
    for i in range(n):
        e = _nth(i, e0, e1, e2, e3, e4, e5)
        degree = _degree(e, w, n, e0, e1, e2, e3, e4, e5)
        edges2 += degree
        if degree > top:
            top, best, ties = degree, e, 1
        elif degree == top:
            ties += 1
    return best if ties == 1 and dead_shape(n, edges2 // 2, top) else bk.PASS


@inline
def _adjacencies(s, P, w, h, n, e0, e1, e2, e3, e4, e5):
    """How many (stone of string h, point of the region e0.. of n points) adjacencies there are."""
    count = 0
    for i in range(n):
        e = _nth(i, e0, e1, e2, e3, e4, e5)
        for r in (e - w, e - 1, e + 1, e + w):
            count += bk.is_stone_of(s, P, r, h)
    return count


@inline
def _whole_eye_space(s, P, w, c, n, e0, e1, e2, e3, e4, e5):
    """True if the region e0.. of n points holds every liberty of every opponent string beside it (all
    of a string's pseudo-liberties touch the region): then it is their one eye space, and its vital
    point kills. Around a group with room or an eye elsewhere the vital point is a wasted move."""
    for i in range(n):
        e = _nth(i, e0, e1, e2, e3, e4, e5)
        for q in (e - w, e - 1, e + 1, e + w):
            if bk.color_at(s, P, q) != 3 - c:
                continue
            h = bk.head_of(s, P, q)
            if _adjacencies(s, P, w, h, n, e0, e1, e2, e3, e4, e5) != bk.pseudo_liberties(s, P, h):
                return False
    return True


# an eye space whose vital point kills holds at most 4n - 2E of any one string's pseudo-liberties (its n
# points' sides, less the 2E its E adjacencies take): 8 for three points and the square, 10 for the pyramid
# and the bulky five, 12 for the cross and the rabbity six (dead_shape's list)
MAX_EYE_SIDES = 12


@inline
def _may_border(s, P, p, c):
    """From p's packed counts alone: p has no stone of c beside it and at least one empty point (what
    every point of an eye space of three points or more beside the opponent's stones has)."""
    return bk.stones_beside(s, P, p, c) == 0 and bk.empty_neighbours(s, P, p) != 0


@inline
def vital_point(s, c, last):
    """The vital point c should play in an eye space of the opponent beside its last move: an empty
    region of 3-6 points that touches only the opponent's stones and the edge and holds all their
    liberties (_whole_eye_space), whose shape is dead with c to play (dead_shape) and has one point
    of the largest degree (the middle of three, the pyramid's and the bulky five's centre, the
    cross's and the rabbity six's); PASS if there is none (the square four needs no move). c is not
    checked to be allowed there."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    # the opponent's move either captured inside its eye space or played in it: either way no stone
    # of c is beside it, and mostly one or two empty points (a capture's point touches the captured
    # area at one or two; a move inside a small eye space with three empty points beside it mostly
    # splits it into eyes). The gate misses a few cases to rule out most moves in one load
    room = bk.empty_neighbours(s, P, last)
    if bk.stones_beside(s, P, last, c) != 0 or room == 0 or room > 2:
        return bk.PASS
    # the last move's string is beside the eye space, which must hold all its pseudo-liberties (a stone
    # there: an empty `last`, a suicide's, has only a stale head)
    if (bk.color_at(s, P, last) != bk.EMPTY) & (bk.pseudo_liberties(s, P, bk.head_of(s, P, last)) > MAX_EYE_SIDES):
        return bk.PASS
    # so its one or two empty neighbours (both liberties of that string; at an empty `last`, joined
    # through it) lie in that one region, and a flood from the first finds it
    q = q2 = np.int64(-1)
    for r in (last - w, last - 1, last + 1, last + w):
        if bk.color_at(s, P, r) == bk.EMPTY:
            if q < 0:
                q = r
            else:
                q2 = r
    if not _may_border(s, P, q, c) or (q2 >= 0 and not _may_border(s, P, q2, c)):
        return bk.PASS
    n, e0, e1, e2, e3, e4, e5 = _eye_space(s, P, w, q, c)
    if n < 3 or (q2 >= 0 and not _among(q2, e0, e1, e2, e3, e4, e5)):
        return bk.PASS
    best = _killing_point(w, n, e0, e1, e2, e3, e4, e5)
    if best != bk.PASS and _whole_eye_space(s, P, w, c, n, e0, e1, e2, e3, e4, e5):
        return best
    return bk.PASS
