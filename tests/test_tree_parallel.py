"""Tree parallelism: threads growing one tree at once, with virtual loss, atomic updates and a gate for collection.

After a search every virtual loss is resolved and every node made is in the tree exactly once: checked
on the whole tree, node by node, for searches long enough that the threads collide often.
"""

import threading

import numpy as np
import pytest

from foogo import BLACK, WHITE, Board
from foogo import tree as tk
from foogo.game import Game
from foogo.intrinsics import atomic_add, atomic_cas
from foogo.jit import kernel
from foogo.search import Search, SearchConfig


@kernel
def _add_many(ints, floats, times):
    for _ in range(times):
        atomic_add(ints, 0, 1)
        atomic_add(floats, 1, 0.5)
    return 0


@kernel
def _cas(a, i, expected, new):
    return atomic_cas(a, i, expected, new)


def test_atomic_adds_from_two_threads_lose_nothing():
    ints = np.zeros(2, dtype=np.int64)
    floats = np.zeros(2, dtype=np.float32)
    _add_many(ints, floats, 1)  # compiled before the threads start
    ints[:] = 0
    floats[:] = 0
    threads = [threading.Thread(target=_add_many, args=(ints, floats, 400_000)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert ints.tolist() == [800_000, 0]
    assert floats.tolist() == [0.0, 400_000.0]  # halves, exact in float32 below 2**24


def test_compare_and_swap_swaps_only_the_expected_value():
    a = np.array([-1, 5], dtype=np.int32)
    assert _cas(a, 0, -1, -2) == -1 and a.tolist() == [-2, 5]
    assert _cas(a, 0, -1, 7) == -2 and a.tolist() == [-2, 5]  # not -1: unchanged
    assert _cas(a, 1, 5, 9) == 5 and a.tolist() == [-2, 9]


def check_tree(search) -> int:
    """Assert the shared tree is whole: every node reached once from the root, each child's colour the
    other one, no edge left claimed (GROWING), and every node's visits the sum of its edges' real visits
    (each virtual loss turned into a result). Returns the nodes reached."""
    tree = search.trees[0]
    ni, nh, ei, ef, ek, meta = tree.arrays
    root = int(meta[tk.ROOT])
    seen = {root}
    stack = [root]
    while stack:
        node = stack.pop()
        first, count = int(ni[node, tk.FIRST]), int(ni[node, tk.COUNT])
        children = ei[tk.CHILD, first:first + count]
        assert (children >= tk.NO_CHILD).all(), "an edge is still claimed"
        real_n, _ = tk.real_stats(ef, ek, first, count, tree.n0)
        assert real_n.sum() == ni[node, tk.VISITS]
        for child in children[children >= 0].tolist():
            assert child not in seen
            assert ni[child, tk.COLOR] == 3 - ni[node, tk.COLOR]
            seen.add(child)
            stack.append(child)
    assert len(seen) == meta[tk.NODES]  # every node made was linked: none lost to a race
    return len(seen)


@pytest.mark.parametrize("policy", ["light", "heavy"])
def test_two_threads_grow_one_whole_tree(policy):
    board = Board(9)
    search = Search(SearchConfig(playouts=20000, threads=2, seed=4, policy=policy, parallel="tree",
                                 resign_threshold=None))
    result = search.genmove(board, BLACK, 7.0)
    assert len(search.trees) == 1 and len(search.trees[0].workers) == 2
    assert result.playouts == 20000 and sum(result.visits.values()) == 20000
    assert all(w.iterations == 10000 for w in search.trees[0].workers)
    ni, meta = search.trees[0].arrays.ni, search.trees[0].meta
    assert ni[meta[tk.ROOT], tk.VISITS] == 20000
    assert check_tree(search) > 100
    assert result.move in board.geometry.points
    assert np.abs(result.ownership).max() <= 1.0 and result.scores


def test_the_shared_tree_is_reused_for_the_next_move():
    board = Board(9)
    search = Search(SearchConfig(playouts=6000, threads=2, seed=6, parallel="tree"))
    first = search.genmove(board, BLACK, 7.0)
    board.play(BLACK, first.move)
    reply = search.trees[0].principal_variation(first.move)[1]
    board.play(WHITE, reply)
    search.genmove(board, BLACK, 7.0)
    check_tree(search)
    ni, meta = search.trees[0].arrays.ni, search.trees[0].meta
    assert ni[meta[tk.ROOT], tk.VISITS] > 6000  # the reused subtree's visits and this search's


def test_a_full_shared_tree_is_collected_while_no_thread_runs():
    board = Board(9)
    search = Search(SearchConfig(playouts=30000, threads=2, seed=8, parallel="tree", memory_mb=1,
                                 expand_threshold=2.0, resign_threshold=None))
    result = search.genmove(board, BLACK, 7.0)
    tree = search.trees[0]
    assert tree.meta[tk.COLLECTIONS] >= 1
    assert result.playouts == 30000
    check_tree(search)  # collection dropped nodes, never a virtual loss


def test_one_thread_searches_alike_with_either_parallelism():
    board = Board(9)
    results = [Search(SearchConfig(playouts=3000, threads=1, seed=2, parallel=p)).genmove(board, BLACK, 7.0)
               for p in ("root", "tree")]
    assert results[0].visits == results[1].visits and results[0].pv == results[1].pv


def test_a_timed_shared_search_and_analysis_end(warm_search):
    board = Board(9)
    search = warm_search(SearchConfig(seconds=0.3, threads=2, seed=9, parallel="tree"))
    result = search.genmove(board, BLACK, 7.0)
    assert result.seconds < 1.5 and result.playouts > 0
    stop = threading.Event()
    seen = []

    def progress(r):
        seen.append(r.playouts)
        if len(seen) >= 2:
            stop.set()

    analysed = search.analyze(board, BLACK, 7.0, None, stop, progress, 0.05)
    assert analysed.playouts > 0 and analysed.stopped == "stop"
    check_tree(search)


def test_a_shared_tree_gives_back_the_virtual_losses_of_a_refused_descent():
    from test_tree_superko import SEND_TWO, retake_kind  # a position whose tree meets moves that repeat one

    game = Game.from_ascii(SEND_TWO, komi=7, to_move=WHITE)
    search = Search(SearchConfig(playouts=20000, threads=2, seed=3, parallel="tree", policy="heavy",
                                 resign_threshold=None))
    result = search.genmove(game.board, WHITE, 7.0, game.legal_moves(WHITE))
    # a tree that let its moves repeat a position read J1 as free, at 99%; with the prior shipped on 2026-11-29 a
    # shared tree (whose threads' timing varies) may still pick J1 among the lost position's moves, near 0.5 (1 of
    # 8 seeds, 0.53), never as a free move
    assert result.playouts == 20000 and (result.vertex != "J1" or result.winrate < 0.75)
    assert retake_kind(search, game) == tk.K_DISABLED  # white J1, black J3, white J2 repeats the root
    check_tree(search)  # every virtual loss on a refused path was given back


def test_an_unknown_parallelism_is_refused():
    with pytest.raises(ValueError, match="parallel must be one of root, tree"):
        SearchConfig(parallel="leaf")
