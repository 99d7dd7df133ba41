"""The packed position: its layout, and the accessors every other module reads it through.

What it is: the one owner of the layout of a position's arrays. Every other module reads
and writes a position through the named accessors below (`color_at`, `head_of`,
`string_in_atari`, `empty_base`, ...); only this module spells an offset into the arrays
(tests/test_layout.py holds every other module to that). Its underscore helpers (`_at`,
`_add_empty`, `_take_empty`, `_next_generation` and the packed-count readers) are shared
with the other board_* kernel modules and no one else. What it is not: the moves
(board_moves.py), the playable rule (board_playable.py), liberties on demand
(board_liberties.py), scoring (board_score.py) or the consistency check (board_check.py);
board_kernels.py gathers them all into one namespace.

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
"""

from __future__ import annotations

import numpy as np

from .bits import ONE
from .jit import inline, kernel

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
M_LAST_KO = 16  # the point of the last ko capture's taken stone (what M_KO was set to), or NO_KO
M_LAST_KO_AT = 17  # M_MOVES right after that capture: the heavy playouts' ko rule (policy_local.ko_fight) reads both
META = 32  # 128 bytes: the point records after it start at a multiple of 64 bytes from s[0], as at META = 16

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


def new_state(size: int, width: int, npoints: int, nwords: int):
    """Empty-board arrays (s, z) for one geometry, neighbour counts and the empty set filled in."""
    s = np.zeros(META + NSECTIONS * npoints, dtype=np.int32)
    z = np.zeros(1 + nwords, dtype=np.uint64)
    assert width < ROW_OF.shape[0] and npoints <= ROW_OF.shape[1], "row_col's table is too small"
    s[M_SIZE], s[M_W], s[M_P], s[M_NW] = size, width, npoints, nwords
    forget_history(s)
    s[M_TO_MOVE] = BLACK
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


def forget_history(s: np.ndarray) -> None:
    """A position with no past: no ko, no moves, passes or captures so far, no last move (a new board's,
    and a position set up from a diagram's)."""
    s[M_KO] = s[M_LAST_KO] = NO_KO
    s[M_MOVES] = s[M_PASSES] = s[M_CAPTURES + BLACK] = s[M_CAPTURES + WHITE] = 0
    s[M_LAST] = s[M_LAST2] = NO_MOVE


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
def captured_total(s):
    """Stones captured by both colours so far."""
    return np.int64(s[M_CAPTURES + BLACK]) + np.int64(s[M_CAPTURES + WHITE])


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
def pseudo_liberties(s, P, h):
    """The pseudo-liberty count of the string with head h: its (stone, empty neighbour) adjacencies."""
    return np.int64(s[_at(P, PLN, h)])


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


# ---------------------------------------------------------------- the packed neighbour counts

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
def stones_beside(s, P, p, c):
    """How many stones of colour c are orthogonal neighbours of p, from its packed counts (one load;
    off-board neighbours, which NBR counts as both colours, are taken off)."""
    n = nbr_counts(s, P, p)
    return ((n >> (4 * (c - 1))) & 15) - (n >> 8)


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
def is_stone_of(s, P, q, h):
    """1 if q holds a stone of the string with head h, else 0 (branch-free)."""
    return np.int64(_is_stone(color_at(s, P, q)) & (head_of(s, P, q) == h))


# ---------------------------------------------------------------- the empty points

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


# ---------------------------------------------------------------- flood-fill marks

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
