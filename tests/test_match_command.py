"""The `foogo match` command (match_command.py): what it prints on stdout and stderr, and SIGTERM
stopping it with the games so far written."""

import json
import sys
import time

from match_double import GNUGO_CMD, engine, run_match


def test_engine_without_name_plays_and_stdout_holds_only_the_table(tmp_path, fake, capfd):
    out_json = tmp_path / "s.json"
    code = run_match("--black", fake("--no-name"), "--white", GNUGO_CMD, "--games", "1", "--size", "5",
                     "--json", str(out_json))
    s = json.loads(out_json.read_text())
    assert code == 0
    a = engine(s, "A")
    assert a["label"] == a["command"]  # no name: the command names it
    g = s["per_game"][0]
    assert g["reason"] in ("score", "resign")  # gnugo wins against a passer
    assert g["winner"] == engine(s, "B")["label"]
    out, err = capfd.readouterr()
    assert "FAKE-STDERR-NOISE" not in out + err
    assert "Win rate" in out and a["label"] in out


def test_json_to_stdout_puts_the_table_on_stderr_and_quiet_prints_nothing(tmp_path, fake, capfd):
    common = ["--black", fake(), "--white", fake(), "--games", "1", "--size", "5", "--referee", "none"]
    assert run_match(*common, "--json", "-") == 0
    out, err = capfd.readouterr()
    assert json.loads(out)["games"] == 1 and "Win rate" in err
    assert run_match(*common, "--quiet") == 0
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert not (tmp_path / "-").exists()


def test_sigterm_stops_the_match_and_writes_the_games_so_far(tmp_path, fake):
    # a match in the background (nohup, a script's `&`) ignores SIGINT, as the shell makes background jobs
    # do: `kill PID` must stop it as Ctrl-C does, with its results written
    import signal
    import subprocess

    out = tmp_path / "result.json"
    logs = tmp_path / "games"
    proc = subprocess.Popen([sys.executable, "-m", "foogo", "match", "--black", fake("--score", "W+2.5"),
                             "--white", fake("--score", "W+2.5", "--hang-at", "1"), "--games", "3", "--size", "5",
                             "--referee", "none", "--timeout", "300", "--sgf-dir", str(logs), "--json", str(out),
                             "--quiet"], stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        log = logs / "engine-B.stderr.log"
        while not (log.exists() and "FAKE-STDERR-NOISE" in log.read_text()):  # the match is under way
            assert time.monotonic() < deadline and proc.poll() is None
            time.sleep(0.05)
        time.sleep(0.5)  # white hangs on its first genmove
        proc.send_signal(signal.SIGTERM)
        assert proc.wait(timeout=60) == 130
    finally:
        proc.kill()
    s = json.loads(out.read_text())
    assert s["interrupted"] and s["games"] == 0 and s["games_requested"] == 3
