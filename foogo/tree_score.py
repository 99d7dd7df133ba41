"""What a search iteration's line is worth: a playout's result for black, and the score of a line that
ended in two passes inside the tree, counted as a referee would count it.

A line that ends in a playout is worth its final area count (playout_result turns it into a result for
black, with or without a score weight). A line the tree itself ends with two passes stops before any
playout, but the board it leaves may hold dead stones: settled_score counts it twice, as it stands and
after a playout, and where the counts disagree on the winner takes the one worse for the colour whose pass
ended the line, so that a pass wins only by every count. tree.py runs these steps inside its iteration
(tree._play_out) around the one playout call its kernel inlines.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline
from .playout import play_out_with


@inline
def settled_score(s, z, zob, rng, cap, trace, owners, chooser, policy, reject_permil, table, replies, komi, full):
    """Black's area score of a line that ended in two passes in the tree, as the game would be
    scored: counted as it stands (every stone alive, Tromp-Taylor's count) and after a playout
    from it (which captures the stones left dead on the board, as a referee removes them under
    Chinese rules). Either count if they agree on the winner at `komi`, else the one worse for the
    colour whose pass ended the line (settled): a pass wins only by every count, as the root's own
    pass must (Search._passing_margin). Counting only as it stands, the tree took a pass with dead
    stones on the board for a win; scoring a disagreement as a draw, it took the losing side's pass
    beside its own dead stones for half a win, better than playing on. The playout's moves are
    not the game's: no trace (trace is only sliced), no AMAF credit. Returns (score, the
    playout's capped flag: BROKEN if a custom chooser broke the rule), as play_out_with.
    tree._play_out runs the same steps around its one playout call (ender_of, settle_start, the playout
    with no trace and no replies, settled), so that the search's kernel inlines one playout loop."""
    ender = ender_of(s)
    standing = settle_start(s, owners)
    played, _, capped = play_out_with(s, z, zob, rng, cap, trace[:0], owners, chooser, policy, reject_permil, table,
                                      replies[:0], full)
    return settled(standing, played, komi, ender), capped


@inline
def ender_of(s):
    """The colour whose pass ended a line that ended in two passes: the one not to move."""
    return 3 - np.int64(s[bk.M_TO_MOVE])


@inline
def settle_start(s, owners):
    """settled_score's first step: the count as it stands; the passes forgotten, so that a playout runs."""
    standing = bk.area(s, owners[:0])
    s[bk.M_PASSES] = 0
    return standing


@inline
def settled(standing, played, komi, ender):
    """settled_score's last step: the playout's count if both counts agree on the winner at komi, else the
    one worse for `ender`, the colour whose pass ended the line."""
    if (standing - komi) * (played - komi) > 0:
        return np.float64(played)
    if ender == bk.BLACK:
        return np.float64(min(standing, played))
    return np.float64(max(standing, played))


@inline
def playout_result(score, target, weight, points):
    """Black's result of a playout that ended with black's area `score`: 1 if it passes `target`, 0 if
    it falls short, 0.5 on it. With a score weight w > 0 (Fuego's score modification), the margin
    m = (score - target) / points, at most 1 either way, moves it by w: a win counts 1 - w + w * m,
    a loss w + w * m, so a larger win counts more and a larger loss less, and every win more than
    every loss. (points: the board's points.)"""
    if score == target:
        return 0.5
    won = 1.0 if score > target else 0.0
    if weight == 0.0:
        return won
    m = min(max((score - target) / points, -1.0), 1.0)
    return won + weight * (1.0 - 2.0 * won + m)
