"""GTP served over pipes: framing of every kind of input line, the bounded read-ahead, end of input
and quit, answers while the kernels warm up, and what a stdout that cannot take a character gets."""

import io
import os
import subprocess
import sys
import threading
import time

import pytest
from gtp_double import (
    make_engine,
    ok,
    send,
    serve_lines,
    warming_engine,
    well_framed,
)

from foogo.gtp import MAX_LINE, serve
from foogo.gtp.protocol import _Inbox


def test_serve_escapes_what_its_stdout_cannot_encode():
    # on a cp1252 or ASCII stdout (Windows, a C locale) an echoed word raised UnicodeEncodeError, a ValueError,
    # which serve read as a closed stdout: the engine quit unanswered
    for encoding in ("cp1252", "ascii"):
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding=encoding, newline="\n")
        serve(make_engine(), io.StringIO("1 play b \u70b9\n2 name\n"), out)
        out.flush()
        responses = raw.getvalue().decode(encoding).split("\n\n")
        assert responses[0] == "?1 syntax error: invalid vertex '\\u70b9'"
        assert responses[1:] == ["=2 foogo", ""]


def test_serve_answers_until_quit():
    engine = make_engine()
    out = io.StringIO()
    assert serve(engine, io.StringIO("1 name\n\n# comment\n2 quit\n3 name\n"), out) == 0
    assert out.getvalue() == "=1 foogo\n\n=2\n\n"


def test_serve_stops_at_end_of_input_and_survives_binary_and_long_lines():
    engine = make_engine()
    out = io.StringIO()
    data = b"name\n\xff\xfe\x00binary\n" + b"x" * (3 * MAX_LINE) + b"\n1 version\n"
    serve(engine, io.BytesIO(data), out)
    responses = out.getvalue().split("\n\n")[:-1]
    assert responses[0] == "= foogo"
    assert responses[1].startswith("? syntax error")
    assert responses[2].startswith("? syntax error")
    assert responses[3].startswith("=1 ")
    assert len(responses) == 4


def test_serve_reads_a_pipe_and_cuts_long_lines():
    engine = make_engine()
    read_fd, write_fd = os.pipe()
    data = b"1 name\n" + b"2 " + b"y" * (5 * MAX_LINE) + b"\n3 version\n4 name"  # last line unterminated
    writer = threading.Thread(target=lambda: (os.write(write_fd, data), os.close(write_fd)))
    writer.start()
    out = io.StringIO()
    with os.fdopen(read_fd, "rb") as stdin:
        serve(engine, stdin, out)
    writer.join()
    responses = out.getvalue().split("\n\n")[:-1]
    assert responses[0] == "=1 foogo"
    assert responses[1].startswith("?2 syntax error")
    assert responses[2].startswith("=3 ")
    assert responses[3] == "=4 foogo"


FRAMING_INPUT = [  # (line, answered?): the spec's white space is space and HT only (GTP 2, 2.2-2.3)
    ("\u00a0", True), ("\u3000", True), ("\u2028", True), ("\u0085", True), ("1 \u00a0name", True),
    ("# " + "c" * (3 * MAX_LINE), False), (" " * (3 * MAX_LINE), False),
    ("\t" * (2 * MAX_LINE) + "# late comment", False), (" " * (2 * MAX_LINE) + "5 name", True),
    ("# caf\xe9 in Latin-1", False), ("2 name # caf\xe9", True),
]


def _framing_bytes(text):
    return text.encode("utf-8") if "caf" not in text else text.encode("latin-1")


@pytest.mark.parametrize("reader", ["pipe", "stream"])
def test_every_line_but_blank_and_comment_lines_gets_exactly_one_answer(reader):
    engine = make_engine()
    data = b"".join(_framing_bytes(line) + b"\n" for line, _ in FRAMING_INPUT) + b"9 name\n"
    out = io.StringIO()
    if reader == "pipe":
        read_fd, write_fd = os.pipe()
        writer = threading.Thread(target=lambda: (os.write(write_fd, data), os.close(write_fd)))
        writer.start()
        with os.fdopen(read_fd, "rb") as stdin:
            serve(engine, stdin, out)
        writer.join()
    else:
        serve(engine, io.BytesIO(data), out)
    responses = out.getvalue().split("\n\n")[:-1]
    assert len(responses) == sum(answered for _, answered in FRAMING_INPUT) + 1, responses
    assert all(well_framed(r + "\n\n") for r in responses)
    assert responses[:4] == ["? unknown command"] * 4
    assert responses[4] == "?1 unknown command"  # id 1, command "\u00a0name"
    assert responses[-3] == "=5 foogo"  # a long blank run before a command says nothing
    assert responses[-2] == "=2 foogo" and responses[-1] == "=9 foogo"


def test_a_line_of_unicode_spaces_is_a_command():
    engine = make_engine()
    for space in ("\u00a0", "\u3000", "\u2028", "\u0085", "\u200b"):
        assert engine.execute(space) == "? unknown command\n\n"
    assert engine.execute("1\u00a0name") == "? unknown command\n\n"  # no id: "1\u00a0name" is one word


def test_a_comment_is_never_decoded_or_measured():
    engine = make_engine()
    assert engine.execute(b"# \xff\xfe not UTF-8\n") is None
    assert engine.execute("#" + "x" * (4 * MAX_LINE)) is None
    assert engine.execute(b"3 name # \xff\n") == "=3 foogo\n\n"


def test_the_engine_process_exits_cleanly_on_quit_with_stdin_still_open():
    proc = subprocess.Popen([sys.executable, "-m", "foogo", "gtp", "--playouts", "50"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(b"1 name\n2 quit\n")
    proc.stdin.flush()
    try:
        proc.wait(timeout=60)  # stdin stays open: the engine must leave on quit alone
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.stdin.close()
        proc.kill()
    assert out == b"=1 foogo\n\n=2\n\n"
    assert proc.returncode == 0, err
    assert b"Fatal" not in err


def test_the_protocol_answers_while_the_kernels_warm_up_and_the_search_waits(monkeypatch):
    engine, release = warming_engine(monkeypatch)
    assert send(engine, "name", "protocol_version", "play b D4") == ["= foogo\n\n", "= 2\n\n", "=\n\n"]
    answers = []
    thread = threading.Thread(target=lambda: answers.append(engine.execute("genmove w")))
    thread.start()
    thread.join(0.5)
    assert thread.is_alive() and not answers  # genmove waits for the kernels
    release.set()
    thread.join(10)
    assert answers == ["= E5\n\n"]


class _GatedEvent(threading.Event):
    """An Event whose set() from a thread named "gated" waits at `gate` first: the moment, between
    a line's put and its set, that once let the line's late set stop the next command's analysis."""

    def __init__(self, gate):
        super().__init__()
        self.gate = gate

    def set(self):
        if threading.current_thread().name == "gated":
            self.gate.wait(5)
        super().set()


def test_a_taken_line_leaves_no_late_arrival_behind():
    inbox = _Inbox(4)
    gate = threading.Event()
    inbox.arrived = _GatedEvent(gate)
    producer = threading.Thread(target=inbox.put, args=("1 name\n",), name="gated")
    producer.start()
    taken = []
    taker = threading.Thread(target=lambda: taken.append(inbox.take()))
    taker.start()
    time.sleep(0.1)  # the taker has the line by now (and waits for the handover)
    gate.set()
    producer.join(5)
    taker.join(5)
    assert taken == ["1 name\n"]
    assert not inbox.arrived.is_set()  # nothing waits: an analysis begun now streams
    inbox.put("2 name\n")
    assert inbox.arrived.is_set()


def test_the_input_read_ahead_is_bounded():
    inbox = _Inbox(2)
    producer = threading.Thread(target=lambda: [inbox.put(k) for k in range(3)])
    producer.start()
    producer.join(0.2)
    assert producer.is_alive()  # the third line waits for room
    assert inbox.take() == 0
    producer.join(5)
    assert not producer.is_alive()
    assert [inbox.take(), inbox.take()] == [1, 2]


def test_a_full_read_ahead_never_keeps_the_taker_out():
    # a put that waited for room held the handover lock: the next take then waited for it for ever
    inbox = _Inbox(2)
    producer = threading.Thread(target=lambda: [inbox.put(k) for k in range(50)], daemon=True)
    producer.start()
    taken = []
    taker = threading.Thread(target=lambda: taken.extend(inbox.take() for _ in range(50)), daemon=True)
    taker.start()
    taker.join(10)
    assert taken == list(range(50))


def test_many_lines_sent_at_once_are_all_answered_in_order():
    # a GUI or a script that sends without waiting (foogo gtp < file): 65 lines at once hung the engine
    lines = [f"{i} name" for i in range(1, 301)] + ["301 quit"]
    out, _ = serve_lines(make_engine(), lines, wait_for="=1 ")
    answers = out.split("\n\n")[:-1]
    assert answers == [f"={i} foogo" for i in range(1, 301)] + ["=301"]


@pytest.mark.parametrize("pieces", [
    [b"1 name #" + b"z" * 9000 + b"\n2 version\n"],  # one read
    [b"1 name #", b"z" * 9000, b"\n2 version\n"],  # the comment's end in a later read
    [b"1 name #" + b"z" * 70000, b"z" * 100, b"\n2 version\n"],  # longer than a read
])
def test_a_long_comment_after_a_command_is_cut_however_the_input_splits_it(pieces):
    for reader in ("pipe", "stream"):
        engine = make_engine()
        out = io.StringIO()
        if reader == "pipe":
            read_fd, write_fd = os.pipe()

            def write_pieces(fd):
                for piece in pieces:
                    os.write(fd, piece)
                    time.sleep(0.05)  # each piece in a read of its own
                os.close(fd)
            writer = threading.Thread(target=write_pieces, args=(write_fd,))
            writer.start()
            with os.fdopen(read_fd, "rb") as stdin:
                serve(engine, stdin, out)
            writer.join()
        else:
            serve(engine, io.BytesIO(b"".join(pieces)), out)
        assert out.getvalue().split("\n\n")[:-1] == ["=1 foogo", "=2 " + engine.execute("version")[2:-2]], reader


def test_a_search_ends_at_once_when_the_engines_parent_is_gone():
    # a GUI killed during a genmove left the search running out its budget (up to an hour) for nobody
    from foogo.gtp.protocol import watch_parent

    parents = iter([100, 100, 1])  # the parent's id, then the one an orphan gets
    orphaned, done = threading.Event(), threading.Event()
    watch_parent(orphaned, done, poll=0.01, parent_of=lambda: next(parents, 1))
    assert orphaned.wait(5)
    quiet = threading.Event()
    watch_parent(quiet, done, poll=0.01, parent_of=lambda: 100)  # the same parent: never set
    assert not quiet.wait(0.1)
    done.set()  # the watch ends with the serving
    engine = make_engine()
    engine.orphaned.set()
    ok(engine, "genmove b")
    assert engine.holder["search"].calls[-1]["stop"] is engine.orphaned  # what the search polls to end
