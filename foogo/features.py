"""What the tree's learned prior knows about a move: its features, and the gammas that rate them.

What it is: the feature code of a candidate move (colour c at empty point p), in
five groups, one feature from each, and its spatial pattern:
  PATTERN  its 3x3 neighbourhood seen from the mover (spatial_patterns.mover_code:
           the mover's stones as BLACK); the learning script folds the 8
           rotations and reflections into one class (`pattern_classes`)
  TACTICS  T_CAPTURE2 (takes a string of 2+ stones), T_CAPTURE1 (takes stones of
           one-stone strings only), T_SELF1 (a self-atari of the stone alone),
           T_NAKADE (a self-atari of 2+ stones that kills, nakade.py, as the heavy
           policies' searches and the fit see it: `sacrifices`) or else T_SELF2,
           T_SAVE (extends an own string in atari; T_SAVE_LADDERED when a ladder
           then takes it, ladders.py), T_ATARI (leaves an opponent string one
           liberty), else T_PLAIN; the first that applies, in that order
  LAST     its distance d = dx + dy + max(dx, dy) to the last move, 2..10 as 1..9;
           0 when farther, after a pass, before any move, or at the move's own point
           (its stone captured since)
  LAST2    likewise to the move before (the mover's own last move)
  LINE     its line (distance to the edge) 0, 1, 2, 3 or 4+, plus 5 when no stone
           lies in the 5x5 square around it
  SPATIAL  the colours of the 5x5 square around it less the corners (20 points),
           or of its inner 12 points when the table lacks the 20-point pattern
           (spatial_patterns.spatial_code: the largest pattern the table knows, as in
           Coulom's paper); none when it knows neither
and the gamma table that rates them: a Bradley-Terry model (Coulom, "Computing
Elo ratings of move patterns in the game of Go", 2007) in which a move's gamma
is the product of its features' gammas, and the chance that a strong player
picks it among the candidates is its gamma over their sum. The gammas are fitted
by Minorization-Maximization to games (bench/learn_gammas.py makes them) and
shipped as foogo/data/gammas.npz: one float32 table, TABLE_SIZE long, the
pattern group indexed by raw code (each code holding its class's gamma) and each
other group at its OFFSET; and the spatial patterns seen often enough in the
games, as canonical keys and gammas. At import gamma_table.py makes them
GAMMAS, the prior table the kernels read (`gamma_table.prior_table`): the group
table, whose layout this module owns, then a hash table of every rotation and
reflection of each spatial pattern, whose layout spatial_table.py owns
(`spatial_gamma` reads it, `insert_spatial` fills it; both are read as
features.* too).

The candidates are the moves the tree gives an edge (`may_consider`): empty
points the playout rule and the board's rules allow, pass aside. The heavy
playouts may also take their 3x3 shapes from the gammas
(`gamma_table.learned_pattern_table`, SearchConfig.playout_patterns).

What it is not: a playout policy (playouts never read the gammas), nor patterns
beyond the 5x5 square or liberties beyond atari (liberty counts after the move
moved the held-out log p of Pachi's moves by 0.02, the spatial pattern by 0.27:
bench/results/learn_gammas-spatial.txt); ladders are read only after an atari escape
(ladders.py). Whether an atari starts a working ladder is not a feature: in
Pachi's games it made such an atari 1.26 times as likely as another (gammas
2.06 and 1.63), and reading it made each expansion of the search bench's 19x19
middle game 16 us instead of 10, more than the tree could spare. Nor the point's
Monte-Carlo owner (Coulom's feature): the share of 32 heavy playouts that leave
it the mover's, in 8 bins, moved the held-out log p by +0.011 (+0.008 to +0.015;
bench/owner_feature.py, bench/results/owner-feature-2026-12-04.txt).
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .bits import ONE
from .geometry import parse_color
from .intrinsics import prefetch
from .jit import inline, kernel
from .ladders import captured_after, default_plies
from .nakade import nakade
from .spatial_patterns import mover_code, spatial_code, spatial_code_at
from .spatial_table import (  # noqa: F401 (LEVEL_SHIFT .. SPATIAL_MAX_PATTERNS, insert_spatial: read as features.*)
    LEVEL_SHIFT,
    SPATIAL_MAX_LOAD,
    SPATIAL_MAX_PATTERNS,
    SPATIAL_MIN_COUNT,
    SPATIAL_SLOTS,
    insert_spatial,
    prefetch_slots,
    spatial_gamma,
)
from .tactics import self_atari

G_PATTERN, G_TACTICS, G_LAST, G_LAST2, G_LINE = range(5)
GROUPS = ("pattern", "tactics", "last", "last2", "line")
T_PLAIN, T_CAPTURE1, T_CAPTURE2, T_SAVE, T_ATARI, T_SELF1, T_SELF2, T_SAVE_LADDERED, T_NAKADE = range(9)
TACTICS_NAMES = ("plain", "capture", "capture 2+", "atari escape", "atari", "self-atari", "self-atari 2+",
                 "escape into a ladder", "nakade")
GROUP_SIZES = (1 << 16, len(TACTICS_NAMES), 10, 10, 10)
OFFSETS = tuple(int(x) for x in np.concatenate([[0], np.cumsum(GROUP_SIZES)[:-1]]))
TABLE_SIZE = int(sum(GROUP_SIZES))
FAR_DISTANCE = 10  # LAST and LAST2 tell distances 2..FAR_DISTANCE apart
EMPTY_SQUARE = 5  # LINE + EMPTY_SQUARE: no stone in the 5x5 square around the move
TWO = np.uint64(2)



# ---------------------------------------------------------------- the candidates

@inline
def may_consider(s, P, p, c):
    """True if c may play at empty p in the tree: the playout rule (no own-eye fill) and the board's
    (no suicide, no simple-ko retake). A point with no stone beside passes both at once: it is no
    eye, it has a liberty, and it is not the ko point (which the capturing stones surround)."""
    if bk.no_stone_beside(s, P, p):
        return True
    return bk.playable_at(s, p, c) and bk.legality(s, p, c, False) == bk.LEGAL


# ---------------------------------------------------------------- the features

@inline
def tactics(s, P, w, p, c, sacrifices):
    """The TACTICS class of c at empty p, ladders unread: an escape is T_SAVE (see ladder_tactics). With
    `sacrifices` (the learned prior's view with the heavy policies, whose playouts avoid the sacrifice:
    tree_priors.tells_nakade; and the fit's, bench/learn_gammas.py) a nakade is T_NAKADE, not T_SELF2."""
    if bk.no_stone_beside(s, P, p):
        return T_PLAIN
    capture1 = False
    capture2 = False
    saves = False
    ataris = False
    joins = False
    for q in (p - w, p - 1, p + 1, p + w):
        cq = bk.color_at(s, P, q)
        if cq == 3 - c:
            h = bk.head_of(s, P, q)
            if bk.string_in_atari(s, P, h):
                if bk.string_size(s, P, h) >= 2:
                    capture2 = True
                else:
                    capture1 = True
            elif bk.other_liberties(s, P, w, h, p)[0] == 1:
                ataris = True
        elif cq == c:
            joins = True
            if bk.string_in_atari(s, P, bk.head_of(s, P, q)):
                saves = True
    if capture2:
        return T_CAPTURE2
    if capture1:
        return T_CAPTURE1
    if self_atari(s, p, c):
        if not joins:
            return T_SELF1
        return T_NAKADE if sacrifices and nakade(s, p, c) else T_SELF2
    if saves:
        return T_SAVE
    if ataris:
        return T_ATARI
    return T_PLAIN


@inline
def ladder_tactics(s, z, zob, ls, lz, P, w, p, c, sacrifices):
    """The TACTICS feature (T_*) of c at empty p: tactics (`sacrifices`: see there), with an escape that a
    ladder then takes T_SAVE_LADDERED; (ls, lz): scratch for the ladder reader (ladders.py)."""
    t = tactics(s, P, w, p, c, sacrifices)
    if t == T_SAVE and captured_after(s, z, zob, ls, lz, p, c, p, default_plies(np.int64(s[bk.M_SIZE]))):
        return T_SAVE_LADDERED
    return t


NOWHERE = -1000  # the row and column of no point (a PASS or NO_MOVE): every point is far from it


@inline
def place_of(s, q):
    """(row, column) of an earlier move q for distance_between: NOWHERE for a PASS or NO_MOVE."""
    if q < 0:
        return np.int64(NOWHERE), np.int64(NOWHERE)
    return bk.row_col(s, q)


@inline
def distance_between(prow, pcol, qrow, qcol):
    """The LAST / LAST2 feature of the point at (prow, pcol) for an earlier move at (qrow, qcol) (place_of)."""
    dx = abs(pcol - qcol)
    dy = abs(prow - qrow)
    d = dx + dy + max(dx, dy)
    return d - 1 if 2 <= d <= FAR_DISTANCE else 0  # d = 0: q's stone was captured since


@inline
def distance_feature(s, p, q):
    """The LAST / LAST2 feature of p for an earlier move q (a point, PASS or NO_MOVE)."""
    prow, pcol = bk.row_col(s, p)
    qrow, qcol = place_of(s, q)
    return distance_between(prow, pcol, qrow, qcol)


@inline
def _row_bits(z, base, start, n):
    """Bits start .. start + n - 1 (n <= 32) of the bitset at z[base], lowest first."""
    i = start >> 6
    o = np.uint64(start & 63)
    x = z[base + i] >> o
    if o + np.uint64(n) > np.uint64(64):
        x |= z[base + i + 1] << (np.uint64(64) - o)
    return x & ((ONE << np.uint64(n)) - ONE)


@inline
def stones_near(s, z, row):
    """The columns of on-board row `row` (1..n; bit j for column j + 1) whose 5x5 square around the
    point holds a stone: the stones of rows row - 2 .. row + 2, spread two columns either way. One
    answer for a whole row, from the empty set's words."""
    n = np.int64(s[bk.M_SIZE])
    w = np.int64(s[bk.M_W])
    full = (ONE << np.uint64(n)) - ONE
    base = bk.empty_base(s[bk.M_NW])
    x = np.uint64(0)
    for r in range(max(row - 2, 1), min(row + 2, n) + 1):
        x |= ~_row_bits(z, base, r * w + 1, n) & full
    return (x | (x << ONE) | (x << TWO) | (x >> ONE) | (x >> TWO)) & full


@inline
def row_near(s, z, p, row, near):
    """(p's row, its column, stones_near of its row), given the row whose stones_near `near` holds (-1:
    none yet): a scan in point order reads stones_near once a row."""
    prow, pcol = bk.row_col(s, p)
    if prow != row:
        near = stones_near(s, z, prow)
    return prow, pcol, near


@inline
def empty_square_in(s, p, near):
    """True if no stone lies in the 5x5 square around on-board p, given near = stones_near of p's row."""
    return open_column(near, bk.row_col(s, p)[1])


@inline
def open_column(near, col):
    """True if no stone lies in the 5x5 square around the point of column col, given near = stones_near
    of its row."""
    return (near >> np.uint64(col - 1)) & ONE == 0


@inline
def empty_square(s, z, p):
    """True if no stone lies in the 5x5 square around on-board p."""
    return empty_square_in(s, p, stones_near(s, z, bk.row_col(s, p)[0]))


@inline
def line_of(s, p):
    """The line of on-board p: its distance to the nearest edge (0 on the first line)."""
    row, col = bk.row_col(s, p)
    return line_at(np.int64(s[bk.M_SIZE]), row, col)


@inline
def line_at(n, row, col):
    """The line of the on-board point at (row, col) of an n x n board (see line_of)."""
    return min(min(row - 1, col - 1), min(n - row, n - col))


@inline
def line_feature(s, p, near):
    """The LINE feature of on-board p, given near = stones_near of p's row."""
    row, col = bk.row_col(s, p)
    return line_feature_at(np.int64(s[bk.M_SIZE]), row, col, near)


@inline
def line_feature_at(n, row, col, near):
    """The LINE feature of the on-board point at (row, col), given near = stones_near of its row."""
    return min(line_at(n, row, col), 4) + (EMPTY_SQUARE if open_column(near, col) else 0)


@inline
def move_features(s, z, zob, ls, lz, p, c, sacrifices, out):
    """out[G_*] = the five features of c at empty p (out[G_PATTERN]: the raw mover code); (ls, lz):
    tactics' scratch; sacrifices: a nakade is T_NAKADE, not a self-atari (tactics)."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    out[G_PATTERN] = mover_code(s, p, c)
    out[G_TACTICS] = ladder_tactics(s, z, zob, ls, lz, P, w, p, c, sacrifices)
    out[G_LAST] = distance_feature(s, p, np.int64(s[bk.M_LAST]))
    out[G_LAST2] = distance_feature(s, p, np.int64(s[bk.M_LAST2]))
    out[G_LINE] = line_feature(s, p, stones_near(s, z, bk.row_col(s, p)[0]))


@inline
def move_gamma(s, z, zob, ls, lz, p, c, gammas, near, sacrifices):
    """The gamma of c at empty p: the product of its features' gammas and its spatial pattern's in
    table `gammas` (the prior table: GAMMAS' layout); near:
    stones_near of p's row (one reading serves a row's candidates); (ls, lz): tactics' scratch;
    sacrifices: as tactics'."""
    row, col = bk.row_col(s, p)
    lrow, lcol = place_of(s, np.int64(s[bk.M_LAST]))
    l2row, l2col = place_of(s, np.int64(s[bk.M_LAST2]))
    return gamma_at(s, z, zob, ls, lz, p, c, gammas, near, row, col, lrow, lcol, l2row, l2col, sacrifices)


@inline
def gamma_at(s, z, zob, ls, lz, p, c, gammas, near, row, col, lrow, lcol, l2row, l2col, sacrifices):
    """move_gamma of c at empty p, at (row, col), the last two moves at (lrow, lcol) and (l2row, l2col)
    (place_of): what a node's expansion rates point after point, with the moves' places read once;
    with `sacrifices` a nakade is rated as one (T_NAKADE), not as a self-atari (tactics)."""
    return gamma_of_code(s, z, zob, ls, lz, p, c, gammas, near, row, col, lrow, lcol, l2row, l2col, sacrifices,
                         spatial_code_at(s, p, c, row, col))


@inline
def gamma_of_code(s, z, zob, ls, lz, p, c, gammas, near, row, col, lrow, lcol, l2row, l2col, sacrifices, code):
    """gamma_at, given p's SPATIAL code for c (spatial_code_at)."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    g = gammas[OFFSETS[G_PATTERN] + (code & 0xFFFF)]  # the code's low 16 bits: mover_code
    g *= gammas[OFFSETS[G_TACTICS] + ladder_tactics(s, z, zob, ls, lz, P, w, p, c, sacrifices)]
    g *= gammas[OFFSETS[G_LAST] + distance_between(row, col, lrow, lcol)]
    g *= gammas[OFFSETS[G_LAST2] + distance_between(row, col, l2row, l2col)]
    g *= gammas[OFFSETS[G_LINE] + line_feature_at(np.int64(s[bk.M_SIZE]), row, col, near)]
    return g * spatial_gamma(gammas, code)


# ---------------------------------------------------------------- open points

# An open point, one with no stone in the 5x5 square around it, has the features of the same point
# of the empty board but for its distances to the last two moves: its 3x3 and SPATIAL codes see only
# empty and off-board points, its TACTICS is T_PLAIN (no stone beside) and its LINE has EMPTY_SQUARE.
# So a node's expansion rates it from three parts read once a board size (fill_open_parts): OPEN_BASE,
# the PATTERN and TACTICS gammas' product; OPEN_LINE, the LINE gamma; OPEN_SPATIAL, the SPATIAL gamma.
# open_gamma multiplies them with the distances' gammas in gamma_of_code's order, so the gamma is the
# same number to the last bit. Most points of an opening are open (on 19x19, most of a game's).
OPEN_BASE, OPEN_LINE, OPEN_SPATIAL = range(3)


@kernel
def fill_open_parts(s, gammas, parts):
    """parts[OPEN_*, p] (float64[3, P]) for every on-board point p of the empty board s, from the prior
    table gammas: what open_gamma reads."""
    n = np.int64(s[bk.M_SIZE])
    w = np.int64(s[bk.M_W])
    for row in range(1, n + 1):
        for col in range(1, n + 1):
            p = row * w + col
            code = spatial_code_at(s, p, bk.BLACK, row, col)
            g = gammas[OFFSETS[G_PATTERN] + (code & 0xFFFF)]
            g *= gammas[OFFSETS[G_TACTICS] + T_PLAIN]
            parts[OPEN_BASE, p] = g
            parts[OPEN_LINE, p] = gammas[OFFSETS[G_LINE] + line_feature_at(n, row, col, np.uint64(0))]
            parts[OPEN_SPATIAL, p] = spatial_gamma(gammas, code)


@inline
def open_gamma(parts, p, gammas, row, col, lrow, lcol, l2row, l2col):
    """gamma_of_code of a move at open p (see above; any mover), at (row, col), the last two moves at
    (lrow, lcol) and (l2row, l2col), from parts = fill_open_parts of the same table."""
    g = parts[OPEN_BASE, p]
    g *= gammas[OFFSETS[G_LAST] + distance_between(row, col, lrow, lcol)]
    g *= gammas[OFFSETS[G_LAST2] + distance_between(row, col, l2row, l2col)]
    g *= parts[OPEN_LINE, p]
    return g * parts[OPEN_SPATIAL, p]


@kernel
def candidate_features(s, z, zob, ls, lz, c, sacrifices, moves, feats):
    """Fill moves[i] and feats[i, G_*] for every candidate of c (see may_consider) in board order;
    return their number. moves: int32[>= P], feats: int32[>= P, 5]; (ls, lz): tactics' scratch;
    sacrifices: as tactics'."""
    P = bk.stride(s)
    count = 0
    for p in range(P):
        if bk.color_at(s, P, p) == bk.EMPTY:
            if may_consider(s, P, p, c):
                moves[count] = p
                move_features(s, z, zob, ls, lz, p, c, sacrifices, feats[count])
                count += 1
    return count


def candidates(board, color, sacrifices: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(moves, feats) for a Board and a colour (BLACK or WHITE): the padded points the tree gives an
    edge (may_consider) in board order, int32[n], and their features, int32[n, 5] (columns G_*). With
    `sacrifices` (the default: the heavy policies' searches and the fit) a nakade is T_NAKADE; without it
    (the light policy's searches) T_SELF2, as tactics says."""
    color = parse_color(color)
    s, z = board._state()
    P = int(s[bk.M_P])
    moves = np.zeros(P, dtype=np.int32)
    feats = np.zeros((P, len(GROUPS)), dtype=np.int32)
    n = candidate_features(s, z, board.geometry.zobrist, s.copy(), z.copy(), int(color), bool(sacrifices), moves,
                           feats)
    return moves[:n], feats[:n]


# ---------------------------------------------------------------- the spatial patterns' table

@inline
def prefetch_gammas(gammas, code):
    """Ask for the prior table's entries that gamma_of_code of this SPATIAL code will read (its 3x3
    gamma and its spatial keys' first slots)."""
    prefetch(gammas, OFFSETS[G_PATTERN] + (code & 0xFFFF))
    prefetch_slots(gammas, code)


@kernel
def candidate_gammas(s, z, zob, ls, lz, c, moves, n, gammas, sacrifices, out):
    """out[i] = move_gamma of c at moves[i], for i < n, with prior table `gammas`; (ls, lz): scratch;
    sacrifices: as tactics'."""
    for i in range(n):
        p = np.int64(moves[i])
        out[i] = move_gamma(s, z, zob, ls, lz, p, c, gammas, stones_near(s, z, bk.row_col(s, p)[0]), sacrifices)

@kernel
def candidate_spatial(s, c, moves, n, out):
    """out[i] = the SPATIAL code of c at moves[i], for i < n."""
    for i in range(n):
        out[i] = spatial_code(s, np.int64(moves[i]), c)


def spatial_codes(board, color, moves) -> np.ndarray:
    """The SPATIAL codes (int64) of `color` at `moves` (padded points, as candidates gives them); ValueError
    for a colour or a point off the board."""
    color = parse_color(color)
    moves = board_points(board, moves)
    s, _ = board._state()
    out = np.zeros(len(moves), dtype=np.int64)
    candidate_spatial(s, color, moves, len(moves), out)
    return out


def board_points(board, moves) -> np.ndarray:
    """`moves` as int32 padded points, each on `board`; ValueError naming the first that is not (a kernel
    would read past its arrays: a point of 10**6 was a segmentation fault)."""
    g = board.geometry
    array = np.asarray(moves)
    if array.ndim != 1 or (array.size and array.dtype.kind not in "iu"):
        raise ValueError(f"moves must be a list of padded points (whole numbers), got {moves!r:.60}")
    array = array.astype(np.int64)
    bad = (array < 0) | (array >= g.npoints)
    bad[~bad] = g.onboard[array[~bad]] == 0
    if bad.any():
        raise ValueError(f"point {int(array[np.argmax(bad)])} is not on a {g.size}x{g.size} board")
    return array.astype(np.int32)
