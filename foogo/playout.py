"""Random playouts: the playout loop for either policy, batches of playouts on threads, ownership maps.

A playout continues a position to the end with the design card's rule: each
side picks uniformly among its playable points (never its own eyes; the
opponent's eye-like points only to capture; multi-stone suicide allowed; the
ko point removed), passing when there is none. It ends after two consecutive
passes or at a cap of 3 * size * size moves, which is counted and reported so
that a loop is visible and never hangs.

Randomness is a xorshift64* stream per playout, seeded from (seed, playout
index) by splitmix64: playout i of a batch is the same whatever the thread
count or the order in which threads run.

Policies sit behind one seam, `policy.choose(s, z, c, rng, policy, table)`:
the light (uniform) and heavy choosers, and the random stream, live in
policy.py below this module. Kernels take the policy id (policy.LIGHT or
policy.HEAVY); the Python API takes its name ("light" or "heavy"). This
module knows nothing of trees or of GTP.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from . import board_kernels as bk
from .jit import jit_nogil, kernel
from .policy import (  # noqa: F401
    HEAVY,
    LIGHT,
    PASS,
    PATTERN_TABLE,
    POLICIES,
    choose,
    choose_heavy,
    choose_light,
    policy_id,
    random_below,
    seed_rng,
    splitmix64,
)


def move_cap(size: int) -> int:
    """The playout move cap for a board size: 3 * size * size."""
    return 3 * size * size


@kernel
def playout(s, z, zob, rng, cap, trace, owners, policy, table):
    """Play position (s, z) out in place with policy LIGHT or HEAVY (table: the heavy
    policy's patterns, see policy.py), side to move first.

    trace (int32) receives point * 2 + colour - 1 of each stone played while it has room;
    owners (int8[P]) receives the final owner of each point (see board_kernels.area); pass
    empty arrays for neither. Returns (black-minus-white area score, stones played,
    1 if the cap was hit else 0)."""
    c = np.int64(s[bk.M_TO_MOVE])
    passes = np.int64(s[bk.M_PASSES])
    moves = 0
    capped = 0
    room = trace.shape[0]
    while passes < 2:
        if moves >= cap:
            capped = 1
            break
        p = choose(s, z, c, rng, policy, table)
        if p == PASS:
            bk.play_pass(s, c)
            passes += 1
        else:
            bk.play_inline(s, z, zob, p, c)
            passes = 0
            if moves < room:
                trace[moves] = p * 2 + c - 1
            moves += 1
        c = 3 - c
    return bk.area(s, owners), moves, capped


@jit_nogil
def playout_batch(s0, z0, zob, seed, first, cap, scores, moves, capped, policy, table):
    """Run playouts first .. first + len(scores) - 1 of a seeded run from (s0, z0), filling the arrays."""
    s = s0.copy()
    z = z0.copy()
    rng = np.zeros(1, dtype=np.uint64)
    no_trace = np.empty(0, dtype=np.int32)
    no_owners = np.empty(0, dtype=np.int8)
    for i in range(scores.shape[0]):
        s[:] = s0
        z[:] = z0
        seed_rng(rng, seed, first + i)
        scores[i], moves[i], capped[i] = playout(s, z, zob, rng, cap, no_trace, no_owners, policy, table)


CHOSE_UNPLAYABLE, CHOSE_KO = 100, 101  # checked_playouts: the chooser broke the card's rule


def checked_playouts(s0, z0, zob, seed, count, cap, policy: str = "light"):
    """Run `count` playouts calling bk.check after every move; return (0, 0, 0) or the first
    failure as (problem code, playout index, move number): a bk.check code, CHOSE_UNPLAYABLE
    or CHOSE_KO."""
    return _checked_playouts(s0, z0, zob, seed, count, cap, policy_id(policy), PATTERN_TABLE)


@jit_nogil
def _checked_playouts(s0, z0, zob, seed, count, cap, policy, table):
    s = s0.copy()
    z = z0.copy()
    rng = np.zeros(1, dtype=np.uint64)
    for i in range(count):
        s[:] = s0
        z[:] = z0
        seed_rng(rng, seed, i)
        c = np.int64(s[bk.M_TO_MOVE])
        passes = 0
        for move in range(cap):
            p = choose(s, z, c, rng, policy, table)
            if p == PASS:
                bk.play_pass(s, c)
                passes += 1
                if passes == 2:
                    break
            else:
                if not bk.is_playable(s, p, c):
                    return CHOSE_UNPLAYABLE, i, move
                if p == bk.ko_point_for(s, c):
                    return CHOSE_KO, i, move
                bk.play(s, z, zob, p, c)
                passes = 0
            code, _ = bk.check(s, z, zob)
            if code != bk.CHECK_OK:
                return code, i, move
            c = 3 - c
    return 0, 0, 0


@jit_nogil
def ownership_batch(s0, z0, zob, seed, first, count, cap, total, policy, table):
    """Add to total (float64[P]) the final owner (+1 black, -1 white) of each point over
    playouts first .. first + count - 1 of the run seeded `seed`."""
    s = s0.copy()
    z = z0.copy()
    rng = np.zeros(1, dtype=np.uint64)
    owners = np.zeros(s0[bk.M_P], dtype=np.int8)
    no_trace = np.empty(0, dtype=np.int32)
    for i in range(count):
        s[:] = s0
        z[:] = z0
        seed_rng(rng, seed, first + i)
        playout(s, z, zob, rng, cap, no_trace, owners, policy, table)
        for p in range(owners.shape[0]):
            if owners[p] == bk.BLACK:
                total[p] += 1.0
            elif owners[p] == bk.WHITE:
                total[p] -= 1.0


# ---------------------------------------------------------------- the Python API

@dataclass
class PlayoutBatch:
    """Results of a batch: per-playout scores (black minus white, no komi), stones played, cap hits."""

    scores: np.ndarray  # int32
    moves: np.ndarray  # int32
    capped: np.ndarray  # int8
    seconds: float
    threads: int

    def wins(self, komi: float = 0.0) -> tuple[int, int, int]:
        """(black wins, white wins, draws) at this komi."""
        margin = self.scores - komi
        return int((margin > 0).sum()), int((margin < 0).sum()), int((margin == 0).sum())


def default_threads() -> int:
    """The number of cores this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


def play_out(board, seed: int = 0, index: int = 0, policy: str = "light"):
    """Play a copy of `board` out with the named policy; return (copy, score, stones played, capped)."""
    kind = policy_id(policy)
    result = board.copy()
    rng = np.zeros(1, dtype=np.uint64)
    seed_rng(rng, seed, index)
    s, z = result._state()
    score, moves, capped = playout(s, z, result.geometry.zobrist, rng, move_cap(result.size),
                                   np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int8), kind, PATTERN_TABLE)
    return result, int(score), int(moves), bool(capped)


def run_playouts(board, count: int, seed: int = 0, threads: int = 1, first: int = 0,
                 policy: str = "light") -> PlayoutBatch:
    """Playouts first .. first + count - 1 of the run seeded `seed` from `board`, on `threads` threads,
    with the named policy ("light" or "heavy").

    The results depend only on (board, seed, first, count, policy), never on the thread count."""
    kind = policy_id(policy)
    if count < 0:
        raise ValueError(f"playout count must be >= 0, got {count}")
    if threads < 1:
        raise ValueError(f"threads must be >= 1, got {threads}")
    s0, z0 = board._state()
    zob = board.geometry.zobrist
    cap = move_cap(board.size)
    scores = np.zeros(count, dtype=np.int32)
    moves = np.zeros(count, dtype=np.int32)
    capped = np.zeros(count, dtype=np.int8)
    start = time.perf_counter()
    bounds = np.linspace(0, count, threads + 1).astype(int)
    jobs = [(a, b) for a, b in zip(bounds[:-1], bounds[1:]) if b > a]

    def work(job):
        a, b = job
        playout_batch(s0, z0, zob, seed, first + a, cap, scores[a:b], moves[a:b], capped[a:b], kind, PATTERN_TABLE)

    if len(jobs) <= 1:
        for job in jobs:
            work(job)
    else:
        with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
            list(pool.map(work, jobs))
    return PlayoutBatch(scores, moves, capped, time.perf_counter() - start, threads)


def ownership(board, playouts: int = 300, seed: int = 0, threads: int = 1) -> np.ndarray:
    """Mean final owner of each point (+1 black, -1 white) over uniform playouts from `board`,
    as float64[size * size] indexed row * size + col."""
    s0, z0 = board._state()
    geo = board.geometry
    counts = np.linspace(0, playouts, threads + 1).astype(int)
    totals = [np.zeros(geo.npoints) for _ in range(threads)]

    def work(k):
        ownership_batch(s0, z0, geo.zobrist, seed, counts[k], counts[k + 1] - counts[k],
                        move_cap(board.size), totals[k], LIGHT, PATTERN_TABLE)

    if threads == 1:
        work(0)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(work, range(threads)))
    total = np.sum(totals, axis=0)
    return total[geo.points] / max(playouts, 1)
