"""A move on the packed position: place the stone, take pseudo-liberties, capture, merge, ko.

Pseudo-liberties (as in libego and Pachi's light boards) make a merge a relabel
and a capture a walk: no move asks whether a liberty is already counted. Atari
stays exact: by Cauchy-Schwarz, n * q == s * s exactly when every pseudo-liberty
is the same point, and that point is s / n (board_layout.string_in_atari).

`play_scratch` moves keep everything but the hash and the empty-point bitset, for positions a
built-in policy plays out and throws away: after them `check` fails by design. What it is not:
a rules engine. Nothing here checks legality beyond `legality`, superko is in game.py, and the
kernels assume valid inputs (p empty and on board for `play`).
"""

from __future__ import annotations

import numpy as np

from .board_layout import (
    BLACK,
    COLOR,
    EMPTY,
    HEAD,
    M_BALANCE,
    M_CAPTURES,
    M_KO,
    M_KO_COLOR,
    M_LAST,
    M_LAST2,
    M_LAST_KO,
    M_LAST_KO_AT,
    M_MOVES,
    M_NW,
    M_PASSES,
    M_TO_MOVE,
    M_W,
    NBR,
    NEXT,
    NO_KO,
    PASS,
    PLN,
    PLQ,
    PLS,
    SSIZE,
    _add_empty,
    _at,
    _is_stone,
    _no_stone_beside,
    _take_empty,
    color_at,
    has_no_liberty,
    head_of,
    ko_point_for,
    nbr_counts,
    next_stone,
    stride,
    string_in_atari,
    string_size,
)
from .jit import inline, kernel

# legality() answers
LEGAL, OCCUPIED, KO, SUICIDE = 0, 1, 2, 3


@inline
def _count_stone(s, P, w, p, c, sign):
    """Add (sign=1) or remove (sign=-1) a c stone at p in its neighbours' NBR counts."""
    dn = sign * (1 if c == BLACK else 16)
    s[_at(P, NBR, p - w)] += dn
    s[_at(P, NBR, p - 1)] += dn
    s[_at(P, NBR, p + 1)] += dn
    s[_at(P, NBR, p + w)] += dn


@inline
def _adjust_liberty(s, P, h, e, k):
    """String h gains k adjacencies of pseudo-liberty e (k = 1 gains one, -1 loses one, 0 changes
    nothing: the branch-free callers pass a 0/1 flag for "is this a string of that colour")."""
    e = np.int64(e)
    s[_at(P, PLN, h)] += k
    s[_at(P, PLS, h)] += k * e
    s[_at(P, PLQ, h)] += k * (e * e)


@inline
def _place_stone(s, z, zob, P, w, nw, p, c, e1, e2, e3, e4, full):
    """Put a c stone on empty p as a new one-stone string whose pseudo-liberties are its empty
    neighbours (e1..e4: 1 if p - w, p - 1, p + 1, p + w is empty); update the hash (if full),
    the neighbours' counts, and take p out of the empty set."""
    s[_at(P, COLOR, p)] = c
    s[M_BALANCE] += 3 - 2 * c
    if full:
        z[0] ^= zob[c * P + p]
    _count_stone(s, P, w, p, c, 1)
    s[_at(P, HEAD, p)] = p
    s[_at(P, NEXT, p)] = p
    s[_at(P, SSIZE, p)] = 1
    # counted without branches (a neighbour's colour is unpredictable), from the offsets -w, -1,
    # 1, w of the empty neighbours: their sum d gives the sum of points n * p + d and, as the
    # offsets square to w * w and 1, the sum of squares n * p * p + 2 * p * d + w * w * (e1 + e4) + e2 + e3
    n = e1 + e2 + e3 + e4
    d = w * (e4 - e1) + (e3 - e2)
    s[_at(P, PLN, p)] = n
    s[_at(P, PLS, p)] = n * p + d
    s[_at(P, PLQ, p)] = n * p * p + 2 * p * d + w * w * (e1 + e4) + (e2 + e3)
    _take_empty(s, z, P, nw, p, full)



@inline
def _touch(s, P, q, cq, p):
    """The string at q, if q holds a stone (its colour cq), loses pseudo-liberty p. Branch-free, as a
    neighbour's colour is unpredictable: any other q has a stale head that is a point, which
    loses nothing."""
    _adjust_liberty(s, P, head_of(s, P, q), p, -np.int64(_is_stone(cq)))


@inline
def _give_liberty(s, P, t, taker, r):
    """If t holds a `taker` stone, its string gains pseudo-liberty r. Branch-free, as _touch."""
    _adjust_liberty(s, P, head_of(s, P, t), r, np.int64(color_at(s, P, t) == taker))


@kernel
def _remove_string(s, z, zob, P, w, h, full):
    """Take string h off the board in one walk, giving each emptied point to the strings around it
    as a pseudo-liberty and to the empty set (the hash too, if full). Its size and stone list stay
    as they were."""
    victim = color_at(s, P, h)
    taker = 3 - victim
    nw = np.int64(s[M_NW])
    r = h
    while True:
        s[_at(P, COLOR, r)] = EMPTY
        if full:
            z[0] ^= zob[victim * P + r]
        _add_empty(s, z, P, nw, r, full)
        _count_stone(s, P, w, r, victim, -1)
        _give_liberty(s, P, r - w, taker, r)
        _give_liberty(s, P, r - 1, taker, r)
        _give_liberty(s, P, r + 1, taker, r)
        _give_liberty(s, P, r + w, taker, r)
        r = next_stone(s, P, r)
        if r == h:
            break
    s[M_BALANCE] -= (3 - 2 * victim) * string_size(s, P, h)


@inline
def _merge(s, P, a, b):
    """Join strings a and b (distinct heads): the smaller's stones are relabelled to the larger's
    head, lists spliced, pseudo-liberties and sizes added. Returns the surviving head."""
    if string_size(s, P, a) < string_size(s, P, b):
        a, b = b, a
    r = b
    while True:
        s[_at(P, HEAD, r)] = a
        r = next_stone(s, P, r)
        if r == b:
            break
    na = s[_at(P, NEXT, a)]
    s[_at(P, NEXT, a)] = s[_at(P, NEXT, b)]
    s[_at(P, NEXT, b)] = na
    s[_at(P, SSIZE, a)] += s[_at(P, SSIZE, b)]
    s[_at(P, PLN, a)] += s[_at(P, PLN, b)]
    s[_at(P, PLS, a)] += s[_at(P, PLS, b)]
    s[_at(P, PLQ, a)] += s[_at(P, PLQ, b)]
    return a


@inline
def _finish_move(s, p, c):
    """Side to move, pass count, move count and last move after c played p."""
    s[M_TO_MOVE] = 3 - c
    s[M_PASSES] = 0
    s[M_MOVES] += 1
    s[M_LAST2] = s[M_LAST]
    s[M_LAST] = p


@inline
def _resolve(s, z, zob, P, w, q, c, hp, captured, taken, full):
    """After c played beside q: if q holds an opponent string left without liberties, capture it;
    if it holds another string of c's, merge it with the new stone's string hp. Neighbours are
    resolved in order, so a string met again is by then captured (its point empty) or merged (its
    head hp). Returns (hp, stones captured so far, the head of the last string captured)."""
    cq = color_at(s, P, q)
    g = head_of(s, P, q)
    if cq == c:
        if g != hp:
            hp = _merge(s, P, g, hp)
    elif cq == 3 - c and has_no_liberty(s, P, g):
        captured += string_size(s, P, g)
        _remove_string(s, z, zob, P, w, g, full)
        taken = g
    return hp, captured, taken


@kernel
def play(s, z, zob, p, c):
    """Put a c stone on empty on-board point p: capture, merge, remove a suicided string, update
    hash, ko, counters and the empty set. Returns stones captured, or minus the stones lost
    when the move was a (multi-stone) suicide. Does not check legality."""
    return play_inline(s, z, zob, p, c)


@inline
def play_inline(s, z, zob, p, c):
    """`play`, inlined into the loops that call it on every move (playouts, the tree's descent):
    a call would pass each of the three arrays as seven machine words."""
    return _play_steps(s, z, zob, p, c, True)


@inline
def play_scratch(s, z, zob, p, c):
    """play_inline for a scratch position that a built-in playout policy plays out and then throws
    away (foogo bench's playouts, the search's after its tree): everything but the Zobrist hash and
    the empty-point bitset, which no built-in policy reads (they pass z on, never index it) and
    which then go stale (`check` would say so). Keeping them cost 3% of a light playout (154.1k
    against 149.3k playouts/s on 9x9, alternated). Positions anyone may read afterwards (Board,
    Game, `playout`, the tree's own moves, custom policies' playouts) use play_inline."""
    return _play_steps(s, z, zob, p, c, False)


@inline
def _play_steps(s, z, zob, p, c, full):
    """play's steps; full: keep the hash and the empty set (a constant where it is called, so that
    LLVM drops the other branch)."""
    P = stride(s)
    w = np.int64(s[M_W])
    nw = np.int64(s[M_NW])
    other = 3 - c
    s[M_KO] = NO_KO
    c1 = color_at(s, P, p - w)
    c2 = color_at(s, P, p - 1)
    c3 = color_at(s, P, p + 1)
    c4 = color_at(s, P, p + w)
    lonely = _no_stone_beside(nbr_counts(s, P, p))
    _place_stone(s, z, zob, P, w, nw, p, c, np.int64(c1 == EMPTY), np.int64(c2 == EMPTY),
                 np.int64(c3 == EMPTY), np.int64(c4 == EMPTY), full)
    if lonely:  # fast path: no stone beside p, so nothing to capture or merge
        _finish_move(s, p, c)
        return 0

    # p is a lost pseudo-liberty of each neighbouring string, once for each adjacency
    _touch(s, P, p - w, c1, p)
    _touch(s, P, p - 1, c2, p)
    _touch(s, P, p + 1, c3, p)
    _touch(s, P, p + w, c4, p)

    # captures and merges, neighbour by neighbour (four calls, not a loop over a tuple: numba makes
    # that an indirect jump per turn)
    hp, captured, taken = _resolve(s, z, zob, P, w, p - w, c, p, 0, -1, full)
    hp, captured, taken = _resolve(s, z, zob, P, w, p - 1, c, hp, captured, taken, full)
    hp, captured, taken = _resolve(s, z, zob, P, w, p + 1, c, hp, captured, taken, full)
    hp, captured, taken = _resolve(s, z, zob, P, w, p + w, c, hp, captured, taken, full)

    result = captured
    if has_no_liberty(s, P, hp):  # suicide (only multi-stone: a lone stone here would be eye-like)
        lost = string_size(s, P, hp)
        _remove_string(s, z, zob, P, w, hp, full)
        s[M_CAPTURES + other] += lost
        result = -lost
    else:
        if captured == 1 and string_size(s, P, hp) == 1 and string_in_atari(s, P, hp):
            s[M_KO] = taken  # the one stone taken
            s[M_KO_COLOR] = other
            s[M_LAST_KO] = taken
            s[M_LAST_KO_AT] = s[M_MOVES] + 1  # _finish_move counts this move below
        s[M_CAPTURES + c] += captured
    _finish_move(s, p, c)
    return result


@kernel
def play_pass(s, c):
    """c passes: the ko is lifted and the opponent is to move."""
    s[M_KO] = NO_KO
    s[M_PASSES] += 1
    s[M_TO_MOVE] = 3 - c
    s[M_LAST2] = s[M_LAST]
    s[M_LAST] = PASS


@kernel
def legality(s, p, c, allow_suicide):
    """LEGAL if c may play at on-board point p (simple ko, board rules), else OCCUPIED, KO or SUICIDE."""
    P = stride(s)
    w = np.int64(s[M_W])
    if color_at(s, P, p) != EMPTY:
        return OCCUPIED
    if p == ko_point_for(s, c):
        return KO
    friend = False
    for q in (p - w, p - 1, p + 1, p + w):
        cq = color_at(s, P, q)
        if cq == EMPTY:
            return LEGAL
        if cq == c:
            friend = True
            if not string_in_atari(s, P, head_of(s, P, q)):  # it has a liberty besides p
                return LEGAL
        elif cq == 3 - c and string_in_atari(s, P, head_of(s, P, q)):  # p captures it
            return LEGAL
    if friend and allow_suicide:
        return LEGAL
    return SUICIDE

