"""The consistency check: the packed position recomputed from its colours and compared, field by field.

It shares no code with the incremental kernels (board_moves.py): it reads the fields directly,
so a bug in a move's steps cannot hide in the check. Only `playable_at` is called, as what it
is compared with.
"""

from __future__ import annotations

import numpy as np

from .bits import ONE
from .board_layout import (
    BLACK,
    COLOR,
    EMPTIES,
    EMPTY,
    HEAD,
    M_BALANCE,
    M_EMPTIES,
    M_KO,
    M_NW,
    M_P,
    M_SIZE,
    M_W,
    NBR,
    NEXT,
    NO_KO,
    OFFBOARD,
    PLN,
    PLQ,
    PLS,
    SLOT,
    SSIZE,
    WHITE,
    _at,
    empty_base,
)
from .board_playable import playable_at
from .jit import inline, jit

# what check() found wrong; messages in board.py
(CHECK_OK, BAD_COLOR, BAD_HEAD, BAD_LIST, BAD_PSEUDO, BAD_SIZE, BAD_PLAYABLE, BAD_HASH, BAD_KO,
 BAD_COUNTS, BAD_EMPTY_SET, BAD_BALANCE) = range(12)


@jit
def check(s, z, zob):
    """Recompute strings (flood fill), pseudo-liberties, liberties, the empty set, playability and
    hash from the colours alone; compare with the incremental state and with `playable_at`, the
    on-demand rule. Returns (CHECK_OK, -1) or (problem code, point): the first of its steps that fails, in
    the order below (since 7e69f52 the whole empty set before the playable rule, which the one loop before
    checked point by point: with faults in both, the empty set's is the one named).

    Deliberately shares no code with the incremental kernels (board_moves.py): it reads the fields directly."""
    P = np.int64(s[M_P])
    w = np.int64(s[M_W])
    code, where = _check_colours(s, P, w, s[M_SIZE])
    if code == CHECK_OK:
        code, where = _check_neighbour_counts(s, P, w, s[M_SIZE])
    true_libs = np.zeros(P, dtype=np.int64)  # liberties of the string of each stone
    if code == CHECK_OK:
        code, where = _check_strings(s, P, w, true_libs, np.zeros(P, dtype=np.int64), np.zeros(P, dtype=np.int64),
                                     np.zeros(P, dtype=np.int64), np.zeros(P, dtype=np.int64))
    if code == CHECK_OK:
        code, where = _check_hash_and_balance(s, z, zob, P)
    if code == CHECK_OK:
        code, where = _check_ko(s, P)
    if code == CHECK_OK:
        code, where = _check_empty_set(s, z, P)
    if code == CHECK_OK:
        code, where = _check_playable(s, P, w, true_libs)
    return code, where


@inline
def _on_board(p, w, n):
    """Whether padded point p is on the board (not on the sentinel ring)."""
    row = p // w - 1
    col = p % w - 1
    return 0 <= row < n and 0 <= col < n


@inline
def _check_colours(s, P, w, n):
    """Every on-board point EMPTY, BLACK or WHITE and every other OFFBOARD; every HEAD field a point."""
    for p in range(P):
        c = s[_at(P, COLOR, p)]
        if _on_board(p, w, n) != (c != OFFBOARD) or c < 0 or c > 3:
            return BAD_COLOR, p
        if not 0 <= s[_at(P, HEAD, p)] < P:  # stale at empty points, but always a point (branch-free readers)
            return BAD_HEAD, p
    return CHECK_OK, -1


@inline
def _check_neighbour_counts(s, P, w, n):
    """Each on-board point's packed counts of black (or off-board), white (or off-board) and off-board
    neighbours, recounted."""
    for p in range(P):
        if _on_board(p, w, n):
            black = white = off = 0
            for d in (-w, -1, 1, w):
                cq = s[_at(P, COLOR, p + d)]
                black += cq == BLACK or cq == OFFBOARD
                white += cq == WHITE or cq == OFFBOARD
                off += cq == OFFBOARD
            if s[_at(P, NBR, p)] != black + 16 * white + 256 * off:
                return BAD_COUNTS, p
    return CHECK_OK, -1


@inline
def _check_strings(s, P, w, true_libs, seen, lib_seen, stack, members):
    """Flood-fill each string from its stones' colours and compare its record: every stone's HEAD, the
    NEXT ring through its stones, its pseudo-liberty count, sum and sum of squares and its size. Fills
    true_libs with each stone's string's liberties (seen, lib_seen, stack, members: zeroed scratch)."""
    nstring = 0
    for p in range(P):
        c = s[_at(P, COLOR, p)]
        if (c != BLACK and c != WHITE) or seen[p]:
            continue
        nstring += 1
        count, nlib, pn, ps, pq = _flood(s, P, w, p, c, nstring, seen, lib_seen, stack, members)
        h = s[_at(P, HEAD, p)]
        if h < 0 or h >= P or seen[h] != nstring:
            return BAD_HEAD, p
        for i in range(count):
            if s[_at(P, HEAD, members[i])] != h:
                return BAD_HEAD, members[i]
            true_libs[members[i]] = nlib
        walked = 0
        q = h
        while True:
            if q < 0 or q >= P or seen[q] != nstring or walked > count:
                return BAD_LIST, h
            walked += 1
            q = s[_at(P, NEXT, q)]
            if q == h:
                break
        if walked != count:
            return BAD_LIST, h
        if s[_at(P, PLN, h)] != pn or s[_at(P, PLS, h)] != ps or s[_at(P, PLQ, h)] != pq:
            return BAD_PSEUDO, h
        if s[_at(P, SSIZE, h)] != count:
            return BAD_SIZE, h
    return CHECK_OK, -1


@inline
def _flood(s, P, w, p, c, nstring, seen, lib_seen, stack, members):
    """The string of colour c through stone p, marked `nstring` in seen and listed in members: (stones,
    liberties, and its pseudo-liberties' count, sum and sum of squares, one per stone-liberty adjacency)."""
    seen[p] = nstring
    stack[0] = p
    top = 1
    count = nlib = pn = ps = pq = 0
    while top:
        top -= 1
        q = stack[top]
        members[count] = q
        count += 1
        for d in (-w, -1, 1, w):
            r = q + d
            cr = s[_at(P, COLOR, r)]
            if cr == c and not seen[r]:
                seen[r] = nstring
                stack[top] = r
                top += 1
            elif cr == EMPTY:
                pn += 1
                ps += r
                pq += r * r
                if lib_seen[r] != nstring:
                    lib_seen[r] = nstring
                    nlib += 1
    return count, nlib, pn, ps, pq


@inline
def _check_hash_and_balance(s, z, zob, P):
    """The Zobrist hash of the stones and black's stones less white's, recomputed."""
    h_hash = np.uint64(0)
    balance = 0
    for p in range(P):
        c = s[_at(P, COLOR, p)]
        if c == BLACK or c == WHITE:
            balance += 1 if c == BLACK else -1
            h_hash ^= zob[c * P + p]
    if h_hash != z[0]:
        return BAD_HASH, -1
    if balance != s[M_BALANCE]:
        return BAD_BALANCE, -1
    return CHECK_OK, -1


@inline
def _check_ko(s, P):
    """The ko point, if any, an empty point."""
    ko = s[M_KO]
    if ko != NO_KO and (ko < 0 or ko >= P or s[_at(P, COLOR, ko)] != EMPTY):
        return BAD_KO, ko
    return CHECK_OK, -1


@inline
def _check_empty_set(s, z, P):
    """The empty-point bitset exactly the empty points, their count, and the list holding each once at its slot."""
    nw = s[M_NW]
    empties = 0
    for p in range(P):
        in_set = (z[empty_base(nw) + (p >> 6)] >> np.uint64(p & 63)) & ONE != 0
        if in_set != (s[_at(P, COLOR, p)] == EMPTY):
            return BAD_EMPTY_SET, p
        empties += in_set
    if empties != s[M_EMPTIES]:
        return BAD_EMPTY_SET, -1
    for i in range(empties):
        p = s[_at(P, EMPTIES, i)]
        if p < 0 or p >= P or s[_at(P, COLOR, p)] != EMPTY or s[_at(P, SLOT, p)] != i:
            return BAD_EMPTY_SET, p
    return CHECK_OK, -1


@inline
def _check_playable(s, P, w, true_libs):
    """playable_at, the rule as the kernels apply it, against the rule from its definition at every empty
    point, for both colours."""
    for p in range(P):
        if s[_at(P, COLOR, p)] == EMPTY:
            for c in (BLACK, WHITE):
                if playable_at(s, p, c) != _playable_by_definition(s, P, w, p, c, true_libs):
                    return BAD_PLAYABLE, p
    return CHECK_OK, -1


@inline
def _playable_by_definition(s, P, w, p, c, true_libs):
    """The playable rule at empty point p for c, straight from the definition: not c's own real eye (an
    eye-like point whose diagonals hold at most one opponent stone, none at the edge), and into the
    opponent's eye-like point only when it captures."""
    own = foe = onboard = 0
    atari_foe = False
    for d in (-w, -1, 1, w):
        cq = s[_at(P, COLOR, p + d)]
        if cq != OFFBOARD:
            onboard += 1
            if cq == c:
                own += 1
            elif cq == 3 - c:
                foe += 1
                if true_libs[p + d] == 1:
                    atari_foe = True
    if own == onboard:
        diag_off = diag_foe = 0
        for d in (-w - 1, -w + 1, w - 1, w + 1):
            cq = s[_at(P, COLOR, p + d)]
            if cq == OFFBOARD:
                diag_off += 1
            elif cq == 3 - c:
                diag_foe += 1
        real = diag_foe == 0 if diag_off > 0 else diag_foe <= 1
        return not real
    if foe == onboard:
        return atari_foe
    return True
