"""Compiled board kernels: the position as flat arrays, and moves played on them incrementally.

A position is two numpy arrays, so that copying one for a playout is two memcpys:

``s`` (int32)  meta fields, then per-point sections of length P (padded points):
    COLOR   EMPTY / BLACK / WHITE, OFFBOARD on the sentinel ring
    HEAD    string id of a stone: the padded index of its string's head stone
    NEXT    circular linked list of the stones of a string
    LIBS    exact liberty count, valid at head points
    LIBSUM  sum of the liberty points (each counted once), valid at head points:
            when LIBS == 1 it *is* the liberty, so atari is found in O(1)
    SSIZE   stone count, valid at head points
    NBR     orthogonal neighbour counts, packed: black + 16 * white + 256 * off-board,
            where an off-board neighbour also counts as black and as white (so
            eye-like is one compare)
    MARK    generation marks for flood fills (area scoring)
    DIRTY   points whose playable status a move changed at a distance (atari
            transitions), then reused as the flood-fill queue
``z`` (uint64)  z[0] the Zobrist hash of the stones, then playable(BLACK) and
    playable(WHITE) as bitsets over padded points (nw words each).

Playable sets follow the design card. For colour C and empty point e:
  eye-like(C, e)  every on-board orthogonal neighbour of e is a C stone;
  eye(C, e)       eye-like and at most one opponent stone on the diagonals
                  (none when a diagonal is off the board);
  playable(C, e)  not eye(C, e), and if eye-like(opponent, e) then some
                  neighbouring string has one liberty (playing there captures).
The ko point is not removed here; choosers remove it (see playout.py).

A move only touches the bits that can change (see `play`): its orthogonal
neighbours can become eye-like, its diagonals can turn an eye false or real,
captured points become empty, and a string entering or leaving atari changes
whether its last liberty can be taken; LIBSUM names that point at once.

Nothing here checks legality; `legality` does that for the Board class.
Kernels assume valid inputs: p empty and on board for `play`.
"""

from __future__ import annotations

import numpy as np
from .bits import ONE
from .jit import inline, jit, kernel

# meta fields of s
M_SIZE, M_W, M_P, M_NW = 0, 1, 2, 3
M_KO = 4  # point where M_KO_COLOR may not play next (simple ko), or NO_KO
M_TO_MOVE = 5
M_PASSES = 6  # consecutive passes at the end of the move sequence
M_MOVES = 7  # moves (not passes) played since the position was created
M_CAPTURES = 8  # M_CAPTURES + colour: stones captured BY that colour
M_GEN = 11  # current generation for MARK
M_LAST = 12  # last move point, PASS (-1) or -2 for none
M_KO_COLOR = 13  # the colour that may not play at M_KO
META = 16

# section indices: section k starts at META + k * P
COLOR, HEAD, NEXT, LIBS, LIBSUM, SSIZE, NBR, MARK, DIRTY = range(9)
NSECTIONS = 9

EMPTY, BLACK, WHITE, OFFBOARD = 0, 1, 2, 3
PASS = -1
NO_KO = -1

# what one neighbour of each colour adds to NBR (indexed by colour)
NBR_ONE = (0, 1, 16, 17 + 256)
EYE_FULL = 4  # NBR count (own stones + off-board) of an eye-like point


def new_state(size: int, width: int, npoints: int, nwords: int):
    """Empty-board arrays (s, z) for one geometry, neighbour counts and playable sets filled in."""
    s = np.zeros(META + NSECTIONS * npoints, dtype=np.int32)
    z = np.zeros(1 + 2 * nwords, dtype=np.uint64)
    s[M_SIZE], s[M_W], s[M_P], s[M_NW] = size, width, npoints, nwords
    s[M_KO] = NO_KO
    s[M_TO_MOVE] = BLACK
    s[M_LAST] = -2
    color = s[META : META + npoints]
    color[:] = OFFBOARD
    for row in range(size):
        start = (row + 1) * width + 1
        color[start : start + size] = EMPTY
    nbr = s[META + NBR * npoints : META + (NBR + 1) * npoints]
    for p in range(width + 1, npoints - width - 1):
        nbr[p] = sum(NBR_ONE[color[p + d]] for d in (-width, -1, 1, width))
    refresh_all(s, z)
    return s, z


@inline
def set_playable(z, nw, color, p, on):
    """Set or clear bit p of playable(color)."""
    word = 1 + (color - 1) * nw + (p >> 6)
    mask = ONE << np.uint64(p & 63)
    if on:
        z[word] |= mask
    else:
        z[word] &= ~mask


@inline
def is_playable(z, nw, color, p):
    """True if bit p of playable(color) is set."""
    word = 1 + (color - 1) * nw + (p >> 6)
    return (z[word] >> np.uint64(p & 63)) & ONE != 0


@inline
def eye_color(s, p):
    """The colour c for which empty point p is eye-like (all on-board neighbours c), else EMPTY."""
    n = s[META + NBR * s[M_P] + p]
    if n & 15 == EYE_FULL:
        return BLACK
    if (n >> 4) & 15 == EYE_FULL:
        return WHITE
    return EMPTY


@inline
def is_real_eye(s, p, c):
    """For a point eye-like for c: True unless the diagonals make it a false eye.

    Read from the colours: only eye-like points ask, so keeping diagonal counts on
    every move would cost more than it saves."""
    w = s[M_W]
    colors = META + COLOR * s[M_P]
    other = 3 - c
    off = 0
    enemy = 0
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        d = s[colors + q]
        off |= d == OFFBOARD
        enemy += d == other
    if off:  # edge or corner
        return enemy == 0
    return enemy <= 1


@inline
def can_capture_at(s, p, c):
    """True if a stone of colour c at empty p would leave some neighbouring opponent string without liberties."""
    P = s[M_P]
    w = s[M_W]
    colors = META + COLOR * P
    heads = META + HEAD * P
    libs = META + LIBS * P
    other = 3 - c
    for q in (p - w, p - 1, p + 1, p + w):
        if s[colors + q] == other and s[libs + s[heads + q]] == 1:
            return True
    return False


@inline
def refresh_eye(s, z, p, owner):
    """Set both bits of a point eye-like for owner: owner keeps real eyes, the opponent only captures."""
    nw = s[M_NW]
    set_playable(z, nw, owner, p, not is_real_eye(s, p, owner))
    set_playable(z, nw, 3 - owner, p, can_capture_at(s, p, 3 - owner))


@inline
def refresh_point(s, z, p):
    """Recompute both colours' playable bits at point p from the position around it."""
    nw = s[M_NW]
    if s[META + COLOR * s[M_P] + p] != EMPTY:
        set_playable(z, nw, BLACK, p, False)
        set_playable(z, nw, WHITE, p, False)
        return
    owner = eye_color(s, p)
    if owner == EMPTY:
        set_playable(z, nw, BLACK, p, True)
        set_playable(z, nw, WHITE, p, True)
    else:
        refresh_eye(s, z, p, owner)


@kernel
def refresh_all(s, z):
    """Recompute every playable bit from scratch (used when a position is set up)."""
    P = s[M_P]
    for i in range(1, z.shape[0]):
        z[i] = 0
    for p in range(P):
        if s[META + COLOR * P + p] == EMPTY:
            refresh_point(s, z, p)


@inline
def _next_generation(s):
    """Start a fresh generation of MARK (resetting the marks on wrap-around)."""
    gen = s[M_GEN] + 1
    if gen >= 1 << 30:
        P = s[M_P]
        for i in range(META + MARK * P, META + (MARK + 1) * P):
            s[i] = 0
        gen = 1
    s[M_GEN] = gen
    return gen


@inline
def _push_dirty(s, p, ndirty):
    """Append p to the list of points to refresh at the end of the move; return the new length.

    Only atari transitions are pushed: each string at most once on entering and once on
    leaving, so the list never outgrows its P entries."""
    s[META + DIRTY * s[M_P] + ndirty] = p
    return ndirty + 1


@inline
def _count_stone(s, p, c, sign):
    """Add (sign=1) or remove (sign=-1) a c stone at p in its neighbours' NBR counts."""
    P = s[M_P]
    w = s[M_W]
    nbr = META + NBR * P
    dn = sign * (1 if c == BLACK else 16)
    s[nbr + p - w] += dn
    s[nbr + p - 1] += dn
    s[nbr + p + 1] += dn
    s[nbr + p + w] += dn


@inline
def _refresh_diagonals(s, z, p):
    """After a stone appeared or vanished at p: re-test the eyes on its empty diagonals."""
    w = s[M_W]
    colors = META + COLOR * s[M_P]
    nbr = META + NBR * s[M_P]
    for d in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        n = s[nbr + d]
        # one rarely-taken branch instead of two unpredictable ones: `&`, not `and`
        if (s[colors + d] == EMPTY) & ((n & 15 == EYE_FULL) | ((n >> 4) & 15 == EYE_FULL)):
            owner = eye_color(s, d)
            set_playable(z, s[M_NW], owner, d, not is_real_eye(s, d, owner))


@inline
def _adjacent_to(s, e, h, skip):
    """True if point e touches a stone of string h other than at point skip."""
    heads = META + HEAD * s[M_P]
    colors = META + COLOR * s[M_P]
    w = s[M_W]
    for q in (e - w, e - 1, e + 1, e + w):
        if q != skip and s[colors + q] != EMPTY and s[colors + q] != OFFBOARD and s[heads + q] == h:
            return True
    return False


@inline
def _absorb(s, h, q, c):
    """Add to string h (colour c) the liberties of stone q that h lacks, then make q a stone of h
    (lists not spliced)."""
    P = s[M_P]
    w = s[M_W]
    colors = META + COLOR * P
    nbr = META + NBR * P
    shift = 0 if c == BLACK else 4
    added = 0
    added_sum = 0
    for e in (q - w, q - 1, q + 1, q + w):
        n = s[nbr + e]
        empty = s[colors + e] == EMPTY
        # with q its only c neighbour (the common case) e cannot touch h: no search needed
        add = empty & (((n >> shift) & 15) - (n >> 8) == 1)
        if empty & (not add):
            add = not _adjacent_to(s, e, h, q)
        added += add
        added_sum += e * add
    s[META + LIBS * P + h] += added
    s[META + LIBSUM * P + h] += added_sum
    s[META + HEAD * P + q] = h


@inline
def _splice(s, a, b):
    """Join the circular stone lists that contain a and b."""
    nxt = META + NEXT * s[M_P]
    na = s[nxt + a]
    s[nxt + a] = s[nxt + b]
    s[nxt + b] = na


@inline
def _remove_string(s, z, zob, h, ndirty):
    """Take string h off the board, giving its points to the strings around it as liberties.

    Playable bits of the emptied points are not set here: see _refresh_removed.
    Returns (stones removed, new dirty-list length)."""
    P = s[M_P]
    w = s[M_W]
    colors = META + COLOR * P
    heads = META + HEAD * P
    nxt = META + NEXT * P
    libs = META + LIBS * P
    libsum = META + LIBSUM * P
    victim = s[colors + h]
    taker = 3 - victim
    p = h
    while True:  # first empty every point, so that the loop below sees only taker stones
        s[colors + p] = EMPTY
        z[0] ^= zob[victim * P + p]
        _count_stone(s, p, victim, -1)
        p = s[nxt + p]
        if p == h:
            break
    count = 0
    while True:
        count += 1
        g1 = g2 = g3 = -1  # strings already given p: at most three others can touch p
        for q in (p - w, p - 1, p + 1, p + w):
            if s[colors + q] == taker:
                g = s[heads + q]
                if g != g1 and g != g2 and g != g3:
                    if g1 < 0:
                        g1 = g
                    elif g2 < 0:
                        g2 = g
                    else:
                        g3 = g
                    if s[libs + g] == 1:  # leaving atari: its old liberty changes status
                        ndirty = _push_dirty(s, s[libsum + g], ndirty)
                    s[libs + g] += 1
                    s[libsum + g] += p
        p = s[nxt + p]
        if p == h:
            break
    return count, ndirty


@inline
def _refresh_if_new_eye(s, z, q, c):
    """After c played beside q: if q is empty and has become eye-like for c, set its playable bits."""
    n = s[META + NBR * s[M_P] + q] >> (0 if c == BLACK else 4)
    if (s[META + COLOR * s[M_P] + q] == EMPTY) & (n & 15 == EYE_FULL):
        refresh_eye(s, z, q, c)


@inline
def _refresh_removed(s, z, h):
    """Set the playable bits on and around the points of a removed string (its list is intact)."""
    p = h
    nxt = META + NEXT * s[M_P]
    while True:
        refresh_point(s, z, p)
        _refresh_diagonals(s, z, p)
        p = s[nxt + p]
        if p == h:
            break


@kernel
def play(s, z, zob, p, c):
    """Put a c stone on empty on-board point p: capture, merge, remove a suicided string, update
    hash, ko, counters and both playable sets. Returns stones captured, or minus the stones
    lost when the move was a (multi-stone) suicide. Does not check legality."""
    P = s[M_P]
    w = s[M_W]
    colors = META + COLOR * P
    heads = META + HEAD * P
    nxt = META + NEXT * P
    libs = META + LIBS * P
    libsum = META + LIBSUM * P
    ssize = META + SSIZE * P
    nw = s[M_NW]
    other = 3 - c
    ndirty = 0

    s[colors + p] = c
    z[0] ^= zob[c * P + p]
    _count_stone(s, p, c, 1)
    s[heads + p] = p
    s[nxt + p] = p
    s[ssize + p] = 1
    s[libs + p] = 0
    s[libsum + p] = 0
    set_playable(z, nw, BLACK, p, False)
    set_playable(z, nw, WHITE, p, False)

    # p is a liberty of the new stone or a lost liberty of each distinct neighbouring string;
    # h1..h4 record those strings once each, for the capture and merge steps below
    h1 = h2 = h3 = h4 = -1
    nlibs = 0
    sumlibs = 0
    for q in (p - w, p - 1, p + 1, p + w):
        cq = s[colors + q]
        empty = cq == EMPTY
        nlibs += empty  # counted without a branch: the colour of a neighbour is unpredictable
        sumlibs += q * empty
        if (cq == BLACK) | (cq == WHITE):
            g = s[heads + q]
            if g != h1 and g != h2 and g != h3:
                if h1 < 0:
                    h1 = g
                elif h2 < 0:
                    h2 = g
                elif h3 < 0:
                    h3 = g
                else:
                    h4 = g
                s[libs + g] -= 1
                s[libsum + g] -= p
                if s[libs + g] == 1:  # entering atari: its last liberty changes status
                    ndirty = _push_dirty(s, s[libsum + g], ndirty)
    s[libs + p] = nlibs
    s[libsum + p] = sumlibs

    captured = 0
    last_captured = -1
    k1 = k2 = k3 = k4 = -1  # heads of the captured strings
    for g in (h1, h2, h3, h4):
        if g < 0:  # h1..h4 and k1..k4 are filled in order: the first -1 ends each list
            break
        if s[colors + g] == other and s[libs + g] == 0:
            n, ndirty = _remove_string(s, z, zob, g, ndirty)
            captured += n
            last_captured = g  # the point itself when a single stone is taken (ko)
            if k1 < 0:
                k1 = g
            elif k2 < 0:
                k2 = g
            elif k3 < 0:
                k3 = g
            else:
                k4 = g

    # merge: the smaller string's stones are absorbed one by one into the larger
    for g in (h1, h2, h3, h4):  # distinct strings: none was merged into p's before its turn
        if g < 0:
            break
        if s[colors + g] == c:
            hp = s[heads + p]
            if g != hp:
                if s[ssize + g] >= s[ssize + hp]:
                    big, small = g, hp
                else:
                    big, small = hp, g
                r = small
                while True:
                    _absorb(s, big, r, c)
                    r = s[nxt + r]
                    if r == small:
                        break
                _splice(s, big, small)
                s[ssize + big] += s[ssize + small]

    h = s[heads + p]
    result = captured
    s[M_KO] = NO_KO
    if s[libs + h] == 0:  # suicide (only multi-stone: a lone stone here would be eye-like)
        n, ndirty = _remove_string(s, z, zob, h, ndirty)
        s[M_CAPTURES + other] += n
        result = -n
        k1 = h
    else:
        if s[libs + h] == 1:
            ndirty = _push_dirty(s, s[libsum + h], ndirty)
            if captured == 1 and s[ssize + h] == 1:
                s[M_KO] = last_captured
                s[M_KO_COLOR] = other
        s[M_CAPTURES + c] += captured

    # Playable bits. An empty orthogonal neighbour was not eye-like before (p was empty
    # beside it) and can only have become eye-like for c; diagonals can change eye status.
    # (four calls, not a loop over a tuple: numba makes that an indirect jump per turn)
    _refresh_if_new_eye(s, z, p - w, c)
    _refresh_if_new_eye(s, z, p - 1, c)
    _refresh_if_new_eye(s, z, p + 1, c)
    _refresh_if_new_eye(s, z, p + w, c)
    _refresh_diagonals(s, z, p)
    for k in (k1, k2, k3, k4):
        if k < 0:
            break
        _refresh_removed(s, z, k)
    dirty = META + DIRTY * P
    for i in range(ndirty):
        refresh_point(s, z, s[dirty + i])

    s[M_TO_MOVE] = other
    s[M_PASSES] = 0
    s[M_MOVES] += 1
    s[M_LAST] = p
    return result


@kernel
def play_pass(s, c):
    """c passes: the ko is lifted and the opponent is to move."""
    s[M_KO] = NO_KO
    s[M_PASSES] += 1
    s[M_TO_MOVE] = 3 - c
    s[M_LAST] = PASS


@kernel
def legality(s, p, c, allow_suicide):
    """0 if c may play at on-board point p (simple ko, board rules), else 1 occupied, 2 ko, 3 suicide."""
    P = s[M_P]
    w = s[M_W]
    colors = META + COLOR * P
    heads = META + HEAD * P
    libs = META + LIBS * P
    if s[colors + p] != EMPTY:
        return 1
    if p == s[M_KO] and c == s[M_KO_COLOR]:
        return 2
    friend = False
    for q in (p - w, p - 1, p + 1, p + w):
        cq = s[colors + q]
        if cq == EMPTY:
            return 0
        if cq == c:
            friend = True
            if s[libs + s[heads + q]] >= 2:
                return 0
        elif cq == 3 - c and s[libs + s[heads + q]] == 1:
            return 0
    if friend and allow_suicide:
        return 0
    return 3


@kernel
def area(s, owners):
    """Black area minus white area: stones plus empty regions whose border is one colour only.

    If owners is non-empty (int8[P]) it receives each point's owner: BLACK, WHITE or EMPTY (dame)."""
    P = s[M_P]
    w = s[M_W]
    colors = META + COLOR * P
    mark = META + MARK * P
    queue = META + DIRTY * P  # each empty point enters once, so P entries suffice
    gen = _next_generation(s)
    record = owners.shape[0] > 0
    score = 0
    tail = 0
    for p in range(P):
        c = s[colors + p]
        if c == BLACK:
            score += 1
        elif c == WHITE:
            score -= 1
        elif c == EMPTY and s[mark + p] != gen:
            s[mark + p] = gen
            start = tail
            s[queue + tail] = p
            tail += 1
            head = start
            border = 0
            while head < tail:
                e = s[queue + head]
                head += 1
                for q in (e - w, e - 1, e + 1, e + w):
                    cq = s[colors + q]
                    if cq == EMPTY:
                        if s[mark + q] != gen:
                            s[mark + q] = gen
                            s[queue + tail] = q
                            tail += 1
                    elif cq != OFFBOARD:
                        border |= cq
            if border == BLACK:
                score += tail - start
            elif border == WHITE:
                score -= tail - start
            if record:
                owner = border if border == BLACK or border == WHITE else EMPTY
                for i in range(start, tail):
                    owners[s[queue + i]] = owner
        if record and c != EMPTY:
            owners[p] = c if c != OFFBOARD else EMPTY
    return score


# what check() found wrong; messages in board.py
(CHECK_OK, BAD_COLOR, BAD_HEAD, BAD_LIST, BAD_LIBS, BAD_LIBSUM, BAD_SIZE, BAD_PLAYABLE, BAD_HASH, BAD_KO,
 BAD_COUNTS) = range(11)


@jit
def check(s, z, zob):
    """Recompute strings (flood fill), liberties, playable sets and hash from the colours alone,
    compare with the incremental state. Returns (CHECK_OK, -1) or (problem code, point).

    Deliberately shares no code with the incremental kernels above."""
    P = np.int64(s[M_P])
    w = np.int64(s[M_W])
    n = s[M_SIZE]
    nw = s[M_NW]
    colors = META + COLOR * P
    heads = META + HEAD * P
    nxt = META + NEXT * P
    for p in range(P):
        row = p // w - 1
        col = p % w - 1
        on = 0 <= row < n and 0 <= col < n
        c = s[colors + p]
        if on != (c != OFFBOARD) or c < 0 or c > 3:
            return BAD_COLOR, p
        if not 0 <= s[heads + p] < P:  # stale at empty points, but always a point (policy.in_atari reads it)
            return BAD_HEAD, p
    for p in range(P):
        row = p // w - 1
        col = p % w - 1
        if 0 <= row < n and 0 <= col < n:
            black = white = 0
            for d in (-w, -1, 1, w):
                cq = s[colors + p + d]
                black += cq == BLACK or cq == OFFBOARD
                white += cq == WHITE or cq == OFFBOARD
            off = 0
            for d in (-w, -1, 1, w):
                off += s[colors + p + d] == OFFBOARD
            if s[META + NBR * P + p] != black + 16 * white + 256 * off:
                return BAD_COUNTS, p
    true_libs = np.zeros(P, dtype=np.int64)  # liberties of the string of each stone
    seen = np.zeros(P, dtype=np.int64)  # string id + 1 of each stone once flooded
    lib_seen = np.zeros(P, dtype=np.int64)
    stack = np.zeros(P, dtype=np.int64)
    members = np.zeros(P, dtype=np.int64)
    h_hash = np.uint64(0)
    nstring = 0
    for p in range(P):
        c = s[colors + p]
        if c != BLACK and c != WHITE:
            continue
        h_hash ^= zob[c * P + p]
        if seen[p]:
            continue
        nstring += 1
        seen[p] = nstring
        stack[0] = p
        top = 1
        count = 0
        nlib = 0
        libsum = 0
        while top:
            top -= 1
            q = stack[top]
            members[count] = q
            count += 1
            for d in (-w, -1, 1, w):
                r = q + d
                cr = s[colors + r]
                if cr == c and not seen[r]:
                    seen[r] = nstring
                    stack[top] = r
                    top += 1
                elif cr == EMPTY and lib_seen[r] != nstring:
                    lib_seen[r] = nstring
                    nlib += 1
                    libsum += r
        h = s[heads + p]
        if h < 0 or h >= P or seen[h] != nstring:
            return BAD_HEAD, p
        for i in range(count):
            if s[heads + members[i]] != h:
                return BAD_HEAD, members[i]
            true_libs[members[i]] = nlib
        walked = 0
        q = h
        while True:
            if q < 0 or q >= P or seen[q] != nstring or walked > count:
                return BAD_LIST, h
            walked += 1
            q = s[nxt + q]
            if q == h:
                break
        if walked != count:
            return BAD_LIST, h
        if s[META + LIBS * P + h] != nlib:
            return BAD_LIBS, h
        if s[META + LIBSUM * P + h] != libsum:
            return BAD_LIBSUM, h
        if s[META + SSIZE * P + h] != count:
            return BAD_SIZE, h
    if h_hash != z[0]:
        return BAD_HASH, -1
    ko = s[M_KO]
    if ko != NO_KO and (ko < 0 or ko >= P or s[colors + ko] != EMPTY):
        return BAD_KO, ko
    for p in range(P):
        for c in (BLACK, WHITE):
            want = False
            if s[colors + p] == EMPTY:
                # eye-like for c / for the opponent, straight from the definition
                own = 0
                foe = 0
                onboard = 0
                atari_foe = False
                for d in (-w, -1, 1, w):
                    cq = s[colors + p + d]
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
                        cq = s[colors + p + d]
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
            word = 1 + (c - 1) * nw + (p >> 6)
            have = (z[word] >> np.uint64(p & 63)) & ONE != 0
            if have != want:
                return BAD_PLAYABLE, p
    return CHECK_OK, -1
