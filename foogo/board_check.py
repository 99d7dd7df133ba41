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
from .jit import jit

# what check() found wrong; messages in board.py
(CHECK_OK, BAD_COLOR, BAD_HEAD, BAD_LIST, BAD_PSEUDO, BAD_SIZE, BAD_PLAYABLE, BAD_HASH, BAD_KO,
 BAD_COUNTS, BAD_EMPTY_SET, BAD_BALANCE) = range(12)


@jit
def check(s, z, zob):
    """Recompute strings (flood fill), pseudo-liberties, liberties, the empty set, playability and
    hash from the colours alone; compare with the incremental state and with `playable_at`, the
    on-demand rule. Returns (CHECK_OK, -1) or (problem code, point).

    Deliberately shares no code with the incremental kernels (board_moves.py): it reads the fields directly."""
    P = np.int64(s[M_P])
    w = np.int64(s[M_W])
    n = s[M_SIZE]
    nw = s[M_NW]
    for p in range(P):
        row = p // w - 1
        col = p % w - 1
        on = 0 <= row < n and 0 <= col < n
        c = s[_at(P, COLOR, p)]
        if on != (c != OFFBOARD) or c < 0 or c > 3:
            return BAD_COLOR, p
        if not 0 <= s[_at(P, HEAD, p)] < P:  # stale at empty points, but always a point (branch-free readers)
            return BAD_HEAD, p
    for p in range(P):
        row = p // w - 1
        col = p % w - 1
        if 0 <= row < n and 0 <= col < n:
            black = white = 0
            for d in (-w, -1, 1, w):
                cq = s[_at(P, COLOR, p + d)]
                black += cq == BLACK or cq == OFFBOARD
                white += cq == WHITE or cq == OFFBOARD
            off = 0
            for d in (-w, -1, 1, w):
                off += s[_at(P, COLOR, p + d)] == OFFBOARD
            if s[_at(P, NBR, p)] != black + 16 * white + 256 * off:
                return BAD_COUNTS, p
    true_libs = np.zeros(P, dtype=np.int64)  # liberties of the string of each stone
    seen = np.zeros(P, dtype=np.int64)  # string id + 1 of each stone once flooded
    lib_seen = np.zeros(P, dtype=np.int64)
    stack = np.zeros(P, dtype=np.int64)
    members = np.zeros(P, dtype=np.int64)
    h_hash = np.uint64(0)
    nstring = 0
    balance = 0
    for p in range(P):
        c = s[_at(P, COLOR, p)]
        if c != BLACK and c != WHITE:
            continue
        balance += 1 if c == BLACK else -1
        h_hash ^= zob[c * P + p]
        if seen[p]:
            continue
        nstring += 1
        seen[p] = nstring
        stack[0] = p
        top = 1
        count = 0
        nlib = 0
        pn = 0
        ps = 0
        pq = 0
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
        if (s[_at(P, PLN, h)] != pn or s[_at(P, PLS, h)] != ps
                or s[_at(P, PLQ, h)] != pq):
            return BAD_PSEUDO, h
        if s[_at(P, SSIZE, h)] != count:
            return BAD_SIZE, h
    if h_hash != z[0]:
        return BAD_HASH, -1
    if balance != s[M_BALANCE]:
        return BAD_BALANCE, -1
    ko = s[M_KO]
    if ko != NO_KO and (ko < 0 or ko >= P or s[_at(P, COLOR, ko)] != EMPTY):
        return BAD_KO, ko
    empties = 0
    for p in range(P):
        in_set = (z[empty_base(nw) + (p >> 6)] >> np.uint64(p & 63)) & ONE != 0
        if in_set != (s[_at(P, COLOR, p)] == EMPTY):
            return BAD_EMPTY_SET, p
        empties += in_set
        for c in (BLACK, WHITE):
            want = False
            if s[_at(P, COLOR, p)] == EMPTY:
                # eye-like for c / for the opponent, straight from the definition
                own = 0
                foe = 0
                onboard = 0
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
                    diag_off = 0
                    diag_foe = 0
                    for d in (-w - 1, -w + 1, w - 1, w + 1):
                        cq = s[_at(P, COLOR, p + d)]
                        if cq == OFFBOARD:
                            diag_off += 1
                        elif cq == 3 - c:
                            diag_foe += 1
                    real = diag_foe == 0 if diag_off > 0 else diag_foe <= 1
                    want = not real
                elif foe == onboard:
                    want = atari_foe
                else:
                    want = True
                if playable_at(s, p, c) != want:
                    return BAD_PLAYABLE, p
    if empties != s[M_EMPTIES]:
        return BAD_EMPTY_SET, -1
    for i in range(empties):  # the list holds each empty point once, each at its slot
        p = s[_at(P, EMPTIES, i)]
        if p < 0 or p >= P or s[_at(P, COLOR, p)] != EMPTY or s[_at(P, SLOT, p)] != i:
            return BAD_EMPTY_SET, p
    return CHECK_OK, -1
