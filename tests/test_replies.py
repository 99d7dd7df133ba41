"""Last good replies (Drake's LGRF-1): the table's update after an iteration, the playout's use of it, and
the search with `replies` on."""

import numpy as np
from numba import njit

from foogo import BLACK, PASS, WHITE, Board, board_from_ascii
from foogo import playout as po
from foogo import random_stream as rs
from foogo.search import Search, SearchConfig


def stone(board, color, name):
    """A trace entry: point * 2 + colour - 1."""
    return board.geometry.parse(name) * 2 + color - 1


def test_the_winner_learns_its_replies_and_the_loser_forgets_its_own():
    board = Board(9)
    p = board.geometry.parse
    replies = np.full((2, board.geometry.npoints), -1, dtype=np.int32)
    replies[WHITE - 1, p("E5")] = p("F5")  # white's reply to E5, which white plays again below and loses
    replies[WHITE - 1, p("C3")] = p("H8")  # a reply white does not play: kept
    trace = np.array([stone(board, BLACK, "D4"), stone(board, WHITE, "E5"), stone(board, BLACK, "E4"),
                      stone(board, BLACK, "C3"),  # after a pass: two black stones in a row, no pair
                      stone(board, WHITE, "F4"), stone(board, BLACK, "E5"), stone(board, WHITE, "F5")],
                     dtype=np.int32)
    po.learn_replies.py_func(trace, len(trace), BLACK, replies)
    assert replies[BLACK - 1, p("E5")] == p("E4")  # black won: its reply to E5 is E4
    assert replies[BLACK - 1, p("F4")] == p("E5")
    assert replies[BLACK - 1, p("E4")] == -1  # C3 followed E4 of its own colour: not a reply
    assert replies[WHITE - 1, p("E5")] == -1  # white lost playing its stored reply F5 to E5: forgotten
    assert replies[WHITE - 1, p("C3")] == p("H8")
    assert replies[WHITE - 1, p("D4")] == -1  # a loser's move is never learned
    assert (replies >= 0).sum() == 3


@njit
def _reply(s, z, c, replies):
    return po.last_good_reply(s, z, c, replies)


def test_a_stored_reply_is_played_only_where_the_playout_rule_allows_it():
    board = board_from_ascii("""
        . X . . .
        X X . . .
        . . . . .
        . . . O .
        . . . . .
    """, to_move=WHITE)
    board.play(BLACK, "C3")  # the last move
    s, z = board._state()
    p = board.geometry.parse
    replies = np.full((2, board.geometry.npoints), -1, dtype=np.int32)
    assert _reply(s, z, WHITE, replies) == PASS  # none stored
    replies[WHITE - 1, p("C3")] = p("C4")
    assert _reply(s, z, WHITE, replies) == p("C4")
    replies[WHITE - 1, p("C3")] = p("B5")  # black's eye: white may not fill it (it captures nothing)
    assert _reply(s, z, WHITE, replies) == PASS
    replies[WHITE - 1, p("C3")] = p("B4")  # occupied
    assert _reply(s, z, WHITE, replies) == PASS
    replies[BLACK - 1, p("C3")] = p("A5")  # black's own eye, which it does not fill
    assert _reply(s, z, BLACK, replies) == PASS


@njit
def _first_move(s, z, zob, seed, replies):
    rng = np.zeros(1, dtype=np.uint64)
    rs.seed_rng(rng, seed, 0)
    trace = np.zeros(1000, dtype=np.int32)
    # choose_light_only: policy.choose's light branch without its heavy rules, which this uncached kernel would compile
    po.play_out_with(s, z, zob, rng, 300, trace, np.zeros(0, dtype=np.int8), po.choose_light_only, po.LIGHT, 1000,
                     po.PATTERN_TABLE, replies, True)
    return trace[0] >> 1


def test_a_playout_plays_the_reply_to_the_last_move_first():
    board = Board(9)
    board.play(BLACK, "E5")
    p = board.geometry.parse
    replies = np.full((2, board.geometry.npoints), -1, dtype=np.int32)
    replies[WHITE - 1, p("E5")] = p("G3")
    firsts, plain = set(), set()
    for seed in range(20):
        s, z = board._state()
        firsts.add(_first_move(s.copy(), z.copy(), board.geometry.zobrist, seed, replies))
        plain.add(_first_move(s.copy(), z.copy(), board.geometry.zobrist, seed, po.NO_REPLIES))
    assert firsts == {p("G3")}
    assert len(plain) > 10  # without replies the first move is drawn


def test_a_search_with_replies_learns_them_and_forgets_them_with_the_game():
    board = Board(9)
    board.play(BLACK, "E5")
    search = Search(SearchConfig(playouts=2000, seed=4, replies=True))
    result = search.genmove(board, WHITE, 7.0)
    assert result.move == PASS or board.is_legal(WHITE, result.move)
    assert result.playouts == 2000
    replies = search.trees[0].replies
    assert (replies >= 0).sum() > 50  # learned from the iterations
    points = replies[replies >= 0]
    assert all(board.geometry.name(int(q)) for q in points)  # every stored reply is a point of the board
    again = Search(SearchConfig(playouts=2000, seed=4, replies=True)).genmove(board, WHITE, 7.0)
    assert (again.move, again.visits) == (result.move, result.visits)  # deterministic for a seed
    search.new_game()
    assert (replies == -1).all()


def test_replies_change_the_search_and_off_they_cost_nothing_in_its_arrays():
    board = Board(9)
    board.play(BLACK, "E5")
    plain = Search(SearchConfig(playouts=1500, seed=5)).genmove(board, WHITE, 7.0)
    replying = Search(SearchConfig(playouts=1500, seed=5, replies=True)).genmove(board, WHITE, 7.0)
    assert plain.visits != replying.visits
    assert Search(SearchConfig(playouts=10, seed=5)).trees == []  # no trees before a search
    off = Search(SearchConfig(playouts=10, seed=5))
    off.genmove(board, WHITE, 7.0)
    assert off.trees[0].replies.size == 0
