"""The compiled tree (tree.py, tree_layout.py, tree_grow.py): each edge's move and the position its child holds,
no cycle counts in an ordinary build, and a seki ending's prior (tree_grow._keep_seki) and what it reads."""

from search_positions import legal, two_plies_down

from foogo import BLACK, PASS, WHITE, Board, board_from_ascii
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


# ---------------------------------------------------------------- a seki ending (tree_grow._keep_seki)

# move 77 of a game at 5 s a move against Pachi (bench/RESULTS.md, "Where foogo misjudged the board before its
# lost games turned"), black to move: black's B5-E6 string and white's A3-E4 string share their last two
# liberties, C5 and D5, and neither has an eye: a seki, and white, ahead on the board, wins on the count. Once the
# other points are filled, each side's only moves are C5 and D5, self-ataris that give its string away.
SEKI_ENDING = """
    O O . O . O . O .
    O O O O O O O . O
    O X O O O O O O O
    X X X X X O . O O
    O X . . X O O O O
    O O O O O X X O X
    O X X X X . X X X
    X X . X . X . X .
    . . . . . . X . .
"""


# the same seki at the game's end, black's H1 filled: each side's only candidates are C5 and D5
SEKI_END = """
    O O O O . O . O O
    O O O O O O O O O
    O X O O O O O O O
    X X X X X O O O O
    O X . . X O O O O
    O O O O O X X O X
    O X X X X . X X X
    X X X X . X . X X
    X . X X X . X X .
"""

SEKI_END_H1_OPEN = """
    O O O O . O . O O
    O O O O O O O O O
    O X O O O O O O O
    X X X X X O O O O
    O X . . X O O O O
    O O O O O X X O X
    O X X X X . X X X
    X X X X . X . X X
    X . X X X . X . .
"""


def root_kinds(search, board) -> dict[str, int]:
    """The prior kind (tree_layout.K_*) of each enabled edge of a searched tree's root, by GTP name."""
    ni, _, _, _, ek, meta = search.trees[0].arrays
    root = int(meta[tk.ROOT])
    moves = tk.node_moves(ni, ek, root, tk.edge_base_of(board.geometry))
    first = int(ni[root, tk.FIRST])
    return {("pass" if m == PASS else board.geometry.name(int(m))): int(ek[first + i])
            for i, m in enumerate(moves) if m != tk.DISABLED}


def test_a_seki_ending_gives_the_pass_the_plain_prior_and_the_self_ataris_the_risky_one():
    for color in (BLACK, WHITE):
        board = board_from_ascii(SEKI_END, to_move=color)
        for knowledge in ("learned", "rules"):
            search = Search(SearchConfig(playouts=200, policy="heavy", seed=1, knowledge=knowledge,
                                         resign_threshold=None))
            assert search.genmove(board, color, 7.0).vertex == "pass"
            assert root_kinds(search, board) == {"C5": tk.K_RISKY, "D5": tk.K_RISKY, "pass": tk.K_PLAIN}
    # moves that are no such self-atari (white's throw-ins at H1 and J1) leave the prior as it was
    board = board_from_ascii(SEKI_END_H1_OPEN, to_move=WHITE)
    search = Search(SearchConfig(playouts=200, policy="heavy", seed=1, resign_threshold=None))
    search.genmove(board, WHITE, 7.0)
    kinds = root_kinds(search, board)
    assert set(kinds) == {"C5", "D5", "H1", "J1", "pass"} and kinds["pass"] == tk.K_PASS
    assert kinds["C5"] >= tk.K_LEARNED


def test_the_search_reads_a_seki_ending_as_a_seki():
    board = board_from_ascii(SEKI_ENDING)
    result = Search(SearchConfig(playouts=10_000, policy="heavy", seed=1, resign_threshold=None)).genmove(
        board, BLACK, 7.0)
    a4 = list(board.geometry.points).index(board.geometry.parse("A4"))
    assert result.winrate < 0.3 and result.ownership[a4] < 0  # without the prior's seki ending: 0.92, and +0.82
