"""The heavy policy's 3x3 shapes: MoGo's hane, cut and edge patterns as a table over neighbourhood codes.

What it is: `PATTERNS` (diagrams, as Pachi and michi list them), `build_pattern_table`, which turns
them into `PATTERN_TABLE`, and the kernels' reads of it, `pattern_code` and `matches_pattern`, and
`block_colours` and `block_code` for the 8 points around one.
policy_local.py's rule (c) and the rules' prior (tree_priors.py) read it; spatial_patterns.py's 3x3 and
spatial codes are built on `pattern_code`. It knows nothing of which move to choose.

The pattern table: a 3x3 neighbourhood is one small integer, 2 bits per
neighbour (EMPTY 0, BLACK 1, WHITE 2, OFFBOARD 3, the board's own colour codes)
in reading order NW N NE W E SW S SE, NW in bits 0-1 (see `pattern_code`).
`PATTERN_TABLE[code]` has bit colour - 1 set when playing the centre matches a
pattern for that colour. It is built at import by `build_pattern_table` from
`PATTERNS` with all 8 symmetries and both colours, deterministically, and
passed to the kernels as an array. Codes are read from the board on demand (8
loads) rather than maintained incrementally: that would need a 16-bit word per
point kept by every stone placed and removed in board_kernels, on every move of
every playout, for a table read at most 8 times a move. The heavy policy's rule
(c) reads the codes of the 8 points around the last move together: the 5x5
block's colours in one word (`block_colours`), each point's code taken out of it
by BMI2's PEXT (`block_code`).
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .bits import extract_bits
from .jit import inline

# MoGo's patterns (Gelly, Wang, Munos, Teytaud 2006, fig. 2) as Pachi's moggy and michi list
# them, plus their diagonal attachment. The centre is the move; rows are read top down.
#   X, O  stones of the two colours      .  empty      #  off the board
#   x     anything but an X stone         o  anything but an O stone       ?  anything
# "both": good for either colour to play (each pattern is tried with X black and X white);
# "X":    only when the player to move is X.
PATTERNS = (
    ("hane: enclosing", ("XOX", "...", "???"), "both"),
    ("hane: non-cutting", ("XO.", "...", "?.?"), "both"),
    ("hane: magari", ("XO?", "X..", "x.?"), "both"),
    ("hane: thin", ("XOO", "...", "?.?"), "X"),
    ("diagonal attachment", (".O.", "X..", "..."), "both"),
    ("cut: unprotected", ("XO?", "O.o", "?o?"), "both"),
    ("cut: peeped", ("XO?", "O.X", "???"), "both"),
    ("cut: de", ("?X?", "O.O", "ooo"), "both"),
    ("cut: keima", ("OX?", "o.O", "???"), "both"),
    ("edge: chase", ("X.?", "O.?", "###"), "both"),
    ("edge: block cut", ("OX?", "X.O", "###"), "both"),
    ("edge: block connection", ("?X?", "x.O", "###"), "both"),
    ("edge: sagari", ("?XO", "x.x", "###"), "both"),
    ("edge: cut", ("?OX", "X.O", "###"), "both"),
)

# (row, col) in the 3x3 diagram of code bits 0-1, 2-3, ... 14-15
CELLS = ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2))


def symmetries(rows) -> list[tuple[str, str, str]]:
    """The 8 images of a 3x3 diagram under rotation and reflection (duplicates kept), identity first."""
    grid = [list(row) for row in rows]
    images: list[tuple[str, str, str]] = []
    for _ in range(4):
        top, middle, bottom = ("".join(row) for row in grid)
        images.append((top, middle, bottom))
        images.append((top[::-1], middle[::-1], bottom[::-1]))
        grid = [[grid[2 - c][r] for c in range(3)] for r in range(3)]  # a quarter turn clockwise
    return images


def _allowed(char: str, x: int) -> tuple[int, ...]:
    """The colour codes a diagram character admits when X stands for colour x."""
    o = 3 - x
    every = (bk.EMPTY, bk.BLACK, bk.WHITE, bk.OFFBOARD)
    return {
        "X": (x,), "O": (o,), ".": (bk.EMPTY,), "#": (bk.OFFBOARD,), "?": every,
        "x": tuple(v for v in every if v != x), "o": tuple(v for v in every if v != o),
    }[char]


def build_pattern_table(patterns=PATTERNS) -> np.ndarray:
    """uint8[65536]: bit colour - 1 of entry `code` set if a pattern matches that neighbourhood
    with that colour to play. Deterministic: the same patterns always give the same bytes."""
    codes = np.arange(1 << 16, dtype=np.int64)
    cells = [(codes >> (2 * i)) & 3 for i in range(8)]
    table = np.zeros(1 << 16, dtype=np.uint8)
    for _name, rows, who in patterns:
        if [len(row) for row in rows] != [3, 3, 3] or rows[1][1] != ".":
            raise ValueError(f"pattern {_name!r} must be 3x3 with an empty centre")
        for image in symmetries(rows):
            for x in (bk.BLACK, bk.WHITE):
                match = np.ones(1 << 16, dtype=bool)
                for i, (r, c) in enumerate(CELLS):
                    admits = np.zeros(4, dtype=bool)  # colour code -> allowed here (a lookup: isin took 0.6 s)
                    admits[list(_allowed(image[r][c], x))] = True
                    match &= admits[cells[i]]
                table[match] |= 3 if who == "both" else 1 << (x - 1)
    return table


PATTERN_TABLE = build_pattern_table()


@inline
def pattern_code(s, p):
    """The 3x3 code of point p: neighbour colours in reading order NW N NE W E SW S SE, 2 bits each,
    NW lowest (north is p + w: GTP rows grow upwards)."""
    w = np.int64(s[bk.M_W])
    P = bk.stride(s)
    return (np.int64(bk.color_at(s, P, p + w - 1)) | (np.int64(bk.color_at(s, P, p + w)) << 2)
            | (np.int64(bk.color_at(s, P, p + w + 1)) << 4)
            | (np.int64(bk.color_at(s, P, p - 1)) << 6) | (np.int64(bk.color_at(s, P, p + 1)) << 8)
            | (np.int64(bk.color_at(s, P, p - w - 1)) << 10) | (np.int64(bk.color_at(s, P, p - w)) << 12)
            | (np.int64(bk.color_at(s, P, p - w + 1)) << 14))


@inline
def matches_pattern(s, p, c, table):
    """True if c playing empty point p matches a pattern of the table."""
    return (table[pattern_code(s, p)] >> (c - 1)) & 1 != 0


# ---------------------------------------------------------------- the codes of a 3x3 block's points, read at once

# The 5x5 block around a point p as one word (`block_colours`), 2 bits a cell (the board's colour codes): cell
# 5 * r + k is p + (2 - r) * w + (k - 2), rows from north to south and each from west to east. Point j of p's 3x3
# block (reading order: NW 0, N 1, NE 2, W 3, p 4, E 5, SW 6, S 7, SE 8) is cell BLOCK_CELLS[j], and its eight
# neighbours are the cells of BLOCK_MASKS[j]. In the block's order they come as pattern_code's fields do (NW N NE
# W E SW S SE), so BMI2's PEXT of the block by that mask is the point's pattern_code (`block_code`): the heavy
# policy's rule (c) reads the 24 colours around the last move once, not 8 for each of its 8 points.


def _block_layout() -> tuple[tuple[int, ...], tuple[np.uint64, ...]]:
    """(BLOCK_CELLS, BLOCK_MASKS): each 3x3 point's cell in the 5x5 block, and the mask of its neighbours' cells."""
    cells, masks = [], []
    for j in range(9):
        row, col = 1 - j // 3, j % 3 - 1  # north of p is +1
        cells.append(5 * (2 - row) + col + 2)
        mask = 0
        for dr, dc in ((1, -1), (1, 0), (1, 1), (0, -1), (0, 1), (-1, -1), (-1, 0), (-1, 1)):
            mask |= 3 << 2 * (5 * (2 - row - dr) + col + dc + 2)
        masks.append(np.uint64(mask))
    return tuple(cells), tuple(masks)


BLOCK_CELLS, BLOCK_MASKS = _block_layout()


@inline
def block_colours(s, p):
    """The 5x5 block around on-board point p as one word (BLOCK_CELLS' layout). A cell outside the padded
    array reads the array's first or last point instead, so that every load stays in bounds: such a cell, and
    any cell two points beyond the board's edge, is never a neighbour of an on-board point of p's 3x3 block."""
    w = np.int64(s[bk.M_W])
    P = bk.stride(s)
    word = np.uint64(0)
    for r in range(5):
        row = p + (2 - r) * w
        for k in range(5):
            q = min(max(row + k - 2, 0), P - 1)
            word |= np.uint64(bk.color_at(s, P, q)) << np.uint64(10 * r + 2 * k)
    return word


@inline
def block_code(block, j):
    """pattern_code of point j of the 3x3 block whose 5x5 block is `block` (block_colours), if that point is
    on the board (BMI2 only: bits.extract_bits)."""
    return np.int64(extract_bits(np.uint64(block), BLOCK_MASKS[j]))


@inline
def block_colour(block, j):
    """The colour of point j of the 3x3 block whose 5x5 block is `block` (block_colours)."""
    return np.int64((np.uint64(block) >> np.uint64(2 * BLOCK_CELLS[j])) & np.uint64(3))
