"""What a line is worth (tree_score.py): a line ended by two passes scored against the side whose pass
ended it, the tree's playout step scoring it alike, and a playout's result with a score weight."""

import numpy as np
import pytest
from search_positions import DEAD_CORNER, legal

from foogo import BLACK, WHITE, Board, board_from_ascii, tree_score
from foogo import patterns as pa
from foogo import random_stream as rs
from foogo import tree as tk
from foogo.game_score import final_margin
from foogo.policy import choose_light_only
from foogo.search import Search, SearchConfig
from foogo.search_tree import Worker


def settled_scores(board, policy, count):
    """tree_score.settled_score of `board` (after two passes) at komi 7, over `count` random streams (light
    playouts: `policy` is policy.LIGHT's 0)."""
    out = []
    for seed in range(count):
        b = board.copy()
        s, z = b._state()
        rng = np.zeros(1, dtype=np.uint64)
        rs.seed_rng(rng, seed, 0)
        # choose_light_only, the light chooser alone: a kernel called with a function is compiled in each process
        # (jit.py never caches it), and with policy.choose it would compile every heavy rule too, some 10 s
        score, capped = tree_score.settled_score(s, z, b.geometry.zobrist, rng, 400, np.zeros(400, dtype=np.int32),
                                                 np.zeros(0, dtype=np.int8), choose_light_only, policy, 1000,
                                                 pa.PATTERN_TABLE, np.zeros((0, 1), dtype=np.int32), 7.0, True)
        assert capped == 0
        out.append(float(score))
    return out


def test_a_line_ending_in_two_passes_is_scored_against_the_side_whose_pass_ended_it():
    # DEAD_CORNER: white leads by 13 with every stone alive, black by 10 with white's corner removed, as
    # the referee scored it. The tree used to count such a line as it stands (a white win), then, where
    # that count and a playout's (which removes the stones it captures) disagreed, as a draw; now as the
    # count worse for the colour whose pass ended the line, so that a pass wins only by every count (the
    # root's rule, Search._passing_margin). White's pass ending it: every line a black win where light
    # playouts kill the corner, the playout's own count
    board = board_from_ascii(DEAD_CORNER, to_move=BLACK)
    board.play(BLACK, "pass")
    board.play(WHITE, "pass")
    standing = board.area_score(0)
    assert board.area_score(7) < 0 and final_margin(board, 7, policy="light") > 0
    scores = settled_scores(board, 0, 60)  # light playouts kill the corner
    assert 7.0 not in scores and standing not in scores and sum(x > 7.0 for x in scores) > 40
    # black's pass ending it: where the counts disagree, the count as it stands, a white win; no line
    # wins for black
    board = board_from_ascii(DEAD_CORNER, to_move=WHITE)
    board.play(WHITE, "pass")
    board.play(BLACK, "pass")
    scores = settled_scores(board, 0, 60)
    assert all(x < 7.0 for x in scores) and scores.count(standing) > 40
    # a finished position with nothing dead (two eyes each): the count as it stands
    done = board_from_ascii("""
        . X O .
        X X O O
        . X O .
        X X O O
    """)
    done.play(BLACK, "pass")
    done.play(WHITE, "pass")
    assert settled_scores(done, 0, 5) == [done.area_score(0)] * 5


def test_the_iterations_playout_step_scores_a_line_ended_by_two_passes_as_settled_score_does():
    # tree._play_out runs settled_score's steps around its one playout call when the descent ended in two
    # passes (terminal): on DEAD_CORNER's streams, whichever colour's pass ended the line, it must give
    # settled_score's scores one for one (with black's pass last: the count as it stands where the counts
    # disagree, the playout's where they agree), and the iteration's trace stays the tree's (no stone of the
    # settling playout is traced); the search's last-good-reply table, here a full one that would steer the
    # playout, is not read by it
    for first, ender in ((BLACK, WHITE), (WHITE, BLACK)):
        board = board_from_ascii(DEAD_CORNER, to_move=first)
        board.play(first, "pass")
        board.play(ender, "pass")
        scores = _terminal_playout_scores(board)
        assert scores == settled_scores(board, 0, 60)
    standing = board.area_score(0)
    assert standing in scores and min(scores) < standing < 7.0


def _terminal_playout_scores(board):
    """tree._play_out's scores of `board` (after two passes) as a terminal line, on streams 0..59."""
    onboard = np.flatnonzero(board.geometry.onboard).astype(np.int32)
    replies = np.random.default_rng(5).choice(onboard, size=(2, board.geometry.npoints)).astype(np.int32)
    params = np.zeros(tk.NPARAMS)
    params[tk.P_CAP] = 400
    params[tk.P_POLICY] = 0
    scores = []
    for seed in range(60):
        b = board.copy()
        s, z = b._state()
        worker = Worker(b.geometry, 0)
        worker.start(s, z)
        rs.seed_rng(worker.rng, seed, 0)
        score, traced, capped, _ = tk._play_out(np.zeros(tk.META_SIZE, dtype=np.int64), b.geometry.zobrist,
                                                worker.work(), params, pa.PATTERN_TABLE, replies, 3, True, 7.0,
                                                choose_light_only, True)
        assert traced == 3 and capped == 0 and not worker.trace.any()
        scores.append(float(score))
    return scores


def test_a_playout_result_counts_the_winner_and_with_a_score_weight_the_margin():
    result = tree_score.playout_result.py_func
    assert [result(s, 7.0, 0.0, 81.0) for s in (81.0, 7.5, 7.0, 6.5, 0.0)] == [1.0, 1.0, 0.5, 0.0, 0.0]
    w = 0.02
    assert result(81.0 + 7.0, 7.0, w, 81.0) == 1.0 and result(7.0 - 81.0, 7.0, w, 81.0) == 0.0
    assert result(200.0, 7.0, w, 81.0) == 1.0 and result(-200.0, 7.0, w, 81.0) == 0.0  # margins beyond the board
    assert result(7.0, 7.0, w, 81.0) == 0.5
    wins = [result(s, 7.0, w, 81.0) for s in (8.0, 17.0, 40.0, 81.0)]
    losses = [result(s, 7.0, w, 81.0) for s in (0.0, 3.0, 6.0)]
    assert wins == sorted(wins) and losses == sorted(losses)  # a larger margin counts more
    assert min(wins) == pytest.approx(1 - w + w / 81) and max(losses) == pytest.approx(w - w / 81)
    assert min(wins) > 0.5 > max(losses)


def test_a_score_weight_reaches_the_tree_and_keeps_its_values_in_range():
    board = Board(5)
    for weight in (0.0, 0.2):
        search = Search(SearchConfig(playouts=400, seed=3, score_weight=weight, resign_threshold=None))
        result = search.genmove(board, BLACK, 0.5, legal(board, BLACK))
        assert result.winrates and all(0.0 <= rate <= 1.0 for rate in result.winrates.values())
        ni, nh, ei, ef, ek, meta = search.trees[0].arrays
        root = int(meta[tk.ROOT])
        first, count = int(ni[root, tk.FIRST]), int(ni[root, tk.COUNT])
        wins = ef[tk.W, first:first + count][ek[first:first + count] != tk.K_DISABLED]
        whole = np.all(wins * 2 == np.round(wins * 2))  # whole and half wins only without a weight
        assert whole == (weight == 0.0)
    with pytest.raises(ValueError, match="score_weight"):
        SearchConfig(playouts=10, score_weight=0.5)
