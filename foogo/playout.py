"""Random playouts: the uniform light policy, batches of playouts on threads, ownership maps.

A playout continues a position to the end with the design card's rule: each
side picks uniformly among its playable points (never its own eyes; the
opponent's eye-like points only to capture; multi-stone suicide allowed; the
ko point removed), passing when there is none. It ends after two consecutive
passes or at a cap of 3 * size * size moves, which is counted and reported so
that a loop is visible and never hangs.

Randomness is a xorshift64* stream per playout, seeded from (seed, playout
index) by splitmix64: playout i of a batch is the same whatever the thread
count or the order in which threads run.

Policies sit behind one seam: `choose_light(s, z, c, rng)` picks a point for
colour c. The heavy policy (policy.py) is another chooser with the same
contract; `run_playouts` and `play_out` take a policy name ("light" or
"heavy"), and the light kernels here stay as they were, so `foogo bench` pays
nothing for the seam. This module knows nothing of trees or of GTP.
"""

from __future__ import annotations

import os
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np
from . import board_kernels as bk
from .bits import ONE, popcount, select_in_word
from .jit import jit_nogil, kernel

PASS = bk.PASS


def move_cap(size: int) -> int:
    """The playout move cap for a board size: 3 * size * size."""
    return 3 * size * size


# ---------------------------------------------------------------- random numbers

@kernel
def splitmix64(x):
    """One splitmix64 step: a well-mixed uint64 from any uint64 (used to derive seeds)."""
    x = x + np.uint64(0x9E3779B97F4A7C15)
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


@kernel
def seed_rng(rng, seed, index):
    """Seed the one-word generator rng for playout number `index` of a run seeded with `seed`."""
    x = splitmix64(splitmix64(np.uint64(seed)) ^ np.uint64(index))
    rng[0] = x if x != 0 else np.uint64(0x2545F4914F6CDD1D)


@kernel
def random_below(rng, n):
    """A uniform integer in [0, n) for 0 < n < 2**32 from the xorshift64* generator in rng[0]."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    x = x * np.uint64(0x2545F4914F6CDD1D)
    # Lemire's multiply-shift: bias below n / 2**32, far under any test's resolution here
    return np.int64(((x >> np.uint64(32)) * np.uint64(n)) >> np.uint64(32))


# ---------------------------------------------------------------- the light policy

@kernel
def choose_light(s, z, c, rng):
    """A point drawn uniformly from playable(c) minus the ko point, or PASS if there is none.

    Draws r uniformly below the set's size and returns its r-th set bit, so every
    playable point has the same chance (never a scan from a random start)."""
    nw = s[bk.M_NW]
    base = 1 + (c - 1) * nw
    ko = s[bk.M_KO]
    ko_word = -1
    ko_mask = np.uint64(0)
    if ko != bk.NO_KO and s[bk.M_KO_COLOR] == c:
        ko_word = base + (ko >> 6)
        ko_mask = z[ko_word] & (ONE << np.uint64(ko & 63))
        z[ko_word] &= ~ko_mask
    total = np.uint64(0)
    for i in range(nw):
        total += popcount(z[base + i])
    point = PASS
    if total > 0:
        r = np.uint64(random_below(rng, total))
        for i in range(nw):
            word = z[base + i]
            count = popcount(word)
            if r < count:
                point = i * 64 + select_in_word(word, r)
                break
            r -= count
    if ko_word >= 0:
        z[ko_word] |= ko_mask
    return point


@kernel
def playout(s, z, zob, rng, cap, trace, owners):
    """Play position (s, z) out in place with the light policy, side to move first.

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
        p = choose_light(s, z, c, rng)
        if p == PASS:
            bk.play_pass(s, c)
            passes += 1
        else:
            bk.play(s, z, zob, p, c)
            passes = 0
            if moves < room:
                trace[moves] = p * 2 + c - 1
            moves += 1
        c = 3 - c
    return bk.area(s, owners), moves, capped


@jit_nogil
def playout_batch(s0, z0, zob, seed, first, cap, scores, moves, capped):
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
        scores[i], moves[i], capped[i] = playout(s, z, zob, rng, cap, no_trace, no_owners)


CHOSE_UNPLAYABLE, CHOSE_KO = 100, 101  # checked_playouts: the chooser broke the card's rule


@jit_nogil
def checked_playouts(s0, z0, zob, seed, count, cap):
    """Run `count` playouts calling bk.check after every move; return (0, 0, 0) or the first
    failure as (problem code, playout index, move number): a bk.check code, CHOSE_UNPLAYABLE
    or CHOSE_KO."""
    s = s0.copy()
    z = z0.copy()
    rng = np.zeros(1, dtype=np.uint64)
    for i in range(count):
        s[:] = s0
        z[:] = z0
        seed_rng(rng, seed, i)
        c = s[bk.M_TO_MOVE]
        passes = 0
        for move in range(cap):
            p = choose_light(s, z, c, rng)
            if p == PASS:
                bk.play_pass(s, c)
                passes += 1
                if passes == 2:
                    break
            else:
                if s[bk.META + p] != bk.EMPTY or not bk.is_playable(z, s[bk.M_NW], c, p):
                    return CHOSE_UNPLAYABLE, i, move
                if p == s[bk.M_KO] and c == s[bk.M_KO_COLOR]:
                    return CHOSE_KO, i, move
                bk.play(s, z, zob, p, c)
                passes = 0
            code, _ = bk.check(s, z, zob)
            if code != bk.CHECK_OK:
                return code, i, move
            c = 3 - c
    return 0, 0, 0


@jit_nogil
def ownership_batch(s0, z0, zob, seed, first, count, cap, total):
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
        playout(s, z, zob, rng, cap, no_trace, owners)
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
    from . import policy as heavy  # below this module: it builds on the light kernels

    kind = heavy.policy_id(policy)
    result = board.copy()
    rng = np.zeros(1, dtype=np.uint64)
    seed_rng(rng, seed, index)
    s, z = result._state()
    score, moves, capped = heavy.playout_with(s, z, result.geometry.zobrist, rng, move_cap(result.size),
                                              np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int8),
                                              kind, heavy.PATTERN_TABLE)
    return result, int(score), int(moves), bool(capped)


def run_playouts(board, count: int, seed: int = 0, threads: int = 1, first: int = 0,
                 policy: str = "light") -> PlayoutBatch:
    """Playouts first .. first + count - 1 of the run seeded `seed` from `board`, on `threads` threads,
    with the named policy ("light" or "heavy").

    The results depend only on (board, seed, first, count, policy), never on the thread count."""
    from . import policy as heavy  # below this module: it builds on the light kernels

    kind = heavy.policy_id(policy)
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
        if kind == heavy.HEAVY:
            heavy.heavy_batch(s0, z0, zob, seed, first + a, cap, scores[a:b], moves[a:b], capped[a:b],
                              heavy.PATTERN_TABLE)
        else:
            playout_batch(s0, z0, zob, seed, first + a, cap, scores[a:b], moves[a:b], capped[a:b])

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
                        move_cap(board.size), totals[k])

    if threads == 1:
        work(0)
    else:
        with ThreadPoolExecutor(max_workers=threads) as pool:
            list(pool.map(work, range(threads)))
    total = np.sum(totals, axis=0)
    return total[geo.points] / max(playouts, 1)
