"""Scratch policies of wasteful-self-atari-brier-2026-12-05.txt, part 4: heavy-nakade with the false-eye seki check
(cur_seki) and rule (a) changed, and with the wasteful self-atari test. They build on
moggy-base-brier-2026-12-05-policies.py: copy that file as sizes.py and this one beside it as late.py into a
directory put on PYTHONPATH beside bench/; the scans named them sizes:NAME, with these lines appended to sizes.py,
so here they are late:NAME. seki_cap0 (= late_cap_big) reproduces cur_seki exactly (checked on 699 and 2,869
positions), and this file's one factory, make_late, reproduces the scans' shares of late_nocap_wasteful,
late_cap_wasteful, seki_capsafe and seki_lastcap exactly (96 shares from move 78 checked).
"""
import numpy as np
from numba import njit
from sizes import (
    ATARI_PERMIL,
    CAPTURE_PERMIL,
    KO_PERMIL,
    PASS,
    PATTERN_PERMIL,
    allowed_at,
    atari_answer,
    bk,
    breaks_false_eye_seki,
    capture_rule,
    choose_light,
    ko_fight,
    make,
    merged_size,
    nakade,
    pattern_move,
    random_below,
    self_atari,
    vital_answer,
)

from foogo.policy_local import capture_move
from foogo.tactics import wasteful_self_atari

seki_nocap = make(2, 2, 1000, capture=False, seki=True)
seki_nopat = make(2, 2, 1000, pattern=False, seki=True)
seki_nocap_nopat = make(2, 2, 1000, capture=False, pattern=False, seki=True)


@njit
def risky_capture(s, p, c):
    """True if c's capture at p takes one stone of one string and leaves c's string there with the captured
    point as its only liberty (a snapback's victim; Pachi's examine_enemy_groups sends it on to its later tests)."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    if bk.empty_neighbours(s, P, p) > 0:
        return False
    own = 0
    caught = 0
    for q in (p - w, p - 1, p + 1, p + w):
        cq = bk.color_at(s, P, q)
        if cq == c:
            count, _ = bk.other_liberties(s, P, w, bk.head_of(s, P, q), p)
            if count >= 1:
                return False
            own += 1
        elif cq == 3 - c and bk.string_in_atari(s, P, bk.head_of(s, P, q)):
            if bk.string_size(s, P, bk.head_of(s, P, q)) > 1:
                return False
            caught += 1
    return own > 0 and caught == 1


CAP_OFF, CAP_BOTH, CAP_LAST, CAP_SAFE = 0, 1, 2, 3  # rule (a): off; as choose_heavy has it (around the last move,
# then the one before it); around the last move only; as choose_heavy has it but a risky capture (risky_capture) skipped


def make_late(capture, wasteful):
    """cur_seki (heavy-nakade, false-eye seki refused) with rule (a) as `capture` says (CAP_*) and rule (d)'s refusal
    either heavy-nakade's (a big self-atari that is no nakade) or, if `wasteful`, tactics.wasteful_self_atari."""
    @njit
    def refuse(s, p, c, rng):
        if breaks_false_eye_seki(s, p, c):
            return True
        if wasteful:
            return wasteful_self_atari(s, p, c)
        return self_atari(s, p, c) and merged_size(s, p, c) >= 2 and not nakade(s, p, c)

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
        p = ko_fight(s, z, c)
        if p != PASS and random_below(rng, 1000) < KO_PERMIL:
            return p
        last = np.int64(s[bk.M_LAST])
        if last >= 0:
            if capture != CAP_OFF and random_below(rng, 1000) < CAPTURE_PERMIL:
                if capture == CAP_LAST:
                    p = capture_move(s, z, c, last, rng)
                else:
                    p = capture_rule(s, z, c, last, rng)
                if p != PASS and not (capture == CAP_SAFE and risky_capture(s, p, c)):
                    return p
            if random_below(rng, 1000) < ATARI_PERMIL:
                p = atari_answer(s, z, c, last, rng)
                if p != PASS:
                    return p
            p = vital_answer(s, z, c, last)
            if p != PASS:
                return p
            if random_below(rng, 1000) < PATTERN_PERMIL:
                p = pattern_move(s, z, c, last, rng, table)
                if p != PASS:
                    return p
        p = choose_light(s, z, c, rng)
        if p == PASS or not refuse(s, p, c, rng):
            return p
        return safe(s, c, rng)
    return choose


seki_cap0 = make_late(CAP_BOTH, False)  # cur_seki through this seam
seki_lastcap = make_late(CAP_LAST, False)
seki_capsafe = make_late(CAP_SAFE, False)
late_cap_big = seki_cap0  # the same policy under the name the third scan gave it
late_nocap_big = make_late(CAP_OFF, False)
late_nocap_wasteful = make_late(CAP_OFF, True)
late_cap_wasteful = make_late(CAP_BOTH, True)
