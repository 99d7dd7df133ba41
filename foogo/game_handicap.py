"""Handicap placement: GTP's fixed handicap points (GNU Go's layout) and free handicap points.

What it is: where handicap stones go on a size x size board, as padded points, for
`Game.fixed_handicap` and `Game.place_free_handicap`. What it is not: placing them (the game
does, as a new base position) or compensating for them (the controller sets komi).
"""

from __future__ import annotations

import functools

import numpy as np

from .geometry import check_size, geometry
from .numbers import shown, whole_value


def max_fixed_handicap(size: int) -> int:
    """The most stones `fixed_handicap` places on a size x size board (0: none), as GNU Go does."""
    size = check_size(size)
    if size < 7:
        return 0
    if size == 7 or size % 2 == 0:
        return 4
    return 9


def fixed_handicap_points(size: int, stones: int) -> tuple[int, ...]:
    """Padded points of the GTP fixed handicap placement (GNU Go's choice of points and layout).

    Corner points on the 3-3 line below 12x12 and on the 4-4 line from 12x12 up; sides and
    centre only on odd sizes. ValueError if that number of stones has no fixed placement,
    TypeError if `stones` is not a whole number."""
    return _fixed_points(check_size(size), whole_value("handicap stones", stones))


@functools.lru_cache(maxsize=None)
def _fixed_points(size: int, stones: int) -> tuple[int, ...]:
    if not 2 <= stones <= max_fixed_handicap(size):
        raise ValueError(f"no fixed placement of {shown(stones)} handicap stones on {size}x{size}")
    g = geometry(size)
    low = 2 if size <= 11 else 3
    high = size - 1 - low
    mid = size // 2

    def at(row, col):
        return g.point(row, col)

    corners = [at(high, high), at(low, low), at(high, low), at(low, high)]  # UR, LL, UL, LR
    centre = [at(mid, mid)]
    sides_lr = [at(mid, low), at(mid, high)]
    sides_tb = [at(high, mid), at(low, mid)]
    layouts = {
        2: corners[:2],
        3: corners[:3],
        4: corners,
        5: corners + centre,
        6: corners + sides_lr,
        7: corners + sides_lr + centre,
        8: corners + sides_lr + sides_tb,
        9: corners + sides_lr + sides_tb + centre,
    }
    return tuple(layouts[stones])


def free_handicap_points(size: int, stones: int) -> list[int]:
    """Padded points for `stones` free handicap stones: the fixed layout where one exists, then
    one by one the point farthest (king's moves) from those chosen, off the first two lines
    while there is room there. ValueError for a count out of range, TypeError if it is not a whole number."""
    size = check_size(size)
    stones = whole_value("handicap stones", stones)
    if not 2 <= stones < size * size:
        raise ValueError(f"cannot place {shown(stones)} handicap stones on {size}x{size}")
    g = geometry(size)
    base = min(stones, max_fixed_handicap(size))
    chosen = list(fixed_handicap_points(size, base)) if base >= 2 else [g.point(size // 2, size // 2)]
    rows, cols = np.divmod(np.arange(size * size), size)
    inner = (rows >= 2) & (rows < size - 2) & (cols >= 2) & (cols < size - 2)
    taken = np.zeros(size * size, dtype=bool)
    dist = np.full(size * size, 10**6)

    def take(p):
        i = int(g.bit_of[p])
        taken[i] = True
        r, c = divmod(i, size)
        np.minimum(dist, np.maximum(abs(rows - r), abs(cols - c)), out=dist)

    for p in chosen:
        take(p)
    while len(chosen) < stones:
        pool = ~taken & inner if (~taken & inner).any() else ~taken
        i = int(np.argmax(np.where(pool, dist, -1)))  # ties: the first in A1..row order
        chosen.append(int(g.points[i]))
        take(chosen[-1])
    return chosen
