"""The heavy playout policy: local Go knowledge in front of the uniform choice.

`choose_heavy(s, z, c, rng, table)` returns a padded point of playable(c) minus the ko point, or PASS
when there is none or rule (e) keeps a seki, with the 3x3 pattern table passed in as an array.
HEAVY_NAKADE is HEAVY with nakade sacrifices allowed in (d) and (e) (`choose_heavy_nakade`);
HEAVY_RACE is HEAVY with the approach (d') in front of (d)'s redraw (`choose_heavy_race`).

The rules, in MoGo's and Pachi's order. First the local ones (policy_local.py says what each does and what
it won), each run with its probability in 1000 and falling through to the next when it does not run or finds
nothing; (a)-(c) only after a move on the board:
  (k) ko           ko_fight (KO_PERMIL)
  (a) capture      capture_rule (CAPTURE_PERMIL)
  (b) atari        atari_answer (ATARI_PERMIL)
  (b') vital point vital_answer, with HEAVY_NAKADE only (every time; VITAL_POINT, on)
  (b2) two liberties  two_liberty_move, with TWO_LIBERTY (on; TWO_LIBERTY_PERMIL), its counter-ataris with
                   TWO_LIBERTY_COUNTER (on)
  (b3) n liberties nlib_move, with NLIB (off; NLIB_PERMIL)
  (c) patterns     pattern_move (PATTERN_PERMIL)
Then the draw and its filters, here:
  (d) uniform   a point c may take that is not a self-atari of a string of >= 2
                stones, uniformly: `choose_light`'s draw, or if that is such a
                self-atari, `safe_draw`'s over the rest. Policy HEAVY_NAKADE
                ("heavy-nakade"; the heavy search's once at most three quarters
                of the points are empty, SearchConfig.late_nakade) also plays a nakade (nakade.py: the
                self-atari ataris every opponent string around it and leaves a
                dead eye shape when captured). Without it the playouts read a
                corner where white's group and four black stones shared their
                last two liberties as a seki, and gave white every playout 50
                moves before black's square-four sacrifice won the game; with it,
                against Pachi at equal CPU, foogo won 60.0% of 100 games and then
                52.4% of 85 with a stricter form, against 61.0% of 50 without
                beside them (bench/RESULTS.md, "A nakade exception"): not the
                default. The redraw is kept SELF_ATARI_REJECT_PERMIL times in 1000
                (every time) in run_playouts, ownership and scoring, and 600 in
                a 9x9 search's playouts (SearchConfig.self_atari_rate: Pachi's
                moggy selfatarirate; the other 400 play the self-atari). With
                SEKI_GUARD (on since its screen, 2026-12-06) the 400 never take a
                liberty of an opponent string that has two, a seki's shared
                liberty, unless it is a nakade (breaks_seki): the opponent would
                capture first. Against Pachi at equal CPU it was level with the
                engine without it (-1.2 points over 160 pairs, -10.8 to +8.4) and
                reads a seki sooner: in SEKI the search passes from 8,000 playouts
                where without it from 12,000.
  (d') approach with HEAVY_RACE only ("heavy-race", opt-in): when (d)'s draw is such a self-atari,
                the other liberty of an opponent string beside it that has two (outside_liberty),
                if c may take it and it is no such self-atari: where the draw would fill a
                shared liberty of a capturing race, c tightens the race from outside instead,
                as Pachi's playouts do (`selfatari_cousin`); else (d) draws again.
  (e) seki      if every point c may take is such a self-atari, PASS: a side keeps
                a seki, or the shared liberties of two groups short of them,
                rather than fill its own liberties and give the stones away.
                Until 2026-11-25 (d) redrew 4 times and then played the last draw,
                so the playouts read every seki as a capture: in the final position
                of a game lost to Pachi (white ahead with every stone alive, white's
                only move a liberty it shares with black) they gave black 1,931
                wins of 2,000 and the search's estimate stood at 1.00 to the end;
                now white wins all of them. (e) fires about twice in a heavy 9x9
                playout, near its end. Drawing without replacement made (d) and (e)
                cost nothing: heavy playouts/s are level with the redraws'
                (bench/RESULTS.md, "The seki rule").
  (e') false-eye seki  with FALSE_EYE_SEKI (off by default; choose_heavy's `seki_eye`): (d) and (e) also
                refuse c's fill of its own false eye where two of its strings, each on that eye and one
                more liberty, share those two liberties with the inside string of the other colour
                (tactics.breaks_false_eye_seki, Pachi's seki check): the fill, no self-atari, joins the
                strings on the inside string's liberties and the inside string's nakade then kills them.
                On the 268 games at 5 s a move it turned two games' late positions from a black win in
                97-100% of heavy-nakade's playouts to none (GNU Go agreed: white won): Brier -0.021 at
                moves 50-69 (-0.052 to +0.009), -0.010 from move 30; in 150 equal-CPU games the shape
                never decided a playout (0.0000). Heavy playouts/s x0.991 with it on.
  (e2) eye fill  with EYE_FILL only (off by default; choose_heavy's `eye_fill`): a draw of (d) that fills c's own
                false eye goes, EYE_FILL_PERMIL times in 1000, to the capture or an atari of an opponent
                string diagonal to it (eye_fill_answer): moggy's eye-fill check.
  (d'') wasteful  with WASTEFUL_SELF_ATARI (off by default; choose_heavy's `wasteful`): (d) and (e) refuse
                tactics.wasteful_self_atari instead, Pachi's is_really_bad_selfatari: a self-atari (or any
                suicide) whose string could have run out, connected or captured instead, or that is no nakade
                of at most six stones in a dead shape; a lone stone's self-atari and two shut-in stones' pass.
                It replaces both the refusal of two stones or more and heavy-nakade's nakade exception. On the
                268 games at 5 s a move: Brier -0.004 at moves 50-69 alone (-0.010 to +0.002), -0.025 with
                the false-eye seki check (-0.056 to +0.007; the check alone -0.021); on 150 equal-CPU games
                -0.001 (bench/results/wasteful-self-atari-brier-2026-12-05.txt).
Probabilities are permille and compile-time constants. The rules and
choose_heavy are `inline`, not `kernel`: numba passes each array argument as 7
machine words, and five calls a move with four arrays each cost 6% of heavy
playouts/s. policy.choose itself is inline too, so the playout loop makes no call
to pick a move.

What the heavy policy is not: no ladders, no global capture rule, no learned pattern weights (policy_local.py
says what its local rules leave out), and by default no vital-point play inside the opponent's eye space
(HEAVY_NAKADE's (b')).
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline, kernel
from .nakade import nakade
from .policy_light import PASS, allowed, allowed_at, choose_light
from .policy_local import (
    atari_answer,
    capture_rule,
    ko_fight,
    nlib_move,
    pattern_move,
    two_liberty_move,
    vital_answer,
)
from .random_stream import keep_one, random_below
from .tactics import ataris_beside, big_self_atari, breaks_false_eye_seki, wasteful_self_atari

CAPTURE_PERMIL = 900
ATARI_PERMIL = 900
PATTERN_PERMIL = 900
KO_PERMIL = 400  # rule (k), Pachi's moggy korate
# rule (d) redraws a self-atari of two stones or more this often in 1000 and plays it otherwise (Pachi's
# moggy selfatarirate is 60) in the playouts of run_playouts, ownership and scoring, which pass it to
# choose_heavy (at 1000 the test folds away there and no number is drawn for it); a search passes its own
# rate (SearchConfig.self_atari_rate: 600 on boards up to 9x9), at 1000 drawing no number either
SELF_ATARI_REJECT_PERMIL = 1000
# rules (d) and (e) also refuse a fill of the side's own false eye that breaks a false-eye seki
# (tactics.breaks_false_eye_seki, Pachi's seki check); off by default, folded away (a literal)
FALSE_EYE_SEKI = False
# rules (d) and (e) refuse tactics.wasteful_self_atari (Pachi's is_really_bad_selfatari) in place of a self-atari
# of two stones or more that is no nakade (rule (d'')); off by default, folded away (a literal)
WASTEFUL_SELF_ATARI = False
# below a rate of 1000, rule (d) still always redraws a self-atari that also leaves an opponent string beside it
# in atari, unless it is a nakade (breaks_seki: a seki's shared liberty filled); a literal, asked only where the
# rate keeps a self-atari (so nothing at 1000: run_playouts, ownership, scoring); on since its pre-registered
# screen against Pachi (bench/results/pachi-9x9-seki-guard-2026-12-06.txt: -1.2 points, within the rule's -3..+3)
SEKI_GUARD = True
# rule (b2), moggy's two-liberty check (choose_heavy's `two_lib`), a literal, on: written again on 2026-12-07
# from d80638c's form for issue 12's second condition, where life and death decided in fights lost foogo its
# games at 5 s (bench/RESULTS.md, "Where foogo misjudged the board ..."); with TWO_LIBERTY_COUNTER, +11.7 points
# against Pachi at 5 s a move on two threads (bench/results/pachi-9x9-5s-2t-two-liberty-counter-2026-12-07.txt)
TWO_LIBERTY = True
TWO_LIBERTY_PERMIL = 900
# with TWO_LIBERTY, rule (b2) also offers moggy's counter-ataris (two_liberty_move's `counter`): for c's string of two
# liberties beside the last move, the capture of an opponent string beside it in atari, or an atari on one of two
# liberties; a literal, on with TWO_LIBERTY since the same block (the capturing races of bench/RESULTS.md's
# "Where foogo misjudged ..." shorten the opponent's liberties, which the extension alone never does)
TWO_LIBERTY_COUNTER = True
# rule (b3), moggy's n-liberty check (choose_heavy's `nlib`), a literal, off (folded away): for c's strings of three
# to policy_local.NLIB_MAX liberties around the last move, the counter-ataris of rule (b2), NLIB_PERMIL times in
# 1000 (Pachi's moggy nlibrate 25 and nlib_count 4); written 2026-12-07 for issue 12's second condition: +5.2 points
# at four times the budget, then -1.7 (-18.9 to +15.7) at 5 s a move on two threads, so off (bench/RESULTS.md)
NLIB = False
NLIB_PERMIL = 250
# rule (e2), moggy's eye-fill redirect (choose_heavy's `eye_fill`), a literal, off (folded away): a draw of rule (d)
# that fills c's own false eye, EYE_FILL_PERMIL times in 1000, goes to a capture or an atari of the opponent's
# string diagonal to it (Pachi's moggy eyefillrate 60); written 2026-12-07 for issue 12's second condition: +2.6
# points (-8.7 to +13.8) at four times the budget, under the +5 that earns a 5-s block, so off (bench/RESULTS.md)
EYE_FILL = False
EYE_FILL_PERMIL = 600
# rule (b'), the vital point after the opponent's move (choose_heavy's `vital`), a literal, on: with sacrifices
# (heavy-nakade) only; it answers on 1 move in 4,000 of its playouts; off, they (other playouts) ran 8-9% faster
# until nakade.vital_point's exact gates, 2-3% since (bench/results/heavy-nakade-vital-gate-2026-12-08.txt); a
# switch for scans;
# off, the 5-s games' positions were judged worse outside four false-eye sekis (seki-vital-brier-2026-12-07.txt)
VITAL_POINT = True


@inline
def bad_self_atari(s, p, c, sacrifices, seki_eye=False, wasteful=False):
    """True if c at empty p is a self-atari of two stones or more (big_self_atari), and, if
    `sacrifices` (HEAVY_NAKADE), not a nakade (nakade.py); or, with `wasteful` instead, a self-atari that
    gives stones away for nothing (tactics.wasteful_self_atari); or, if `seki_eye`, a fill of c's false eye
    that breaks a false-eye seki (tactics.breaks_false_eye_seki): what rules (d) and (e) never play."""
    if seki_eye and breaks_false_eye_seki(s, p, c):
        return True
    if wasteful:
        return wasteful_self_atari(s, p, c)
    return big_self_atari(s, p, c) and not (sacrifices and nakade(s, p, c))


@inline
def breaks_seki(s, p, c, sacrifices):
    """SEKI_GUARD's test of c's self-atari at p: it also leaves an opponent string beside p in atari
    (tactics.ataris_beside), so the opponent, to move, captures first, and it is no nakade (nakade.py: that
    capture would leave a dead eye shape, as black's A2 in a corner's square four). With `sacrifices`
    (HEAVY_NAKADE) bad_self_atari has ruled the nakade out already, so it is not asked again."""
    return ataris_beside(s, p, c) and (sacrifices or not nakade(s, p, c))


@kernel
def safe_draw(s, c, rng, sacrifices=False, seki_eye=False, wasteful=False):
    """A point c may take (playable(c) minus ko) that is not a self-atari of two stones or more (nor, with
    `seki_eye`, a false-eye seki broken: bad_self_atari), uniformly, or PASS if there is none:
    choose_light's stage 1 with that test added, until the window is empty (a rejected point leaves the
    window, so each point is tested once at most and the choice is exactly uniform). A kernel of its own,
    called only after a first draw that is refused, so that the playout's loop keeps its compiled shape."""
    ko = bk.ko_point_for(s, c)
    window = np.int64(s[bk.M_EMPTIES])
    while window > 0:
        i = random_below(rng, window)
        p = bk.empty_point(s, i)
        if allowed_at(s, p, c, ko) and not bad_self_atari(s, p, c, sacrifices, seki_eye, wasteful):
            return p
        window -= 1
        bk.swap_empties(s, i, window)
    return PASS


@inline
def outside_liberty(s, z, c, p, rng, sacrifices=False, seki_eye=False, wasteful=False):
    """Rule (d'), HEAVY_RACE only: for a draw p that is a self-atari of two stones or more, the other
    liberty of an opponent string beside p that has exactly two (p and that one), when c may take it
    and it is no such self-atari itself: the approach from outside that tightens a capturing race
    where the draw would have filled a shared liberty (Pachi's `selfatari_cousin`, its first step).
    Uniform over such strings; PASS if there is none (in a seki both liberties are shared, so the
    other one is a self-atari too, and the seki stands)."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    other = 3 - c
    answer = PASS
    found = 0
    g1 = g2 = g3 = g4 = -1  # strings already looked at
    for q in (p - w, p - 1, p + 1, p + w):
        if bk.color_at(s, P, q) != other:
            continue
        g = bk.head_of(s, P, q)
        seen, g1, g2, g3, g4 = bk.remember_string(g, g1, g2, g3, g4)
        if seen:
            continue
        count, lib = bk.other_liberties(s, P, w, g, p)
        if count == 1 and allowed(s, z, c, lib) and not bad_self_atari(s, lib, c, sacrifices, seki_eye, wasteful):
            found, answer = keep_one(rng, found, answer, lib)
    return answer


@inline
def eye_fill_answer(s, z, c, p, sacrifices=False, seki_eye=False, wasteful=False):
    """Rule (e2), EYE_FILL only: for a draw p that fills c's own false eye (every neighbour c's or off the board, none
    of c's strings beside it in atari), the liberty of an opponent string diagonal to p in atari, or else a liberty
    of one with two (an atari), the diagonals and liberties taken in order, when c may take it and it is no bad
    self-atari; PASS if p is no such fill or nothing is found (moggy's eye-fill check: a false eye's diagonal stone
    is often what a race or the eye's owner must take first)."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    other = 3 - c
    for q in (p - w, p - 1, p + 1, p + w):
        colour = bk.color_at(s, P, q)
        if colour == bk.OFFBOARD:
            continue
        if colour != c or bk.string_in_atari(s, P, bk.head_of(s, P, q)):
            return PASS
    for q in (p - w - 1, p - w + 1, p + w - 1, p + w + 1):
        if bk.color_at(s, P, q) != other:
            continue
        g = bk.head_of(s, P, q)
        if bk.string_in_atari(s, P, g):
            t = bk.atari_liberty(s, P, g)
            if allowed(s, z, c, t) and not bad_self_atari(s, t, c, sacrifices, seki_eye, wasteful):
                return t
            continue
        a, b = bk.two_liberties(s, P, w, g)
        if a < 0:
            continue
        if allowed(s, z, c, a) and not bad_self_atari(s, a, c, sacrifices, seki_eye, wasteful):
            return a
        if allowed(s, z, c, b) and not bad_self_atari(s, b, c, sacrifices, seki_eye, wasteful):
            return b
    return PASS


@inline
def uniform_move(s, z, c, rng, sacrifices=False, race=False, reject_permil=SELF_ATARI_REJECT_PERMIL,
                 seki_eye=FALSE_EYE_SEKI, wasteful=WASTEFUL_SELF_ATARI, seki_guard=SEKI_GUARD, eye_fill=EYE_FILL):
    """Rules (d) and (e): a point c may take that is not a self-atari of two stones or more (but a
    nakade if `sacrifices`), nor with `seki_eye` a false-eye seki broken, uniformly, else PASS:
    choose_light's draw, or safe_draw's when that draw is refused; such a draw is kept instead
    1000 - reject_permil times in 1000, but with `seki_guard` never one that breaks a seki
    (breaks_seki); with `race` (HEAVY_RACE), outside_liberty's approach before safe_draw; with `eye_fill` (a
    literal), a first draw that fills c's false eye goes to eye_fill_answer's move EYE_FILL_PERMIL times in 1000."""
    p = choose_light(s, z, c, rng)  # one call site: two inlined copies of choose_light cost heavy playouts
    if p == PASS:
        return p
    if not bad_self_atari(s, p, c, sacrifices, seki_eye, wasteful):
        if eye_fill:
            q = eye_fill_answer(s, z, c, p, sacrifices, seki_eye, wasteful)
            if q != PASS and random_below(rng, 1000) < EYE_FILL_PERMIL:
                return q
        return p
    if (reject_permil < 1000 and random_below(rng, 1000) >= reject_permil
            and not (seki_guard and breaks_seki(s, p, c, sacrifices))):
        return p  # kept: a capturing race's shared liberty filled, a seki broken (with seki_guard only as a nakade)
    if race:
        q = outside_liberty(s, z, c, p, rng, sacrifices, seki_eye, wasteful)
        if q != PASS:
            return q
    return safe_draw(s, c, rng, sacrifices, seki_eye, wasteful)


@inline
def choose_heavy(s, z, c, rng, table, sacrifices=False, race=False, reject_permil=SELF_ATARI_REJECT_PERMIL,
                 seki_eye=FALSE_EYE_SEKI, wasteful=WASTEFUL_SELF_ATARI, seki_guard=SEKI_GUARD, two_lib=TWO_LIBERTY,
                 two_counter=TWO_LIBERTY_COUNTER, nlib=NLIB, eye_fill=EYE_FILL, vital=VITAL_POINT):
    """A point of playable(c) minus ko chosen by rules (k) and (a)-(e) above, or PASS if there is none or (e)
    keeps a seki; with `sacrifices` (HEAVY_NAKADE), (d) and (e) may play a nakade; with `race`
    (HEAVY_RACE), (d) approaches from outside (d') before it redraws; (d) redraws with probability
    reject_permil / 1000 (at 1000 it draws no number; a constant folds the test away); with `seki_eye` (a
    literal), (d) and (e) refuse a false-eye seki broken as they refuse a big self-atari; with `wasteful` (a
    literal), they refuse a wasteful self-atari (rule (d'')) instead of a big one that is no nakade; with
    `seki_guard` (a literal), (d) below a rate of 1000 never keeps a self-atari that breaks a seki (breaks_seki);
    with `two_lib` (a literal), rule (b2) after (b) and (b'): an atari on the last move's string of two
    liberties, or an extension of c's beside it (two_liberty_move), TWO_LIBERTY_PERMIL times in 1000; with
    `two_counter` as well (a literal), its counter-ataris; with `nlib` (a literal), rule (b3) after (b2): the same
    counter-ataris around c's strings of three to policy_local.NLIB_MAX liberties (nlib_move), NLIB_PERMIL times
    in 1000; with `eye_fill` (a literal), rule (e2) in (d): a false-eye fill drawn goes to a diagonal capture or
    atari; with `vital` (a literal) and `sacrifices`, rule (b')."""
    p = ko_fight(s, z, c)
    if p != PASS and random_below(rng, 1000) < KO_PERMIL:
        return p
    last = np.int64(s[bk.M_LAST])
    if last >= 0:
        if random_below(rng, 1000) < CAPTURE_PERMIL:
            p = capture_rule(s, z, c, last, rng)
            if p != PASS:
                return p
        if random_below(rng, 1000) < ATARI_PERMIL:
            p = atari_answer(s, z, c, last, rng)
            if p != PASS:
                return p
        if sacrifices and vital:
            p = vital_answer(s, z, c, last)
            if p != PASS:
                return p
        if two_lib and random_below(rng, 1000) < TWO_LIBERTY_PERMIL:
            p = two_liberty_move(s, z, c, last, rng, two_counter)
            if p != PASS:
                return p
        if nlib and random_below(rng, 1000) < NLIB_PERMIL:
            p = nlib_move(s, z, c, last, rng)
            if p != PASS:
                return p
        if random_below(rng, 1000) < PATTERN_PERMIL:
            p = pattern_move(s, z, c, last, rng, table)
            if p != PASS:
                return p
    return uniform_move(s, z, c, rng, sacrifices, race, reject_permil, seki_eye, wasteful, seki_guard, eye_fill)


@kernel
def choose_heavy_nakade(s, z, c, rng, table, reject_permil):
    """choose_heavy with nakade sacrifices and rule (b') (HEAVY_NAKADE), as a call: inlined in the
    playout loop beside the default heavy rules, its branches cost those 1-2.5% more instructions
    a playout (144,197 against 141,581 in one pair of runs, bench/instructions.py), although
    they never take them."""
    return choose_heavy(s, z, c, rng, table, True, False, reject_permil)


@kernel
def choose_heavy_race(s, z, c, rng, table, reject_permil):
    """choose_heavy with rule (d') (HEAVY_RACE), as a call for the same reason as choose_heavy_nakade."""
    return choose_heavy(s, z, c, rng, table, False, True, reject_permil)
