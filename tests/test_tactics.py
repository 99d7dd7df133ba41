"""tactics.wasteful_self_atari: which self-ataris give stones away for nothing, from small diagrams in GTP
coordinates (X black, O white), and its bounds checked on random positions against the plain self-atari test."""

import pytest
from test_features import random_positions
from test_policy import draws

from foogo import BLACK, WHITE, board_from_ascii
from foogo import board_kernels as bk
from foogo import nakade as nk
from foogo import policy_heavy as ph
from foogo import tactics as ta


def wasteful(diagram, vertex, colour=BLACK):
    """wasteful_self_atari of `colour` at `vertex` on the board the diagram shows."""
    board = board_from_ascii(diagram)
    s, _ = board._state()
    return bool(ta.wasteful_self_atari(s, board.geometry.parse(vertex), colour))


# black's A1 B1 inside white's corner, whose only liberties are A2 and B2: A2 or B2 makes a square four of
# three stones that ataris white from the inside, a nakade
SQUARE_NAKADE = """
    . . . . .
    X X X X .
    O O O X .
    . . O X .
    X X O X .
"""

# black's B4 C4 between white stones, with liberties A4 (open) and D4 (closed)
RUN_OUT = """
    . . . . . . .
    . . . . . . .
    . O O O . . .
    . X X . O . .
    . O O O . . .
    . . . . . . .
    . . . . . . .
"""

# black's B1 C1 D1 inside white's straight five along the edge, whose liberties are A1 and E1
STRAIGHT_FIVE = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    X X X X X X X
    O O O O O O X
    . X X X . O X
"""


def test_a_nakade_is_no_waste_and_nakade_py_agrees():
    assert not wasteful(SQUARE_NAKADE, "A2") and not wasteful(SQUARE_NAKADE, "B2")
    board = board_from_ascii(SQUARE_NAKADE)
    s, _ = board._state()
    a2 = board.geometry.parse("A2")
    assert ta.big_self_atari(s, a2, BLACK) and nk.nakade(s, a2, BLACK)


def test_a_self_atari_with_a_way_out_elsewhere_is_wasteful():
    assert wasteful(RUN_OUT, "D4")  # three stones in atari on A4, which has two empty neighbours
    assert not wasteful(RUN_OUT, "A4")  # two liberties of its own: no self-atari at all


def test_a_live_shape_left_to_the_opponent_is_wasteful():
    # A1 makes four in a row that white captures from E1 into a straight four, which lives; E1 the same
    assert wasteful(STRAIGHT_FIVE, "A1") and wasteful(STRAIGHT_FIVE, "E1")
    board = board_from_ascii(STRAIGHT_FIVE)
    s, _ = board._state()
    assert not nk.nakade(s, board.geometry.parse("A1"), BLACK)


# black's A1 with liberties A2 and B1, each shut in by white
CORNER = """
    . . . . .
    . . . . .
    O . . . .
    . O . . .
    X . O . .
"""


def test_a_lone_stone_or_two_shut_in_are_no_waste_but_a_suicide_is():
    corner = CORNER
    assert not wasteful(corner, "B1")  # two stones in atari on A2, which leads nowhere: a throw-in's shape
    assert not wasteful(corner, "A2")  # the same from the other side
    assert not wasteful(corner, "D1", WHITE)  # no self-atari at all
    opened = corner.replace("O . . . .", ". . . . .", 1)
    assert wasteful(opened, "B1")  # A2 now opens onto A3: the stone could run out instead
    suicide = """
        . . . . .
        . . . . .
        . . . . .
        O . . . .
        . O . . .
    """
    assert wasteful(suicide, "A1")  # a lone stone with no liberty that captures nothing


def test_more_than_six_stones_are_never_a_nakade():
    # the final position of a game lost to Pachi (test_policy.SEKI): white's B8 fills a liberty its
    # string shares with black's, and gives the string away
    from test_policy import SEKI
    assert wasteful(SEKI, "B8", WHITE)


@pytest.mark.parametrize("size", [5, 9, 13])
def test_a_wasteful_move_is_a_self_atari_of_three_stones_or_a_suicide(size):
    """On random positions, wasteful_self_atari holds only where the plain tests see a self-atari of a string
    (big_self_atari), a lone stone's suicide, or a capture of one stone that leaves the string in atari."""
    seen = 0
    for board in random_positions(size, 40, moves_per_step=size * size // 12):
        s, _ = board._state()
        P = bk.stride(s)
        for p in board.geometry.points:
            p = int(p)
            if bk.color_at(s, P, p) != bk.EMPTY:
                continue
            for c in (BLACK, WHITE):
                if not ta.wasteful_self_atari(s, p, c):
                    continue
                seen += 1
                own = bk.stones_beside(s, P, p, c)
                if own == 0:  # a lone stone: only a suicide, with no liberty and no capture
                    assert bk.empty_neighbours(s, P, p) == 0 and ta.self_atari(s, p, c)
                else:
                    assert ta.big_self_atari(s, p, c) or not ta.self_atari(s, p, c)
    assert seen > 0


def test_the_uniform_rule_with_the_wasteful_test_refuses_only_the_wasteful_self_ataris():
    board = board_from_ascii(CORNER)
    default = draws(board, lambda s, z, c, r: ph.uniform_move(s, z, c, r), BLACK, n=1500)
    wasteful_only = lambda s, z, c, r: ph.uniform_move(s, z, c, r, True, False, 1000, False, True)  # noqa: E731
    judged = draws(board, wasteful_only, BLACK, n=1500)
    assert default["A2"] == default["B1"] == 0  # two stones in atari: always refused by default
    assert judged["A2"] > 0 and judged["B1"] > 0  # shut in: played
    opened = board_from_ascii(CORNER.replace("O . . . .", ". . . . .", 1))
    judged = draws(opened, wasteful_only, BLACK, n=1500)
    assert judged["B1"] == 0  # A2 now opens onto A3: the stone could run out instead
    assert judged["A2"] > 0  # and A2 itself leaves the two stones A3 and B1: no self-atari
    assert ph.WASTEFUL_SELF_ATARI is False  # off by default: the golden traces hold the default's playouts


# ---------------------------------------------------------------- a seki's shared liberty (SEKI_GUARD)

# black's B2..E2 and white's C1 D1 share their two liberties B1 and E1: black's fill of either is a self-atari
# that leaves white's C1 D1 in atari too, and white, to move, captures first (white's fill joins its wall)
EDGE_SEKI = """
    . . . . . . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
    O O O O O O .
    O X X X X O .
    O . O O . O .
"""


def guard(diagram, vertex, colour=BLACK):
    """(big_self_atari, ataris_beside, breaks_seki with heavy's rules) of `colour` at `vertex` on the diagram's
    board."""
    board = board_from_ascii(diagram)
    s, _ = board._state()
    p = board.geometry.parse(vertex)
    return (bool(ta.big_self_atari(s, p, colour)), bool(ta.ataris_beside(s, p, colour)),
            bool(ph.breaks_seki(s, p, colour, False)))


def test_a_self_atari_that_ataris_the_other_side_breaks_a_seki():
    assert guard(EDGE_SEKI, "B1") == guard(EDGE_SEKI, "E1") == (True, True, True)
    assert guard(EDGE_SEKI, "B1", WHITE)[:2] == (False, True)  # white's fill joins its wall: an atari, no self-atari
    # the lost game's seki (test_policy.SEKI): white's B8 leaves its string the one liberty D9 and black's two
    # stones the one liberty A9; black, to move, takes D9
    from test_policy import SEKI
    assert guard(SEKI, "B8", WHITE) == (True, True, True)
    # black's A2 in the corner: a self-atari beside white strings with liberties to spare
    assert guard(CORNER, "A2") == (True, False, False)


def test_a_nakade_that_ataris_the_other_side_breaks_no_seki():
    # black's A2 leaves black's three stones and white's corner string both on B2, and white's capture there
    # leaves a dead square four: a nakade, which the guard lets the playouts play
    assert guard(SQUARE_NAKADE, "A2") == (True, True, False)


@pytest.mark.parametrize("size", [5, 9, 13])
def test_ataris_beside_agrees_with_the_board_after_the_move(size):
    """On random positions, for each self-atari of two stones or more: ataris_beside holds exactly when, once
    the move is played (exact liberty counts, Board.liberties), an opponent string beside it has one liberty."""
    seen = {True: 0, False: 0}
    for board in random_positions(size, 40, moves_per_step=size * size // 12):
        s, _ = board._state()
        for p in board.geometry.points:
            p = int(p)
            for c in (BLACK, WHITE):
                if bk.color_at(s, bk.stride(s), p) != bk.EMPTY or not ta.big_self_atari(s, p, c):
                    continue
                after = board.copy()
                after.allow_suicide = True
                after.play(c, p)
                row, col = board.geometry.row_col(p)
                if after.color_at((row, col)) != c:  # a suicide (the playouts may play one): no string left
                    continue
                beside = [q for q in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
                          if 0 <= q[0] < size and 0 <= q[1] < size and after.color_at(q) == 3 - c]
                atari = any(after.liberties(q) == 1 for q in beside)
                seen[atari] += 1
                assert bool(ta.ataris_beside(s, p, c)) == atari, (board, board.geometry.name(p), c)
    assert seen[True] > 0 and seen[False] > 0


def test_the_seki_guard_keeps_the_uniform_rule_off_a_seki_fill_and_on_a_nakade():
    keep_all = lambda s, z, c, r: ph.uniform_move(s, z, c, r, False, False, 0, False, False, False)  # noqa: E731
    guarded = lambda s, z, c, r: ph.uniform_move(s, z, c, r, False, False, 0, False, False, True)  # noqa: E731
    seki = board_from_ascii(EDGE_SEKI)
    kept = draws(seki, keep_all, BLACK, n=1500)
    assert kept["B1"] > 0 and kept["E1"] > 0  # at a rate of 0 every self-atari drawn is played
    kept = draws(seki, guarded, BLACK, n=1500)
    assert kept["B1"] == kept["E1"] == 0
    assert draws(board_from_ascii(SQUARE_NAKADE), guarded, BLACK, n=1500)["A2"] > 0
    assert ph.SEKI_GUARD is True  # on by default: the search's golden digests hold the guarded playouts
