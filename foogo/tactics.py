"""Self-atari: whether a stone at an empty point would leave its own string with one liberty; which of those
give stones away for nothing; and the false-eye seki, a move that is no self-atari and still gives a group away.

The heavy playouts redraw such a move for a string of two stones or more (policy_heavy.py: always, and 600
times in 1000 in a 9x9 search's playouts), the
ladder reader asks it of the runner's extensions (ladders.py) and the learned prior reads it as a
move feature (features.py). With policy_heavy.FALSE_EYE_SEKI they do not break a false-eye seki
either (breaks_false_eye_seki). With policy_heavy.WASTEFUL_SELF_ATARI they refuse only the self-ataris
wasteful_self_atari finds wasteful (Pachi's is_really_bad_selfatari, with its own nakade exception). With
policy_heavy.SEKI_GUARD (on by default) a search's playouts, which keep some self-ataris, never keep one that
also leaves an opponent string in atari (ataris_beside), as a seki's shared liberty filled does.

Also the two-liberty tests of policy_local's rule (b2) (TWO_LIBERTY, on by default): whether a string of two
liberties is safe from an atari by miai (safe_by_miai, Pachi's test) and whether an extension gains it
liberties or joins it to another string (gains_liberties).
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline
from .nakade import MAX_STONES, dead_shape


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
def ataris_beside(s, p, c):
    """True if a c stone at empty p leaves an opponent string beside p with one liberty: p was one of its two
    or more. Asked of c's self-ataris (policy_heavy.SEKI_GUARD), where the opponent, to move, captures
    first: a seki's shared liberty filled."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    for q in (p - w, p - 1, p + 1, p + w):
        if bk.color_at(s, P, q) == 3 - c:
            count, _ = bk.other_liberties(s, P, w, bk.head_of(s, P, q), p)
            if count == 1:
                return True
    return False


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


# ---------------------------------------------------------------- a self-atari that gives stones away for nothing

@inline
def _beside(p, q, w):
    """True if points p and q are orthogonal neighbours."""
    return q == p - w or q == p - 1 or q == p + 1 or q == p + w


@inline
def _leads_out(s, P, w, p, c, lib, o0, o1, o2, o3):
    """True if `lib`, the other liberty of a string beside p (c's string o0..o3 or the opponent's), leads out of
    the shape c's self-atari at p would fill: it touches an empty point besides p, or a c string that is not one
    of o0..o3, or, not beside p, no c stone at all (so c's strings do not reach it)."""
    for q in (lib - w, lib - 1, lib + 1, lib + w):
        cq = bk.color_at(s, P, q)
        if cq == bk.EMPTY and q != p:
            return True
        if cq == c:
            h = bk.head_of(s, P, q)
            if h != o0 and h != o1 and h != o2 and h != o3:
                return True
    return not _beside(p, lib, w) and bk.stones_beside(s, P, lib, c) == 0


@inline
def _can_capture_beside(s, P, w, h, c):
    """True if a stone of c's string h touches an opponent string in atari (c could capture instead)."""
    r = h
    while True:
        if (bk.stone_in_atari(s, P, r - w, 3 - c) | bk.stone_in_atari(s, P, r - 1, 3 - c)
                | bk.stone_in_atari(s, P, r + 1, 3 - c) | bk.stone_in_atari(s, P, r + w, 3 - c)):
            return True
        r = bk.next_stone(s, P, r)
        if r == h:
            return False


@inline
def _shape_degrees(s, P, w, p, c, h):
    """(twice the edges, largest degree) of string h's stones inside the shape c at p makes: each stone's
    neighbours of colour c (its own string's stones, since the strings beside p are the shape) and p."""
    edges2 = 0
    top = 0
    r = h
    while True:
        degree = np.int64(bk.stones_beside(s, P, r, c)) + np.int64(_beside(p, r, w))
        edges2 += degree
        top = max(top, degree)
        r = bk.next_stone(s, P, r)
        if r == h:
            return edges2, top


@inline
def _dead_after(s, P, w, p, c, stones, o0, o1, o2, o3):
    """True if the shape of p and c's strings o0..o3 beside it (`stones` points, 3 to 6) is dead with the
    opponent to capture it (nakade.dead_shape)."""
    if stones <= 3:
        return True
    top = np.int64(bk.stones_beside(s, P, p, c))
    edges2 = top
    for h in (o0, o1, o2, o3):
        if h >= 0:
            e2, t = _shape_degrees(s, P, w, p, c, h)
            edges2 += e2
            top = max(top, t)
    return dead_shape(stones, edges2 // 2, top)


@inline
def _leaves_atari_around(s, P, w, p, c, h):
    """True if after c at p every opponent string touching c's string h (or p) has one liberty left."""
    r = h
    while True:
        for q in (r - w, r - 1, r + 1, r + w):
            if bk.color_at(s, P, q) == 3 - c:
                count, _ = bk.other_liberties(s, P, w, bk.head_of(s, P, q), p)
                if count != 1:
                    return False
        r = bk.next_stone(s, P, r)
        if r == h:
            return True


@inline
def _breaks_local_seki(s, P, w, p, c, o0, o1, o2, o3, e0, e1, e2, e3):
    """True if c at p fills a liberty of a local seki and the opponent strings around are not all in atari
    after it: c's string o0 and the opponent's e0 beside p have two liberties each, and p and their other
    liberties are self-ataris for both colours (Pachi's breaking_local_seki)."""
    if e0 < 0:
        return False
    n1, l1 = bk.other_liberties(s, P, w, o0, p)
    n2, l2 = bk.other_liberties(s, P, w, e0, p)
    if n1 != 1 or n2 != 1:
        return False
    if not (self_atari(s, p, 3 - c) and self_atari(s, l1, c) and self_atari(s, l1, 3 - c)):
        return False
    if l2 != l1 and not (self_atari(s, l2, c) and self_atari(s, l2, 3 - c)):
        return False
    for h in (e0, e1, e2, e3):
        if h >= 0 and bk.other_liberties(s, P, w, h, p)[0] != 1:
            return True
    for h in (o0, o1, o2, o3):
        if h >= 0 and not _leaves_atari_around(s, P, w, p, c, h):
            return True
    return False


@inline
def wasteful_self_atari(s, p, c):
    """True if c at empty p puts stones in atari for nothing (Pachi's is_really_bad_selfatari,
    learnt from its code and written on foogo's board): p's string keeps at most one liberty and captures
    nothing that gives it more, and it could have run out or connected by a string's other liberty, or
    captured instead, or is no nakade (more than six stones, an opponent string it ataris with a way out, a
    live shape, or a local seki broken); and any suicide. A lone stone's self-atari that is no suicide is
    never wasteful, nor two stones' that could not run out instead (throw-ins, snapbacks and the like)."""
    P = bk.stride(s)
    empty = bk.empty_neighbours(s, P, p)
    if empty >= 2 or (empty == 1 and bk.stones_beside(s, P, p, c) == 0):
        return False  # two liberties of its own, or a lone stone with one: most draws, told from p's packed counts
    w = np.int64(s[bk.M_W])
    lib = -1
    o0 = o1 = o2 = o3 = np.int64(-1)  # c's strings beside p
    e0 = e1 = e2 = e3 = np.int64(-1)  # the opponent's
    for q in (p - w, p - 1, p + 1, p + w):
        cq = bk.color_at(s, P, q)
        if cq == bk.EMPTY:
            lib = q
        elif cq == c:
            _, o0, o1, o2, o3 = bk.remember_string(bk.head_of(s, P, q), o0, o1, o2, o3)
        elif cq == 3 - c:
            _, e0, e1, e2, e3 = bk.remember_string(bk.head_of(s, P, q), e0, e1, e2, e3)
    # c's strings: one with two liberties besides p is no self-atari; those with one other liberty add it
    extra = -1
    strings = 0
    stones = 1
    for h in (o0, o1, o2, o3):
        if h < 0:
            continue
        strings += 1
        stones += bk.string_size(s, P, h)
        count, other = bk.other_liberties(s, P, w, h, p)
        if count == 2 or (count == 1 and ((lib >= 0 and lib != other) or (extra >= 0 and extra != other))):
            return False
        if count == 1:
            extra = other
    # captures: fine with a liberty besides, for a lone stone (a ko), more than one string or more than one stone
    captures = 0
    for h in (e0, e1, e2, e3):
        if h >= 0 and bk.string_in_atari(s, P, h):
            if lib >= 0 or extra >= 0 or strings == 0 or captures > 0 or bk.string_size(s, P, h) > 1:
                return False
            captures += 1
    if captures == 0 and lib < 0 and extra < 0:
        return True  # suicide
    if strings == 0:
        return False  # a lone stone given away
    # could c's strings run out or connect instead, by their other liberty? (the first loop left every one
    # with a liberty besides p on the same point, extra)
    if extra >= 0 and (bk.empty_neighbours(s, P, extra) >= 2 or _leads_out(s, P, w, p, c, extra, o0, o1, o2, o3)):
        return True
    if strings == 1 and stones == 2:
        return False  # two stones given away
    for h in (o0, o1, o2, o3):
        if h >= 0 and _can_capture_beside(s, P, w, h, c):
            return True
    if stones > MAX_STONES:
        return True
    # the opponent strings p ataris: one inside liberty between them, or no nakade
    lib2 = -1
    for h in (e0, e1, e2, e3):
        if h < 0:
            continue
        count, other = bk.other_liberties(s, P, w, h, p)
        if count == 1:
            if lib2 >= 0 and other != lib2:
                return True
            lib2 = other
    if lib2 >= 0 and _leads_out(s, P, w, p, c, lib2, o0, o1, o2, o3):
        return True
    if not _dead_after(s, P, w, p, c, stones, o0, o1, o2, o3):
        return True
    return _breaks_local_seki(s, P, w, p, c, o0, o1, o2, o3, e0, e1, e2, e3)


# ---------------------------------------------------------------- two liberties (policy_local's rule (b2))

@inline
def connects_out(s, P, w, h, lib, d):
    """True if d playing empty `lib` joins a string of d's other than h that is not in atari."""
    for q in (lib - w, lib - 1, lib + 1, lib + w):
        if bk.color_at(s, P, q) == d:
            g = bk.head_of(s, P, q)
            if g != h and not bk.string_in_atari(s, P, g):
                return True
    return False


@inline
def empty_beside_but(s, P, w, lib, other):
    """How many empty neighbours `lib` has besides `other`."""
    n = 0
    for q in (lib - w, lib - 1, lib + 1, lib + w):
        n += (bk.color_at(s, P, q) == bk.EMPTY) & (q != other)
    return n


@inline
def safe_by_miai(s, P, w, h, a, b, d):
    """True if d's string h, of liberties a and b, answers an atari at either by connecting out at the other,
    or by connecting out at one where it can extend at the other (Pachi's miai test): no atari harms it."""
    ca = connects_out(s, P, w, h, a, d)
    cb = connects_out(s, P, w, h, b, d)
    return (ca & (cb | (empty_beside_but(s, P, w, b, a) > 0))) | (cb & (empty_beside_but(s, P, w, a, b) > 0))


@inline
def gains_liberties(s, P, w, h, lib, other, d):
    """True if d extending its string h (liberties lib and other) at lib leaves it more than two liberties or
    joins it to another of its strings: an escape that is not hopeless."""
    return empty_beside_but(s, P, w, lib, other) >= 2 or connects_out(s, P, w, h, lib, d)
