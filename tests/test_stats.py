"""`foogo stats`: the figures, the chunk file, resuming after an interrupt, refusing foreign or bad
input without touching anything, and the same results locally, on threads and on a dask cluster."""

import json
import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from foogo import Board
from foogo.cli import main
from foogo.playout import run_playouts
from foogo.stats import (
    CHUNKS,
    MANIFEST,
    RunDir,
    StatsError,
    Tally,
    derived_seed,
    fair_komi,
    parse_counts,
    parse_komi,
    parse_sizes,
    plan,
    summarize,
    t95,
    wilson,
)
from foogo.stats.rundir import checksum

SMALL = ["--sizes", "5,7", "--playouts", "3000", "--chunk", "1000", "--quiet"]


def stats(*argv) -> int:
    """Run `foogo stats` in this process; return its exit code."""
    return main(["stats", *map(str, argv)])


def snapshot(path):
    """Every file under path with its bytes and mtime, to prove that nothing was touched."""
    out = {}
    for root, _, files in os.walk(path):
        for name in files:
            full = os.path.join(root, name)
            with open(full, "rb") as handle:
                out[full] = (handle.read(), os.stat(full).st_mtime_ns)
    return out


def results(path):
    with open(os.path.join(path, "results.json")) as handle:
        return json.load(handle)


# ---------------------------------------------------------------- input

def test_sizes_accept_one_range_and_list():
    assert parse_sizes("9") == [9]
    assert parse_sizes("5-8") == [5, 6, 7, 8]
    assert parse_sizes("19,9,13") == [9, 13, 19]
    assert parse_sizes("5-7,7,13") == [5, 6, 7, 13]


@pytest.mark.parametrize("text", ["1", "26", "5-30", "nine", "9-5", "3-4-5", ""])
def test_bad_sizes_are_refused(text):
    with pytest.raises(StatsError):
        parse_sizes(text)


def test_komi_must_be_finite_numbers_within_bounds():
    assert parse_komi("7.5,0,-0") == [0.0, 7.5]
    for text in ("abc", "7.5,x", "nan", "inf", "1e308", "7.5,-1000.5"):
        with pytest.raises(StatsError, match="komi"):
            parse_komi(text)


@pytest.mark.parametrize("text", ["1_9", "\u0669", "9,1_3"])
def test_sizes_are_ascii_whole_numbers(text):
    with pytest.raises(StatsError):
        parse_sizes(text)


@pytest.mark.parametrize("text", ["1e400", "1_000", "\u0661\u0660\u0660"])
def test_counts_beyond_a_float_or_in_other_spellings_are_refused(text):
    with pytest.raises(StatsError, match="playouts"):
        parse_counts(text, "playouts per move")


def test_counts_are_positive_whole_numbers():
    assert parse_counts("100,1e3,10000", "playouts per move") == [100, 1000, 10000]
    for text in ("0", "-5", "1.5", "ten", "100,100"):
        with pytest.raises(StatsError):
            parse_counts(text, "playouts per move")


@pytest.mark.parametrize("argv, message", [
    (["--sizes", "26"], "out of range"),
    (["--sizes", "1-9"], "out of range"),
    (["--komi", "six"], "not a number"),
    (["--playouts", "0"], ">= 1"),
    (["--chunk", "-3"], ">= 1"),
    (["--threads", "1e9"], "at most 256"),
    (["--size", "9"], "need --selfplay"),
    (["--sizes", "2-1000000000"], "out of range"),  # refused before a billion sizes are listed
    (["--sizes", "9-5"], "size range '9-5' runs backwards"),  # it said "bad size", as if 9 or 5 were
    (["--playouts", "1e30"], "at most 100,000 chunks"),  # refused before its chunks are planned
    (["--playouts", "1e9", "--chunk", "1"], "at most 100,000 chunks"),
    (["--chunk", "1e9"], "chunk must be at most 10,000,000"),  # a chunk's playouts are held at once
    (["--selfplay", "--games", "1e12"], "at most 100,000 chunks"),
    (["--selfplay", "--playouts-per-move", "2000000000000", "--games", "1"], "playouts per move must be at most"),
    # an empty value given is refused, not read as the default (it ran a 9x9 run of 100,000 playouts)
    (["--sizes", ""], "bad size ''"), (["--playouts", ""], "playouts must be"), (["--chunk", ""], "chunk must be"),
    (["--selfplay", "--games", ""], "games must be"), (["--selfplay", "--playouts-per-move", ""], "per move must be"),
    (["--selfplay", "--chunk", ""], "chunk must be"),
])
def test_bad_input_is_a_clear_error_and_writes_nothing(tmp_path, capsys, argv, message):
    out = tmp_path / "run"
    assert stats("--out", out, *argv, "--quiet") == 2
    assert message in capsys.readouterr().err
    assert not out.exists()


# ---------------------------------------------------------------- statistics

def test_wilson_interval_matches_the_formula_and_stays_in_0_1():
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(52, 100)
    assert lo == pytest.approx(0.4231, abs=1e-4) and hi == pytest.approx(0.6153, abs=1e-4)
    assert wilson(10, 10)[1] == 1.0


def test_t_quantile_joins_the_table_and_tends_to_normal():
    assert t95(1) == 12.706 and t95(30) == 2.042
    assert t95(31) == pytest.approx(2.0395, abs=2e-4)
    assert t95(120) == pytest.approx(1.9799, abs=2e-4)
    assert t95(10**6) == pytest.approx(1.95996, abs=1e-5)


def test_tallies_add_exactly_in_any_order():
    rng = np.random.default_rng(1)
    parts = [rng.integers(-40, 40, size=n) for n in (5, 50, 1, 300)]
    whole = Tally.of(np.concatenate(parts), np.ones(356), np.zeros(356))
    for order in ([0, 1, 2, 3], [3, 1, 0, 2]):
        total = Tally()
        for i in order:
            total.add(Tally.of(parts[i], np.ones(len(parts[i])), np.zeros(len(parts[i]))))
        assert summarize(total, [0.5], 9) == summarize(whole, [0.5], 9)


def test_summary_of_a_small_histogram():
    scores = np.array([-3, -1, -1, 1, 1, 1, 3, 5])
    figures = summarize(Tally.of(scores, np.full(8, 10), np.array([0] * 7 + [1])), [0.0, 1.0, 6.5], 5)
    assert figures["n"] == 8 and figures["mean"] == pytest.approx(scores.mean())
    assert figures["std"] == pytest.approx(scores.std(ddof=1))
    half = 2.365 * scores.std(ddof=1) / math.sqrt(8)  # Student's t, 7 degrees of freedom
    assert figures["ci95"] == pytest.approx([scores.mean() - half, scores.mean() + half])
    assert figures["median"] == 1.0
    at0, at1, at65 = figures["win"]
    assert (at0["black_wins"], at0["white_wins"], at0["draws"]) == (5, 3, 0)
    assert (at1["black_wins"], at1["white_wins"], at1["draws"]) == (2, 3, 3)
    assert at1["black_share"] == pytest.approx(3.5 / 8)
    assert at65["black_wins"] == 0 and at65["wilson95"][0] == 0.0
    assert figures["moves_mean"] == 10 and figures["capped"] == 1


def test_the_mean_interval_stays_within_the_scores_a_board_allows():
    # two 7x7 games scored 49 and 9: Student's t with one degree of freedom reaches far past 49
    figures = summarize(Tally.of(np.array([49, 9]), np.full(2, 50), np.zeros(2)), [7.0], 7)
    assert figures["ci95"][1] == 49 and figures["ci95"][0] < 9
    figures = summarize(Tally.of(np.array([-49, -9]), np.full(2, 50), np.zeros(2)), [7.0], 7)
    assert figures["ci95"][0] == -49


def test_games_that_all_scored_alike_have_no_mean_interval():
    # three games scored +5: Student's t gave [+5.00, +5.00], as if the mean were known exactly
    figures = summarize(Tally.of(np.array([5, 5, 5]), np.full(3, 20), np.zeros(3)), [7.0], 5)
    assert figures["std"] == 0 and figures["ci95"] is None and figures["mean"] == 5


def test_fair_komi_of_a_symmetric_distribution_is_zero():
    hist = [(-5, 10), (-1, 30), (1, 30), (5, 10)]
    assert fair_komi(hist, 80) == 0.0


def test_fair_komi_interpolates_between_scores_with_draws_as_half():
    # G(1) = P(> 1) + P(= 1) / 2 = 0.4 + 0.1 = 0.5 exactly: the fair komi is that score
    assert fair_komi([(-1, 40), (1, 20), (3, 40)], 100) == 1.0
    # G(-1) = 0.4 + 0.3 = 0.7, G(1) = 0.2: G = 1/2 two fifths of the way from -1 to 1
    assert fair_komi([(-1, 60), (1, 40)], 100) == pytest.approx(-0.2)


def test_plan_goes_round_robin_and_covers_every_playout_once():
    manifest = {"mode": "random", "groups": [5, 9], "playouts": 2500, "chunk": 1000}
    jobs = plan(manifest)
    assert [j[0] for j in jobs] == [5, 9, 5, 9, 5, 9]
    for size in (5, 9):
        assert sum(c for g, _, c in jobs if g == size) == 2500
        assert [f for g, f, _ in jobs if g == size] == [0, 1000, 2000]


# ---------------------------------------------------------------- a run end to end

def test_figures_equal_a_direct_computation_from_run_playouts(tmp_path):
    assert stats("--out", tmp_path, *SMALL, "--threads", 1) == 0
    report = results(tmp_path)
    assert report["complete"] and [g["group"] for g in report["groups"]] == [5, 7]
    for g in report["groups"]:
        batch = run_playouts(Board(g["group"]), 3000, seed=derived_seed(0, "random", g["group"]))
        direct = summarize(Tally.of(batch.scores, batch.moves, batch.capped), report["komi"], g["group"])
        assert {k: v for k, v in g.items() if k != "group"} == json.loads(json.dumps(direct))
        assert g["mean"] == pytest.approx(batch.scores.mean())
        assert g["win"][0]["black_wins"] == int((batch.scores > 0).sum())


def test_a_size_whose_playouts_reach_the_move_cap_is_flagged_and_intervals_are_ranges(tmp_path, capsys):
    # 2x2's light playouts cycle: 44% reached the cap and were averaged in unfinished (mean +0.47 where a
    # finished playout scores +4) without a word; and results.md printed Wilson intervals as "±" (a review)
    assert stats("--out", tmp_path, "--sizes", "2,5", "--playouts", "1000", "--chunk", "1000", "--komi", "0.5") == 0
    out = capsys.readouterr().out
    flagged = [line for line in out.splitlines() if line.startswith("WARNING")]
    assert len(flagged) == 1 and "of size 2 reached the move cap" in flagged[0], out
    table = (tmp_path / "results.md").read_text()
    assert "±" not in table and "WARNING" in table
    report = results(tmp_path)
    low, high = report["groups"][1]["win"][0]["wilson95"]
    assert f"[{100 * low:.2f}, {100 * high:.2f}]" in table


def test_a_run_writes_every_report(tmp_path, capsys):
    assert stats("--out", tmp_path, "--sizes", "5", "--playouts", "500", "--chunk", "200") == 0
    shown = capsys.readouterr()
    assert "fair komi" in shown.out and "komi 7.5" in shown.out
    assert "playouts" in shown.err  # the progress bar
    for name in ("results.json", "results.csv", "histograms.csv", "results.md",
                 "histograms.png", "mean_score.png", "winrate_komi.png"):
        assert (tmp_path / name).stat().st_size > 0
    with open(tmp_path / CHUNKS) as handle:
        lines = [json.loads(line) for line in handle]
    assert [(r["group"], r["first"], r["count"]) for r in lines] == [(5, 0, 200), (5, 200, 200), (5, 400, 100)]
    assert sum(sum(r["counts"]) for r in lines) == 500
    assert (tmp_path / "results.csv").read_text().startswith("size,n,mean,")


def test_thread_count_does_not_change_the_results(tmp_path):
    assert stats("--out", tmp_path / "one", *SMALL, "--threads", 1) == 0
    assert stats("--out", tmp_path / "two", *SMALL, "--threads", 2) == 0
    assert results(tmp_path / "one") == results(tmp_path / "two")


def test_partial_run_and_torn_line_resume_to_the_uninterrupted_figures(tmp_path):
    assert stats("--out", tmp_path / "whole", *SMALL, "--threads", 1) == 0
    part = tmp_path / "part"
    assert stats("--out", part, *SMALL, "--max-chunks", 3) == 0
    assert not results(part)["complete"]
    with open(part / CHUNKS, "a") as handle:
        handle.write('{"group": 7, "first": 1000, "count": 10')  # a write cut short by kill -9
    assert stats("--out", part, *SMALL, "--report-only") == 0  # reads past the torn tail
    assert stats("--out", part, *SMALL) == 0
    assert results(part) == results(tmp_path / "whole")
    assert len((part / CHUNKS).read_text().splitlines()) == 6


def test_report_only_reads_the_runs_options_from_its_directory(tmp_path, capsys):
    """`--report-only` with no options reports the run DIR holds, as its --help says; with options they
    must be the run's; a run made by other code (another fingerprint) is reported, not continued."""
    part = tmp_path / "part"
    assert stats("--out", part, *SMALL, "--max-chunks", 3) == 0
    expected = results(part)
    (part / "results.json").unlink()
    assert stats("--out", part, "--report-only", "--quiet") == 0
    assert results(part) == expected
    assert stats("--out", part, "--sizes", "5", "--report-only", "--quiet") == 2
    assert "holds another run" in capsys.readouterr().err
    # one option given, the run's own: the rest are the run's too, not the defaults (it was refused)
    assert stats("--out", part, "--chunk", "1000", "--report-only", "--quiet") == 0
    assert stats("--out", part, "--sizes", "5,7", "--seed", "0", "--report-only", "--quiet") == 0
    assert results(part) == expected
    manifest = json.loads((part / "manifest.json").read_text())
    manifest["fingerprint"] = "made by older code"
    (part / "manifest.json").write_text(json.dumps(manifest))
    assert stats("--out", part, "--report-only", "--quiet") == 0
    assert stats("--out", part, *SMALL, "--report-only") == 0
    report = results(part)
    assert report["manifest"].pop("fingerprint") == "made by older code"  # the report names the run's code
    expected["manifest"].pop("fingerprint")
    assert report == expected
    capsys.readouterr()
    assert stats("--out", part, *SMALL) == 2  # continuing would mix two codes' chunks
    assert "made by other code" in capsys.readouterr().err
    assert stats("--out", tmp_path / "none", "--report-only") == 2
    assert "holds no run" in capsys.readouterr().err


@pytest.mark.parametrize("damage", [{"groups": [99]}, {"groups": 5}, {"playouts": 10**30}, {"chunk": "x"},
                                    {"mode": "selfplay"}, {"seed": -1}, {"extra": 1}])
def test_report_only_checks_a_manifest_it_reads_as_a_commands_options(tmp_path, capsys, damage):
    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 1) == 0
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    (tmp_path / "manifest.json").write_text(json.dumps({**manifest, **damage}))
    capsys.readouterr()
    before = snapshot(tmp_path)
    assert stats("--out", tmp_path, "--report-only", "--quiet") == 2
    err = capsys.readouterr().err
    assert err.startswith("foogo stats: error: ") and "Traceback" not in err, err
    assert snapshot(tmp_path) == before


def test_rerunning_a_finished_run_computes_nothing(tmp_path):
    assert stats("--out", tmp_path, *SMALL) == 0
    before = (tmp_path / CHUNKS).read_bytes()
    assert stats("--out", tmp_path, *SMALL) == 0
    assert (tmp_path / CHUNKS).read_bytes() == before


def test_kill_9_mid_run_then_rerun_gives_the_uninterrupted_figures(tmp_path):
    argv = ["--sizes", "13", "--playouts", "20000", "--chunk", "400", "--threads", "1", "--quiet"]
    killed = tmp_path / "killed"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(__file__)),
                                                        os.environ.get("PYTHONPATH", "")]))
    child = subprocess.Popen([sys.executable, "-m", "foogo", "stats", "--out", str(killed), *argv], env=env,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    chunk_file = killed / CHUNKS
    deadline = time.time() + 60
    while time.time() < deadline and child.poll() is None:
        if chunk_file.exists() and chunk_file.read_text().count("\n") >= 3:
            break
        time.sleep(0.01)
    child.send_signal(signal.SIGKILL)
    assert child.wait() == -signal.SIGKILL
    done = chunk_file.read_text().count("\n")
    assert 3 <= done < 50
    assert stats("--out", killed, *argv) == 0
    assert stats("--out", tmp_path / "whole", *argv) == 0
    assert results(killed) == results(tmp_path / "whole")


def _children(pid: int) -> set[int]:
    """The processes whose parent is `pid` (Linux's /proc)."""
    found = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rpartition(")")[2].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            found.add(int(stat.parent.name))
    return found


def test_an_interrupt_counts_the_chunks_on_disk(tmp_path, capsys, monkeypatch):
    # an interrupt between a chunk's write and its count said one chunk fewer than DIR holds
    from foogo.stats.rundir import RunDir

    written = RunDir.append

    def append_then_interrupt(self, record, manifest):
        written(self, record, manifest)
        if len(Path(self.file("chunks.jsonl")).read_text().splitlines()) == 2:
            raise KeyboardInterrupt

    monkeypatch.setattr(RunDir, "append", append_then_interrupt)
    assert stats("--out", tmp_path / "run", *SMALL) == 130
    assert "interrupted; 2 chunks are safe in" in capsys.readouterr().err


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads the process tree from /proc")
def test_kill_stops_a_self_play_run_and_its_workers(tmp_path):
    # a SIGTERM to the command alone (how a background run is stopped) left its pool's workers running for ever
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([os.path.dirname(os.path.dirname(__file__)),
                                                        os.environ.get("PYTHONPATH", "")]))
    child = subprocess.Popen([sys.executable, "-m", "foogo", "stats", "--out", str(tmp_path / "run"), "--selfplay",
                              "--size", "9", "--playouts-per-move", "20000", "--games", "8", "--chunk", "2",
                              "--threads", "2", "--quiet"], env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.time() + 120
        workers: set[int] = set()
        while time.time() < deadline and child.poll() is None and len(workers) < 3:  # two workers, a tracker
            workers = _children(child.pid)
            time.sleep(0.2)
        assert len(workers) >= 3, "the pool's workers never started"
        time.sleep(1)
        child.send_signal(signal.SIGTERM)
        assert child.wait(timeout=60) == 130
        deadline = time.time() + 20
        while time.time() < deadline and any(Path(f"/proc/{w}").exists() for w in workers):
            time.sleep(0.2)
        left = [w for w in workers if Path(f"/proc/{w}").exists()
                and Path(f"/proc/{w}/stat").read_text().rpartition(")")[2].split()[0] != "Z"]
        assert left == []
        assert "interrupted" in child.stderr.read()
    finally:
        child.kill()
        for w in _children(child.pid):
            os.kill(w, signal.SIGKILL)


# ---------------------------------------------------------------- refusing other runs

@pytest.mark.parametrize("change", [["--seed", "1"], ["--sizes", "5,9"], ["--playouts", "4000"],
                                    ["--chunk", "500"], ["--selfplay"]])
def test_a_dir_of_another_run_is_refused_and_untouched(tmp_path, capsys, change):
    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 2) == 0
    before = snapshot(tmp_path)
    argv = dict(zip(SMALL[:-1:2], SMALL[1:-1:2]))
    if change == ["--selfplay"]:
        argv = {"--selfplay": None}
    else:
        argv[change[0]] = change[1]
    flat = [x for k, v in argv.items() for x in (k, v) if x is not None]
    capsys.readouterr()
    assert stats("--out", tmp_path, *flat, "--quiet") == 2
    err = capsys.readouterr().err
    assert "another run" in err or "self-play" in err
    assert snapshot(tmp_path) == before


def test_a_dir_without_manifest_is_refused_and_untouched(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    before = snapshot(tmp_path)
    assert stats("--out", tmp_path, *SMALL) == 2
    assert "not a foogo stats run" in capsys.readouterr().err
    assert snapshot(tmp_path) == before


def signed(record):
    """A chunk record with a valid checksum, as foogo stats writes it."""
    return json.dumps({**record, "sha": checksum(record)}, separators=(",", ":"))


def test_chunks_outside_the_plan_are_refused(tmp_path, capsys):
    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 1) == 0
    with open(tmp_path / CHUNKS, "a") as handle:
        handle.write(signed({"group": 9, "first": 0, "count": 1000, "lo": 0, "counts": [1000], "moves": 0,
                             "capped": 0}) + "\n")
    before = snapshot(tmp_path)
    assert stats("--out", tmp_path, *SMALL) == 2
    assert "not in this run's plan" in capsys.readouterr().err
    assert snapshot(tmp_path) == before


def test_chunks_of_another_run_are_refused_not_summed(tmp_path, capsys):
    # seed 1's chunk lines copied into seed 0's directory were summed and reported as seed 0's (a review)
    mine, other = tmp_path / "seed0", tmp_path / "seed1"
    assert stats("--out", mine, *SMALL, "--max-chunks", 2) == 0
    assert stats("--out", other, *SMALL, "--seed", 1) == 0
    lines = (other / CHUNKS).read_text().splitlines()
    with open(mine / CHUNKS, "a") as handle:
        handle.write(lines[-1] + "\n")  # a chunk seed 0 has not played yet, in seed 0's plan
    before = snapshot(mine)
    assert stats("--out", mine, *SMALL) == 2
    assert "belongs to another run" in capsys.readouterr().err
    assert snapshot(mine) == before
    legacy = json.loads(lines[-1])  # a line written before the run mark: read as before
    del legacy["run"], legacy["sha"]
    (mine / CHUNKS).write_text((mine / CHUNKS).read_text().splitlines(True)[0] + signed(legacy) + "\n")
    assert stats("--out", mine, *SMALL, "--report-only") == 0


def _alter(record, how):
    r = dict(record)
    if how == "moves":
        r["moves"] += 1
    elif how == "capped":
        r["capped"] += 1
    elif how == "moved between bins":
        c = list(r["counts"])
        i = max(range(len(c)), key=c.__getitem__)
        c[i] -= 1
        c[0 if i else -1] += 1
        r["counts"] = c
    elif how == "negative counts, same total":
        c = list(r["counts"])
        c[-1] += c[0] + 1
        c[0] = -1
        r["counts"] = c
    elif how == "a string for a number":
        r["moves"] = str(r["moves"])
    elif how == "lo missing":
        del r["lo"]
    return r


@pytest.mark.parametrize("how", ["moves", "capped", "moved between bins", "negative counts, same total",
                                 "a string for a number", "lo missing"])
@pytest.mark.parametrize("resigned", [False, True])
def test_an_altered_chunk_line_is_refused_with_its_line_number_before_any_work(tmp_path, capsys, how, resigned):
    # resigned: the checksum recomputed after the change, as a careless edit would not, but
    # a deliberate one could: the range checks still catch what they can
    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 2) == 0
    lines = (tmp_path / CHUNKS).read_text().splitlines()
    record = _alter(json.loads(lines[0]), how)
    line = signed({k: v for k, v in record.items() if k != "sha"}) if resigned else json.dumps(record)
    (tmp_path / CHUNKS).write_text("\n".join([line] + lines[1:]) + "\n")
    before = snapshot(tmp_path)
    code = stats("--out", tmp_path, *SMALL)
    err = capsys.readouterr().err
    if resigned and how in ("moves", "capped", "moved between bins"):
        assert code == 0  # still in range with a valid checksum: indistinguishable from a real result
        return
    assert code == 2 and "line 1 " in err and "nothing is summed" in err, err
    assert snapshot(tmp_path) == before  # nothing recomputed, nothing written


@pytest.mark.parametrize("damage", ["list", "number", "deep", "huge", "chunks a directory", "chunks huge",
                                    "manifest a fifo", "chunks a fifo"])
def test_a_damaged_run_dir_is_one_line_and_left_untouched(tmp_path, capsys, damage):
    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 1) == 0
    capsys.readouterr()
    manifest, chunks = tmp_path / "manifest.json", tmp_path / CHUNKS
    if damage == "list":
        manifest.write_text("[1, 2]")
    elif damage == "number":
        manifest.write_text("5")
    elif damage == "deep":
        manifest.write_text("[" * 100_000)
    elif damage == "huge":
        manifest.write_text(" " * (1 << 17) + "{}")
    elif damage == "chunks a directory":
        chunks.unlink()
        chunks.mkdir()
    elif damage.endswith("a fifo"):  # opening one to read waited for a writer for ever
        target = manifest if damage.startswith("manifest") else chunks
        target.unlink()
        os.mkfifo(target)
    else:
        with open(chunks, "ab") as handle:
            handle.truncate(1 << 32)  # sparse: 4 GB that are never read
    before = snapshot(tmp_path) if damage != "chunks huge" and "fifo" not in damage else None  # (it reads files)
    for extra in ((), ("--report-only",)):
        assert stats("--out", tmp_path, *SMALL, *extra) == 2
        err = capsys.readouterr().err
        assert err.startswith("foogo stats: error: ") and "Traceback" not in err, err
        assert err.count("cannot read") <= 1, err  # named once
    if before is not None:
        assert snapshot(tmp_path) == before


def test_a_lock_file_that_is_a_fifo_is_a_clear_error_not_a_wait(tmp_path, capsys):
    # opening it to append waited for a reader for ever, after the manifest and chunks had been checked
    import threading

    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 1) == 0
    capsys.readouterr()
    lock = tmp_path / ".lock"
    lock.unlink(missing_ok=True)
    os.mkfifo(lock)
    codes = []
    worker = threading.Thread(target=lambda: codes.append(stats("--out", tmp_path, *SMALL)), daemon=True)
    worker.start()
    worker.join(60)
    assert not worker.is_alive() and codes == [2], "foogo stats waited on the FIFO"
    err = capsys.readouterr().err
    assert "cannot lock" in err and "is not a regular file" in err and "Traceback" not in err, err


def test_a_selfplay_chunks_line_at_the_largest_chunk_is_read_back(tmp_path):
    # a self-play line lists its games: 10,000 of them took 72 KB, and a 32 KB limit refused the run's own file
    manifest = {"format": 1, "mode": "selfplay", "seed": 0, "size": 25, "groups": [8], "games": 10_000,
                "game_komi": 7.5, "rules": "chinese", "chunk": 10_000}
    run_dir = RunDir(str(tmp_path))
    run_dir.create(manifest)
    counts = [7] * 1250 + [10_000 - 7 * 1250]  # every score from -625 to 625
    record = {"group": 8, "first": 0, "count": 10_000, "lo": -625, "counts": counts, "moves": 10_000 * 1875,
              "capped": 10_000, "seconds": 1.0, "games": [[-625, 1875, 1]] * 10_000}
    run_dir.append(record, manifest)
    assert len((tmp_path / CHUNKS).read_bytes()) > 1 << 17
    assert run_dir.load(manifest)[(8, 0)]["games"] == record["games"]


def test_a_chunk_file_of_many_short_lines_is_refused_at_its_first_bad_line(tmp_path, capsys):
    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 1) == 0
    capsys.readouterr()
    (tmp_path / CHUNKS).write_bytes(b"ab\n" * 60_000)  # under the plan's size: split at once, it took 27x
    assert stats("--out", tmp_path, *SMALL, "--report-only") == 2
    assert "line 1 is damaged and not the last one" in capsys.readouterr().err


def test_a_full_disk_is_one_line_and_leaves_no_temporary_file(tmp_path, capsys, monkeypatch):
    import errno
    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 1) == 0

    def full(fd):
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fsync", full)
    code = stats("--out", tmp_path, *SMALL)
    err = capsys.readouterr().err
    assert code != 0 and "No space left on device" in err and "Traceback" not in err
    assert not [name for name in os.listdir(tmp_path) if ".tmp" in name]


def test_a_changed_playout_code_is_refused(tmp_path, capsys):
    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 1) == 0
    manifest = json.loads((tmp_path / MANIFEST).read_text())
    manifest["fingerprint"] = "0" * 32  # as if the chunks had come from other playout code
    (tmp_path / MANIFEST).write_text(json.dumps(manifest))
    assert stats("--out", tmp_path, *SMALL) == 2
    assert "other code" in capsys.readouterr().err


def test_two_processes_never_share_a_dir(tmp_path):
    assert stats("--out", tmp_path, *SMALL, "--max-chunks", 1) == 0
    first = RunDir(str(tmp_path))
    first.lock()
    with pytest.raises(StatsError, match="another foogo stats is running"):
        RunDir(str(tmp_path)).lock()


# ---------------------------------------------------------------- a dask cluster

def test_a_dask_cluster_gives_the_local_results(tmp_path):
    distributed = pytest.importorskip("distributed")
    argv = ["--sizes", "5,9", "--playouts", "4000", "--chunk", "1000", "--quiet"]
    assert stats("--out", tmp_path / "local", *argv) == 0
    with distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                                  dashboard_address=None) as cluster:
        assert stats("--out", tmp_path / "dask", *argv, "--scheduler", cluster.scheduler_address,
                     "--max-chunks", 3) == 0
        assert stats("--out", tmp_path / "dask", *argv, "--scheduler", cluster.scheduler_address) == 0
    assert results(tmp_path / "dask") == results(tmp_path / "local")


def test_an_unreachable_scheduler_is_a_clear_error_and_writes_nothing(tmp_path, capsys, monkeypatch):
    pytest.importorskip("distributed")
    monkeypatch.setattr("foogo.stats.executors.DASK_CONNECT_TIMEOUT", "1s")
    assert stats("--out", tmp_path / "run", *SMALL, "--scheduler", "tcp://127.0.0.1:9") == 2
    assert "cannot reach the dask scheduler" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()


# ---------------------------------------------------------------- self-play

SELFPLAY = ["--selfplay", "--size", "5", "--playouts-per-move", "8,16", "--games", "2", "--quiet"]


def test_selfplay_games_are_reproducible_and_resume_exactly(tmp_path):
    pytest.importorskip("foogo.search")
    assert stats("--out", tmp_path / "whole", *SELFPLAY, "--threads", 1) == 0
    report = results(tmp_path / "whole")
    assert report["complete"] and [g["group"] for g in report["groups"]] == [8, 16]
    assert all(g["n"] == 2 for g in report["groups"])
    assert stats("--out", tmp_path / "part", *SELFPLAY, "--threads", 1, "--max-chunks", 2) == 0
    assert stats("--out", tmp_path / "part", *SELFPLAY, "--threads", 2) == 0  # a process pool
    assert results(tmp_path / "part") == report
    (tmp_path / "part" / "results.json").unlink()
    assert stats("--out", tmp_path / "part", "--report-only", "--quiet") == 0  # the options read from DIR
    assert results(tmp_path / "part") == report


def test_selfplay_tables_say_which_komi_the_games_were_played_at():
    # the columns at other komi recount the games' final positions; unlabelled, they read as games played there
    from foogo.stats.reports import format_markdown, format_table
    from foogo.stats.reports import results as report_of

    manifest = {"format": 1, "mode": "selfplay", "seed": 0, "size": 5, "groups": [8], "games": 4,
                "game_komi": 7.5, "rules": "chinese", "chunk": 4}
    chunks = {(8, 0): {"count": 4, "lo": -3, "counts": [1] + [0] * 10 + [1, 2], "moves": 80, "capped": 0}}
    report = report_of(manifest, chunks, [0.0, 7.5])
    table = format_table(report)
    assert "komi 7.5*" in table and "komi 0*" not in table
    assert "* the komi the games were played at" in table and "not games played at it" in table
    markdown = format_markdown(report)
    assert "B wins @7.5\\* |" in markdown and "B wins @0 |" in markdown and "played at" in markdown
    random = report_of({**manifest, "mode": "random", "groups": [5], "playouts": 4}, {(5, 0): chunks[(8, 0)]},
                       [0.0, 7.5])
    assert "*" not in format_table(random) and "played at" not in format_markdown(random)


def test_selfplay_without_a_search_is_a_clear_error(tmp_path, capsys, monkeypatch):
    import importlib.util

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "foogo.search" else real(name, *a))
    assert stats("--out", tmp_path / "run", *SELFPLAY) == 2
    assert "foogo.search" in capsys.readouterr().err
    assert not (tmp_path / "run").exists()
