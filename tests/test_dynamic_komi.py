"""Dynamic komi (dynamic_komi.py, SearchConfig.dynamic_komi): the steps of the situational
compensation, and a search that gives komi in a won position while its margins stay at the game's komi."""

import math

from foogo import BLACK, WHITE, board_from_ascii
from foogo.dynamic_komi import DROP, DynamicKomi, handicap_extra, handicap_moves
from foogo.geometry import RESIGN
from foogo.search import Search, SearchConfig

# black owns all but white's corner, 65 points to 8 on the board: every playout wins at komi 7
WON = """
    . O . O X . X . .
    O O O O X X X X X
    X X X X X . X . X
    . X . X X X X X X
    X X X X . . . . X
    . X . X . . . . X
    X X X X X X X X X
    . X . X . X . X .
    X X X X X X X X X
"""


def test_the_extra_komi_rises_by_one_above_green_and_drops_below_orange_to_a_ratchet():
    d = DynamicKomi()
    assert [d.adjust(BLACK, 0.9) for _ in range(3)] == [1.0, 2.0, 3.0]
    assert d.adjust(BLACK, 0.82) == 3.0  # between the zones: kept
    assert d.adjust(BLACK, 0.79) == 0.0 and d.ratchet[BLACK] == 0.0  # 3 - DROP, floored at 0
    assert d.adjust(BLACK, 0.99) == 0.0  # the ratchet at 0: never again in this game
    d.new_game()
    assert d.adjust(BLACK, 0.9) == 1.0


def test_the_ratchet_caps_the_rise_and_a_fall_below_half_turns_it_off():
    d = DynamicKomi()
    for _ in range(6):
        d.adjust(WHITE, 0.95)
    assert d.komi_for(WHITE) == 6.0 and d.ratchet[WHITE] == math.inf
    assert d.adjust(WHITE, 0.7) == 6.0 - DROP and d.ratchet[WHITE] == 2.0
    assert d.adjust(WHITE, 0.9) == 2.0  # 3 would pass the ratchet
    assert d.adjust(WHITE, 0.45) == 0.0 and d.ratchet[WHITE] == 0.0  # behind after a ratchet: off
    assert d.adjust(WHITE, 0.9) == 0.0
    assert d.komi_for(BLACK) == 0.0  # each colour its own


def test_black_gives_komi_by_raising_it_and_white_by_lowering_it():
    d = DynamicKomi()
    d.adjust(BLACK, 0.9)
    d.adjust(WHITE, 0.9)
    d.adjust(WHITE, 0.9)
    assert d.black_extra(BLACK) == 1.0 and d.black_extra(WHITE) == -2.0


def test_a_won_position_makes_the_search_give_komi_and_the_margins_stay_at_the_games_komi():
    board = board_from_ascii(WON)
    plain = Search(SearchConfig(playouts=3000, seed=2, resign_threshold=None)).genmove(board, BLACK, 7.0)
    search = Search(SearchConfig(playouts=3000, seed=2, resign_threshold=None, dynamic_komi=True))
    result = search.genmove(board, BLACK, 7.0)
    assert plain.winrate > 0.95 and plain.extra_komi == 0.0
    assert result.extra_komi >= 10 and search.dynamic_komi.komi_for(BLACK) == result.extra_komi
    # black's mean margin through the chosen move is counted from the game's komi in both searches
    mean_plain, mean_dynamic = plain.scores[plain.move][0], result.scores[result.move][0]
    assert mean_plain > 40 and abs(mean_dynamic - mean_plain) < 5
    again = search.genmove(board, BLACK, 7.0)  # carried to the next move: it goes on from there
    assert again.extra_komi >= result.extra_komi
    search.new_game()
    assert search.dynamic_komi.komi_for(BLACK) == 0.0


def test_a_search_that_commits_nothing_chooses_as_genmove_and_leaves_the_komi_and_the_bank():
    # GTP's reg_genmove and foogo-visits: a search for a move not played stepped the game's komi and bank
    board = board_from_ascii(WON)
    search = Search(SearchConfig(playouts=3000, seed=2, resign_threshold=None, dynamic_komi=True, bank=True))
    trial = search.genmove(board, BLACK, 7.0, commit=False)
    assert search.dynamic_komi.komi_for(BLACK) == 0.0 and search.bank.saved == {BLACK: 0, WHITE: 0}
    fresh = Search(SearchConfig(playouts=3000, seed=2, resign_threshold=None, dynamic_komi=True, bank=True))
    played = fresh.genmove(board, BLACK, 7.0)  # the same search, committed: what the trial chose and gave
    assert (trial.move, trial.extra_komi, trial.playouts) == (played.move, played.extra_komi, played.playouts)
    assert fresh.dynamic_komi.komi_for(BLACK) == played.extra_komi > 0
    assert fresh.bank.saved[BLACK] == 3000 - played.playouts > 0  # a clear position stops early and banks the rest


def test_analysis_and_the_other_colour_play_at_the_games_komi():
    board = board_from_ascii(WON)
    search = Search(SearchConfig(playouts=2000, seed=2, resign_threshold=None, dynamic_komi=True))
    white = search.genmove(board, WHITE, 7.0)  # white is far behind: gives nothing
    assert white.extra_komi == 0.0 and search.dynamic_komi.komi_for(WHITE) == 0.0


def test_a_search_that_gives_komi_does_not_resign():
    board = board_from_ascii(WON)
    search = Search(SearchConfig(playouts=600, seed=2, resign_threshold=0.1, dynamic_komi=True))
    search.dynamic_komi.extra[BLACK] = 70.0  # more than black's lead: every playout lost at this komi
    result = search.genmove(board, BLACK, 7.0)
    assert result.winrate < 0.1 and result.extra_komi == 66.0  # one step down in 600 playouts, still giving
    assert result.move != RESIGN



def test_the_handicap_phase_falls_linearly_from_most_of_the_stones_value_to_nothing():
    # 9x9, three stones, komi 0.5: black's search counts 12 points a stone, white's 8, over 15 moves
    assert handicap_extra(BLACK, 3, 0, 9, 0.5) == 36.0
    assert handicap_extra(BLACK, 3, 5, 9, 0.5) == 36.0 * 10 / 15
    assert handicap_extra(WHITE, 3, 0, 9, 0.5) == 24.0
    assert handicap_extra(BLACK, 3, 15, 9, 0.5) is None  # the phase is over
    assert handicap_extra(BLACK, 1, 0, 9, 0.5) is None and handicap_extra(WHITE, 0, 0, 9, 7.0) is None
    assert handicap_extra(WHITE, 2, 0, 9, 20.5) == 0.0  # a komi above the stones' value: nothing
    spans = [handicap_moves(n, c) for n, c in ((13, BLACK), (15, WHITE), (19, BLACK), (19, WHITE))]
    assert spans == [50, 100, 200, 150]


def test_a_handicap_games_first_searches_play_at_the_phases_komi_and_adapt_nothing():
    board = board_from_ascii(WON)
    search = Search(SearchConfig(playouts=1500, seed=2, resign_threshold=None, dynamic_komi=True))
    result = search.genmove(board, WHITE, 0.5, handicap=2, moves=3)
    # two stones at 8 points, plus 0.5 less the komi, 12 of the 15 moves to go
    assert result.extra_komi == handicap_extra(WHITE, 2, 3, 9, 0.5) == 16.0 * 12 / 15
    assert search.dynamic_komi.komi_for(WHITE) == 0.0  # no situational step during the phase
    plain = Search(SearchConfig(playouts=1500, seed=2, resign_threshold=None)).genmove(board, WHITE, 0.5,
                                                                                       handicap=2, moves=3)
    assert plain.extra_komi == 0.0  # without dynamic komi the handicap changes nothing
