"""Scratch policies of moggy-base-brier-2026-12-05.txt, parts 4 and 5, and of false-eye-seki-brier-2026-12-05.txt
(copied as sizes.py into a directory put on PYTHONPATH beside bench/, named sizes:NAME in policy_diff.py):
heavy-nakade's rules, each local rule on or off, with rule (d)'s self-atari refusal rated by the size of the
string given away, as moggy's permit rates it (is_really_bad_selfatari: 3 stones or more, always;
is_bad_selfatari: any size, selfatarirate 60% of the time), and optionally the false-eye seki check.

refuse(p) for a self-atari p that is no nakade, giving away n stones (the new string's size): refused if
n >= ALWAYS; refused with probability PERMIL / 1000 (a coin each test) if RATED <= n < ALWAYS; played otherwise.
ALWAYS = RATED = 2 is heavy-nakade's rule (d) (the same numbers as heavy-nakade in 34 positions).
"""

import numpy as np
from numba import njit

from foogo import board_kernels as bk
from foogo.nakade import nakade
from foogo.policy_heavy import ATARI_PERMIL, CAPTURE_PERMIL, KO_PERMIL, PATTERN_PERMIL
from foogo.policy_light import PASS, allowed_at, choose_light
from foogo.policy_local import atari_answer, capture_rule, ko_fight, pattern_move, vital_answer
from foogo.random_stream import random_below
from foogo.tactics import breaks_false_eye_seki, self_atari


@njit
def merged_size(s, p, c):
    """The stones of the string a c stone at empty p would join: 1 and its own neighbour strings' sizes."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    n = 1
    h1 = h2 = h3 = -1
    for q in (p - w, p - 1, p + 1, p + w):
        if bk.color_at(s, P, q) == c:
            h = bk.head_of(s, P, q)
            if h != h1 and h != h2 and h != h3:
                n += bk.string_size(s, P, h)
                if h1 < 0:
                    h1 = h
                elif h2 < 0:
                    h2 = h
                else:
                    h3 = h
    return n


def make(always, rated, permil, ko=True, capture=True, atari=True, vital=True, pattern=True, seki=False):
    """A custom playout policy: rules (k), (a), (b), (b') and (c) as chosen, then the uniform draw with the
    size-rated refusal above (a refused draw redrawn without replacement; PASS if every point is refused);
    with `seki`, a false-eye seki broken is refused as well (tactics.breaks_false_eye_seki)."""

    @njit
    def refuse(s, p, c, rng):
        if seki and breaks_false_eye_seki(s, p, c):
            return True
        if not self_atari(s, p, c) or nakade(s, p, c):
            return False
        n = merged_size(s, p, c)
        if n >= always:
            return True
        if n >= rated:
            return random_below(rng, 1000) < permil
        return False

    @njit
    def safe(s, c, rng):
        ko_p = bk.ko_point_for(s, c)
        window = np.int64(s[bk.M_EMPTIES])
        while window > 0:
            i = random_below(rng, window)
            p = bk.empty_point(s, i)
            if allowed_at(s, p, c, ko_p) and not refuse(s, p, c, rng):
                return p
            window -= 1
            bk.swap_empties(s, i, window)
        return PASS

    @njit
    def choose(s, z, c, rng, table):
        if ko:
            p = ko_fight(s, z, c)
            if p != PASS and random_below(rng, 1000) < KO_PERMIL:
                return p
        last = np.int64(s[bk.M_LAST])
        if last >= 0:
            if capture and random_below(rng, 1000) < CAPTURE_PERMIL:
                p = capture_rule(s, z, c, last, rng)
                if p != PASS:
                    return p
            if atari and random_below(rng, 1000) < ATARI_PERMIL:
                p = atari_answer(s, z, c, last, rng)
                if p != PASS:
                    return p
            if vital:
                p = vital_answer(s, z, c, last)
                if p != PASS:
                    return p
            if pattern and random_below(rng, 1000) < PATTERN_PERMIL:
                p = pattern_move(s, z, c, last, rng, table)
                if p != PASS:
                    return p
        p = choose_light(s, z, c, rng)
        if p == PASS or not refuse(s, p, c, rng):
            return p
        return safe(s, c, rng)

    return choose


NONE = dict(ko=False, capture=False, atari=False, vital=False, pattern=False)
cur = make(2, 2, 1000)  # heavy-nakade through this seam
big3 = make(3, 3, 1000)  # only 3 stones or more (moggy's selfatarirate=0)
big3_r1 = make(3, 1, 600)  # moggy's default: any size 60% of the time, 3 or more always
big3_r2 = make(3, 2, 600)  # 2 stones 60% of the time, 3 or more always, 1 stone played
any1 = make(1, 1, 1000)  # any size, always
light_any1 = make(1, 1, 1000, **NONE)  # the uniform draw, every non-nakade self-atari refused
light_big2 = make(2, 2, 1000, **NONE)  # the uniform draw with today's (d) and (e)
light_big3 = make(3, 3, 1000, **NONE)  # the uniform draw, 3 stones or more refused
nopattern = make(2, 2, 1000, pattern=False)
nocapture = make(2, 2, 1000, capture=False)
noatari = make(2, 2, 1000, atari=False)
cur_seki = make(2, 2, 1000, seki=True)  # heavy-nakade, false-eye seki refused (selfatari_playouts:nakade_seki)
sa0 = make(1000, 1000, 0)  # no self-atari refused
sa0_seki = make(1000, 1000, 0, seki=True)
sa60_seki = make(1000, 2, 600, seki=True)  # 2 stones or more refused 60% of the time (a coin each test)
