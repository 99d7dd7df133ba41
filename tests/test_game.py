"""Tests of the game layer: superko and suicide under both rulesets, legal moves, undo,
handicap placement, dead stones and scoring, SGF load and save."""

import random
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from foogo import game_sgf
from foogo.board import IllegalMove
from foogo.game import (
    SGF_MAX_SETUPS,
    SNAPSHOT_EVERY,
    Game,
    GameError,
    SgfError,
    fixed_handicap_points,
    format_score,
    free_handicap_points,
    max_fixed_handicap,
)
from foogo.geometry import BLACK, EMPTY, PASS, WHITE

RULES = ["chinese", "tromp-taylor"]

# Black C3 takes the ko at B3 (the STYLE.md diagram).
KO = """
    . X O .
    X O . O
    . X O .
    . . . .
"""

# Black A2 has one liberty, A1: filling it kills both black stones and captures nothing.
SUICIDE = """
    . . . .
    O O . .
    X O . .
    . O . .
"""

# A finished 7x7 game: black owns A-D, white E-G; white B3 and black F2 are dead.
FINISHED = """
    . X . X O . .
    X X X X O O O
    . . . X O . .
    X X X X O O O
    . O . X O . O
    X X X X O X O
    . X . X O . O
"""


def names(game, points):
    return [game.geometry.name(p) for p in points]


# ---------------------------------------------------------------- superko and suicide

@pytest.mark.parametrize("rules", RULES)
def test_simple_ko_blocks_the_immediate_retake(rules):
    game = Game.from_ascii(KO, rules=rules)
    assert game.play(BLACK, "C3").captured == ["B3"]
    with pytest.raises(IllegalMove) as error:
        game.play(WHITE, "B3")
    assert error.value.reason == "ko"


@pytest.mark.parametrize("rules", RULES)
def test_retaking_the_ko_after_two_passes_is_superko(rules):
    game = Game.from_ascii(KO, rules=rules)
    game.play(BLACK, "C3")
    game.play(WHITE, "pass")
    game.play(BLACK, "pass")
    before = game.state_key()
    with pytest.raises(IllegalMove) as error:
        game.play(WHITE, "B3")
    assert error.value.reason == "superko"
    assert game.state_key() == before
    assert not game.is_legal(WHITE, "B3")
    assert game.geometry.parse("B3") not in game.legal_points(WHITE)


@pytest.mark.parametrize("rules", RULES)
def test_superko_memory_forgets_undone_positions(rules):
    game = Game.from_ascii(KO, rules=rules)
    game.play(BLACK, "C3")  # captures B3
    game.undo()
    game.play(BLACK, "D1")
    game.play(WHITE, "A1")
    # C3 again: the position after it was seen only in the undone line
    assert game.play(BLACK, "C3").captured == ["B3"]


@pytest.mark.parametrize("rules", RULES)
def test_single_stone_suicide_is_illegal(rules):
    game = Game.from_ascii("""
        . O . .
        O . . .
        . . . .
        . . . .
    """, rules=rules)
    with pytest.raises(IllegalMove) as error:
        game.play(BLACK, "A4")
    assert error.value.reason == "suicide"
    assert not game.is_legal(BLACK, "A4")


def test_multi_stone_suicide_is_illegal_under_chinese_rules():
    game = Game.from_ascii(SUICIDE, rules="chinese")
    with pytest.raises(IllegalMove) as error:
        game.play(BLACK, "A1")
    assert error.value.reason == "suicide"
    assert game.board.color_at("A2") == BLACK
    assert game.geometry.parse("A1") not in game.legal_points(BLACK)


def test_multi_stone_suicide_removes_both_stones_under_tromp_taylor():
    game = Game.from_ascii(SUICIDE, rules="tromp-taylor")
    assert game.is_legal(BLACK, "A1")
    result = game.play(BLACK, "A1")
    assert "A2" in result.suicided
    assert game.board.stones(BLACK).count() == 0
    assert game.board.captures(WHITE) == 2


def test_replaying_a_suicided_stone_is_superko_under_tromp_taylor():
    game = Game.from_ascii(SUICIDE, rules="tromp-taylor")
    game.play(BLACK, "A1")  # suicide: A1 and A2 leave the board
    with pytest.raises(IllegalMove) as error:
        game.play(BLACK, "A2")  # would rebuild the starting position
    assert error.value.reason == "superko"


@pytest.mark.parametrize("rules", RULES)
def test_legal_moves_agree_with_playing_each_point(rules):
    rng = random.Random(7)
    for _ in range(6):
        game = Game(5, rules=rules)
        for _ in range(40):
            color = rng.choice([BLACK, WHITE])
            legal = game.legal_points(color)
            brute = []
            for p in game.geometry.points:
                trial = game.copy()
                try:
                    trial.play(color, int(p))
                except IllegalMove:
                    continue
                brute.append(int(p))
            assert legal == brute
            move = rng.choice(legal + [PASS])
            game.play(color, move)
            game.board.check_consistency()


# ---------------------------------------------------------------- history and undo

def test_undo_restores_the_previous_position_and_turn():
    game = Game(9)
    game.play(BLACK, "E5")
    first = game.state_key()
    game.play(WHITE, "C3")
    game.undo()
    assert game.state_key() == first
    assert game.to_move == WHITE


def test_undo_several_moves_reaches_the_base_position():
    game = Game(9)
    start = game.state_key()
    for color, vertex in [(BLACK, "E5"), (WHITE, "pass"), (BLACK, "C3")]:
        game.play(color, vertex)
    game.undo(3)
    assert game.state_key() == start


def test_undo_without_a_move_raises_and_changes_nothing():
    game = Game(9)
    with pytest.raises(GameError):
        game.undo()
    game.play(BLACK, "E5")
    with pytest.raises(GameError):
        game.undo(2)
    assert game.history == [(BLACK, game.geometry.parse("E5"))]


def test_undo_restores_captured_stones():
    game = Game.from_ascii(KO)
    game.play(BLACK, "C3")
    game.undo()
    assert game.board.color_at("B3") == WHITE
    assert game.board.captures(BLACK) == 0


def test_moves_out_of_turn_are_recorded_with_their_colour():
    game = Game(9)
    game.play(WHITE, "E5")
    game.play(WHITE, "D4")
    assert [c for c, _ in game.history] == [WHITE, WHITE]
    assert game.to_move == BLACK


def test_illegal_input_leaves_the_game_unchanged():
    game = Game(9)
    game.play(BLACK, "E5")
    before = game.state_key()
    for color, vertex in [(WHITE, "E5"), (WHITE, "Z9"), (WHITE, "E10"), ("red", "D4"), (WHITE, "4D")]:
        with pytest.raises(ValueError):
            game.play(color, vertex)
        assert game.state_key() == before


# ---------------------------------------------------------------- handicap

@pytest.mark.parametrize("size, stones, expected", [
    (9, 2, "G7 C3"),
    (9, 5, "G7 C3 C7 G3 E5"),
    (9, 9, "G7 C3 C7 G3 C5 G5 E7 E3 E5"),
    (13, 4, "K10 D4 D10 K4"),
    (13, 7, "K10 D4 D10 K4 D7 K7 G7"),
    (19, 3, "Q16 D4 D16"),
    (19, 6, "Q16 D4 D16 Q4 D10 Q10"),
    (19, 8, "Q16 D4 D16 Q4 D10 Q10 K16 K4"),
])
def test_fixed_handicap_points_are_gtps(size, stones, expected):
    # The same sets as GNU Go 3.8 answers to fixed_handicap.
    assert names(Game(size), fixed_handicap_points(size, stones)) == expected.split()


@pytest.mark.parametrize("size, most", [(5, 0), (7, 4), (8, 4), (9, 9), (12, 4), (13, 9), (19, 9), (25, 9)])
def test_fixed_handicap_limits_follow_gnugo(size, most):
    assert max_fixed_handicap(size) == most
    with pytest.raises(ValueError):
        fixed_handicap_points(size, most + 1)


def test_fixed_handicap_sets_up_stones_and_gives_white_the_move():
    game = Game(9)
    assert game.fixed_handicap(4) == ["G7", "C3", "C7", "G3"]
    assert game.board.stones(BLACK).count() == 4
    assert game.to_move == WHITE
    assert game.handicap == 4
    with pytest.raises(GameError):
        game.undo()


def test_handicap_needs_an_empty_board():
    game = Game(9)
    game.play(BLACK, "E5")
    with pytest.raises(GameError):
        game.fixed_handicap(2)
    with pytest.raises(GameError):
        game.set_free_handicap(["A1", "B1"])


def test_free_handicap_places_distinct_points():
    for size, stones in [(9, 12), (5, 7), (2, 3), (19, 20)]:
        points = free_handicap_points(size, stones)
        assert len(set(points)) == stones
    game = Game(9)
    vertices = game.place_free_handicap(6)
    assert len(vertices) == 6 and game.board.stones(BLACK).count() == 6


@pytest.mark.parametrize("vertices", [["A1"], ["A1", "A1"], ["A1", "pass"]])
def test_set_free_handicap_refuses_a_bad_vertex_list(vertices):
    game = Game(9)
    with pytest.raises(ValueError):
        game.set_free_handicap(vertices)
    assert game.is_empty()


# ---------------------------------------------------------------- scoring

def test_dead_stones_are_found_by_ownership():
    game = Game.from_ascii(FINISHED, komi=0.5)
    assert game.final_status_list("dead") == [["F2"], ["B3"]]
    assert game.final_status_list("seki") == []
    alive = game.final_status_list("alive")
    assert len(alive) == 2 and "D4" in alive[0] and "E4" in alive[1]


def test_final_score_removes_dead_stones():
    # Black A-D is 28 points, white E-G 21, komi 0.5.
    assert Game.from_ascii(FINISHED, komi=0.5).final_score() == "B+6.5"
    assert Game.from_ascii(FINISHED, komi=7).final_score() == "0"
    assert Game.from_ascii(FINISHED, komi=9).final_score() == "W+2.0"


def test_format_score():
    assert format_score(3.5) == "B+3.5"
    assert format_score(-0.5) == "W+0.5"
    assert format_score(0.0) == "0"
    assert format_score(-3.0) == "W+3.0" and format_score(-0.75) == "W+0.75" and format_score(-0.01) == "W+0.01"
    assert format_score(2.125) == "B+2.125"


def test_unknown_status_is_refused():
    with pytest.raises(ValueError):
        Game(9).final_status_list("dying")


# ---------------------------------------------------------------- SGF

def test_sgf_round_trip_keeps_setup_moves_and_passes(tmp_path):
    game = Game(9, komi=0.5)
    game.fixed_handicap(3)
    for color, vertex in [(WHITE, "E5"), (BLACK, "D4"), (WHITE, "pass"), (BLACK, "pass"), (BLACK, "J1")]:
        game.play(color, vertex)
    path = tmp_path / "game.sgf"
    path.write_text(game.to_sgf())
    loaded = Game(5)
    loaded.load_sgf(str(path))
    assert loaded.state_key() == game.state_key()
    assert "\n\n" not in game.to_sgf()


def test_load_sgf_stops_before_the_move_number(tmp_path):
    game = Game(9)
    for color, vertex in [(BLACK, "E5"), (WHITE, "C3"), (BLACK, "G7")]:
        game.play(color, vertex)
    path = tmp_path / "game.sgf"
    path.write_text(game.to_sgf())
    loaded = Game(9)
    loaded.load_sgf(str(path), move_number=3)
    assert names(loaded, [p for _, p in loaded.history]) == ["E5", "C3"]
    assert loaded.to_move == BLACK


def test_load_sgf_reads_setup_stones_and_player_to_move():
    game = Game(19)
    game.load_sgf_bytes(b"(;GM[1]FF[4]SZ[7]KM[5.5]AB[aa][bb]AW[cc]PL[W];W[dd];B[ee])")
    assert game.size == 7 and game.komi == 5.5
    assert game.base.color_at("A7") == BLACK and game.base.color_at("C5") == WHITE
    assert names(game, [p for _, p in game.history]) == ["D4", "E3"]
    assert game.to_move == WHITE


@pytest.mark.parametrize("data", [
    b"this is not sgf",
    b"(;GM[1]FF[4]SZ[40])",
    b"(;GM[1]FF[4]SZ[9];B[ee];W[ee])",  # occupied
    b"(;GM[1]FF[4]SZ[9]KM[lots])",
    b"",
    b"(;SZ[9];B[ee]W[dd])",  # two moves in one node
    b"(;SZ[9]HA[81])",  # more handicap stones than points
    b"(;SZ[9]HA[" + b"9" * 4000 + b"]KM[0];B[ee])",
    b"(;SZ[9]HA[-2])",
])
def test_corrupt_sgf_raises_and_leaves_the_game_unchanged(data):
    game = Game(9)
    game.play(BLACK, "E5")
    before = game.state_key()
    with pytest.raises(SgfError):
        game.load_sgf_bytes(data)
    assert game.state_key() == before


@pytest.mark.parametrize("prop", [b"SZ", b"KM", b"HA"])  # (an unknown CA is read as ISO-8859-1 now)
def test_a_corrupt_sgfs_message_quotes_a_long_value_in_part(prop):
    # sgfmill's error quoted the whole value: a reply of a megabyte
    with pytest.raises(SgfError, match="corrupt SGF") as error:
        Game(9).load_sgf_bytes(b"(;GM[1]FF[4]" + prop + b"[" + b"x" * 100_000 + b"])")
    assert len(str(error.value)) <= 220 and "xxx..." in str(error.value)


def test_recent_positions_are_the_positions_before_the_current_one_oldest_first():
    game = Game(19)
    boards = [game.board.copy()]
    for i in range(150):  # 300 moves, past a snapshot: black fills rows from A1, white passes
        game.play(BLACK, game.geometry.name(game.geometry.points[i]))
        boards.append(game.board.copy())
        game.play(WHITE, "pass")
        boards.append(game.board.copy())
    expected = [(b.hash, b.empty_points) for b in boards[:-1]]
    assert len(game.history) == 300 > SNAPSHOT_EVERY
    assert game.recent_positions(8) == expected[-8:]
    assert game.recent_positions(1000) == expected
    assert game.recent_positions(0) == []
    game.undo(3)
    assert game.recent_positions(5) == expected[-8:-3]
    assert Game(9).recent_positions(8) == []


def test_consecutive_setup_nodes_are_one_setup_and_each_later_one_its_own():
    game = Game(9)
    game.load_sgf_bytes(b"(;SZ[9]AB[aa];AB[bb];AW[cc]AE[aa];B[ee];AE[ee]PL[W];AB[gg])")
    assert game.base.color_at("A9") == EMPTY and game.base.color_at("B8") == BLACK
    assert game.board.color_at("E5") == EMPTY and game.board.color_at("G3") == BLACK
    assert game.board.color_at("C7") == WHITE
    assert game.to_move == WHITE  # the run's PL[W] holds for its last node, which has none
    game.load_sgf_bytes(b"(;SZ[9];B[cc];W[dd];B[ee];AB[aa])")
    assert game.to_move == WHITE  # no PL after moves: the side to move goes on
    game.load_sgf_bytes(b"(;SZ[9]AW[aa])")
    assert game.to_move == BLACK  # no PL before any move: Game.setup's choice (white stones only: black)
    game.load_sgf_bytes(b"(;SZ[9];B[cc];AB[aa]PL[B];W[bb])")
    other = Game(9)
    other.load_sgf_bytes(b"(;SZ[9];B[cc];AB[aa]PL[W];W[bb])")
    assert game.board.hash == other.board.hash and game.state_key() != other.state_key()  # whose turn after the setup


def test_a_setup_after_moves_is_a_step_of_the_history():
    # load_sgf's contract: setup nodes after moves are one step of the history, which undo takes
    # back, superko remembers, and to_sgf writes where it was
    game = Game(9)
    game.load_sgf_bytes(b"(;SZ[9];B[ee];W[cc];AB[gg]AE[cc]PL[W];W[dd])")
    name = game.geometry.name
    assert [(c, name(p)) for c, p in game.history if c != EMPTY] == [(BLACK, "E5"), (WHITE, "C7"), (WHITE, "D6")]
    assert [c for c, _ in game.history] == [BLACK, WHITE, EMPTY, WHITE]
    assert game.base.stones(BLACK).count() == game.base.stones(WHITE).count() == 0  # the empty board
    assert game.board.color_at("G3") == BLACK and game.board.color_at("C7") == EMPTY
    assert game.board.color_at("D6") == WHITE and game.last_passes() == 0
    game.undo()
    assert game.board.color_at("D6") == EMPTY and game.board.color_at("G3") == BLACK and game.to_move == WHITE
    assert game.move_count() == 2 and len(game._setups) == 1
    game.undo()  # the setup
    assert game.board.color_at("G3") == EMPTY and game.board.color_at("C7") == WHITE and game.to_move == BLACK
    assert game.move_count() == 2 and game._setups == []  # its board is not kept
    game.undo(2)
    assert game.board.stones(BLACK).count() == game.board.stones(WHITE).count() == 0
    with pytest.raises(GameError):
        game.undo()


def test_a_setup_between_moves_round_trips_through_sgf_and_counts_for_superko():
    game = Game(9)
    game.load_sgf_bytes(b"(;SZ[9];B[ee];W[cc];AB[gg]AE[cc]PL[W];W[dd];B[])")
    text = game.to_sgf()
    assert ";W[cc];AB[gg]AE[cc]PL[W];W[dd]" in text.replace("\n", "")
    again = Game(9)
    again.load_sgf_bytes(text.encode())
    assert again.state_key() == game.state_key() and again.recent_positions(10) == game.recent_positions(10)
    assert again.last_passes() == 1
    # superko's memory starts afresh at a setup (an edit of the position, as a base is): the setup
    # takes white's B4 away, and white may play it again though that repeats the stones after its
    # first B4; undo past the setup brings the memory before it back
    superko = Game(5)
    superko.load_sgf_bytes(b"(;SZ[5];B[cc];W[bb];AE[bb]PL[W])")
    empty, after_b, after_w, setup = (Game(5).board.hash, *superko._hashes)
    assert superko.board.color_at("B4") == EMPTY and superko.to_move == WHITE and setup == after_b
    assert superko.is_legal(WHITE, "B4")
    superko.play(WHITE, "B4")
    assert superko.board.hash == after_w and superko._seen == {setup: 1, after_w: 1}
    assert [h for h, _ in superko.recent_positions(10)] == [setup]  # the search's superko history too
    superko.undo()
    assert superko._seen == {setup: 1} and superko.recent_positions(10) == []
    superko.play(WHITE, "B4")
    superko.undo(2)
    assert superko._seen == {empty: 1, after_b: 1, after_w: 1} and superko.board.hash == after_w
    assert superko.recent_positions(10) == [(empty, 25), (after_b, 24)] and superko.last_passes() == 0


def test_a_game_with_setups_between_moves_copies_and_rolls_back_whole():
    game = Game(9)
    game.load_sgf_bytes(b"(;SZ[9];B[ee];AB[gg];W[cc])")
    token = game.checkpoint()
    twin = game.copy()
    game.load_sgf_bytes(b"(;SZ[9];B[aa];AW[bb];B[cc];AE[aa];W[dd])")
    assert [c for c, _ in game.history] == [BLACK, EMPTY, BLACK, EMPTY, WHITE]
    game.rollback(token)
    assert game.state_key() == twin.state_key()
    game.undo(2)
    assert game.board.color_at("G3") == EMPTY and twin.board.color_at("G3") == BLACK


def test_the_setups_between_moves_are_bounded():
    ok = b"(;SZ[9]" + b";B[aa];AE[aa]" * SGF_MAX_SETUPS + b")"
    Game(9).load_sgf_bytes(ok)
    game = Game(9)
    with pytest.raises(SgfError, match=f"setup stones more than {SGF_MAX_SETUPS} times"):
        game.load_sgf_bytes(b"(;SZ[9]AB[bb]" + b";B[aa];AE[aa]" * SGF_MAX_SETUPS + b")")
    assert game.history == [] and game.size == 9


def test_many_setup_nodes_in_a_row_load_as_one_setup():
    game = Game(9)
    game.load_sgf_bytes(b"(;SZ[25]" + b";AB[aa:bb]AE[aa:bb]" * 5000 + b";AB[mm])")  # one board rebuild
    assert game.size == 25 and game.board.color_at("N13") == BLACK
    assert game.board.stones(BLACK).count() == 1 and game.board.stones(WHITE).count() == 0


@pytest.mark.parametrize("data", [
    b"(;SZ[25];AB" + b"[aa:yy]" * 101 + b")",  # one node listing the board 101 times over
    b"(;SZ[25]" + b";AB[aa:yx]AE[aa:yx]" * 60 + b")",
])
def test_setup_lists_naming_more_than_a_hundred_boards_are_refused_before_they_are_read(data):
    game = Game(9)
    with pytest.raises(SgfError, match="setup stones .* name [0-9]+ points, over the limit"):
        game.load_sgf_bytes(data)
    assert game.size == 9


def test_an_off_board_sgf_move_is_named_in_the_error():
    game = Game(9)
    with pytest.raises(SgfError, match="node 1: B\\[zz\\] holds a point off the board or malformed"):
        game.load_sgf_bytes(b"(;SZ[9];B[zz])")  # sgfmill's own message is empty here
    assert game.history == []


def test_missing_sgf_file_raises(tmp_path):
    with pytest.raises(SgfError):
        Game(9).load_sgf(str(tmp_path / "missing.sgf"))


def test_bad_rules_and_komi_are_refused():
    with pytest.raises(ValueError):
        Game(9, rules="japanese")
    with pytest.raises(ValueError):
        Game(9, komi=float("nan"))
    with pytest.raises(ValueError, match="komi must be a finite number between -1000 and 1000"):
        Game(9).set_komi(1e308)  # finite, but its square overflows a search's score statistics
    assert Game(9, komi=-1000).komi == -1000.0
    with pytest.raises(SgfError, match="komi must be a finite number between"):
        Game(9).load_sgf_bytes(b"(;GM[1]FF[4]SZ[9]KM[99999])")
    assert Game(9, rules="Tromp-Taylor").rules == "tromp-taylor"


@pytest.mark.parametrize("komi, shown", [(None, "None"), ("seven", "'seven'"), (10**400, "an integer of 401 digits"),
                                         pytest.param(-10**5000, "an integer of 5001 digits", id="5001 digits"),
                                         (float("inf"), "inf"), ([7], "[7]")])
def test_a_komi_that_is_no_number_is_refused_by_name(komi, shown):
    game = Game(9, komi=6.5)
    expected = f"komi must be a finite number between -1000 and 1000, got {re.escape(shown)}$"
    with pytest.raises(ValueError, match=expected):
        game.set_komi(komi)
    assert game.komi == 6.5


@pytest.mark.parametrize("call, message, moves", [
    (lambda g: g.undo("1"), "moves to undo must be a whole number, got '1'", ["E5"]),
    (lambda g: g.undo(1.0), "moves to undo must be a whole number, got 1.0", ["E5"]),
    (lambda g: g.recent_positions("2"), "position count must be a whole number, got '2'", ["E5"]),
    (lambda g: g.fixed_handicap("2"), "handicap stones must be a whole number, got '2'", []),
    (lambda g: g.place_free_handicap(3.5), "handicap stones must be a whole number, got 3.5", []),
    (lambda g: g.set_free_handicap("D4"), "handicap vertices must be a list of vertices", []),
    (lambda g: g.set_free_handicap(5), "handicap vertices must be a list of vertices", []),
    (lambda g: g.load_sgf_bytes(b"(;SZ[9];B[aa])", move_number="1"), "move number must be a whole number", ["E5"]),
    (lambda g: g.load_sgf_bytes(b"(;SZ[9];B[aa])", max_moves=None), "move limit must be a whole number", ["E5"]),
    (lambda g: g.load_sgf_bytes(5), "SGF data must be bytes or str, got int", ["E5"]),
])
def test_the_python_api_refuses_counts_of_the_wrong_type_by_name(call, message, moves):
    game = Game(9)
    for vertex in moves:
        game.play("b", vertex)
    before = game.to_sgf()
    with pytest.raises(TypeError, match=re.escape(message)):
        call(game)
    assert game.to_sgf() == before


def test_fixed_handicap_points_refuse_a_count_of_the_wrong_type():
    with pytest.raises(TypeError, match="handicap stones must be a whole number"):
        fixed_handicap_points(9, [2])  # unhashable: the cache never sees it
    assert len(fixed_handicap_points(9, np.int64(4))) == 4


def test_sgf_text_is_read_as_its_utf8_bytes():
    game, other = Game(9), Game(9)
    game.load_sgf_bytes("(;SZ[9]C[d\u00e9but];B[cc];W[dd])")
    other.load_sgf_bytes("(;SZ[9]C[d\u00e9but];B[cc];W[dd])".encode())
    assert game.history == other.history and len(game.history) == 2


def _without_values(data: bytes) -> bytes:
    """data with each property value taken out as sgfmill reads one, by a plain scan: from "[" to the first
    "]" no backslash escapes; one left open runs to the end (a lone backslash there too)."""
    out, i = bytearray(), 0
    while i < len(data):
        if data[i] != ord("["):
            out.append(data[i])
            i += 1
            continue
        i += 1
        while i < len(data) and data[i] != ord("]"):
            i += 2 if data[i] == ord("\\") else 1
        i += 1  # past the "]", or past the end
    return bytes(out)


@given(st.lists(st.sampled_from([b"[", b"]", b"\\", b";", b"(", b"a", b"\n"]), max_size=30).map(b"".join))
def test_the_node_count_takes_out_property_values_as_sgfmill_reads_them(data):
    # load_sgf counts nodes and variations in what _VALUE leaves, before sgfmill builds anything
    assert game_sgf._VALUE.sub(b"", data) == _without_values(data)


def test_a_bad_player_in_pl_is_named():
    game = Game(9)
    with pytest.raises(SgfError, match=re.escape("corrupt SGF node 0: PL[x] is not B or W")):
        game.load_sgf_bytes(b"(;SZ[9]AB[aa]PL[x];W[bb])")
    assert game.history == [] and game.is_empty()
    with pytest.raises(SgfError, match=re.escape("PL[" + "x" * 37 + "...] is not B or W")):  # as other values
        game.load_sgf_bytes(b"(;SZ[9]PL[" + b"x" * 10_000 + b"])")


# Games GNU Go 3.8 played against itself (--level 1 --chinese-rules, komi 7) until two passes,
# with GNU Go's own final_score and final_status_list dead. Level 1 passes early, so the dead
# stones sit in open areas: a harder test of the estimate than a fully closed game.
GNUGO_GAMES = [
    ("B+34.0", "B7 B8 B9 C7 C9 G4 G5 H6 J5",
     "(;GM[1]FF[4]KM[7]SZ[9];B[ee];W[ce];B[dc];W[ge];B[gd];W[hd];B[fc];W[bc];B[hc];W[dg];B[fe];W[gf];"
     "B[eg];W[fh];B[eh];W[dh];B[fg];W[ie];B[gg];W[ei];B[gh];W[fi];B[df];W[cf];B[gi];W[di];B[cb];W[bb];"
     "B[de];W[cc];B[db];W[ca];B[da];W[ba];B[cd];W[bg];B[bd];W[be];B[ae];W[af];B[ad];W[tt];B[tt])"),
    ("W+40.0", "B2 C1 D2 D3 D4 F3",
     "(;GM[1]FF[4]KM[7]SZ[9];B[fd];W[cg];B[df];W[cf];B[dg];W[de];B[ec];W[ee];B[fg];W[cc];B[dh];W[db];"
     "B[eb];W[ch];B[dc];W[cb];B[ci];W[fe];B[gb];W[ge];B[hd];W[he];B[bh];W[gh];B[ie];W[gg];B[if];W[hg];"
     "B[ig];W[ih];B[gd];W[hf];B[id];W[ea];B[fa];W[da];B[dd];W[cd];B[ed];W[tt];B[tt])"),
    ("B+48.0", "A2 A8 B3 B5 B7 B8 C4 C7 D7 H3 H4",
     "(;GM[1]FF[4]KM[7]SZ[9];B[ee];W[cf];B[fg];W[cc];B[fd];W[gc];B[dg];W[gd];B[cg];W[be];B[eb];W[hf];"
     "B[hh];W[bg];B[bh];W[fb];B[ec];W[ea];B[da];W[fa];B[cb];W[ah];B[bi];W[bb];B[ba];W[ab];B[cd];W[dc];"
     "B[dd];W[bc];B[db];W[fc];B[ge];W[hg];B[he];W[hb];B[hd];W[hc];B[ic];W[ib];B[id];W[tt];B[ih];W[tt];"
     "B[tt])"),
]


@pytest.mark.parametrize("score, dead, sgf_text", GNUGO_GAMES)
def test_score_and_dead_stones_agree_with_gnugo(score, dead, sgf_text):
    game = Game(9)
    game.load_sgf_bytes(sgf_text.encode())
    assert game.final_score() == score
    assert sorted(v for s in game.final_status_list("dead") for v in s) == dead.split()


# The final position of a game foogo (400 playouts, black) played against GNU Go --level 0 (tests/test_vs_gnugo.py
# with seed 3 and the prior shipped on 2026-11-29). At the top, black's B9 and D9-D8 share white's last two
# liberties, A9 and C9, and D9-D8 is in atari: white takes it at C9 and B9 after it, and black's A9 or C9 is a
# self-atari, so GNU Go scores them dead (and G9): a draw at komi 7. Uniform playouts filled A9 as often with a
# white self-atari that loses the race, so their ownership kept the black stones (B+8); heavy playouts, whose
# self-atari rule plays neither A9 nor C9 for white, read it as GNU Go does.
RACE_ON_THE_EDGE = """
    . X . X O . X . .
    O O O X O O O O .
    X X O O X O X O O
    . X X X X X X X O
    X X X . . . . X X
    O X . X X X . . .
    O X X O O X . . .
    O O O O O X . . .
    . O . O X X . . .
"""


def test_a_capturing_race_on_the_edge_is_scored_as_gnu_go_scores_it():
    game = Game.from_ascii(RACE_ON_THE_EDGE, komi=7)
    assert sorted(v for s in game.final_status_list("dead") for v in s) == ["B9", "D8", "D9", "G9"]
    assert game.final_score() == "0"


# The final position of a match game (foogo against Pachi, 2026-11). At the bottom left, white's ten stones
# A4-E1 and black's three A1-A3 have the same two liberties, B1 and B3, and no eye: whoever fills one first is
# taken, so neither does, a seki. GNU Go 3.8 (level 0 and level 10 alike) scores the white string dead, B+20;
# uniform playouts fill B1 or B3 at random and took it for dead too. Both strings live: W+2.
SEKI_IN_THE_CORNER = """
    . X X X O . O O .
    X X X O O O O O .
    X . . X O . O O X
    X X . X X O O O O
    X O X X X X X O O
    O O O X X O O O X
    X . O X . X O X X
    X O O X X X O X .
    X . O O O X X . X
"""


def test_a_seki_with_no_eyes_is_scored_with_both_strings_alive():
    game = Game.from_ascii(SEKI_IN_THE_CORNER, komi=7)
    assert sorted(sorted(s) for s in game.final_status_list("seki")) == [
        ["A1", "A2", "A3"], ["A4", "B2", "B4", "B5", "C1", "C2", "C3", "C4", "D1", "E1"]]
    assert game.final_status_list("dead") == [["J7"]]
    assert game.final_score() == "W+2.0"


# Two live groups with the E column open between them: dame, liberties of both colours' strings
FINISHED_WITH_DAME = """
    . X . X . O .
    X X X X . O O
    . . . X . O .
    X X X X . O O
    . . . X . O .
    X X X X . O O
    . X . X . O .
"""


def test_a_dame_the_playouts_fill_is_not_a_seki():
    # the playouts fill the dame (neither colour takes a self-atari there), so no liberty stays open
    game = Game.from_ascii(FINISHED_WITH_DAME, komi=0.5)
    assert game.final_status_list("seki") == []
    assert game.final_status_list("dead") == []


# ---------------------------------------------------------------- history in bounded memory

def random_game(size, moves, seed):
    """A game of `moves` random legal moves and passes (a pass when few moves are left)."""
    game = Game(size)
    rnd = random.Random(seed)
    color = BLACK
    while len(game.history) < moves:
        legal = game.legal_points(color)
        game.play(color, rnd.choice(legal) if len(legal) > 2 and rnd.random() < 0.95 else PASS)
        color = 3 - color
    return game


def replayed(game, moves):
    """A fresh game with the first `moves` moves of `game`'s history."""
    other = Game(game.size, game.komi, game.rules)
    for color, p in game.history[:moves]:
        other.play(color, p)
    return other


def test_undo_across_snapshots_gives_the_position_a_replay_gives():
    game = random_game(9, 3 * SNAPSHOT_EVERY + 40, seed=4)
    rnd = random.Random(5)
    while game.history:
        game.undo(min(len(game.history), rnd.randint(1, SNAPSHOT_EVERY + 30)))
        fresh = replayed(game, len(game.history))
        assert game.state_key() == fresh.state_key()
        assert game.board.captures(BLACK) == fresh.board.captures(BLACK)
        assert game._seen == fresh._seen
        game.board.check_consistency()
        assert len(game._snapshots) == len(game.history) // SNAPSHOT_EVERY + 1


def test_history_keeps_a_board_per_snapshot_only():
    game = Game(19)
    for i in range(5 * SNAPSHOT_EVERY):
        game.play(BLACK if i % 2 == 0 else WHITE, PASS)
    assert len(game._snapshots) == 6 and len(game._hashes) == 5 * SNAPSHOT_EVERY
    assert len({id(move) for move in game.history}) == 2  # shared tuples, not one per move


def test_rollback_undoes_plays_undos_and_replacements_since_the_checkpoint():
    game = random_game(9, SNAPSHOT_EVERY + 10, seed=8)
    key, seen = game.state_key(), dict(game._seen)
    for change in (lambda g: [g.play(c, PASS) for c in (BLACK, WHITE)],
                   lambda g: g.undo(SNAPSHOT_EVERY // 2),
                   lambda g: (g.undo(20), g.play(BLACK, PASS)),
                   lambda g: g.clear(),
                   lambda g: g.set_komi(0.5)):
        token = game.checkpoint()
        change(game)
        game.rollback(token)
        assert game.state_key() == key and game._seen == seen
        assert replayed(game, len(game.history)).state_key() == key


def test_a_rollback_over_a_setup_between_moves_restores_the_game_and_its_superko_memory():
    game = Game(9)
    game.play(BLACK, "E5")
    before = game.state_key(), dict(game._seen)
    token = game.checkpoint()
    game.play(WHITE, "C7")
    game._setup_between_moves(["E5", "G3"], [], to_move=WHITE)  # what an SGF setup node after moves does
    game.play(WHITE, "D6")
    game.rollback(token)
    assert (game.state_key(), game._seen) == before and game.board.color_at("G3") == EMPTY
    game.play(WHITE, "C7")  # and the game goes on as if nothing had happened
    assert game._seen == {**before[1], game.board.hash: 1}


def test_a_game_prints_its_summary_and_its_board():
    game = Game(5, komi=6.5, rules="tromp-taylor")
    game.play("b", "C3")
    game.play("w", "pass")
    assert repr(game) == "Game(size=5, komi=6.5, rules=tromp-taylor, moves=2, to_move=black)"
    assert str(game) == repr(game) + "\n" + str(game.board)
