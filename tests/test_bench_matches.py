"""The match scripts in bench/: parallel matches and their merging, vs_pachi's calibration and runs, pachi_ab's arms."""

import datetime
import os
import sys
from pathlib import Path

import pytest
from bench_loader import BENCH, load

from foogo.intervals import wilson


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
    assert "by games (the host's pace): 0-9 1,905" in out  # 4000 playouts over 2.1 CPU s, both arms
    assert "control | 3 | 2 | 1 | 83.3%" in out and "(1 unscored)" in out
    assert "Pachi's CPU s a move" not in out  # no job summaries: nothing said of equal CPU
    assert "rule | 4 | 2 | 0 | 50.0%" in out and "-33.3 points" in out
    assert (tmp_path / "ab.txt").read_text().strip() == out.strip()
    with pytest.raises(SystemExit):
        ab.main(["--report-only", "--arm", "control=", "--arm", "control=x", "--out", str(tmp_path)])
    with pytest.raises(SystemExit):
        ab.main(["--arm", "control=", "--out", str(tmp_path)])  # playing needs --pachi and --foogo-playouts


def test_pachi_ab_reports_pachis_cpu_a_move_and_names_an_arm_off_equal_cpu(tmp_path, capsys):
    ab = load("pachi_ab")
    tallies = load("ab_tally")
    line = ("genmove white: E5 | 1000 playouts in 0.10 s (10000/s, CPU {:.2f} s, stopped: playouts), "
            "win rate 50.0%, pv E5\n")
    for arm, foogo_seconds in (("control", 0.50), ("rule", 0.62)):
        for i, pachi_seconds in enumerate((0.48, 0.52)):
            job = tmp_path / arm / f"job-{i}"
            job.mkdir(parents=True)
            (job / "game-0001.sgf").write_text("(;SZ[9]PB[Pachi]PW[foogo =1000]RE[W+R];B[ee])")
            (job / "engine-B.stderr.log").write_text("".join(line.format(x) for x in (9.0, foogo_seconds)))
            data = summary(0, 1, 0, 0.5, 10, 1)
            data["engines"][0].update(name="Pachi", cpu_timed_moves=10, mean_cpu_seconds_per_move=pachi_seconds)
            data["engines"][1].update(name="foogo", cpu_timed_moves=10, mean_cpu_seconds_per_move=0.1)
            (tmp_path / arm / f"job-{i}.json").write_text(__import__("json").dumps(data))
    (tmp_path / "rule" / "job-2.json").write_text("{damaged")  # a damaged summary is no game: left out
    assert tallies.opponent_cpu(tmp_path / "control") == (pytest.approx(0.5), 20)
    assert tallies.opponent_cpu(tmp_path / "missing") == (0.0, 0)
    assert ab.main(["--report-only", "--arm", "control=", "--arm", "rule=", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert ("Pachi's CPU s a move by the match's clock (its job summaries): control 0.5000 over 20 (foogo's "
            "searches 1.000 of it); rule 0.5000 over 20 (foogo's searches 1.240 of it)") in out
    assert "more than 10% above or below Pachi's moves in rule:" in out


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
    # 1000 playouts a search: control's 1.0, 3.0 and 2.0 CPU s, rule's 4.0 and 4.0 (each log's first left out)
    assert "foogo's playouts a CPU second, all arms, by games (the host's pace): 0-9 357" in out
    control = {"control": tallies.foogo_searches_by_game(tmp_path / "control")}
    assert tallies.pace(control, games=2).endswith("pace): 0-1 500")  # games 2-3: no search counted
    assert tallies.pace({"rule": tallies.foogo_searches_by_game(tmp_path / "rule")}, games=1).endswith(
        "pace): 0-0 250; 2-2 250")
    assert tallies.pace({"none": tallies.foogo_searches_by_game(tmp_path / "none")}).endswith("pace): n/a")
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
