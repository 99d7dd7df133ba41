"""Tests for foogo.match: the GTP client's framing and failure detection, and
whole matches (GNU Go against GNU Go, and fake engines that play illegal
moves, hang or crash)."""

import argparse
import errno
import io
import json
import os
import shlex
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest
from sgfmill import sgf

from foogo import match_files
from foogo.gtp_client import GtpClient, GtpCrash, GtpError, GtpTimeout, session_cpu_seconds
from foogo.intervals import wilson as wilson_interval
from foogo.match import Match
from foogo.match_command import configure_parser, run
from foogo.match_files import lock_directory
from foogo.match_results import GameRecord, format_table, starved_moves, summarize, usual_share

GNUGO = "/usr/games/gnugo"
GNUGO_CMD = f"{GNUGO} --mode gtp --level 0 --chinese-rules"
needs_gnugo = pytest.mark.skipif(not os.path.exists(GNUGO), reason="GNU Go is not installed")

FAKE_ENGINE = textwrap.dedent('''
    """A fake GTP engine for tests; its misbehaviour is chosen on the command line."""
    import argparse, sys, time

    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="Fake")
    ap.add_argument("--no-name", action="store_true")
    ap.add_argument("--version", default="0.1")
    ap.add_argument("--moves", default="")         # genmove answers in order each game, then pass
    ap.add_argument("--hang-at", type=int, default=0)   # this genmove of a game never answers
    ap.add_argument("--crash-at", type=int, default=0)  # this genmove of a game exits the process
    ap.add_argument("--crash-on-play", action="store_true")
    ap.add_argument("--reject-play", action="store_true")
    ap.add_argument("--reject-boardsize", action="store_true")
    ap.add_argument("--score", default="")
    ap.add_argument("--hang-on-score", action="store_true")  # never answers `final_score`
    ap.add_argument("--hang-on-name", action="store_true")  # never answers `name`
    ap.add_argument("--exit-at-once", type=int, default=-1)  # exits with this code before reading
    ap.add_argument("--burn", type=float, default=0.0)  # CPU seconds each genmove spends in a child process
    ap.add_argument("--think", type=float, default=0.0)  # seconds each genmove sleeps
    ap.add_argument("--think-first", type=float, default=0.0)  # seconds the process's first genmove sleeps
    ap.add_argument("--no-clock", action="store_true")  # rejects time_settings
    opts = ap.parse_args()
    if opts.exit_at_once >= 0:
        sys.exit(opts.exit_at_once)
    moves = [m for m in opts.moves.split(",") if m]
    sys.stderr.write("FAKE-STDERR-NOISE\\n"); sys.stderr.flush()
    out = sys.stdout
    n_genmove = 0
    first = True

    def reply(cid, text="", ok=True):
        out.write(("=" if ok else "?") + cid + (" " + text if text else "") + "\\n\\n")
        out.flush()

    for line in sys.stdin:
        words = line.split("#")[0].split()
        if not words:
            continue
        cid = ""
        if words[0].isdigit():
            cid, words = words[0], words[1:]
        cmd, rest = words[0], words[1:]
        if cmd == "name" and opts.hang_on_name:
            time.sleep(3600)
        elif cmd == "name" and not opts.no_name:
            reply(cid, opts.name)
        elif cmd == "version" and not opts.no_name:
            reply(cid, opts.version)
        elif cmd == "protocol_version":
            reply(cid, "2")
        elif cmd == "boardsize":
            reply(cid, "unacceptable size", ok=False) if opts.reject_boardsize else reply(cid)
        elif cmd == "clear_board":
            n_genmove = 0
            reply(cid)
        elif cmd == "komi":
            reply(cid)
        elif cmd == "time_settings":
            reply(cid, "no clocks here", ok=False) if opts.no_clock else reply(cid)
        elif cmd == "time_left":
            sys.stderr.write("TIME_LEFT " + " ".join(rest) + "\\n"); sys.stderr.flush()
            reply(cid)
        elif cmd == "play":
            if opts.crash_on_play:
                sys.exit(4)
            reply(cid, "illegal move", ok=False) if opts.reject_play else reply(cid)
        elif cmd == "genmove":
            n_genmove += 1
            if n_genmove == opts.hang_at:
                time.sleep(3600)
            if n_genmove == opts.crash_at:
                sys.stderr.write("fake engine: segmentation fault\\n"); sys.stderr.flush()
                sys.exit(3)
            if opts.burn:  # a child process of the engine's spends the CPU (reaped before the answer)
                import subprocess
                subprocess.run([sys.executable, "-c", "import time\\nt = time.process_time()\\n"
                                f"while time.process_time() - t < {opts.burn}: pass"], check=True)
            time.sleep(opts.think + (opts.think_first if first else 0.0))
            first = False
            reply(cid, moves[n_genmove - 1] if n_genmove <= len(moves) else "pass")
        elif cmd == "final_score" and opts.hang_on_score:
            time.sleep(3600)
        elif cmd == "final_score" and opts.score:
            reply(cid, opts.score)
        elif cmd == "quit":
            reply(cid)
            break
        # Commands for the framing tests.
        elif cmd == "multiline":
            out.write(f"={cid} first\\nsecond\\n  third indented\\n\\n"); out.flush()
        elif cmd == "noid":
            out.write("= no id here\\n\\n"); out.flush()
        elif cmd == "crlf":
            out.write(f"={cid} with\\tcr\\x01lf\\r\\n\\r\\n"); out.flush()
        elif cmd == "blanks":
            out.write(f"\\n\\n={cid} after blanks\\n\\n"); out.flush()
        elif cmd == "stale":
            out.write(f"=0 late answer\\n\\n={cid} fresh\\n\\n"); out.flush()
        elif cmd == "garbage":
            out.write("hello, I am not GTP\\n\\n"); out.flush()
        elif cmd == "sleep":
            time.sleep(float(rest[0]))
            reply(cid, "awake")
        elif cmd == "exit":
            sys.exit(5)
        else:
            reply(cid, "unknown command", ok=False)
''')


@pytest.fixture
def fake(tmp_path):
    """Return a function building a fake engine's command line from its options."""
    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)

    def command(*options: str) -> str:
        return shlex.join([sys.executable, str(script), *options])

    return command


def play_match(tmp_path, *argv: str):
    """Run `foogo match` with `argv` plus --json and --quiet; return (exit code, JSON summary)."""
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    out = tmp_path / "result.json"
    out.unlink(missing_ok=True)  # each call's own summary (--json refuses an existing file without --overwrite)
    try:
        args = parser.parse_args([*argv, "--json", str(out), "--quiet"])
    except SystemExit as refused:  # argparse's own one-line error (a number it cannot read)
        return refused.code, None
    code = run(args)
    return code, (json.loads(out.read_text()) if out.exists() else None)


def engine(summary, key):
    """The engine entry with id `key` ("A" or "B") of a summary."""
    return next(e for e in summary["engines"] if e["id"] == key)


# -- GTP client framing ----------------------------------------------------------


def test_client_returns_single_line_result(fake):
    with GtpClient(fake("--name", "Echo")) as client:
        assert client.send("name", 5) == "Echo"
        assert client.send("protocol_version", 5) == "2"


def test_a_stderr_log_that_is_a_fifo_is_left_out_and_stderr_still_drained(tmp_path):
    # the pump thread opened the log with a plain open(), which waited for ever on a FIFO with no reader: the
    # engine's stderr was never drained, and one that wrote 300 KB there never answered
    log = tmp_path / "engine-A.stderr.log"
    os.mkfifo(log)
    script = "import sys\nsys.stderr.write('x' * 300_000)\nsys.stderr.flush()\n" \
             "for line in sys.stdin:\n    print('= Loud', end='\\n\\n', flush=True)\n"
    with GtpClient([sys.executable, "-c", script], log_path=log) as client:
        assert client.send("name", 30) == "Loud"
        tail = client.stderr_tail()
        assert "stderr not logged to" in tail and "not a regular file" in tail, tail[:200]


def test_client_reads_multiline_response(fake):
    with GtpClient(fake()) as client:
        assert client.send("multiline", 5) == "first\nsecond\n  third indented"
        assert client.send("name", 5) == "Fake"  # still in step after the multi-line answer


def test_client_raises_gtperror_on_failure_response_and_stays_usable(fake):
    with GtpClient(fake()) as client:
        with pytest.raises(GtpError, match="unknown command"):
            client.send("no_such_command", 5)
        assert client.alive
        assert client.send("name", 5) == "Fake"


def test_client_accepts_missing_id_crlf_control_chars_and_leading_blank_lines(fake):
    with GtpClient(fake()) as client:
        assert client.send("noid", 5) == "no id here"
        assert client.send("crlf", 5) == "with crlf"
        assert client.send("blanks", 5) == "after blanks"


def test_client_skips_a_stale_answer_to_an_earlier_id(fake):
    with GtpClient(fake()) as client:
        assert client.send("stale", 5) == "fresh"


def test_client_times_out_and_kills_the_engine(fake):
    client = GtpClient(fake())
    client.start()
    t0 = time.monotonic()
    with pytest.raises(GtpTimeout):
        client.send("sleep 30", timeout=0.5)
    assert time.monotonic() - t0 < 5
    assert not client.alive
    with pytest.raises(GtpCrash):
        client.send("name", 5)


def test_client_detects_engine_exit_and_keeps_its_stderr(fake):
    client = GtpClient(fake())
    client.start()
    with pytest.raises(GtpCrash, match="exit code 5") as info:
        client.send("exit", 5)
    assert "FAKE-STDERR-NOISE" in str(info.value)
    assert not client.alive
    client.start()  # a restart gives a working engine again
    assert client.send("name", 5) == "Fake"
    client.close()


def test_client_treats_non_gtp_output_as_a_crash(fake):
    client = GtpClient(fake())
    client.start()
    with pytest.raises(GtpCrash, match="malformed"):
        client.send("garbage", 5)
    assert not client.alive


FLOOD_ENGINE = textwrap.dedent('''
    import sys
    for line in sys.stdin:
        cid, command = line.split()[0], line.split()[1]
        if command == "long":
            sys.stdout.write(f"={cid} " + "x" * 5000 + "\\n\\n")
        elif command == "endless":
            sys.stdout.write(f"={cid} a\\n" + "b\\n" * 100000 + "\\n")
        elif command == "chatter":  # 3 MB of stderr before the answer
            sys.stderr.write(("y" * 99 + "\\n") * 30000)
            sys.stderr.flush()
            sys.stdout.write(f"={cid} said\\n\\n")
        elif command == "spew":
            sys.stdout.write(f"={cid} ok\\n\\n")
            sys.stdout.flush()
            while True:
                sys.stdout.write("= noise\\n\\n")
        elif command == "quit":
            break
        else:
            sys.stdout.write(f"={cid} Flood\\n\\n")
        sys.stdout.flush()
''')


@pytest.fixture
def flood(tmp_path, monkeypatch):
    """An engine whose output has no end unless the client bounds it, under small bounds."""
    import foogo.gtp_client as gtp_client
    monkeypatch.setattr(gtp_client, "LINE_MAX", 1000)
    monkeypatch.setattr(gtp_client, "RESPONSE_LINES", 500)
    monkeypatch.setattr(gtp_client, "LINES_AHEAD", 16)
    script = tmp_path / "flood_engine.py"
    script.write_text(FLOOD_ENGINE)
    return f"{sys.executable} {script}"


def test_client_cuts_a_long_line_and_stays_in_step(flood):
    with GtpClient(flood) as client:
        assert client.send("long", 5) == "x" * (1000 - len("=1 "))
        assert client.send("name", 5) == "Flood"


def test_an_engines_stderr_log_stops_at_its_bound_and_its_answers_go_on(flood, tmp_path, monkeypatch):
    import foogo.gtp_client as gtp_client
    monkeypatch.setattr(gtp_client, "LOG_MAX_BYTES", 1 << 20)
    log = tmp_path / "engine.log"
    log.write_bytes(b"z" * 1000)  # an earlier start's lines count
    with GtpClient(flood, log_path=log) as client:
        assert client.send("chatter", 30) == "said"
        assert client.send("chatter", 30) == "said"
        assert client.send("name", 5) == "Flood"
    text = log.read_bytes()
    assert len(text) <= (1 << 20) + 200 and text.startswith(b"z" * 1000) and text.count(b"not logged") == 1
    assert text.count(b"y" * 99 + b"\n") == ((1 << 20) - 1000) // 100
    with open(log, "rb", buffering=0) as raw:  # a raw pipe is read through a buffer, not a byte a call
        assert isinstance(gtp_client._buffered(raw), io.BufferedReader)


def test_client_refuses_a_response_without_end(flood):
    client = GtpClient(flood)
    client.start()
    with pytest.raises(GtpCrash, match="over 500 lines"):
        client.send("endless", 30)
    assert not client.alive


def test_client_holds_a_bounded_number_of_unread_lines_and_stops_its_reader(flood):
    client = GtpClient(flood)
    client.start()
    assert client.send("spew", 5) == "ok"
    time.sleep(0.3)  # the engine writes without end; its lines wait unread
    assert client._lines.qsize() <= 16
    client.kill()
    assert not any(thread.is_alive() for thread in client._threads)


def test_client_cannot_start_a_missing_program(tmp_path):
    with pytest.raises(GtpCrash, match="cannot start"):
        GtpClient(str(tmp_path / "no-such-engine")).start()


def test_client_writes_engine_stderr_to_its_log(fake, tmp_path):
    log = tmp_path / "engine.log"
    with GtpClient(fake(), log_path=log) as client:
        client.send("name", 5)
    assert "FAKE-STDERR-NOISE" in log.read_text()


# -- statistics -----------------------------------------------------------------------


def _stat(pid: int, comm: str, session: int, utime: int, stime: int, cutime: int, cstime: int) -> str:
    """A /proc/PID/stat line (stat(5)) with these fields and zeros elsewhere."""
    fields = ["S", "1", str(pid), str(session)] + ["0"] * 7 + [str(utime), str(stime), str(cutime), str(cstime)]
    return f"{pid} ({comm}) " + " ".join(fields + ["0"] * 20) + "\n"


def test_session_cpu_sums_every_process_of_the_session_and_nothing_else(tmp_path):
    ticks = os.sysconf("SC_CLK_TCK")
    lines = {100: _stat(100, "python", 100, 3 * ticks, ticks, 2 * ticks, 0),  # the engine, a reaped child's time
             101: _stat(101, "a ) b (c", 100, ticks, 0, 0, 0),  # a running child; its name has ") " in it
             102: _stat(102, "other", 7, 50 * ticks, 0, 0, 0)}  # another session
    for pid, line in lines.items():
        (tmp_path / str(pid)).mkdir()
        (tmp_path / str(pid) / "stat").write_text(line)
    (tmp_path / "103").mkdir()  # a process gone before its stat was read
    (tmp_path / "104").mkdir()
    (tmp_path / "104" / "stat").write_text("104 (torn")  # or a line cut short
    (tmp_path / "self").mkdir()
    assert session_cpu_seconds(100, str(tmp_path)) == pytest.approx(7.0)
    assert session_cpu_seconds(7, str(tmp_path)) == pytest.approx(50.0)
    assert session_cpu_seconds(55, str(tmp_path)) is None
    assert session_cpu_seconds(100, str(tmp_path / "missing")) is None


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


# -- whole matches ----------------------------------------------------------------------


@needs_gnugo
def test_gnugo_against_gnugo_alternating_writes_loadable_sgfs(tmp_path):
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", GNUGO_CMD, "--white", GNUGO_CMD + " --seed 7",
                         "--games", "2", "--size", "5", "--komi", "3.5", "--alternate",
                         "--sgf-dir", str(sgf_dir))
    assert code == 0
    assert s["games"] == 2 and len(s["per_game"]) == 2
    a, b = engine(s, "A"), engine(s, "B")
    assert a["label"] != b["label"]  # same name and version, still told apart
    assert a["games_as_black"] == a["games_as_white"] == 1
    assert b["games_as_black"] == b["games_as_white"] == 1
    assert a["wins"] + b["wins"] + s["draws"] + s["void"] == 2
    assert a["wins"] == a["wins_as_black"] + a["wins_as_white"]
    assert s["illegal_moves"] == s["timeouts"] == s["crashes"] == 0
    assert [g["black"] for g in s["per_game"]] == [a["label"], b["label"]]
    assert a["mean_seconds_per_move"] > 0
    files = sorted(sgf_dir.glob("game-*.sgf"))
    assert [f.name for f in files] == ["game-0001.sgf", "game-0002.sgf"]
    for path, g in zip(files, s["per_game"]):
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        root = game.get_root()
        assert game.get_size() == 5
        assert game.get_komi() == 3.5
        assert root.get("RU") == "Chinese"
        assert (root.get("PB"), root.get("PW")) == (g["black"], g["white"])  # "GNU Go 3.8 (A)" and "(B)"
        assert root.get("RE") == g["result"]
        moves = [node.get_move() for node in game.get_main_sequence()[1:]]
        assert len(moves) == g["moves"] > 0
        assert [colour for colour, _ in moves] == ["b", "w"] * (len(moves) // 2) + ["b"] * (len(moves) % 2)
        winner = g["result"][0]
        assert g["winner"] == (g["black"] if winner == "B" else g["white"])


@needs_gnugo
def test_illegal_move_is_a_loss_of_the_engine_that_played_it(tmp_path, fake):
    # The fake plays A1 and then A1 again, which the referee rejects.
    code, s = play_match(tmp_path, "--black", fake("--moves", "A1,A1"), "--white", GNUGO_CMD,
                         "--games", "2", "--size", "5", "--alternate")
    assert code == 0
    assert [g["result"] for g in s["per_game"]] == ["W+Illegal", "B+Illegal"]
    assert all(g["winner"] == engine(s, "B")["label"] for g in s["per_game"])
    assert all("referee" in g["detail"] for g in s["per_game"])
    assert engine(s, "A")["illegal_moves"] == 2 and engine(s, "B")["illegal_moves"] == 0
    assert engine(s, "B")["wins"] == 2 and s["illegal_moves"] == 2


@needs_gnugo
def test_off_board_move_is_illegal(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", "H8"), "--white", GNUGO_CMD,
                         "--games", "1", "--size", "5")
    assert s["per_game"][0]["result"] == "W+Illegal"
    assert engine(s, "A")["illegal_moves"] == 1


def test_move_the_opponent_rejects_is_a_loss_of_the_mover_without_referee(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", "C3"), "--white", fake("--reject-play"),
                         "--games", "1", "--size", "5", "--referee", "none")
    assert code == 0
    g = s["per_game"][0]
    assert g["result"] == "W+Illegal" and "opponent" in g["detail"]
    assert engine(s, "A")["illegal_moves"] == 1


@needs_gnugo
def test_hanging_engine_loses_on_time_and_is_restarted(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--hang-at", "2"), "--white", GNUGO_CMD,
                         "--games", "2", "--size", "5", "--alternate", "--timeout", "1")
    assert code == 0
    assert [g["result"] for g in s["per_game"]] == ["W+Time", "B+Time"]
    assert engine(s, "A")["timeouts"] == 2 and engine(s, "B")["timeouts"] == 0
    assert engine(s, "B")["wins"] == 2 and s["timeouts"] == 2


@needs_gnugo
def test_crashing_engine_loses_by_forfeit_and_is_restarted(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", GNUGO_CMD, "--white", fake("--crash-at", "1"),
                         "--games", "2", "--size", "5", "--alternate")
    assert code == 0
    assert [g["result"] for g in s["per_game"]] == ["B+Forfeit", "W+Forfeit"]
    assert all(g["reason"] == "crash" for g in s["per_game"])
    assert "segmentation fault" in s["per_game"][0]["detail"]
    assert engine(s, "B")["crashes"] == 2 and engine(s, "A")["crashes"] == 0
    assert engine(s, "A")["wins"] == 2 and s["crashes"] == 2


def test_engine_crashing_on_the_opponents_move_loses(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", "C3", "--score", "B+1"),
                         "--white", fake("--crash-on-play"),
                         "--games", "1", "--size", "5", "--referee", "none")
    assert s["per_game"][0]["result"] == "B+Forfeit"
    assert engine(s, "B")["crashes"] == 1 and engine(s, "A")["wins"] == 1


@needs_gnugo
def run_match(*argv: str) -> int:
    """Run `foogo match` with exactly `argv`; return its exit code."""
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    return run(parser.parse_args(list(argv)))


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


def test_without_referee_the_engines_agreed_score_counts(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--score", "W+2.5"), "--white", fake("--score", "W+2.5"),
                         "--games", "1", "--size", "5", "--referee", "none")
    assert s["per_game"][0]["result"] == "W+2.5" and s["per_game"][0]["moves"] == 2
    assert engine(s, "B")["wins"] == 1


def test_without_referee_disagreeing_scores_make_the_game_void(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--score", "B+1"), "--white", fake("--score", "W+1"),
                         "--games", "1", "--size", "5", "--referee", "none")
    assert s["per_game"][0]["result"] == "?" and s["void"] == 1
    assert engine(s, "A")["wins"] == engine(s, "B")["wins"] == 0
    assert engine(s, "A")["win_rate"] is None


def test_a_referees_score_both_engines_count_otherwise_stands_and_is_reported_disputed(tmp_path, fake, capsys):
    # GNU Go, the usual referee, scores some eyeless sekis as dead: both players then count another winner
    code, s = play_match(tmp_path, "--black", fake("--score", "W+2"), "--white", fake("--score", "W+2.5"),
                         "--games", "2", "--size", "5", "--referee", fake("--score", "B+20"), "--alternate")
    assert code == 0
    assert [g["result"] for g in s["per_game"]] == ["B+20", "B+20"]  # the referee's result stands
    assert s["disputed"] == 2 and all(g["disputed"] for g in s["per_game"])
    a, b = engine(s, "A")["label"], engine(s, "B")["label"]
    assert s["per_game"][0]["engine_scores"] == {a: "W+2", b: "W+2.5"}
    assert "disputed: both engines count otherwise" in s["per_game"][0]["detail"]
    assert "Disputed: 2 scored game(s)" in format_table(s)


def test_a_referees_score_is_not_disputed_when_an_engine_agrees_or_gives_no_count(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--score", "B+1"), "--white", fake(),  # no final_score
                         "--games", "1", "--size", "5", "--referee", fake("--score", "B+3"))
    g = s["per_game"][0]
    assert g["result"] == "B+3" and not g["disputed"] and s["disputed"] == 0
    assert g["engine_scores"] == {engine(s, "A")["label"]: "B+1", engine(s, "B")["label"]: None}
    assert "Disputed" not in format_table(s)
    code, s = play_match(tmp_path, "--black", fake("--score", "W+1"), "--white", fake("--score", "B+0.5"),
                         "--games", "1", "--size", "5", "--referee", fake("--score", "B+3"))
    assert s["disputed"] == 0  # the engines disagree with each other


def test_an_engine_that_never_answers_final_score_is_not_on_trial_and_plays_the_next_game(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--hang-on-score"), "--white", fake("--score", "W+1"),
                         "--games", "2", "--size", "5", "--referee", fake("--score", "W+1"), "--timeout", "3",
                         "--startup-timeout", "60")
    assert code == 0 and s["games"] == 2 and s["void"] == 0 and s["timeouts"] == 0
    assert [g["result"] for g in s["per_game"]] == ["W+1", "W+1"]
    assert all(g["engine_scores"][engine(s, "A")["label"]] is None for g in s["per_game"])


def test_an_engine_from_a_modified_checkout_is_named_with_a_warning(tmp_path, fake, capsys):
    code, s = play_match(tmp_path, "--black", fake("--version", "0.1.0+g2e63947.dirty", "--score", "B+1"),
                         "--white", fake("--score", "B+1"), "--games", "1", "--size", "5", "--referee", "none")
    assert code == 0 and engine(s, "A")["version"] == "0.1.0+g2e63947.dirty"
    err = capsys.readouterr().err
    assert "engine A (Fake 0.1.0+g2e63947.dirty) runs from a modified checkout" in err
    assert "engine B" not in err


def test_max_moves_stops_and_scores_the_game(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", "A1,B1,C1", "--score", "B+9"),
                         "--white", fake("--moves", "A2,B2,C2", "--score", "B+9"),
                         "--games", "1", "--size", "5", "--referee", "none", "--max-moves", "3")
    g = s["per_game"][0]
    assert g["moves"] == 3 and g["result"] == "B+9" and "max-moves" in g["detail"]


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


def test_an_engines_first_genmove_after_it_starts_may_take_the_startup_timeout(tmp_path, fake):
    # foogo gtp answers `name` at once and compiles its search before its first move (about 1.5 minutes
    # after an install): with the default startup timeout that first move is lost on time, and so is the
    # first move of the engine restarted after it
    argv = ("--black", fake("--think-first", "2", "--moves", "A1,B1", "--score", "B+1"),
            "--white", fake("--moves", "A2,B2", "--score", "B+1"), "--games", "2", "--size", "5",
            "--referee", "none", "--timeout", "1")
    code, s = play_match(tmp_path, *argv)
    assert s["timeouts"] == 2 and [g["result"] for g in s["per_game"]] == ["W+Time", "W+Time"]
    code, s = play_match(tmp_path, *argv, "--startup-timeout", "10")
    assert code == 0 and s["timeouts"] == 0 and [g["result"] for g in s["per_game"]] == ["B+1", "B+1"]


def test_an_engine_exiting_at_once_stops_the_match_saying_its_exit_code(tmp_path, fake, capsys):
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake("--exit-at-once", "3"),
                         "--games", "2", "--referee", "none")
    err = capsys.readouterr().err
    assert code == 1 and s is None and "failed to start" in err and "code 3" in err


def test_json_keeps_an_earlier_matchs_results_unless_told_to_overwrite(tmp_path, fake, capsys):
    earlier = tmp_path / "earlier.json"
    earlier.write_text('{"old": true}')
    common = ["--black", fake(), "--white", fake(), "--games", "1", "--size", "5", "--referee", "none", "--quiet"]
    assert run_match(*common, "--json", str(earlier)) == 2
    assert "exists" in capsys.readouterr().err and earlier.read_text() == '{"old": true}'
    assert run_match(*common, "--json", str(earlier), "--overwrite") == 0
    assert json.loads(earlier.read_text())["games"] == 1


def test_json_to_stdout_puts_the_table_on_stderr_and_quiet_prints_nothing(tmp_path, fake, capfd):
    common = ["--black", fake(), "--white", fake(), "--games", "1", "--size", "5", "--referee", "none"]
    assert run_match(*common, "--json", "-") == 0
    out, err = capfd.readouterr()
    assert json.loads(out)["games"] == 1 and "Win rate" in err
    assert run_match(*common, "--quiet") == 0
    out, err = capfd.readouterr()
    assert out == "" and err == ""
    assert not (tmp_path / "-").exists()


def test_sgf_names_the_players_apart(tmp_path, fake):
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake(), "--games", "2", "--size", "5",
                         "--alternate", "--referee", "none", "--sgf-dir", str(sgf_dir), "--black-name", "Alice")
    assert code == 0
    names = set()
    for path in sorted(sgf_dir.glob("game-*.sgf")):
        root = sgf.Sgf_game.from_bytes(path.read_bytes()).get_root()
        assert root.get("PB") != root.get("PW")
        names |= {root.get("PB"), root.get("PW")}
    assert "Alice" in names and engine(s, "A")["label"] == "Alice"


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


@pytest.mark.parametrize("where", ["missing/x.json", ".", "fifo", "dangling", "x.json/"])
def test_a_json_file_that_cannot_be_written_is_refused_before_any_game(tmp_path, fake, capsys, where):
    if where == "fifo":
        os.mkfifo(tmp_path / where)  # written whole, it was replaced; opened to write, it would wait for ever
    if where == "dangling":  # a link whose target's directory is missing: found only when the match had ended
        (tmp_path / where).symlink_to(tmp_path / "missing" / "x.json")
    code = run_match("--black", fake(), "--white", fake(), "--referee", "none", "--games", "1", "--size", "5",
                     "--json", f"{tmp_path}{os.sep}{where}")  # (a Path would drop x.json/'s separator)
    err = capsys.readouterr().err
    assert code == 2 and "foogo match: --json" in err and "Traceback" not in err, err


def test_an_sgf_that_cannot_be_written_stops_the_match_and_keeps_its_summary(tmp_path, fake, capsys):
    sgf_dir = tmp_path / "sgf"
    (sgf_dir / "game-0002.sgf").mkdir(parents=True)  # a directory where the second game's file goes
    code, summary = play_match(tmp_path, "--black", fake("--score", "W+2.5"), "--white", fake("--score", "W+2.5"),
                               "--games", "3", "--size", "5", "--referee", "none", "--sgf-dir", str(sgf_dir),
                               "--overwrite")
    err = capsys.readouterr().err
    assert code == 1 and "cannot write" in err and "game-0002.sgf" in err and "Traceback" not in err, err
    assert summary is not None and len(summary["per_game"]) == 2 and (sgf_dir / "game-0001.sgf").is_file()


def test_an_sgf_dir_holding_an_earlier_matchs_games_is_refused_unless_overwrite(tmp_path, fake, capsys):
    sgf_dir = tmp_path / "sgf"
    argv = ("--black", fake("--score", "W+2.5"), "--white", fake("--score", "W+2.5"), "--games", "2", "--size", "5",
            "--referee", "none", "--sgf-dir", str(sgf_dir))
    assert play_match(tmp_path, *argv)[0] == 0
    (sgf_dir / "game-0001.sgf").unlink()
    earlier = (sgf_dir / "game-0002.sgf").read_bytes()
    (tmp_path / "result.json").unlink()
    code, summary = play_match(tmp_path, *argv)
    err = capsys.readouterr().err
    assert code == 2 and summary is None and "Traceback" not in err, err
    assert f"--sgf-dir {sgf_dir} already holds game-0002.sgf" in err and "--overwrite" in err
    assert sorted(p.name for p in sgf_dir.glob("game-*")) == ["game-0002.sgf"]  # nothing written, nothing lost
    assert (sgf_dir / "game-0002.sgf").read_bytes() == earlier
    code, summary = play_match(tmp_path, *argv, "--overwrite")
    assert code == 0 and summary is not None and len(summary["per_game"]) == 2
    assert sorted(p.name for p in sgf_dir.glob("game-*")) == ["game-0001.sgf", "game-0002.sgf"]


@pytest.mark.skipif(sys.platform == "win32", reason="the lock is POSIX flock")
def test_an_sgf_dir_another_match_is_writing_to_is_refused(tmp_path, fake, capsys):
    sgf_dir = tmp_path / "sgf"
    argv = ("--black", fake("--score", "W+2.5"), "--white", fake("--score", "W+2.5"), "--games", "2", "--size", "5",
            "--referee", "none", "--sgf-dir", str(sgf_dir))
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    first = Match(parser.parse_args([*argv, "--quiet"]))  # checked the directory, holds it until close
    try:
        with pytest.raises(ValueError, match="in use by another match"):
            lock_directory(sgf_dir)
    finally:
        first.close()
    # another process takes it now (as a second `foogo match` would): it says "held", or gives up after 30 s
    holder = subprocess.Popen([sys.executable, "-c", HOLD_LOCK, str(sgf_dir)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline() == "held\n"
        code, summary = play_match(tmp_path, *argv)
        err = capsys.readouterr().err
        assert code == 2 and summary is None and "Traceback" not in err, err
        assert f"--sgf-dir {sgf_dir} is in use by another match" in err
        assert list(sgf_dir.iterdir()) == []  # no game, no engine log
    finally:
        holder.communicate("")
    assert play_match(tmp_path, *argv)[0] == 0  # free again once the other has ended
    os.close(lock_directory(sgf_dir))  # and the match that ended let it go


HOLD_LOCK = """
import fcntl, os, sys, time
descriptor = os.open(sys.argv[1], os.O_RDONLY)
deadline = time.monotonic() + 30
while True:
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        break
    except BlockingIOError:
        if time.monotonic() > deadline:
            print("still locked", flush=True)
            sys.exit(1)
        time.sleep(0.05)
print("held", flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(sys.platform == "win32", reason="the lock is POSIX flock")
def test_a_match_lets_its_sgf_dir_go_whatever_stops_it(tmp_path, fake, monkeypatch):
    sgf_dir = tmp_path / "sgf"
    argv = ["--black", fake(), "--white", fake(), "--games", "2", "--size", "5", "--referee", "none",
            "--sgf-dir", str(sgf_dir), "--quiet"]
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    # Ctrl-C while the directory is checked: the lock taken just before goes with the interrupt
    with monkeypatch.context() as patch:
        patch.setattr(match_files, "refuse_earlier_games", interrupt)
        with pytest.raises(KeyboardInterrupt):
            Match(parser.parse_args(argv))
    os.close(lock_directory(sgf_dir))
    # Ctrl-C while close quits the engines: they are killed, the match is marked interrupted (its games so
    # far still to be written) and the lock goes all the same
    match = Match(parser.parse_args(argv))
    monkeypatch.setattr(match.players["A"].client, "close", interrupt)
    match.close()
    assert match.interrupted
    os.close(lock_directory(sgf_dir))


def interrupt(*args):
    """Stand-in for a call that Ctrl-C stops."""
    raise KeyboardInterrupt


@pytest.mark.skipif(sys.platform == "win32", reason="the lock is POSIX flock")
def test_a_file_system_without_locks_runs_the_match_unlocked(tmp_path, monkeypatch):
    opened = len(os.listdir("/proc/self/fd")) if os.path.isdir("/proc/self/fd") else None

    def no_locks(descriptor, operation):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(match_files.fcntl, "flock", no_locks)
    assert lock_directory(tmp_path) is None  # not "in use by another match": nobody holds it
    if opened is not None:
        assert len(os.listdir("/proc/self/fd")) == opened  # its descriptor closed

    def held(descriptor, operation):
        raise BlockingIOError(errno.EWOULDBLOCK, "Resource temporarily unavailable")

    monkeypatch.setattr(match_files.fcntl, "flock", held)
    with pytest.raises(ValueError, match="in use by another match running now"):
        lock_directory(tmp_path)


def test_a_long_engine_text_is_kept_brief(tmp_path, fake):
    name = "N" * 5000
    code, summary = play_match(tmp_path, "--black", fake("--name", name, "--score", "W+2.5"),
                               "--white", fake("--score", "W+2.5"), "--games", "1", "--size", "5", "--referee", "none")
    assert code == 0
    label = engine(summary, "A")["label"]
    assert len(label) < 300 and label.startswith("N" * 200) and "(5,000 characters)" in label


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


# -- game clocks (--time-settings) -------------------------------------------------

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


# -- openings ---------------------------------------------------------------------------


@needs_gnugo
def test_an_opening_is_played_on_the_referee_and_both_engines_before_the_first_genmove(tmp_path):
    opening = tmp_path / "opening.sgf"
    opening.write_text("(;GM[1]SZ[5]KM[0];B[cc]C[a comment];W[bb];B[dd];W[];B[bd])")  # a pass inside
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", GNUGO_CMD, "--white", GNUGO_CMD + " --seed 7", "--games", "2",
                         "--size", "5", "--komi", "3.5", "--alternate", "--opening", str(opening),
                         "--opening-moves", "4", "--sgf-dir", str(sgf_dir))
    assert code == 0 and s["void"] == 0 and s["illegal_moves"] == s["crashes"] == 0
    for path in sorted(sgf_dir.glob("game-*.sgf")):
        nodes = sgf.Sgf_game.from_bytes(path.read_bytes()).get_main_sequence()[1:]
        moves = [node.get_move() for node in nodes]
        assert moves[:4] == [("b", (2, 2)), ("w", (3, 1)), ("b", (1, 3)), ("w", None)]
        assert len(moves) > 4 and moves[4][0] == "b"  # black moves after the opening's white pass
        assert nodes[3].get("C").startswith("the opening's last move (4 moves)") or len(moves) == 4
        assert [c for c, _ in moves] == ["b", "w"] * (len(moves) // 2) + ["b"] * (len(moves) % 2)


@pytest.mark.parametrize("text, argv, message", [
    ("(;SZ[9];B[cc];W[dd])", ["--opening-moves", "1"], "a 9x9 game, not 5x5"),
    ("(;SZ[5]AB[aa];B[cc];W[dd])", ["--opening-moves", "1"], "setup stones"),
    ("(;SZ[5];B[cc];W[dd])", ["--opening-moves", "3"], "has 2 moves, fewer than --opening-moves 3"),
    ("(;SZ[5];B[cc];W[];B[])", ["--opening-moves", "3"], "two passes in a row"),
    ("(;SZ[5];B[cc]", ["--opening-moves", "1"], "corrupt SGF"),
    ("(;SZ[5];B[cc];W[dd])", ["--opening-moves", "0"], "--opening-moves must be from 1 to 74"),
    ("(;SZ[5];B[cc];W[dd])", ["--opening-moves", "2", "--max-moves", "2"], "--opening-moves must be from 1 to 1"),
    # illegal moves: the games were played and each was void (the README says refused before anything starts)
    ("(;SZ[5];B[cc];W[cc])", ["--opening-moves", "2"], "node 2: W C3 is on a stone"),
    ("(;SZ[5];B[ba];W[ee];B[ab];W[aa])", ["--opening-moves", "4"], "node 4: W A5 is a suicide"),
    ("(;SZ[5];B[bc];W[cc];B[ad];W[bd];B[be];W[dd];B[ea];W[ce];B[cd];W[bd])", ["--opening-moves", "10"],
     "node 10: W B2 retakes a ko at once"),
    ("(;SZ[5];B[bc];W[cc];B[ad];W[bd];B[be];W[dd];B[ea];W[ce];B[cd];W[ee];B[aa];W[bd])", ["--opening-moves", "12"],
     None),  # the same ko taken back after a move elsewhere each: legal
    ("(;SZ[5];B[cc];W[zz])", ["--opening-moves", "2"], "node 2: a move off the 5x5 board or malformed"),
])
def test_an_opening_that_cannot_start_a_game_is_refused_before_anything_starts(tmp_path, fake, capsys, text, argv,
                                                                               message):
    opening = tmp_path / "opening.sgf"
    opening.write_text(text)
    if message is None:  # a legal opening: the loader takes it
        from foogo.match_openings import load_opening
        assert len(load_opening(str(opening), int(argv[1]), 5, 75)) == int(argv[1])
        return
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake(), "--size", "5", "--referee", "none",
                         "--opening", str(opening), *argv, "--sgf-dir", str(tmp_path / "sgf"))
    assert code == 2 and s is None
    assert message in capsys.readouterr().err
    assert not (tmp_path / "sgf").exists()  # refused before the SGF directory is made


def test_an_opening_must_be_a_regular_file_of_bounded_size_and_its_move_count_needs_it(tmp_path, fake, capsys):
    from foogo.match_openings import OPENING_MAX_BYTES
    for path, argv, message in [
            (tmp_path / "missing.sgf", [], "cannot read it"),
            (tmp_path, [], "not a regular file"),  # a directory
            (None, ["--opening-moves", "3"], "--opening-moves needs --opening")]:
        code, _ = play_match(tmp_path, "--black", fake(), "--white", fake(), "--referee", "none",
                             *(["--opening", str(path)] if path else []), *argv)
        assert code == 2 and message in capsys.readouterr().err
    huge = tmp_path / "huge.sgf"
    huge.write_bytes(b"(;SZ[9]C[" + b"x" * OPENING_MAX_BYTES + b"];B[cc])")
    code, _ = play_match(tmp_path, "--black", fake(), "--white", fake(), "--referee", "none", "--opening", str(huge))
    assert code == 2 and "over the opening size limit" in capsys.readouterr().err


def test_an_openings_moves_are_on_no_clock_and_the_times_after_it_follow_the_moves(tmp_path, fake):
    opening = tmp_path / "opening.sgf"
    opening.write_text("(;SZ[5];B[cc];W[dd])")
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", fake("--moves", "B2", "--score", "B+1"),
                         "--white", fake("--score", "B+1"), "--games", "1", "--size", "5", "--referee", "none",
                         "--time-settings", "2m", "--opening", str(opening), "--opening-moves", "2",
                         "--sgf-dir", str(sgf_dir))
    assert code == 0 and s["per_game"][0]["result"] == "B+1"
    nodes = sgf.Sgf_game.from_bytes((sgf_dir / "game-0001.sgf").read_bytes()).get_main_sequence()[1:]
    assert [n.get_move() for n in nodes[:3]] == [("b", (2, 2)), ("w", (1, 3)), ("b", (1, 1))]
    assert not any(n.has_property("BL") or n.has_property("WL") for n in nodes[:2])
    assert nodes[1].get("C") == "the opening's last move (2 moves)"
    assert nodes[2].has_property("BL") and 119 < nodes[2].get("BL") <= 120  # black's first genmove: its time left
    assert all(n.has_property("WL" if n.get_move()[0] == "w" else "BL") for n in nodes[2:])


def test_the_table_of_a_match_stopped_before_its_referee_started_names_the_referee_asked(tmp_path, fake):
    from foogo.match_results import format_table
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake(), "--games", "1", "--size", "5",
                         "--referee", "none")
    assert code == 0 and "referee: none (engines must agree" in format_table(s)
    stopped = {**s, "referee": None, "referee_command": "gnugo --mode gtp"}  # a Ctrl-C before it answered `name`
    assert "referee: gnugo --mode gtp (stopped before it started)" in format_table(stopped)


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
