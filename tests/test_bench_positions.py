"""The scripts in bench/ that judge positions: owner feature, policies' estimates, position suite, oracle regret."""

import json
import math
import re
import sys
from pathlib import Path

import pytest
from bench_loader import BENCH, load


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


def test_policy_diff_names_the_games_that_carry_a_brier_difference():
    diff = load("policy_diff")

    def scan(name, move, old, new):
        return {"step": "scan", "file": name, "move": move, "to_move": "b", "shares": {"old": old, "new": new}}

    # black lost g1..g3: the new policy mends g1 (0.9 -> 0.1 at two positions), is a little worse in g2, level in g3;
    # g4 has no result, and the position at move 20 is before the start
    results = {"g1": 0.0, "g2": 0.0, "g3": 0.0, "g4": None}
    records = [scan("g1", 30, 0.9, 0.1), scan("g1", 32, 0.9, 0.1), scan("g2", 30, 0.2, 0.3), scan("g3", 30, 0.5, 0.5),
               scan("g4", 30, 0.9, 0.0), scan("g2", 20, 0.0, 1.0)]
    text = diff.games_carrying(records, ["old", "new"], results, 30, shown=1)
    lines = text.splitlines()
    assert lines[0].startswith("Which games carry each difference") and lines[0].endswith("moves 30 on):")
    # g1: 2 * (0.01 - 0.81) = -1.60; g2: 0.09 - 0.04 = +0.05; g3: 0; over 4 positions
    assert lines[1] == "  new: -0.3875 a position over 3 games; 1 games moved by more than 0.5"
    assert lines[2] == "    for it -1.60  g1"
    assert lines[3] == "    against it +0.05  g2"
    assert lines[4] == "    without its 1 best games: +0.0250 a position over 2"  # g2 and g3's positions
    assert len(lines) == 5
    assert "no position" in diff.games_carrying(records, ["old", "new"], {"g4": None}, 30)
    # none for it: nothing is left out
    worse = [scan("g2", 30, 0.2, 0.3)]
    assert diff.games_carrying(worse, ["old", "new"], results, 30).splitlines()[-1] == (
        "    without its 0 best games: +0.0500 a position over 1")


def test_policy_diff_compares_every_later_policy_with_the_first(tmp_path):
    diff = load("policy_diff")
    (tmp_path / "b.sgf").write_text("(;SZ[5]KM[0.5]RE[B+1];B[cc])")
    results = {"b": diff.game_result(tmp_path / "b.sgf")}
    records = [{"step": "scan", "file": "b", "move": 12, "to_move": "b",
                "shares": {"light": 0.5, "heavy": 0.9, "pachi": 1.0}}]
    text = diff.brier(records, ["light", "heavy", "pachi"], results)
    assert "moves 10-29 (    1 positions): light 0.2500, heavy 0.0100, difference -0.2400" in text
    assert "moves 10-29 (    1 positions): light 0.2500, pachi 0.0000, difference -0.2500" in text


# white to move captures the three black stones at E3 (test_search_time's settled-move position)
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
