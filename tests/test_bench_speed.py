"""The timing scripts in bench/: playout and search speed, the cost of their parts, the reference engines' trees."""

import re
import sys

import pytest
from bench_loader import BENCH, load


def test_search_speed_ab_measures_a_checkout_in_a_child_process():
    module = load("search_speed_ab")
    # 0.3 s, not less: a timed search checks its wall-clock deadline before its first batch, and on a busy
    # machine 0.05 s could pass before it (a run of CI beside two matches got no playouts from one search)
    args = module.argparse.Namespace(size=5, policy="light", knowledge="learned", seconds=0.3, slices=0, reuse=False)
    ratios = module.one_process(str(BENCH.parent), args)
    assert ratios["bench"] > 0 and ratios["empty"] > 0 and ratios["middle"] > 0
    sliced = module.one_process(str(BENCH.parent), module.argparse.Namespace(**{**vars(args), "slices": 2}))
    assert sliced["empty"] > 0 and sliced["middle"] > 0
    reused = module.one_process(str(BENCH.parent), module.argparse.Namespace(**{**vars(args), "slices": 2,
                                                                                "reuse": True}))
    assert reused["empty"] > 0 and reused["middle"] > 0


def test_search_speed_slices_one_search_between_bench_runs():
    module = load("search_speed")
    from foogo import tree as tk
    from foogo.game import Game
    from foogo.search import Search, SearchConfig

    search = Search(SearchConfig(seed=1))
    ratio, playouts = module.sliced_ratio(Game(5), 0.2, 3, "light", 0, search=search)
    assert ratio > 0
    ni = search.trees[0].arrays.ni
    assert ni[0, tk.VISITS] == playouts  # one tree grown across the slices


@pytest.mark.slow
def test_search_cycles_reports_every_part_from_a_profiling_build():
    # a profiling build compiles the search kernels afresh in its own cache: about a minute
    import subprocess

    command = [sys.executable, str(BENCH / "search_cycles.py"), "--size", "5", "--repeats", "1", "--seconds", "0.2",
               "--slices", "2"]
    out = subprocess.run(command, capture_output=True, text=True, timeout=900, check=True).stdout
    for part in ("copy", "descent", "expansion", "playout", "backup", "amaf", "bench playout"):
        line = next(x for x in out.splitlines() if x.strip().startswith(part))
        assert float(line.split()[-2].replace(",", "")) > 0, line


def test_search_cycles_draws_leaves_as_deep_as_the_search_reached_them():
    # leaf_boards draws where iterations ended, by real visits (and at a node, the visits its edge had
    # before the node was made): its positions are, on average, as many moves deep as an iteration's
    # path has nodes (a node's visits count the iterations through it). Without the stop at a node,
    # the draw is a move deeper here (5.4 against 4.3)
    from foogo import tree as tk
    from foogo.game import Game
    from foogo.search import Search, SearchConfig

    module = load("search_cycles")
    game = Game(5)
    search = Search(SearchConfig(threads=1, seed=4, policy="light", playouts=3000, resign_threshold=None))
    result = search.genmove(game.board, game.to_move, 7.5, game.legal_points(game.to_move))
    tree = search.trees[0]
    ni, meta = tree.arrays.ni, tree.arrays.meta
    path = ni[:meta[tk.NODES], tk.VISITS].sum() / ni[meta[tk.ROOT], tk.VISITS]
    leaves = module.leaf_boards(search, game.board, 400, seed=1)
    depth = sum(25 - b.empty_points + b.captures("b") + b.captures("w") for b in leaves) / len(leaves)
    assert result.playouts == 3000 and path > 2.0
    assert depth == pytest.approx(path, rel=0.05)
    assert all(b.empty_points < 25 for b in leaves)


@pytest.mark.parametrize("policy", ["heavy", "heavy-nakade"])
def test_heavy_rules_counts_every_move_once_and_times_the_librarys_playouts(monkeypatch, capsys, policy):
    heavy_rules = load("heavy_rules")
    monkeypatch.setattr(sys, "argv", ["heavy_rules.py", "--size", "5", "--playouts", "300", "--repeats", "1",
                                      "--positions", "500", "--policy", policy])
    heavy_rules.main()  # asserts that its doubled playouts are the library's playouts of the policy
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines():
        m = re.match(r"\s+(ko|capture|atari answer|vital point|two liberties|pattern|uniform \(heavy\))\s+([0-9.]+)"
                     r"\s+([0-9.]+)%", line)
        if m:
            rows[m.group(1).split()[0]] = (float(m.group(2)), float(m.group(3)) / 100)
    local = ("ko", "capture", "atari") + (("vital",) if policy == "heavy-nakade" else ()) + ("two", "pattern")
    assert set(rows) == set(local) | {"uniform"}  # heavy never calls rule (b'): no row for it
    calls = {rule: rows[rule][0] for rule in rows}
    answers = {rule: rows[rule][1] for rule in rows}
    # every position falls through to the uniform draw unless a rule before it answered
    answered = sum(calls[r] * answers[r] for r in local)
    assert calls["uniform"] == pytest.approx(1 - answered, abs=0.01)
    assert calls["ko"] == 1 and 0 < answers["ko"] < 0.4  # rule (k) looks on every move and answers on few
    assert 0 < calls["pattern"] <= calls["two"] <= calls["atari"] <= calls["capture"] <= 1  # (b2) is on
    if policy == "heavy-nakade":  # rule (b') runs every time the rules before it leave a move open, (b2) 0.9 of those
        assert calls["two"] == pytest.approx(0.9 * calls["vital"] * (1 - answers["vital"]), abs=0.04)


def test_thread_scaling_times_searches_on_one_and_on_two_threads():
    module = load("thread_scaling")
    wall, cpu, others, playouts = module.timed_search(5, 0.2, 2, "light")
    assert playouts > 0 and wall >= 0.2 and cpu > 0
    row = module.measure_search(5, 2, 1, 0.2, "light")
    assert len(row["ratios"]) == len(row["per_core"]) == 1 and row["ratios"][0] > 0
    wall, cpu, others, playouts = module.timed_search(5, 0.2, 2, "light", "tree")
    assert playouts > 0 and wall >= 0.2 and cpu > 0


def test_expand_cost_rebuilds_each_nodes_position_and_expands_them_all():
    module = load("expand_cost")
    from foogo import tree as tk
    from foogo.game import Game
    from foogo.search import Search, SearchConfig

    game = Game(5)
    S, Z, colours = module.node_positions(game, 400, 30)  # asserts each position's hash is its node's
    assert 1 < len(S) <= 30 and set(colours) <= {1, 2}
    arrays = tk.new_tree(2, 2 * tk.edges_per_node(game.board.geometry))
    params = Search(SearchConfig(policy="light"))._params(game.board, 7.5)
    made = module.expand_all(*arrays, S, Z, colours, game.board.geometry.zobrist, S[0].copy(), Z[0].copy(), params,
                             module.PATTERN_TABLE, module.GAMMAS, module.open_parts(5), 2)
    assert made == 2 * len(S) * tk.edges_per_node(game.board.geometry)


def test_expand_cost_parts_time_each_part_on_every_empty_point():
    module = load("expand_cost")
    import numpy as np

    from foogo import board_kernels as bk
    from foogo.game import Game

    game = Game(5)
    S, Z, colours = module.node_positions(game, 400, 10)
    ns = module.part_costs(S, Z, colours, game.board.geometry.zobrist, 2, 0.01)
    assert set(ns) == {"spatial code", "spatial lookups, point order", "spatial lookups, shuffled", "whole gamma"}
    assert all(len(v) == 2 and min(v) > 0 for v in ns.values())
    out = np.zeros(S.shape[0] * 100, dtype=np.int64)
    _, points = module.spatial_codes_all(S, Z, colours, out, 1)
    assert points == sum(int(s[bk.M_EMPTIES]) for s in S)  # every empty point, once


BURN = '''def burn(seconds):
    end = time.process_time() + seconds
    while time.process_time() < end:
        pass
'''  # the fake engines' CPU work: they are timed by their CPU clock


FAKE_LIBEGO = '''#!{python}
"""A stand-in for libego's GTP engine: `benchmark N` and `DoPlayouts N` burn CPU in proportion to N,
DoPlayouts twice as long; it refuses board sizes other than {size}."""
import sys, time

{burn}
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    if words[0] == "boardsize":
        print("= \\n" if words[1] == "{size}" else "? unacceptable size\\n", flush=True)
    elif words[0] == "benchmark":
        burn(int(words[1]) * 1e-5)
        print("= \\n" + words[1] + " playouts in 0.1 seconds\\n", flush=True)
    elif words[0] == "DoPlayouts":
        burn(int(words[1]) * 2e-5)
        print("= \\n", flush=True)
    elif words[0] == "quit":
        print("= bye\\n", flush=True)
        break
'''


def fake_libego(tmp_path, size=9):
    """An executable fake libego (FAKE_LIBEGO) built for `size`."""
    path = tmp_path / "libego"
    path.write_text(FAKE_LIBEGO.format(python=sys.executable, size=size, burn=BURN))
    path.chmod(0o755)
    return str(path)


def test_reference_tree_cost_reads_the_search_over_bench_ratio(tmp_path, capsys):
    module = load("reference_tree_cost")
    assert module.main(["--libego", fake_libego(tmp_path), "--playouts", "20000", "--repeats", "2"]) == 0
    out = capsys.readouterr().out
    ratio = float(re.search(r"search over bench: +([0-9.]+)", out).group(1))
    assert 0.35 < ratio < 0.65  # DoPlayouts burns twice the CPU a playout: 0.5, less the clock's grain


def test_reference_tree_cost_says_when_the_binary_has_another_size(tmp_path, capsys):
    module = load("reference_tree_cost")
    assert module.main(["--libego", fake_libego(tmp_path, size=19), "--playouts", "10", "--repeats", "1"]) == 1
    assert "built for another size" in capsys.readouterr().err


FAKE_PACHI = '''#!{python}
"""A stand-in for Pachi: `-e montecarlo` burns 1e-5 CPU s a playout of its -t =N; the UCT engine burns
twice that and reports its count on stderr as Pachi does ([N] best ...)."""
import sys, time

montecarlo = "montecarlo" in " ".join(sys.argv)
n = int(next(a for a in sys.argv if a.startswith("="))[1:])

{burn}
for line in sys.stdin:
    words = line.split()
    cid = words.pop(0) if words and words[0].isdigit() else ""  # GtpClient numbers its commands
    if not words:
        continue
    if words[0] == "genmove":
        burn(n * (1e-5 if montecarlo else 2e-5))
        if not montecarlo:
            print("[%d] best 50.0%% xkomi 0.0 | seq E5" % n, file=sys.stderr, flush=True)
        print("=" + cid + " E5\\n", flush=True)
    elif words[0] == "quit":
        print("=" + cid + "\\n", flush=True)
        break
    else:
        print("=" + cid + "\\n", flush=True)
'''


def test_reference_tree_cost_reads_pachis_ratio(tmp_path, capsys):
    module = load("reference_tree_cost")
    pachi = tmp_path / "pachi"
    pachi.write_text(FAKE_PACHI.format(python=sys.executable, burn=BURN))
    pachi.chmod(0o755)
    assert module.main(["--pachi", str(pachi), "--pachi-playouts", "20000", "--repeats", "2"]) == 0
    out = capsys.readouterr().out
    ratio = float(re.search(r"Pachi 9x9.*\n.*\n.*\n  search over bench: +([0-9.]+)", out).group(1))
    assert 0.35 < ratio < 0.65  # the UCT engine burns twice the CPU a playout: 0.5


def test_reference_tree_cost_needs_an_engine(capsys):
    module = load("reference_tree_cost")
    with pytest.raises(SystemExit):
        module.main([])
    assert "give --libego, --pachi or both" in capsys.readouterr().err


def test_arm_cost_needs_a_policy_and_times_both_checkouts_at_the_same_positions(capsys):
    module = load("arm_cost")
    with pytest.raises(SystemExit):
        module.main([str(BENCH.parent), str(BENCH.parent), "--playouts", "100"])  # --policy is required
    assert module.config_pairs(["late_nakade=0", "expand_threshold=5.5", "knowledge=rules"]) == {
        "late_nakade": 0, "expand_threshold": 5.5, "knowledge": "rules"}
    assert module.main([str(BENCH.parent), str(BENCH.parent), "--policy", "heavy", "--playouts", "300",
                        "--rounds", "1", "--games", "1", "--size", "5", "--arm-config", "late_nakade=0"]) == 0
    out = capsys.readouterr().out  # three child processes: the positions, then one round of each checkout
    assert re.search(r"heavy searches of 300 playouts, \d+ positions, 1 rounds alternated", out), out
    assert float(re.search(r"arm / control CPU: ([0-9.]+)", out).group(1)) > 0


def test_arm_cost_reports_the_ratio_of_sums_and_the_equal_cpu_playouts():
    module = load("arm_cost")
    result = {"times": {"control": [[1.0, 2.0], [1.0, 2.0]], "arm": [[1.5, 2.0], [1.5, 2.0]]}, "moves": [0, 10]}
    out = module.report(result, 32300)
    assert out["ratio"] == 3.5 / 3.0 and out["by_move"] == {0: 1.5, 10: 1.0}
    assert out["equal_cpu_playouts"] == 27700  # 32,300 / (7/6), to the hundred
    assert out["rounds"] == [3.5 / 3.0, 3.5 / 3.0] and out["spread"] == 0.0


def test_arm_cost_warns_when_its_rounds_spread_more_than_an_ab_check(monkeypatch, capsys):
    module = load("arm_cost")
    spread = {"times": {"control": [[1.0, 1.0], [1.0, 1.0]], "arm": [[1.0, 1.0], [1.05, 1.05]]}, "moves": [0, 10]}
    monkeypatch.setattr(module, "measure", lambda *args: spread)
    assert module.main([".", ".", "--policy", "heavy", "--playouts", "30000"]) == 0
    out = capsys.readouterr().out
    assert "each round's ratio: 1.000, 1.050 (spread 0.050)" in out and "the rounds spread more than 3%" in out
    monkeypatch.setattr(module, "measure", lambda *args: {**spread, "times": {**spread["times"],
                                                                            "arm": [[1.0, 1.0], [1.01, 1.01]]}})
    assert module.main([".", ".", "--policy", "heavy", "--playouts", "30000"]) == 0
    assert "spread more" not in capsys.readouterr().out


def test_search_speeds_bench_batches_double_up_to_run_playouts_cap(monkeypatch):
    # bench_for doubled its batches while each took under an eighth of --seconds: past some minutes of the
    # fastest playouts, a batch above MAX_BATCH, and run_playouts' ValueError ended a long run
    import itertools
    import types

    from foogo.playout import MAX_BATCH

    module = load("search_speed")
    counts = []

    def run_playouts(board, count, **kwargs):
        assert count <= MAX_BATCH
        counts.append(count)
        return types.SimpleNamespace(moves=module.np.zeros(1))

    monkeypatch.setattr(module, "run_playouts", run_playouts)
    monkeypatch.setattr(module.time, "process_time", itertools.count().__next__)  # each batch takes a second
    playouts, spent, _ = module.bench_for(None, 100.0, "light", 1)
    assert spent == 100 and max(counts) == MAX_BATCH and playouts == sum(counts)


def test_thread_scaling_runs_hold_at_most_run_playouts_cap(monkeypatch):
    # a --min-seconds of some minutes sized runs past MAX_BATCH at the fastest playouts: run_playouts' ValueError
    import itertools
    import types

    from foogo.playout import MAX_BATCH

    module = load("thread_scaling")
    asked = []
    monkeypatch.setattr(module, "run_playouts",
                        lambda board, count, **kw: asked.append(count) or types.SimpleNamespace(seconds=1.0))
    monkeypatch.setattr(module.time, "process_time", itertools.count().__next__)
    row = module.measure(5, 2, 1, 86400.0, "light")  # a day of runs at 1,000 playouts a second
    assert row["playouts"] == MAX_BATCH // 2 and max(asked) == MAX_BATCH


def test_tree_growth_searches_again(monkeypatch, capsys):
    # it asked SearchConfig for 1e9 seconds, past MAX_SECONDS (a day): a ValueError on every run
    module = load("tree_growth")
    monkeypatch.setattr(sys, "argv", ["tree_growth.py", "--size", "5", "--playouts", "300", "--threads", "1",
                                      "--memory", "64"])
    module.main()
    out = capsys.readouterr().out
    assert "5x5, 300 playouts, 1 threads, --memory 64" in out and "peak RSS" in out
