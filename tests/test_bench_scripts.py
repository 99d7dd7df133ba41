"""The match scripts in bench/: merging parallel matches, and the equal-CPU calibration against Pachi."""

import datetime
import importlib.util
import json
import math
import os
import re
import sys
from pathlib import Path

import pytest
from sgfmill import sgf

from foogo.geometry import PASS
from foogo.intervals import wilson

BENCH = Path(__file__).resolve().parent.parent / "bench"


def load(name):
    """A bench script as a module, registered under its name: numba's cache records the module of each
    cached kernel and imports it again when it loads one (unregistered it would be '<dynamic>', and a
    second run, loading from the cache the first wrote, would fail). bench/ is on sys.path while it loads,
    as when it runs, for its imports of other bench modules (option_caps); the scripts do not edit sys.path
    for their own directory, which Python puts first when they run, so a test that calls a main whose imports
    are lazy puts it there too."""
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    sys.path.insert(0, str(BENCH))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(BENCH))
    return module


def summary(wins_a, wins_b, draws, seconds_a, genmoves_a, games_as_black_a):
    """A `foogo match --json` summary of engines A and B (the fields merge reads)."""
    games = wins_a + wins_b + draws

    def engine(key, wins, seconds, genmoves, as_black):
        return {"id": key, "label": f"E{key}", "name": key, "version": "1", "command": f"engine-{key}",
                "wins": wins, "win_rate": None, "win_rate_ci95": [0, 1], "wins_as_black": wins // 2,
                "games_as_black": as_black, "wins_as_white": wins - wins // 2, "games_as_white": games - as_black,
                "genmoves": genmoves, "mean_seconds_per_move": seconds, "illegal_moves": 0, "timeouts": 0,
                "crashes": 0}

    return {"games": games, "games_requested": games, "interrupted": False, "size": 9, "komi": 7.0,
            "max_moves": 243, "timeout": 60.0, "alternate": True, "referee": "GNU Go 3.8",
            "referee_command": "gnugo", "draws": draws, "void": 0, "mean_moves": 50.0,
            "mean_game_seconds": 20.0, "illegal_moves": 0, "timeouts": 0, "crashes": 0,
            "engines": [engine("A", wins_a, seconds_a, genmoves_a, games_as_black_a),
                        engine("B", wins_b, 0.5, 100, games - games_as_black_a)],
            "per_game": [{"game": i + 1, "result": "B+R"} for i in range(games)]}


def test_merged_matches_add_up_and_carry_their_interval():
    merge = load("parallel_match").merge
    merged = merge([summary(3, 1, 0, 1.0, 100, 2), summary(1, 2, 1, 2.0, 300, 2)])
    a, b = merged["engines"]
    assert merged["games"] == 8 and merged["draws"] == 1
    assert (a["wins"], b["wins"]) == (4, 3)
    assert a["win_rate"] == pytest.approx(4.5 / 8) and b["win_rate"] == pytest.approx(3.5 / 8)
    assert a["win_rate_ci95"] == list(wilson(4.5, 8))
    assert a["games_as_black"] == 4 and a["genmoves"] == 400
    assert a["mean_seconds_per_move"] == pytest.approx((1.0 * 100 + 2.0 * 300) / 400)
    assert [g["game"] for g in merged["per_game"]] == list(range(1, 9))
    assert a["mean_cpu_seconds_per_move"] is None and a["starved_moves"] == 0  # summaries from before CPU times
    assert merged["disputed"] == 0  # summaries from before the engines' own counts were asked
    parts = [summary(3, 1, 0, 1.0, 100, 2), summary(1, 2, 1, 2.0, 300, 2)]
    parts[0]["disputed"], parts[1]["disputed"] = 1, 2
    assert merge(parts)["disputed"] == 3
    timed = [summary(3, 1, 0, 1.0, 100, 2), summary(1, 2, 1, 2.0, 300, 2)]
    for part, cpu, starved in zip(timed, (0.5, 1.5), (2, 3)):
        part["engines"][0].update(cpu_timed_moves=part["engines"][0]["genmoves"], mean_cpu_seconds_per_move=cpu,
                                  usual_cpu_share=1.0, starved_moves=starved)
    a = merge(timed)["engines"][0]
    assert a["cpu_timed_moves"] == 400 and a["starved_moves"] == 5
    assert a["mean_cpu_seconds_per_move"] == pytest.approx((0.5 * 100 + 1.5 * 300) / 400)


def test_jobs_share_the_games_and_get_their_own_seeds(tmp_path):
    module = load("parallel_match")
    args = module.argparse.Namespace(black="engine-a", white="engine-b --x", games=5, jobs=2, out=str(tmp_path),
                                     size=9, komi=7.0, timeout=60.0, black_name=None, white_name="B",
                                     black_seed_flag="-s", white_seed_flag=None, seed_base=1000, time_settings=None)
    commands = module.job_commands(args)
    assert [c[c.index("--games") + 1] for c in commands] == ["3", "2"]
    assert [c[c.index("--black") + 1] for c in commands] == ["engine-a -s 1000", "engine-a -s 1001"]
    assert all(c[c.index("--white") + 1] == "engine-b --x" for c in commands)
    assert all(c[c.index("--white-name") + 1] == "B" and "--black-name" not in c for c in commands)
    assert all("--time-settings" not in c for c in commands)
    args.time_settings = "40"
    assert all(c[c.index("--time-settings") + 1] == "40" for c in module.job_commands(args))


def test_calibration_measures_each_engines_cpu_per_move_in_games_between_them():
    calibration_games = load("vs_pachi").calibration_games
    engine = f"{sys.executable} -m foogo gtp --policy light --threads 1 --size 5 --no-warm-up --playouts"
    measured = calibration_games(f"{engine} 20000", f"{engine} 50", 5, 0.5, games=1, max_moves=12)
    slow, fast = measured["pachi"], measured["foogo"]  # the first engine stands where Pachi would
    assert slow["moves"] >= 5 and fast["moves"] >= 5
    assert slow["cpu_per_move"] > fast["cpu_per_move"] >= 0


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


def test_heavy_rules_counts_every_move_once_and_times_the_librarys_playouts(monkeypatch, capsys):
    heavy_rules = load("heavy_rules")
    monkeypatch.setattr(sys, "argv", ["heavy_rules.py", "--size", "5", "--playouts", "300", "--repeats", "1",
                                      "--positions", "500"])
    heavy_rules.main()  # asserts that its doubled playouts are the library's heavy playouts
    out = capsys.readouterr().out
    rows = {}
    for line in out.splitlines():
        m = re.match(r"\s+(ko|capture|atari answer|pattern|uniform \(heavy\))\s+([0-9.]+)\s+([0-9.]+)%", line)
        if m:
            rows[m.group(1).split()[0]] = (float(m.group(2)), float(m.group(3)) / 100)
    calls = {rule: rows[rule][0] for rule in ("ko", "capture", "atari", "pattern", "uniform")}
    answers = {rule: rows[rule][1] for rule in calls}
    # every position falls through to the uniform draw unless a rule before it answered
    answered = sum(calls[r] * answers[r] for r in ("ko", "capture", "atari", "pattern"))
    assert calls["uniform"] == pytest.approx(1 - answered, abs=0.01)
    assert calls["ko"] == 1 and 0 < answers["ko"] < 0.4  # rule (k) looks on every move and answers on few
    assert 0 < calls["pattern"] <= calls["atari"] <= calls["capture"] <= 1


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


def test_match_review_splits_the_log_by_game_and_finds_a_collapse(tmp_path, capsys):
    review = load("match_review")
    (tmp_path / "game-0001.sgf").write_text("(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[W+R];B[ee];W[cc];B[gc];W[cg])")
    (tmp_path / "game-0002.sgf").write_text("(;SZ[9]KM[7]PB[pachi]PW[foogo 0.1]RE[W+R];B[ee];W[cc];B[gc])")
    log = ["foogo gtp: kernels ready in 0.1 s"]
    for move, rate in (("E5", 50.0), ("G7", 95.0), ("resign", 0.0)):  # game 1: black, resigns after 95%
        log.append(f"genmove black: {move} | 1000 playouts in 1.00 s (1000/s, stopped: settled), win rate {rate}%")
    log.append("genmove white: C7 | 1000 playouts in 1.00 s (1000/s, stopped: clear), win rate 85.0%, pv C7")
    (tmp_path / "engine-A.stderr.log").write_text("\n".join(log) + "\n")
    games = review.review(tmp_path, "A", "foogo")
    assert [(g["colour"], g["won"], g["moves"], g["peak"]) for g in games] == [("b", False, 2, 0.95),
                                                                               ("w", True, 1, 0.85)]
    assert games[1]["stopped"] == {"clear": 1}
    assert review.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "2 games: 1 won, 1 lost" in out and "lost after reaching 0.90: 1" in out and "game-0001" in out
    assert "searches that collected a full tree (the memory cap bound): 0 of 4, 0 collections" in out
    collected = log[:2] + [log[2].replace("stopped: settled", "stopped: settled, trees collected 3x (memory cap)")]
    (tmp_path / "engine-A.stderr.log").write_text("\n".join(collected + log[3:]) + "\n")
    assert [g["collected"] for g in review.review(tmp_path, "A", "foogo")] == [[0, 3, 0], [0]]
    assert review.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "searches that collected a full tree (the memory cap bound): 1 of 4, 3 collections" in out
    assert review.main([str(tmp_path), "--turns"]) == 0
    out = capsys.readouterr().out
    assert "won (1): foogo's mean estimate at its move \nlost (1)" in out  # one move each: none at move 5
    assert "lost games by foogo's move from which its estimate stayed below 0.45: 0-4: 1" in out  # after G7
    records = [dict(won=False, rates=[0.5] * 6 + [0.3] * 6), dict(won=False, rates=[0.6] * 10),
               dict(won=True, rates=[0.5] * 4 + [0.7] * 6)]
    text = review.turns(records)
    assert "won (1): foogo's mean estimate at its move 5: 0.70 (1), 10: 0.70 (1)" in text
    assert "lost (2): foogo's mean estimate at its move 5: 0.55 (2), 10: 0.45 (2)" in text
    assert "stayed below 0.45: 5-9: 1, 10-14: 1" in text  # from move 7; never, so after its tenth
    (tmp_path / "engine-A.stderr.log").write_text("\n".join(log[:2]) + "\n")  # a log that lost a move
    assert review.review(tmp_path, "A", "foogo")[0] is None
    # a game with an empty result (RE[]) is neither won nor lost (it was once counted lost: "" in "bw")
    (tmp_path / "game-0001.sgf").write_text("(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[];B[ee];W[cc];B[gc];W[cg])")
    (tmp_path / "engine-A.stderr.log").write_text("\n".join(log[:3]) + "\n")
    assert [g["won"] for g in review.review(tmp_path, "A", "foogo")[:1]] == [None]
    # RE[W+Resign] is a resignation as RE[W+R] is: the log's resign line belongs to game 1, not game 2
    (tmp_path / "game-0001.sgf").write_text("(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[W+Resign];B[ee];W[cc];B[gc];W[cg])")
    (tmp_path / "engine-A.stderr.log").write_text("\n".join(log) + "\n")
    assert [(g["won"], g["moves"]) for g in review.review(tmp_path, "A", "foogo")] == [(False, 2), (True, 1)]


def test_surprises_rates_each_reply_between_two_searches(tmp_path, capsys):
    # foogo (black) at A1, A2, A3, then resigns; white's B1 answers A1 (estimate 0.50 -> 0.60) and B2, an
    # atari on A1-A2 that a ladder up the edge then takes, answers A2 (0.60 -> 0.20: a drop of 0.40)
    surprises = load("surprises")
    (tmp_path / "game-0001.sgf").write_text("(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[W+R];B[ai];W[bi];B[ah];W[bh];B[ag])")
    log = [f"genmove black: {move} | 1000 playouts in 1.00 s (1000/s, stopped: playouts), win rate {rate}%"
           for move, rate in (("A1", 50.0), ("A2", 60.0), ("A3", 20.0), ("resign", 5.0))]
    (tmp_path / "engine-A.stderr.log").write_text("\n".join(log) + "\n")
    record = surprises.match_review.review(tmp_path, "A", "foogo")[0]
    found = surprises.replies(record)
    assert [(r["number"], r["vertex"], round(r["drop"], 2)) for r in found] == [(2, "B1", -0.1), (4, "B2", 0.4)]
    assert [(r["tactics"], r["target"], r["laddered"]) for r in found] == [(surprises.fe.T_ATARI, 1, True),
                                                                         (surprises.fe.T_ATARI, 2, True)]
    assert all(0 <= r["rank"] and 0 < r["share"] <= 1 for r in found)
    assert surprises.main([str(tmp_path), "--list", "0.3"]) == 0
    out = capsys.readouterr().out
    assert "1 games, 2 replies between two of foogo's searches" in out
    assert "drop 0.20 or more: 1 replies" in out and "of its 1 ataris 100% on 2+ stones, 100% then taken" in out
    assert "move 4 B2: drop 0.40, atari" in out and "move 2 B1" not in out
    (tmp_path / "engine-A.stderr.log").write_text(log[0] + "\n")  # the log lost moves: the game is skipped
    assert surprises.main([str(tmp_path)]) == 1
    handicap = tmp_path / "handicap.sgf"  # setup stones: the replay would start from the wrong board
    handicap.write_text("(;SZ[9]KM[0]HA[2]AB[cc][gg]PB[foogo 0.1]PW[pachi]RE[W+R];W[ai];B[bi];W[ah];B[bh];W[ag])")
    assert surprises.replies(dict(record, game=sgf.Sgf_game.from_bytes(handicap.read_bytes()), colour="w")) == []


def test_budget_visits_finds_where_the_larger_searchs_extra_playouts_went(tmp_path, capsys):
    # a search of a seed is one sequence of playouts: the larger search's first N are the smaller one, so no root
    # move has fewer visits in it
    budget = load("budget_visits")
    job = tmp_path / "job-0"
    job.mkdir()
    (job / "game-0001.sgf").write_text("(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[W+R];B[ee];W[cc];B[gc];W[cg];B[ge])")
    (tmp_path / "game-0002.sgf").write_text("(;SZ[9]KM[7]PB[pachi]PW[foogo 0.1]RE[B+R];B[ee];W[cc];B[gc];W[cg])")
    assert budget.foogo_positions(job / "game-0001.sgf", "foogo", 1, 2) == [1, 5]  # black's 1st and 3rd moves
    assert budget.foogo_positions(tmp_path / "game-0002.sgf", "foogo", 2, 1) == [4]
    assert budget.foogo_positions(tmp_path / "game-0002.sgf", "nobody", 1, 1) == []
    row = budget.compare(job / "game-0001.sgf", 5, 200, 3, 1, {})  # legal: 76 empty points and a pass
    assert row["fewer"] == 0 and 1 <= row["got_more"] <= row["visited_after"] <= row["legal"] == 77
    assert 0 < row["top_share"] <= 1 and row["visited"] <= row["visited_after"]
    assert budget.main([str(tmp_path), "--playouts", "100", "--factor", "2", "--positions", "2", "--first", "1",
                        "--every", "2"]) == 0
    out = capsys.readouterr().out
    assert "game-0002.sgf move 2: best" in out and "job-0/game-0001.sgf move 1: best" in out
    assert "2 positions: the best move at N took a median" in out and "began otherwise" not in out
    assert budget.main([str(tmp_path), "--name", "nobody"]) == 1
    # --surprises: the replies after which foogo's estimate fell (bench/surprises.py's game: B2 dropped it 0.40)
    (tmp_path / "game-0002.sgf").unlink()
    (job / "game-0001.sgf").write_text("(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[W+R];B[ai];W[bi];B[ah];W[bh];B[ag])")
    (job / "engine-A.stderr.log").write_text("".join(
        f"genmove black: {move} | 1000 playouts in 1.00 s (1000/s, stopped: playouts), win rate {rate}%\n"
        for move, rate in (("A1", 50.0), ("A2", 60.0), ("A3", 20.0), ("resign", 5.0))))
    capsys.readouterr()
    assert budget.main([str(tmp_path), "--surprises", "0.3", "--playouts", "100", "--factor", "2"]) == 0
    out = capsys.readouterr().out
    assert "1 replies with a drop of 0.3 or more, of 2" in out
    assert re.search(r"move 4 B2 \(drop 0\.40\): 100: \d+ visits .*; 200: \d+ visits", out), out
    assert "Qamaf" not in out
    assert budget.main([str(tmp_path), "--surprises", "0.3", "--playouts", "100", "--factor", "2", "--rave"]) == 0
    out = capsys.readouterr().out  # the best move's and B2's selection statistics after each budget's line
    cell = r"[A-J]\d N \d+ Q [\d.]+ AN \d+ Qamaf [\d.]+ beta [\d.]+ value [\d.]+"
    assert re.search(rf"100: .*\[{cell} \| (B2 no edge|{cell})\]; 200: .*\[{cell} \| B2 ", out), out
    with pytest.raises(SystemExit):  # the tuning options are foogo gtp's, checked as it checks them
        budget.main([str(tmp_path), "--uct", "-1"])
    assert "--uct must be a finite number >= 0" in capsys.readouterr().err


def test_match_review_finds_which_engine_is_foogo(tmp_path):
    # found from the logs (bench/vs_pachi.py makes foogo B), or said with --engine
    review = load("match_review")
    _logged_match(tmp_path, [None, None], [9000, 9000])  # foogo's log is engine A's
    (tmp_path / "engine-B.stderr.log").write_text("= E5\n")  # another engine's log: no genmove lines of foogo's
    assert review.foogo_log(tmp_path, "auto")[0] == "A"
    (tmp_path / "engine-A.stderr.log").rename(tmp_path / "engine-C.stderr.log")
    (tmp_path / "engine-B.stderr.log").rename(tmp_path / "engine-A.stderr.log")
    (tmp_path / "engine-C.stderr.log").rename(tmp_path / "engine-B.stderr.log")
    assert review.foogo_log(tmp_path, "auto")[0] == "B"
    assert [g["won"] for g in review.review(tmp_path, "auto", "foogo")] == [True, True]
    (tmp_path / "engine-A.stderr.log").write_text((tmp_path / "engine-B.stderr.log").read_text())
    with pytest.raises(SystemExit, match="both engines' logs have foogo genmove lines"):
        review.foogo_log(tmp_path, "auto")
    (tmp_path / "engine-A.stderr.log").unlink()
    (tmp_path / "engine-B.stderr.log").unlink()
    with pytest.raises(SystemExit, match="neither engine's log has foogo genmove lines"):
        review.foogo_log(tmp_path, "auto")


def _logged_match(tmp_path, shares, speeds):
    """A match directory of len(shares) one-move games, foogo black in each, its searches' CPU shares
    (None: a log without CPU times) and rates as given."""
    log = []
    for k, (share, speed) in enumerate(zip(shares, speeds)):
        (tmp_path / f"game-{k + 1:04d}.sgf").write_text("(;SZ[9]KM[7]PB[foogo 0.1]PW[gnugo]RE[B+2];B[ee])")
        cpu = "" if share is None else f", CPU {2.0 * share:.2f} s"
        log.append(f"genmove black: E5 | {speed * 2} playouts in 2.00 s ({speed}/s{cpu}, stopped: budget), "
                   "win rate 60.0%")
    (tmp_path / "engine-A.stderr.log").write_text("\n".join(log) + "\n")
    return tmp_path


def test_match_review_names_the_games_whose_searches_another_process_starved(tmp_path, capsys):
    review = load("match_review")
    # by CPU share: two threads' worth (2.0) is the usual; 1.0 is starved, whatever the rate
    shares = [2.0] * 9 + [1.0]
    records = review.review(_logged_match(tmp_path, shares, [9000] * 10), "A", "foogo")
    assert review.starved_searches(records) == ([0] * 9 + [1], "CPU share")
    # without CPU times: playouts a second against the usual rate at that move of the games
    for f in tmp_path.iterdir():
        f.unlink()
    records = review.review(_logged_match(tmp_path, [None] * 10, [9000] * 5 + [4000] * 4 + [8000]), "A", "foogo")
    assert review.starved_searches(records) == ([0] * 5 + [1] * 4 + [0], "playouts a second")
    # most games starved: the 90th percentile still finds the usual rate
    records = review.review(_logged_match(tmp_path, [None] * 10, [4000] * 8 + [9000] * 2), "A", "foogo")
    assert review.starved_searches(records)[0] == [1] * 8 + [0] * 2
    # a search of no playouts (a pass that wins at once: "0 playouts in 0.00 s (0/s, ...)") is not starved
    records = review.review(_logged_match(tmp_path, [None] * 10, [9000] * 9 + [0]), "A", "foogo")
    assert review.starved_searches(records)[0] == [0] * 10
    # the summary names a game with SLOW_GAME or more starved searches: one game of six moves, 5 starved
    for f in tmp_path.iterdir():
        f.unlink()
    (tmp_path / "game-0001.sgf").write_text("(;SZ[9]KM[7]PB[foogo 0.1]PW[gnugo]RE[B+2];B[ee];W[aa];B[ef];W[ab];"
                                            "B[eg];W[ac];B[eh];W[ad];B[ei];W[ae];B[ea];W[af])")
    moves = ("E5", "E4", "E3", "E2", "E1", "E9")
    log = [f"genmove black: {m} | 100 playouts in 1.00 s (100/s, CPU {cpu:.2f} s, stopped: budget), win rate 60.0%"
           for m, cpu in zip(moves, (2.0, 1.0, 1.0, 1.0, 1.0, 1.0))]
    (tmp_path / "engine-A.stderr.log").write_text("\n".join(log) + "\n")
    assert review.main([str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "searches starved (their CPU share below 0.60 of the match's usual): 5 of 6, 5 or more in 1 games" in out
    assert "game-0001.sgf (5 of 6)" in out


def test_match_review_reads_the_cpu_time_foogo_gtp_logs(tmp_path):
    # the engine's genmove line and the review's parser agree: a real search's CPU share is read
    import io

    from foogo.gtp.engine import GtpEngine
    review = load("match_review")
    # long enough (about 0.6 s here) to be judged: a search shorter than MIN_TIMED_SECONDS has no share
    engine = GtpEngine(log=io.StringIO(), playouts=40000, seed=1, policy="heavy")
    assert engine.execute("genmove b").startswith("= ")
    path = tmp_path / "engine-A.stderr.log"
    path.write_text(engine.log.getvalue())
    (line,) = review.log_moves(path)
    assert line.colour == "black" and line.speed > 0 and line.share is not None and line.share > 0
    # a settled search of 0.05 s (one thread ran it alone, before the other started) is not judged, as in
    # foogo match's table: its share of 1.0 beside a usual 2.0 is no sign of another process
    short = "genmove black: F8 | 4238 playouts in 0.06 s (73102/s, CPU 0.06 s, stopped: settled), win rate 24.1%"
    path.write_text(short + "\n")
    (line,) = review.log_moves(path)
    assert line.speed == 73102 and line.share is None
    assert line.collected == 0 and "collected" not in engine.log.getvalue()
    # a tree capped at 1 MB (about 500 9x9 nodes) fills and is collected in a search of 20,000 playouts:
    # the line says how often, and the review reads it
    engine = GtpEngine(log=io.StringIO(), playouts=20000, seed=1, memory_mb=1)
    assert engine.execute("genmove b").startswith("= ")
    path.write_text(engine.log.getvalue())
    (line,) = review.log_moves(path)
    assert line.collected >= 1 and f"trees collected {line.collected}x (memory cap)" in engine.log.getvalue()


def test_match_review_reads_a_parallel_match_and_names_a_wrong_engine(tmp_path, capsys):
    review = load("match_review")
    for job in ("job-0", "job-1"):
        d = tmp_path / job
        d.mkdir()
        (d / "game-0001.sgf").write_text("(;SZ[9]KM[7]PB[pachi]PW[foogo 0.1]RE[W+R];B[ee];W[cc];B[gc])")
        (d / "engine-A.stderr.log").write_text("= pachi's own lines\n")
        (d / "engine-B.stderr.log").write_text(
            "genmove white: C7 | 1000 playouts in 1.00 s (1000/s, stopped: playouts), win rate 85.0%, pv C7\n")
    assert review.main([str(tmp_path), "--engine", "B"]) == 0
    assert "2 games: 2 won, 0 lost" in capsys.readouterr().out
    assert review.main([str(tmp_path)]) == 0  # by default, the engine whose log has foogo's lines
    assert "2 games: 2 won, 0 lost" in capsys.readouterr().out
    with pytest.raises(SystemExit, match="no foogo genmove lines .* see --engine"):
        review.main([str(tmp_path), "--engine", "A"])
    with pytest.raises(SystemExit, match="no game-.*sgf and no job-"):
        review.main([str(tmp_path / "job-0" / "missing")])


def test_pachi_ab_gives_each_arm_options_vs_pachi_reads_as_foogo_options():
    import argparse

    ab = load("pachi_ab")
    parser = load("vs_pachi").argument_parser()
    args = argparse.Namespace(pachi="/p/pachi", pachi_playouts=10000, foogo_playouts=30900, games=100,
                                 seed_base=27000, timeout=120.0, out="/tmp/ab")
    for options in ("--dynamic-komi", "--policy heavy-nakade", ""):  # one flag alone was read as vs_pachi's own
        parsed = parser.parse_args(ab.arm_arguments(args, "arm", options, None))
        assert parsed.foogo_args == options and parsed.out == "/tmp/ab/arm" and parsed.jobs == 1
        assert (parsed.seed_base, parsed.foogo_playouts, parsed.games) == (27000, 30900, 100)
    parsed = parser.parse_args(ab.arm_arguments(args, "old", "", "env PYTHONPATH=/wt python -m foogo gtp"))
    assert parsed.foogo_command == "env PYTHONPATH=/wt python -m foogo gtp"


def test_pachi_ab_tallies_each_arm_from_its_sgfs_against_the_control(tmp_path, capsys):
    ab = load("pachi_ab")
    tallies = load("ab_tally")  # the reading half of pachi_ab
    games = {"control": ["B+R", "W+3.5", "0", "Void"], "rule": ["B+R", "W+2.5", "W+R", "B+R"]}
    for arm, results in games.items():
        job = tmp_path / arm / "job-0"
        job.mkdir(parents=True)
        for k, result in enumerate(results):  # foogo black in odd games, as a match alternates
            black, white = ("foogo =1000", "Pachi") if k % 2 == 0 else ("Pachi", "foogo =1000")
            (job / f"game-{k + 1:04d}.sgf").write_text(f"(;SZ[9]PB[{black}]PW[{white}]RE[{result}];B[ee])")
    control = tallies.tally(tmp_path / "control")
    assert (control["wins"], control["losses"], control["draws"], control["unscored"]) == (2, 0, 1, 1)
    assert control["black"] == [1.5, 2] and control["white"] == [1.0, 1]  # B+R and the draw as black, W+3.5
    rule = tallies.tally(tmp_path / "rule")
    assert (rule["wins"], rule["losses"], rule["points"]) == (2, 2, 2.0)
    d, low, high = tallies.difference(2.0, 4, 2.5, 3)
    assert d == pytest.approx(0.5 - 2.5 / 3) and low < d < high and -1 <= low and high <= 1
    assert tallies.difference(10, 10, 0, 10)[0] == 1.0
    line = ("genmove {}: E5 | 1000 playouts in 0.10 s (10000/s, CPU {:.2f} s, stopped: playouts), "
            "win rate 50.0%, pv E5\n")
    for arm, seconds in (("control", (9.0, 0.4, 0.6)), ("rule", (9.0, 0.55, 0.55))):
        (tmp_path / arm / "job-0" / "engine-B.stderr.log").write_text(
            "foogo gtp: loading kernels in the background\nfoogo gtp: kernels ready in 1.0 s\n"
            + "".join(line.format("white", x) for x in seconds))
        (tmp_path / arm / "job-0" / "engine-A.stderr.log").write_text("genmove black: 10000 playouts, CPU 0.7 s\n")
    # the first search left out
    assert tallies.foogo_cpu(tallies.foogo_searches(tmp_path / "control")) == (pytest.approx(0.5), 2)
    restarted = tmp_path / "restarted" / "job-0"
    restarted.mkdir(parents=True)
    start = "foogo gtp: loading kernels in the background\n"
    (restarted / "engine-B.stderr.log").write_text(  # a log two processes appended to: each one's first left out
        start + "".join(line.format("white", x) for x in (11.9, 0.5)) + start
        + "".join(line.format("white", x) for x in (11.9, 0.5, 0.5, 0.5)))
    restarted_searches = tallies.foogo_searches(tmp_path / "restarted")
    assert tallies.foogo_cpu(restarted_searches) == (pytest.approx(0.5), 4)
    assert tallies.foogo_playout_cost(restarted_searches) == pytest.approx(500.0)  # 0.5 s over 1000 playouts
    assert tallies.foogo_playout_cost(tallies.foogo_searches(tmp_path / "missing")) == 0.0
    assert ab.main(["--report-only", "--arm", "control=", "--arm", "rule=--policy heavy-nakade",
                    "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "control 0.5000 over 2; rule 0.5500 over 2 (+10.0%)" in out
    assert "a playout over the same searches: control 500.000 us; rule 550.000 us (+10.0%)" in out
    assert "control | 3 | 2 | 1 | 83.3%" in out and "(1 unscored)" in out
    assert "rule | 4 | 2 | 0 | 50.0%" in out and "-33.3 points" in out
    assert (tmp_path / "ab.txt").read_text().strip() == out.strip()
    with pytest.raises(SystemExit):
        ab.main(["--report-only", "--arm", "control=", "--arm", "control=x", "--out", str(tmp_path)])
    with pytest.raises(SystemExit):
        ab.main(["--arm", "control=", "--out", str(tmp_path)])  # playing needs --pachi and --foogo-playouts


def test_pachi_ab_paired_interval_is_newcombes_and_narrower_than_unpaired_when_games_agree():
    tallies = load("ab_tally")  # the reading half of pachi_ab

    def pairs(a, b, c, d):  # both won, first only, second only, both lost
        return [(1, 1)] * a + [(1, 0)] * b + [(0, 1)] * c + [(0, 0)] * d

    # Newcombe's method 10 on Cavo et al. 2012's paired table (Fagerland, Lydersen and Laake, 2017, ch. 8)
    d, low, high = tallies.paired_difference(pairs(59, 6, 16, 80))
    assert (d, low, high) == pytest.approx((-10 / 161, -0.1186, -0.0046), abs=1e-4)
    # with ad - bc at most n/2 phi is 0: the interval is the unpaired one
    assert tallies.paired_difference(pairs(1, 1, 7, 12)) == pytest.approx(tallies.difference(2, 21, 8, 21))
    same = tallies.paired_difference(pairs(30, 0, 0, 20))  # two arms that played the same games
    assert same[0] == 0 and -0.05 < same[1] < 0 < same[2] < 0.05
    assert tallies.difference(30, 50, 30, 50)[2] > 0.15  # unpaired, the same rates are far less sure
    d, low, high = tallies.paired_difference(pairs(20, 9, 3, 18))  # the arms swapped: the interval mirrored
    assert tallies.paired_difference(pairs(20, 3, 9, 18)) == pytest.approx((-d, -high, -low))
    # a draw spreads over the cells: (0.5, 1) is half of (1, 1) and half of (0, 1)
    assert tallies.paired_difference([(0.5, 1)] * 2 + [(1, 0)] * 4) == pytest.approx(
        tallies.paired_difference(pairs(1, 4, 1, 0)))
    assert tallies.paired_difference([]) == (0.0, -1.0, 1.0)


def test_pachi_ab_paired_games_start_afresh_by_seed_resume_and_report_where_arms_part(tmp_path, monkeypatch,
                                                                                        capsys):
    import argparse

    ab = load("pachi_ab")
    tallies = load("ab_tally")  # the reading half of pachi_ab
    args = argparse.Namespace(pachi="/p/pachi", pachi_playouts=10000, foogo_playouts=36400, games=3,
                              seed_base=62000, timeout=120.0, out=str(tmp_path), jobs=None, time=None, until=None,
                              openings=None)
    even = ab.paired_commands(args, "rule", "--nakade", None, 0)
    odd = ab.paired_commands(args, "old", "", "env PYTHONPATH=/wt python -m foogo gtp", 1)
    assert even[even.index("--black") + 1] == "/p/pachi -t =10000 threads=1,sure_win_threshold=2 -s 62000"
    assert even[even.index("--white") + 1].endswith("foogo gtp --nakade --threads 1 --size 9 --playouts 36400 "
                                                    "--seed 62000")
    assert odd[odd.index("--black") + 1] == ("env PYTHONPATH=/wt python -m foogo gtp --threads 1 --size 9 "
                                             "--playouts 36400 --seed 62001")
    assert odd[odd.index("--white-name") + 1] == "Pachi 12.90 =10000" and odd[odd.index("--games") + 1] == "1"
    assert odd[odd.index("--sgf-dir") + 1] == str(tmp_path / "old" / "job-1")
    assert odd[odd.index("--json") + 1] == str(tmp_path / "old" / "job-1.json")
    played = []
    where = set()
    monkeypatch.setattr(ab.subprocess, "call",
                        lambda command, **kw: where.add(kw.get("cwd")) or played.append(command) or 0)
    (tmp_path / "rule").mkdir()
    (tmp_path / "rule" / "job-1.json").write_text('{"games": 1, "interrupted": false}')  # played: not again
    (tmp_path / "rule" / "job-2.json").write_text('{"games": 0, "interrupted": true}')  # stopped: again
    (tmp_path / "control").mkdir()
    (tmp_path / "control" / "job-0.json").write_text('{"games": 1, ')  # damaged: again
    assert ab.play_paired(args, {"control": "", "rule": "--nakade"}, {}) == []
    seeds = sorted((c[c.index("--json") + 1].split("/")[-2], c[c.index("--json") + 1][-6:]) for c in played)
    assert seeds == [("control", "0.json"), ("control", "1.json"), ("control", "2.json"),
                     ("rule", "0.json"), ("rule", "2.json")]
    assert where == {str(tmp_path)}  # never the directory the script started in (see the module's docstring)
    played.clear()
    args.jobs = 1  # one game at a time: game by game, each arm's game i before any game i + 1
    assert ab.play_paired(args, {"control": "", "rule": "--nakade"}, {}) == []
    order = [(c[c.index("--json") + 1].split("/")[-2], c[c.index("--json") + 1][-6:]) for c in played]
    assert order == [("control", "0.json"), ("rule", "0.json"), ("control", "1.json"), ("control", "2.json"),
                     ("rule", "2.json")]
    fresh = tmp_path / "fresh"  # a new --out: each arm's directory is made before its games' --json names it
    args.out = str(fresh)
    fresh.mkdir()
    assert ab.play_paired(args, {"control": "", "rule": "--nakade"}, {}) == []
    assert (fresh / "control").is_dir() and (fresh / "rule").is_dir()
    args.out = str(tmp_path)

    def game(arm, index, result, moves):
        black, white = ("Pachi", "foogo =36400") if index % 2 == 0 else ("foogo =36400", "Pachi")
        job = tmp_path / arm / f"job-{index}"
        job.mkdir(parents=True, exist_ok=True)
        nodes = "".join(f";{'BW'[k % 2]}[{m}]" for k, m in enumerate(moves.split()))
        (job / "game-0001.sgf").write_text(f"(;SZ[9]PB[{black}]PW[{white}]RE[{result}]{nodes})")

    game("control", 0, "W+R", "ee cc dd")
    game("rule", 0, "W+R", "ee cc dd")  # the same game
    game("control", 1, "W+3", "ee cc dd")
    game("rule", 1, "B+3", "ee cc gg ff")  # parts at move 3; foogo (black) wins only in the rule's arm
    game("control", 2, "B+R", "ee")
    game("rule", 2, "B+R", "ee cc")  # goes on past the control's resignation: parts at move 2, both lost
    game("rule", 3, "W+R", "ee")  # the control has no game 3: no pair
    assert tallies.parting(["a", "b"], ["a", "b"]) is None and tallies.parting(["a"], ["a", "b"]) == 2
    assert ab.main(["--report-only", "--paired", "--arm", "control=", "--arm", "rule=--nakade",
                    "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "rule | 3 | 1 | 3 (2-3) | 1 | 1 | 0 | 1 | +33.3 points" in out
    assert ("rule parted from control in games (index (move: foogo's score in control / in rule)): 1 (3: 0 / 1), "
            "2 (2: 0 / 0)") in out
    assert "control | 3 | 1 | 0 | 33.3%" in out  # the unpaired table comes first, as without --paired


def test_owner_feature_bins_the_movers_ownership_from_the_opponents_to_its_own():
    module = load("owner_feature")
    assert module.owner_bucket([-1.0, -0.76, -0.74, 0.0, 0.74, 1.0], 8).tolist() == [0, 0, 1, 4, 6, 7]
    assert module.owner_bucket([-1.0, 1.0], 1).tolist() == [0, 0]


def test_owner_feature_fits_with_and_without_the_owner_and_compares_them_on_the_held_out_games(small_game_dirs,
                                                                                              capsys, monkeypatch):
    module = load("owner_feature")
    monkeypatch.setattr(sys, "path", [str(BENCH), *sys.path])
    train, test = small_game_dirs
    samples = module.owner_samples(train / "a.sgf", "", 4, 8, 0)
    assert len(samples) == 7 and all(f.shape[1] == 7 and 0 <= f[:, -1].min() and f[:, -1].max() < 8
                                     for f, _ in samples)
    assert len(samples[0][0]) == 81  # the empty board: every point a candidate, each with its bin
    assert module.main([str(train), "--test", str(test), "--playouts", "4", "--iterations", "2", "--jobs", "1",
                        "--min-count", "1"]) == 0
    out = capsys.readouterr().out
    assert "without the owner : 5 held-out positions" in out and "with the owner    : 5 held-out positions" in out
    assert re.search(r"the owner's gain in mean log p: [+-]\d\.\d{4} \(", out)
    assert len(re.search(r"owner gammas.*\(8 bins\): (.*)", out).group(1).split()) == 8


def test_policy_diff_scans_each_position_judges_the_widest_gaps_and_reports_who_was_nearer(tmp_path, capsys):
    # (and skips, naming them, the games it cannot read: a broken file, setup stones)
    diff = load("policy_diff")
    games = tmp_path / "games"
    games.mkdir()
    (games / "game-0001.sgf").write_text("(;SZ[5]KM[0.5];B[cc];W[bc];B[cb];W[bd];B[cd];W[db])")
    files = diff.game_files([tmp_path])
    assert [p.name for p in files] == ["game-0001.sgf"]
    assert diff.game_moves(files[0]) == (5, 0.5, [("b", "C3"), ("w", "B3"), ("b", "C4"), ("w", "B2"),
                                                   ("b", "C2"), ("w", "D4")])
    (games / "game-0002.sgf").write_text("(;SZ[5]AB[cc];W[bc])")  # a handicap stone: skipped
    (games / "game-0003.sgf").write_text("(;SZ[5];B[cc]")  # broken: skipped
    scanned = list(diff.scan(diff.game_files([tmp_path]), ["light", "heavy"], 50, 2, 1, {(str(files[0]), 3)}))
    assert [(r["move"], r["to_move"]) for r in scanned] == [(1, "w"), (5, "w")]  # move 3 was done
    assert all(0 <= r["shares"][p] <= 1 for r in scanned for p in ("light", "heavy"))
    err = capsys.readouterr().err
    assert "skipped" in err and "game-0002.sgf: setup stones" in err and "game-0003.sgf" in err

    def scan(move, a, b, name="g1"):
        return {"step": "scan", "file": name, "move": move, "to_move": "b", "shares": {"light": a, "heavy": b}}

    records = [scan(10, 0.5, 0.6), scan(12, 0.9, 0.1), scan(14, 0.2, 0.8), scan(16, 0.2, 0.6), scan(3, 0.5, 0.5, "g2")]
    assert [r["move"] for r in diff.to_judge(records, ["light", "heavy"], 0.3, 2)] == [12, 14]
    records += [{"step": "judge", "file": "g1", "move": 12, "verdict": 1.0, "margin": 5.0, "played": []},
                {"step": "judge", "file": "g1", "move": 14, "verdict": 1.0, "margin": 3.0, "played": []}]
    text = diff.report(records, ["light", "heavy"])
    assert "5 positions scanned, 2 judged by GNU Go's play-out (of 1 games)" in text
    assert "light: mean error 0.450, nearer in 1 of 2" in text and "heavy: mean error 0.550, nearer in 1 of 2" in text
    assert "light wrong where heavy is right (1, in 1 games)" in text
    assert "heavy wrong where light is right (1, in 1 games)" in text
    assert "g1 move 12 (b to play): light 0.90, heavy 0.10, GNU Go 1 (margin +5)" in text


def test_policy_diff_scores_each_policy_against_the_games_results_by_stage(tmp_path):
    diff = load("policy_diff")
    for name, result in (("b", "B+Resign"), ("w", "W+3.5"), ("d", "0"), ("none", "")):
        (tmp_path / f"{name}.sgf").write_text(f"(;SZ[5]KM[0.5]RE[{result}];B[cc])" if result else "(;SZ[5];B[cc])")
    (tmp_path / "broken.sgf").write_text("(;SZ[5]")
    results = {name: diff.game_result(tmp_path / f"{name}.sgf") for name in ("b", "w", "d", "none", "broken")}
    assert results == {"b": 1.0, "w": 0.0, "d": 0.5, "none": None, "broken": None}

    def scan(name, move, light, heavy):
        return {"step": "scan", "file": name, "move": move, "to_move": "b", "shares": {"light": light, "heavy": heavy}}

    # black won b, lost w: light says 0.5 throughout, heavy is right in b and wrong in w's late stage
    records = [scan("b", 12, 0.5, 0.9), scan("b", 40, 0.5, 1.0), scan("w", 12, 0.5, 0.1), scan("w", 40, 0.5, 0.7),
               scan("w", 75, 0.5, 0.7), scan("none", 12, 0.0, 1.0)]  # a game without a result: left out
    text = diff.brier(records, ["light", "heavy"], results)
    assert "5 positions of 2 games" in text
    assert "moves 10-29 (    2 positions): light 0.2500, heavy 0.0100, difference -0.2400" in text
    assert "moves 30-49 (    2 positions): light 0.2500, heavy 0.2450, difference -0.0050" in text
    assert "moves 70- (    1 positions): light 0.2500, heavy 0.4900, difference +0.2400 (+0.2400 to +0.2400)" in text
    assert "moves 50-69" not in text  # no position there
    overall = (0.01 + 0 + 0.01 + 0.49 + 0.49) / 5
    # the interval from each game's summed differences about the mean (b: -0.49 - 2 * -0.05, w: +0.39)
    assert (f"moves 10- (    5 positions): light 0.2500, heavy {overall:.4f}, difference -0.0500 "
            "(-0.2662 to +0.1662)") in text


@pytest.mark.skipif(not Path("/usr/games/gnugo").exists(), reason="GNU Go not installed (apt-get install gnugo)")
def test_policy_diff_lets_gnu_go_play_a_position_out_and_count_it():
    diff = load("policy_diff")
    # black's wall on the third line of 5x5: GNU Go plays it out to two passes, and black wins
    moves = [("b", "C3"), ("w", "pass"), ("b", "B3"), ("w", "pass"), ("b", "D3")]
    verdict = diff.gnugo_verdict("/usr/games/gnugo", 1, 5, 0.5, moves)
    assert verdict["verdict"] == 1.0 and verdict["margin"] > 0 and verdict["played"][-2:] == ["pass", "pass"]
    # at a komi above the board's area black cannot win, and GNU Go does not resign for either side
    verdict = diff.gnugo_verdict("/usr/games/gnugo", 1, 5, 25.5, [("b", "C3")])
    assert verdict["verdict"] == 0.0 and verdict["margin"] < 0 and verdict["played"][-2:] == ["pass", "pass"]


def test_policy_diff_reads_pachis_playout_counts_from_the_patched_montecarlo_engine(tmp_path):
    # a stand-in for the patched Pachi (policy_diff's doc): each genmove prints MCSHARE wins games losses,
    # counted for the side that did not move; the script must see every position set up from scratch
    diff = load("policy_diff")
    fake = tmp_path / "pachi"
    fake.write_text("#!/usr/bin/env python3\n"
                    "import os, sys\n"
                    "assert os.environ.get('MC_NO_FIRST') == '1' and sys.argv[1:3] == ['-e', 'montecarlo']\n"
                    "assert sys.argv[4] == '=500' and sys.argv[5].startswith('playout=moggy')\n"
                    "plays = 0\n"
                    "for line in sys.stdin:\n"
                    "    if line.startswith('clear_board'): plays = 0\n"
                    "    if line.startswith('play '): plays += 1\n"
                    "    if line.startswith('genmove'):\n"
                    "        print(f'MCSHARE {100 + plays} 500 {300 - plays}', file=sys.stderr)\n"
                    "    print('? illegal move\\n' if line.startswith('play b A1') else '= \\n')\n")
    fake.chmod(0o755)
    moves = [("b", "C3"), ("w", "B3"), ("b", "C4"), ("w", "B2")]
    shares = diff.pachi_shares(str(fake), "pachi:nlibrate=0", 5, 0.5, moves, [1, 2], 500)
    # before move 1 (white to move, one stone): white's 299 + 100 draws / 2 of 500; before move 2: black's
    assert shares == {1: pytest.approx(1 - (299 + 50) / 500), 2: pytest.approx((298 + 50) / 500)}
    silent = tmp_path / "silent"
    silent.write_text("#!/bin/sh\ncat > /dev/null\n")
    silent.chmod(0o755)
    with pytest.raises(RuntimeError, match="printed 0 MCSHARE lines for 2 positions"):
        diff.pachi_shares(str(silent), "pachi", 5, 0.5, moves, [1, 2], 500)
    with pytest.raises(RuntimeError, match="refused a command of the game's record: . illegal move"):
        diff.pachi_shares(str(fake), "pachi", 5, 0.5, [("b", "A1"), ("w", "B3")], [1], 500)


def test_policy_diff_compares_every_later_policy_with_the_first(tmp_path):
    diff = load("policy_diff")
    (tmp_path / "b.sgf").write_text("(;SZ[5]KM[0.5]RE[B+1];B[cc])")
    results = {"b": diff.game_result(tmp_path / "b.sgf")}
    records = [{"step": "scan", "file": "b", "move": 12, "to_move": "b",
                "shares": {"light": 0.5, "heavy": 0.9, "pachi": 1.0}}]
    text = diff.brier(records, ["light", "heavy", "pachi"], results)
    assert "moves 10-29 (    1 positions): light 0.2500, heavy 0.0100, difference -0.2400" in text
    assert "moves 10-29 (    1 positions): light 0.2500, pachi 0.0000, difference -0.2500" in text


# white to move captures the three black stones at E3 (test_search's settled-move position)
CAPTURE_SGF = "(;SZ[5]KM[0.5]AB[bc][cc][dc]AW[bb][cb][db][ac][bd][cd][dd]PL[W])"


def test_position_suite_counts_the_searches_that_meet_each_line(tmp_path, capsys):
    import json

    module = load("position_suite")
    (tmp_path / "capture.sgf").write_text(CAPTURE_SGF)
    (tmp_path / "suite.txt").write_text("# a comment line\ncapture.sgf 1 e3  # found\n"
                                        "capture.sgf 1 !E3 winrate>0.5\n")
    out = tmp_path / "result.json"
    assert module.main([str(tmp_path / "suite.txt"), "--playouts", "300", "--searches", "2", "--policy", "light",
                        "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert [p["passed"] for p in result["positions"]] == [2, 0]
    assert result["positions"][0]["moves"] == {"E3": 2}
    assert result["passed"] == 2 and result["total"] == 4
    assert "passed 2 of 4 searches: 50.0%" in capsys.readouterr().out


@pytest.mark.parametrize("line, error", [
    ("capture.sgf 1", "want FILE MOVE EXPECT"),
    ("capture.sgf x E3", "must be an integer"),
    ("capture.sgf 0 E3", "1 or more"),
    ("capture.sgf 1 winrate<1.5", "win rate bound"),
    ("capture.sgf 1 Z9", "line 1"),
    ("missing.sgf 1 E3", "cannot read"),
])
def test_position_suite_refuses_a_bad_line_before_any_search(tmp_path, capsys, line, error):
    module = load("position_suite")
    (tmp_path / "capture.sgf").write_text(CAPTURE_SGF)
    (tmp_path / "suite.txt").write_text(line + "\n")
    assert module.main([str(tmp_path / "suite.txt"), "--searches", "1"]) == 2
    message = capsys.readouterr()
    assert error in message.err and "searches" not in message.out


def test_position_suite_reads_the_shipped_suite():
    module = load("position_suite")
    positions = module.read_suite(module.DEFAULT_SUITE)
    assert len(positions) >= 4
    for position in positions:
        game = module.load(position)  # each file found and its vertices on its board
        assert game.board.size in (9, 19)


def test_position_suite_takes_foogo_gtps_tuning_options(tmp_path, capsys):
    import json

    module = load("position_suite")
    (tmp_path / "capture.sgf").write_text(CAPTURE_SGF)
    (tmp_path / "suite.txt").write_text("capture.sgf 1 E3\n")
    out = tmp_path / "result.json"
    assert module.main([str(tmp_path / "suite.txt"), "--playouts", "100", "--searches", "1", "--policy", "light",
                        "--uct", "0.2", "--equiv", "3000", "--no-share-root", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["settings"] == dict(uct=0.2, equiv=3000.0, share_root=False)
    for bad, error in [(["--expand", "0"], "--expand must be a finite number >= 1, got 0.0"),
                       (["--uct", "-1"], "--uct must be"), (["--uct", "nan"], "--uct: 'nan' is not a number"),
                       (["--policy", "heavier"], "heavier")]:
        with pytest.raises(SystemExit):
            module.main([str(tmp_path / "suite.txt"), *bad])
        assert error in capsys.readouterr().err


def test_position_suite_says_when_only_matches_no_line(tmp_path, capsys):
    module = load("position_suite")
    (tmp_path / "capture.sgf").write_text(CAPTURE_SGF)
    (tmp_path / "suite.txt").write_text("capture.sgf 1 E3\n")
    assert module.main([str(tmp_path / "suite.txt"), "--only", "corner"]) == 2
    assert "no position" in capsys.readouterr().err


def test_moves_left_counts_each_players_remaining_moves_by_empty_points(tmp_path, capsys):
    moves_left = load("moves_left")
    games = tmp_path / "match" / "job-0"
    games.mkdir(parents=True)
    # 5 moves on 3x3: before black's first move 9 points are empty and black has 3 moves left (B1, B3, B5)
    (games / "game-0001.sgf").write_text("(;FF[4]GM[1]SZ[3];B[aa];W[bb];B[cc];W[];B[ac])")
    (games / "broken.sgf").write_text("(;FF[4]SZ[3];B[")
    assert moves_left.positions(str(games / "game-0001.sgf")) == [(9, 3), (8, 2), (7, 2), (6, 1), (6, 1)]
    assert moves_left.main([str(tmp_path / "match"), "--bucket", "3"]) == 0
    out = capsys.readouterr()
    assert "skipped" in out.err and "1 games" in out.out
    assert "| 9-11 | 1 | 3.0 | 3 | 3 | 3 | 3.33 |" in out.out
    assert "| 6-8 | 4 | 1.5 |" in out.out
    with pytest.raises(SystemExit):
        moves_left.main([str(tmp_path / "nowhere")])


def test_pachi_ab_status_shows_a_run_s_progress_and_faults_but_no_result(tmp_path, capsys):
    ab = load("pachi_ab")
    tallies = load("ab_tally")  # the reading half of pachi_ab
    line = ("genmove white: E5 | 1000 playouts in 0.10 s (10000/s, CPU {} s, stopped: playouts), win rate 50.0%\n")
    start = "foogo gtp: loading kernels in the background\n"

    def job(arm, index, summary=None, searches=(), result="B+R"):
        directory = tmp_path / arm / f"job-{index}"
        directory.mkdir(parents=True)
        (directory / "game-0001.sgf").write_text(f"(;SZ[9]PB[Pachi]PW[foogo =1000]RE[{result}];B[ee])")
        (directory / "engine-B.stderr.log").write_text(start + "".join(line.format(x) for x in searches))
        if summary is not None:
            (tmp_path / arm / f"job-{index}.json").write_text(summary)

    played = ('{{"games": 1, "interrupted": false, "engines": [{{"name": "foogo", "wins": 1, "illegal_moves": {}, '
              '"timeouts": 0, "crashes": 0}}, {{"name": "Pachi", "wins": 0, "illegal_moves": 0, "timeouts": {}, '
              '"crashes": 0}}]}}')
    job("control", 0, played.format(0, 0), (9.0, 1.0, 3.0))
    job("control", 1, played.format(0, 0), (9.0, 2.0))
    job("control", 2, played.format(0, 0), (9.0,))
    job("control", 3)  # in play: no summary yet
    job("rule", 0, played.format(1, 2), (9.0, 4.0), result="W+R")
    job("rule", 1, '{"games": 0, "interrupted": true}')  # stopped: played again on the next run
    job("rule", 2, played.format(0, 0), (9.0, 4.0))
    job("rule", 5, "{damaged")
    job("rule", 6, '{"games": 1, "engines": null}')  # parsed, but not shaped as a summary: damaged too
    job("rule", 7, '{"games": 1, "engines": [{"timeouts": "x"}]}')
    assert ab.main(["--status", "--arm", "control=", "--arm", "rule=--uct 0.02", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "control | 3 | 1 (3) | 0 | 0 | 0 | 2.000 (3)" in out  # each process's first search left out
    assert "rule | 2 | 4 (1, 5-7) | 1 | 2 | 0 | 4.000 (2)" in out
    assert "complete sets (game i played by every arm): 2: 0, 2" in out
    assert "%" not in out and "won" not in out and "points" not in out  # no result, however the games went
    assert not (tmp_path / "ab.txt").exists()  # nothing written
    assert tallies._spans([0, 1, 2, 5, 7, 8]) == "0-2, 5, 7-8" and tallies._spans([]) == "none"
    with pytest.raises(SystemExit):
        ab.main(["--status", "--report-only", "--arm", "control=", "--out", str(tmp_path)])
    capsys.readouterr()
    # a part stopped by --until (here long past: no game starts) shows the same, and no result, however it ends
    assert ab.main(["--pachi", "/p/pachi", "--foogo-playouts", "1000", "--paired", "--games", "3", "--until", "00:00",
                    "--arm", "control=", "--arm", "rule=--uct 0.02", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "complete sets (game i played by every arm): 2: 0, 2" in out and "short of --games 3" in out
    assert "%" not in out and "won" not in out and not (tmp_path / "ab.txt").exists()


def test_pachi_ab_timed_games_interleave_the_arms_one_at_a_time_until_the_stop(tmp_path, monkeypatch, capsys):
    import argparse

    ab = load("pachi_ab")
    args = argparse.Namespace(pachi="/p/pachi", time=5.0, threads=2, until=None, games=3, seed_base=3600,
                              timeout=60.0, out=str(tmp_path), jobs=None, openings=None)
    even = ab.paired_commands(args, "m512", "--memory 512", "env PYTHONPATH=/wt python -m foogo gtp", 0)
    assert even[even.index("--black") + 1] == "/p/pachi -t 5 threads=2 -s 3600"  # the stock Pachi, as it comes
    assert even[even.index("--white") + 1] == ("env PYTHONPATH=/wt python -m foogo gtp --memory 512 --threads 2 "
                                               "--size 9 --time 5 --seed 3600")
    assert even[even.index("--white-name") + 1] == "foogo 5s"
    assert ab.game_order(["a", "b"], 3, True) == [("a", 0), ("b", 0), ("b", 1), ("a", 1), ("a", 2), ("b", 2)]
    assert ab.game_order(["a", "b"], 2, False) == [("a", 0), ("b", 0), ("a", 1), ("b", 1)]
    played = []
    monkeypatch.setattr(ab.subprocess, "call", lambda command, **kw: played.append(command) or 0)
    workers = []
    real_pool = ab.ThreadPoolExecutor
    monkeypatch.setattr(ab, "ThreadPoolExecutor", lambda max_workers: workers.append(max_workers)
                        or real_pool(max_workers=max_workers))
    assert ab.play_paired(args, {"m64": "", "m512": "--memory 512"}, {}) == []
    assert workers == [1]  # never two timed games at once
    order = [(c[c.index("--json") + 1].split("/")[-2], c[c.index("--json") + 1][-6:]) for c in played]
    assert order == [("m64", "0.json"), ("m512", "0.json"), ("m512", "1.json"), ("m64", "1.json"),
                     ("m64", "2.json"), ("m512", "2.json")]
    played.clear()
    args.until = 0.0  # long past: no game starts
    assert ab.play_paired(args, {"m64": "", "m512": "--memory 512"}, {}) == [] and played == []
    args.time, args.jobs, args.foogo_playouts, args.pachi_playouts = None, 2, 1000, 1000  # a --paired run stops too
    assert ab.play_paired(args, {"m64": "", "m512": "--memory 512"}, {}) == [] and played == []
    assert abs(ab.clock_time("14:30") - ab.clock_time("14:29") - 60) < 1e-6
    evening = datetime.datetime(2026, 12, 5, 22, 55)  # a stop past midnight is tomorrow's, not long past
    assert ab.clock_time("01:00", evening) - evening.timestamp() == 2 * 3600 + 5 * 60
    assert ab.clock_time("23:10", evening) - evening.timestamp() == 15 * 60
    assert ab.clock_time("22:55", evening) - evening.timestamp() == 24 * 3600  # now itself: the next one
    for bad in (["--time", "5", "--foogo-playouts", "100"], ["--time", "0"], ["--threads", "2"],
                ["--time", "5", "--jobs", "2", "--paired"], ["--time", "5", "--until", "25:00"],
                ["--foogo-playouts", "100", "--until", "12:00"]):  # --until without --paired or --time
        with pytest.raises(SystemExit):
            ab.main(["--pachi", "/p/pachi", "--arm", "a=", "--out", str(tmp_path), *bad])
    capsys.readouterr()


def test_pachi_ab_runs_its_games_in_the_out_directory_by_absolute_paths(tmp_path, monkeypatch, capsys):
    ab = load("pachi_ab")
    calls = []
    monkeypatch.setattr(ab.subprocess, "call", lambda command, **kw: calls.append((command, kw["cwd"], kw["env"])) or 0)
    monkeypatch.chdir(tmp_path)  # a checkout's root, say: relative paths are taken from here
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    assert ab.main(["--pachi", "bin/pachi", "--foogo-playouts", "100", "--arm", "a=", "--games", "1",
                    "--out", "rel", "--paired", "--command", "a=env PYTHONPATH=/wt python -m foogo gtp"]) == 0
    capsys.readouterr()
    (command, cwd, env), = calls
    assert cwd == str(tmp_path / "rel")  # not the checkout: `python -m foogo` would import its foogo first
    # the harness is the script's own checkout's foogo, not an editable install's (a checkout being edited)
    assert env["PYTHONPATH"] == f"{Path(ab.__file__).resolve().parent.parent}{os.pathsep}/elsewhere"
    assert command[command.index("--black") + 1].startswith(f"{tmp_path / 'bin' / 'pachi'} -t =10000")
    assert command[command.index("--json") + 1] == str(tmp_path / "rel" / "a" / "job-0.json")


def test_pachi_ab_shows_no_table_when_an_arm_failed(tmp_path, monkeypatch, capsys):
    # an arm's vs_pachi refuses an --out holding an earlier run's games (exit 2) and plays nothing: a table
    # tallied from those games would read as this run's result
    ab = load("pachi_ab")
    job = tmp_path / "control" / "job-0"
    job.mkdir(parents=True)
    (job / "game-0001.sgf").write_text("(;SZ[9]PB[foogo =1000]PW[Pachi]RE[B+R];B[ee])")

    class Refused:
        def __init__(self, *args, **kwargs):
            pass

        def wait(self):
            return 2

    monkeypatch.setattr(ab.subprocess, "Popen", Refused)
    assert ab.main(["--pachi", "pachi", "--foogo-playouts", "100", "--arm", "control=", "--out", str(tmp_path)]) == 1
    captured = capsys.readouterr()
    assert "an arm failed" in captured.err and "no result shown" in captured.out
    assert "control |" not in captured.out and not (tmp_path / "ab.txt").exists()


def test_vs_pachi_runs_the_match_in_its_out_directory(tmp_path, monkeypatch):
    vp = load("vs_pachi")
    seen = []
    monkeypatch.setattr(vp.subprocess, "call", lambda command: seen.append((command, os.getcwd())) or 0)
    monkeypatch.chdir(tmp_path)  # restored afterwards, whatever main does
    monkeypatch.setattr(sys, "argv", ["vs_pachi.py", "--pachi", "bin/pachi", "--foogo-playouts", "100",
                                      "--games", "2", "--out", "rel"])
    with pytest.raises(SystemExit):
        vp.main()
    (command, cwd), = seen
    assert cwd == str(tmp_path / "rel")  # not the checkout it started in (python -m imports from there first)
    assert command[command.index("--out") + 1] == str(tmp_path / "rel")
    assert command[command.index("--black") + 1].startswith(str(tmp_path / "bin" / "pachi"))


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



BIG = "1" + "0" * 30  # 10^30: a count no script may take
REFUSED = [  # (script, its arguments, its one-line error, its exit code: 2, argparse's)
    ("arm_cost", ["A", "B", "--policy", "heavy", "--playouts", "1", "--rounds", "0"],
     "--rounds must be from 1 to 1,000, got 0", 2),
    ("arm_cost", ["A", "B", "--policy", "heavy", "--playouts", BIG], "--playouts must be from 1 to 1,000,000,000,000",
     2),
    ("budget_visits", ["OUT", "--factor", "1000"], "--factor must be from 1 to 64, got 1000", 2),
    ("budget_visits", ["OUT", "--factor", "1"], "--factor must be at least 2, got 1", 2),
    ("budget_visits", ["OUT", "--rave"], "--rave goes with --surprises", 2),
    ("budget_visits", ["OUT", "--positions", BIG], "--positions must be from 1 to 10,000", 2),
    ("expand_cost", ["--seconds", "inf"], "--seconds must be above 0 and at most 86400, got inf", 2),
    ("expand_cost", ["--repeats", "0"], "--repeats must be from 1 to 1,000, got 0", 2),
    ("game_memory", ["--analyze", "nan"], "--analyze must be from 0 to 86400 seconds, got nan", 2),
    ("game_memory", ["--moves", BIG], "--moves must be from 0 to 10,000", 2),
    ("heavy_rules", ["--positions", BIG], "--positions must be from 1 to 25,000", 2),
    ("heavy_rules", ["--playouts", "0"], "--playouts must be from 1 to 100,000,000, got 0", 2),
    ("instructions", [".", "--high", str(10**9)], "need 0 < --low < --high <= 100,000,000", 2),
    ("instructions", [".", "--runs", "0"], "--runs must be from 1 to 1,000, got 0", 2),
    ("learn_gammas", ["OUT", "--iterations", BIG], "--iterations must be from 1 to 10,000", 2),
    ("make_book", ["--seeds", str(10**12), "--out", "OUT"], "--seeds must be from 1 to 1,000, got 1000000000000", 2),
    ("make_book", ["--jobs", str(10**6), "--out", "OUT"], "--jobs must be from 1 to 256, got 1000000", 2),
    ("pachi_ab", ["--pachi", "pachi", "--foogo-playouts", "100", "--arm", "a=", "--paired", "--games", BIG,
                  "--out", "OUT"], "--games must be from 1 to 100,000", 2),
    ("pachi_ab", ["--pachi", "pachi", "--foogo-playouts", "100", "--arm", "a=", "--paired", "--jobs", str(10**9),
                  "--out", "OUT"], "--jobs must be from 1 to 256", 2),
    ("pachi_ab", ["--pachi", "pachi", "--time", "inf", "--arm", "a=", "--out", "OUT"],
     "--time must be above 0 and at most 3600 s (foogo gtp's), got inf", 2),
    ("pachi_ab", ["--pachi", "pachi", "--foogo-playouts", "100", "--arm", "a=", "--timeout", "nan", "--out", "OUT"],
     "--timeout must be above 0 and at most 604800 s", 2),
    ("owner_feature", ["OUT", "--test", "OUT", "--playouts", BIG], "--playouts must be from 1 to 10,000", 2),
    ("owner_feature", ["OUT", "--test", "OUT", "--buckets", "0"], "--buckets must be from 1 to 64, got 0", 2),
    ("parallel_match", ["--black", "a", "--white", "b", "--jobs", BIG, "--out", "OUT"], "--jobs must be from 1 to 256",
     2),
    ("parallel_match", ["--black", "a", "--white", "b", "--timeout", "inf", "--out", "OUT"],
     "--timeout must be above 0 and at most 604800 s", 2),
    ("playout_stats", ["--playouts", str(10**9)], "--playouts must be from 2 to 100,000,000", 2),
    ("playout_stats", ["--threads", "0"], "--threads must be from 1 to 256, got 0", 2),
    ("policy_cost", ["--games", "0"], "--games must be from 1 to 100,000, got 0", 2),
    ("policy_diff", ["OUT", "--out", "OUT", "--playouts", str(10**9)],
     "--playouts must be from 1 to 100,000,000, got 1000000000", 2),
    ("position_suite", ["--playouts", str(10**13)], "playouts must be from 1 to 1e+12", 2),
    ("position_suite", ["--searches", BIG], "--searches must be from 1 to 1,000, got 1", 2),
    ("reference_tree_cost", ["--libego", "libego", "--repeats", str(10**9)],
     "--repeats must be from 1 to 1,000, got 1000000000", 2),
    ("score_check", ["--gnugo-games", BIG], "--gnugo-games must be from 0 to 100,000", 2),
    ("search_cycles", ["--leaves", str(10**9)], "--leaves must be from 0 to 25,000, got 1000000000", 2),
    ("search_cycles", ["--seconds", "nan"], "--seconds must be above 0 and at most 86400, got nan", 2),
    ("search_speed", ["--repeats", "0"], "--repeats must be from 1 to 1,000, got 0", 2),
    ("search_speed", ["--slices", str(10**9)], "--slices must be from 0 to 1,000 a second of --seconds", 2),
    ("search_speed_ab", [".", "--seconds", "100"], "--seconds must be above 0 and at most 60, got 100.0", 2),
    ("search_speed_ab", [".", "--repeats", "0"], "--repeats must be from 1 to 1,000, got 0", 2),
    ("shared_root_cost", ["--seconds", "inf"], "seconds must be positive and at most 86400 (a day), got inf", 2),
    ("shared_root_cost", ["--threads", "0"], "threads must be from 1 to 256, got 0", 2),
    ("thread_scaling", ["--min-seconds", "inf"], "--min-seconds must be above 0 and at most 86400, got inf", 2),
    ("thread_scaling", ["--threads", "1000"], "--threads must be from 1 to 256, got 1000", 2),
    ("throughput", ["--repeats", str(10**9)], "--repeats must be from 1 to 1,000, got 1000000000", 2),
    ("throughput", ["--min-seconds", "nan"], "--min-seconds must be above 0 and at most 86400, got nan", 2),
    ("throughput_ab", [".", "--playouts9", str(10**9)], "--playouts9 must be from 1 to 100,000,000", 2),
    ("tree_growth", ["--playouts", str(10**13)], "--playouts must be from 1 to 1,000,000,000,000, got 10000000000000",
     2),
    ("tree_growth", ["--threads", "0"], "threads must be from 1 to 256, got 0", 2),
    ("vs_libego", ["--libego9", "libego", "--repeats", str(10**9)],
     "--repeats must be from 1 to 1,000, got 1000000000", 2),
    ("vs_pachi", ["--pachi", "pachi", "--games", BIG, "--out", "OUT"], "--games must be from 1 to 100,000", 2),
    ("vs_pachi", ["--pachi", "pachi", "--calibration-games", "0", "--out", "OUT"],
     "--calibration-games must be from 1 to 100,000, got 0", 2),
    ("vs_pachi_playouts", ["--pachi", "pachi", "--seconds", "inf"], "--seconds must be above 0 and at most 86400", 2),
]


@pytest.mark.parametrize("script, argv, message, code", REFUSED)
def test_bench_scripts_refuse_an_unbounded_count_in_one_line_before_any_work(tmp_path, monkeypatch, capsys, script,
                                                                            argv, message, code):
    import subprocess

    from foogo.search import Search

    def started(*args, **kwargs):
        raise AssertionError(f"{script} started work before it refused its arguments")

    module = load(script)
    monkeypatch.setattr(sys, "path", [str(BENCH), *sys.path])  # as when the script runs: its directory first
    for where, name in ((subprocess, "Popen"), (os, "execve"), (Search, "__init__"), (module, "run_playouts"),
                        (module, "measure")):
        if hasattr(where, name):
            monkeypatch.setattr(where, name, started)
    out = tmp_path / "out"
    monkeypatch.setattr(sys, "argv", [f"{script}.py", *[str(out) if a == "OUT" else a for a in argv]])
    with pytest.raises(SystemExit) as refused:
        module.main()
    err = capsys.readouterr().err
    # parser.error: the usage, then the error in one line
    assert refused.value.code == code and message in err.splitlines()[-1], err
    assert "Traceback" not in err and not out.exists()  # nothing made in --out


CAPS_REFUSED = [  # (an option_caps function, its arguments after the parser, its message)
    ("refuse_counts", ([("--runs", 0, 1000)],), "--runs must be from 1 to 1,000, got 0"),
    ("refuse_counts", ([("--runs", 1001, 1000)],), "--runs must be from 1 to 1,000, got 1001"),
    ("refuse_counts", ([("--moves", -1, 10)], 0), "--moves must be from 0 to 10, got -1"),
    ("refuse_seconds", ("--seconds", 0.0, 60.0), "--seconds must be above 0 and at most 60, got 0.0"),
    ("refuse_seconds", ("--seconds", float("nan"), 60.0), "--seconds must be above 0 and at most 60, got nan"),
    ("refuse_seconds", ("--timeout", float("inf"), 60.0, " s (foogo match's)"),
     "--timeout must be above 0 and at most 60 s (foogo match's), got inf"),
]


@pytest.mark.parametrize("function, arguments, message", CAPS_REFUSED)
def test_option_caps_pass_none_and_the_bounds_and_refuse_past_them_in_one_line(capsys, function, arguments, message):
    import argparse

    caps = load("option_caps")
    parser = argparse.ArgumentParser()
    caps.refuse_counts(parser, [("--playouts", None, 10), ("--runs", 1, 1000), ("--games", 1000, 1000)])
    caps.refuse_counts(parser, [("--moves", 0, 10)], least=0)
    caps.refuse_seconds(parser, "--seconds", 60.0, 60.0)
    with pytest.raises(SystemExit) as refused:
        getattr(caps, function)(parser, *arguments)
    err = capsys.readouterr().err
    assert refused.value.code == 2 and err.splitlines()[-1].endswith(message), err


@pytest.mark.parametrize("script, argv", [("parallel_match", ["--black", "a", "--white", "b"]),
                                          ("vs_pachi", ["--pachi", "pachi", "--foogo-playouts", "100"])])
def test_a_match_out_holding_an_earlier_matchs_jobs_is_refused_before_any_game(tmp_path, monkeypatch, capsys, script,
                                                                             argv):
    # its jobs' foogo match would refuse to overwrite their games, and the earlier job-0.json was then read as
    # this match's result
    import subprocess

    def started(*args, **kwargs):
        raise AssertionError(f"{script} started a game in a directory holding another match's")

    module = load(script)
    monkeypatch.setattr(sys, "path", [str(BENCH), *sys.path])
    monkeypatch.setattr(subprocess, "Popen", started)
    monkeypatch.setattr(subprocess, "call", started)
    out = tmp_path / "out"
    out.mkdir()
    (out / "job-0.json").write_text("{}")
    monkeypatch.setattr(sys, "argv", [f"{script}.py", *argv, "--out", str(out)])
    with pytest.raises(SystemExit) as refused:
        module.main()
    err = capsys.readouterr().err
    assert refused.value.code == 2 and err.splitlines()[-1].endswith("holds an earlier match's job-0.json: give "
                                                                     "another directory"), err
    assert sorted(p.name for p in out.iterdir()) == ["job-0.json"]
    # a match stopped before its summaries leaves only its games: their jobs would fail late, one by one
    (out / "job-0.json").unlink()
    (out / "job-3").mkdir()
    (out / "job-3" / "game-0001.sgf").write_text("(;SZ[9])")
    with pytest.raises(SystemExit) as refused:
        module.main()
    assert refused.value.code == 2 and "holds an earlier match's job-3/game-0001.sgf" in capsys.readouterr().err


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


PATH_EDIT = re.compile(r"sys\.path\.(?:insert|append)\((?!0, sys\.argv\[)(?!.*\.parent\.parent\))")


def test_no_bench_script_puts_its_own_directory_on_sys_path():
    # Python puts a script's directory first when it runs, and `load` does while a test loads one; a script's
    # own edit only hid imports that would fail when a test called its main. Allowed: a child process's code
    # putting the checkout it is given first (sys.argv), and playout_stats and score_check putting their
    # checkout's root there, to import that checkout's foogo
    found = [f"{path.name}:{n}: {line.strip()}" for path in sorted(BENCH.glob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1) if PATH_EDIT.search(line)]
    assert not found, "\n".join(found)


def test_resign_rules_scores_each_rule_on_the_games_played_without_resigning(tmp_path, capsys):
    rules = load("resign_rules")
    games = [  # (SGF, foogo's genmoves and win rates), foogo never resigning
        ("(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[B+2];B[ee];W[cc];B[gc];W[cg];B[gg];W[dd];B[cf];W[fc];B[hh])",
         [("E5", 50.0), ("G7", 8.0), ("G3", 4.0), ("C4", 30.0), ("H2", 60.0)]),  # won from 4%
        ("(;SZ[9]KM[7]PB[pachi]PW[foogo 0.1]RE[B+10];B[ee];W[cc];B[gc];W[cg];B[gg];W[dd];B[cf];W[fc])",
         [("C7", 40.0), ("C3", 2.0), ("D6", 1.0), ("F7", 0.4)]),  # lost
        ("(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[0];B[ee];W[cc];B[gc];W[cg];B[gg])",
         [("E5", 50.0), ("G7", 10.0), ("G3", 50.0)]),  # drawn, 10.0% printed: at the edge of 0.10
    ]
    logs = {"A": [], "B": []}
    for k, (text, moves) in enumerate(games):
        (tmp_path / f"game-{k + 1:04d}.sgf").write_text(text)
        colour = "black" if "PB[foogo" in text else "white"
        for move, rate in moves:
            logs["A"].append(f"genmove {colour}: {move} | 1000 playouts in 1.00 s (1000/s, CPU 1.00 s, "
                             f"stopped: playouts), win rate {rate}%, pv {move}")
    (tmp_path / "engine-A.stderr.log").write_text("\n".join(logs["A"]) + "\n")
    (tmp_path / "engine-B.stderr.log").write_text("= E5\n")
    assert rules.fires_at([0.5, 0.08, 0.04, 0.3], 0.10, 1) == 1
    assert rules.fires_at([0.5, 0.08, 0.04, 0.3], 0.10, 2) == 2
    assert rules.fires_at([0.5, 0.08, 0.04, 0.3], 0.05, 2) is None
    assert rules.fires_at([0.5, 0.08, None, 0.04], 0.10, 2) is None  # a line without a rate breaks a run
    assert rules.fires_at([0.5, 0.1, 0.5], 0.10, 1) is None and rules.fires_at([0.5, 0.1], 0.10, 1, True) == 1
    assert rules.fires_at([0.01, 0.0], None, 0) is None
    assert rules.main([str(tmp_path), "--thresholds", "0.10,0.05", "--runs", "1,2"]) == 0
    out = capsys.readouterr().out
    assert "3 games (0 skipped" in out and "12 genmoves of foogo's, 1 at the edge of a threshold" in out
    # never: 1 + 0 + 0.5; below 0.10 for 1 fires in game 1 at its 2nd genmove (3 saved), game 2 at its 2nd (2)
    assert "never | 0 | 1.5 | 50.0% | 0 | +33.3 (" in out
    assert "below 0.10 for 1 | 2 | 0.5 | 16.7% | 5 | +0.0 (+0.0 to +0.0)" in out
    assert "below 0.10 for 2 | 2 | 0.5 | 16.7% | 3 | +0.0" in out
    assert "below 0.05 for 1 | 2 | 0.5 | 16.7% | 4 | +0.0" in out
    assert "below 0.05 for 2 | 1 | 1.5 | 50.0% | 1 | +33.3" in out
    assert "below 0.10 for 1: 1 games go the other way with the rates printed at its threshold" in out
    assert "games some rule throws away (1)" in out
    assert "game-0001.sgf: 1 as b, lowest 4.0%, 5 genmoves; lost by 3" in out
    for flags in (["--thresholds", "1.5"], ["--thresholds", "nan"], ["--runs", "0"], ["--reference", "0.1:x"],
                  ["--thresholds", ",".join(["0.1"] * 26), "--runs", "1,2,3,4"]):
        with pytest.raises(SystemExit):
            rules.main([str(tmp_path), *flags])
    assert "at most 100 rules (thresholds times runs), got 104" in capsys.readouterr().err


def test_pass_decisions_finds_foogo_s_passing_positions_and_compares_two_runs(tmp_path, capsys):
    decisions = load("pass_decisions")
    games = [
        "(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[B+81];B[ee];W[tt];B[tt])",  # answers white's pass by passing
        "(;SZ[9]KM[7]PB[pachi]PW[foogo 0.1]RE[B+81];B[ee];W[tt];B[cc];W[dd];B[tt])",  # passes first at move 2
    ]
    for k, text in enumerate(games):
        (tmp_path / f"game-{k + 1:04d}.sgf").write_text(text)
    (tmp_path / "game-0003.sgf").write_text("(;SZ[9]KM[7]PB[foogo]PW[pachi];B[ee];W[")  # cut short
    (tmp_path / "game-0004.sgf").write_text("(;SZ[9]KM[7]PB[pachi]PW[foogo];B[ee];W[ee];B[tt])")  # W[ee] illegal
    parsed = [sgf.Sgf_game.from_bytes(text.encode()) for text in games]
    moves = [[node.get_move() for node in g.get_main_sequence()[1:]] for g in parsed]
    assert decisions.positions(parsed[0].get_root(), moves[0], "foogo", "answer") == ("b", [2])
    assert decisions.positions(parsed[0].get_root(), moves[0], "foogo", "first") == ("b", [])
    assert decisions.positions(parsed[1].get_root(), moves[1], "foogo", "first") == ("w", [1])
    assert decisions.positions(parsed[1].get_root(), moves[1], "foogo", "answer") == ("w", [5])
    assert decisions.positions(parsed[1].get_root(), moves[1], "nobody", "answer") == ("", [])
    both = sgf.Sgf_game.from_bytes(b"(;SZ[9]PB[foogo a]PW[foogo b];B[ee];W[tt];B[tt])")
    assert decisions.positions(both.get_root(), [(c, m) for c, m in [("b", (4, 4)), ("w", None)]], "foogo",
                               "answer") == ("", [])  # both are foogo: no side to search for
    out = tmp_path / "answer.jsonl"
    assert decisions.main([str(tmp_path), "--out", str(out), "--playouts", "200"]) == 0
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [(r["move"], r["colour"], r["played"]) for r in records] == [(2, "b", "pass"), (5, "w", "end")]
    assert records[0]["choice"] == PASS and records[0]["winrate"] == 1.0  # black wins by passing
    err = capsys.readouterr().err
    assert "game-0003.sgf: skipped, not a readable SGF" in err and "game-0004.sgf after move 3: skipped" in err
    again = tmp_path / "again.jsonl"
    assert decisions.main([str(tmp_path), "--out", str(again), "--playouts", "200", "--against", str(out)]) == 0
    assert again.read_text() == out.read_text() and "0 of 2 differ from answer.jsonl" in capsys.readouterr().out
    records[1]["choice"] = 40
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    assert decisions.main([str(tmp_path), "--out", str(again), "--playouts", "200", "--against", str(out)]) == 0
    assert "1 of 2 differ from answer.jsonl" in capsys.readouterr().out
    short = tmp_path / "short.jsonl"
    short.write_text(out.read_text().splitlines()[0] + "\n")
    with pytest.raises(SystemExit, match="not of the same positions"):  # after the run, without a traceback
        decisions.main([str(tmp_path), "--out", str(again), "--playouts", "200", "--against", str(short)])
    records[0]["winrate"] = "high"
    out.write_text("".join(json.dumps(r) + "\n" for r in records))
    with pytest.raises(SystemExit, match="not a pass_decisions file"):
        decisions.main([str(tmp_path), "--out", str(again), "--against", str(out)])
    out.write_text("{}\n")
    with pytest.raises(SystemExit, match="not a pass_decisions file"):
        decisions.main([str(tmp_path), "--out", str(again), "--against", str(out)])
    out.write_text("x" * 20_000 + "\n")
    with pytest.raises(SystemExit, match="a line over"):
        decisions.main([str(tmp_path), "--out", str(again), "--against", str(out)])
    first = tmp_path / "first.jsonl"
    assert decisions.main([str(tmp_path), "--out", str(first), "--kind", "first", "--playouts", "200"]) == 0
    assert [json.loads(line)["move"] for line in first.read_text().splitlines()] == [1]


FAKE_ORACLE = '''#!{python}
# a stand-in for Pachi as oracle_regret runs it: genmove answers J9, and pachi-result's win rate for the side
# that moved is the number of stones played since clear_board over 100, so each value says what was set up
import sys
assert sys.argv[1:3] == ["-t", "=500"] and "dynkomi=none" in sys.argv[-1]
plays, colour = 0, "b"
for line in sys.stdin:
    words = line.split()
    ident = words.pop(0) if words[0].isdigit() else ""
    answer = ""
    if words[0] == "clear_board":
        plays = 0
    if words[0] == "play":
        plays += 1
    if words[0] == "genmove":
        colour, answer = words[1], "J9"
    if words[0] == "pachi-result":
        answer = f"{{colour}} J9 500 {{plays / 100:.2f}} 0.0"
    if words[:3] == ["play", "b", "H1"]:
        print(f"?{{ident}} illegal move\\n", flush=True)
        continue
    print(f"={{ident}} {{answer}}\\n", flush=True)
    if words[0] == "quit":
        break
'''


def test_oracle_regret_picks_lost_positions_and_values_moves_by_the_oracle(tmp_path, capsys):
    regret = load("oracle_regret")
    games = tmp_path / "games"
    games.mkdir()
    lost = "(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[W+5];B[ee];W[cc];B[gc];W[cg];B[gg];W[dd];B[cf])"
    (games / "game-0001.sgf").write_text(lost)
    (games / "game-0002.sgf").write_text(lost.replace("RE[W+5]", "RE[B+5]"))  # won: none of its positions
    (games / "game-0003.sgf").write_text("(;SZ[9]PB[foogo]PW[pachi];B[ee];W[")  # cut short: named, skipped
    positions = tmp_path / "positions.jsonl"
    assert regret.main(["positions", str(games), "--out", str(positions), "--moves", "1-5", "--per-game", "9"]) == 0
    assert "game-0003.sgf: skipped, not a readable SGF" in capsys.readouterr().err
    picked = [json.loads(line) for line in positions.read_text().splitlines()]
    # black (foogo) is to move after 2 and 4 moves; after 6 too, but 6 is past --moves' 5
    assert [(p["id"].split("/")[-1], len(p["moves"]), p["colour"], p["played"]) for p in picked] == [
        ("game-0001.sgf@2", 2, "b", "G7"), ("game-0001.sgf@4", 4, "b", "G3")]
    assert picked[1]["moves"] == [["b", "E5"], ["w", "C7"], ["b", "G7"], ["w", "C3"]]

    choices = tmp_path / "a.jsonl"
    assert regret.main(["choose", str(positions), "--out", str(choices), "--playouts", "100", "--searches", "2"]) == 0
    chosen = [json.loads(line) for line in choices.read_text().splitlines()]
    assert [len(c["choices"]) for c in chosen] == [2, 2] and chosen[0]["playouts"] == 100
    other = tmp_path / "b.jsonl"  # a second version's choices: J9 everywhere
    other.write_text("".join(json.dumps({"id": c["id"], "choices": ["J9", "J9"]}) + "\n" for c in chosen))

    fake = tmp_path / "pachi"
    fake.write_text(FAKE_ORACLE.format(python=sys.executable))
    fake.chmod(0o755)
    cache = tmp_path / "values.jsonl"
    oracle = ["oracle", str(positions), str(choices), str(other), "--pachi", str(fake), "--cache", str(cache),
              "--pachi-playouts", "500", "--jobs", "2", "--best"]
    assert regret.main(oracle) == 0
    values = {(v["id"].split("/")[-1], v["move"]): v["value"] for v in map(json.loads, cache.read_text().splitlines())}
    # a move after n moves: n + 1 stones, then the reply's win rate (n + 1) / 100; Pachi's own: n / 100
    assert values[("game-0001.sgf@2", "best")] == 0.02 and values[("game-0001.sgf@2", "J9")] == 0.97
    assert values[("game-0001.sgf@4", "best")] == 0.04 and values[("game-0001.sgf@4", "J9")] == 0.95
    assert len(values) == len({(c["id"], m) for c in chosen for m in c["choices"] + ["J9", "best"]})
    lines = len(cache.read_text().splitlines())
    assert lines == len(values)  # Pachi's J9, also a chosen move, valued once
    assert regret.main(oracle) == 0 and len(cache.read_text().splitlines()) == lines  # nothing evaluated twice
    capsys.readouterr()
    refused = tmp_path / "refused.jsonl"  # the fake refuses black's H1: named, skipped, the run goes on
    refused.write_text(json.dumps({"id": chosen[1]["id"], "choices": ["H1"]}) + "\n")
    assert regret.main(oracle[:3] + [str(refused)] + oracle[4:]) == 1
    assert "game-0001.sgf@4 H1 not evaluated: illegal move" in capsys.readouterr().err
    assert len(cache.read_text().splitlines()) == lines

    assert regret.main(["score", str(positions), str(cache), str(choices), str(other)]) == 0
    out = capsys.readouterr().out
    assert "b.jsonl: 2 positions, mean value 0.9600, mean regret 0.0000 over 2, Pachi's move 100.0% of" in out
    a_mean = sum(sum(values[(c["id"].split("/")[-1], m)] for m in c["choices"]) / 2 for c in chosen) / 2
    assert f"a.jsonl: 2 positions, mean value {a_mean:.4f}" in out
    assert f"second - first: {0.96 - a_mean:+.4f}" in out

    # the interval is clustered by game: two positions of g1 that moved together count as one game's sum
    # (game sums 0.4/3 and -0.4/3: half-width 1.96 * sqrt(2 * (0.4/3)^2 * 2/1) / 3)
    before, after = {"g1@1": 0.0, "g1@2": 0.0, "g2@1": 0.0}, {"g1@1": 0.1, "g1@2": 0.1, "g2@1": -0.1}
    mean, low, high, n = regret.paired(before, after)
    assert (n, mean) == (3, pytest.approx(0.1 / 3)) and high - mean == pytest.approx(1.96 * 0.8 / 9)
    assert regret.paired({"g1@1": 0.0}, {"g1@1": 0.5})[1:3] == (-math.inf, math.inf)  # one game: no interval

    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps({**picked[0], "moves": [["b", "E5"], ["w", "E5"]]}) + "\n")  # occupied
    assert regret.main(["score", str(bad), str(cache), str(choices)]) == 2
    assert "bad.jsonl: position" in capsys.readouterr().err
    bad.write_text("not json\n")
    assert regret.main(["score", str(positions), str(bad), str(choices)]) == 2
    assert "bad.jsonl, line 1: not JSON" in capsys.readouterr().err
    bad.write_text(json.dumps({"id": "elsewhere", "choices": ["C3"]}) + "\n")
    assert regret.main(["score", str(positions), str(cache), str(bad)]) == 2
    assert "not a choice file of these positions" in capsys.readouterr().err
    bad.write_text(json.dumps({"id": chosen[0]["id"], "choices": ["A1"]}) + "\n")
    with pytest.raises(SystemExit, match="the move A1 at .* has no value: run the oracle step"):
        regret.main(["score", str(positions), str(cache), str(bad)])
    bad.write_text("x" * 30_000 + "\n")
    assert regret.main(["score", str(positions), str(cache), str(bad)]) == 2
    assert "over 20,000 characters" in capsys.readouterr().err


def test_oracle_regret_keeps_positions_of_two_archives_apart(tmp_path, capsys):
    regret = load("oracle_regret")
    lost = "(;SZ[9]KM[7]PB[foogo]PW[pachi]RE[W+5];B[ee];W[cc];B[gc];W[cg];B[gg])"
    for archive, first in (("one", "ee"), ("two", "dd")):  # the same arm, job and game names in both
        arm = tmp_path / archive / "games" / "default" / "job-1"
        arm.mkdir(parents=True)
        (arm / "game-0001.sgf").write_text(lost.replace("B[ee]", f"B[{first}]"))
    positions = tmp_path / "positions.jsonl"
    assert regret.main(["positions", str(tmp_path / "one" / "games" / "default"), str(tmp_path / "two" / "games" /
                        "default"), "--out", str(positions), "--moves", "2-2", "--per-game", "1"]) == 0
    picked = [json.loads(line) for line in positions.read_text().splitlines()]
    # four parts of the path would give both games one id: each id takes a fifth, its archive's
    assert sorted(p["id"] for p in picked) == ["one/games/default/job-1/game-0001.sgf@2",
                                               "two/games/default/job-1/game-0001.sgf@2"]
    assert regret.position_digest(picked[0]) != regret.position_digest(picked[1])

    # a value made at another position of that id (a cache shared with another archive's positions) is refused
    one = tmp_path / "one.jsonl"
    one.write_text(json.dumps(picked[0]) + "\n")
    elsewhere = {**picked[1], "id": picked[0]["id"]}
    cache = tmp_path / "values.jsonl"
    cache.write_text(json.dumps({"id": picked[0]["id"], "at": regret.position_digest(elsewhere), "move": "J9",
                                 "value": 0.5}) + "\n")
    choices = tmp_path / "choices.jsonl"
    choices.write_text(json.dumps({"id": picked[0]["id"], "at": regret.position_digest(picked[0]),
                                   "choices": ["J9"]}) + "\n")
    assert regret.main(["score", str(one), str(cache), str(choices)]) == 2
    assert "values.jsonl: one/games/default/job-1/game-0001.sgf@2 was made at another position" in \
        capsys.readouterr().err
    cache.write_text(json.dumps({"id": picked[0]["id"], "at": regret.position_digest(picked[0]), "move": "J9",
                                 "value": 0.5}) + "\n")
    assert regret.main(["score", str(one), str(cache), str(choices)]) == 0
    choices.write_text(json.dumps({"id": picked[0]["id"], "at": regret.position_digest(elsewhere),
                                   "choices": ["J9"]}) + "\n")
    assert regret.main(["score", str(one), str(cache), str(choices)]) == 2
    assert "choices.jsonl: one/games/default" in capsys.readouterr().err


def test_pachi_ab_openings_start_each_pair_of_games_from_one_position_with_both_colours(tmp_path, capsys):
    import argparse

    ab = load("pachi_ab")
    openings = tmp_path / "openings"
    openings.mkdir()
    for name in ("b.sgf", "a.sgf", "notes.txt"):
        (openings / name).write_text("(;SZ[9];B[ee];W[cc])")
    parser = argparse.ArgumentParser()
    files = ab.opening_files(parser, str(openings))
    assert [f.name for f in files] == ["a.sgf", "b.sgf"]  # SGF files by name; an absolute path each
    assert ab.opening_files(parser, str(openings / "b.sgf")) == [openings / "b.sgf"]
    for bad in (tmp_path / "missing", tmp_path):  # neither a file nor a directory holding an SGF file
        with pytest.raises(SystemExit):
            ab.opening_files(parser, str(bad))
    assert "neither an SGF file nor a directory" in capsys.readouterr().err
    args = argparse.Namespace(pachi="/p/pachi", pachi_playouts=10000, foogo_playouts=30500, games=6, seed_base=5,
                              timeout=120.0, out=str(tmp_path), jobs=None, time=None, until=None, openings=files,
                              opening_moves=40)
    used = []
    for game in range(6):
        command = ab.paired_commands(args, "rule", "", None, game)
        used.append(Path(command[command.index("--opening") + 1]).name)
        assert command[command.index("--opening-moves") + 1] == "40"
    assert used == ["a.sgf", "a.sgf", "b.sgf", "b.sgf", "a.sgf", "a.sgf"]  # games 2k and 2k+1: both colours
    with pytest.raises(SystemExit):  # openings need games started one by one
        ab.main(["--arm", "x=", "--openings", str(openings), "--report-only", "--out", str(tmp_path / "o")])
    assert "--openings is for --paired and --time runs" in capsys.readouterr().err


def test_pachi_ab_starts_no_game_once_foogo_s_code_changed_during_the_run(tmp_path, monkeypatch, capsys):
    """Each game starts `foogo match` afresh from the script's checkout: after an edit there (a refactor made
    while a block played once broke the end of a game) the run stops starting games, and says why."""
    import argparse

    ab = load("pachi_ab")
    pm = load("parallel_match")
    root = tmp_path / "checkout"
    (root / "foogo" / "gtp").mkdir(parents=True)
    (root / "foogo" / "match.py").write_text("A = 1\n")
    (root / "foogo" / "gtp" / "engine.py").write_text("B = 1\n")
    (root / "foogo" / "data.json").write_text("{}")
    first = pm.source_fingerprint(root)
    (root / "foogo" / "data.json").write_text('{"x": 1}')  # not Python: the same harness
    assert pm.source_fingerprint(root) == first
    (root / "foogo" / "gtp" / "engine.py").write_text("B = 2\n")
    second = pm.source_fingerprint(root)
    assert second != first
    (root / "foogo" / "gtp" / "new.py").write_text("")
    assert pm.source_fingerprint(root) not in (first, second)
    assert pm.source_fingerprint() == pm.source_fingerprint()  # this checkout, unchanged between two reads

    args = argparse.Namespace(pachi="/p/pachi", pachi_playouts=10000, foogo_playouts=30500, games=3,
                              seed_base=5000, timeout=120.0, out=str(tmp_path / "out"), jobs=1, time=None,
                              until=None, openings=None)
    prints = iter(["before", "before", "before", "after", "after", "after", "after"])
    monkeypatch.setattr(ab, "source_fingerprint", lambda: next(prints))
    played = []
    monkeypatch.setattr(ab.subprocess, "call", lambda command, **kw: played.append(command) or 0)
    codes = ab.play_paired(args, {"control": "", "rule": "--nakade"}, {})
    assert len(played) == 2  # control's and rule's game 0; the code changed before control's game 1
    assert codes == [ab.HARNESS_CHANGED] * 4
    err = capsys.readouterr().err
    assert err.count("changed since the run began") == 1 and "game 1 of control" in err
