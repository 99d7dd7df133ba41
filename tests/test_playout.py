"""Playouts: consistency on every size, determinism, the move cap, uniform choice, no own-eye filling.

The incremental state is checked after every playout move inside numba
(`checked_playouts`); the same playouts are then replayed from their traces to show that
they reached captures, multi-stone suicides and ko. Choices are held against the
plain-Python rules of the `rules` fixture (tests/conftest.py) and sgfmill.
"""

import math
import os
import pathlib
import re

import numpy as np
import pytest
import sgfmill.boards
from hypothesis import given, settings
from hypothesis import strategies as st
from numba import njit
from numba.core import config as numba_config

import foogo
from foogo import BLACK, WHITE, Board, board_from_ascii
from foogo import board_kernels as bk
from foogo import patterns as pa
from foogo import playout as po
from foogo import playout_check as pc
from foogo import playout_ownership as pown
from foogo import policy as pol
from foogo import policy_light as pli
from foogo import random_stream as rs
from foogo.bits import select_in_word

NO_OWNERS = np.empty(0, dtype=np.int8)


def sgf_grid(diagram):
    """sgfmill board set up from a diagram, read here without foogo."""
    rows = ["".join(line.split()) for line in diagram.strip("\n").splitlines() if line.strip()]
    size = len(rows)
    black = [(size - 1 - i, col) for i, row in enumerate(rows) for col, ch in enumerate(row) if ch == "X"]
    white = [(size - 1 - i, col) for i, row in enumerate(rows) for col, ch in enumerate(row) if ch == "O"]
    ref = sgfmill.boards.Board(size)
    assert ref.apply_setup(black, white, [])
    return ref


def position(diagram, moves=(), to_move=BLACK):
    """(foogo board, sgfmill board, ko for the side to move) after `moves` from `diagram`."""
    board = board_from_ascii(diagram, to_move=to_move)
    ref = sgf_grid(diagram)
    ko = None
    for color, name in moves:
        board.play(color, name)
        row, col = int(name[1:]) - 1, "ABCDEFGHJKLMNOPQRSTUVWXYZ".index(name[0])
        ko = ref.play(row, col, "b" if color == BLACK else "w")
    return board, ref, ko


def sgf_grid_of(board):
    """A grid ([row][col] of "b", "w", None) from the board's public stone bitarrays."""
    n = board.size
    black, white = board.stones(BLACK), board.stones(WHITE)
    return [["b" if black[r * n + c] else "w" if white[r * n + c] else None for c in range(n)] for r in range(n)]


def empty_diagram(size):
    return "\n".join(" ".join("." * size) for _ in range(size))


def replay_events(board, seed, count):
    """Replay playouts 0..count-1 of run `seed` from `board` move by move with the kernels:
    how many moves captured, suicided, set a ko; how many playouts outlasted size*size moves."""
    s0, z0 = board._state()
    zob = board.geometry.zobrist
    cap = po.move_cap(board.size)
    trace = np.zeros(cap, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    events = {"capture": 0, "suicide": 0, "lone suicide": 0, "ko": 0, "long": 0, "capped": 0}
    for i in range(count):
        s, z = s0.copy(), z0.copy()
        rs.seed_rng(rng, seed, i)
        _, moves, capped = po.playout(s, z, zob, rng, cap, trace, NO_OWNERS, po.LIGHT, po.PATTERN_TABLE)
        events["capped"] += capped
        events["long"] += moves > board.size ** 2
        s, z = s0.copy(), z0.copy()
        for entry in trace[:moves].tolist():
            n = bk.play(s, z, zob, entry >> 1, (entry & 1) + 1)
            events["capture"] += n > 0
            events["suicide"] += n < 0
            events["lone suicide"] += n == -1
            events["ko"] += s[bk.M_KO] != bk.NO_KO
    return events


# ---------------------------------------------------------------- consistency inside playouts

def checked_count(size):
    return 1000 if size <= 9 else 150 if size <= 13 else 80 if size <= 19 else 30


@pytest.mark.parametrize("size", range(2, 26))  # 20..25 beyond the card's 2..19: the board allows them
def test_playouts_stay_consistent_after_every_move(size):
    board = Board(size)
    s, z = board._state()
    count = checked_count(size)
    assert pc.checked_playouts(s, z, board.geometry.zobrist, 11, count, po.move_cap(size)) == (0, 0, 0)
    events = replay_events(board, 11, count)  # the same playouts: same seeds, same chooser
    assert events["capture"] > 0 and events["long"] > 0
    assert events["lone suicide"] == 0  # such a point is eye-like for the opponent: never chosen
    if size >= 3:  # a 2x2 board has room for neither
        assert events["suicide"] > 0 and events["ko"] > 0


@pytest.mark.parametrize("size", [5, 9, 19])
def test_playouts_from_a_middle_game_position_stay_consistent(size):
    # the start: the first 40% of the stones of one playout, played through the Board API
    board = Board(size)
    s, z = board.copy()._state()
    trace = np.zeros(po.move_cap(size), dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    rs.seed_rng(rng, 3, 0)
    _, moves, _ = po.playout(s, z, board.geometry.zobrist, rng, po.move_cap(size), trace, NO_OWNERS,
                             po.LIGHT, po.PATTERN_TABLE)
    for entry in trace[: int(moves * 0.4)].tolist():
        board.play((entry & 1) + 1, entry >> 1)
    board.check_consistency()
    assert board.stones(BLACK).count() and board.stones(WHITE).count()
    s, z = board._state()
    assert pc.checked_playouts(s, z, board.geometry.zobrist, 5, 200, po.move_cap(size)) == (0, 0, 0)


@pytest.mark.slow
@pytest.mark.parametrize("size", range(2, 20))
def test_many_playouts_stay_consistent_after_every_move(size):
    board = Board(size)
    s, z = board._state()
    count = 20 * checked_count(size)
    assert pc.checked_playouts(s, z, board.geometry.zobrist, 12345, count, po.move_cap(size)) == (0, 0, 0)


# ---------------------------------------------------------------- batches: determinism and sanity

def batch_arrays(batch):
    return batch.scores.tolist(), batch.moves.tolist(), batch.capped.tolist()


def test_same_seed_gives_the_same_playouts_on_one_and_two_threads():
    board, _, _ = position(empty_diagram(9), [(BLACK, "E5"), (WHITE, "C3")])
    one = po.run_playouts(board, 200, seed=42, threads=1)
    again = po.run_playouts(board, 200, seed=42, threads=1)
    two = po.run_playouts(board, 200, seed=42, threads=2)
    three = po.run_playouts(board, 200, seed=42, threads=3)
    assert batch_arrays(one) == batch_arrays(again) == batch_arrays(two) == batch_arrays(three)
    assert two.threads == 2


def test_different_seeds_give_different_playouts():
    board = Board(9)
    a = po.run_playouts(board, 50, seed=1)
    b = po.run_playouts(board, 50, seed=2)
    assert a.moves.tolist() != b.moves.tolist()
    assert len(set(a.moves.tolist())) > 10  # and the playouts of one run differ from each other


def test_a_batch_is_a_slice_of_the_seeded_run():
    board = Board(7)
    whole = po.run_playouts(board, 30, seed=9, threads=2)
    part = po.run_playouts(board, 10, seed=9, first=12)
    assert part.scores.tolist() == whole.scores[12:22].tolist()
    assert part.moves.tolist() == whole.moves[12:22].tolist()


def test_play_out_is_playout_number_index_of_the_run():
    board = Board(9)
    batch = po.run_playouts(board, 5, seed=77)
    for index in range(5):
        _, score, moves, capped = po.play_out(board, seed=77, index=index)
        assert (score, moves, capped) == (batch.scores[index], batch.moves[index], bool(batch.capped[index]))


def test_playouts_leave_the_starting_board_unchanged():
    board, _, _ = position(empty_diagram(9), [(BLACK, "E5"), (WHITE, "C3")])
    before = (board.hash, board.to_move, board.playable(BLACK), board.playable(WHITE), board.passes)
    po.run_playouts(board, 20, threads=2)
    po.play_out(board)
    pown.ownership(board, playouts=20, threads=2)
    assert (board.hash, board.to_move, board.playable(BLACK), board.playable(WHITE), board.passes) == before
    board.check_consistency()


def test_bad_counts_and_thread_numbers_raise():
    with pytest.raises(ValueError, match="count"):
        po.run_playouts(Board(9), -1)
    with pytest.raises(ValueError, match="from 0 to 100,000,000"):
        po.run_playouts(Board(9), 10**12)  # refused before its result arrays are sized (9 TB)
    with pytest.raises(ValueError, match="threads"):
        po.run_playouts(Board(9), 10, threads=0)
    with pytest.raises(ValueError, match="threads must be from 1 to 256"):
        po.run_playouts(Board(9), 10, threads=10**9)  # refused before any array is sized by it
    assert po.run_playouts(Board(9), 0).scores.shape == (0,)


@pytest.mark.parametrize("size, count, low, high", [(9, 400, 105, 120), (19, 150, 450, 490)])
def test_playouts_never_hit_the_cap_and_last_as_long_as_the_card_says(size, count, low, high):
    batch = po.run_playouts(Board(size), count, seed=2024, threads=2)
    assert batch.capped.sum() == 0
    assert batch.moves.max() < po.move_cap(size)
    assert low <= batch.moves.mean() <= high
    assert np.all(np.abs(batch.scores) <= size * size)
    black, white, draws = batch.wins(komi=0.5)
    assert black + white == count and draws == 0
    assert black > 0 and white > 0


@pytest.mark.parametrize("size", [2, 3, 5, 9, 13])
def test_play_out_returns_a_finished_position(size, rules):
    board = Board(size)
    finished = 0
    for index in range(30):
        final, score, moves, capped = po.play_out(board, seed=5, index=index)
        final.check_consistency()
        assert score == final.area_score()
        if capped:  # only tiny boards can cycle under simple ko
            assert size <= 3 and moves == po.move_cap(size)
            continue
        finished += 1
        assert final.passes == 2
        last_passer = 3 - final.to_move
        assert final.playable(last_passer).count() == 0
        # the side to move passed first, with at most the ko point (lifted by the last pass) left
        left = final.playable(final.to_move)
        assert left.count() <= 1
        if left.count():
            grid = sgf_grid_of(final)
            i = left.index(1)
            row, col = divmod(i, size)
            colour = "b" if final.to_move == BLACK else "w"
            assert rules.eye_like(grid, row, col, rules.OTHER[colour])
            assert rules.captures_at(grid, row, col, colour)
    assert finished > 0


# ---------------------------------------------------------------- ownership

TWO_EYES = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    X X X X . . .
    . X . X . . .
"""


def test_ownership_is_in_range_and_independent_of_threads():
    board, _, _ = position(empty_diagram(9), [(BLACK, "E5"), (WHITE, "C7")])
    one = pown.ownership(board, playouts=60, seed=4, threads=1)
    two = pown.ownership(board, playouts=60, seed=4, threads=2)
    assert one.shape == (81,)
    assert np.all(one >= -1) and np.all(one <= 1)
    assert np.array_equal(one, two)
    assert one[4 * 9 + 4] > 0 and one[6 * 9 + 2] < 0  # each stone mostly keeps its point


def test_a_group_with_two_real_eyes_is_owned_in_every_playout(rules):
    board, ref, _ = position(TWO_EYES, to_move=WHITE)
    assert rules.eyes(ref.board, "b") == rules.bits(7, ["A1", "C1"])
    owned = pown.ownership(board, playouts=100, seed=8)
    for name in ["A1", "B1", "C1", "D1", "A2", "B2", "C2", "D2"]:
        row, col = rules.point(name)
        assert owned[row * 7 + col] == 1.0


# ---------------------------------------------------------------- uniform choice

def chi2_sf(x, df):
    """P(X >= x) for X chi-square with df degrees of freedom, i.e. Q(df/2, x/2), the regularized
    upper incomplete gamma function: by the power series of P = 1 - Q below a + 1, by the
    continued fraction of Q above (Numerical Recipes' gser / gcf)."""
    a, t = df / 2.0, x / 2.0
    if t <= 0:
        return 1.0
    log_front = a * math.log(t) - t - math.lgamma(a)
    if t < a + 1:
        term = total = 1.0 / a
        n = 0
        while abs(term) > 1e-16 * abs(total):
            n += 1
            term *= t / (a + n)
            total += term
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = t + 1.0 - a
    c, d = 1.0 / tiny, 1.0 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2.0
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1.0 / d
        h *= d * c
        if abs(d * c - 1.0) < 1e-16:
            break
    return math.exp(log_front) * h


@pytest.mark.parametrize("x, df", [(10.828, 1), (29.588, 10), (86.661, 50), (149.449, 100)])
def test_chi2_tail_matches_the_tables(x, df):
    # 0.999 quantiles of the chi-square distribution from the standard tables
    assert chi2_sf(x, df) == pytest.approx(0.001, rel=0.01)


@pytest.mark.parametrize("x", [0.1, 1.0, 3.0, 30.0, 300.0])
def test_chi2_tail_with_two_degrees_of_freedom_is_exponential(x):
    assert chi2_sf(x, 2) == pytest.approx(math.exp(-x / 2), rel=1e-9)


KO_9 = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . X O . . . . . .
    X O . O . . . . .
    . X O . . . . . .
"""

EYES_9 = """
    . X . X . . O . O
    X X X X . . O O .
    . . . . . . . O O
    . . . . . . . . .
    . . X X X . . . .
    . X . X . X . . .
    . . X O X . . O .
    O O . . . . O . O
    . O . . . . . O .
"""


def first_moves(board, draws, seed=2718):
    """Counts of the first move chosen for the side to move over `draws` seeded playouts."""
    s0, z0 = board._state()
    s, z = s0.copy(), z0.copy()
    rng = np.zeros(1, dtype=np.uint64)
    counts = {}
    for i in range(draws):
        rs.seed_rng(rng, seed, i)
        p = pli.choose_light(s, z, board.to_move, rng)
        counts[p] = counts.get(p, 0) + 1
    # choosing leaves the position as it was: the empty list may be in another order, the same points
    n = int(s0[bk.M_EMPTIES])
    assert set(bk.section_view(s, bk.EMPTIES)[:n]) == set(bk.section_view(s0, bk.EMPTIES)[:n])
    s, s0 = s.copy(), s0.copy()
    for field in (bk.QUEUE, bk.EMPTIES, bk.SLOT):
        bk.section_view(s, field)[:] = 0
        bk.section_view(s0, field)[:] = 0
    assert np.array_equal(s, s0) and np.array_equal(z, z0)
    return counts


def allowed_points(board, ref, ko, rules):
    """Padded points of playable(to_move) minus the ko point, from the reference rules."""
    colour = "b" if board.to_move == BLACK else "w"
    bits = rules.playable(ref.board, colour)
    if ko is not None:
        bits[ko[0] * board.size + ko[1]] = 0
    return sorted(int(board.geometry.points[i]) for i in bits.search(1))


def chi_square(counts, allowed, draws):
    expected = draws / len(allowed)
    observed = np.array([counts.get(p, 0) for p in allowed], dtype=float)
    return float(((observed - expected) ** 2 / expected).sum())


UNIFORM_CASES = {
    "empty 9x9": (empty_diagram(9), [], BLACK),
    "ko on 9x9": (KO_9, [(BLACK, "C2")], BLACK),
    "eyes on 9x9, black": (EYES_9, [], BLACK),
    "eyes on 9x9, white": (EYES_9, [], WHITE),
    "19x19, seven words": (empty_diagram(19), [(BLACK, "D4"), (WHITE, "Q16"), (BLACK, "K10")], BLACK),
}


@pytest.mark.parametrize("case", list(UNIFORM_CASES))
def test_first_move_is_uniform_over_playable_minus_ko(case, rules):
    diagram, moves, to_move = UNIFORM_CASES[case]
    board, ref, ko = position(diagram, moves, to_move)
    allowed = allowed_points(board, ref, ko, rules)
    if case.startswith("ko"):
        assert board.ko_point == "B2" and ko == (1, 1)
        assert board.playable(WHITE)[1 * 9 + 1]  # in the set, but never to be chosen
    if case.startswith("eyes"):  # eyes of both colours and eye-like points that capture are in play
        assert rules.eyes(ref.board, "b").count() >= 2 and rules.eyes(ref.board, "w").count() >= 2
    draws = 150 * len(allowed)
    counts = first_moves(board, draws)
    assert set(counts) == set(allowed)  # every allowed point drawn, nothing else
    statistic = chi_square(counts, allowed, draws)
    assert chi2_sf(statistic, len(allowed) - 1) > 0.001, statistic


def test_the_chi_square_test_rejects_a_scan_from_a_random_start(rules):
    # the sampling the card forbids: take the first allowed point at or after a random
    # point, which favours points that follow long gaps; the same test must catch it
    board, ref, ko = position(EYES_9, [], BLACK)
    allowed = allowed_points(board, ref, ko, rules)
    rnd = np.random.default_rng(1)
    draws = 150 * len(allowed)
    starts = rnd.integers(0, board.geometry.npoints, size=draws)
    positions = np.searchsorted(allowed, starts) % len(allowed)
    counts = {}
    for i in positions.tolist():
        counts[allowed[i]] = counts.get(allowed[i], 0) + 1
    assert chi2_sf(chi_square(counts, allowed, draws), len(allowed) - 1) < 1e-6


def rejection_draw(s, allowed, rng):
    """The light draw written plainly, over the position's list of empty points in its current
    order: r drawn below the window's size picks entry r; an unallowed one is swapped to the
    window's end and the window shrinks; after LIGHT_REJECTIONS rejections, one of the allowed
    points left in the window (in list order) is drawn directly. Returns (the point or PASS,
    the number of rejections); s is not changed."""
    window = list(bk.section_view(s, bk.EMPTIES)[: int(s[bk.M_EMPTIES])])
    rejections = 0
    n = len(window)
    while n:
        if rejections == pli.LIGHT_REJECTIONS:
            left = [int(p) for p in window[:n] if p in allowed]
            return (left[rs.random_below(rng, len(left))] if left else po.PASS), rejections
        i = rs.random_below(rng, n)
        p = int(window[i])
        if p in allowed:
            return p, rejections
        n -= 1
        window[i], window[n] = window[n], window[i]
        rejections += 1
    return po.PASS, rejections


@pytest.mark.parametrize("case", ["ko on 9x9", "eyes on 9x9, white", "19x19, seven words"])
def test_the_choice_is_the_plain_rejection_draw_for_every_seed(case, rules):
    # exact, where the chi-square test is statistical: the kernel draws what rejection_draw
    # draws from the empty points with the same random numbers, for every seed tried (the
    # list's order changes from draw to draw, and the reference reads it each time)
    diagram, moves, to_move = UNIFORM_CASES[case]
    board, ref, ko = position(diagram, moves, to_move)
    allowed = set(allowed_points(board, ref, ko, rules))
    empty = [int(p) for p in board.geometry.points if board._colors()[p] == bk.EMPTY]
    s, z = board._state()
    s, z = s.copy(), z.copy()
    rng = np.zeros(1, dtype=np.uint64)
    rejections = []
    for i in range(30 * len(allowed)):
        rs.seed_rng(rng, 99, i)
        mine = rng.copy()
        want, rejected = rejection_draw(s, allowed, mine)
        assert pli.choose_light(s, z, board.to_move, rng) == want
        assert rng[0] == mine[0]  # and used the same random numbers
        rejections.append(rejected)
    assert max(rejections) > 0 or len(allowed) == len(empty)


def test_the_plain_rejection_draw_reaches_its_second_stage(rules):
    # a 9x9 board of black eyes (26 empty points) where white may take only E1, E2 and E3:
    # some draws reject LIGHT_REJECTIONS points and end in the second stage
    diagram = """
        . X . X . X . X .
        X X X X X X X X X
        . X . X . X . X .
        X X X X X X X X X
        . X . X . X . X .
        X X X X X X X X X
        . X . X . X . X .
        X X X X . X X X X
        . X . X . X . X .
    """
    board, ref, ko = position(diagram, [], WHITE)
    allowed = allowed_points(board, ref, ko, rules)
    assert [board.geometry.name(p) for p in allowed] == ["E1", "E2", "E3"]
    empty = [int(p) for p in board.geometry.points if board._colors()[p] == bk.EMPTY]
    assert len(empty) > pli.LIGHT_REJECTIONS
    s, z = board._state()
    rng = np.zeros(1, dtype=np.uint64)
    second = 0
    for i in range(300):
        rs.seed_rng(rng, 5, i)
        mine = rng.copy()
        want, rejected = rejection_draw(s, set(allowed), mine)
        assert pli.choose_light(s, z, WHITE, rng) == want and rng[0] == mine[0]
        second += rejected == pli.LIGHT_REJECTIONS
    assert 0 < second < 300


def test_nothing_allowed_means_pass():
    board = board_from_ascii("""
        . X
        X .
    """, to_move=BLACK)  # both points are black eyes: black may not play, white may not either
    s, z = board._state()
    rng = np.zeros(1, dtype=np.uint64)
    rs.seed_rng(rng, 1, 0)
    assert pli.choose_light(s.copy(), z.copy(), BLACK, rng) == po.PASS
    assert pli.choose_light(s.copy(), z.copy(), WHITE, rng) == po.PASS
    final, score, moves, capped = po.play_out(board)
    assert (score, moves, capped) == (4, 0, False) and final.passes == 2


@settings(max_examples=300, deadline=None)
@given(word=st.integers(1, 2**64 - 1), data=st.data())
def test_select_in_word_finds_the_r_th_set_bit(word, data):
    ones = [i for i in range(64) if word >> i & 1]
    r = data.draw(st.integers(0, len(ones) - 1))
    assert select_in_word(np.uint64(word), r) == ones[r]


def test_random_below_stays_below():
    rng = np.zeros(1, dtype=np.uint64)
    rs.seed_rng(rng, 3, 0)
    for n in (1, 2, 3, 7, 361, 2**31 + 1):
        values = [rs.random_below(rng, n) for _ in range(200)]
        assert min(values) >= 0 and max(values) < n
    assert len({rs.random_below(rng, 2**31) for _ in range(50)}) == 50


def test_keep_one_keeps_each_of_k_candidates_with_chance_one_in_k():
    """The heavy rules' reservoir draw: after k offers every candidate is the one kept about 1/k of
    the time (within 4.5 standard deviations over 6,000 runs), and the count comes back as k."""
    rng = np.zeros(1, dtype=np.uint64)
    rs.seed_rng(rng, 11, 0)
    runs = 6000
    for k in (1, 2, 3, 5):
        kept = [0] * k
        for _ in range(runs):
            found, answer = 0, -1
            for q in range(k):
                found, answer = rs.keep_one(rng, found, answer, q)
            assert found == k
            kept[answer] += 1
        sd = math.sqrt(runs * (1 / k) * (1 - 1 / k))
        assert all(abs(n - runs / k) <= 4.5 * sd for n in kept), (k, kept)


# ---------------------------------------------------------------- the playout never fills its own eye

@pytest.mark.parametrize("diagram, to_move, count", [(empty_diagram(9), BLACK, 150), (EYES_9, WHITE, 100),
                                                     (TWO_EYES, WHITE, 100), (empty_diagram(19), BLACK, 6)],
                         ids=["empty 9x9", "eyes 9x9", "two eyes 7x7", "empty 19x19"])
def test_playout_moves_are_playable_and_never_fill_an_own_eye(diagram, to_move, count, rules):
    board, _, _ = position(diagram, (), to_move)
    s0, z0 = board._state()
    zob = board.geometry.zobrist
    size = board.size
    cap = po.move_cap(size)
    trace = np.zeros(cap, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    width = size + 2
    seen = {"false eye filled": 0, "captured in an opponent eye": 0}
    for i in range(count):
        final = board.copy()
        s, z = final._state()
        rs.seed_rng(rng, 31, i)
        _, moves, capped = po.playout(s, z, zob, rng, cap, trace, NO_OWNERS, po.LIGHT, po.PATTERN_TABLE)
        assert not capped
        ref = sgf_grid(diagram)
        grid = ref.board
        ko = None
        previous = None
        for entry in trace[:moves].tolist():
            p, colour = entry >> 1, "bw"[entry & 1]
            row, col = p // width - 1, p % width - 1
            assert rules.is_playable(grid, row, col, colour), (i, rules.name(row, col))
            assert not rules.real_eye(grid, row, col, colour)
            if previous is not None and previous != colour:  # no pass between: the ko still holds
                assert ko != (row, col)
            seen["false eye filled"] += rules.eye_like(grid, row, col, colour)
            seen["captured in an opponent eye"] += rules.eye_like(grid, row, col, rules.OTHER[colour])
            ko = ref.play(row, col, colour)
            previous = colour
        # the replay reached the playout's final position
        assert final.stones(BLACK) == rules.stones(grid, "b")
        assert final.stones(WHITE) == rules.stones(grid, "w")
    assert seen["false eye filled"] > 0 and seen["captured in an opponent eye"] > 0


# ---------------------------------------------------------------- the numba cache stamp

def test_every_module_with_kernels_is_in_the_cache_stamp():
    decorated = set()
    for name, source in package_sources():
        if re.search(r"^\s*@(kernel|inline|jit|jit_nogil)\b", source, re.MULTILINE):
            decorated.add(name)
    assert {"board_moves.py", "playout.py", "bits.py"} <= decorated  # the scan finds what we know
    from foogo import jit
    assert decorated <= set(jit.KERNEL_MODULES)
    assert "jit.py" in jit.KERNEL_MODULES  # the decorators' own definitions are part of the stamp


def test_no_module_bypasses_the_stamped_decorators():
    names = set()
    for name, source in package_sources():
        names.add(name)
        if name != "jit.py":
            assert not re.search(r"\bnjit\b|numba\.jit\b|from numba import .*\bjit\b", source), name
    assert {"jit.py", "gtp/engine.py", "stats/command.py"} <= names  # the scan reaches the subpackages


def package_sources():
    """(path relative to the package, source) of every module of foogo, its subpackages' included."""
    package = pathlib.Path(foogo.__file__).parent
    for path in sorted(package.rglob("*.py")):
        yield path.relative_to(package).as_posix(), path.read_text(encoding="utf-8")


def test_a_kernel_outside_the_package_is_stamped_with_the_kernel_sources(tmp_path, monkeypatch):
    # a bench script's kernel inlines the policy: it must recompile when policy.py changes, and when
    # its own file does (before, numba's stamp of its own file alone let a stale policy load)
    from numba.core.caching import CacheImpl

    from foogo import jit
    script = tmp_path / "script_with_a_kernel.py"
    script.write_text("from foogo.jit import kernel\n\n@kernel\ndef twice(x):\n    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import script_with_a_kernel as module
    assert module.twice(21) == 42
    plain = os.path.join(str(tmp_path), "plain.py")
    for cls in CacheImpl._locator_classes:
        locator = cls.from_function(module.twice.py_func, str(script))
        if locator is not None:
            break
    assert isinstance(locator, jit._StampMixin)
    stamp = locator.get_source_stamp()
    own = super(jit._StampMixin, locator).get_source_stamp()  # numba's stamp of the script's file
    assert stamp == (jit._STAMP, own) and own != jit._STAMP

    def undecorated(x):
        return x
    assert jit._StampMixin.from_function.__func__(jit._InTreeLocator, undecorated, plain) is None  # numba's own users


@pytest.mark.skipif(bool(numba_config.BOUNDSCHECK), reason="NUMBA_BOUNDSCHECK adds its own index < 0 tests")
def test_kernels_index_without_wraparound_and_jit_functions_with_it():
    from numba import njit

    from foogo import jit

    def load(a, i):
        return a[i]

    assert jit.KERNEL_PIPELINE is not None, "this numba's internals differ from those jit.py hooks into"
    unwrapped = njit(_nrt=False, pipeline_class=jit.KERNEL_PIPELINE)(load)
    wrapped = njit(load)
    a = np.arange(4, dtype=np.int32)
    assert unwrapped(a, 2) == 2 and wrapped(a, -1) == 3
    negative_test = re.compile(r"icmp slt i64 %[\w.\"]+, 0")  # numba's wrap: index < 0 ? index + n : index
    assert not negative_test.search(unwrapped.inspect_llvm(unwrapped.signatures[0]))
    assert negative_test.search(wrapped.inspect_llvm(wrapped.signatures[0]))


@njit
def _scratch_against_full(s, z, zob, seed, count, cap):
    """Play `count` light playouts of run `seed` twice in step, one position with play_inline and one
    with play_scratch, each drawing its moves from its own position with the same random numbers;
    returns (the first move at which the draws or the s arrays differ, else -1; moves compared;
    moves after which the scratch position's hash was stale)."""
    rng = np.zeros(1, dtype=np.uint64)
    twin = np.zeros(1, dtype=np.uint64)
    full_s, full_z = s.copy(), z.copy()
    scratch_s, scratch_z = s.copy(), z.copy()
    moves = 0
    stale = 0
    for i in range(count):
        bk.copy_position(s, z, full_s, full_z)
        bk.copy_position(s, z, scratch_s, scratch_z)
        rs.seed_rng(rng, seed, i)
        c = np.int64(s[bk.M_TO_MOVE])
        passes = 0
        for _ in range(cap):
            twin[0] = rng[0]  # the draw reorders the list of empty points it draws from: draw on both
            p = pol.choose(full_s, full_z, c, rng, pol.LIGHT, 1000, pa.PATTERN_TABLE)
            if pol.choose(scratch_s, scratch_z, c, twin, pol.LIGHT, 1000, pa.PATTERN_TABLE) != p:
                return moves, moves, stale
            if p == bk.PASS:
                bk.play_pass(full_s, c)
                bk.play_pass(scratch_s, c)
                passes += 1
                if passes == 2:
                    break
            else:
                passes = 0
                bk.play_inline(full_s, full_z, zob, p, c)
                bk.play_scratch(scratch_s, scratch_z, zob, p, c)
                moves += 1
                for j in range(s.shape[0]):
                    if full_s[j] != scratch_s[j]:
                        return moves, moves, stale
                stale += full_z[0] != scratch_z[0]
            c = 3 - c
    return -1, moves, stale


@pytest.mark.parametrize("size", [2, 5, 9, 19])
def test_scratch_moves_keep_everything_but_the_hash_and_the_empty_set(size):
    # play_scratch, the bench's and the search's playout move, differs from play_inline only in z
    board = Board(size)
    s, z = board._state()
    differ, moves, stale = _scratch_against_full(s.copy(), z.copy(), board.geometry.zobrist, 3, 20, 3 * size * size)
    assert differ == -1 and moves > 20 * size
    assert stale > moves // 2  # the hash is really left behind: nothing may read it after such a move


@pytest.mark.parametrize("policy", ["light", "heavy"])
@pytest.mark.parametrize("size", [5, 9, 13])
def test_the_batch_plays_the_playouts_that_full_moves_play(size, policy):
    # run_playouts' batch (scratch moves) against play_out (full moves, the golden traces' kernel)
    board = Board(size)
    batch = po.run_playouts(board, 40, seed=5, policy=policy)
    for index in range(40):
        _, score, moves, capped = po.play_out(board, seed=5, index=index, policy=policy)
        assert (score, moves, capped) == (batch.scores[index], batch.moves[index], bool(batch.capped[index]))


def test_ownership_and_runs_check_their_counts_and_seeds_before_any_work():
    # ownership took any thread count (200,000 threads, 1.1 GB) and any playout count (-5: zeros, 2.5: wrong
    # shares); run_playouts compiled a float seed's kernels afresh (30 s) and overflowed on 2**64
    board = Board(9)
    for kwargs, error, message in (
            (dict(threads=200_000), ValueError, "threads must be from 1 to 256, got 200000"),
            (dict(threads=0), ValueError, "threads must be from 1 to 256, got 0"),
            (dict(playouts=-5), ValueError, "playout count must be from 0 to 100,000,000"),
            (dict(playouts=2.5), TypeError, "playout count must be a whole number, got 2.5"),
            (dict(playouts="5"), TypeError, "playout count must be a whole number, got '5'"),
            (dict(seed=2**70), ValueError, "seed must be from -2**63 to 2**63 - 1")):
        with pytest.raises(error, match=re.escape(message)):
            pown.ownership(board, **kwargs)
    for kwargs, error, message in (
            (dict(seed="x"), TypeError, "seed must be a whole number, got 'x'"),
            (dict(seed=1.5), TypeError, "seed must be a whole number, got 1.5"),
            (dict(seed=2**64), ValueError, "seed must be from -2**63 to 2**63 - 1"),
            (dict(first=2**63), ValueError, "first must be from 0"),
            (dict(threads=2.0), TypeError, "threads must be a whole number")):
        with pytest.raises(error, match=re.escape(message)):
            po.run_playouts(board, 5, **kwargs)
    assert po.run_playouts(board, np.int64(3), seed=np.uint32(7), threads=np.int8(2)).scores.shape == (3,)
    assert pown.ownership(board, playouts=0).tolist() == [0.0] * 81
    assert pown.ownership(board, playouts=4, seed=-1).shape == (81,)  # foogo gtp --seed -1's: a negative seed wraps


@pytest.mark.parametrize("size", [5, 9, 13])
def test_the_light_kernels_play_the_general_kernels_light_playouts(size):
    # light_batch and light_ownership_batch are kernels of their own (no heavy rules compiled into them, for a
    # fresh install's load time); they must play playout_batch's and ownership_batch's playouts with LIGHT
    board = Board(size)
    for vertex in ("C3", "D4", "B2"):
        board.play(board.to_move, vertex)
    s0, z0 = board._state()
    zob, cap, count = board.geometry.zobrist, po.move_cap(size), 200
    batches = []
    for kernel in (po.light_batch, po.playout_batch):
        out = (np.zeros(count, np.int32), np.zeros(count, np.int32), np.zeros(count, np.int8))
        kernel(s0, z0, zob, 11, 3, cap, *out, pol.LIGHT, pa.PATTERN_TABLE)
        batches.append(out)
    assert all(np.array_equal(a, b) for a, b in zip(*batches)) and batches[0][1].min() > 0
    sums = []
    for kernel in (pown.light_ownership_batch, pown.ownership_batch):
        total = np.zeros((2, board.geometry.npoints))
        kernel(s0, z0, zob, 11, 3, count, cap, total[0], total[1], pol.LIGHT, pa.PATTERN_TABLE)
        sums.append(total)
    assert np.array_equal(*sums) and np.abs(sums[0][0]).sum() > 0
