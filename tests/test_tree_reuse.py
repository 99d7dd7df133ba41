"""Tree reuse between searches (search_tree.py): the subtree of the position reached kept and pruned
exactly, and a new tree when the komi, the colour to move or a lifted ko makes another search."""

import threading

import pytest
from search_positions import legal, two_plies_down

from foogo import BLACK, WHITE, Board, board_from_ascii
from foogo import tree as tk
from foogo.search import Search, SearchConfig


def test_tree_is_reused_for_the_next_move():
    board, search = two_plies_down(9, 8)
    tree = search.trees[0]
    expected = tree._find(board.hash, BLACK)
    assert expected >= 0, "the position two plies down is in the tree"
    visits_before = int(tree.arrays.ni[expected, tk.VISITS])
    nodes_before = int(tree.meta[tk.NODES])
    assert visits_before > 0
    result = search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    # the reused subtree became the whole tree (pruned: node 0 is the root) and kept its visits
    assert tree.meta[tk.ROOT] == 0
    assert tree.arrays.ni[0, tk.VISITS] == visits_before + result.playouts
    assert tree.meta[tk.NODES] < nodes_before + result.playouts


def test_the_same_position_again_grows_the_same_tree():
    # a GUI asking again about the position, or a genmove after analysis, continues the search
    board = Board(9)
    search = Search(SearchConfig(playouts=600, seed=4))
    first = search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    tree = search.trees[0]
    nodes = int(tree.meta[tk.NODES])
    second = search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    assert tree.meta[tk.ROOT] == 0
    assert tree.arrays.ni[0, tk.VISITS] == first.playouts + second.playouts
    assert sum(second.visits.values()) == first.playouts + second.playouts
    assert tree.meta[tk.CREATED] > 1.5 * nodes  # grown, not built again


def test_the_same_stones_after_two_passes_lift_the_ko_for_the_next_search():
    # same stones and colour, but the ko the first search was barred from is open again after two passes:
    # its root, built without the retake, must not be reused
    board = board_from_ascii("""
        . . . . .
        . X O . .
        X O . O .
        . X O . .
        . . . . .
    """, to_move=BLACK)
    assert board.play(BLACK, "C3").captured == ["B3"]
    retake = board.geometry.parse("B3")
    assert not board.is_legal(WHITE, retake)
    search = Search(SearchConfig(playouts=400, seed=4))
    search.genmove(board, WHITE, 0.5, legal(board, WHITE))
    board.play(WHITE, "pass")
    board.play(BLACK, "pass")
    assert board.is_legal(WHITE, retake)
    second = search.genmove(board, WHITE, 0.5, legal(board, WHITE))
    assert retake in second.visits
    assert sum(second.visits.values()) == second.playouts


def test_analysis_then_genmove_on_the_position_continues_the_tree():
    board = Board(9)
    board.play(BLACK, "E5")
    search = Search(SearchConfig(playouts=500, seed=4))
    stop = threading.Event()
    timer = threading.Timer(0.3, stop.set)
    timer.start()
    analysed = search.analyze(board, WHITE, 7.0, legal(board, WHITE), stop, None)
    timer.join()
    assert analysed.playouts > 0
    result = search.genmove(board, WHITE, 7.0, legal(board, WHITE))
    assert sum(result.visits.values()) == analysed.playouts + result.playouts


def test_each_thread_continues_its_own_tree_on_the_same_position():
    board = Board(9)
    search = Search(SearchConfig(playouts=600, seed=4, threads=2))
    first = search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    second = search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    assert sum(tree.arrays.ni[0, tk.VISITS] for tree in search.trees) == first.playouts + second.playouts
    assert sum(second.visits.values()) == first.playouts + second.playouts


def test_a_new_komi_drops_the_tree():
    # the tree's win rates were counted under the old komi
    board = Board(9)
    search = Search(SearchConfig(playouts=600, seed=4))
    search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    second = search.genmove(board, BLACK, 0.5, legal(board, BLACK))
    assert search.trees[0].arrays.ni[0, tk.VISITS] == second.playouts
    assert sum(second.visits.values()) == second.playouts


def test_the_same_stones_with_the_other_colour_to_move_are_a_new_tree():
    board = Board(9)
    search = Search(SearchConfig(playouts=400, seed=4))
    search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    second = search.genmove(board, WHITE, 7.0, legal(board, WHITE))
    assert sum(second.visits.values()) == second.playouts


def test_pruning_keeps_the_subtree_exactly():
    board, search = two_plies_down(9, 8)
    tree = search.trees[0]
    old = tree._find(board.hash, BLACK)
    ni, nh, ei, ef, ek, meta = (a.copy() for a in tree.arrays)
    tree._prune(old)
    ni2, nh2, ei2, ef2, ek2, meta2 = tree.arrays

    def shape(arrays, node, depth=0):
        """The subtree under node: its hash, visits and, per edge, the move, stats, prior kind and
        child's shape."""
        ni, nh, ei, ef, ek = arrays
        first, count = ni[node, tk.FIRST], ni[node, tk.COUNT]
        moves = tk.node_moves(ni, ek, node, tree.base)
        return (int(nh[node]), int(ni[node, tk.VISITS]), int(ni[node, tk.COLOR]),
                tuple((int(moves[e - first]), tuple(ef[:, e].tolist()), int(ek[e]),
                       shape(arrays, ei[tk.CHILD, e], depth + 1) if ei[tk.CHILD, e] >= 0 else None)
                      for e in range(first, first + count)))

    assert shape((ni2, nh2, ei2, ef2, ek2), 0) == shape((ni, nh, ei, ef, ek), old)
    assert meta2[tk.ROOT] == 0 and meta2[tk.NODES] < meta[tk.NODES]


@pytest.mark.parametrize("uct", [0.0, 1.0])
def test_reused_root_never_plays_a_move_the_game_forbids(uct):
    # with an exploration term, a disabled edge's value -1 alone would not keep it out
    board, search = two_plies_down(7, 15, uct=uct)
    allowed = legal(board, BLACK)
    ni, nh, ei, ef, ek, meta = search.trees[0].arrays
    node = search.trees[0]._find(board.hash, BLACK)
    assert node >= 0, "the position two plies down is in the tree"
    first, count = ni[node, tk.FIRST], ni[node, tk.COUNT]
    visits = tk.real_stats(ef, ek, first, count, search.config.prior)[0]
    moves = tk.node_moves(ni, ek, node, search.trees[0].base)
    favourite_edge = max((e for e in range(first, first + count) if moves[e - first] >= 0),
                         key=lambda e: visits[e - first])
    favourite = int(moves[favourite_edge - first])
    favourite_visits = visits[favourite_edge - first]
    disabled = list(moves).count(tk.DISABLED)  # border points, stones, own eyes
    assert favourite in allowed
    forbidden = [favourite]
    # as if superko forbade the move the reused subtree likes best
    result = search.genmove(board, BLACK, 7.0, [p for p in allowed if p not in forbidden])
    assert result.move not in forbidden
    assert not set(result.visits) & set(forbidden)
    ni, nh, ei, ef, ek, meta = search.trees[0].arrays
    root = int(meta[tk.ROOT])
    first, count = ni[root, tk.FIRST], ni[root, tk.COUNT]
    assert list(tk.node_moves(ni, ek, root, search.trees[0].base)).count(tk.DISABLED) == disabled + 1
    # never selected: every visit of the root since the favourite was disabled went to an enabled edge
    enabled_visits = tk.real_stats(ef, ek, first, count, search.config.prior)[0].sum()
    assert ni[root, tk.VISITS] == enabled_visits + favourite_visits
