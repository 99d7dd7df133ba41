"""What every script in bench/ does: refuse an unbounded count in one line (option_caps), leave sys.path alone."""

import os
import re
import sys

import pytest
from bench_loader import BENCH, load

BIG = "1" + "0" * 30  # 10^30: a count no script may take


REFUSED = [  # (script, its arguments, its one-line error, its exit code: 2, argparse's)
    ("arm_cost", ["A", "B", "--policy", "heavy", "--playouts", "1", "--rounds", "0"],
     "--rounds must be from 1 to 1,000, got 0", 2),
    ("arm_cost", ["A", "B", "--policy", "heavy", "--playouts", BIG], "--playouts must be from 1 to 1,000,000,000,000",
     2),
    ("budget_visits", ["OUT", "--factor", "1000"], "--factor must be from 1 to 64, got 1000", 2),
    ("budget_visits", ["OUT", "--factor", "1"], "--factor must be at least 2, got 1", 2),
    ("budget_visits", ["OUT", "--rave"], "--rave goes with --surprises", 2),
    ("budget_visits", ["OUT", "--pachi", "P", "--prior", "40"], "--pachi goes with neither --surprises nor foogo's", 2),
    ("budget_visits", ["OUT", "--pachi", "P", "--playouts", "100"], "--playouts must be at least 500 with --pachi", 2),
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
    ("owner_blind", ["OUT", "--pachi", "P", "--before", "0"], "--before must be from 1 to 20, got 0", 2),
    ("owner_blind", ["OUT", "--pachi", "P", "--playouts", BIG], f"--playouts must be from 1 to 10,000,000, got {BIG}",
     2),
    ("owner_blind", ["OUT", "--pachi", "P", "--pachi-playouts", "100"],
     "--pachi-playouts must be from 500 to 10,000,000, got 100", 2),
    ("owner_blind", ["OUT", "--pachi", "P", "--games", "-1"], "--games must be from 0 to 100,000, got -1", 2),
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


PATH_EDIT = re.compile(r"sys\.path\.(?:insert|append)\((?!0, sys\.argv\[)(?!.*\.parent\.parent\))")


def test_no_bench_script_puts_its_own_directory_on_sys_path():
    # Python puts a script's directory first when it runs, and `load` does while a test loads one; a script's
    # own edit only hid imports that would fail when a test called its main. Allowed: a child process's code
    # putting the checkout it is given first (sys.argv), and playout_stats and score_check putting their
    # checkout's root there, to import that checkout's foogo
    found = [f"{path.name}:{n}: {line.strip()}" for path in sorted(BENCH.glob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1) if PATH_EDIT.search(line)]
    assert not found, "\n".join(found)
