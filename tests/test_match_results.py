"""A match's results (match_results.py): CPU per genmove and starved moves, the Wilson interval,
results and player names read from SGF, and the table."""

import os
from pathlib import Path

import pytest
from match_double import engine, play_match
from sgfmill import sgf

from foogo.intervals import wilson as wilson_interval
from foogo.match_results import GameRecord, format_table, starved_moves, summarize, usual_share


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs Linux's /proc")
def test_a_match_measures_each_engines_cpu_per_genmove_children_included(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", "A1,B2", "--burn", "0.3", "--score", "B+1"),
                         "--white", fake("--moves", "C3,D4", "--score", "B+1"), "--referee", "none",
                         "--games", "1", "--size", "5")
    assert code == 0
    burner, idle = engine(s, "A"), engine(s, "B")
    assert burner["cpu_timed_moves"] == burner["genmoves"] == 3  # A1, B2, then a pass: each burns 0.3 s
    assert 0.25 <= burner["mean_cpu_seconds_per_move"] <= burner["mean_seconds_per_move"] + 0.05
    assert idle["cpu_timed_moves"] == idle["genmoves"] and idle["mean_cpu_seconds_per_move"] < 0.1
    assert idle["starved_moves"] == 0  # its genmoves are too short to judge (the burner's depend on the machine's load)
    assert "CPU s/move" in format_table(s)


def test_a_genmove_with_far_less_than_the_engines_usual_cpu_share_is_starved():
    def record(number, black_timings):
        return GameRecord(number, "A", "B", timings={"A": black_timings, "B": [(1.0, None)]})

    usual = [(1.0, 2.0)] * 9  # two threads' worth of CPU over each second
    games = [record(1, usual + [(2.0, 1.0)]),  # one move at a quarter of the usual share: starved
             record(2, usual + [(0.1, 0.0), (1.0, None), (1.0, 1.3)])]  # too short to judge, unknown, 0.65
    assert usual_share(games, "A") == pytest.approx(2.0)
    assert usual_share(games, "B") is None  # no CPU times at all
    assert [starved_moves(g, "A", 2.0) for g in games] == [1, 0]
    assert starved_moves(games[0], "B", None) == 0

    class P:
        label, name, version, command = "engine", "engine", "1", "engine"

    summary = summarize(games, {"A": P(), "B": P()}, {
        "games_requested": 2, "interrupted": False, "size": 9, "komi": 7.0, "max_moves": 243, "timeout": 60.0,
        "alternate": False, "referee": None, "referee_command": None})
    a, b = summary["engines"]
    assert a["starved_moves"] == 1 and b["starved_moves"] == 0
    assert [g["starved_black"] for g in summary["per_game"]] == [1, 0]
    assert a["cpu_timed_moves"] == 21 and b["cpu_timed_moves"] == 0 and b["mean_cpu_seconds_per_move"] is None
    assert a["mean_cpu_seconds_per_move"] == pytest.approx((18 * 2.0 + 1.0 + 0.0 + 1.3) / 21)
    table = format_table(summary)
    assert "Starved:" in table


def test_wilson_interval_matches_known_values():
    low, high = wilson_interval(5, 10)
    assert low == pytest.approx(0.2366, abs=1e-4) and high == pytest.approx(0.7634, abs=1e-4)
    low, high = wilson_interval(0, 10)
    assert low == 0.0 and high == pytest.approx(0.2775, abs=1e-4)
    assert wilson_interval(10, 10)[1] == 1.0
    assert wilson_interval(0, 0) == (0.0, 1.0)


def test_black_score_reads_an_sgf_result_as_the_tallying_scripts_need():
    from foogo.match_results import black_score
    assert [black_score(r) for r in ("B+Resign", "b+3.5", " W+R ", "W+Time", "0", "Draw", "jigo")] == \
        [1.0, 1.0, 0.0, 0.0, 0.5, 0.5, 0.5]
    assert [black_score(r) for r in ("Void", "?", "", "B", "1")] == [None] * 5


def test_named_colours_find_a_player_by_what_its_name_holds_in_any_case():
    from foogo.match_results import named_colour, named_colours

    def root(props: str):
        return sgf.Sgf_game.from_bytes(f"(;FF[4]SZ[9]{props};B[ee])".encode()).get_root()

    match = root("PB[Pachi 12.90 =10000]PW[foogo =30500]")
    assert named_colours(match, "foogo") == {"w"} and named_colour(match, "foogo") == "w"
    assert named_colour(match, "PACHI") == "b" and named_colour(match, "12.90") == "b"  # any case, anywhere
    assert named_colour(match, "gnugo") == "" and named_colours(match, "gnugo") == set()
    self_play = root("PB[foogo-A]PW[Foogo-B]")
    assert named_colours(self_play, "foogo") == {"b", "w"} and named_colour(self_play, "foogo") == ""
    assert named_colours(root("PW[foogo]"), "foogo") == {"w"}  # no PB at all
    assert named_colour(root(""), "foogo") == ""


def test_bench_scripts_find_players_only_through_named_colours():
    """One rule for whose game it is: no bench script reads PB or PW itself (they drifted apart before)."""
    readers = [path.name for path in sorted((Path(__file__).parent.parent / "bench").glob("*.py"))
               if '"PB"' in path.read_text() or '"PW"' in path.read_text()]
    assert readers == []


def test_the_table_of_a_match_stopped_before_its_referee_started_names_the_referee_asked(tmp_path, fake):
    from foogo.match_results import format_table
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake(), "--games", "1", "--size", "5",
                         "--referee", "none")
    assert code == 0 and "referee: none (engines must agree" in format_table(s)
    stopped = {**s, "referee": None, "referee_command": "gnugo --mode gtp"}  # a Ctrl-C before it answered `name`
    assert "referee: gnugo --mode gtp (stopped before it started)" in format_table(stopped)
