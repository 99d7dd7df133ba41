"""The compiled tree (tree.py, tree_layout.py): each edge's move and the position its child holds, and
no cycle counts in an ordinary build."""

from search_positions import legal, two_plies_down

from foogo import BLACK, PASS, Board
from foogo import tree as tk
from foogo.search import Search, SearchConfig


def test_an_edge_move_is_its_position_and_the_root_children_hold_the_position_after_it():
    board, search = two_plies_down(7, 3)  # the tree's root is still the empty board, black to move
    tree = search.trees[0]
    ni, nh, ei, ef, ek, meta = tree.arrays
    g = board.geometry
    for node in range(int(meta[tk.NODES])):
        first, count = int(ni[node, tk.FIRST]), int(ni[node, tk.COUNT])
        moves = tk.node_moves(ni, ek, node, tree.base)
        assert count == tk.edges_per_node(g) and moves[-1] == PASS
        for e in range(first, first + count):
            if ek[e] != tk.K_DISABLED:
                assert tk.edge_move.py_func(ni, node, e, tree.base) == moves[e - first]
    root = int(meta[tk.ROOT])
    first, count = int(ni[root, tk.FIRST]), int(ni[root, tk.COUNT])
    children = 0
    for k, move in enumerate(tk.node_moves(ni, ek, root, tree.base).tolist()):
        child = int(ei[tk.CHILD, first + k])
        if child >= 0 and move != PASS:
            after = Board(7)
            after.play(BLACK, move)
            assert int(nh[child]) == after.hash, g.name(move)
            children += 1
    assert children >= 3


def test_an_ordinary_build_counts_no_cycles():
    # the profiling counters (jit.PROFILE, bench/search_cycles.py) compile away unless asked for
    from foogo import jit

    board = Board(9)
    search = Search(SearchConfig(playouts=300, seed=1))
    search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    meta = search.trees[0].meta
    assert not jit.PROFILE
    assert meta[tk.NODES] > 1
    assert not any(tk.cycle_counts(meta).values()) and tk.playout_stones(meta) == 0
