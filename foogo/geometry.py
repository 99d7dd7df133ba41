"""Per-size board geometry: padded points, neighbour offsets, GTP names, Zobrist keys.

This module is the bottom of foogo's stack and imports nothing from it. It owns
the mapping between the three ways a point is named:

* GTP vertex   "D4" (columns A..Z without I, rows from 1 at the bottom), or "pass";
* padded point an index into the (size+2) x (size+2) array the kernels use, with a
               ring of off-board sentinel points so that p-1, p+1, p-W, p+W and
               the four diagonals of an on-board point never leave the array;
* bit index    row * size + col over on-board points only, row 0 being GTP
               row 1 and col 0 column A (the layout of the public bitarrays).

Geometries are built once per size and cached (`geometry(size)`), which is how
the board is "templated by size": size is a value, never a global.
It does not hold any position: see `board.py`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .numbers import shown

MIN_SIZE = 2
MAX_SIZE = 25

EMPTY, BLACK, WHITE, OFFBOARD = 0, 1, 2, 3
PASS = -1
RESIGN = -2

COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # GTP: no "I"
assert len(COLUMNS) == MAX_SIZE

_COLOR_WORDS = {"b": BLACK, "black": BLACK, "w": WHITE, "white": WHITE}
COLOR_NAMES = {BLACK: "black", WHITE: "white"}


class OffBoardError(ValueError):
    """A well-formed vertex or point index that is not on this board."""


def opponent(color: int) -> int:
    """The other colour: BLACK <-> WHITE."""
    return 3 - color


def check_size(size) -> int:
    """Return `size` as an int if it is a whole number in 2..25; raise ValueError otherwise."""
    if isinstance(size, bool) or not isinstance(size, (int, np.integer)):
        raise ValueError(f"board size must be an integer from {MIN_SIZE} to {MAX_SIZE}, got {shown(size)}")
    if not MIN_SIZE <= int(size) <= MAX_SIZE:
        raise ValueError(f"board size must be from {MIN_SIZE} to {MAX_SIZE}, got {shown(int(size))}")
    return int(size)


def parse_color(color) -> int:
    """Return BLACK or WHITE for BLACK/WHITE or "b", "w", "black", "white" (any case); ValueError otherwise."""
    if isinstance(color, str):
        value = _COLOR_WORDS.get(color.strip().lower())
        if value is not None:
            return value
    elif not isinstance(color, bool) and isinstance(color, (int, np.integer)) and int(color) in (BLACK, WHITE):
        return int(color)
    raise ValueError(f"colour must be black or white ('b', 'w', 'black', 'white'), got {shown(color)}")


@dataclass(frozen=True, eq=False)
class Geometry:
    """Tables for one board size. Build with `geometry(size)`; never mutate."""

    size: int
    width: int  # padded row length, size + 2
    npoints: int  # padded array length, width * width
    nwords: int  # uint64 words in a padded-point bitset
    onboard: np.ndarray  # int8[npoints], 1 on the board, 0 on the sentinel ring
    points: np.ndarray  # int32[size*size], padded index of bit index i (row-major from A1)
    bit_of: np.ndarray  # int32[npoints], bit index of a padded point, -1 off board
    neighbours: np.ndarray  # int32[4], offsets of the orthogonal neighbours
    diagonals: np.ndarray  # int32[4], offsets of the diagonal neighbours
    zobrist: np.ndarray  # uint64[3 * npoints], key of (colour, point) at colour * npoints + point
    names: tuple  # names[p] is the GTP name of padded point p, "" off board

    def point(self, row: int, col: int) -> int:
        """Padded index of (row, col), both 0-based, row 0 at the bottom; OffBoardError (a ValueError) off the
        board (point(-5, 100) was a point of the board's padding arithmetic)."""
        if not (0 <= row < self.size and 0 <= col < self.size):
            raise OffBoardError(f"row {row}, column {col} is off the {self.size}x{self.size} board")
        return (row + 1) * self.width + col + 1

    def row_col(self, p: int) -> tuple[int, int]:
        """(row, col) of padded point p, both 0-based."""
        return p // self.width - 1, p % self.width - 1

    def name(self, p: int) -> str:
        """GTP name of a padded point, or "pass" for PASS; ValueError for an off-board index."""
        if isinstance(p, bool) or not isinstance(p, (int, np.integer)):
            raise ValueError(f"a point is a whole number, got {p!r:.40}")
        if p == PASS:
            return "pass"
        if not (0 <= p < self.npoints) or not self.onboard[p]:
            raise ValueError(f"point {p} is not on a {self.size}x{self.size} board")
        return self.names[p]

    def parse(self, vertex) -> int:
        """Padded index (or PASS) of a vertex: a GTP name ("D4", "pass"), a (row, col) pair counted
        from 0 at A1, or, the kernels' low-level layer, a padded index itself.

        Raises OffBoardError for a point not on this board, ValueError if malformed."""
        if isinstance(vertex, tuple):
            if len(vertex) != 2 or not all(isinstance(v, (int, np.integer)) and not isinstance(v, bool)
                                           for v in vertex):
                raise ValueError(f"a (row, col) vertex is two integers, got {shown(vertex)}")
            row, col = int(vertex[0]), int(vertex[1])
            if not (0 <= row < self.size and 0 <= col < self.size):
                raise OffBoardError(f"(row, col) {shown(vertex)} is off the {self.size}x{self.size} board")
            return self.point(row, col)
        if isinstance(vertex, (int, np.integer)) and not isinstance(vertex, bool):
            p = int(vertex)
            if p == PASS or (0 <= p < self.npoints and self.onboard[p]):
                return p
            raise OffBoardError(f"point {shown(p)} is not on a {self.size}x{self.size} board")
        if not isinstance(vertex, str):
            raise ValueError(f"vertex must be a GTP name such as 'D4' or 'pass', got {shown(vertex)}")
        text = vertex.strip().upper()
        if text == "PASS":
            return PASS
        if len(text) < 2 or text[0] not in COLUMNS or not text[1:].isdigit() or not text[1:].isascii():
            raise ValueError(f"malformed vertex {shown(vertex)}: expected a column letter (no I) and a row "
                             "number, or 'pass'")
        col = COLUMNS.index(text[0])
        digits = text[1:].lstrip("0")  # past two digits, off any board: int() of 5,000 digits raised its own
        row = int(digits[:3] or "0") - 1  # ValueError (Python's 4,300-digit limit), and is quadratic without it
        if not (0 <= col < self.size and 0 <= row < self.size) or len(digits) > 2:
            raise OffBoardError(f"vertex {shown(vertex)} is off the {self.size}x{self.size} board")
        return self.point(row, col)


def is_star_point(size: int, row: int, col: int) -> bool:
    """True at a star point (hoshi) as GNU Go draws them; row and col from 0 at A1."""
    if size in (2, 4):
        return False
    if size == 3:
        return row == 1 and col == 1
    if size == 5:
        return (row in (1, 3) and col in (1, 3)) or (row == 2 and col == 2)
    edge = 2 if size <= 11 else 3
    middle = size // 2
    m = size - 1 - row if row >= middle else row
    n = size - 1 - col if col >= middle else col
    if m == edge and n == edge:
        return True
    if size % 2 == 0:
        return False
    if size < 12:
        return m == middle and n == middle
    return m in (edge, middle) and n in (edge, middle)


def geometry(size: int) -> Geometry:
    """The cached Geometry of a size in 2..25 (ValueError otherwise)."""
    return _build(check_size(size))  # checked first: the cache would hash a bad size


@functools.lru_cache(maxsize=None)
def _build(size: int) -> Geometry:
    width = size + 2
    npoints = width * width
    onboard = np.zeros(npoints, dtype=np.int8)
    bit_of = np.full(npoints, -1, dtype=np.int32)
    points = np.zeros(size * size, dtype=np.int32)
    names = [""] * npoints
    for row in range(size):
        for col in range(size):
            p = (row + 1) * width + col + 1
            onboard[p] = 1
            bit_of[p] = row * size + col
            points[row * size + col] = p
            names[p] = f"{COLUMNS[col]}{row + 1}"
    # Fixed seed per size: hashes are reproducible across runs and processes.
    rng = np.random.default_rng(0x600D + size)
    zobrist = rng.integers(1, 2**63, size=3 * npoints, dtype=np.int64).astype(np.uint64)
    zobrist[: npoints] = 0  # EMPTY contributes nothing
    return Geometry(
        size=size,
        width=width,
        npoints=npoints,
        nwords=(npoints + 63) // 64,
        onboard=onboard,
        points=points,
        bit_of=bit_of,
        neighbours=np.array([-width, -1, 1, width], dtype=np.int32),
        diagonals=np.array([-width - 1, -width + 1, width - 1, width + 1], dtype=np.int32),
        zobrist=zobrist,
        names=tuple(names),
    )
