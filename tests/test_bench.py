"""`foogo bench`: what its report holds and how it sizes and times its runs."""

import argparse
import json

import pytest

from foogo import bench


def run_bench(args, capsys):
    parser = argparse.ArgumentParser(prog="foogo bench")
    bench.configure_parser(parser)
    try:
        parsed = parser.parse_args(args)
    except SystemExit as refused:  # argparse's own one-line error (a number it cannot read)
        return refused.code, capsys.readouterr()
    return bench.run(parsed), capsys.readouterr()


def test_json_report_has_medians_spreads_and_ns_per_move(capsys):
    code, out = run_bench(["--size", "5", "--playouts", "300", "--repeats", "3", "--json"], capsys)
    assert code == 0
    report = json.loads(out.out)
    assert set(bench.JSON_KEYS) <= set(report)
    assert report["repeats"] == 3 and report["playouts"] == 300 and report["clock"] == "cpu"
    for clock in ("playouts_per_second", "playouts_per_cpu_second"):
        assert report[f"{clock}_min"] <= report[clock] <= report[f"{clock}_max"]
    # ns per move agrees with the CPU rate and the moves per playout
    expected = 1e9 / (report["playouts_per_cpu_second"] * report["moves_per_playout"])
    assert report["ns_per_move"] == pytest.approx(expected, rel=0.35)
    assert report["black_wins"] + report["white_wins"] + report["draws"] == 300


def test_text_report_names_both_clocks_and_ns_per_move(capsys):
    code, out = run_bench(["--size", "5", "--playouts", "200", "--repeats", "2"], capsys)
    assert code == 0
    assert "CPU clock, median" in out.out and "wall clock, median" in out.out
    assert "ns/move" in out.out and "2 runs of" in out.out


def test_without_a_count_each_run_lasts_the_minimum(capsys):
    code, out = run_bench(["--size", "5", "--min-seconds", "0.3", "--repeats", "1", "--json"], capsys)
    assert code == 0
    assert json.loads(out.out)["seconds"] >= 0.3 * 0.9  # sized by a calibration batch, 10% margin


@pytest.mark.parametrize("seconds, rate, count", [(2, 100, 1000), (2, 45_000, 100_000), (2, 40_000, 100_000),
                                                  (2, 46_000, 200_000), (2.0, 9_000, 20_000)])
def test_playout_counts_are_round_and_long_enough(seconds, rate, count):
    assert bench.playouts_for(seconds, rate) == count
    assert count >= seconds * rate


def test_a_long_min_seconds_runs_at_most_a_batch_of_playouts(monkeypatch):
    # --min-seconds 3600 sized a run of a billion light playouts (9 GB of results); since run_playouts
    # refuses batches past MAX_BATCH, the calibrated count stops there (here a small stand-in)
    monkeypatch.setattr(bench, "MAX_BATCH", 3000)
    report = bench.measure(size=5, repeats=1, min_seconds=5.0)
    assert report["playouts"] == 3000


@pytest.mark.parametrize("args", [["--komi", "nan"], ["--komi", "inf"], ["--min-seconds", "0"],
                                  ["--komi", "1e30"],  # past the one komi rule: every playout white's
                                  ["--repeats", "0"], ["--playouts", "0"], ["--size", "26"],
                                  ["--threads", "1000000000"],
                                  ["--playouts", "1000000000000"],  # was a 3.6 TiB allocation and a traceback
                                  ["--repeats", "1000000000000"],
                                  ["--seed", str(2**63 - 1)],  # its warm-up's seed + 1: a traceback once
                                  ["--policy", ".relative:name"],  # importlib's TypeError: a traceback once
                                  ["--policy", "foogo_no_such_module_x:f"]])
def test_bad_options_are_refused_with_a_message(args, capsys):
    code, out = run_bench(args + ["--json"], capsys)
    assert code == 2 and out.out == "" and "foogo bench:" in out.err


def test_a_policy_module_that_fails_to_load_is_named(tmp_path, monkeypatch, capsys):
    (tmp_path / "broken_policy_mod.py").write_text("def f(:\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    code, out = run_bench(["--policy", "broken_policy_mod:f", "--json"], capsys)
    assert code == 2 and "cannot load the playout policy broken_policy_mod:f: SyntaxError" in out.err
