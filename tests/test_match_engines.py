"""A match's engines (match_engines.py): starting them (refusals, missing programs, start-up
timeouts), naming them, and quitting them under Ctrl-C."""

import time

import pytest
from match_double import engine, play_match


def test_an_engine_from_a_modified_checkout_is_named_with_a_warning(tmp_path, fake, capsys):
    code, s = play_match(tmp_path, "--black", fake("--version", "0.1.0+g2e63947.dirty", "--score", "B+1"),
                         "--white", fake("--score", "B+1"), "--games", "1", "--size", "5", "--referee", "none")
    assert code == 0 and engine(s, "A")["version"] == "0.1.0+g2e63947.dirty"
    err = capsys.readouterr().err
    assert "engine A (Fake 0.1.0+g2e63947.dirty) runs from a modified checkout" in err
    assert "engine B" not in err


def test_refused_board_size_stops_the_match(tmp_path, fake, capsys):
    code, s = play_match(tmp_path, "--black", fake("--reject-boardsize"), "--white", fake(),
                         "--games", "1", "--size", "5", "--referee", "none")
    assert code == 1 and s is None
    assert "unacceptable size" in capsys.readouterr().err


def test_a_referee_that_refuses_the_board_size_stops_the_match_before_the_engines_start(tmp_path, fake, capsys):
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake(), "--games", "1", "--size", "5",
                         "--referee", fake("--reject-boardsize"), "--sgf-dir", str(sgf_dir))
    assert code == 1 and s is None
    assert "the referee rejected 'boardsize 5'" in capsys.readouterr().err
    assert [p.name for p in sgf_dir.glob("*.log")] == ["referee.stderr.log"]  # no engine started, none logged


def test_missing_engine_stops_the_match(tmp_path, fake, capsys):
    code, s = play_match(tmp_path, "--black", str(tmp_path / "nothing"), "--white", fake(),
                         "--games", "1", "--referee", "none")
    assert code == 1 and "failed to start" in capsys.readouterr().err


def test_an_engine_hanging_on_name_is_waited_for_the_startup_timeout_only(tmp_path, fake, capsys):
    start = time.monotonic()
    code, s = play_match(tmp_path, "--black", fake("--hang-on-name"), "--white", fake(),
                         "--games", "2", "--referee", "none", "--timeout", "30", "--startup-timeout", "1.5")
    assert time.monotonic() - start < 15
    err = capsys.readouterr().err
    assert code == 1 and "failed to start" in err and "within 1.5 s" in err


def test_start_up_honours_the_timeout_unless_told_otherwise(tmp_path, fake, capsys):
    start = time.monotonic()
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake("--hang-on-name"),
                         "--games", "1", "--referee", "none", "--timeout", "1")
    assert code == 1 and time.monotonic() - start < 10
    assert "within 1 s" in capsys.readouterr().err


def test_an_engine_exiting_at_once_stops_the_match_saying_its_exit_code(tmp_path, fake, capsys):
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake("--exit-at-once", "3"),
                         "--games", "2", "--referee", "none")
    err = capsys.readouterr().err
    assert code == 1 and s is None and "failed to start" in err and "code 3" in err


def test_a_long_engine_text_is_kept_brief(tmp_path, fake):
    name = "N" * 5000
    code, summary = play_match(tmp_path, "--black", fake("--name", name, "--score", "W+2.5"),
                               "--white", fake("--score", "W+2.5"), "--games", "1", "--size", "5", "--referee", "none")
    assert code == 0
    label = engine(summary, "A")["label"]
    assert len(label) < 300 and label.startswith("N" * 200) and "(5,000 characters)" in label


def test_a_ctrl_c_while_the_engines_quit_still_writes_the_games_so_far(tmp_path, fake, monkeypatch):
    # a second Ctrl-C while close() waited for an engine to quit skipped the summary and its --json
    import foogo.gtp_client as gtp_client
    real_close = gtp_client.GtpClient.close
    calls = []

    def interrupted_close(self, *args, **kwargs):
        calls.append(self)
        if len(calls) == 1:
            raise KeyboardInterrupt
        return real_close(self, *args, **kwargs)

    monkeypatch.setattr(gtp_client.GtpClient, "close", interrupted_close)
    try:
        code, s = play_match(tmp_path, "--black", fake(), "--white", fake(), "--games", "2", "--size", "5",
                             "--referee", "none")
    except KeyboardInterrupt:  # not let through to stop the test session
        pytest.fail("the Ctrl-C in close() escaped the match, its summary unwritten")
    assert code == 130 and s is not None and s["games"] == 2 and s["interrupted"]
    assert not any(client.alive for client in calls)
