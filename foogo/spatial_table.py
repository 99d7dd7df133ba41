"""The spatial patterns' part of the learned prior's table: a hash table of pattern keys and their gammas.

What it is: the owner of that part's layout. The prior table the kernels read (gamma_table.prior_table,
GAMMAS) is features.py's group gammas (features.TABLE_SIZE of them) followed, when the table has spatial
patterns, by SPATIAL_SLOTS slots of (key, gamma), key 0 for an empty slot: the table's last
2 * SPATIAL_SLOTS entries (`spatial_start`), so that this module needs nothing of the groups' layout.
`insert_spatial` fills it with linear probing, `spatial_gamma` reads a move's SPATIAL gamma from it,
`prefetch_slots` asks for the slots that reading touches first. A key is a SPATIAL code's bits at one
level (spatial_patterns.LEVEL_MASKS) tagged with the level at bit LEVEL_SHIFT (`level_keys`). What it is
not: the patterns' codes (spatial_patterns.py), their canonical keys and symmetries (gamma_table.py).
"""

from __future__ import annotations

import numpy as np

from .intrinsics import prefetch
from .jit import inline, kernel
from .spatial_patterns import LEVEL_MASKS

# The SPATIAL feature (spatial_patterns.spatial_code) at its two sizes: a key is a level's bits with
# the level at bit LEVEL_SHIFT. A move's spatial gamma is its level-2 key's if the table has it, else
# its level-1 key's, else 1 (Coulom's largest matching pattern). The table holds the keys seen at least
# --min-count times in the training games (bench/learn_gammas.py: SPATIAL_MIN_COUNT by default, 50 for
# the shipped table), each under its 8 rotations and reflections, so that no lookup needs to turn the board.
LEVEL_SHIFT = 48
SPATIAL_MIN_COUNT = 20
SPATIAL_SLOTS = 1 << 18  # the hash table's slots: at most ~100k keys (8 images of ~12k classes)
SPATIAL_MAX_LOAD = 0.7  # the share of the slots the keys may fill (the lookup's probing needs free ones)
SPATIAL_MAX_PATTERNS = int(SPATIAL_SLOTS * SPATIAL_MAX_LOAD) // 8  # canonical patterns a table holds: 8 images each
_SLOT_SHIFT = np.uint64(64 - 18)
_HASH_MULTIPLIER = np.uint64(0x9E3779B97F4A7C15)


@inline
def spatial_start(gammas):
    """Where prior table `gammas`' spatial part begins: its last 2 * SPATIAL_SLOTS entries; below 0 when
    the table holds the group gammas alone (features.TABLE_SIZE of them, far fewer)."""
    return np.int64(gammas.shape[0]) - 2 * SPATIAL_SLOTS


@inline
def slot(key):
    """A key's first slot in the spatial hash table."""
    return np.int64((np.uint64(key) * _HASH_MULTIPLIER) >> _SLOT_SHIFT)


@inline
def _spatial_lookup(gammas, key):
    """The gamma stored for key in the prior table's spatial part, or 0 if it has none."""
    start = spatial_start(gammas)
    if start < 0:
        return 0.0
    i = slot(key)
    while True:
        k = gammas[start + 2 * i]
        if k == 0:
            return 0.0
        if k == key:
            return gammas[start + 2 * i + 1]
        i = (i + 1) & (SPATIAL_SLOTS - 1)


@inline
def _two_slots(gammas, key):
    """_spatial_lookup's first two probes, without a branch: (the gamma if one of them holds key, else
    0; True if they settle the lookup: key found, or an empty slot met first, which ends key's run)."""
    start = spatial_start(gammas)
    i = slot(key)
    j = (i + 1) & (SPATIAL_SLOTS - 1)
    ka = gammas[start + 2 * i]
    kb = gammas[start + 2 * j]
    g = gammas[start + 2 * i + 1] * (ka == key) + gammas[start + 2 * j + 1] * (kb == key)
    return g, (ka == key) | (ka == 0) | (kb == key) | (kb == 0)


@inline
def level_keys(code):
    """A SPATIAL code's table keys (level 2, level 1): each level's bits tagged with the level."""
    return (code & LEVEL_MASKS[1]) | (2 << LEVEL_SHIFT), (code & LEVEL_MASKS[0]) | (1 << LEVEL_SHIFT)


@inline
def spatial_gamma(gammas, code):
    """The SPATIAL gamma of a move of this code: its level-2 pattern's, else its level-1's, else 1.

    Both levels are looked up at once, their first two slots read without a branch: which level
    answers is a coin toss in the search's expansions (level 2 for 42% of the candidates, level 1
    for 66%), and asking level 1 only after level 2 failed cost a mispredicted branch on every other
    candidate. The rare lookup the two slots do not settle walks on (_spatial_lookup)."""
    if spatial_start(gammas) < 0:
        return 1.0
    key2, key1 = level_keys(code)
    g2, settled2 = _two_slots(gammas, key2)
    g1, settled1 = _two_slots(gammas, key1)
    if not (settled2 & settled1):
        g2 = _spatial_lookup(gammas, key2)
        g1 = _spatial_lookup(gammas, key1)
    g = g2 if g2 > 0.0 else g1
    return g if g > 0.0 else 1.0


@kernel
def insert_spatial(table, keys, values):
    """Put each (key, value) into the spatial part of prior table `table` (linear probing), which it must
    have (spatial_start >= 0)."""
    start = spatial_start(table)
    for j in range(keys.shape[0]):
        key = keys[j]
        i = slot(key)
        while table[start + 2 * i] != 0 and table[start + 2 * i] != key:
            i = (i + 1) & (SPATIAL_SLOTS - 1)
        table[start + 2 * i] = key
        table[start + 2 * i + 1] = values[j]


@inline
def prefetch_slots(gammas, code):
    """Ask for the first slots of a SPATIAL code's two keys (level_keys), which spatial_gamma reads first."""
    start = spatial_start(gammas)
    if start >= 0:
        key2, key1 = level_keys(code)
        prefetch(gammas, start + 2 * slot(key2))
        prefetch(gammas, start + 2 * slot(key1))
