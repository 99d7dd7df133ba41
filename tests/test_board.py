"""Board rules from ASCII diagrams: captures, snapback, ko, suicide, eyes, playable sets, scoring, hash.

Diagrams are read with board_from_ascii, top row first, and points are named as players
name them (GTP: columns A.. without I, row 1 at the bottom). Expected results are worked
out by hand from the diagrams; point sets use the public bit layout row * size + col,
built by the `rules` fixture (tests/conftest.py), not by foogo.
"""

import random

import numpy as np
import pytest
from numba import njit

from foogo import BLACK, EMPTY, PASS, WHITE, Board, BoardInconsistent, IllegalMove, board_from_ascii
from foogo import board_kernels as bk


def snapshot(board):
    """Everything a caller can observe of a position."""
    return (board.hash, board.stones(BLACK).to01(), board.stones(WHITE).to01(), board.to_move, board.ko_point,
            board.passes, board.captures(BLACK), board.captures(WHITE), board.last_move,
            board.playable(BLACK).to01(), board.playable(WHITE).to01(), str(board))


def empty_points(diagram, rules):
    """GTP names of the '.' points of a diagram, read here without foogo."""
    rows = ["".join(line.split()) for line in diagram.strip("\n").splitlines() if line.strip()]
    size = len(rows)
    return [rules.name(size - 1 - i, col) for i, row in enumerate(rows) for col, char in enumerate(row) if char == "."]


def assert_illegal(board, color, vertex, reason):
    """The move raises IllegalMove for `reason` and leaves every observable thing as it was."""
    before = snapshot(board)
    assert not board.is_legal(color, vertex)
    with pytest.raises(IllegalMove) as error:
        board.play(color, vertex)
    assert error.value.reason == reason
    assert snapshot(board) == before
    board.check_consistency()


# ---------------------------------------------------------------- captures

def test_single_stone_capture_in_the_middle():
    board = board_from_ascii("""
        . . . . .
        . . X . .
        . X O X .
        . . . . .
        . . . . .
    """)
    result = board.play(BLACK, "C2")
    assert result.captured == ["C3"]
    assert result.suicided == []
    assert board.color_at("C3") == EMPTY
    assert board.captures(BLACK) == 1 and board.captures(WHITE) == 0
    board.check_consistency()


def test_capture_of_a_two_stone_string_reports_both():
    board = board_from_ascii("""
        . . X . .
        X O O X .
        . X X . .
        . . . . .
        . . . . .
    """)
    assert sorted(board.play(BLACK, "B5").captured) == ["B4", "C4"]
    assert board.stones(WHITE).count() == 0
    assert board.captures(BLACK) == 2
    board.check_consistency()


def test_one_move_captures_two_separate_strings():
    board = board_from_ascii("""
        . X . X .
        X O . O X
        . X . X .
        . . . . .
        . . . . .
    """)
    assert sorted(board.play(BLACK, "C4").captured) == ["B4", "D4"]
    assert board.captures(BLACK) == 2
    board.check_consistency()


def test_capture_on_the_edge():
    board = board_from_ascii("""
        . . . . .
        X . . . .
        O X . . .
        . . . . .
        . . . . .
    """)
    assert board.play(BLACK, "A2").captured == ["A3"]
    board.check_consistency()


def test_capture_of_a_single_stone_in_the_corner():
    board = board_from_ascii("""
        . . .
        . . .
        O X .
    """)
    assert board.play(BLACK, "A2").captured == ["A1"]
    board.check_consistency()


def test_capture_of_a_corner_string():
    board = board_from_ascii("""
        . . . . .
        . . . . .
        . . . . .
        X X . . .
        O O . . .
    """)
    assert sorted(board.play(BLACK, "C1").captured) == ["A1", "B1"]
    board.check_consistency()


def test_snapback_recaptures_five():
    board = board_from_ascii("""
        . . . . .
        . . . . .
        X X X . .
        O O O X .
        O . . X .
    """)
    assert board.play(BLACK, "B1").captured == []  # the throw-in
    assert board.play(WHITE, "C1").captured == ["B1"]
    assert board.ko_point is None  # white took with a string of five, not a lone stone
    assert sorted(board.play(BLACK, "B1").captured) == ["A1", "A2", "B2", "C1", "C2"]
    assert board.stones(WHITE).count() == 0
    assert board.captures(BLACK) == 5 and board.captures(WHITE) == 1
    board.check_consistency()


# ---------------------------------------------------------------- ko

KO = """
    . . . . .
    . X O . .
    X O . O .
    . X O . .
    . . . . .
"""


def test_taking_a_ko_sets_the_ko_point_for_the_opponent():
    board = board_from_ascii(KO)
    assert board.ko_point is None
    assert board.play(BLACK, "C3").captured == ["B3"]
    assert board.to_move == WHITE
    assert board.ko_point == "B3"
    board.check_consistency()


def test_immediate_ko_retake_is_illegal():
    board = board_from_ascii(KO)
    board.play(BLACK, "C3")
    assert_illegal(board, WHITE, "B3", "ko")
    assert_illegal(board, "w", "b3", "ko")


def test_ko_retake_is_legal_after_a_move_elsewhere():
    board = board_from_ascii(KO)
    board.play(BLACK, "C3")
    board.play(WHITE, "E5")  # a ko threat
    assert board.ko_point is None
    board.play(BLACK, "E1")
    assert board.is_legal(WHITE, "B3")
    assert board.play(WHITE, "B3").captured == ["C3"]
    assert board.ko_point == "C3"  # now black may not retake at once
    assert_illegal(board, BLACK, "C3", "ko")
    board.check_consistency()


def test_passes_lift_the_ko():
    board = board_from_ascii(KO)
    board.play(BLACK, "C3")
    board.play(WHITE, "pass")
    board.play(BLACK, "pass")
    assert board.passes == 2
    assert board.ko_point is None
    assert board.play(WHITE, "B3").captured == ["C3"]
    assert board.passes == 0


def test_capturing_one_stone_with_a_stone_that_keeps_liberties_is_not_ko():
    board = board_from_ascii("""
        . . . . .
        . . . . .
        . X . . .
        X O X . .
        . . . . .
    """)
    assert board.play(BLACK, "B1").captured == ["B2"]
    assert board.ko_point is None
    assert_illegal(board, WHITE, "B2", "suicide")  # not "ko": B1 has three liberties


def test_the_ko_point_stays_in_the_playable_set():
    board = board_from_ascii(KO)
    board.play(BLACK, "C3")
    # B3 is eye-like for black and C3 is in atari: playable for white, removed only at choice time
    assert board.playable(WHITE)[2 * 5 + 1]
    assert board.ko_point == "B3"


# ---------------------------------------------------------------- suicide

LONE_SUICIDE = """
    . X . . .
    X . X . .
    . X . . .
    . . . . .
    . . . . .
"""

CORNER_SUICIDE = """
    . . .
    X . .
    . X .
"""

STRING_SUICIDE = """
    . . . . .
    . . . . .
    X X . . .
    O X . . .
    . X . . .
"""


@pytest.mark.parametrize("allow_suicide", [False, True])
def test_single_stone_suicide_is_always_illegal(allow_suicide):
    board = board_from_ascii(LONE_SUICIDE, to_move=WHITE, allow_suicide=allow_suicide)
    assert_illegal(board, WHITE, "B4", "suicide")


@pytest.mark.parametrize("allow_suicide", [False, True])
def test_single_stone_suicide_in_the_corner_is_always_illegal(allow_suicide):
    board = board_from_ascii(CORNER_SUICIDE, to_move=WHITE, allow_suicide=allow_suicide)
    assert_illegal(board, WHITE, "A1", "suicide")


def test_multi_stone_suicide_is_illegal_by_default():
    board = board_from_ascii(STRING_SUICIDE, to_move=WHITE)
    assert_illegal(board, WHITE, "A1", "suicide")


def test_multi_stone_suicide_removes_the_string_when_allowed():
    board = board_from_ascii(STRING_SUICIDE, to_move=WHITE, allow_suicide=True)
    assert board.is_legal(WHITE, "A1")
    result = board.play(WHITE, "A1")
    assert result.captured == []
    assert board.color_at("A1") == EMPTY and board.color_at("A2") == EMPTY
    assert board.stones(WHITE).count() == 0
    assert board.stones(BLACK).count() == 4
    assert board.captures(BLACK) == 2  # suicided stones count for the opponent
    assert board.to_move == BLACK
    board.check_consistency()


def test_multi_stone_suicide_reports_every_stone_lost_including_the_one_played():
    board = board_from_ascii(STRING_SUICIDE, to_move=WHITE, allow_suicide=True)
    result = board.play(WHITE, "A1")
    assert sorted(result.suicided) == ["A1", "A2"]
    assert len(result.suicided) == board.captures(BLACK)


# ---------------------------------------------------------------- other illegal moves and bad input

def test_playing_on_a_stone_is_illegal():
    board = board_from_ascii(KO)
    assert_illegal(board, BLACK, "B4", "occupied")
    assert_illegal(board, WHITE, "B3", "occupied")
    assert_illegal(board, WHITE, board.geometry.point(2, 1), "occupied")


@pytest.mark.parametrize("vertex", ["F1", "A6", "Z25", "A0", 0, 7, 48, -7])
def test_playing_off_the_board_is_illegal(vertex):
    board = board_from_ascii(KO)
    assert_illegal(board, BLACK, vertex, "off board")


@pytest.mark.parametrize("vertex", ["", "C", "33", "I3", "C3C", "C-3", None, 2.0, True, ("C", 3)])
def test_malformed_vertex_raises_value_error_and_changes_nothing(vertex):
    board = board_from_ascii(KO)
    board.play(BLACK, "C3")
    before = snapshot(board)
    for call in (board.play, board.is_legal):
        with pytest.raises(ValueError) as error:
            call(WHITE, vertex)
        assert not isinstance(error.value, IllegalMove)
    assert snapshot(board) == before
    board.check_consistency()


@pytest.mark.parametrize("colour", ["red", 3, True, None, 0, "", "bw", 1.0, False])
def test_bad_colour_raises_value_error_and_changes_nothing(colour):
    board = board_from_ascii(KO)
    board.play(BLACK, "C3")
    before = snapshot(board)
    calls = [lambda: board.play(colour, "E5"), lambda: board.play(colour, "pass"),
             lambda: board.is_legal(colour, "E5"), lambda: board.stones(colour),
             lambda: board.playable(colour), lambda: board.eyes(colour), lambda: board.captures(colour)]
    for call in calls:
        with pytest.raises(ValueError, match="black or white"):
            call()
    with pytest.raises(ValueError, match="black or white"):
        board.to_move = colour
    assert snapshot(board) == before
    board.check_consistency()


def test_pass_changes_only_the_side_to_move_and_the_pass_count():
    board = board_from_ascii(KO)
    stones = board.stones(BLACK), board.stones(WHITE), board.hash
    assert board.play(BLACK, "pass").point == PASS
    assert (board.stones(BLACK), board.stones(WHITE), board.hash) == stones
    assert board.to_move == WHITE and board.passes == 1 and board.last_move == PASS


def test_a_move_updates_side_to_move_and_last_move():
    board = Board(9)
    assert board.to_move == BLACK and board.last_move is None
    result = board.play("b", "e5")
    assert result.point == board.geometry.point(4, 4)
    assert board.to_move == WHITE and board.last_move == result.point
    assert board.color_at("E5") == BLACK


def test_colour_at_names_the_stone_and_refuses_pass_and_off_board_points():
    board = board_from_ascii(KO)
    assert [board.color_at(v) for v in ("B4", "C4", "C3", "c4")] == [BLACK, WHITE, EMPTY, WHITE]
    for vertex in ("pass", "F1", "Q"):
        with pytest.raises(ValueError):
            board.color_at(vertex)


def test_copy_is_independent():
    board = board_from_ascii(KO)
    before = snapshot(board)
    other = board.copy()
    other.play(BLACK, "C3")
    other.play(WHITE, "E5")
    assert snapshot(board) == before
    assert other.color_at("B3") == EMPTY and board.color_at("B3") == WHITE
    assert board_from_ascii(STRING_SUICIDE, to_move="w", allow_suicide=True).copy().is_legal("w", "A1")
    board.check_consistency()
    other.check_consistency()


@pytest.mark.parametrize("diagram", ["", ". .\n. . .", ". . .\n. . .", ". Z\n. .", "X\n", ". X\nX O", "O X\nX ."])
def test_bad_diagrams_raise_value_error(diagram):
    with pytest.raises(ValueError):
        board_from_ascii(diagram)


def test_diagram_round_trips_through_str():
    board = board_from_ascii(KO)
    lines = str(board).splitlines()
    assert lines[0].split() == list("ABCDE") == lines[-1].split()
    rows = [line.split() for line in lines[1:-1]]
    assert [row[0] for row in rows] == ["5", "4", "3", "2", "1"] == [row[-1] for row in rows]
    want = "\n".join(" ".join(line.split()) for line in KO.strip().splitlines())
    assert "\n".join(" ".join(row[1:-1]) for row in rows) == want
    assert str(board_from_ascii(str(board))) == str(board)  # and it reads its own printed form back


@pytest.mark.parametrize("size", [2, 5, 9, 10, 19, 25])
def test_a_printed_board_reads_back_as_the_same_position(size):
    import random
    board, rng = Board(size), random.Random(size)
    for _ in range(size * size):
        moves = [i for i, bit in enumerate(board.playable(board.to_move)) if bit]
        if not moves:
            break
        try:
            board.play(board.to_move, divmod(rng.choice(moves), size))
        except IllegalMove:  # the ko point is in playable()
            board.play(board.to_move, "pass")
    again = board_from_ascii(str(board))
    assert str(again) == str(board) and again.size == size
    again.check_consistency()


# ---------------------------------------------------------------- eyes and playable sets

def assert_sets(board, rules, diagram, black_eyes=(), white_eyes=(), not_playable_black=(), not_playable_white=()):
    """eyes(C) are exactly the given points; playable(C) is every empty point but the given ones."""
    size = board.size
    empty = empty_points(diagram, rules)
    assert board.eyes(BLACK) == rules.bits(size, black_eyes)
    assert board.eyes(WHITE) == rules.bits(size, white_eyes)
    assert board.playable(BLACK) == rules.bits(size, [p for p in empty if p not in not_playable_black])
    assert board.playable(WHITE) == rules.bits(size, [p for p in empty if p not in not_playable_white])
    board.check_consistency()


EYE_MIDDLE = """
    . . . . .
    . . X . .
    . X . X .
    . . X . .
    . . . . .
"""


def test_real_eye_in_the_middle(rules):
    board = board_from_ascii(EYE_MIDDLE)
    assert_sets(board, rules, EYE_MIDDLE, black_eyes=["C3"], not_playable_black=["C3"], not_playable_white=["C3"])


def test_eye_in_the_middle_with_one_opponent_diagonal_is_real(rules):
    diagram = """
        . . . . .
        . O X . .
        . X . X .
        . . X . .
        . . . . .
    """
    board = board_from_ascii(diagram)
    assert_sets(board, rules, diagram, black_eyes=["C3"], not_playable_black=["C3"], not_playable_white=["C3"])


def test_false_eye_in_the_middle_is_playable_for_its_owner(rules):
    diagram = """
        . . . . .
        . O X . .
        . X . X .
        . . X O .
        . . . . .
    """
    board = board_from_ascii(diagram)
    # two white diagonals: false, so black may fill it; white still may not (no capture)
    assert_sets(board, rules, diagram, not_playable_white=["C3"])


def test_real_eye_on_the_edge(rules):
    diagram = """
        . . . . .
        . . . . .
        . . . . .
        . . X . .
        . X . X .
    """
    board = board_from_ascii(diagram)
    assert_sets(board, rules, diagram, black_eyes=["C1"], not_playable_black=["C1"], not_playable_white=["C1"])


def test_false_eye_on_the_edge_with_one_opponent_diagonal(rules):
    diagram = """
        . . . . .
        . . . . .
        . . . . .
        . O X . .
        . X . X .
    """
    board = board_from_ascii(diagram)
    assert_sets(board, rules, diagram, not_playable_white=["C1"])


def test_real_eye_in_the_corner(rules):
    diagram = """
        . . . .
        . . . .
        X . . .
        . X . .
    """
    board = board_from_ascii(diagram, to_move=WHITE)
    assert_sets(board, rules, diagram, black_eyes=["A1"], not_playable_black=["A1"], not_playable_white=["A1"])


def test_false_eye_in_the_corner_with_one_opponent_diagonal(rules):
    diagram = """
        . . . .
        . . . .
        X O . .
        . X . .
    """
    board = board_from_ascii(diagram)
    assert_sets(board, rules, diagram, not_playable_white=["A1"])


def test_white_eyes_mirror_black_eyes(rules):
    diagram = """
        . O . . .
        O . O . .
        . O . . .
        . . . . O
        . . . O .
    """
    board = board_from_ascii(diagram)
    eyes = ["A5", "B4", "E1"]  # a corner, the middle, a corner
    assert_sets(board, rules, diagram, white_eyes=eyes, not_playable_white=eyes, not_playable_black=eyes)


def test_opponent_eye_is_playable_when_it_captures_the_surrounding_string(rules):
    diagram = """
        . . . . .
        . . . . .
        O O . . .
        X X O . .
        . X O . .
    """
    board = board_from_ascii(diagram, to_move=WHITE)
    # A1 is a real black eye, but the black string around it has no other liberty
    assert_sets(board, rules, diagram, black_eyes=["A1"], not_playable_black=["A1"])
    assert sorted(board.play(WHITE, "A1").captured) == ["A2", "B1", "B2"]


def test_opponent_eye_becomes_playable_when_its_string_falls_into_atari(rules):
    diagram = """
        . . . . .
        . . . . .
        O O . . .
        X X . . .
        . X O . .
    """
    board = board_from_ascii(diagram, to_move=WHITE)
    assert_sets(board, rules, diagram, black_eyes=["A1"], not_playable_black=["A1"], not_playable_white=["A1"])
    board.play(WHITE, "C2")
    assert board.playable(WHITE)[0]  # A1 is bit 0
    board.play(BLACK, "C3")  # does not help: C3 is not a liberty of the string
    assert board.playable(WHITE)[0]
    board.check_consistency()


def test_opponent_eye_stops_being_playable_when_its_string_leaves_atari():
    board = board_from_ascii("""
        . . . . .
        . . . . .
        O O X . .
        X X O . .
        . X O X .
    """)
    assert board.playable(WHITE)[0]  # A1: the string A2-B2-B1 is in atari
    assert sorted(board.play(BLACK, "D2").captured) == ["C1", "C2"]
    assert not board.playable(WHITE)[0]  # the capture gave the string two liberties
    assert board.eyes(BLACK)[0]
    board.check_consistency()


# ---------------------------------------------------------------- area scoring

def owner_rows(board):
    """owners() as diagram rows, top row first: X, O or '.' for nobody."""
    owners = board.owners().reshape(board.size, board.size)
    return [" ".join(".XO"[v] for v in row) for row in owners[::-1]]


def test_area_counts_stones_and_regions_bordered_by_one_colour():
    board = board_from_ascii("""
        . . X O .
        . . X O .
        . . X O .
        . . X O .
        . . X O .
    """)
    assert board.area_score() == 15 - 10
    assert board.area_score(7.5) == 5 - 7.5
    assert owner_rows(board) == ["X X X O O"] * 5


def test_dame_counts_for_nobody():
    board = board_from_ascii("""
        . X . O .
        . X . O .
        . X . O .
        . X . O .
        . X . O .
    """)
    assert board.area_score() == 0
    assert board.area_score(0.5) == -0.5
    assert owner_rows(board) == ["X X . O O"] * 5


def test_region_shared_in_a_seki_counts_for_nobody():
    board = board_from_ascii("""
        X . . O
        X . . O
        X X O O
        . X O .
    """)
    assert board.area_score() == 6 - 6
    assert owner_rows(board) == ["X . . O", "X . . O", "X X O O", "X X O O"]


def test_area_of_the_empty_board_is_zero_and_one_stone_owns_it_all():
    board = Board(9)
    assert board.area_score() == 0
    assert board.area_score(6.5) == -6.5
    board.play(WHITE, "E5")
    assert board.area_score(6.5) == -81 - 6.5


# ---------------------------------------------------------------- Zobrist hash

def test_hash_is_equal_for_the_same_position_reached_by_different_move_orders():
    one, two = Board(9), Board(9)
    for color, vertex in [(BLACK, "D4"), (WHITE, "E5"), (BLACK, "C3"), (WHITE, "F6")]:
        one.play(color, vertex)
    for color, vertex in [(BLACK, "C3"), (WHITE, "F6"), (BLACK, "D4"), (WHITE, "E5")]:
        two.play(color, vertex)
    assert one.hash == two.hash
    three = Board(9)
    for color, vertex in [(BLACK, "C3"), (WHITE, "E5"), (BLACK, "D4"), (WHITE, "pass"), (WHITE, "F6")]:
        three.play(color, vertex)
    assert three.hash == one.hash


def test_hash_depends_on_stones_and_colours_only():
    diagram = """
        . . .
        . X .
        O . .
    """
    assert board_from_ascii(diagram, to_move=BLACK).hash == board_from_ascii(diagram, to_move=WHITE).hash
    swapped = board_from_ascii(diagram.replace("X", "o").replace("O", "X").replace("o", "O"))
    assert swapped.hash != board_from_ascii(diagram).hash
    assert Board(3).hash != board_from_ascii(diagram).hash
    assert 0 <= board_from_ascii(diagram).hash < 2**64


def test_hash_after_a_capture_is_the_hash_of_the_position_without_the_captured_stones():
    diagram = """
        . . X . .
        X O O X .
        . X X . .
        . . . . .
        . . . . .
    """
    board = board_from_ascii(diagram)
    before = board.hash
    board.play(BLACK, "B5")
    after = board_from_ascii("""
        . X X . .
        X . . X .
        . X X . .
        . . . . .
        . . . . .
    """)
    assert board.hash == after.hash
    assert board.hash != before


def test_hash_is_restored_when_stones_come_off_again():
    start = """
        . . . . .
        . . . . .
        X X X . .
        O O O X .
        O . . X .
    """
    board = board_from_ascii(start)
    board.play(BLACK, "B1")
    board.play(WHITE, "C1")  # takes B1 back off
    assert board.hash == board_from_ascii(start.replace("O . . X .", "O . O X .")).hash
    board.play(BLACK, "B1")  # snapback: five white stones off
    assert board.hash == board_from_ascii("""
        . . . . .
        . . . . .
        X X X . .
        . . . X .
        . X . X .
    """).hash


def test_hash_returns_to_the_same_value_around_a_ko():
    board = board_from_ascii(KO)
    board.play(BLACK, "C3")
    board.play(WHITE, "E5")
    board.play(BLACK, "E1")
    board.play(WHITE, "B3")  # retakes
    assert board.hash == board_from_ascii("""
        . . . . O
        . X O . .
        X O . O .
        . X O . .
        . . . . X
    """).hash


# ---------------------------------------------------------------- consistency

@pytest.mark.parametrize("size", range(2, 10))
def test_random_games_stay_consistent_after_every_move(size):
    rnd = random.Random(size)
    seen = {"captured": 0, "suicided": 0, "illegal": 0}
    for game in range(6):
        board = Board(size, allow_suicide=game % 2 == 1)
        names = [board.geometry.name(p) for p in board.geometry.points]
        color = BLACK
        for _ in range(3 * size * size):
            legal = [name for name in names if board.is_legal(color, name)]
            illegal = [name for name in names if not board.is_legal(color, name)]
            if illegal and rnd.random() < 0.2:
                before = snapshot(board)
                with pytest.raises(IllegalMove):
                    board.play(color, rnd.choice(illegal))
                assert snapshot(board) == before
                seen["illegal"] += 1
            if not legal or rnd.random() < 0.05:
                board.play(color, "pass")
            else:
                result = board.play(color, rnd.choice(legal))
                seen["captured"] += bool(result.captured)
                seen["suicided"] += bool(result.suicided)
            board.check_consistency()
            owners = board.owners()  # the scan of every point, against the list-of-empties count
            assert board.area_score() == np.count_nonzero(owners == BLACK) - np.count_nonzero(owners == WHITE)
            if rnd.random() < 0.1:  # one point's owner (what the search's criticality reads), against the scan
                k = rnd.randrange(size * size)
                s, _ = board._state()
                assert _point_owner(s.copy(), int(board.geometry.points[k])) == owners[k]
            color = 3 - color
    assert seen["captured"] and seen["illegal"]
    assert seen["suicided"] or size < 4


@pytest.mark.parametrize("vertex", ["C3", "D4"])
def test_consistency_check_catches_a_wrong_empty_set_bit(vertex):
    board = board_from_ascii(EYE_MIDDLE)
    s, z = board._state()
    p = board.geometry.parse(vertex)  # an empty point, then a stone
    bk.empty_words(z, board.geometry.nwords)[p >> 6] ^= np.uint64(1) << np.uint64(p & 63)
    with pytest.raises(BoardInconsistent, match="empty-set bit differs"):
        board.check_consistency()


def test_consistency_check_catches_a_wrong_hash():
    board = board_from_ascii(EYE_MIDDLE)
    board._state()[1][0] ^= np.uint64(1)
    with pytest.raises(BoardInconsistent, match="hash"):
        board.check_consistency()


@pytest.mark.parametrize("section", ["PLN", "PLS", "PLQ"])
def test_consistency_check_catches_a_wrong_pseudo_liberty_field(section):
    board = board_from_ascii(EYE_MIDDLE)
    s, _ = board._state()
    head = bk.section_view(s, bk.HEAD)[board.geometry.parse("C4")]
    bk.section_view(s, getattr(bk, section))[head] += 1
    with pytest.raises(BoardInconsistent, match="pseudo-liberty"):
        board.check_consistency()


def test_consistency_check_catches_a_stone_changed_behind_its_back():
    board = board_from_ascii(EYE_MIDDLE)
    s, _ = board._state()
    bk.colors_view(s)[board.geometry.parse("A1")] = BLACK
    with pytest.raises(BoardInconsistent):
        board.check_consistency()


def test_consistency_check_catches_a_wrong_stone_balance():
    board = board_from_ascii(EYE_MIDDLE)
    board._state()[0][bk.M_BALANCE] += 1
    with pytest.raises(BoardInconsistent, match="balance"):
        board.check_consistency()


def test_consistency_check_catches_a_head_entry_off_the_array_at_an_empty_point():
    board = board_from_ascii(EYE_MIDDLE)
    s, _ = board._state()
    # empty points keep a stale head, but it must name a point: branch-free readers load there
    bk.section_view(s, bk.HEAD)[board.geometry.parse("C3")] = -1
    with pytest.raises(BoardInconsistent, match="head"):
        board.check_consistency()


def _break_ring(board, s):
    bk.colors_view(s)[0] = EMPTY  # a sentinel point made empty


def _break_counts(board, s):
    bk.section_view(s, bk.NBR)[board.geometry.parse("C3")] += 1


def _break_list(board, s):
    p = board.geometry.parse("C4")
    bk.section_view(s, bk.NEXT)[p] = board.geometry.parse("B3")  # a stone of another string


def _break_size(board, s):
    bk.section_view(s, bk.SSIZE)[bk.section_view(s, bk.HEAD)[board.geometry.parse("C4")]] += 1


def _break_ko(board, s):
    s[bk.M_KO] = board.geometry.parse("C4")  # a stone


@pytest.mark.parametrize("damage, message", [
    (_break_ring, "colour array"), (_break_counts, "neighbour counts"), (_break_list, "stone list"),
    (_break_size, "string size"), (_break_ko, "ko point"),
])
def test_consistency_check_names_each_field_it_finds_wrong(damage, message):
    board = board_from_ascii(EYE_MIDDLE)
    board.check_consistency()
    damage(board, board._state()[0])
    with pytest.raises(BoardInconsistent, match=message):
        board.check_consistency()


# ---------------------------------------------------------------- liberties on demand (pseudo-liberty kernel)

def test_a_liberty_touching_three_stones_of_a_string_counts_once():
    board = board_from_ascii("""
        . . . . .
        . X X X .
        . X . X .
        . . . . .
        . . . . .
    """)
    # C3 touches B3, C4 and D3: three pseudo-liberties, one liberty
    assert board.liberties("C4") == 10


def test_liberties_of_a_string_in_atari_is_one():
    board = board_from_ascii("""
        X O . .
        . O . .
        O . . .
        . . . .
    """)
    assert board.liberties("A4") == 1 and board.liberties("B4") == 4


def test_liberties_at_an_empty_point_is_an_error():
    with pytest.raises(ValueError, match="no stone"):
        Board(9).liberties("E5")


def _random_position(size, moves, seed):
    """A board after `moves` random legal moves (fixed seed), passing when stuck."""
    rng = random.Random(seed)
    board = Board(size)
    color = BLACK
    for _ in range(moves):
        empties = [p for p in board.geometry.points if board.is_legal(color, int(p))]
        if empties:
            board.play(color, int(rng.choice(empties)))
        color = WHITE if color == BLACK else BLACK
    return board


@pytest.mark.parametrize("size, moves, seed", [(5, 30, 1), (7, 60, 2), (9, 120, 3), (9, 200, 4), (13, 250, 5)])
def test_liberty_counts_and_other_liberties_agree_with_a_flood_fill(size, moves, seed):
    from foogo.game import board_strings
    board = _random_position(size, moves, seed)
    board.check_consistency()
    s, _ = board._state()
    P, w = board.geometry.npoints, board.geometry.width
    for _color, stones, libs in board_strings(board):
        assert board.liberties(int(stones[0])) == len(libs)
        head = int(bk.section_view(s, bk.HEAD)[stones[0]])
        for p in libs:  # other_liberties(h, p) for each liberty p: the others, counted up to 2
            others = libs - {p}
            count, lib = _other_liberties(s, P, w, head, p)
            assert count == min(len(others), 2)
            assert lib == (next(iter(others)) if len(others) == 1 else -1)


@njit
def _point_owner(s, p):
    """board_kernels.point_owner (an inline kernel helper), callable from a test."""
    return bk.point_owner(s, p)


@njit
def _other_liberties(s, P, w, h, p):
    """board_kernels.other_liberties (an inline kernel helper), callable from a test."""
    return bk.other_liberties(s, P, w, h, p)


@pytest.mark.parametrize("size", [2, 5, 9, 19, 25])
def test_row_col_is_divmod_by_the_width(size):
    s, _ = Board(size)._state()
    w = int(s[bk.M_W])
    assert [bk.row_col.py_func(s, p) for p in range(int(s[bk.M_P]))] == [divmod(p, w) for p in range(int(s[bk.M_P]))]


def test_a_ragged_diagram_is_refused_in_one_short_line():
    with pytest.raises(ValueError) as refused:
        board_from_ascii("X\n" * 100_000)
    assert len(str(refused.value)) < 200 and "100000 rows" in str(refused.value)


def test_board_arguments_of_the_wrong_kind_are_refused():
    with pytest.raises(ValueError, match="allow_suicide"):
        Board(9, allow_suicide="no")  # bool("no") is True
    for komi in (float("nan"), None, 1e308):
        with pytest.raises(ValueError, match="komi"):
            Board(9).area_score(komi)
    assert Board(9).area_score(7) == -7.0
