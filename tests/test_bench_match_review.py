"""The scripts in bench/ that read a match's games and foogo's logs: review, surprises, budgets, resigning, passing."""

import json
import re
import sys

import pytest
from bench_loader import load
from sgfmill import sgf

from foogo.geometry import PASS


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


FAKE_PACHI = """import sys
playouts = int(sys.argv[sys.argv.index("-t") + 1][1:])
commands = sys.stdin.read().split("\\n")
assert commands[:3] == ["boardsize 9", "komi 7", "clear_board"] and commands[3:5] == ["play b E5", "play w C7"]
assert commands[5] == "genmove b", commands
sys.stderr.write("(UCT tree; root black)\\n[pass] 0.5/%d [prior 1/0]\\n" % playouts)
sys.stderr.write(" [G7] 0.6/%d [prior 0.9/60 amaf 0.5/10]\\n  [C3] 0.4/9 [prior]\\n" % (playouts * 3 // 4))
sys.stderr.write(" [C3] 0.4/%d [prior 0.9/60 amaf 0.5/10]\\n" % (playouts // 4 if playouts > 100 else 25))
sys.stderr.write("*** WINNER is G7 with score 60.0% (1/1 games)\\n")
print("= \\n\\n" * 6)
"""


def test_budget_visits_reads_pachis_root_visits_from_its_tree_dump(tmp_path, capsys):
    # a stand-in for Pachi: the moves before move 3 as GTP commands, then its tree dump on stderr (root children
    # one space deep, deeper nodes not counted)
    budget = load("budget_visits")
    pachi = tmp_path / "pachi"
    pachi.write_text(f"#!{sys.executable}\n" + FAKE_PACHI)
    pachi.chmod(0o755)
    game = tmp_path / "game-0001.sgf"
    game.write_text("(;SZ[9]KM[7]PB[foogo 0.1]PW[pachi]RE[W+R];B[ee];W[cc];B[gc];W[cg])")
    row = budget.compare(game, 3, 100, 4, 1, {}, str(pachi))
    assert (row["best"], row["winrate"], row["visited"], row["visited_after"]) == ("G7", 0.6, 2, 2)
    assert row["top_share"] == (300 - 75) / (300 - 75 + 100 - 25) and row["got_more"] == 2 and row["fewer"] == 0
    setup = tmp_path / "game-0002.sgf"
    setup.write_text("(;SZ[9]KM[7]AB[cc];W[ee];B[gc])")
    with pytest.raises(ValueError, match="setup stones"):
        budget.compare(setup, 2, 100, 4, 1, {}, str(pachi))
    setup.write_text("(;SZ[9]KM[7];B[ee];AW[cc];W[gc];B[cg])")  # a setup node between moves: not sent either
    with pytest.raises(ValueError, match="setup stones"):
        budget.compare(setup, 4, 100, 4, 1, {}, str(pachi))
    pachi.write_text(f"#!{sys.executable}\nprint('? unknown command')\n")
    with pytest.raises(RuntimeError, match="Pachi failed on"):
        budget.compare(game, 3, 100, 4, 1, {}, str(pachi))


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
