"""Tests for foogo.match_clock: time control specs and the clock a match keeps for each player."""

import pytest

from foogo.match_clock import GRACE, GameClock, TimeControl


@pytest.mark.parametrize("spec, control", [
    ("90", TimeControl(90.0)),
    ("90s", TimeControl(90.0)),
    ("5m", TimeControl(300.0)),
    ("1h", TimeControl(3600.0)),
    ("1.5m", TimeControl(90.0)),
    ("10m+30s/5", TimeControl(600.0, 30.0, 5)),
    ("0+5s/1", TimeControl(0.0, 5.0, 1)),
    (" 2M+1M/10 ", TimeControl(120.0, 60.0, 10)),
])
def test_specs_parse_to_seconds(spec, control):
    assert TimeControl.parse(spec) == control


@pytest.mark.parametrize("spec", ["", "abc", "5x", "5m+30s", "5m+0s/5", "5m+30s/0", "5m+30s/x", "0",
                                  "-5", "1e9", "25h", "5m+30s/5000"])
def test_bad_specs_are_refused_with_a_message(spec):
    with pytest.raises(ValueError, match="time-settings"):
        TimeControl.parse(spec)


def test_gtp_gives_sudden_death_as_zero_byo_yomi():
    assert TimeControl(300.0).gtp() == "time_settings 300 0 0"
    assert TimeControl(600.0, 30.0, 5).gtp() == "time_settings 600 30 5"


def test_sudden_death_flags_only_past_the_grace():
    clock = GameClock(TimeControl(10.0))
    assert clock.time_left() == (10.0, 0) and clock.allowance() == 10.0 + GRACE
    assert clock.charge(9.0) and clock.time_left() == (1.0, 0)
    assert clock.charge(1.0 + GRACE / 2)  # overdrawn within the grace
    assert clock.time_left() == (0.0, 0) and clock.allowance() == pytest.approx(GRACE / 2)
    assert not clock.charge(GRACE)  # the grace is for the whole game, not for each move


def test_canadian_main_time_runs_into_byo_yomi_and_periods_renew():
    clock = GameClock(TimeControl(10.0, 5.0, 2))
    assert clock.allowance() == 10.0 + 5.0 + GRACE  # main time, then the first period
    assert clock.charge(12.0)  # 2 s past main time: the first period's, and this move is its first stone
    assert clock.time_left() == (3.0, 1)
    assert clock.charge(2.9)  # the period's last stone: a new period begins
    assert clock.time_left() == (5.0, 2)
    assert clock.charge(4.0) and clock.time_left() == (1.0, 1)
    assert clock.allowance() == 1.0 + GRACE
    assert not clock.charge(1.0 + GRACE + 0.01)


def test_byo_yomi_only_starts_in_its_first_period():
    clock = GameClock(TimeControl(0.0, 5.0, 1))
    assert clock.time_left() == (5.0, 1)
    for _ in range(100):
        assert clock.charge(4.9)  # each move has a period of its own
    assert not clock.charge(5.0 + GRACE + 0.01)


def test_main_time_overdrawn_past_the_first_period_flags():
    clock = GameClock(TimeControl(10.0, 5.0, 2))
    assert not clock.charge(10.0 + 5.0 + GRACE + 0.01)


@pytest.mark.parametrize("spec", ["\u0663\u0660", "1_0", "5m+30s/\u00b2", "5m+30s/\u0665"])
def test_time_settings_are_ascii_numbers(spec):
    with pytest.raises(ValueError):
        TimeControl.parse(spec)
