"""The learned prior's move features (features.py), its gamma table, and the tree's use of them."""

import io
import os
import zipfile
from pathlib import Path

import numpy as np
import pytest
from bench_loader import load

from foogo import BLACK, WHITE, Board, board_from_ascii
from foogo import board_kernels as bk
from foogo import features as fe
from foogo import gamma_table as gt
from foogo import patterns as pa
from foogo import spatial_patterns as sp
from foogo import tree as tk
from foogo.game import Game
from foogo.patterns import PATTERN_TABLE
from foogo.playout import playout
from foogo.policy import LIGHT
from foogo.random_stream import seed_rng
from foogo.search import Search, SearchConfig


def features_of(board, color, vertex):
    """The five features of `color` at `vertex`, or None if the tree would not consider it."""
    moves, feats = fe.candidates(board, color)
    hit = np.flatnonzero(moves == board.geometry.parse(vertex))
    return None if hit.size == 0 else tuple(int(x) for x in feats[hit[0]])


def tactics_of(board, color, vertex):
    return features_of(board, color, vertex)[fe.G_TACTICS]


CAPTURES = """
    . . . . .
    . O . . .
    O X O . .
    . . . . .
    . . . . .
"""


def test_a_capture_of_one_stone():
    board = board_from_ascii(CAPTURES)
    assert tactics_of(board, WHITE, "B2") == fe.T_CAPTURE1


def test_a_capture_of_two_stones_ranks_above_one():
    board = board_from_ascii("""
        . O O . .
        O X X O .
        . O . . .
        . . . . .
        . . . . .
    """)
    assert tactics_of(board, WHITE, "C3") == fe.T_CAPTURE2


def test_extending_from_atari_is_an_escape():
    board = board_from_ascii(CAPTURES)
    assert tactics_of(board, BLACK, "B2") == fe.T_SAVE


def test_reducing_a_string_to_one_liberty_is_an_atari():
    board = board_from_ascii("""
        . . . . .
        . . . . .
        . O X . .
        . . O . .
        . . . . .
    """)
    assert tactics_of(board, WHITE, "D3") == fe.T_ATARI
    assert tactics_of(board, WHITE, "C4") == fe.T_ATARI
    assert tactics_of(board, WHITE, "A1") == fe.T_PLAIN


def test_self_ataris_of_one_stone_and_of_a_string():
    board = board_from_ascii("""
        . . . . .
        . . . . .
        X X . . .
        O O X . .
        . . X . .
    """)
    assert tactics_of(board, WHITE, "A1") == fe.T_SELF2
    board = board_from_ascii("""
        . . . . .
        . . . . .
        . . . . .
        . X . . .
        X . . . .
    """)
    assert tactics_of(board, WHITE, "B1") == fe.T_SELF1  # and an atari of A1, which counts less


def test_the_opponents_eye_is_no_candidate_unless_it_captures():
    board = board_from_ascii("""
        . X . . .
        X . X . .
        . X . . .
        . . . . .
        . . . . .
    """)
    assert features_of(board, WHITE, "B4") is None


def test_distance_to_the_last_two_moves():
    board = Board(9)
    board.play(BLACK, "E5")
    board.play(WHITE, "C3")
    f = features_of(board, BLACK, "C4")  # beside white's C3 (d = 2), and E5 is (2, 1) away: d = 5
    assert f[fe.G_LAST] == 1 and f[fe.G_LAST2] == 4
    f = features_of(board, BLACK, "D4")  # diagonal to C3: d = 3; (1, 1) from E5: d = 3
    assert f[fe.G_LAST] == 2 and f[fe.G_LAST2] == 2
    f = features_of(board, BLACK, "J9")  # far from both
    assert f[fe.G_LAST] == 0 and f[fe.G_LAST2] == 0
    board.play(BLACK, "pass")
    assert features_of(board, WHITE, "C4")[fe.G_LAST] == 0  # after a pass, no last move
    assert features_of(Board(9), BLACK, "E5")[fe.G_LAST:fe.G_LAST2 + 1] == (0, 0)


def test_line_and_the_empty_square():
    board = Board(9)
    assert features_of(board, BLACK, "A1")[fe.G_LINE] == 0 + fe.EMPTY_SQUARE
    assert features_of(board, BLACK, "E5")[fe.G_LINE] == 4 + fe.EMPTY_SQUARE
    assert features_of(board, BLACK, "C2")[fe.G_LINE] == 1 + fe.EMPTY_SQUARE
    board.play(WHITE, "C3")
    assert features_of(board, BLACK, "A1")[fe.G_LINE] == 0  # C3 is two rows and columns away
    assert features_of(board, BLACK, "E5")[fe.G_LINE] == 4
    assert features_of(board, BLACK, "F6")[fe.G_LINE] == 3 + fe.EMPTY_SQUARE
    assert features_of(board, BLACK, "A6")[fe.G_LINE] == 0 + fe.EMPTY_SQUARE


def naive_empty_square(board, p):
    g = board.geometry
    row, col = divmod(p, g.width)
    colors = bk.colors_view(board._state()[0])
    for dr in range(-2, 3):
        for dc in range(-2, 3):
            r, c = row + dr, col + dc
            if 1 <= r <= board.size and 1 <= c <= board.size and colors[r * g.width + c] in (BLACK, WHITE):
                return False
    return True


@pytest.mark.parametrize("size", [2, 3, 5, 7, 9, 13, 19, 25])
def test_empty_square_agrees_with_a_plain_scan_on_random_positions(size):
    rng = np.random.default_rng(size)
    for trial in range(6):
        board = Board(size)
        g = board.geometry
        for p in rng.permutation(g.points)[: rng.integers(0, max(2, size * size // (trial + 2)))]:
            if board.is_legal(BLACK, int(p)) and rng.random() < 0.9:
                board.play(int(rng.integers(1, 3)), int(p))
        moves, feats = fe.candidates(board, BLACK)
        for p, f in zip(moves, feats):
            assert (f[fe.G_LINE] >= fe.EMPTY_SQUARE) == naive_empty_square(board, int(p)), (size, g.name(int(p)))


def test_the_mover_code_is_the_same_shape_for_either_colour():
    board = board_from_ascii(CAPTURES)
    swapped = board_from_ascii(CAPTURES.replace("X", "x").replace("O", "X").replace("x", "O"))
    for vertex in ("B2", "C4", "A1", "D4"):
        a = features_of(board, WHITE, vertex)
        b = features_of(swapped, BLACK, vertex)
        assert a is not None and a[fe.G_PATTERN] == b[fe.G_PATTERN]


def test_pattern_classes_fold_the_eight_symmetries():
    classes = gt.pattern_classes()
    codes = np.random.default_rng(1).integers(0, 1 << 16, 500)
    images = gt.symmetric_codes(codes)
    assert (images[0] == codes).all()
    for t in range(8):
        assert (classes[images[t]] == classes[codes]).all()
    # a shape and its mirror image: stones north-west and north-east of the centre
    nw = bk.BLACK  # field 0 (NW)
    ne = bk.BLACK << 4  # field 2 (NE)
    assert classes[nw] == classes[ne]
    assert classes[nw] != classes[bk.BLACK << 2]  # north is not north-west


def test_candidates_are_the_tree_edges():
    rng = np.zeros(1, dtype=np.uint64)
    seed_rng(rng, 3, 0)
    game = Game(9)
    s, z = game.board._state()
    s2, z2 = s.copy(), z.copy()
    trace = np.zeros(1000, dtype=np.int32)
    s2[bk.M_TO_MOVE] = BLACK
    playout(s2, z2, game.board.geometry.zobrist, rng, 40, trace, np.zeros(0, dtype=np.int8), LIGHT, PATTERN_TABLE)
    board = Board(9)
    board._s[:], board._z[:] = s2, z2
    ni, nh, ei, ef, ek, meta = tk.new_tree(4, 400)
    params = np.zeros(tk.NPARAMS)
    params[tk.P_PRIOR] = 10
    params[tk.P_KNOWLEDGE] = tk.LEARNED
    for color in (BLACK, WHITE):
        node = tk.expand(ni, nh, ei, ef, ek, meta, s2, z2, board.geometry.zobrist, s2.copy(), z2.copy(),
                         np.zeros(board.geometry.npoints, np.int64), color,
                         np.zeros(1, dtype=np.int32), -1, params, PATTERN_TABLE, gt.GAMMAS, gt.open_parts(9))
        edges = tk.node_moves(ni, ek, node, tk.edge_base_of(board.geometry))
        assert edges[-1] == bk.PASS
        enabled = edges[:-1][edges[:-1] != tk.DISABLED]
        assert list(enabled) == list(fe.candidates(board, color)[0])


def learned_root(board, color, gammas, prior=10.0):
    ni, nh, ei, ef, ek, meta = tk.new_tree(4, 400)
    params = np.zeros(tk.NPARAMS)
    params[tk.P_PRIOR] = prior
    params[tk.P_KNOWLEDGE] = tk.LEARNED
    s, z = board._state()
    node = tk.expand(ni, nh, ei, ef, ek, meta, s, z, board.geometry.zobrist, s.copy(), z.copy(),
                     np.zeros(board.geometry.npoints, np.int64), color,
                     np.zeros(1, dtype=np.int32), -1, params, PATTERN_TABLE, gammas,
                     gt.open_parts(board.size, gammas))
    first, count = ni[node, tk.FIRST], ni[node, tk.COUNT]
    moves = tk.node_moves(ni, ek, node, tk.edge_base_of(board.geometry))
    return {int(m): int(k) for m, k in zip(moves, ek[first:first + count])
            if m != tk.DISABLED}, (ef, ek, first, count)


def test_the_learned_prior_follows_the_gammas():
    board = board_from_ascii(CAPTURES)
    gammas = np.ones(fe.TABLE_SIZE, dtype=np.float32)
    gammas[fe.OFFSETS[fe.G_TACTICS] + fe.T_CAPTURE1] = 1000.0
    kinds, _ = learned_root(board, WHITE, gammas)
    capture = board.geometry.parse("B2")
    assert kinds[capture] == max(kinds.values())
    assert kinds[capture] >= tk.K_LEARNED + 12  # about sqrt(1000 / 1020) * 15
    assert kinds[bk.PASS] == tk.K_PASS
    others = {k for m, k in kinds.items() if m not in (capture, bk.PASS)}
    assert others == {tk.K_LEARNED + 0}  # sqrt(1 / 1020) * 15 rounds to 0
    gammas[:] = 1.0
    kinds, _ = learned_root(Board(9), BLACK, gammas)  # all alike: sqrt(1 / 81) * 15 = 1.67
    assert set(kinds.values()) == {tk.K_LEARNED + 2, tk.K_PASS}
    gammas[:] = 0.1  # every factor 0.1: the moves' gammas sum to less than the floor, which stands for it
    kinds, _ = learned_root(Board(9), BLACK, gammas)
    moves = [m for m in kinds if m != bk.PASS]
    g = gt.move_gammas(Board(9), BLACK, moves, gammas)
    assert 0 < g.sum() < tk.LEARNED_FLOOR
    assert [kinds[m] for m in moves] == [tk.K_LEARNED + int(15 * np.sqrt(x / tk.LEARNED_FLOOR) + 0.5) for x in g]


def test_a_lone_move_that_gives_a_living_group_away_is_risky_and_the_pass_plain():
    # the seki of tests/test_policy.py: white's one move, B8, gives a living group away. It is the
    # node's one move (the other empty points are white's own eyes), so its share was 1, the top
    # prior (K_LEARNED + 15), before the node's sum was taken as tree_layout.LEARNED_FLOOR at least:
    # its share became gamma / 20 (the shipped table's gamma, 0.39 in the first table and 1.85 in
    # today's: sqrt(1.85 / 20) * 15 = 4.6, a level of 5). B8 is a self-atari of two stones or more, and
    # the node's only candidate: a seki ending, where the playouts pass (policy_heavy's rule (e)), and since
    # 2026-12-07 the tree's prior too (tree_grow._keep_seki): B8 risky, the pass plain. The floor holds
    # wherever a lone move is no such self-atari (the test above, every gamma 0.1)
    from test_policy import SEKI
    board = board_from_ascii(SEKI, to_move=WHITE)
    kinds, _ = learned_root(board, WHITE, gt.GAMMAS)
    b8 = board.geometry.parse("B8")
    assert kinds == {b8: tk.K_RISKY, bk.PASS: tk.K_PLAIN}
    gamma = float(gt.move_gammas(board, WHITE, [b8], gt.GAMMAS)[0])
    assert int(15 * np.sqrt(gamma / tk.LEARNED_FLOOR) + 0.5) >= 1  # its learned level, which the pass never had


def test_a_lone_move_that_is_no_such_self_atari_gets_its_share_of_the_floor():
    # black's one candidate, C1, captures both white strings; white's, A3, captures black's four stones. Every
    # factor 1.5: each move's gamma is below the floor, which stands for the node's sum (a share of 1 before it)
    board = board_from_ascii("""
        . X O
        X X O
        O O .
    """)
    gammas = np.full(fe.TABLE_SIZE, 1.5, dtype=np.float32)
    for color, vertex in ((BLACK, "C1"), (WHITE, "A3")):
        kinds, _ = learned_root(board, color, gammas)
        p = board.geometry.parse(vertex)
        gamma = float(gt.move_gammas(board, color, [p], gammas)[0])
        assert 1 < gamma < tk.LEARNED_FLOOR
        level = int(15 * np.sqrt(gamma / tk.LEARNED_FLOOR) + 0.5)
        assert kinds == {p: tk.K_LEARNED + level, bk.PASS: tk.K_PASS} and 0 < level < 15, (vertex, gamma)


def test_learned_priors_leave_real_visits_exact():
    kinds, (ef, ek, first, count) = learned_root(board_from_ascii(CAPTURES), WHITE, gt.GAMMAS, prior=7.0)
    ef[tk.N, first:first + count] += 3.0
    ef[tk.W, first:first + count] += 2.0
    rn, rw = tk.real_stats(ef, ek, first, count, 7.0)
    learned = ek[first:first + count] >= tk.K_LEARNED
    enabled = ek[first:first + count] != tk.K_DISABLED
    assert learned.sum() == enabled.sum() - 1  # all but pass
    assert (rn[enabled] == 3.0).all() and (rw[learned] == 2.0).all()  # n0 * (0.5 + j) wins: exact in float32
    assert (rn[~enabled] == 0.0).all()


def test_a_learned_search_plays_and_reuses_its_tree():
    game = Game(9)
    search = Search(SearchConfig(playouts=600, knowledge="learned", resign_threshold=None, seed=2))
    for _ in range(3):
        color = game.to_move
        result = search.genmove(game.board, color, 7.0, game.legal_points(color))
        assert result.move in game.legal_points(color) or result.move == bk.PASS
        game.play(color, result.vertex)
    assert sum(result.priors.values()) == pytest.approx(1.0)


def test_an_unknown_knowledge_is_refused():
    with pytest.raises(ValueError, match="knowledge must be one of rules, learned"):
        SearchConfig(knowledge="magic")


def test_the_shipped_table_is_there_and_valid(tmp_path):
    assert Path(gt.DATA_PATH).exists(), "foogo/data/gammas.npz is missing: make it with bench/learn_gammas.py"
    table = gt.load_gammas()
    assert table.shape == (fe.TABLE_SIZE,) and (table > 0).all()
    bad = tmp_path / "bad.npz"
    np.savez(bad, table=np.ones(10, dtype=np.float32))
    with pytest.raises(ValueError, match="not a gamma table"):
        gt.load_gammas(str(bad))
    np.savez(bad, table=-np.ones(fe.TABLE_SIZE, dtype=np.float32))
    with pytest.raises(ValueError, match="not a gamma table"):
        gt.load_gammas(str(bad))
    with pytest.warns(UserWarning, match="no learned gammas"):
        assert (gt.load_gammas(str(tmp_path / "missing.npz")) == 1).all()


# ---------------------------------------------------------------- the MM fit (bench/learn_gammas.py)

def load_learner():
    return load("learn_gammas")


def test_mm_recovers_the_gammas_that_made_the_choices():
    learner = load_learner()
    rng = np.random.default_rng(7)
    # two groups: 20 "patterns" (classes 0..19) and the tactics group; true gammas known
    true_pattern = np.exp(rng.normal(0, 1, 20))
    true_tactics = np.array([1.0, 8.0, 3.0, 5.0, 2.0, 0.1, 0.05])
    samples = []
    for _ in range(6000):
        n = int(rng.integers(5, 30))
        feats = np.zeros((n, 5), dtype=np.int32)
        feats[:, 0] = rng.integers(0, 20, n)
        feats[:, 1] = rng.choice(7, n, p=[0.7, 0.05, 0.05, 0.05, 0.05, 0.05, 0.05])
        g = true_pattern[feats[:, 0]] * true_tactics[feats[:, 1]]
        samples.append((feats, int(rng.choice(n, p=g / g.sum()))))
    class_of = np.arange(1 << 16)  # the codes 0..19 are their own classes here
    data = learner.Data(samples, class_of)
    classes = np.unique(data.raw[:, 0])
    ids = learner.feature_ids(data.raw, classes)
    gamma = learner.fit(data, ids, len(classes) + sum(fe.GROUP_SIZES[1:]), 60, log=lambda m: None)
    pattern = gamma[:20] / np.exp(np.mean(np.log(gamma[:20])))
    truth = true_pattern / np.exp(np.mean(np.log(true_pattern)))
    assert np.allclose(np.log(pattern), np.log(truth), atol=0.25)
    tactics = gamma[20:27] / gamma[20]
    assert np.allclose(np.log(tactics[:5]), np.log(true_tactics[:5]), atol=0.3)
    figures = learner.evaluate(data, ids, gamma)
    assert figures["log_p"] > figures["log_p_uniform"] and figures["top1"] > 2 * figures["top1_uniform"]


def test_distance_to_a_point_whose_stone_was_captured_is_feature_zero():
    s, _ = Board(9)._state()
    p = Board(9).geometry.parse("E5")
    assert fe.distance_feature(s, p, p) == 0
    assert fe.distance_feature(s, p, p + 1) == 1


@pytest.mark.parametrize("size", [2, 5, 9, 19])
def test_the_expansions_read_once_features_equal_the_point_by_point_ones(size):
    """What tree.expand reads once a node (the last moves' places) or once a point (its row and column)
    gives each point the features distance_feature and line_feature give it, for every pair of points
    and for a PASS or no move (NOWHERE: feature 0)."""
    board = Board(size)
    s, _ = board._state()
    points = [int(p) for p in board.geometry.points]
    assert fe.place_of.py_func(s, bk.PASS) == (fe.NOWHERE, fe.NOWHERE)
    for p in points:
        row, col = bk.row_col.py_func(s, p)
        near = np.uint64(0) if p % 2 else np.uint64((1 << size) - 1)
        assert fe.line_feature_at.py_func(size, row, col, near) == fe.line_feature.py_func(s, p, near)
        for q in points + [bk.PASS, bk.NO_MOVE]:
            qrow, qcol = fe.place_of.py_func(s, q)
            assert fe.distance_between.py_func(row, col, qrow, qcol) == fe.distance_feature.py_func(s, p, q)


def random_positions(size, count, moves_per_step=None):
    """Boards after k light playout moves (capped playouts, seeded by size and k) for k = 0, step, 2 * step...,
    `count` of them; step = moves_per_step, else size * size // count."""
    rng = np.zeros(1, dtype=np.uint64)
    step = moves_per_step if moves_per_step is not None else size * size // count
    for k in range(count):
        seed_rng(rng, size, k)
        board = Board(size)
        s, z = board._state()
        trace = np.zeros(3 * size * size, dtype=np.int32)
        playout(s, z, board.geometry.zobrist, rng, k * step, trace, np.zeros(0, dtype=np.int8), LIGHT, PATTERN_TABLE)
        yield board


@pytest.mark.parametrize("size", [2, 5, 9, 13, 19, 25])
def test_an_open_points_gamma_from_its_parts_is_its_gamma_to_the_last_bit(size):
    """tree.expand rates a point with no stone in its 5x5 square from the parts of the same point of the
    empty board (features.open_gamma): on random positions of every stage, for both colours, exactly the
    gamma the point-by-point features give (gamma_table.move_gammas)."""
    parts = gt.open_parts(size)
    assert not parts.flags.writeable and gt.open_parts(size) is parts  # made once a size
    checked = 0
    for k, board in enumerate(random_positions(size, 12)):
        s, z = board._state()
        last = fe.place_of.py_func(s, int(s[bk.M_LAST])) + fe.place_of.py_func(s, int(s[bk.M_LAST2]))
        open_points = [int(p) for p in board.geometry.points
                       if bk.color_at.py_func(s, int(s[bk.M_P]), int(p)) == bk.EMPTY and fe.empty_square(s, z, int(p))]
        for color in (BLACK, WHITE):
            plain = gt.move_gammas(board, color, open_points)
            for p, g in zip(open_points, plain):
                row, col = bk.row_col.py_func(s, p)
                assert fe.open_gamma.py_func(parts, p, gt.GAMMAS, row, col, *last) == g, (size, k, p)
                checked += 1
    assert checked > 2 * size * size  # the empty board's points and more


@pytest.mark.parametrize("size", [5, 9, 19])
def test_every_feature_lies_in_its_group_on_random_positions(size):
    for k, board in enumerate(random_positions(size, 20, moves_per_step=size * size // 10)):
        for color in (BLACK, WHITE):
            moves, feats = fe.candidates(board, color)
            for g, n in enumerate(fe.GROUP_SIZES):
                assert ((feats[:, g] >= 0) & (feats[:, g] < n)).all(), (size, k, fe.GROUPS[g])


def test_the_learning_script_writes_a_table_the_engine_loads(tmp_path, monkeypatch, capsys):
    learner = load_learner()
    games = ["(;GM[1]FF[4]SZ[9];B[ee];W[cc];B[gc];W[gg];B[cg];W[dc];B[fd])",
             "(;GM[1]FF[4]SZ[9];B[dd];W[ff];B[fd];W[df];B[ed];W[ec];B[fc])",
             "(;GM[1]FF[4]SZ[9];B[ee];W[de];B[ed];W[cd];B[dc])",
             "(;GM[1]FF[4]SZ[9]AB[aa];B[ee])",  # setup stones: skipped
             "(;GM[1]FF[4]SZ[9];B[ee];W[ee])"]  # an illegal move: the game counts up to it
    for k, text in enumerate(games):
        (tmp_path / f"g{k}.sgf").write_text(text)
    (tmp_path / "broken.sgf").write_text("(;GM[1]SZ[9];B[ee")
    out = tmp_path / "gammas.npz"
    monkeypatch.setattr("sys.argv", ["learn_gammas", str(tmp_path), "--out", str(out), "--iterations", "3",
                                     "--held-out", "0.34", "--source", "test"])
    assert learner.main() == 0
    assert "wrote" in capsys.readouterr().out
    table = gt.load_gammas(str(out))
    assert table.shape == (fe.TABLE_SIZE,) and (table > 0).all() and not (table == 1).all()
    with np.load(out) as data:
        assert str(data["source"]) == "test" and int(data["games"]) == 4


def test_the_learning_script_holds_out_the_test_directories_games(tmp_path, small_game_dirs, monkeypatch, capsys):
    learner = load_learner()
    train, test = small_game_dirs
    out = tmp_path / "gammas.npz"
    monkeypatch.setattr("sys.argv", ["learn_gammas", str(train), "--test", str(test), "--out", str(out),
                                     "--iterations", "2"])
    assert learner.main() == 0
    printed = capsys.readouterr()
    assert "14 training and 5 held-out positions" in printed.err  # both training games, all of the test's
    assert "held out, 5 positions" in printed.out
    with np.load(out) as data:
        assert int(data["games"]) == 2 and int(data["positions"]) == 14
    monkeypatch.setattr("sys.argv", ["learn_gammas", str(train), "--test", str(tmp_path / "none")])
    with pytest.raises(SystemExit):
        learner.main()


def test_the_learning_script_learns_one_players_moves_when_asked(tmp_path, monkeypatch, capsys):
    learner = load_learner()
    train, test = tmp_path / "train", tmp_path / "test"
    train.mkdir()
    test.mkdir()
    (train / "a.sgf").write_text("(;GM[1]FF[4]SZ[9]PB[Pachi 12.90 =10000]PW[foogo];B[ee];W[cc];B[gc];W[gg];B[cg]"
                                 ";W[dc];B[fd])")  # black's 4 moves
    (train / "b.sgf").write_text("(;GM[1]FF[4]SZ[9]PB[foogo]PW[pachi];B[dd];W[ff];B[fd];W[df];B[ed];W[ec];B[fc])")
    (test / "c.sgf").write_text("(;GM[1]FF[4]SZ[9]PB[GNU Go];B[ee];W[de];B[ed];W[cd];B[dc])")  # no name matches
    (test / "d.sgf").write_text("(;GM[1]FF[4]SZ[9]PB[PACHI]PW[Pachi];B[ee];W[de];B[ed];W[cd];B[dc])")
    out = tmp_path / "gammas.npz"
    monkeypatch.setattr("sys.argv", ["learn_gammas", str(train), "--test", str(test), "--out", str(out),
                                     "--iterations", "2", "--player", "pachi"])
    assert learner.main() == 0
    assert "7 training and 5 held-out positions" in capsys.readouterr().err  # a's black, b's white; all of d
    # the other side's moves are played on the board all the same: b's white moves are rated as without it
    samples = learner.game_samples(train / "b.sgf", player="pachi")
    everyone = learner.game_samples(train / "b.sgf")
    assert len(samples) == 3 and len(everyone) == 7
    assert [len(f) for f, _ in samples] == [len(f) for f, _ in everyone[1::2]]
    assert all((f == g).all() and k == j for (f, k), (g, j) in zip(samples, everyone[1::2]))
    # a table with more spatial patterns than the engine's hash table holds is fitted and tested, not written
    monkeypatch.setattr(fe, "SPATIAL_MAX_PATTERNS", 0)
    big = tmp_path / "big.npz"
    monkeypatch.setattr("sys.argv", ["learn_gammas", str(train), "--test", str(test), "--out", str(big),
                                     "--iterations", "2", "--min-count", "1"])
    assert learner.main() == 1
    printed = capsys.readouterr()
    assert "held out, " in printed.out and "not written: " in printed.err and "raise --min-count" in printed.err
    assert not big.exists()


def test_the_learning_script_scores_tables_through_the_engines_prior_and_pairs_them(tmp_path, monkeypatch,
                                                                                     capsys):
    learner = load_learner()
    (tmp_path / "a.sgf").write_text("(;GM[1]FF[4]SZ[9]PB[Pachi]PW[foogo];B[ee];W[cc];B[gc];W[gg];B[cg];W[dc])")
    (tmp_path / "b.sgf").write_text("(;GM[1]FF[4]SZ[9];B[ee];W[ee])")  # illegal at once: nothing counts
    flat = tmp_path / "flat.npz"  # every gamma 1: the uniform choice among the candidates
    np.savez(flat, table=np.ones(fe.TABLE_SIZE, dtype=np.float32))
    scores = learner.score_tables([tmp_path / "a.sgf", tmp_path / "b.sgf"], [flat, Path(gt.DATA_PATH)], "pachi")
    # black's three moves, each rated among the candidates the tree would consider
    assert [len(s["log_p"]) for s in scores] == [3, 3]
    board = Board(9)
    board.play("b", "E5")
    board.play("w", "C3")
    moves, _ = fe.candidates(board, BLACK, sacrifices=True)
    assert scores[0]["log_p"][1] == pytest.approx(-np.log(len(moves)))  # uniform: log 1/n
    assert scores[0]["better"].tolist() == [0, 0, 0]  # ties: nothing rated above the move played
    gammas = gt.move_gammas(board, BLACK, moves)  # the shipped table, as the tree reads it
    played = int(np.flatnonzero(moves == board.geometry.parse("G3"))[0])
    assert scores[1]["log_p"][1] == pytest.approx(np.log(gammas[played] / gammas.sum()))
    assert scores[1]["better"][1] == int(np.sum(gammas > gammas[played]))
    monkeypatch.setattr("sys.argv", ["learn_gammas", str(tmp_path), "--player", "pachi",
                                     "--score", str(flat), str(flat)])
    assert learner.main() == 0
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and "3 positions" in lines[0] and "top-1 100.0%" in lines[0]
    assert "against the first +0.0000 (+0.0000 to +0.0000)" in lines[1]
    monkeypatch.setattr("sys.argv", ["learn_gammas", str(tmp_path), "--score", str(tmp_path / "none.npz")])
    with pytest.raises(SystemExit):
        learner.main()


def test_the_learned_playout_patterns_are_the_shapes_with_a_high_gamma_for_either_colour():
    gammas = np.ones(fe.TABLE_SIZE, dtype=np.float32)
    board = board_from_ascii(CAPTURES)
    s, _ = board._state()
    b2 = board.geometry.parse("B2")
    white_view = features_of(board, WHITE, "B2")[fe.G_PATTERN]  # B2's shape with white to play, mover-coded
    gammas[white_view] = 20.0
    table = gt.learned_pattern_table(gammas, threshold=8.0)
    raw = int(pa.pattern_code(s, b2))
    assert table[raw] == 2  # white playing B2 matches; black playing it sees another shape
    assert table[white_view] == 1  # the same shape, colours swapped, matches for black
    assert table.sum() == 3  # and nothing else matches
    shipped = gt.LEARNED_PATTERN_TABLE
    swapped = sp.swap_colours.py_func(np.arange(1 << 16))
    assert ((shipped & 1) == ((shipped[swapped] >> 1) & 1)).all()  # white's table is black's, colours swapped
    assert 0 < (shipped & 1).sum() < (1 << 16)


def test_a_heavy_search_plays_with_the_learned_playout_patterns():
    game = Game(9)
    config = SearchConfig(playouts=400, policy="heavy", playout_patterns="learned", resign_threshold=None, seed=1)
    result = Search(config).genmove(game.board, BLACK, 7.0, game.legal_points(BLACK))
    assert result.move in game.legal_points(BLACK)
    with pytest.raises(ValueError, match="playout_patterns must be one of mogo, learned"):
        SearchConfig(playout_patterns="fancy")


# ---------------------------------------------------------------- the spatial pattern

SPATIAL = """
    . . . . . . .
    . . X O . . .
    . . . . . . .
    . O . . X . .
    . . . . . . .
    . . . X . . .
    . . . . . . .
"""


def ring_colours(code):
    """The 12 ring fields of a spatial code (spatial_patterns.RING order)."""
    return [(code >> (16 + 2 * i)) & 3 for i in range(len(sp.RING))]


def test_the_spatial_code_reads_the_ring_from_the_mover():
    board = board_from_ascii(SPATIAL)
    d4 = board.geometry.parse("D4")
    black = int(fe.spatial_codes(board, BLACK, [d4])[0])
    white = int(fe.spatial_codes(board, WHITE, [d4])[0])
    assert black & 0xFFFF == sp.mover_code.py_func(*board._state()[:1], d4, BLACK)
    # RING: N2 E2 S2 W2, then the knight's moves (2,1) (1,2) (-1,2) (-2,1) (-2,-1) (-1,-2) (1,-2) (2,-1)
    # from D4: D6 F4 D2 B4 E6 F5 F3 E2 C2 B3 B5 C6 -> O . X O . . . . . . . X, seen by black
    assert ring_colours(black) == [2, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 1]
    assert ring_colours(white) == [1, 0, 2, 1, 0, 0, 0, 0, 0, 0, 0, 2]  # the colours swap for white
    corner = int(fe.spatial_codes(board, BLACK, [board.geometry.parse("A1")])[0])
    assert ring_colours(corner) == [0, 0, 3, 3, 0, 0, 3, 3, 3, 3, 3, 3]  # off the board south and west


def test_a_spatial_pattern_is_found_under_every_rotation_and_reflection():
    board = board_from_ascii(SPATIAL)
    d4 = board.geometry.parse("D4")
    code = int(fe.spatial_codes(board, BLACK, [d4])[0])
    key = gt.spatial_keys(np.array([code]), 2)
    table = gt.prior_table(np.ones(fe.TABLE_SIZE, dtype=np.float32), key, np.array([5.0]))
    for image in gt.symmetric_spatial(np.array([code]))[:, 0]:
        assert fe.spatial_gamma.py_func(table, int(image)) == 5.0
    # its 12-point level is not in the table, nor is another 20-point pattern: gamma 1
    assert fe.spatial_gamma.py_func(table, code ^ (1 << 30)) == 1.0
    level1 = gt.prior_table(np.ones(fe.TABLE_SIZE, dtype=np.float32), gt.spatial_keys(np.array([code]), 1),
                            np.array([3.0]))
    assert fe.spatial_gamma.py_func(level1, code ^ (1 << 30)) == 3.0  # the inner 12 points still match
    assert fe.spatial_gamma.py_func(gt.prior_table(np.ones(fe.TABLE_SIZE, dtype=np.float32),
                                                   np.zeros(0, dtype=np.int64), np.zeros(0)), code) == 1.0


def test_the_engine_rates_each_candidate_as_the_learning_script_does():
    """The tree's move_gamma (group gammas times the spatial lookup) equals the product of the gammas of
    the features the learning script gave the move, on positions of a random playout."""
    learner = load_learner()
    rng = np.zeros(1, dtype=np.uint64)
    seed_rng(rng, 9, 5)
    board = Board(9)
    s, z = board._state()
    playout(s, z, board.geometry.zobrist, rng, 30, np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int8), LIGHT,
            PATTERN_TABLE)
    moves, feats = fe.candidates(board, BLACK)
    raw = np.concatenate([feats.astype(np.int64), fe.spatial_codes(board, BLACK, moves)[:, None]], axis=1)
    raw[:, 0] = gt.pattern_classes()[raw[:, 0]]
    classes = np.unique(raw[:, 0])
    spatial = np.unique(np.concatenate(learner.spatial_levels(raw)))[::3]  # some of them, of both levels
    ids = learner.feature_ids(raw, classes, spatial)
    gamma = np.exp(np.random.default_rng(3).normal(0, 1, ids.max() + 1))
    table = np.ones(fe.TABLE_SIZE, dtype=np.float32)
    index = learner.class_index(classes, gt.pattern_classes())
    table[:1 << 16] = np.where(index >= 0, gamma[np.maximum(index, 0)], 1.0)
    offset = len(classes)
    for g in range(1, len(fe.GROUPS)):
        table[fe.OFFSETS[g]:fe.OFFSETS[g] + fe.GROUP_SIZES[g]] = gamma[offset:offset + fe.GROUP_SIZES[g]]
        offset += fe.GROUP_SIZES[g]
    prior = gt.prior_table(table, spatial, gamma[offset:offset + len(spatial)])
    expected = learner.team_gammas(ids, gamma.astype(np.float32).astype(np.float64))
    assert gt.move_gammas(board, BLACK, moves, prior) == pytest.approx(expected, rel=1e-5)
    assert (ids[:, -1] >= 0).any() and (ids[:, -1] < 0).any()


def test_a_damaged_gamma_file_is_a_clear_error_that_reads_nothing_large_and_never_waits(tmp_path):
    # np.load raised KeyError or BadZipFile, allocated what a member's header declared, and waited on a FIFO
    bad = tmp_path / "bad.npz"
    declared = io.BytesIO()
    np.lib.format.write_array_header_1_0(declared, {"descr": "<f4", "fortran_order": False,
                                                    "shape": (10**12,)})  # 4 TB declared, 16 bytes there
    with zipfile.ZipFile(bad, "w") as archive:
        archive.writestr("table.npy", declared.getvalue() + b"\0" * 16)
        archive.writestr("spatial_keys.npy", b"\x93NUMPY garbage")
    for loader in (gt.load_gammas, gt.load_spatial):
        with pytest.raises(ValueError, match="not a gamma file"):
            loader(str(bad))
    np.savez(bad, other=np.ones(3))  # no table
    with pytest.raises(ValueError, match="not a gamma table"):
        gt.load_gammas(str(bad))
    bad.write_bytes(b"PK\x03\x04 not really a zip")
    with pytest.raises(ValueError, match="not a gamma file"):
        gt.load_spatial(str(bad))
    np.savez(bad, table=np.array([{"a": 1}] * fe.TABLE_SIZE, dtype=object))  # a pickle is never loaded
    with pytest.raises(ValueError, match="not a gamma file"):
        gt.load_gammas(str(bad))
    fifo = tmp_path / "gammas.fifo"
    os.mkfifo(fifo)  # nobody writes to it: np.load waited for ever
    with pytest.raises(ValueError, match="not a regular file"):
        gt.load_gammas(str(fifo))


@pytest.mark.parametrize("field, value", [("method", 99), ("flags", 1), ("method", 8), ("method", 14)],
                         ids=["unknown compression", "encrypted", "bad deflate data", "bad lzma data"])
def test_a_gamma_file_whose_members_zipfile_cannot_open_is_a_clear_error(tmp_path, field, value):
    # zipfile raises NotImplementedError for a compression method it lacks, RuntimeError for an encrypted
    # member, and zlib.error or LZMAError for stored bytes read as deflate or lzma data, which got past the
    # loaders (and, in the shipped file, would have broken the import)
    bad = tmp_path / "bad.npz"
    np.savez(bad, table=np.ones(fe.TABLE_SIZE, dtype=np.float32), spatial_keys=np.arange(3, dtype=np.int64),
             spatial_gammas=np.ones(3))
    data = bytearray(bad.read_bytes())
    for signature, method, flags in ((b"PK\x03\x04", 8, 6), (b"PK\x01\x02", 10, 8)):  # local, central headers
        start = data.find(signature)
        while start >= 0:
            offset = start + (method if field == "method" else flags)
            data[offset:offset + 2] = value.to_bytes(2, "little")
            if signature == b"PK\x03\x04" and value == 8:  # a member's first byte: deflate's invalid block type
                name, extra = (int.from_bytes(data[start + k:start + k + 2], "little") for k in (26, 28))
                data[start + 30 + name + extra] = 0x07
            start = data.find(signature, start + 4)
    bad.write_bytes(bytes(data))
    for loader in (gt.load_gammas, gt.load_spatial):
        with pytest.raises(ValueError, match="not a gamma file"):
            loader(str(bad))


def test_a_damaged_spatial_table_is_refused(tmp_path):
    bad = tmp_path / "bad.npz"
    np.savez(bad, table=np.ones(fe.TABLE_SIZE, dtype=np.float32), spatial_keys=np.array([5], dtype=np.int64),
             spatial_gammas=np.array([2.0]))
    with pytest.raises(ValueError, match="not a spatial pattern table"):
        gt.load_spatial(str(bad))
    keys, gammas = gt.load_spatial()
    assert keys.size > 1000 and (gammas > 0).all()


def test_a_spatial_table_too_large_for_its_slots_is_refused():
    codes = np.random.default_rng(1).integers(0, 1 << 40, 30000)
    with pytest.raises(ValueError, match="do not fit"):
        gt.prior_table(np.ones(fe.TABLE_SIZE, dtype=np.float32), gt.spatial_keys(codes, 2), np.ones(30000))


@pytest.mark.parametrize("moves", [[10**6], [-1], [0], ["a"], [[12]]])
def test_feature_functions_refuse_points_off_the_board_before_a_kernel_reads_them(moves):
    # spatial_codes(Board(9), 1, [10**6]) was a segmentation fault
    board = Board(9)
    with pytest.raises(ValueError):
        fe.spatial_codes(board, BLACK, moves)
    with pytest.raises(ValueError):
        gt.move_gammas(board, BLACK, moves)


def test_feature_functions_refuse_a_colour_that_is_no_colour():
    board = Board(9)
    for call in (lambda: fe.candidates(board, 7), lambda: fe.spatial_codes(board, 7, [12])):
        with pytest.raises(ValueError, match="colour must be black or white"):
            call()
    assert fe.spatial_codes(board, "b", [12]).tolist() == fe.spatial_codes(board, BLACK, [12]).tolist()
