"""Who owns each point at the end of playouts: the mean final owner over a run and the share left to neither.

What the GTP engine's final_status_list and ownership maps, the game's dead-stone scoring
(game_score) and the analysis commands read: playouts from a position with a built-in policy, each
point's final owner (+1 black, -1 white, 0 neither: board_kernels.area) summed over them. The
playouts are run_playouts' (playout.py: the same loop, seeds and slices over threads), so the
result depends on the board, seed, count and policy, never on the thread count.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline, jit_nogil
from .patterns import PATTERN_TABLE
from .playout import NO_REPLIES, batch_scratch, fan_out, move_cap, play_out_with, run_numbers
from .policy import LIGHT, choose, choose_light_only, policy_id
from .policy_heavy import SELF_ATARI_REJECT_PERMIL
from .random_stream import seed_rng


@jit_nogil
def ownership_batch(s0, z0, zob, seed, first, count, cap, total, neutral, policy, table):
    """Add to total (float64[P]) the final owner (+1 black, -1 white) of each point over
    playouts first .. first + count - 1 of the run seeded `seed`, and to neutral (float64[P]) 1 for
    each playout that left the point owned by neither colour."""
    s, z, rng, no_trace, owners = _owner_scratch(s0, z0)
    _owners_into(s0, z0, s, z, rng, no_trace, owners, zob, seed, first, count, cap, total, neutral, choose, policy,
                 table)


@jit_nogil
def light_ownership_batch(s0, z0, zob, seed, first, count, cap, total, neutral, policy, table):
    """ownership_batch for policy LIGHT (ownership's default, which foogo gtp loads at its start): its own
    kernel, with none of the heavy rules in it, as light_batch."""
    s, z, rng, no_trace, owners = _owner_scratch(s0, z0)
    _owners_into(s0, z0, s, z, rng, no_trace, owners, zob, seed, first, count, cap, total, neutral,
                 choose_light_only, policy, table)


@jit_nogil
def _owner_scratch(s0, z0):
    """An ownership batch's scratch arrays: batch_scratch's, with owners (int8[P]) for its empty array."""
    s, z, rng, no_trace, _ = batch_scratch(s0, z0)
    return s, z, rng, no_trace, np.zeros(s0[bk.M_P], dtype=np.int8)


@inline
def _owners_into(s0, z0, s, z, rng, no_trace, owners, zob, seed, first, count, cap, total, neutral, chooser, policy,
                 table):
    """The loop of an ownership batch, with a built-in chooser, on the caller's scratch arrays."""
    for i in range(count):
        bk.copy_position(s0, z0, s, z)
        seed_rng(rng, seed, first + i)
        play_out_with(s, z, zob, rng, cap, no_trace, owners, chooser, policy, SELF_ATARI_REJECT_PERMIL, table,
                      NO_REPLIES, True)
        for p in range(owners.shape[0]):
            if owners[p] == bk.BLACK:
                total[p] += 1.0
            elif owners[p] == bk.WHITE:
                total[p] -= 1.0
            else:
                neutral[p] += 1.0


# ---------------------------------------------------------------- the Python API

def ownership(board, playouts: int = 300, seed: int = 0, threads: int = 1, policy: str = "light") -> np.ndarray:
    """Mean final owner of each point (+1 black, -1 white) over playouts from `board` with a built-in
    policy (a name of policy.POLICIES: "light" is uniform), as float64[size * size] indexed row * size + col."""
    return owner_shares(board, playouts, seed, threads, policy)[0]


def owner_shares(board, playouts: int = 300, seed: int = 0, threads: int = 1,
                 policy: str = "light") -> tuple[np.ndarray, np.ndarray]:
    """(ownership's mean final owner, the share of the playouts that left each point owned by
    neither colour), both float64[size * size] indexed row * size + col. The counts are checked as
    run_playouts' (a thread count of 200,000 started as many threads, each with its own sums)."""
    playouts, threads, seed, _ = run_numbers(playouts, threads, seed, 0)
    kind = policy_id(policy)  # ValueError naming the built-in policies
    s0, z0 = board._state()
    geo = board.geometry
    totals = [np.zeros((2, geo.npoints)) for _ in range(threads)]  # each slice's own sums
    batch = light_ownership_batch if kind == LIGHT else ownership_batch

    def work(k, a, b):
        batch(s0, z0, geo.zobrist, seed, a, b - a, move_cap(board.size), totals[k][0], totals[k][1], kind,
              PATTERN_TABLE)

    fan_out(playouts, threads, work)
    total = np.sum(totals, axis=0)[:, geo.points] / max(playouts, 1)
    return total[0], total[1]
