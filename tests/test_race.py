"""The approach from outside (rule (d'), policy "heavy-race"): where the heavy draw is a self-atari of
two stones or more beside an opponent string of two liberties, the playout takes that string's
other liberty instead. Diagrams in GTP coordinates; a slow recomputation of the rule by flood fills
on random positions; the seki that must stand; playouts that stay legal."""

import numpy as np
import pytest
from test_policy import SEKI

from foogo import BLACK, PASS, WHITE, Board, board_from_ascii
from foogo import board_kernels as bk
from foogo import patterns as pa
from foogo import playout as po
from foogo import playout_check as pc
from foogo import policy_heavy as ph
from foogo import policy_light as pli
from foogo import random_stream as rs
from foogo import tactics as ta
from foogo.board import IllegalMove

# black A2 B2 (liberties A1, B1) against white's five stones (B1, D1): B1 is shared. Black B1 is a
# self-atari of three stones (so is A1); black D1 from outside leaves white one liberty, and black
# wins the race
RACE = """
    . . . . .
    X X X X .
    O O O X .
    X X O X .
    . . O . .
"""

# SEKI (tests/test_policy.py), the final position of a game lost to Pachi: white's only move, B8,
# fills a liberty its string shares with black's; black A8 and B9 have two liberties each, but their
# other one, A9, is black's eye: the approach finds nothing and white keeps the seki


def rng(seed):
    r = np.zeros(1, dtype=np.uint64)
    rs.seed_rng(r, seed, 0)
    return r


def state(text):
    board = board_from_ascii(text)
    return board, *board._state()


def test_the_shared_liberty_is_a_big_self_atari_and_the_approach_is_the_outside_liberty():
    board, s, z = state(RACE)
    b1, d1 = board.geometry.parse("B1"), board.geometry.parse("D1")
    assert ta.big_self_atari(s, b1, BLACK) and not ta.big_self_atari(s, d1, BLACK)
    assert ph.outside_liberty(s, z, BLACK, b1, rng(1)) == d1
    assert ph.outside_liberty(s, z, BLACK, d1, rng(1)) == PASS  # white beside D1 has two liberties, D1 and B1:
    # its other one, B1, is the self-atari


def test_the_race_draw_plays_the_outside_liberty_where_heavy_draws_again():
    board = board_from_ascii(RACE)
    geo = board.geometry
    changed = 0
    for seed in range(400):
        picks = []
        for race in (False, True, None):  # heavy's rule, heavy-race's, the light draw under both
            s, z = board.copy()._state()  # a draw reorders the empty list: each call on its own copy
            r = rng(seed)
            p = pli.choose_light(s, z, BLACK, r) if race is None else ph.uniform_move(s, z, BLACK, r, False, race)
            picks.append(geo.name(int(p)))
        heavy, race, light = picks
        assert not {"A1", "B1"} & {heavy, race}  # black's two self-ataris of three stones
        if light == "B1":
            assert race == "D1"
            changed += heavy != race
        elif light == "A1":  # beside no white string: both draw again, alike
            assert race == heavy
        else:
            assert heavy == race == light
    assert changed > 20  # B1 is one of 13 points black may take: about 30 of 400 draws


def test_the_seki_stands_with_the_approach():
    board = board_from_ascii(SEKI)
    s, z = board._state()
    assert ph.outside_liberty(s, z, WHITE, board.geometry.parse("B8"), rng(1)) == PASS
    for seed in range(200):
        s, z = board.copy()._state()
        assert ph.choose_heavy(s, z, WHITE, rng(seed), pa.PATTERN_TABLE, False, True) == PASS


def _around(board, p):
    geo = board.geometry
    return [p + d for d in geo.neighbours.tolist() if geo.onboard[p + d]]


def _liberties(board, p):
    """The liberty points of the string at padded point p, by a flood fill over the public board."""
    color = board.color_at(p)
    seen, libs, todo = {p}, set(), [p]
    while todo:
        for n in _around(board, todo.pop()):
            c = board.color_at(n)
            if c == bk.EMPTY:
                libs.add(n)
            elif c == color and n not in seen:
                seen.add(n)
                todo.append(n)
    return libs


def _slow_outside(board, s, z, c, p):
    """The points outside_liberty may return for c's draw at p, recomputed slowly."""
    found = set()
    for n in _around(board, p):
        if board.color_at(n) == 3 - c:
            libs = _liberties(board, n)
            if len(libs) == 2:
                (other,) = libs - {p}
                if pli.allowed(s, z, c, other) and not ta.big_self_atari(s, other, c):
                    found.add(other)
    return found


@pytest.mark.parametrize("size", [5, 7, 9])
def test_the_approach_agrees_with_a_slow_recomputation_on_random_positions(size):
    checked = fired = 0
    for game in range(60):
        board = Board(size)
        color = BLACK
        for move in range(size * size * 2):
            s, z = board._state()
            p = pli.choose_light(s, z, color, rng(game * 1000 + move))
            if p == PASS:
                break
            try:
                board.play(color, board.geometry.name(int(p)))
            except IllegalMove:  # a multi-stone suicide the playable rule allows: this walk stops there
                break
            color = 3 - color
            s, z = board._state()
            for q in board.geometry.points.tolist():
                if board.color_at(q) != bk.EMPTY or not pli.allowed(s, z, color, q):
                    continue
                if not ta.big_self_atari(s, q, color):
                    continue
                want = _slow_outside(board, s, z, color, q)
                got = {int(ph.outside_liberty(s, z, color, q, rng(seed))) for seed in range(8)}
                checked += 1
                if want:
                    fired += 1
                    assert got <= want and (len(want) > 1 or got == want)
                else:
                    assert got == {PASS}
    assert checked > 50 and fired > 5


@pytest.mark.parametrize("size, count", [(9, 300), (5, 300), (13, 20)])
def test_heavy_race_playouts_stay_consistent_after_every_move(size, count):
    board = Board(size)
    s0, z0 = board._state()
    result = pc.checked_playouts(s0, z0, board.geometry.zobrist, 17, count, po.move_cap(size), "heavy-race")
    assert tuple(result) == (0, 0, 0)


def test_heavy_race_is_a_policy_of_the_api():
    result = po.run_playouts(Board(9), 50, seed=3, policy="heavy-race")
    heavy = po.run_playouts(Board(9), 50, seed=3, policy="heavy")
    assert result.capped.sum() == 0 and result.scores.shape == (50,)
    assert not np.array_equal(result.moves, heavy.moves)  # the rule fires in some of 50 playouts
