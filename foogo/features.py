"""What the tree's learned prior knows about a move: its features, and the gammas that rate them.

What it is: the feature code of a candidate move (colour c at empty point p), in
five groups, one feature from each:
  PATTERN  its 3x3 neighbourhood (policy.pattern_code), colours seen from the
           mover (the mover's stones as BLACK); the learning script folds the 8
           rotations and reflections into one class (`pattern_classes`)
  TACTICS  T_CAPTURE2 (takes a string of 2+ stones), T_CAPTURE1 (takes stones of
           one-stone strings only), T_SELF2 / T_SELF1 (a self-atari of a string of
           2+ stones / of the stone alone), T_SAVE (extends an own string in atari;
           T_SAVE_LADDERED when a ladder then takes it, ladders.py), T_ATARI (leaves
           an opponent string one liberty), else T_PLAIN; the first that applies,
           in that order
  LAST     its distance d = dx + dy + max(dx, dy) to the last move, 2..10 as 1..9;
           0 when farther, after a pass, before any move, or at the move's own point
           (its stone captured since)
  LAST2    likewise to the move before (the mover's own last move)
  LINE     its line (distance to the edge) 0, 1, 2, 3 or 4+, plus 5 when no stone
           lies in the 5x5 square around it
and the gamma table that rates them: a Bradley-Terry model (Coulom, "Computing
Elo ratings of move patterns in the game of Go", 2007) in which a move's gamma
is the product of its features' gammas, and the chance that a strong player
picks it among the candidates is its gamma over their sum. The gammas are fitted
by Minorization-Maximization to games (bench/learn_gammas.py makes them) and
shipped as foogo/data/gammas.npz: one float32 table, TABLE_SIZE long, the
pattern group indexed by raw code (each code holding its class's gamma) and each
other group at its OFFSET.

The candidates are the moves the tree gives an edge (`may_consider`): empty
points the playout rule and the board's rules allow, pass aside. The heavy
playouts may also take their 3x3 shapes from the gammas
(`learned_pattern_table`, SearchConfig.playout_patterns).

What it is not: a playout policy (playouts never read the gammas), nor larger
patterns or liberties beyond atari; ladders are read only after an atari escape
(ladders.py). Whether an atari starts a working ladder is not a feature: in
Pachi's games it made such an atari 1.26 times as likely as another (gammas
2.06 and 1.63), and reading it made each expansion of the search bench's 19x19
middle game 16 us instead of 10, more than the tree could spare.
"""

from __future__ import annotations

import os
import warnings

import numpy as np

from . import board_kernels as bk
from .bits import ONE
from .jit import inline, kernel
from .ladders import captured_after, default_plies
from .policy import pattern_code, self_atari

G_PATTERN, G_TACTICS, G_LAST, G_LAST2, G_LINE = range(5)
GROUPS = ("pattern", "tactics", "last", "last2", "line")
T_PLAIN, T_CAPTURE1, T_CAPTURE2, T_SAVE, T_ATARI, T_SELF1, T_SELF2, T_SAVE_LADDERED = range(8)
TACTICS_NAMES = ("plain", "capture", "capture 2+", "atari escape", "atari", "self-atari", "self-atari 2+",
                 "escape into a ladder")
GROUP_SIZES = (1 << 16, len(TACTICS_NAMES), 10, 10, 10)
OFFSETS = tuple(int(x) for x in np.concatenate([[0], np.cumsum(GROUP_SIZES)[:-1]]))
TABLE_SIZE = int(sum(GROUP_SIZES))
FAR_DISTANCE = 10  # LAST and LAST2 tell distances 2..FAR_DISTANCE apart
EMPTY_SQUARE = 5  # LINE + EMPTY_SQUARE: no stone in the 5x5 square around the move
TWO = np.uint64(2)

DATA_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "gammas.npz")


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
def swap_colours(code):
    """A 3x3 code with BLACK and WHITE swapped: 1 and 2 trade places in every 2-bit field (the fields
    whose two bits differ flip both). Plain integer operations, so that `swap_colours.py_func` does
    the same to a numpy array of codes."""
    differ = (code ^ (code >> 1)) & 0x5555
    return code ^ (differ | (differ << 1))


@inline
def mover_code(s, p, c):
    """p's 3x3 code (policy.pattern_code) with c's stones as BLACK and the opponent's as WHITE."""
    code = pattern_code(s, p)
    return swap_colours(code) if c == bk.WHITE else code


@inline
def tactics(s, P, w, p, c):
    """The TACTICS class of c at empty p, ladders unread: an escape is T_SAVE (see ladder_tactics)."""
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
        return T_SELF2 if joins else T_SELF1
    if saves:
        return T_SAVE
    if ataris:
        return T_ATARI
    return T_PLAIN


@inline
def ladder_tactics(s, z, zob, ls, lz, P, w, p, c):
    """The TACTICS feature (T_*) of c at empty p: tactics, with an escape that a ladder then takes
    T_SAVE_LADDERED; (ls, lz): scratch for the ladder reader (ladders.py)."""
    t = tactics(s, P, w, p, c)
    if t == T_SAVE and captured_after(s, z, zob, ls, lz, p, c, p, default_plies(np.int64(s[bk.M_SIZE]))):
        return T_SAVE_LADDERED
    return t


@inline
def distance_feature(s, p, q):
    """The LAST / LAST2 feature of p for an earlier move q (a point, PASS or NO_MOVE)."""
    if q < 0:
        return 0
    prow, pcol = bk.row_col(s, p)
    qrow, qcol = bk.row_col(s, q)
    dx = abs(pcol - qcol)
    dy = abs(prow - qrow)
    d = dx + dy + max(dx, dy)
    return d - 1 if 2 <= d <= FAR_DISTANCE else 0  # d = 0: q's stone was captured since


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
def empty_square_in(s, p, near):
    """True if no stone lies in the 5x5 square around on-board p, given near = stones_near of p's row."""
    col = bk.row_col(s, p)[1]
    return (near >> np.uint64(col - 1)) & ONE == 0


@inline
def empty_square(s, z, p):
    """True if no stone lies in the 5x5 square around on-board p."""
    return empty_square_in(s, p, stones_near(s, z, bk.row_col(s, p)[0]))


@inline
def line_of(s, p):
    """The line of on-board p: its distance to the nearest edge (0 on the first line)."""
    n = np.int64(s[bk.M_SIZE])
    row, col = bk.row_col(s, p)
    row -= 1
    col -= 1
    return min(min(row, col), min(n - 1 - row, n - 1 - col))


@inline
def line_feature(s, p, near):
    """The LINE feature of on-board p, given near = stones_near of p's row."""
    return min(line_of(s, p), 4) + (EMPTY_SQUARE if empty_square_in(s, p, near) else 0)


@inline
def move_features(s, z, zob, ls, lz, p, c, out):
    """out[G_*] = the five features of c at empty p (out[G_PATTERN]: the raw mover code); (ls, lz):
    tactics' scratch."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    out[G_PATTERN] = mover_code(s, p, c)
    out[G_TACTICS] = ladder_tactics(s, z, zob, ls, lz, P, w, p, c)
    out[G_LAST] = distance_feature(s, p, np.int64(s[bk.M_LAST]))
    out[G_LAST2] = distance_feature(s, p, np.int64(s[bk.M_LAST2]))
    out[G_LINE] = line_feature(s, p, stones_near(s, z, bk.row_col(s, p)[0]))


@inline
def move_gamma(s, z, zob, ls, lz, p, c, gammas, near):
    """The gamma of c at empty p: the product of its features' gammas in table `gammas`; near:
    stones_near of p's row (one reading serves a row's candidates); (ls, lz): tactics' scratch."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    g = gammas[OFFSETS[G_PATTERN] + mover_code(s, p, c)]
    g *= gammas[OFFSETS[G_TACTICS] + ladder_tactics(s, z, zob, ls, lz, P, w, p, c)]
    g *= gammas[OFFSETS[G_LAST] + distance_feature(s, p, np.int64(s[bk.M_LAST]))]
    g *= gammas[OFFSETS[G_LAST2] + distance_feature(s, p, np.int64(s[bk.M_LAST2]))]
    g *= gammas[OFFSETS[G_LINE] + line_feature(s, p, near)]
    return g


@kernel
def candidate_features(s, z, zob, ls, lz, c, moves, feats):
    """Fill moves[i] and feats[i, G_*] for every candidate of c (see may_consider) in board order;
    return their number. moves: int32[>= P], feats: int32[>= P, 5]; (ls, lz): tactics' scratch."""
    P = bk.stride(s)
    count = 0
    for p in range(P):
        if bk.color_at(s, P, p) == bk.EMPTY:
            if may_consider(s, P, p, c):
                moves[count] = p
                move_features(s, z, zob, ls, lz, p, c, feats[count])
                count += 1
    return count


def candidates(board, color) -> tuple[np.ndarray, np.ndarray]:
    """(moves, feats) for a Board and a colour (BLACK or WHITE): the padded points the tree gives an
    edge (may_consider) in board order, int32[n], and their features, int32[n, 5] (columns G_*)."""
    s, z = board._state()
    P = int(s[bk.M_P])
    moves = np.zeros(P, dtype=np.int32)
    feats = np.zeros((P, len(GROUPS)), dtype=np.int32)
    n = candidate_features(s, z, board.geometry.zobrist, s.copy(), z.copy(), int(color), moves, feats)
    return moves[:n], feats[:n]


# ---------------------------------------------------------------- pattern classes (Python side)

# (row, col) offsets from the centre of code fields 0..7 (pattern_code: NW N NE W E SW S SE, north up)
_CELL_OFFSETS = ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, -1), (-1, 0), (-1, 1))
_TRANSFORMS = (lambda r, c: (r, c), lambda r, c: (r, -c), lambda r, c: (-r, c), lambda r, c: (-r, -c),
               lambda r, c: (c, r), lambda r, c: (c, -r), lambda r, c: (-c, r), lambda r, c: (-c, -r))


def symmetric_codes(codes: np.ndarray) -> np.ndarray:
    """int64[8, len(codes)]: each 3x3 code under the 8 rotations and reflections (identity first)."""
    codes = np.asarray(codes, dtype=np.int64)
    out = np.zeros((8, codes.size), dtype=np.int64)
    for t, transform in enumerate(_TRANSFORMS):
        for i, (r, c) in enumerate(_CELL_OFFSETS):
            j = _CELL_OFFSETS.index(transform(r, c))
            out[t] |= ((codes >> (2 * i)) & 3) << (2 * j)
    return out


def pattern_classes() -> np.ndarray:
    """int64[65536]: each 3x3 code's class, the smallest code among its 8 symmetric images."""
    return symmetric_codes(np.arange(1 << 16)).min(axis=0)


# ---------------------------------------------------------------- the shipped table

def load_gammas(path: str = DATA_PATH) -> np.ndarray:
    """The gamma table (float32[TABLE_SIZE]) from an npz written by bench/learn_gammas.py; all ones
    (every candidate alike), with a warning, when the file is missing."""
    if not os.path.exists(path):
        warnings.warn(f"foogo: no learned gammas at {path}; the learned prior rates every move alike",
                      stacklevel=2)
        return np.ones(TABLE_SIZE, dtype=np.float32)
    with np.load(path, allow_pickle=False) as data:
        table = np.asarray(data["table"], dtype=np.float32)
    if table.shape != (TABLE_SIZE,) or not np.all(np.isfinite(table)) or np.any(table <= 0):
        raise ValueError(f"{path}: not a gamma table of {TABLE_SIZE} positive numbers")
    return table


GAMMAS = load_gammas()

PLAYOUT_PATTERN_GAMMA = 8.0  # a 3x3 shape whose learned gamma reaches this is a playout pattern: on Pachi's
# games as many candidates match as match MoGo's patterns (12%), and more of the moves played (75% vs 67%)


def learned_pattern_table(gammas: np.ndarray = GAMMAS, threshold: float = PLAYOUT_PATTERN_GAMMA) -> np.ndarray:
    """A pattern table for the heavy policy (policy.PATTERN_TABLE's format: uint8[65536], bit colour - 1
    set where that colour playing the centre matches) made from the learned 3x3 gammas: a shape matches
    when its gamma, seen from the mover, reaches `threshold`."""
    pattern = np.asarray(gammas[:1 << 16])
    black = pattern >= threshold  # indexed by code: black to play sees it as it is
    white = black[swap_colours.py_func(np.arange(1 << 16, dtype=np.int64))]  # white sees it swapped
    return black.astype(np.uint8) | (white.astype(np.uint8) << 1)


LEARNED_PATTERN_TABLE = learned_pattern_table()
