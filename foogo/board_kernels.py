"""Compiled board kernels: the position as flat arrays, and moves played on them incrementally.

One namespace (`from foogo import board_kernels as bk`) for the board's compiled half, which
lives in one module per job:

    board_layout     the packed position (s, z), its constants and named accessors; the one
                     owner of the layout (tests/test_layout.py), and the empty-point list
    board_moves      play, play_scratch, play_pass, legality: a move as a list of named steps
    board_playable   the playable rule (eyes, false eyes, the opponent's eye where it captures)
    board_liberties  exact liberty counts on demand
    board_score      area scoring, with or without each point's owner
    board_check      the consistency check, recomputed from the colours alone

Pseudo-liberties (as in libego and Pachi's light boards) make a merge a relabel
and a capture a walk: no move asks whether a liberty is already counted. Atari
stays exact: by Cauchy-Schwarz, n * q == s * s exactly when every pseudo-liberty
is the same point, and that point is s / n. Exact liberty counts, which only the
API and a few policy questions need, are computed on demand (`liberty_count`,
`other_liberties`).
"""

from .board_check import *  # noqa: F401,F403
from .board_layout import *  # noqa: F401,F403
from .board_liberties import *  # noqa: F401,F403
from .board_moves import *  # noqa: F401,F403
from .board_playable import *  # noqa: F401,F403
from .board_score import *  # noqa: F401,F403
