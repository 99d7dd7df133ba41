"""Geometry: GTP names both ways on every size, the padded layout, sizes and colours.

Expected names are built here from the alphabet (A..Z without I), never read back from
foogo.geometry's own tables.
"""

import string

import numpy as np
import pytest

import foogo
from foogo import BLACK, PASS, WHITE, Board, geometry, opponent, parse_color
from foogo.geometry import OffBoardError

LETTERS = [letter for letter in string.ascii_uppercase if letter != "I"]
SIZES = range(2, 26)


@pytest.mark.parametrize("size", SIZES)
def test_gtp_names_round_trip_on_every_point(size):
    g = geometry(size)
    for row in range(size):
        for col in range(size):
            name = f"{LETTERS[col]}{row + 1}"
            p = g.parse(name)
            assert p == (row + 1) * (size + 2) + col + 1  # the documented padded layout
            assert g.parse(name.lower()) == p
            assert g.parse(f" {name} ") == p
            assert g.parse(p) == p  # a padded index is accepted as it is
            assert g.name(p) == name
            assert g.row_col(p) == (row, col)
            assert g.bit_of[p] == row * size + col
            assert g.points[row * size + col] == p


@pytest.mark.parametrize("size", SIZES)
def test_exactly_the_board_points_are_on_board(size):
    g = geometry(size)
    assert g.width == size + 2
    assert g.npoints == (size + 2) ** 2
    assert int(g.onboard.sum()) == size * size
    named = [p for p in range(g.npoints) if g.names[p]]
    assert sorted(named) == sorted(g.points.tolist())
    assert len(set(g.names[p] for p in named)) == size * size


@pytest.mark.parametrize("size", [2, 9, 19, 25])
def test_neighbour_and_diagonal_offsets_reach_the_adjacent_points(size):
    g = geometry(size)
    for row in range(size):
        for col in range(size):
            p = g.point(row, col)
            orth = {(row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1)}
            diag = {(row - 1, col - 1), (row - 1, col + 1), (row + 1, col - 1), (row + 1, col + 1)}
            for offsets, expected in ((g.neighbours, orth), (g.diagonals, diag)):
                reached = {p + int(d) for d in offsets}
                assert reached == {(r + 1) * g.width + c + 1 for r, c in expected}
                for r, c in expected:  # the sentinel ring holds exactly the off-board ones
                    q = (r + 1) * g.width + c + 1
                    assert bool(g.onboard[q]) == (0 <= r < size and 0 <= c < size)


def test_columns_skip_i_up_to_z_on_25x25():
    g = geometry(25)
    assert [g.name(g.point(0, col)) for col in range(25)] == [f"{letter}1" for letter in "ABCDEFGHJKLMNOPQRSTUVWXYZ"]
    assert g.parse("H1") + 1 == g.parse("J1")


@pytest.mark.parametrize("text", ["pass", "PASS", "Pass", "  pass\n"])
def test_pass_is_read_in_any_case(text):
    assert geometry(9).parse(text) == PASS


def test_pass_index_and_name():
    g = geometry(9)
    assert g.parse(PASS) == PASS
    assert g.name(PASS) == "pass"


def test_geometry_is_built_once_per_size():
    assert geometry(9) is geometry(9)
    assert geometry(9) is not geometry(13)


def test_zobrist_keys_are_distinct_for_every_stone_and_zero_for_empty():
    g = geometry(19)
    keys = [int(g.zobrist[colour * g.npoints + p]) for colour in (BLACK, WHITE) for p in g.points]
    assert len(set(keys)) == len(keys)
    assert 0 not in keys
    assert not g.zobrist[: g.npoints].any()


# ---------------------------------------------------------------- bad vertices

MALFORMED = ["", " ", "D", "4", "DD", "D4x", "4D", "D-1", "D+4", "D 4", "D4.0", "I5", "i5", "Ä4", "D\u0664",
             "passs", "pas", "resign", "D\u00b2"]


@pytest.mark.parametrize("vertex", MALFORMED)
def test_malformed_vertex_raises_value_error_not_off_board(vertex):
    with pytest.raises(ValueError, match="malformed|vertex") as error:
        geometry(9).parse(vertex)
    assert not isinstance(error.value, OffBoardError)


@pytest.mark.parametrize("vertex", [None, 4.0, True, False, b"D4", ["D4"]])
def test_vertex_of_the_wrong_type_raises_value_error(vertex):
    with pytest.raises(ValueError, match="GTP name") as error:
        geometry(9).parse(vertex)
    assert not isinstance(error.value, OffBoardError)


def test_a_row_col_pair_counts_from_a1():
    g = geometry(9)
    assert g.name(g.parse((0, 0))) == "A1" and g.name(g.parse((3, 2))) == "C4" and g.name(g.parse((8, 8))) == "J9"
    with pytest.raises(OffBoardError):
        g.parse((9, 0))
    with pytest.raises(OffBoardError):
        g.parse((0, -1))
    for bad in [(1,), (1, 2, 3), (1.0, 2), (True, 2), ("D", 4)]:
        with pytest.raises(ValueError, match="row, col") as error:
            g.parse(bad)
        assert not isinstance(error.value, OffBoardError)


@pytest.mark.parametrize("size, vertex", [(9, "J10"), (9, "K1"), (9, "A0"), (9, "Z25"), (19, "U1"), (19, "A20"),
                                          (2, "C1"), (2, "A3"), (25, "A26"), (9, "A99999999999999999999"),
                                          (9, "A" + "1" * 5000)])  # past int()'s 4,300 digits: its own error
def test_well_formed_vertex_off_the_board_raises_off_board_error(size, vertex):
    with pytest.raises(OffBoardError, match="off the"):
        geometry(size).parse(vertex)


@pytest.mark.parametrize("vertex", [10**5000, -10**5000, (10**5000, 0), (0, -10**5000)],
                         ids=["index", "negative index", "row", "column"])
def test_an_integer_past_pythons_digit_limit_is_off_the_board_not_pythons_own_error(vertex):
    # the message named it with repr, which raises ValueError past 4,300 digits
    with pytest.raises(OffBoardError, match="off the|not on"):
        geometry(9).parse(vertex)
    with pytest.raises(ValueError, match="two integers, got a tuple too large to show"):
        geometry(9).parse((1, 2, 10**5000))


@pytest.mark.parametrize("index", [0, 1, 10, 11, 120, 121, 10**6, -2, -100])
def test_point_index_off_the_board_raises_off_board_error(index):
    with pytest.raises(OffBoardError, match="not on"):
        geometry(9).parse(index)  # 9x9 padded: 0..120, ring at 0..10, 11, ...; 121 is past the end


@pytest.mark.parametrize("index", [0, 11, 121, -5])
def test_naming_an_off_board_index_raises(index):
    with pytest.raises(ValueError, match="not on"):
        geometry(9).name(index)


def test_numpy_integer_vertex_is_accepted():
    g = geometry(9)
    assert g.parse(np.int32(g.point(3, 3))) == g.point(3, 3)
    assert g.parse(np.int64(PASS)) == PASS


# ---------------------------------------------------------------- sizes


@pytest.mark.parametrize("size", [0, 1, 26, 100, -9])
def test_size_out_of_range_raises_saying_what_is_allowed(size):
    for make in (geometry, Board):
        with pytest.raises(ValueError, match="from 2 to 25"):
            make(size)


@pytest.mark.parametrize("size", [9.0, 9.5, "9", None, True, False, np.float64(9)])
def test_size_that_is_not_an_integer_raises_saying_what_is_allowed(size):
    for make in (geometry, Board):
        with pytest.raises(ValueError, match="integer from 2 to 25"):
            make(size)


@pytest.mark.parametrize("size", [[9], {9: 9}])
def test_unhashable_size_raises_value_error_saying_what_is_allowed(size):
    with pytest.raises(ValueError, match="integer from 2 to 25"):
        Board(size)


def test_numpy_integer_size_is_accepted():
    assert Board(np.int64(9)).size == 9
    assert isinstance(Board(np.int64(9)).size, int)


# ---------------------------------------------------------------- colours


@pytest.mark.parametrize("word, colour", [("b", BLACK), ("B", BLACK), ("black", BLACK), ("BLACK", BLACK),
                                          (" Black ", BLACK), ("w", WHITE), ("W", WHITE), ("white", WHITE),
                                          ("White", WHITE), (BLACK, BLACK), (WHITE, WHITE),
                                          (np.int8(WHITE), WHITE)])
def test_colour_words_and_constants_are_accepted(word, colour):
    assert parse_color(word) == colour


@pytest.mark.parametrize("bad", ["red", "", "bl", "x", "o", "empty", 0, 3, -1, True, False, None, 1.0, "1"])
def test_bad_colour_raises_naming_the_accepted_words(bad):
    with pytest.raises(ValueError, match="black or white"):
        parse_color(bad)


def test_opponent_swaps_the_colours():
    assert opponent(BLACK) == WHITE and opponent(WHITE) == BLACK


def test_constants_are_distinct():
    assert len({foogo.EMPTY, BLACK, WHITE}) == 3
    assert PASS not in set(geometry(9).points.tolist())


def test_point_and_name_refuse_what_is_off_the_board():
    g = geometry(9)
    with pytest.raises(OffBoardError):
        g.point(-5, 100)
    with pytest.raises(OffBoardError):
        g.point(9, 0)
    with pytest.raises(ValueError, match="whole number"):
        g.name(12.0)
    assert g.name(g.point(4, 4)) == "E5" and g.name(np.int32(g.point(0, 0))) == "A1"


def test_shown_counts_the_digits_of_any_integer_exactly_without_str():
    import sys

    from foogo.numbers import shown

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)  # for the reference count only
    try:
        for digits in (41, 99, 100, 4300, 4301, 29_999):
            for value in (10 ** (digits - 1), 10**digits - 1, -(10**digits - 1)):
                assert len(str(abs(value))) == digits
                expected = f"an integer of {digits} digits"
                sys.set_int_max_str_digits(limit)
                assert shown(value) == expected
                sys.set_int_max_str_digits(0)
        for value in (2**13301, 2**26602, 2**37767):  # where 0.30103 (above log10 2) counted one digit too many
            digits = len(str(value))
            sys.set_int_max_str_digits(limit)
            assert shown(value) == f"an integer of {digits} digits"
            sys.set_int_max_str_digits(0)
    finally:
        sys.set_int_max_str_digits(limit)
    assert shown(10**40_000) == "an integer of over 30,000 digits"
    assert shown(10**40 - 1) == "9" * 40  # 40 digits: shown whole
