"""A match's settings (match_settings.py): options out of range, too many moves kept and bad engine
commands refused in one line, with exit code 2, before anything starts."""

import pytest
from match_double import play_match


def test_bad_options_exit_with_code_2(tmp_path, fake):
    assert play_match(tmp_path, "--black", fake(), "--white", fake(), "--komi", "nan")[0] == 2
    assert play_match(tmp_path, "--black", fake(), "--white", fake(), "--komi", "1e308")[0] == 2
    assert play_match(tmp_path, "--black", fake(), "--white", fake(), "--games", "0")[0] == 2
    assert play_match(tmp_path, "--black", fake(), "--white", fake(), "--size", "30")[0] == 2


@pytest.mark.parametrize("option, message", [(("--games", "1" + "0" * 30), "--games must be from 1 to 100,000"),
                                             (("--max-moves", "10001"), "--max-moves must be from 1 to 10,000"),
                                             (("--max-moves", "0"), "--max-moves must be from 1")])
def test_game_counts_and_lengths_past_the_caps_are_one_line(tmp_path, fake, capsys, option, message):
    """A match's games stay in memory and its games' SGF files load back (loadsgf's 10,000 moves): a request
    past either cap is refused before any engine starts."""
    code, summary = play_match(tmp_path, "--black", fake(), "--white", fake(), "--referee", "none", *option)
    assert code == 2 and summary is None
    assert message in capsys.readouterr().err


@pytest.mark.parametrize("option", [("--timeout", "inf"), ("--timeout", "1e10"), ("--startup-timeout", "1e300"),
                                    ("--timeout", "nan"), ("--sgf-dir", "/dev/null/x")])
def test_timeouts_past_a_week_and_an_sgf_dir_that_cannot_be_made_are_one_line(tmp_path, fake, capsys, option):
    code, _ = play_match(tmp_path, "--black", fake(), "--white", fake(), "--referee", "none", *option)
    err = capsys.readouterr().err
    assert code == 2 and ("foogo match" in err or f"argument {option[0]}: " in err) and "Traceback" not in err, err


def test_a_match_that_would_keep_too_many_moves_is_refused(tmp_path, fake, capsys):
    code, summary = play_match(tmp_path, "--black", fake(), "--white", fake(), "--referee", "none",
                               "--games", "100000", "--max-moves", "10000")
    assert code == 2 and summary is None
    assert "--games times --max-moves must be at most 4,000,000" in capsys.readouterr().err


@pytest.mark.parametrize("black, option", [("", "--black ''"), ("./engine 'x", "--black \"./engine 'x\"")])
def test_a_bad_engine_command_is_named_and_makes_no_sgf_dir(tmp_path, fake, capsys, black, option):
    made = tmp_path / "made" / "deep"
    code, _ = play_match(tmp_path, "--black", black, "--white", fake(), "--referee", "none", "--sgf-dir", str(made))
    err = capsys.readouterr().err
    assert code == 2 and f"foogo match: {option}: " in err and "Traceback" not in err, err
    assert not (tmp_path / "made").exists()
