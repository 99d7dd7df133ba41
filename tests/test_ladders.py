"""The ladder reader (ladders.py) and the learned prior's ladder features, from small diagrams.

The expected answers of the 9x9 chases below were checked with GNU Go 3.8's `attack` (full tactical
reading, which agrees with a ladder reader on ladder shapes)."""

import numpy as np
import pytest

from foogo import BLACK, WHITE, Board, board_from_ascii
from foogo import features as fe
from foogo.ladders import _ladder_captured, default_plies, ladder_captured

# black D5 has two liberties, D6 and E5; white to play chases it to the upper left (an atari at E5)
# or to the lower right (at D6), and both ladders work on an empty board
CHASE = """
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . O . . . .
    . . O X . . . . .
    . . . O . . . . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def with_stones(diagram: str, stones: dict[str, str]) -> Board:
    """The diagram with extra stones: GTP vertex -> 'X' or 'O'."""
    rows = [line.split() for line in diagram.strip("\n").splitlines()]
    size = len(rows)
    for vertex, stone in stones.items():
        col = "ABCDEFGHJKLMNOPQRSTUVWXYZ".index(vertex[0])
        rows[size - int(vertex[1:])][col] = stone
    return board_from_ascii("\n".join(" ".join(row) for row in rows))


@pytest.mark.parametrize("stones, taken", [
    ({}, True),                           # both ways work
    ({"G3": "X"}, True),                  # a breaker on one way only: the other still works
    ({"B8": "X"}, True),
    ({"B8": "X", "F3": "X"}, False),      # a breaker on each way
    ({"C7": "X", "G3": "X"}, False),
    ({"C8": "X", "F4": "X"}, False),
    ({"B8": "O", "F3": "X"}, True),       # the attacker's own stone on the way is no breaker
])
def test_a_two_liberty_string_is_taken_unless_both_ways_are_broken(stones, taken):
    assert ladder_captured(with_stones(CHASE, stones), "D5") is taken


def test_a_string_in_atari_extends_first():
    # white E5 put D5 in atari: black extends at D6 and is chased to the upper left, unless a black stone
    # there breaks the ladder
    assert ladder_captured(with_stones(CHASE, {"E5": "O"}), "D5")
    assert not ladder_captured(with_stones(CHASE, {"E5": "O", "B8": "X"}), "D5")


def test_the_defender_escapes_by_capturing_a_chaser_in_atari():
    # black D5 is in atari (white E5), but white C5 beside it is too (its last liberty C6): black takes it
    board = with_stones(CHASE, {"E5": "O", "B5": "X", "C4": "X"})
    assert board.liberties("C5") == 1
    assert not ladder_captured(board, "D5")


def test_a_string_with_three_liberties_is_not_laddered():
    board = board_from_ascii("""
        . . . . .
        . . . . .
        . . X . .
        . . . . .
        . . . . .
    """)
    assert not ladder_captured(board, "C3")


def test_reading_leaves_the_board_unchanged_and_checks_its_vertex():
    board = with_stones(CHASE, {"E5": "O"})
    before = board.copy()
    ladder_captured(board, "D5")
    assert str(board) == str(before) and board.hash == before.hash
    board.check_consistency()
    with pytest.raises(ValueError):
        ladder_captured(board, "A1")  # empty
    with pytest.raises(ValueError):
        ladder_captured(board, "Z9")  # off the board


def test_a_ladder_across_the_largest_board_is_read_to_its_end():
    # black C3, white to play: one way runs into the lower left corner, which a black B2 breaks; the other
    # runs up the diagonal to the upper right corner of 25x25 (90-odd moves), unless a black stone waits there
    size = 25
    empty = "\n".join([" ".join(["."] * size)] * size)

    def board(stones):
        return with_stones(empty, {"C3": "X", "D3": "O", "C2": "O", "B4": "O", **stones})

    assert ladder_captured(board({}), "C3")
    assert ladder_captured(board({"B2": "X"}), "C3")
    assert not ladder_captured(board({"B2": "X", "Y24": "X"}), "C3")
    long_way = board({"B2": "X"})
    s, z = long_way._state()
    x = long_way.geometry.parse("C3")
    assert _ladder_captured(s, z, long_way.geometry.zobrist, x, default_plies.py_func(size))
    assert not _ladder_captured(s, z, long_way.geometry.zobrist, x, 40)  # cut short: "escapes"


def tactics_of(board, color, vertex):
    moves, feats = fe.candidates(board, color)
    return int(feats[np.flatnonzero(moves == board.geometry.parse(vertex))[0], fe.G_TACTICS])


def test_an_atari_is_an_atari_whether_or_not_its_ladder_works():
    # (reading it cost more than it told: see features.py)
    assert tactics_of(with_stones(CHASE, {"B8": "X", "F3": "X"}), WHITE, "E5") == fe.T_ATARI
    assert tactics_of(with_stones(CHASE, {}), WHITE, "E5") == fe.T_ATARI


def test_the_learned_prior_tells_an_escape_into_a_ladder_from_an_escape():
    assert tactics_of(with_stones(CHASE, {"E5": "O"}), BLACK, "D6") == fe.T_SAVE_LADDERED
    assert tactics_of(with_stones(CHASE, {"E5": "O", "B8": "X"}), BLACK, "D6") == fe.T_SAVE
