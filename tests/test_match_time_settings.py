"""Matches under a game clock (`foogo match --time-settings`): time_settings and time_left sent, an
overdrawn clock lost on time, byo-yomi's genmove timeout, and bad time settings refused."""

import time

import pytest
from match_double import engine, play_match
from sgfmill import sgf

from foogo.match_results import format_table

FIVE = "A1,B1,C1,D1,E1,A2"  # six moves on 5x5 for a fake, then passes


def test_an_engine_that_overdraws_its_sudden_death_clock_loses_on_time(tmp_path, fake):
    # 0.4 s a move on a 1 s clock: overdrawn by more than the 0.5 s grace at its fourth move
    code, s = play_match(tmp_path, "--black", fake("--moves", FIVE, "--think", "0.4"),
                         "--white", fake("--moves", "A5,B5,C5,D5,E5,A4"), "--games", "1", "--size", "5",
                         "--referee", "none", "--time-settings", "1")
    assert code == 0
    g = s["per_game"][0]
    assert g["result"] == "W+Time" and g["reason"] == "time" and "ran out of time" in g["detail"]
    assert g["moves"] == 6  # black's 4th genmove is the one that flags: 3 moves each were played
    assert engine(s, "A")["timeouts"] == 1 and engine(s, "B")["timeouts"] == 0
    assert s["time_settings"] == "1 s sudden death"


def test_a_clock_sends_time_settings_and_time_left_and_the_sgf_keeps_the_times(tmp_path, fake):
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", fake("--moves", "C3", "--score", "B+1"),
                         "--white", fake("--score", "B+1"), "--games", "1", "--size", "5", "--referee", "none",
                         "--time-settings", "2m+30s/5", "--sgf-dir", str(sgf_dir))
    assert code == 0 and s["per_game"][0]["result"] == "B+1"
    log = (sgf_dir / "engine-A.stderr.log").read_text()
    assert "TIME_LEFT b 120 0" in log  # whole seconds of main time, as GTP has them
    root = sgf.Sgf_game.from_bytes((sgf_dir / "game-0001.sgf").read_bytes()).get_root()
    assert root.get("TM") == 120 and "Canadian" in root.get("OT")
    node = root
    times = []
    while node:
        if node.has_property("BL"):
            times.append(node.get("BL"))
        node = node[0] if len(node) else None
    assert times and all(119 < t <= 120 for t in times)
    assert "clock: 120 s + 5 moves in 30 s (Canadian) each" in format_table(s)


def test_in_byo_yomi_the_genmove_timeout_is_the_clock_not_the_timeout_option(tmp_path, fake):
    # 5 s a move (byo-yomi only); the engine takes 30: cut at the clock's 5.5 s, not --timeout's 60
    t0 = time.monotonic()
    code, s = play_match(tmp_path, "--black", fake("--think", "30"), "--white", fake(), "--games", "1",
                         "--size", "5", "--referee", "none", "--time-settings", "0+5s/1")
    assert time.monotonic() - t0 < 20
    g = s["per_game"][0]
    assert g["result"] == "W+Time" and g["reason"] == "time"


def test_byo_yomi_moves_within_their_period_never_flag(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", FIVE, "--think", "0.3", "--score", "B+1"),
                         "--white", fake("--moves", "A5,B5,C5,D5,E5,A4", "--score", "B+1"), "--games", "1",
                         "--size", "5", "--referee", "none", "--time-settings", "0.5+1s/1")
    assert code == 0 and s["per_game"][0]["result"] == "B+1" and s["timeouts"] == 0


def test_an_engine_that_rejects_time_settings_stops_the_match_saying_so(tmp_path, fake, capsys):
    code, s = play_match(tmp_path, "--black", fake("--no-clock"), "--white", fake(), "--games", "1",
                         "--size", "5", "--referee", "none", "--time-settings", "5m")
    assert code == 1 and s is None
    assert "time_settings" in capsys.readouterr().err


@pytest.mark.parametrize("spec", ["", "abc", "5m+30s", "5m+0s/5", "5m+30s/0", "0", "1e9", "25h", "-5"])
def test_a_bad_time_settings_exits_with_code_2(tmp_path, fake, spec):
    assert play_match(tmp_path, "--black", fake(), "--white", fake(), "--time-settings=" + spec)[0] == 2
