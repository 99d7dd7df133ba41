"""Compiled board kernels: the position as flat arrays, and moves played on them incrementally.

What it is: the one owner of the packed position. Every other module reads and
writes a position through the named accessors below (`color_at`, `head_of`,
`string_in_atari`, `empty_base`, ...); only this module spells an offset
into the arrays (tests/test_layout.py holds every other module to that).
What it is not: a rules engine. Nothing here checks legality beyond
`legality`, superko is in game.py, and kernels assume valid inputs (p empty and
on board for `play`). `play_scratch` moves keep everything but the hash and the
empty-point bitset, for positions a built-in policy plays out and throws away:
after them `check` fails by design.

A position is two numpy arrays, so that copying one for a playout is two memcpys:

``s`` (int32)  meta fields M_*, then one record of POINT_FIELDS int32 per padded point
(COLOR .. NBR of point p side by side, so the fields of a point and of its neighbours
are one base register and a displacement away), then the lists MARK, QUEUE, EMPTIES and SLOT of P
entries each; `_at(P, field, p)` is the one place that says so:
    COLOR   EMPTY / BLACK / WHITE, OFFBOARD on the sentinel ring
    HEAD    string id of a stone: the padded index of its string's head stone; at an
            empty point a stale head, but always a point (branch-free readers load there)
    NEXT    circular linked list of the stones of a string
    PLN     pseudo-liberty count of a string: its (stone, empty neighbour) adjacencies,
            so a liberty touching three of its stones counts three times  } valid at
    PLS     sum of the points of those pseudo-liberties                  } head
    PLQ     sum of their squares                                         } points
    SSIZE   stone count, valid at head points
    NBR     orthogonal neighbour counts, packed: black + 16 * white + 256 * off-board,
            where an off-board neighbour also counts as black and as white (so
            eye-like is one compare)
    MARK    generation marks for flood fills (area scoring, exact liberty counts)
    QUEUE   the flood fills' queue
    EMPTIES the empty on-board points as a list, M_EMPTIES long, in no particular order
            (the light draw indexes it: policy.choose_light)
    SLOT    the index in EMPTIES of each empty point (stale at stones)
``z`` (uint64)  z[0] the Zobrist hash of the stones, then the set of empty on-board points
    as a bitset over padded points (nw words from `empty_base`).

Pseudo-liberties (as in libego and Pachi's light boards) make a merge a relabel
and a capture a walk: no move asks whether a liberty is already counted. Atari
stays exact: by Cauchy-Schwarz, n * q == s * s exactly when every pseudo-liberty
is the same point, and that point is s / n. Exact liberty counts, which only the
API and a few policy questions need, are computed on demand (`liberty_count`,
`other_liberties`).

Playable sets follow the design card. For colour C and empty point e:
  eye-like(C, e)  every on-board orthogonal neighbour of e is a C stone;
  eye(C, e)       eye-like and at most one opponent stone on the diagonals
                  (none when a diagonal is off the board);
  playable(C, e)  not eye(C, e), and if eye-like(opponent, e) then some
                  neighbouring string has one liberty (playing there captures).
The ko point is not removed here; choosers remove it (see policy.py).

A move keeps only the empty points up to date (as a bitset, for scans in board order, and
as a list with each point's slot, for the light draw); whether an empty point is playable is
decided at the point when it is asked (`playable_at`: one load of its neighbour
counts for most points, the diagonals for an eye-like one, the neighbouring strings'
atari for the opponent's eye). The light draw asks only the points it draws and
rejects the unplayable ones (policy.py): 0.7 rejected draws per move in random 9x9
playouts, 0.95 on 19x19. Keeping the two playable sets themselves up to date on every
move (eyes appearing beside the move, turning false on its diagonals, atari
transitions at a distance) cost more: dropping it made 9x9 playouts 19% faster.
`playable_set` gives a whole set.
"""

from __future__ import annotations

import numpy as np

from .bits import ONE, trailing_zeros
from .jit import inline, jit, kernel

# meta fields of s
M_SIZE, M_W, M_P, M_NW = 0, 1, 2, 3
M_KO = 4  # point where M_KO_COLOR may not play next (simple ko), or NO_KO
M_TO_MOVE = 5
M_PASSES = 6  # consecutive passes at the end of the move sequence
M_MOVES = 7  # moves (not passes) played since the position was created
M_CAPTURES = 8  # M_CAPTURES + colour: stones captured BY that colour
M_BALANCE = 8  # black stones less white stones (the slot M_CAPTURES + EMPTY, which no colour uses)
M_GEN = 11  # current generation for MARK
M_LAST = 12  # last move point, PASS (-1) or NO_MOVE
M_KO_COLOR = 13  # the colour that may not play at M_KO
M_EMPTIES = 14  # the number of empty on-board points (bits in the empty set, entries in EMPTIES)
M_LAST2 = 15  # the move before the last (what M_LAST held before it): the tree's learned prior reads it
META = 16

# fields: the first POINT_FIELDS are kept together per point, the rest are lists of P entries after them
COLOR, HEAD, NEXT, PLN, PLS, PLQ, SSIZE, NBR, MARK, QUEUE, EMPTIES, SLOT = range(12)
NSECTIONS = 12
POINT_FIELDS = 8

EMPTY, BLACK, WHITE, OFFBOARD = 0, 1, 2, 3
PASS = -1
NO_MOVE = -2  # M_LAST before any move
NO_KO = -1

# what one neighbour of each colour adds to NBR (indexed by colour)
NBR_ONE = (0, 1, 16, 17 + 256)
EYE_FULL = 4  # NBR count (own stones + off-board) of an eye-like point

# legality() answers
LEGAL, OCCUPIED, KO, SUICIDE = 0, 1, 2, 3


def new_state(size: int, width: int, npoints: int, nwords: int):
    """Empty-board arrays (s, z) for one geometry, neighbour counts and the empty set filled in."""
    s = np.zeros(META + NSECTIONS * npoints, dtype=np.int32)
    z = np.zeros(1 + nwords, dtype=np.uint64)
    assert width < ROW_OF.shape[0] and npoints <= ROW_OF.shape[1], "row_col's table is too small"
    s[M_SIZE], s[M_W], s[M_P], s[M_NW] = size, width, npoints, nwords
    s[M_KO] = NO_KO
    s[M_TO_MOVE] = BLACK
    s[M_LAST] = s[M_LAST2] = NO_MOVE
    color = colors_view(s)
    color[:] = OFFBOARD
    for row in range(size):
        start = (row + 1) * width + 1
        color[start : start + size] = EMPTY
    nbr = section_view(s, NBR)
    for p in range(width + 1, npoints - width - 1):
        nbr[p] = sum(NBR_ONE[color[p + d]] for d in (-width, -1, 1, width))
    refresh_empty(s, z)
    return s, z


def section_view(s: np.ndarray, section: int) -> np.ndarray:
    """Section `section` (COLOR, HEAD, ... QUEUE) of s as a writable numpy view indexed by padded
    point, for Python-side readers and for tests that corrupt a state on purpose."""
    P = int(s[M_P])
    if section < POINT_FIELDS:
        return s[META + section : META + POINT_FIELDS * P : POINT_FIELDS]
    start = META + POINT_FIELDS * P + (section - POINT_FIELDS) * P
    return s[start : start + P]


def situation(s: np.ndarray) -> tuple[int, ...]:
    """What besides the stones and the side to move decides a position's moves and its tree's priors
    (Python side): the ko point and the colour it binds, the passes in a row, the last two moves."""
    return tuple(int(s[f]) for f in (M_KO, M_KO_COLOR, M_PASSES, M_LAST, M_LAST2))


def colors_view(s: np.ndarray) -> np.ndarray:
    """The COLOR section of s as a writable numpy view indexed by padded point (Python side)."""
    return section_view(s, COLOR)


def empty_words(z: np.ndarray, nwords: int) -> np.ndarray:
    """The empty-point set as a view of its nwords uint64 words (Python side)."""
    return z[1 : 1 + nwords]


# ---------------------------------------------------------------- accessors (the layout's one owner)

@inline
def _at(P, field, p):
    """Index in s of field `field` of point p: the point fields of p side by side, then the lists."""
    if field < POINT_FIELDS:
        return META + p * POINT_FIELDS + field
    return META + POINT_FIELDS * P + (field - POINT_FIELDS) * P + p


@inline
def copy_position(s0, z0, s, z):
    """(s, z) = (s0, z0): a position copied into arrays of its shape (a playout's or a chase's scratch),
    in a kernel that may not allocate; two loops LLVM makes memcpys."""
    for j in range(s0.shape[0]):
        s[j] = s0[j]
    for j in range(z0.shape[0]):
        z[j] = z0[j]


@inline
def stride(s):
    """P, the length of every section of s (the padded point count)."""
    return np.int64(s[M_P])


# ROW_OF[w, p] = p // w for widths up to 32 (sizes up to 30): a load where a division takes 10-20 cycles
ROW_OF = (np.arange(1024)[None, :] // np.maximum(np.arange(33), 1)[:, None]).astype(np.int8)


@inline
def row_col(s, p):
    """(row, column) of padded point p, the border's row and column 0: a table, no division."""
    w = np.int64(s[M_W])
    row = np.int64(ROW_OF[w, p])
    return row, p - row * w


@inline
def color_at(s, P, p):
    """EMPTY, BLACK, WHITE or OFFBOARD at padded point p."""
    return s[_at(P, COLOR, p)]


@inline
def head_of(s, P, p):
    """The head (string id) of the stone at p; a stale point at an empty p."""
    return np.int64(s[_at(P, HEAD, p)])


@inline
def next_stone(s, P, p):
    """The stone after p in its string's circular list."""
    return np.int64(s[_at(P, NEXT, p)])


@inline
def string_size(s, P, h):
    """Stones in the string with head h."""
    return s[_at(P, SSIZE, h)]


@inline
def nbr_counts(s, P, p):
    """The packed orthogonal neighbour counts of p (see NBR)."""
    return s[_at(P, NBR, p)]


@inline
def string_in_atari(s, P, h):
    """True if the string with head h has exactly one liberty (all its pseudo-liberties are one point).

    Any h that is a point may be asked (a stale head reads a stale answer, never out of bounds)."""
    n = np.int64(s[_at(P, PLN, h)])
    t = np.int64(s[_at(P, PLS, h)])
    q = np.int64(s[_at(P, PLQ, h)])
    return (n > 0) & (n * q == t * t)


@inline
def atari_liberty(s, P, h):
    """The one liberty of string h, which must be in atari."""
    return np.int64(s[_at(P, PLS, h)]) // np.int64(s[_at(P, PLN, h)])


@inline
def has_no_liberty(s, P, h):
    """True if the string with head h has no liberty left."""
    return s[_at(P, PLN, h)] == 0


@inline
def stone_in_atari(s, P, q, color):
    """True if q holds a `color` stone whose string has one liberty. Branch-free, for scans where
    the colour is unpredictable: HEAD holds a point at every index, so the loads stay in bounds."""
    return (color_at(s, P, q) == color) & string_in_atari(s, P, head_of(s, P, q))


@inline
def empty_base(nw):
    """Index in z of the first word of the empty-point set."""
    return 1


@inline
def set_bit(z, base, p):
    """Set bit p of the bitset starting at z[base]."""
    z[base + (p >> 6)] |= ONE << np.uint64(p & 63)


@inline
def clear_bit(z, base, p):
    """Clear bit p of the bitset starting at z[base]."""
    z[base + (p >> 6)] &= ~(ONE << np.uint64(p & 63))


@inline
def ko_point_for(s, c):
    """The point simple ko forbids to c now, or NO_KO."""
    return s[M_KO] if s[M_KO_COLOR] == c else NO_KO


# ---------------------------------------------------------------- eyes and playable bits

@inline
def eye_color(s, p):
    """The colour c for which empty point p is eye-like (all on-board neighbours c), else EMPTY."""
    n = nbr_counts(s, stride(s), p)
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
    w = np.int64(s[M_W])
    P = stride(s)
    other = 3 - c
    off = 0
    enemy = 0
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        d = color_at(s, P, q)
        off |= d == OFFBOARD
        enemy += d == other
    if off:  # edge or corner
        return enemy == 0
    return enemy <= 1


@inline
def can_capture_at(s, p, c):
    """True if a stone of colour c at empty p would leave some neighbouring opponent string without liberties."""
    P = stride(s)
    w = np.int64(s[M_W])
    other = 3 - c
    # branch-free: which neighbours hold opponent strings in atari is unpredictable
    return (stone_in_atari(s, P, p - w, other) | stone_in_atari(s, P, p - 1, other)
            | stone_in_atari(s, P, p + 1, other) | stone_in_atari(s, P, p + w, other))


@inline
def playable_at(s, p, c):
    """True if empty point p is in playable(c) (the ko point not considered): not c's real eye,
    and the opponent's eye-like point only where a stone of c captures."""
    n = nbr_counts(s, stride(s), p)
    if (n >> (0 if c == BLACK else 4)) & 15 == EYE_FULL:
        return not is_real_eye(s, p, c)
    if (n >> (4 if c == BLACK else 0)) & 15 == EYE_FULL:
        return can_capture_at(s, p, c)
    return True


@inline
def is_playable(s, p, c):
    """True if on-board point p is empty and in playable(c) (the ko point not considered)."""
    return color_at(s, stride(s), p) == EMPTY and playable_at(s, p, c)


@kernel
def playable_set(s, z, c, words):
    """Fill words (uint64[nw]) with playable(c) as a bitset over padded points (ko not removed)."""
    nw = s[M_NW]
    base = empty_base(nw)
    for i in range(nw):
        word = z[base + i]
        out = np.uint64(0)
        while word:
            bit = word & (~word + ONE)
            word ^= bit
            p = i * 64 + np.int64(trailing_zeros(bit))
            if playable_at(s, p, c):
                out |= bit
        words[i] = out


@inline
def empty_point(s, i):
    """Entry i (0 <= i < M_EMPTIES) of the list of empty points."""
    return np.int64(s[_at(stride(s), EMPTIES, i)])


@inline
def _put_empty(s, P, i, p):
    """Make empty point p entry i of the list (and i its slot)."""
    s[_at(P, EMPTIES, i)] = p
    s[_at(P, SLOT, p)] = i


@inline
def swap_empties(s, i, j):
    """Exchange entries i and j of the list of empty points (the set stays the same)."""
    P = stride(s)
    p = s[_at(P, EMPTIES, i)]
    q = s[_at(P, EMPTIES, j)]
    _put_empty(s, P, i, q)
    _put_empty(s, P, j, p)


@inline
def _add_empty(s, z, P, nw, p, full):
    """p became empty: into the set (if full: see play_scratch) and at the end of the list."""
    if full:
        set_bit(z, empty_base(nw), p)
    n = s[M_EMPTIES]
    _put_empty(s, P, n, p)
    s[M_EMPTIES] = n + 1


@inline
def _take_empty(s, z, P, nw, p, full):
    """p is no longer empty: out of the set (if full: see play_scratch), and out of the list (the
    last entry takes its slot)."""
    if full:
        clear_bit(z, empty_base(nw), p)
    n = s[M_EMPTIES] - 1
    _put_empty(s, P, s[_at(P, SLOT, p)], s[_at(P, EMPTIES, n)])
    s[M_EMPTIES] = n


@kernel
def refresh_empty(s, z):
    """Recompute the empty-point set, list and count from the colours (when a position is set up)."""
    P = stride(s)
    nw = s[M_NW]
    for i in range(1, z.shape[0]):
        z[i] = 0
    s[M_EMPTIES] = 0
    for p in range(P):
        if color_at(s, P, p) == EMPTY:
            _add_empty(s, z, P, nw, p, True)


# ---------------------------------------------------------------- the steps of a move

@inline
def _next_generation(s):
    """Start a fresh generation of MARK (resetting the marks on wrap-around)."""
    gen = s[M_GEN] + 1
    if gen >= 1 << 30:
        P = stride(s)
        for i in range(P):
            s[_at(P, MARK, i)] = 0
        gen = 1
    s[M_GEN] = gen
    return gen


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
def _no_stone_beside(n):
    """True if the packed neighbour counts n (see NBR) hold no stone: with k off-board neighbours
    n is b + 16 * w + 273 * k for b black and w white ones, so b == w == 0 exactly when n == 273 * k."""
    return n == 273 * (n >> 8)


@inline
def no_stone_beside(s, P, p):
    """True if no orthogonal neighbour of p holds a stone."""
    return _no_stone_beside(nbr_counts(s, P, p))


@inline
def _empty_neighbours(n):
    """The empty orthogonal neighbours of a point with packed counts n (see NBR)."""
    off = n >> 8
    return 4 - (n & 15) - ((n >> 4) & 15) + off


@inline
def empty_neighbours(s, P, p):
    """How many orthogonal neighbours of p are empty, from its packed counts (one load)."""
    return _empty_neighbours(nbr_counts(s, P, p))


@inline
def _is_stone(color):
    """True for BLACK and WHITE (colours are EMPTY 0, BLACK 1, WHITE 2, OFFBOARD 3)."""
    return (color ^ (color >> 1)) & 1 != 0


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


# ---------------------------------------------------------------- exact liberties, on demand

@inline
def _touches(s, P, q, h):
    """1 if q holds a stone of string h, else 0."""
    return np.int64(_is_stone(color_at(s, P, q)) & (head_of(s, P, q) == h))


@inline
def other_liberties(s, P, w, h, p):
    """Liberties of string h other than its liberty p, counted up to 2: (count 0..2, the one such
    liberty when the count is 1, else -1). O(1): take p's pseudo-liberties out of h's count,
    sum and sum of squares; what is left is one point exactly when n * q == s * s."""
    k = (_touches(s, P, p - w, h) + _touches(s, P, p - 1, h) + _touches(s, P, p + 1, h)
         + _touches(s, P, p + w, h))
    n = np.int64(s[_at(P, PLN, h)]) - k
    t = np.int64(s[_at(P, PLS, h)]) - k * p
    q = np.int64(s[_at(P, PLQ, h)]) - k * p * p
    if n == 0:
        return 0, -1
    if n * q == t * t:
        return 1, t // n
    return 2, -1


@kernel
def liberty_count(s, p):
    """Exact number of liberties of the string holding the stone at p (a walk over its stones,
    each liberty marked once)."""
    P = stride(s)
    w = np.int64(s[M_W])
    h = head_of(s, P, p)
    if string_in_atari(s, P, h):
        return 1
    gen = _next_generation(s)
    count = 0
    r = h
    while True:
        for e in (r - w, r - 1, r + 1, r + w):
            if color_at(s, P, e) == EMPTY and s[_at(P, MARK, e)] != gen:
                s[_at(P, MARK, e)] = gen
                count += 1
        r = next_stone(s, P, r)
        if r == h:
            break
    return count


# ---------------------------------------------------------------- scoring

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
            owner = border if border == BLACK or border == WHITE else EMPTY
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


# ---------------------------------------------------------------- consistency check

# what check() found wrong; messages in board.py
(CHECK_OK, BAD_COLOR, BAD_HEAD, BAD_LIST, BAD_PSEUDO, BAD_SIZE, BAD_PLAYABLE, BAD_HASH, BAD_KO,
 BAD_COUNTS, BAD_EMPTY_SET, BAD_BALANCE) = range(12)


@jit
def check(s, z, zob):
    """Recompute strings (flood fill), pseudo-liberties, liberties, the empty set, playability and
    hash from the colours alone; compare with the incremental state and with `playable_at`, the
    on-demand rule. Returns (CHECK_OK, -1) or (problem code, point).

    Deliberately shares no code with the incremental kernels above: it reads the fields directly."""
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
