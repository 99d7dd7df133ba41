"""Positional superko inside the search tree: which positions a tree move may not repeat.

A tree move may not repeat the stones of an earlier position: of the game before the root (the rows
earlier[:params[P_HISTORY]], which the caller fills: Search.genmove's history) or of the descent
itself (the root's row next, then one row after each tree move). A row is (Zobrist hash, empty
points). Such a move is refused where the descent meets it (refuse): its edge is disabled for
good, as a node is reached by one path from the root, so its earlier positions are fixed (a
reused tree's new root moves them from the path to the history, the same positions). Without
this the tree read, say, a move that lets the opponent take two stones as harmless, because its
own retake of one stone restores the position before the move, which the game's superko forbids.

What it is not: the game's own superko (game.py), which gives the root's moves before the search;
tree.iterate's descent calls these steps.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .intrinsics import atomic_add
from .jit import inline
from .tree_grow import mark_disabled
from .tree_layout import BEST, VIRTUAL_LOSS, N


@inline
def note_position(earlier, row, s, z):
    """Row `row` of earlier holds position (s, z): its hash and its number of empty points."""
    earlier[row, 0] = z[0]
    earlier[row, 1] = np.uint64(s[bk.M_EMPTIES])


@inline
def history_floor(earlier, rows):
    """The fewest empty points among the positions of earlier[:rows]; 2**40 when there are none."""
    floor = np.int64(1) << 40
    for r in range(rows):
        floor = min(floor, np.int64(earlier[r, 1]))
    return floor


@inline
def repeats(earlier, rows, s, z, captured, floor):
    """True if position (s, z) has the stones of one of earlier[:rows]. Equal stones need equal empty
    points, so it looks only when it may: a descent that has captured nothing (captured == 0) has
    fewer empty points after each move and cannot repeat its own positions, and none repeats the
    game's unless it has at least `floor` empty points (history_floor of the game's rows)."""
    empties = np.int64(s[bk.M_EMPTIES])
    if captured == 0 and empties < floor:
        return False
    h = z[0]
    e = np.uint64(empties)
    for r in range(rows):
        if earlier[r, 0] == h and earlier[r, 1] == e:
            return True
    return False


@inline
def refuse(ni, ei, ef, ek, node, e, path, depth, shared):
    """Node's edge e, the descent's last step (path[depth - 1]), repeats an earlier position: disable it
    for good (tree_grow.mark_disabled) and find the node's best edge again. In a shared tree the
    virtual losses the descent took on its path are given back (the iteration ends here, with no
    backup)."""
    mark_disabled(ei, ef, ek, e)
    ni[node, BEST] = -1
    if shared:
        for d in range(depth):
            atomic_add(ef[N], path[d], -VIRTUAL_LOSS)
