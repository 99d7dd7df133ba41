"""Where a heavy playout's time goes, rule by rule: each rule's share measured inside real playouts.

    python bench/heavy_rules.py [--size 9] [--policy heavy|heavy-nakade] [--playouts N] [--repeats 5] [--seed 1]

The heavy policy (policy.choose_heavy) first tries rule (k), a recent ko's point (with probability
0.4 where it finds one), then, after a move, rule (a) capture, (b) atari answer, (b2) two liberties
(with policy_heavy.TWO_LIBERTY, on since 2026-12-07) and (c) 3x3 pattern, each with probability 0.9 and
in that order, and falls back on (d) the uniform draw that redraws big self-ataris. `--policy heavy-nakade`
(the heavy search's playouts once a quarter of the points hold stones) adds rule (b'), the vital point, after
(b) every time (with policy_heavy.VITAL_POINT, on), and lets (d) play nakade sacrifices. Switches that are off
(policy_heavy.NLIB, EYE_FILL) are left out, as the library's playouts leave them. The policy is an argument of
this script's kernels, where the library folds it to a constant, so its branches are tested at run time here.
Two measurements:

* how often each rule is called per move, and how often it answers: choose_heavy's decisions
  replayed (the same random numbers) on positions sampled from seeded heavy playouts (each
  move's position kept with probability 1/8, so every stage of a playout counts as often as
  it is played);
* what each rule costs where it runs: the same seeded heavy playouts from the empty board are
  timed (CPU clock) as they are, and with one rule called a second time wherever the policy
  calls it (on a copy of the random state, its answer kept in a checksum, so the playouts play
  the same moves). The difference per move is that rule's cost per move, with the caches and
  branch predictors of a real playout. The uniform draw is the exception: its rejected points
  move to the end of the list of empty points (policy.choose_light), so a second draw changes
  the order the first one draws from, and those playouts are other heavy playouts, of the same
  distribution (the list's order is arbitrary), timed per move like the rest. Runs alternate:
  plain, then each rule doubled, --repeats times; medians and ranges of the differences. What
  is left of a plain playout's time per move (placing the stone, the copy, scoring) is the rest.

Nothing here changes the policy: `choose_twice` below is choose_heavy's sequence of calls with
the doubling added, checked against the library's playouts of the same policy (same moves, same scores) before
anything is timed.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np
from option_caps import refuse_counts

from foogo import board_kernels as bk
from foogo import policy as pk
from foogo import policy_heavy as ph
from foogo import policy_local as loc
from foogo import random_stream as rs
from foogo.bench import MAX_REPEATS, machine
from foogo.board import Board
from foogo.jit import inline, kernel
from foogo.patterns import PATTERN_TABLE
from foogo.playout import MAX_BATCH, move_cap, run_playouts

KEEP_ONE_IN = 8
MAX_POSITIONS = 25_000  # --positions: each a board's arrays (35 KB at 25x25), under 900 MB in all; the default 4,000
RULES = ("ko", "capture", "atari answer", "vital point", "two liberties", "pattern", "uniform (heavy)")
VITAL = 3  # RULES' rule (b'): heavy-nakade's only
POLICIES = ("heavy", "heavy-nakade")  # --policy: choose_heavy without or with sacrifices (rule (b') and nakade)


@kernel
def sample_positions(s0, z0, zob, s, z, rng, table, nakade, cap, S, Z):
    """Fill S[i], Z[i] with positions met in heavy playouts (heavy-nakade's with `nakade`) from (s0, z0),
    each move's position kept with probability 1 / KEEP_ONE_IN; returns the playouts played."""
    kept = 0
    played = 0
    while kept < S.shape[0]:
        bk.copy_position(s0, z0, s, z)
        c = np.int64(s[bk.M_TO_MOVE])
        passes = 0
        moves = 0
        played += 1
        while passes < 2 and moves < cap and kept < S.shape[0]:
            if rs.random_below(rng, KEEP_ONE_IN) == 0:
                bk.copy_position(s, z, S[kept], Z[kept])
                kept += 1
            p = ph.choose_heavy(s, z, c, rng, table, nakade)
            if p == pk.PASS:
                bk.play_pass(s, c)
                passes += 1
            else:
                bk.play_inline(s, z, zob, p, c)
                passes = 0
                moves += 1
            c = 3 - c
    return played


@kernel
def decisions(S, Z, rng, table, nakade, calls, answers):
    """choose_heavy's path (with sacrifices if `nakade`) on every position: calls[r] += 1 where rule r is
    tried, answers[r] += 1 where it gives a move (r: RULES' order). The same random draws as choose_heavy."""
    for i in range(S.shape[0]):
        s = S[i]
        z = Z[i]
        c = np.int64(s[bk.M_TO_MOVE])
        last = np.int64(s[bk.M_LAST])
        calls[0] += 1  # rule (k) looks on every move; it answers with probability KO_PERMIL where it finds a point
        done = loc.ko_fight(s, z, c) != pk.PASS and rs.random_below(rng, 1000) < ph.KO_PERMIL
        if done:
            answers[0] += 1
        if not done and last >= 0:
            if rs.random_below(rng, 1000) < ph.CAPTURE_PERMIL:
                calls[1] += 1
                if loc.capture_rule(s, z, c, last, rng) != pk.PASS:
                    answers[1] += 1
                    done = True
            if not done and rs.random_below(rng, 1000) < ph.ATARI_PERMIL:
                calls[2] += 1
                if loc.atari_answer(s, z, c, last, rng) != pk.PASS:
                    answers[2] += 1
                    done = True
            if not done and nakade and ph.VITAL_POINT:
                calls[VITAL] += 1
                if loc.vital_answer(s, z, c, last) != pk.PASS:
                    answers[VITAL] += 1
                    done = True
            if not done and ph.TWO_LIBERTY and rs.random_below(rng, 1000) < ph.TWO_LIBERTY_PERMIL:
                calls[4] += 1
                if loc.two_liberty_move(s, z, c, last, rng, ph.TWO_LIBERTY_COUNTER) != pk.PASS:
                    answers[4] += 1
                    done = True
            if not done and rs.random_below(rng, 1000) < ph.PATTERN_PERMIL:
                calls[5] += 1
                if loc.pattern_move(s, z, c, last, rng, table) != pk.PASS:
                    answers[5] += 1
                    done = True
        if not done:
            calls[6] += 1
            if ph.uniform_move(s, z, c, rng, nakade) != pk.PASS:
                answers[6] += 1


@inline
def choose_twice(s, z, c, rng, spare, table, nakade, rule):
    """policy.choose_heavy (with sacrifices if `nakade`), with rule `rule` (0..6: RULES' order; -1: none)
    called a second time where it is called, on spare (a copy of the random state) and its answer added to
    spare[1]."""
    if rule == 0:  # rule (k) draws no random number of its own
        spare[1] += np.uint64(loc.ko_fight(s, z, c) + 1)
    p = loc.ko_fight(s, z, c)
    if p != pk.PASS and rs.random_below(rng, 1000) < ph.KO_PERMIL:
        return p
    last = np.int64(s[bk.M_LAST])
    if last >= 0:
        if rs.random_below(rng, 1000) < ph.CAPTURE_PERMIL:
            if rule == 1:
                spare[0] = rng[0]
                spare[1] += np.uint64(loc.capture_rule(s, z, c, last, spare[:1]) + 1)
            p = loc.capture_rule(s, z, c, last, rng)
            if p != pk.PASS:
                return p
        if rs.random_below(rng, 1000) < ph.ATARI_PERMIL:
            if rule == 2:
                spare[0] = rng[0]
                spare[1] += np.uint64(loc.atari_answer(s, z, c, last, spare[:1]) + 1)
            p = loc.atari_answer(s, z, c, last, rng)
            if p != pk.PASS:
                return p
        if nakade and ph.VITAL_POINT:
            if rule == VITAL:  # rule (b') draws no random number either
                spare[1] += np.uint64(loc.vital_answer(s, z, c, last) + 1)
            p = loc.vital_answer(s, z, c, last)
            if p != pk.PASS:
                return p
        if ph.TWO_LIBERTY and rs.random_below(rng, 1000) < ph.TWO_LIBERTY_PERMIL:
            if rule == 4:
                spare[0] = rng[0]
                spare[1] += np.uint64(loc.two_liberty_move(s, z, c, last, spare[:1], ph.TWO_LIBERTY_COUNTER) + 1)
            p = loc.two_liberty_move(s, z, c, last, rng, ph.TWO_LIBERTY_COUNTER)
            if p != pk.PASS:
                return p
        if rs.random_below(rng, 1000) < ph.PATTERN_PERMIL:
            if rule == 5:
                spare[0] = rng[0]
                spare[1] += np.uint64(loc.pattern_move(s, z, c, last, spare[:1], table) + 1)
            p = loc.pattern_move(s, z, c, last, rng, table)
            if p != pk.PASS:
                return p
    if rule == 6:
        spare[0] = rng[0]
        spare[1] += np.uint64(ph.uniform_move(s, z, c, spare[:1], nakade) + 1)
    return ph.uniform_move(s, z, c, rng, nakade)


@kernel
def playouts_twice(s0, z0, zob, s, z, rng, spare, table, nakade, cap, seed, count, rule, scores, no_owners):
    """`count` seeded heavy playouts (heavy-nakade's with `nakade`) from (s0, z0) with choose_twice(rule);
    scores[i] = playout i's area score (black less white); returns the stones played."""
    stones = 0
    for i in range(count):
        bk.copy_position(s0, z0, s, z)
        rs.seed_rng(rng, seed, i)
        c = np.int64(s[bk.M_TO_MOVE])
        passes = 0
        moves = 0
        while passes < 2 and moves < cap:
            p = choose_twice(s, z, c, rng, spare, table, nakade, rule)
            if p == pk.PASS:
                bk.play_pass(s, c)
                passes += 1
            else:
                bk.play_inline(s, z, zob, p, c)
                passes = 0
                moves += 1
            c = 3 - c
        stones += moves
        scores[i] = bk.area(s, no_owners)
    return stones


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--policy", choices=POLICIES, default="heavy",
                        help="heavy (default) or heavy-nakade: rule (b') and nakade sacrifices as well")
    parser.add_argument("--playouts", type=int, default=None,
                        help="playouts per timed run (default: about 2 s of them)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--positions", type=int, default=4000, help="positions for the decision counts")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    # --playouts (None: about 2 s of them): one run's scores, 8 bytes each, as run_playouts holds at most MAX_BATCH
    # playouts' results
    refuse_counts(parser, (("--playouts", args.playouts, MAX_BATCH), ("--repeats", args.repeats, MAX_REPEATS),
                           ("--positions", args.positions, MAX_POSITIONS)))

    board = Board(args.size)
    s0, z0 = board._state()
    zob = board.geometry.zobrist
    s, z = s0.copy(), z0.copy()
    rng = np.zeros(1, dtype=np.uint64)
    spare = np.zeros(2, dtype=np.uint64)
    no_owners = np.empty(0, dtype=np.int8)
    cap = move_cap(args.size)
    nakade = args.policy == "heavy-nakade"
    vital = nakade and ph.VITAL_POINT  # as choose_heavy: rule (b') with sacrifices only, where the switch is on
    rules = [r for r in range(len(RULES)) if vital or r != VITAL]

    # how often each rule is called and answers
    rs.seed_rng(rng, args.seed, 0)
    S = np.zeros((args.positions, s0.shape[0]), dtype=s0.dtype)
    Z = np.zeros((args.positions, z0.shape[0]), dtype=z0.dtype)
    sampled = sample_positions(s0, z0, zob, s, z, rng, PATTERN_TABLE, nakade, cap, S, Z)
    calls = np.zeros(len(RULES), dtype=np.int64)
    answers = np.zeros(len(RULES), dtype=np.int64)
    decisions(S, Z, rng, PATTERN_TABLE, nakade, calls, answers)

    def run(rule: int, count: int) -> tuple[float, np.ndarray]:
        """(CPU seconds, scores) of `count` seeded playouts with `rule` doubled."""
        scores = np.zeros(count)
        start = time.process_time()
        stones = playouts_twice(s0, z0, zob, s, z, rng, spare, PATTERN_TABLE, nakade, cap, args.seed, count, rule,
                                scores, no_owners)
        return time.process_time() - start, scores, stones

    # the doubled playouts play the library's playouts of the policy, move for move (but for the uniform
    # draw's: its rejections reorder the list of empty points, see the docstring)
    reference = run_playouts(board, 200, seed=args.seed, policy=args.policy)
    for rule in [-1] + rules[:-1]:
        _, scores, _ = run(rule, 200)
        assert np.array_equal(scores, reference.scores), f"rule {rule}: not the library's {args.policy} playouts"

    count = args.playouts
    if count is None:
        seconds, _, _ = run(-1, 2000)
        count = max(2000, int(2000 * 2.0 / max(seconds, 1e-9)))
    per_move: dict[int, list[float]] = {rule: [] for rule in [-1] + rules}
    for _ in range(args.repeats):
        for rule in per_move:
            seconds, _, stones = run(rule, count)
            per_move[rule].append(seconds / stones * 1e9)
    base = per_move[-1]

    print(f"{args.size}x{args.size} {args.policy} playouts, {count} seeded playouts a run (seed {args.seed}), "
          f"{args.repeats} alternated runs each, CPU clock, {machine()}")
    print(f"  a plain {args.policy} playout: {statistics.median(base):.1f} ns/move "
          f"({min(base):.1f}..{max(base):.1f})")
    print(f"  {'rule':16} {'calls/move':>10} {'answers':>8} {'ns/move, median (min..max)':>28} {'share':>6}")
    total = 0.0
    for r in rules:
        name = RULES[r]
        d = [a - b for a, b in zip(per_move[r], base)]
        med = statistics.median(d)
        total += med
        print(f"  {name:16} {calls[r] / args.positions:10.3f} {answers[r] / max(calls[r], 1):8.1%} "
              f"{med:10.1f} ({min(d):.1f}..{max(d):.1f}){'':6} {med / statistics.median(base):6.1%}")
    rest = statistics.median(base) - total
    print(f"  {'the rest':16} {'':10} {'':8} {rest:10.1f}{'':18} {rest / statistics.median(base):6.1%}")
    print(f"  (calls and answers: {args.positions} positions from {sampled} playouts; the rest: placing "
          f"the stone, the copy, scoring)")


if __name__ == "__main__":
    main()
