"""The playout bank (search_bank.py, SearchConfig.bank): settled searches stop early and bank the rest,
close ones borrow, the choice is the whole budget's, and a game never spends more than its count."""

import argparse

import pytest

from foogo import BLACK, WHITE, Board, board_from_ascii
from foogo.game import Game
from foogo.gtp.command import configure_parser, tuning_fields
from foogo.search import HISTORY, Search, SearchConfig
from foogo.search_bank import BANK_MAX, PlayoutBank, settled


def legal(board, color):
    return [p for p in board.geometry.points if board.is_legal(color, int(p))]


def test_a_move_is_settled_only_when_its_lead_exceeds_the_playouts_left():
    assert settled([70.0, 20.0, 5.0], 49)
    assert not settled([70.0, 20.0, 5.0], 50)  # the second could tie: not settled
    assert settled([5.0], 4)  # a lone move leads nothing by its visits
    assert not settled([], 0)


def test_the_bank_lends_what_it_holds_up_to_its_cap_and_is_repaid():
    bank = PlayoutBank()
    assert bank.extension(BLACK, 1000) == 0
    bank.settle(BLACK, 1000, 400)  # saved 600
    assert bank.saved == {BLACK: 600, WHITE: 0}
    assert bank.extension(BLACK, 1000) == 600
    assert bank.extension(BLACK, 100) == (BANK_MAX - 1) * 100
    bank.settle(BLACK, 1000, 1500)  # borrowed 500
    assert bank.saved[BLACK] == 100
    bank.settle(BLACK, 1000, 5000)  # never below empty
    assert bank.saved[BLACK] == 0
    bank.settle(WHITE, 10, 0)
    bank.new_game()
    assert bank.saved == {BLACK: 0, WHITE: 0}


CAPTURE = """
    . . . . . . .
    . O O O O . .
    O X X X X . .
    . O O O O . .
    . . . . . . .
    . . . . . . .
    . . . . . . .
"""


def test_a_clear_move_settles_early_chooses_what_the_whole_count_would_and_banks_the_rest():
    board = board_from_ascii(CAPTURE, to_move=WHITE)
    moves = legal(board, WHITE)
    full = Search(SearchConfig(playouts=4000, seed=3)).genmove(board, WHITE, 0.5, moves)
    search = Search(SearchConfig(playouts=4000, seed=3, bank=True))
    banked = search.genmove(board, WHITE, 0.5, moves)
    assert banked.stopped == "settled" and banked.playouts < 4000
    assert banked.move == full.move and board.geometry.name(banked.move) == "F5"
    assert search.bank.saved == {BLACK: 0, WHITE: 4000 - banked.playouts}
    # the same search, without the bank, runs its count
    assert full.playouts == 4000 and full.stopped == "playouts"


def test_a_search_borrows_at_most_what_its_colour_saved():
    board = Board(9)
    search = Search(SearchConfig(playouts=2000, seed=4, bank=True))
    search.bank.saved[BLACK] = 1500
    result = search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    assert result.playouts <= 3500
    assert search.bank.saved[BLACK] == 1500 + 2000 - result.playouts
    search.bank.saved[WHITE] = 10**9  # a full bank lends BANK_MAX - 1 counts
    board.play(BLACK, result.vertex)
    reply = search.genmove(board, WHITE, 7.0, legal(board, WHITE))
    assert reply.playouts <= BANK_MAX * 2000
    search.new_game()
    assert search.bank.saved == {BLACK: 0, WHITE: 0}


def test_a_banking_game_never_spends_more_than_its_count_a_move():
    game = Game(7)
    count = 600
    search = Search(SearchConfig(playouts=count, seed=6, bank=True, resign_threshold=None))
    used = 0
    for moves in range(1, 21):
        color = game.to_move
        result = search.genmove(game.board, color, 7.0, game.legal_moves(color),
                                history=game.recent_positions(HISTORY))
        used += result.playouts
        game.play(color, result.vertex)
        saved = search.bank.saved[BLACK] + search.bank.saved[WHITE]
        assert used + saved == count * moves  # every playout not used is in a bank
    assert used <= count * 20


def test_a_timed_search_ignores_the_bank():
    board = Board(7)
    search = Search(SearchConfig(seconds=0.05, seed=1, bank=True))
    search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    assert search.bank.saved == {BLACK: 0, WHITE: 0}


@pytest.mark.parametrize("flag, value", [("--bank", True), ("--no-bank", False)])
def test_gtp_s_bank_option_sets_the_search_s(flag, value):
    args = configure_parser(argparse.ArgumentParser()).parse_args([flag])
    assert tuning_fields(args)["bank"] is value
    assert "bank" not in tuning_fields(configure_parser(argparse.ArgumentParser()).parse_args([]))
