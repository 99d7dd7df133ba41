"""The heavy playout policy: local Go knowledge in front of the uniform choice.

`choose_heavy(s, z, c, rng, table)` returns a padded point of playable(c) minus the ko point, or PASS
when there is none or rule (e) keeps a seki, with the 3x3 pattern table passed in as an array.
HEAVY_NAKADE is HEAVY with nakade sacrifices allowed in (d) and (e) (`choose_heavy_nakade`);
HEAVY_RACE is HEAVY with the approach (d') in front of (d)'s redraw (`choose_heavy_race`).

The rules, in MoGo's and Pachi's order.
  (k) ko        first of all, after a ko capture fewer than KO_AGE moves ago whose ko no longer
                binds: the taken stone's point, when c may take it and it is no self-atari of two
                stones or more (KO_PERMIL): the taker connects the ko after the opponent's move
                elsewhere, or the other side retakes it after the taker's (Pachi's ko fight check,
                korate 40 and koage 3). In heavy 9x9 playouts from the empty board 44% of the
                playouts take a ko; the point is then played two moves on 36% of the time and
                three moves on 23%, against 10% and 16% without the rule. Against Pachi at equal
                CPU, over three pre-registered blocks of 560 games an arm, it won 67.5% beside the
                default's 62.2%: +5.3 points (-0.3 to +10.8) (bench/RESULTS.md, "A ko rule in the
                heavy playouts"). Shipped 2026-12-01.
Each of (a)-(c) looks only around the
last move ((a) also around the one before it; none after a pass or on an empty
history), runs with the probability
given below, and falls through to the next when it does not run or finds
nothing; every candidate is also checked against playable(c) minus ko.
  (a) capture   an opponent string in atari with a stone in the 3x3 block around
                the last move: the largest, ties at random (CAPTURE_PERMIL); if there is
                none, the same around the move before last (the side's own last move,
                whose atari the opponent may have left unanswered): 72.8% of 200 games
                and 74.0% of 100 against Pachi at =2500 where the last move alone won
                68.5% and 66.0%, but level at the full budget: 57.0% of 200 against
                59.2% (bench/RESULTS.md, "Playout knowledge"). It costs nothing, so it stays.
  (b) atari     an own string in atari next to the last move: capture an adjacent
                attacker in atari, or extend on the last liberty when that leaves
                the string >= 2 liberties or captures; one of these at random
                (ATARI_PERMIL).
  (b') vital point  with HEAVY_NAKADE only: the vital point of a small dead eye space of the
                opponent beside its last move (nakade.vital_point: 3-6 points bounded by its
                stones alone and holding all their liberties, say the area its capture of a
                nakade left), when c may take it. It follows the sacrifice in (d) up: where
                heavy and heavy-nakade playouts disagreed in past games, GNU Go's play-outs
                sided with heavy-nakade in 86 of 104 positions, and in 28 of 44 of new games
                (bench/RESULTS.md, "Where two playout policies disagree").
  (b2) two liberties  with TWO_LIBERTY (on by default since 2026-12-07; choose_heavy's `two_lib`): strings of two
                liberties at the last move: an atari on the last move's own string unless it is safe
                by miai (tactics.safe_by_miai, Pachi's test), or an extension of c's string beside it
                that gains liberties or connects out (tactics.gains_liberties), never a self-atari,
                at random among those (TWO_LIBERTY_PERMIL): moggy's two-liberty check; with
                TWO_LIBERTY_COUNTER also its counter-ataris around such an own string (capture a
                neighbour in atari, atari one of two liberties), which make heavy-nakade's playouts
                judge games at 5 s better where (b2) alone does not (bench/RESULTS.md, "Moggy's
                counter-ataris in rule (b2)"). Tried on 2026-11-23 (d80638c) at equal CPU in self-play:
                level (50.0% of 99), 16% slower playouts; written again on 2026-12-07 for a screen at 5 s a move,
                where foogo's own budget buys it little against Pachi and its games were lost in fights
                (bench/RESULTS.md, "Where foogo misjudged the board before its lost games turned").
                With the counter-ataris, against Pachi at 5 s a move on two threads over 60 games an arm
                (pre-registered, blind): 51.7% beside the default's 40.0%, +11.7 points (-6.0 to
                +28.4), playouts 26% dearer (bench/RESULTS.md, "The 5-s block judged"). Shipped 2026-12-07.
  (b3) n liberties  with NLIB only (off by default; choose_heavy's `nlib`): rule (b2)'s counter-ataris around c's
                strings of three or four liberties in the 3x3 block around the last move (nlib_move),
                NLIB_PERMIL times in 1000: moggy's n-liberty check, a capturing race's first ataris.
  (c) patterns  an empty point of the 3x3 block around the last move whose own
                3x3 neighbourhood is one of MoGo's hane / cut / edge shapes (as
                Pachi and michi list them), unless it is a self-atari; at random
                among those (PATTERN_PERMIL).
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

The 3x3 pattern table the heavy policy reads (`PATTERN_TABLE`, `matches_pattern`)
is patterns.py's.

What the heavy policy is not: no ladders, no two-liberty tactics beyond (b2)'s one move around
the last, no global capture rule, no learned pattern weights, and by default no vital-point play
inside the opponent's eye space (HEAVY_NAKADE's (b')).
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .bits import FAST_BMI2, trailing_zeros
from .jit import inline, kernel
from .nakade import nakade, vital_point
from .patterns import block_code, block_colour, block_colours, matches_pattern
from .policy_light import PASS, allowed, allowed_at, choose_light
from .random_stream import keep_one, random_below
from .tactics import (
    ataris_beside,
    big_self_atari,
    breaks_false_eye_seki,
    gains_liberties,
    safe_by_miai,
    self_atari,
    wasteful_self_atari,
)

CAPTURE_PERMIL = 900
ATARI_PERMIL = 900
PATTERN_PERMIL = 900
KO_PERMIL = 400  # rule (k), Pachi's moggy korate
KO_AGE = 3  # rule (k) looks at a ko taken fewer than this many moves ago (Pachi's koage)
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
# to NLIB_MAX liberties around the last move, the counter-ataris of rule (b2), NLIB_PERMIL times in 1000 (Pachi's
# moggy nlibrate 25 and nlib_count 4); written 2026-12-07 to be screened for issue 12's second condition
NLIB = False
NLIB_PERMIL = 250
NLIB_MAX = 4
# rule (e2), moggy's eye-fill redirect (choose_heavy's `eye_fill`), a literal, off (folded away): a draw of rule (d)
# that fills c's own false eye, EYE_FILL_PERMIL times in 1000, goes to a capture or an atari of the opponent's
# string diagonal to it (Pachi's moggy eyefillrate 60); written 2026-12-07 to be screened beside rule (b3)
EYE_FILL = False
EYE_FILL_PERMIL = 600


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


@inline
def capture_move(s, z, c, last, rng):
    """Rule (a): the liberty of the largest opponent string in atari that has a stone in the 3x3
    block around `last` (ties at random), or PASS if there is none that c may take."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    other = 3 - c
    best = PASS
    # most of the time no opponent string is in atari here: say so first without a branch per point
    n, m, t = last + w, last, last - w
    if not (bk.stone_in_atari(s, P, n - 1, other) | bk.stone_in_atari(s, P, n, other)
            | bk.stone_in_atari(s, P, n + 1, other) | bk.stone_in_atari(s, P, m - 1, other)
            | bk.stone_in_atari(s, P, m, other) | bk.stone_in_atari(s, P, m + 1, other)
            | bk.stone_in_atari(s, P, t - 1, other) | bk.stone_in_atari(s, P, t, other)
            | bk.stone_in_atari(s, P, t + 1, other)):
        return best
    best_size = 0
    ties = 0
    for k in range(9):
        q = last + (k // 3 - 1) * w + (k % 3 - 1)
        if not bk.stone_in_atari(s, P, q, other):
            continue
        h = bk.head_of(s, P, q)
        seen = False  # the same string at an earlier point of the block
        for j in range(k):
            r = last + (j // 3 - 1) * w + (j % 3 - 1)
            if bk.color_at(s, P, r) == other and bk.head_of(s, P, r) == h:
                seen = True
        if seen:
            continue
        lib = bk.atari_liberty(s, P, h)
        if not allowed(s, z, c, lib):
            continue
        size = bk.string_size(s, P, h)
        if size > best_size:
            best, best_size, ties = lib, size, 1
        elif size == best_size:
            ties, best = keep_one(rng, ties, best, lib)
    return best


@inline
def capture_rule(s, z, c, last, rng):
    """Rule (a) as choose_heavy runs it: capture_move around `last`, else around the move before it
    (s's M_LAST2: an atari the opponent left unanswered); PASS if neither finds a capture."""
    p = capture_move(s, z, c, last, rng)
    if p != PASS:
        return p
    before = np.int64(s[bk.M_LAST2])  # PASS or NO_MOVE: below 0
    if before >= 0:
        return capture_move(s, z, c, before, rng)
    return PASS


@inline
def atari_answer(s, z, c, last, rng):
    """Rule (b): for c's strings in atari next to `last`, a move that saves one: capturing an
    adjacent opponent string in atari, or extending on the last liberty when that leaves >= 2
    liberties (or captures). Uniform over the answers found; PASS if there is none."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    other = 3 - c
    answer = PASS
    if not (bk.stone_in_atari(s, P, last - w, c) | bk.stone_in_atari(s, P, last - 1, c)
            | bk.stone_in_atari(s, P, last + 1, c) | bk.stone_in_atari(s, P, last + w, c)):
        # the usual case, told without a branch per point
        return answer
    found = 0
    g1 = g2 = g3 = g4 = -1  # strings already answered for
    for q in (last - w, last - 1, last + 1, last + w):
        if bk.color_at(s, P, q) != c:
            continue
        h = bk.head_of(s, P, q)
        if not bk.string_in_atari(s, P, h):
            continue
        seen, g1, g2, g3, g4 = bk.remember_string(h, g1, g2, g3, g4)
        if seen:
            continue
        r = h
        while True:  # attackers in atari: walk the stones of h
            for t in (r - w, r - 1, r + 1, r + w):
                if bk.stone_in_atari(s, P, t, other):
                    cand = bk.atari_liberty(s, P, bk.head_of(s, P, t))
                    if allowed(s, z, c, cand):
                        found, answer = keep_one(rng, found, answer, cand)
            r = bk.next_stone(s, P, r)
            if r == h:
                break
        lib = bk.atari_liberty(s, P, h)
        if allowed(s, z, c, lib) and not self_atari(s, lib, c):
            found, answer = keep_one(rng, found, answer, lib)
    return answer


@inline
def _pattern_bit(s, q, c, table, j, centre):
    """1 << j if q is empty and playing c there matches a pattern, else 0, without a branch: the
    code is read around q only when q is empty (so on the board), else around the on-board
    `centre` of its block, and that result is masked off."""
    empty = bk.color_at(s, bk.stride(s), q) == bk.EMPTY
    return np.int64(empty & matches_pattern(s, q if empty else centre, c, table)) << j


@inline
def _block_bit(block, c, table, j):
    """1 << j if point j of the 3x3 block (patterns.block_colours) is empty and playing c there matches a
    pattern, else 0, without a branch: the code of a point that is not empty is read and masked off."""
    empty = block_colour(block, j) == bk.EMPTY
    return np.int64(empty & ((table[block_code(block, j)] >> (c - 1)) & 1 != 0)) << j


@inline
def _pattern_hits_block(s, c, last, table):
    """Bit j set for each empty point j of the 3x3 block around `last` (reading order, NW 0 .. SE 8) where
    playing c matches a pattern: the 5x5 block's colours read once, each point's code by PEXT (BMI2 only).
    Against _pattern_hits_read's 64 loads: heavy playouts/s x1.016-1.036 on 19x19 and x1.000-1.011 on 9x9
    (three and two alternated runs on a Xeon, 2026-12-02), as a 19x19 block's rows lie further apart in memory."""
    block = block_colours(s, last)
    return (_block_bit(block, c, table, 0) | _block_bit(block, c, table, 1) | _block_bit(block, c, table, 2)
            | _block_bit(block, c, table, 3) | _block_bit(block, c, table, 5) | _block_bit(block, c, table, 6)
            | _block_bit(block, c, table, 7) | _block_bit(block, c, table, 8))


@inline
def _pattern_hits_read(s, c, last, table):
    """_pattern_hits_block's answer with each point's code read from the board (8 loads a point): for a
    processor without a fast PEXT (bits.FAST_BMI2)."""
    w = s[bk.M_W]
    n, m, t = last + w, last, last - w
    return (_pattern_bit(s, n - 1, c, table, 0, m) | _pattern_bit(s, n, c, table, 1, m)
            | _pattern_bit(s, n + 1, c, table, 2, m) | _pattern_bit(s, m - 1, c, table, 3, m)
            | _pattern_bit(s, m + 1, c, table, 5, m) | _pattern_bit(s, t - 1, c, table, 6, m)
            | _pattern_bit(s, t, c, table, 7, m) | _pattern_bit(s, t + 1, c, table, 8, m))


_pattern_hits = _pattern_hits_block if FAST_BMI2 else _pattern_hits_read


@inline
def pattern_move(s, z, c, last, rng, table):
    """Rule (c): an empty point of the 3x3 block around `last` that matches a pattern for c and
    is not a self-atari, uniformly among those; PASS if there is none."""
    w = s[bk.M_W]
    answer = PASS
    found = 0
    # the block's points j = 0..8 in reading order (NW N NE W . E SW S SE): first a mask of the
    # empty pattern matches, told without a branch per point (neither is predictable)
    hits = _pattern_hits(s, c, last, table)
    while hits != 0:  # in reading order
        j = np.int64(trailing_zeros(np.uint64(hits)))
        hits &= hits - 1
        q = last + (1 - j // 3) * w + (j % 3 - 1)
        if allowed(s, z, c, q) and not self_atari(s, q, c):
            found, answer = keep_one(rng, found, answer, q)
    return answer


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
def _offer_safe(s, z, c, p, found, answer, rng):
    """keep_one's offer of p, when c may take it and it is no self-atari: (found, answer)."""
    if allowed(s, z, c, p) and not self_atari(s, p, c):
        return keep_one(rng, found, answer, p)
    return found, answer


@inline
def _counter_ataris(s, z, c, h, found, answer, rng):
    """keep_one's offers, for c's string h, of moggy's counter-ataris: the capture of each opponent string beside h
    in atari, and both liberties of each beside it with two, no self-atari. Strings beside h met once each for
    the first four (remember_string), as often as they touch h after that."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    other = 3 - c
    g1 = g2 = g3 = g4 = -1
    r = h
    while True:
        for t in (r - w, r - 1, r + 1, r + w):
            if bk.color_at(s, P, t) != other:
                continue
            g = bk.head_of(s, P, t)
            seen, g1, g2, g3, g4 = bk.remember_string(g, g1, g2, g3, g4)
            if seen:
                continue
            if bk.string_in_atari(s, P, g):
                cand = bk.atari_liberty(s, P, g)
                if allowed(s, z, c, cand):
                    found, answer = keep_one(rng, found, answer, cand)
                continue
            a, b = bk.two_liberties(s, P, w, g)
            if a >= 0:
                found, answer = _offer_safe(s, z, c, a, found, answer, rng)
                found, answer = _offer_safe(s, z, c, b, found, answer, rng)
        r = bk.next_stone(s, P, r)
        if r == h:
            break
    return found, answer


@inline
def two_liberty_move(s, z, c, last, rng, counter=TWO_LIBERTY_COUNTER):
    """Rule (b2), TWO_LIBERTY only: strings of two liberties at the last move. The last move's own string (the
    opponent's), unless miai makes it safe (tactics.safe_by_miai): an atari on it. c's strings beside `last`:
    an extension that gains liberties or connects out (tactics.gains_liberties), and with `counter` (a literal,
    TWO_LIBERTY_COUNTER) the counter-ataris around them (_counter_ataris). Never a self-atari; uniform over the
    moves found; PASS if there is none. Moggy's two-liberty check, without its throw-ins (and without its
    counter-ataris unless `counter`)."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    other = 3 - c
    answer = PASS
    found = 0
    if bk.color_at(s, P, last) == other:  # not when the last move was a suicide
        h = bk.head_of(s, P, last)
        a, b = bk.two_liberties(s, P, w, h)
        if a >= 0 and not safe_by_miai(s, P, w, h, a, b, other):
            found, answer = _offer_safe(s, z, c, a, found, answer, rng)
            found, answer = _offer_safe(s, z, c, b, found, answer, rng)
    g1 = g2 = g3 = g4 = -1  # own strings already looked at
    for q in (last - w, last - 1, last + 1, last + w):
        if bk.color_at(s, P, q) != c:
            continue
        h = bk.head_of(s, P, q)
        seen, g1, g2, g3, g4 = bk.remember_string(h, g1, g2, g3, g4)
        if seen:
            continue
        a, b = bk.two_liberties(s, P, w, h)
        if a < 0:
            continue
        if gains_liberties(s, P, w, h, a, b, c):
            found, answer = _offer_safe(s, z, c, a, found, answer, rng)
        if gains_liberties(s, P, w, h, b, a, c):
            found, answer = _offer_safe(s, z, c, b, found, answer, rng)
        if counter:
            found, answer = _counter_ataris(s, z, c, h, found, answer, rng)
    return answer


@inline
def nlib_move(s, z, c, last, rng):
    """Rule (b3), NLIB only: for c's strings of three to NLIB_MAX liberties with a stone in the 3x3 block around
    `last`, their counter-ataris (_counter_ataris: the capture of an opponent string beside one in atari, an atari
    on one with two liberties, no self-atari), uniformly; PASS if there is none. Moggy's n-liberty check
    (local_nlib_check): a race where the opponent has just taken a liberty is won by shortening its liberties
    first; unlike moggy's it also offers the captures."""
    P = bk.stride(s)
    w = np.int64(s[bk.M_W])
    answer = PASS
    found = 0
    g1 = g2 = g3 = g4 = -1  # own strings already looked at (the block holds at most four apart)
    for k in range(9):
        q = last + (k // 3 - 1) * w + (k % 3 - 1)
        if bk.color_at(s, P, q) != c:
            continue
        h = bk.head_of(s, P, q)
        if bk.pseudo_liberties(s, P, h) < 3 or bk.string_in_atari(s, P, h):
            continue
        seen, g1, g2, g3, g4 = bk.remember_string(h, g1, g2, g3, g4)
        if seen:
            continue
        n = bk.liberties_upto(s, P, w, h, NLIB_MAX + 1)
        if 3 <= n <= NLIB_MAX:
            found, answer = _counter_ataris(s, z, c, h, found, answer, rng)
    return answer


@inline
def vital_answer(s, z, c, last):
    """Rule (b'): nakade.vital_point beside the last move when c may take it, else PASS."""
    p = vital_point(s, c, last)
    return p if p != PASS and allowed(s, z, c, p) else PASS


@inline
def ko_fight(s, z, c):
    """Rule (k): the point of the last ko capture's taken stone, when that ko no longer binds, was taken
    fewer than KO_AGE moves ago, and c may take the point without a self-atari of two stones or more:
    the taker connecting the ko after the opponent's move elsewhere, or the opponent retaking it after
    the taker's; else PASS."""
    p = np.int64(s[bk.M_LAST_KO])
    if p < 0 or s[bk.M_KO] != bk.NO_KO or s[bk.M_MOVES] - s[bk.M_LAST_KO_AT] >= KO_AGE:
        return PASS
    if allowed(s, z, c, p) and not big_self_atari(s, p, c):
        return p
    return PASS


@inline
def choose_heavy(s, z, c, rng, table, sacrifices=False, race=False, reject_permil=SELF_ATARI_REJECT_PERMIL,
                 seki_eye=FALSE_EYE_SEKI, wasteful=WASTEFUL_SELF_ATARI, seki_guard=SEKI_GUARD, two_lib=TWO_LIBERTY,
                 two_counter=TWO_LIBERTY_COUNTER, nlib=NLIB, eye_fill=EYE_FILL):
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
    counter-ataris around c's strings of three to NLIB_MAX liberties (nlib_move), NLIB_PERMIL times in 1000; with
    `eye_fill` (a literal), rule (e2) in (d): a false-eye fill drawn goes to a diagonal capture or atari."""
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
        if sacrifices:
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
