"""The search trees' memory (search_room.py, and the trees' collection and growth): the room a
search's trees get from the board, the budget and the playouts, and a full tree collected or grown."""

import threading

import pytest
from search_positions import legal, two_plies_down

from foogo import BLACK, PASS, WHITE, Board, search_room
from foogo import search as search_module
from foogo import tree as tk
from foogo.game import Game
from foogo.search import Search, SearchConfig


@pytest.mark.parametrize("threads", [1, 2])
def test_the_trees_fit_in_the_memory_option_with_prune_scratch(threads):
    # a timed search sizes its trees by the memory option alone (a playout count would bound them)
    search = Search(SearchConfig(seconds=0.2, threads=threads, seed=3, memory_mb=16))
    board = Board(9)
    search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    board.play(BLACK, "E5")
    board.play(WHITE, "C3")
    search.genmove(board, BLACK, 7.0, legal(board, BLACK))  # reuses and prunes
    total = sum(a.nbytes for tree in search.trees for a in tree.arrays)
    total += sum(tree._rank.nbytes for tree in search.trees if tree._rank is not None)
    assert 8 * 2**20 < total <= 16 * 2**20


def test_pruning_with_a_visit_floor_keeps_exactly_the_nodes_above_it():
    board, search = two_plies_down(9, 8)
    tree = search.trees[0]
    ni, nh, ei, ef, ek, meta = tree.arrays
    root = int(meta[tk.ROOT])
    # nodes at or above the floor, found by walking the tree from the root
    floor = 8
    wanted, stack = set(), [root]
    while stack:
        node = stack.pop()
        wanted.add(int(nh[node]) ^ int(ni[node, tk.VISITS]) << 1)
        first, count = ni[node, tk.FIRST], ni[node, tk.COUNT]
        stack += [int(c) for c in ei[tk.CHILD, first:first + count] if c >= 0 and ni[c, tk.VISITS] >= floor]
    root_edges = ef[:, ni[root, tk.FIRST]:ni[root, tk.FIRST] + ni[root, tk.COUNT]].copy()
    tree._compact(root, floor)
    ni, nh, ei, ef, ek, meta = tree.arrays
    kept = {int(nh[i]) ^ int(ni[i, tk.VISITS]) << 1 for i in range(int(meta[tk.NODES]))}
    assert kept == wanted and len(wanted) > 1
    assert (ni[1:meta[tk.NODES], tk.VISITS] >= floor).all()
    # the edges keep their statistics whether or not their child was dropped
    assert (ef[:, 0:ni[0, tk.COUNT]] == root_edges).all()


def test_a_full_tree_is_collected_and_keeps_growing():
    # 1 MB holds about 580 9x9 nodes; 40,000 playouts would grow thousands of them, and grow about 1,380 with
    # the collections raising the threshold (at 20,000, 1,160-1,210: too near twice the room to test it)
    board = Board(9)
    search = Search(SearchConfig(seconds=60.0, threads=1, seed=5, memory_mb=1, expand_threshold=2.0))
    stop = threading.Event()
    seen = []

    def progress(result):
        meta = search.trees[0].meta
        seen.append((result.playouts, int(meta[tk.CREATED])))
        if result.playouts >= 40000:
            stop.set()

    result = search.genmove(board, BLACK, 7.0, legal(board, BLACK), stop=stop, progress=progress, interval=0.05)
    tree = search.trees[0]
    capacity = tree.capacity[1] // (9 * 9 + 1)  # nodes the edge room holds
    assert tree.meta[tk.COLLECTIONS] >= 2
    assert tree.meta[tk.CREATED] > 2 * capacity
    assert tree.meta[tk.EXPAND_AT] > search.config.expand_threshold
    # still growing in the last part of the search
    late = [created for playouts, created in seen if playouts >= result.playouts * 0.6]
    assert late[-1] > late[0]
    assert result.move in legal(board, BLACK) or result.move == PASS
    # the next move starts from the configured threshold again (a budget too short for a batch)
    board.play(BLACK, result.move)
    search.genmove(board, WHITE, 7.0, legal(board, WHITE), time_budget=1e-9)
    assert search.trees[0].meta[tk.EXPAND_AT] == 0


def test_the_default_tree_memory_grows_with_the_board_and_fits_the_machine(monkeypatch):
    assert search_room.default_memory_mb(9) == 64
    assert search_room.default_memory_mb(19) == 285
    assert search_room.default_memory_mb(25) == 493
    pages = {"SC_PHYS_PAGES": 2**18, "SC_PAGE_SIZE": 4096}  # a 1 GB machine
    monkeypatch.setattr(search_room.os, "sysconf", lambda name: pages[name])
    assert search_room.default_memory_mb(19) == 128
    search = Search(SearchConfig(seconds=0.01))
    search._ensure_trees(Board(19).geometry)
    tree_bytes = sum(a.nbytes for a in search.trees[0].arrays) + search.trees[0].capacity[0] * 4
    assert 100 * 2**20 < tree_bytes <= 128 * 2**20


def test_the_default_tree_memory_follows_the_move_time_budget_past_two_seconds():
    assert search_room.default_memory_mb(9, None) == search_room.default_memory_mb(9, 1.0) == 64
    assert search_room.default_memory_mb(9, 2.0) == 64  # issue 10's game at --time 2: under 250 MB
    assert search_room.default_memory_mb(9, 5.0) == min(448, search_room.memory_ceiling_mb())
    assert search_room.default_memory_mb(9, 3.0) == 192
    assert search_room.default_memory_mb(9, 600.0) == search_room.memory_ceiling_mb() <= 512
    assert search_room.default_memory_mb(19, 5.0) == min(512, search_room.memory_ceiling_mb())


def test_the_default_tree_memory_past_two_seconds_follows_the_nodes_a_playout_makes(monkeypatch):
    # a tree expanding at 5 makes 8/5 the nodes a playout of one expanding at 8: its room past 2 s grows alike
    monkeypatch.setattr(search_room, "memory_ceiling_mb", lambda: 4096)
    assert search_room.default_memory_mb(9, 2.0, 5.0) == search_room.default_memory_mb(9, 2.0, 8.0) == 64
    assert search_room.default_memory_mb(9, 3.0, 5.0) == 64 + 128 * 8 // 5
    assert search_room.default_memory_mb(9, 5.0, 5.0) == int(64 + 384 * 1.6)
    assert search_room.default_memory_mb(9, 5.0, 16.0) == 64 + 384 // 2
    # the search passes its own threshold: a heavy 9x9 search expands at 3, a light one at 8
    geometry = Board(9).geometry
    for policy, threshold in (("heavy", 3.0), ("light", 8.0)):
        search = Search(SearchConfig(seconds=5.0, threads=2, policy=policy))
        search._ensure_trees(geometry)
        search._size_trees(geometry, 5.0, False)
        memory = search_room.default_memory_mb(9, 5.0, threshold)
        assert all(tree.capacity == search._tree_size(geometry, memory) for tree in search.trees)
    explicit = Search(SearchConfig(seconds=5.0, policy="heavy", expand_threshold=8.0))
    explicit._ensure_trees(geometry)
    explicit._size_trees(geometry, 5.0, False)
    assert explicit.trees[0].capacity == explicit._tree_size(geometry, 448)


def test_the_default_tree_memory_of_a_playout_count_holds_several_searches_nodes(monkeypatch):
    monkeypatch.setattr(search_room, "memory_ceiling_mb", lambda: 4096)
    # a node of 9x9 is its row, 98 edges of 21 bytes and prune's 4 bytes: 2,106 bytes
    assert search_room.node_bytes(9) == 2106
    # counts up to about 26,000 heavy playouts on 9x9 (six searches' nodes at 5) fit the 64 MB of short moves
    assert search_room.default_memory_mb(9, None, 5.0, 26_000) == 64
    assert search_room.default_memory_mb(9, None, 5.0, 34_400) == 82
    want = search_room.REUSE_BUDGETS * 137_600 / 5.0 * 2106 / 2**20
    assert search_room.default_memory_mb(9, None, 5.0, 137_600) == int(want) == 331
    assert search_room.default_memory_mb(9, None, 8.0, 137_600) == int(want * 5 / 8)
    geometry = Board(9).geometry
    search = Search(SearchConfig(playouts=137_600, policy="heavy"))  # the heavy 9x9 default expands at 3
    search._ensure_trees(geometry)
    search._size_trees(geometry, None, False, 137_600)
    assert search_room.default_memory_mb(9, None, 3.0, 137_600) == int(want * 5 / 3) == 552
    assert search.trees[0].capacity == search._tree_size(geometry, 552)
    given = Search(SearchConfig(playouts=137_600, policy="heavy", memory_mb=64))  # --memory stays the cap
    given._ensure_trees(geometry)
    given._size_trees(geometry, None, False, 137_600)
    assert given.trees[0].capacity == given._tree_size(geometry, 64)


def test_a_search_of_a_large_playout_count_sizes_its_trees_for_it():
    board = Board(9)
    search = Search(SearchConfig(playouts=120_000, policy="light", resign_threshold=None))
    search.genmove(board, BLACK, 7.0)
    assert search.trees[0].capacity == search._tree_size(board.geometry, search_room.default_memory_mb(
        9, None, 8.0, 120_000)) and search.trees[0].collections == 0


def test_a_longer_budget_gives_the_trees_more_memory_and_a_shorter_one_takes_none_back():
    geometry = Board(9).geometry
    search = Search(SearchConfig(seconds=2.0, threads=2))
    search._ensure_trees(geometry)
    assert all(tree.capacity == search._tree_size(geometry, 64) for tree in search.trees)
    search._size_trees(geometry, 3.0, False)
    assert all(tree.capacity == search._tree_size(geometry, 192) for tree in search.trees)
    search._size_trees(geometry, 1.0, False)
    assert all(tree.capacity == search._tree_size(geometry, 192) for tree in search.trees)
    total = sum(a.nbytes for tree in search.trees for a in tree.arrays)
    assert 180 * 2**20 < total <= 192 * 2**20
    given = Search(SearchConfig(seconds=5.0, memory_mb=32))  # an explicit cap, whatever the budget
    given._ensure_trees(geometry)
    given._size_trees(geometry, 60.0, False)
    assert given.trees[0].capacity == given._tree_size(geometry, 32)


def test_a_grown_tree_keeps_its_nodes_and_the_next_search_reuses_them():
    board, search = two_plies_down(9, 8)
    tree = search.trees[0]
    nodes, edges = int(tree.meta[tk.NODES]), int(tree.meta[tk.EDGES])
    tree.meta[tk.FULL] = 1  # as if the last search had filled it
    ni, nh, ei, ef, ek, meta = (a.copy() for a in tree.arrays)
    capacity = tree.capacity
    tree.grow(2 * capacity[0], 2 * capacity[1])
    assert tree.capacity == (2 * capacity[0], 2 * capacity[1])
    ni2, nh2, ei2, ef2, ek2, meta2 = tree.arrays
    meta[tk.FULL] = 0  # room again: the next search does not collect it at once
    assert (meta2 == meta).all() and (ni2[:nodes] == ni[:nodes]).all() and (nh2[:nodes] == nh[:nodes]).all()
    assert (ei2[:, :edges] == ei[:, :edges]).all() and (ef2[:, :edges] == ef[:, :edges]).all()
    assert (ek2[:edges] == ek[:edges]).all()
    tree.grow(capacity[0], capacity[1])  # never smaller
    assert tree.capacity == (2 * capacity[0], 2 * capacity[1])
    result = search.genmove(board, BLACK, 7.0, legal(board, BLACK))  # the PV's grandchild: reused
    assert tree.arrays.ni[int(tree.meta[tk.ROOT]), tk.VISITS] > result.playouts


def test_a_tree_grown_between_moves_searches_as_one_made_at_that_size():
    def moves(grow: bool) -> list:
        config = SearchConfig(playouts=4000, threads=2, share_root=False, seed=7, memory_mb=None if grow else 96)
        search = Search(config)
        board, color, seen = Board(9), BLACK, []
        for k in range(3):
            if grow and k == 1:
                nodes, edges = search._tree_size(board.geometry, 96)
                for tree in search.trees:
                    tree.grow(nodes, edges)
            result = search.genmove(board, color, 7.0)
            seen.append((result.move, result.playouts, result.winrate, sorted(result.visits.items())))
            board.play(color, result.move)
            color = 3 - color
        return seen

    assert moves(grow=True) == moves(grow=False)


@pytest.mark.parametrize("parallel", ["root", "tree"])
def test_an_analysis_grows_its_full_trees_up_to_the_ceiling_before_it_collects_them(monkeypatch, parallel):
    # trees of 1 MB (about 440 9x9 nodes in all) that an analysis may grow to 8 MB as they fill
    monkeypatch.setattr(search_module, "default_memory_mb",
                        lambda size, seconds=None, expand_threshold=8.0, playouts=None: 1)
    monkeypatch.setattr(search_module, "memory_ceiling_mb", lambda: 8)
    board = Board(9)
    search = Search(SearchConfig(threads=2, parallel=parallel, seed=5, expand_threshold=2.0))
    geometry = board.geometry
    small, ceiling = search._tree_size(geometry, 1), search._tree_size(geometry, 8)
    stop = threading.Event()
    seen = []

    def progress(result):
        seen.extend((tree.capacity, tree.collections) for tree in search.trees)
        if result.playouts >= 60000:
            stop.set()

    search.analyze(board, BLACK, 7.0, legal(board, BLACK), stop=stop, progress=progress, interval=0.02)
    assert all(tree.capacity == ceiling and tree.allowed == ceiling for tree in search.trees)
    assert seen[0][0] < ceiling  # it started small ...
    assert all(capacity == ceiling for capacity, collections in seen if collections)  # ... grew, then collected
    assert sum(tree.collections for tree in search.trees) > 0
    # a move's search keeps what the analysis grew, and collects rather than grows
    result = search.genmove(board, BLACK, 7.0, legal(board, BLACK), time_budget=0.3)
    assert result.move in legal(board, BLACK) or result.move == PASS
    assert all(tree.capacity == ceiling and tree.allowed == ceiling for tree in search.trees)
    assert small[0] < ceiling[0]


@pytest.mark.parametrize("memory_mb, least, most", [(1, 2, 30), (None, 0, 0)])
def test_a_game_s_budgeted_searches_have_room_for_the_subtree_they_reuse(memory_mb, least, most):
    # a game's searches reuse the subtree of the position reached, which grows to several budgets' nodes:
    # trees sized for two budgets were collected (their expansion threshold raised) 25 and 17 times in two
    # self-play games of 80 and 63 moves at the match budget. Trees take the memory cap instead, mapped as
    # they fill: with the default cap this game never collects (its tree peaks at 766 nodes, a budget's
    # 3000 / 8 is 375), with a cap of 1 MB (503 nodes) it does (5 times)
    game = Game(9, komi=7)
    search = Search(SearchConfig(playouts=3000, policy="light", seed=3, threads=1, memory_mb=memory_mb))
    counted = 0  # the searches' own counts (SearchResult.collections, which foogo gtp logs)
    for k in range(30):
        color = "bw"[k % 2]
        result = search.genmove(game.board, color, 7, game.legal_moves(color), history=game.recent_positions(8))
        counted += result.collections
        if result.vertex in ("pass", "resign"):
            break
        game.play(color, result.vertex)
    assert least <= search.trees[0].collections <= most
    assert counted == search.trees[0].collections
