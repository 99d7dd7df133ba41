"""Heavy playouts without rule (b2), moggy's two-liberty check (policy_heavy.TWO_LIBERTY), with it, and with its
counter-ataris as well (TWO_LIBERTY_COUNTER, both on by default since 2026-12-07): custom playout policies for a
Brier scan, before a match.

    PYTHONPATH=bench python bench/policy_diff.py DIRS --out FILE --gap 1 --every 2 --from-move 30 \
        --playouts 500 --policies two_liberty_playouts:nakade_off two_liberty_playouts:nakade_b2 heavy-nakade

`nakade_off`, `nakade_b2` and `nakade_b2c` are heavy-nakade's rules (the 9x9 search's playouts once a quarter of
the points hold stones) without (b2) (as shipped before 2026-12-07), with it, and with the counter-ataris (as
shipped now: the same as heavy-nakade); `heavy_off`, `heavy_b2` and `heavy_b2c` heavy's. `nakade_nlib` and
`heavy_nlib` add rule (b3), moggy's n-liberty check (policy_heavy.NLIB), to today's; `nakade_eyefill` rule (e2), its
eye-fill redirect (EYE_FILL); `nakade_nlib_eyefill` both; `nakade_seki` the false-eye seki check (FALSE_EYE_SEKI).
`nakade_novital` is today's heavy-nakade without rule (b'), the vital point (VITAL_POINT). Everything else is as
foogo ships it (policy_heavy's constants).
"""

from __future__ import annotations

from numba import njit

from foogo.policy_heavy import (
    FALSE_EYE_SEKI,
    SEKI_GUARD,
    SELF_ATARI_REJECT_PERMIL,
    VITAL_POINT,
    WASTEFUL_SELF_ATARI,
    choose_heavy,
)


def heavy_policy(sacrifices: bool, two_lib: bool = True, counter: bool = True, nlib: bool = False,
                 eye_fill: bool = False, seki_eye: bool = FALSE_EYE_SEKI, vital: bool = VITAL_POINT):
    """A custom playout policy: heavy's rules (heavy-nakade's if `sacrifices`) with rule (b2) if `two_lib`, its
    counter-ataris if `counter` as well, rule (b3), moggy's n-liberty check (policy_heavy.NLIB), if `nlib`, and rule
    (e2), its eye-fill redirect (EYE_FILL), if `eye_fill`; the false-eye seki check if `seki_eye`; rule (b'), the
    vital point, if `vital` (and `sacrifices`); everything else as policy_heavy's constants say."""

    @njit
    def choose(s, z, c, rng, table):
        return choose_heavy(s, z, c, rng, table, sacrifices, False, SELF_ATARI_REJECT_PERMIL, seki_eye,
                            WASTEFUL_SELF_ATARI, SEKI_GUARD, two_lib, counter, nlib, eye_fill, vital)

    return choose


nakade_off = heavy_policy(True, two_lib=False, counter=False)
heavy_off = heavy_policy(False, two_lib=False, counter=False)
nakade_b2 = heavy_policy(True, counter=False)
nakade_b2c = heavy_policy(True)
heavy_b2 = heavy_policy(False, counter=False)
heavy_b2c = heavy_policy(False)
nakade_nlib = heavy_policy(True, nlib=True)
heavy_nlib = heavy_policy(False, nlib=True)
nakade_eyefill = heavy_policy(True, eye_fill=True)
nakade_nlib_eyefill = heavy_policy(True, nlib=True, eye_fill=True)
nakade_seki = heavy_policy(True, seki_eye=True)
nakade_novital = heavy_policy(True, vital=False)
