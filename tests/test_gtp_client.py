"""The GTP client (gtp_client.py): framing, failures (errors, timeouts, exits, malformed output),
bounds on what an engine writes, its stderr log, and the CPU time of an engine's session."""

import io
import os
import sys
import textwrap
import time

import pytest

from foogo.gtp_client import GtpClient, GtpCrash, GtpError, GtpTimeout, session_cpu_seconds


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
