"""The playable rule: which empty points a colour may pick in a random playout, asked point by point.

Playable sets follow the design card. For colour C and empty point e:
  eye-like(C, e)  every on-board orthogonal neighbour of e is a C stone;
  eye(C, e)       eye-like and at most one opponent stone on the diagonals
                  (none when a diagonal is off the board);
  playable(C, e)  not eye(C, e), and if eye-like(opponent, e) then some
                  neighbouring string has one liberty (playing there captures).
The ko point is not removed here; choosers remove it (see policy_light.py).

A move keeps only the empty points up to date (as a bitset, for scans in board order, and
as a list with each point's slot, for the light draw); whether an empty point is playable is
decided at the point when it is asked (`playable_at`: one load of its neighbour
counts for most points, the diagonals for an eye-like one, the neighbouring strings'
atari for the opponent's eye). The light draw asks only the points it draws and
rejects the unplayable ones (policy_light.py): 0.7 rejected draws per move in random 9x9
playouts, 0.95 on 19x19. Keeping the two playable sets themselves up to date on every
move (eyes appearing beside the move, turning false on its diagonals, atari
transitions at a distance) cost more: dropping it made 9x9 playouts 19% faster.
`playable_set` gives a whole set.

What it is not: legality (board_moves.legality) or the ko point, which choosers remove.
"""

from __future__ import annotations

import numpy as np

from .bits import ONE, trailing_zeros
from .board_layout import (
    BLACK,
    EMPTY,
    EYE_FULL,
    M_NW,
    M_W,
    OFFBOARD,
    WHITE,
    color_at,
    empty_base,
    nbr_counts,
    stone_in_atari,
    stride,
)
from .jit import inline, kernel


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

