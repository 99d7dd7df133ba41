"""The playouts' random stream: one xorshift64* word a playout, seeded from (seed, playout index).

splitmix64 derives each playout's seed, so playout i of a run is the same whatever the thread count;
random_below draws a bounded integer from the word, and keep_one keeps one of a run of candidates
uniformly (reservoir sampling) with it. playout.py seeds a stream for each playout (the
search's too), the light and heavy policies draw from it, and so may a custom policy.
"""

from __future__ import annotations

import numpy as np

from .jit import inline, kernel


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


@inline
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


@inline
def keep_one(rng, found, kept, q):
    """Offer candidate q to a uniform choice of one: (found + 1, q with chance 1/(found + 1), else
    kept). After k offers each candidate is kept with chance 1/k (reservoir sampling); one draw an
    offer."""
    found += 1
    if random_below(rng, found) == 0:
        return found, q
    return found, kept
