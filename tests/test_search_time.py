"""A timed search's time use (search_time.py, and search_run.py's end of a run): the budget kept, an
early stop when settled or clear, a close search extended towards its limit, and the stop reason."""

import time

import numpy as np
import pytest
from search_positions import legal, name

from foogo import BLACK, WHITE, Board, board_from_ascii, search_run, search_time
from foogo.search import Search, SearchConfig


def test_time_budget_is_respected(warm_search):
    board = Board(9)
    result = warm_search(SearchConfig(seconds=0.3, seed=10)).genmove(board, BLACK, 7.0, legal(board, BLACK))
    assert result.seconds < 1.5
    assert result.playouts > 0


def test_a_search_of_a_count_ends_after_max_seconds(monkeypatch):
    """A playout count no machine reaches soon (or an analysis nothing stops) ends at MAX_SECONDS, as a timed
    search's budget does: a day in use, a fraction of a second here."""
    monkeypatch.setattr(search_run, "MAX_SECONDS", 1.0)  # the run's end (search_run.Run.due)
    board = Board(5)
    Search(SearchConfig(playouts=10, resign_threshold=None)).genmove(board, BLACK, 7.0, legal(board, BLACK))  # loads
    search = Search(SearchConfig(playouts=10**12, resign_threshold=None))
    started = time.perf_counter()
    result = search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    assert time.perf_counter() - started < 60  # (the bound is 1 s: this only says it ended)
    assert result.stopped == "budget" and 0 < result.playouts < 10**12


def test_timed_search_stops_early_when_the_best_move_is_settled(warm_search):
    board = board_from_ascii("""
        . . . . .
        . O O O .
        O X X X .
        . O O O .
        . . . . .
    """, to_move=WHITE)
    # capturing three stones at E3 is overwhelmingly best: the search should not need 5 s
    result = warm_search(SearchConfig(seconds=5.0, seed=14)).genmove(board, WHITE, 0.5, legal(board, WHITE))
    assert name(board, result.move) == "E3"
    assert result.seconds < 4.0


MIDDLE_GAME = """
    . . . . . . . . .
    . . X . . . O . .
    . . X X . O O . .
    . X O X . O X . .
    . . O X . O X . .
    . . O O X X O . .
    . . . . . . . . .
    . . . . . . . . .
    . . . . . . . . .
"""


def test_past_half_its_budget_a_search_stops_in_a_clear_position(monkeypatch, warm_search):
    monkeypatch.setattr(search_time, "CLEAR", 0.5)  # every position counts as clear
    # and none as settled: past half the budget a settled search stops first ("settled" is checked before
    # "clear"), and on a loaded machine the first check past half the budget can come late enough for that
    monkeypatch.setattr(search_time, "settled", lambda visits, more: False)
    board = board_from_ascii(MIDDLE_GAME, to_move=BLACK)
    result = warm_search(SearchConfig(seconds=1.0, seed=21)).genmove(board, BLACK, 7.0, legal(board, BLACK))
    assert result.stopped == "clear"
    assert search_time.SOFT * 1.0 <= result.seconds < 0.8


def test_the_opening_uses_the_whole_budget_even_when_clear(monkeypatch):
    monkeypatch.setattr(search_time, "CLEAR", 0.5)
    board = board_from_ascii(MIDDLE_GAME.replace("X", ".").replace("O", "."), to_move=BLACK)
    result = Search(SearchConfig(seconds=1.0, seed=21)).genmove(board, BLACK, 7.0, legal(board, BLACK))
    assert result.stopped in ("budget", "settled")
    assert result.seconds > 0.7


SYMMETRIC = """
    . . . . . . . . .
    . . O . . . O . .
    . . X O . O X . .
    . . X . . . X . .
    . . . . . . . . .
    . . X . . . X . .
    . . X O . O X . .
    . . O . . . O . .
    . . . . . . . . .
"""


def test_a_close_position_uses_the_whole_budget_unless_settled():
    board = board_from_ascii(SYMMETRIC, to_move=BLACK)
    result = Search(SearchConfig(seconds=1.0, seed=22)).genmove(board, BLACK, 4.5, legal(board, BLACK))
    assert 0.4 < result.winrate < 0.6, "a position as even as its symmetry"
    assert result.stopped in ("budget", "settled"), "not cut short at the soft limit"
    assert result.stopped == "settled" or result.seconds >= 0.95


@pytest.mark.parametrize("threads", [1, 2])
def test_a_search_still_close_at_its_budget_goes_on_to_its_limit(monkeypatch, warm_search, threads):
    monkeypatch.setattr(search_time, "CLOSE_RATIO", 1e9)  # every result that is not clear counts as close
    board = board_from_ascii(SYMMETRIC, to_move=BLACK)
    # warm: a search that loaded its kernels inside its budget had no root visits there, so was not close
    result = warm_search(SearchConfig(seconds=0.4, seed=22, threads=threads)).genmove(
        board, BLACK, 4.5, legal(board, BLACK), time_limit=1.0)
    assert result.stopped in ("limit", "settled")
    assert result.stopped == "settled" or 0.95 <= result.seconds < 1.5


def test_a_search_extended_while_close_ends_when_it_no_longer_is(monkeypatch, warm_search):
    board = board_from_ascii(SYMMETRIC, to_move=BLACK)
    search = warm_search(SearchConfig(seconds=0.4, seed=22))
    # asked every 0.05 s from 0.35 s on: close at 0.35 s and at 0.4 s or later, it runs past its budget
    answers = iter([True, True])
    monkeypatch.setattr(search, "is_close", lambda: next(answers, False))
    monkeypatch.setattr(search, "stop_reason", lambda *args: "")  # never settled or clear before
    result = search.genmove(board, BLACK, 4.5, legal(board, BLACK), time_limit=1.0)
    assert result.stopped == "extended" and 0.4 <= result.seconds < 0.8


def test_extended_means_past_the_deadline_not_close_just_before_it(monkeypatch):
    # a search close at its last check before the deadline and not close at the first after it ends at its
    # budget: "extended" only once it ran past the deadline towards the limit (clock times given, so that a
    # slow batch, as with bounds checks, cannot move the checks)
    from foogo import tree as tk
    from foogo.search_run import Run

    search = Search(SearchConfig(seconds=0.4))
    answers = iter([True])
    monkeypatch.setattr(search, "is_close", lambda: next(answers, False))
    run = Run(search, Board(9), BLACK, np.zeros(tk.NPARAMS), None, None, 0.0, 0.4, None, 1.0, True, False)
    run._extend_while_close(0.36)  # close: the end moves to the limit
    assert run.ends == 1.0 and not run.extended
    run._extend_while_close(0.42)  # not close: back to the deadline, already past
    assert run.ends == run.due == 0.4 and not run.extended and run._past_end(0, 0.42)
    answers = iter([True, True])
    run = Run(search, Board(9), BLACK, np.zeros(tk.NPARAMS), None, None, 0.0, 0.4, None, 1.0, True, False)
    run._extend_while_close(0.36)
    run._extend_while_close(0.405)  # before the next check, past the deadline at the limit: extended
    assert run.ends == 1.0 and run.extended and not run._past_end(0, 0.405)


def test_a_search_that_is_not_close_at_its_budget_stops_there(monkeypatch):
    monkeypatch.setattr(search_time, "CLOSE_RATIO", 0.0)  # never close
    board = board_from_ascii(SYMMETRIC, to_move=BLACK)
    result = Search(SearchConfig(seconds=0.4, seed=22)).genmove(board, BLACK, 4.5, legal(board, BLACK),
                                                                time_limit=1.0)
    assert result.stopped in ("budget", "settled") and result.seconds < 0.7


def test_close_means_the_best_move_has_less_than_the_ratio_times_the_next_s_visits(monkeypatch):
    search = Search(SearchConfig(playouts=10))
    totals = {"even": ({1: 100.0, 2: 60.0}, {1: 50.0, 2: 30.0}), "ahead": ({1: 300.0, 2: 100.0}, {1: 150.0, 2: 50.0}),
              "clear": ({1: 100.0, 2: 60.0}, {1: 95.0, 2: 50.0}), "alone": ({1: 100.0}, {1: 50.0})}
    for case, want in [("even", True), ("ahead", False), ("clear", False), ("alone", False)]:
        visits, wins = totals[case]
        monkeypatch.setattr(search, "_root_totals", lambda v=visits, w=wins: (v, w, []))
        assert search.is_close() is want, case


def test_a_playout_count_search_says_so():
    board = Board(5)
    result = Search(SearchConfig(playouts=100, seed=2)).genmove(board, BLACK, 0.5, legal(board, BLACK))
    assert result.stopped == "playouts" and result.playouts == 100


def test_a_search_of_too_little_time_still_plays_a_batch_not_a_pass():
    # the deadline was checked before the first batch: --time 0.001 searched nothing and passed at move 1
    result = Search(SearchConfig(seconds=1e-9, policy="light", threads=1, seed=3)).genmove(Board(9), BLACK, 7)
    assert result.playouts > 0 and result.vertex != "pass" and result.stopped == "budget"
