"""The heavy policy's local rules: moves around the last move, and the ko fight.

Each returns a padded point of playable(c) minus the ko point (every candidate is checked against it), or PASS
when it finds nothing; policy_heavy.choose_heavy runs them in this order, each with its probability (its
*_PERMIL constants) and its switch, and falls through to the next when one does not run or finds nothing. Each
of (a)-(c) looks only around the last move ((a) also around the one before it); choose_heavy asks none of
them after a pass or on an empty history.
  (k) ko        ko_fight, first of all, after a ko capture fewer than KO_AGE moves ago whose ko no longer
                binds: the taken stone's point, when c may take it and it is no self-atari of two
                stones or more: the taker connects the ko after the opponent's move
                elsewhere, or the other side retakes it after the taker's (Pachi's ko fight check,
                korate 40 and koage 3). In heavy 9x9 playouts from the empty board 44% of the
                playouts take a ko; the point is then played two moves on 36% of the time and
                three moves on 23%, against 10% and 16% without the rule. Against Pachi at equal
                CPU, over three pre-registered blocks of 560 games an arm, it won 67.5% beside the
                default's 62.2%: +5.3 points (-0.3 to +10.8) (bench/RESULTS.md, "A ko rule in the
                heavy playouts"). Shipped 2026-12-01.
  (a) capture   capture_rule: an opponent string in atari with a stone in the 3x3 block around
                the last move: the largest, ties at random; if there is
                none, the same around the move before last (the side's own last move,
                whose atari the opponent may have left unanswered): 72.8% of 200 games
                and 74.0% of 100 against Pachi at =2500 where the last move alone won
                68.5% and 66.0%, but level at the full budget: 57.0% of 200 against
                59.2% (bench/RESULTS.md, "Playout knowledge"). It costs nothing, so it stays.
  (b) atari     atari_answer: an own string in atari next to the last move: capture an adjacent
                attacker in atari, or extend on the last liberty when that leaves
                the string >= 2 liberties or captures; one of these at random.
  (b') vital point  vital_answer, with HEAVY_NAKADE only: the vital point of a small dead eye space of the
                opponent beside its last move (nakade.vital_point: 3-6 points bounded by its
                stones alone and holding all their liberties, say the area its capture of a
                nakade left), when c may take it. It follows the sacrifice in policy_heavy's (d) up: where
                heavy and heavy-nakade playouts disagreed in past games, GNU Go's play-outs
                sided with heavy-nakade in 86 of 104 positions, and in 28 of 44 of new games
                (bench/RESULTS.md, "Where two playout policies disagree").
  (b2) two liberties  two_liberty_move (policy_heavy.TWO_LIBERTY, on by default since 2026-12-07): strings of two
                liberties at the last move: an atari on the last move's own string unless it is safe
                by miai (tactics.safe_by_miai, Pachi's test), or an extension of c's string beside it
                that gains liberties or connects out (tactics.gains_liberties), never a self-atari,
                at random among those: moggy's two-liberty check; with
                its `counter` (policy_heavy.TWO_LIBERTY_COUNTER) also its counter-ataris around such an own
                string (capture a neighbour in atari, atari one of two liberties), which make heavy-nakade's
                playouts judge games at 5 s better where (b2) alone does not (bench/RESULTS.md, "Moggy's
                counter-ataris in rule (b2)"). Tried on 2026-11-23 (d80638c) at equal CPU in self-play:
                level (50.0% of 99), 16% slower playouts; written again on 2026-12-07 for a screen at 5 s a move,
                where foogo's own budget buys it little against Pachi and its games were lost in fights
                (bench/RESULTS.md, "Where foogo misjudged the board before its lost games turned").
                With the counter-ataris, against Pachi at 5 s a move on two threads over 60 games an arm
                (pre-registered, blind): 51.7% beside the default's 40.0%, +11.7 points (-6.0 to
                +28.4), playouts 26% dearer (bench/RESULTS.md, "The 5-s block judged"). Shipped 2026-12-07.
  (b3) n liberties  nlib_move (policy_heavy.NLIB, off by default): rule (b2)'s counter-ataris around c's
                strings of three to NLIB_MAX liberties in the 3x3 block around the last move:
                moggy's n-liberty check, a capturing race's first ataris.
  (c) patterns  pattern_move: an empty point of the 3x3 block around the last move whose own
                3x3 neighbourhood is one of MoGo's hane / cut / edge shapes (as
                Pachi and michi list them; the table is patterns.py's), unless it is a self-atari; at random
                among those.
The rules are `inline`, as choose_heavy is (policy_heavy.py says why).

What the local rules are not: no ladders, no two-liberty tactics beyond (b2)'s one move around the last, no
global capture rule, no learned pattern weights.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .bits import FAST_BMI2, trailing_zeros
from .jit import inline
from .nakade import vital_point
from .patterns import block_code, block_colour, block_colours, matches_pattern
from .policy_light import PASS, allowed
from .random_stream import keep_one
from .tactics import big_self_atari, gains_liberties, safe_by_miai, self_atari

KO_AGE = 3  # rule (k) looks at a ko taken fewer than this many moves ago (Pachi's koage)
NLIB_MAX = 4  # rule (b3) looks at c's strings of three to this many liberties (Pachi's moggy nlib_count)


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
def vital_answer(s, z, c, last):
    """Rule (b'): nakade.vital_point beside the last move when c may take it, else PASS."""
    p = vital_point(s, c, last)
    return p if p != PASS and allowed(s, z, c, p) else PASS


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
def two_liberty_move(s, z, c, last, rng, counter):
    """Rule (b2): strings of two liberties at the last move. The last move's own string (the
    opponent's), unless miai makes it safe (tactics.safe_by_miai): an atari on it. c's strings beside `last`:
    an extension that gains liberties or connects out (tactics.gains_liberties), and with `counter` (a
    literal: policy_heavy.TWO_LIBERTY_COUNTER) the counter-ataris around them (_counter_ataris). Never a
    self-atari; uniform over the moves found; PASS if there is none. Moggy's two-liberty check, without its
    throw-ins (and without its counter-ataris unless `counter`)."""
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
    """Rule (b3): for c's strings of three to NLIB_MAX liberties with a stone in the 3x3 block around
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
