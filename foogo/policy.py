"""Playout policies: the seam `choose(s, z, c, rng, policy, reject_permil, table)` that picks a playout's next move.

Every built-in policy returns a padded point of playable(c) minus the ko point, or PASS when that set
is empty (HEAVY also when it keeps a seki), so it never fills its own eyes, takes the opponent's
eye-like points only to capture, and playouts end whichever is used.
  LIGHT         uniform over that set, the card's and the benchmark's policy (policy_light.py).
  HEAVY         local Go knowledge in front of the uniform choice: a recent ko, captures, atari
                answers, 3x3 patterns, and no self-atari of two stones or more (policy_heavy.py,
                which lists its rules, each with the match that put it there).
  HEAVY_NAKADE  HEAVY with nakade sacrifices and the vital point of a dead eye space: the heavy
                search's playouts once at most three quarters of the points are empty
                (SearchConfig.late_nakade).
  HEAVY_RACE    HEAVY with the approach from outside in capturing races (opt-in).
The policies draw from one random stream per playout (random_stream.py), so playout i of a run is the same
whatever the thread count. The playout loop itself is in playout.py, above this module; self-atari,
which the heavy rules share with the ladder reader and the learned prior's features, is tactics.py's.
"""

from __future__ import annotations

from .jit import inline
from .numbers import shown
from .policy_heavy import choose_heavy, choose_heavy_nakade, choose_heavy_race
from .policy_light import PASS, choose_light  # noqa: F401 (PASS: the seam's answer, read as policy.PASS)

LIGHT, HEAVY, HEAVY_NAKADE, HEAVY_RACE = 0, 1, 2, 3
POLICIES = ("light", "heavy", "heavy-nakade", "heavy-race")  # names, indexed by id


def policy_id(name: str) -> int:
    """The id (LIGHT, HEAVY, HEAVY_NAKADE or HEAVY_RACE) of a policy name; ValueError naming the choices otherwise."""
    if name not in POLICIES:
        raise ValueError(f"unknown playout policy {shown(name)}; available: {', '.join(POLICIES)}")
    return POLICIES.index(name)


@inline
def choose_light_only(s, z, c, rng, policy, reject_permil, table):
    """choose for policy LIGHT, with choose's signature: the light batch's chooser (playout.light_batch),
    which compiles none of the heavy rules (a fresh install's `foogo bench` loads in a fraction of the time)."""
    return choose_light(s, z, c, rng)


@inline
def choose(s, z, c, rng, policy, reject_permil, table):
    """The point policy LIGHT, HEAVY, HEAVY_NAKADE or HEAVY_RACE picks for c (table: the heavy policy's
    patterns; reject_permil: how often in 1000 the heavy rule (d) redraws a self-atari of two stones or
    more, policy_heavy.SELF_ATARI_REJECT_PERMIL in the playouts, the search's own in its tree), or PASS.
    HEAVY's rules are inlined with `sacrifices` and `race` constants False, so none of the opt-in
    policies' steps is compiled into them."""
    if policy >= HEAVY:  # one compare on the light path, as before HEAVY_NAKADE had a call of its own
        if policy == HEAVY:
            return choose_heavy(s, z, c, rng, table, False, False, reject_permil)
        if policy == HEAVY_NAKADE:
            return choose_heavy_nakade(s, z, c, rng, table, reject_permil)
        return choose_heavy_race(s, z, c, rng, table, reject_permil)
    return choose_light(s, z, c, rng)
