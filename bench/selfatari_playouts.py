"""Heavy playouts whose rule (d) plays a self-atari of two stones or more some of the time instead of always
drawing again (Pachi's moggy rejects such a move with its `selfatarirate`, 60 there): custom playout policies
for a Brier scan, before a match.

    PYTHONPATH=bench python bench/policy_diff.py DIRS --out FILE --gap 1 --every 2 --from-move 30 \
        --playouts 500 --policies heavy-nakade selfatari_playouts:nakade_1000 selfatari_playouts:nakade_600 ...

Each policy is policy_heavy.choose_heavy, with the redraw of
such a self-atari taken with probability R / 1000 (`nakade_R`: heavy-nakade's rules, with nakade sacrifices
and the vital point; `heavy_R`: heavy's). At R = 1000 they play what the built-in policies play (Brier within
0.0002 of heavy-nakade over 2,869 positions: the same rules, drawn through the custom-policy seam). In foogo
itself the rate is policy_heavy.SELF_ATARI_REJECT_PERMIL, a compile-time constant (1000).

`nakade_seki` and `heavy_seki` are heavy-nakade's and heavy's rules with the false-eye seki check
(policy_heavy.FALSE_EYE_SEKI, off by default): bench/results/false-eye-seki-brier-2026-12-05.txt.
`nakade_wasteful` and `nakade_wasteful_seki` are heavy-nakade's rules with rule (d'')'s wasteful self-atari test
(policy_heavy.WASTEFUL_SELF_ATARI, off by default), without and with that check; `light_wasteful` and
`light_wasteful_seki` the uniform draw with (d) and (e) alone so judged:
bench/results/wasteful-self-atari-brier-2026-12-05.txt.

Scanned (2026-12-05, bench/results/selfatari-brier-2026-12-05.txt): against the results of 268 games at 5 s a
move on two threads, R = 600 gave -0.026 at moves 50-69 (-0.054 to +0.002) and -0.010 from move 10 (-0.022 to
+0.001); 0, 300 and 750 about the same, 900 half of it.
"""

from __future__ import annotations

from numba import njit

from foogo.policy_heavy import SELF_ATARI_REJECT_PERMIL, choose_heavy, uniform_move


def selfatari_policy(reject_permil: int, sacrifices: bool):
    """A custom playout policy: heavy's rules (heavy-nakade's if `sacrifices`) with rule (d) redrawing a
    self-atari of two stones or more with probability reject_permil / 1000 and playing it otherwise."""
    if not 0 <= reject_permil <= 1000:
        raise ValueError(f"reject_permil must be in 0..1000, not {reject_permil}")

    @njit
    def choose(s, z, c, rng, table):
        return choose_heavy(s, z, c, rng, table, sacrifices, False, reject_permil)

    return choose


def seki_eye_policy(sacrifices: bool):
    """A custom playout policy: heavy's rules (heavy-nakade's if `sacrifices`) with rules (d) and (e) also refusing
    a fill of the side's own false eye that breaks a false-eye seki (policy_heavy.FALSE_EYE_SEKI's rule)."""

    @njit
    def choose(s, z, c, rng, table):
        return choose_heavy(s, z, c, rng, table, sacrifices, False, SELF_ATARI_REJECT_PERMIL, True)

    return choose


nakade_seki = seki_eye_policy(True)
heavy_seki = seki_eye_policy(False)
nakade_1000 = selfatari_policy(1000, True)
nakade_900 = selfatari_policy(900, True)
nakade_750 = selfatari_policy(750, True)
nakade_600 = selfatari_policy(600, True)
nakade_300 = selfatari_policy(300, True)
nakade_0 = selfatari_policy(0, True)
heavy_1000 = selfatari_policy(1000, False)
heavy_600 = selfatari_policy(600, False)


def wasteful_policy(seki_eye: bool, light: bool = False):
    """A custom playout policy: heavy-nakade's rules (or, if `light`, rules (d) and (e) alone) with (d) and (e)
    refusing tactics.wasteful_self_atari (a self-atari of three stones or more for nothing, Pachi's
    is_really_bad_selfatari) in place of a self-atari of two stones or more that is no nakade; with `seki_eye`,
    the false-eye seki check too."""
    if light:
        @njit
        def choose(s, z, c, rng, table):
            return uniform_move(s, z, c, rng, True, False, SELF_ATARI_REJECT_PERMIL, seki_eye, True)
    else:
        @njit
        def choose(s, z, c, rng, table):
            return choose_heavy(s, z, c, rng, table, True, False, SELF_ATARI_REJECT_PERMIL, seki_eye, True)

    return choose


nakade_wasteful = wasteful_policy(False)
nakade_wasteful_seki = wasteful_policy(True)
light_wasteful = wasteful_policy(False, light=True)
light_wasteful_seki = wasteful_policy(True, light=True)
