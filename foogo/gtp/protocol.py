"""GTP's wire: preprocessing, framing and serving (Go Text Protocol version 2, ../shared/GTP.md).

`preprocess` turns an input line into a command or None (blank and comment lines are never
answered); `frame` makes `=id text` / `?id text` responses ended by an empty line; `serve` reads
input in a thread (so that an analysis command can stream until the next line arrives) and
writes only responses to stdout. Knows nothing of Go: it hands each line to an engine's
`execute(line, stream, interrupt)` (engine.py).
"""

from __future__ import annotations

import os
import queue
import re
import threading
import traceback
from dataclasses import dataclass

from ..numbers import cut

PROTOCOL_VERSION = "2"
MAX_LINE = 8192  # longer command lines are refused ("syntax error"), the rest of the line drained
MAX_FAILURE = 1000  # a failure reply's text is cut to this many characters (frame)
QUEUED = 64  # input lines serve reads ahead of the command being answered
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # control characters except HT (LF is cut before)
# what preprocessing removes or turns into a space, as bytes: the leading run of these in a line says
# nothing, so the readers drop it before measuring a line against MAX_LINE
_BLANK_BYTES = bytes(range(0, 10)) + bytes(range(11, 32)) + b"\x7f "
_BLANK_CHARS = _BLANK_BYTES.decode("ascii")


class GtpError(Exception):
    """A failure answered as `? message`; the message starts with one of GTP's error words."""


@dataclass
class Streamed:
    """A response already written (or assembled) by a streaming handler; `tail` is what remains to return."""

    tail: str


def preprocess(line: str) -> str | None:
    """GTP preprocessing (spec 2.2): drop control characters but HT, cut a comment from '#', HT to
    space; None if nothing but white space is left. White space is GTP's, space and HT only: a
    line of other (Unicode) spaces is a command, and gets its answer."""
    line = _CONTROL.sub("", line.split("\n", 1)[0] if "\n" in line else line)
    line = line.split("#", 1)[0].replace("\t", " ").strip(" ")
    return line or None


def leading_id(text: str) -> str | None:
    match = re.match(r"[ \t]*([0-9]+)[ \t]", text)
    return match.group(1) if match else None


def frame(ok: bool, cid: str | None, text: str) -> str:
    """`=id text` or `?id text`, no empty line inside, ended by an empty line; a failure's text is one
    line of printable characters (_one_line), at most MAX_FAILURE of them (an error that echoes an SGF's
    value could be a megabyte long)."""
    if not ok:
        text = cut(_one_line(text), MAX_FAILURE)
    lines = text.split("\n")
    body = "\n".join([lines[0]] + [line for line in lines[1:] if line.strip()])
    sign = "=" if ok else "?"
    head = f"{sign}{cid or ''}"
    return f"{head} {body}\n\n" if body else f"{head}\n\n"


def _one_line(text: str) -> str:
    """text with each run of white space and unprintable characters made one space: an error can echo
    what a client or a file sent (a "\\r" in an SGF's CA[...], an escape byte), and a client that reads
    line by line must see one line."""
    return " ".join("".join(c if c.isprintable() else " " for c in text).split())


def _encodable(text: str, encoding: str | None) -> str:
    """text as `encoding` can write it, what it cannot escaped (\\u70b9): an echoed word in any script
    must not fail the write on a cp1252 or ASCII stdout."""
    if not encoding:
        return text
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        return text.encode(encoding, "backslashreplace").decode(encoding)
    except LookupError:  # a stream that names an encoding Python does not know: ASCII is safe in any
        return text.encode("ascii", "backslashreplace").decode("ascii")
    return text


# ---------------------------------------------------------------- serving

_EOF = object()


def _read_line(stream):
    """One line (bytes or str) of at most MAX_LINE + 2 characters, the rest of a longer line
    drained; None at end of input. A long line with a comment in its first MAX_LINE + 2
    characters comes back whole up to the comment's '#' (_comment_head)."""
    line = stream.readline(MAX_LINE + 2)
    if not line:
        return None
    newline, blank = (b"\n", _BLANK_BYTES) if isinstance(line, bytes) else ("\n", _BLANK_CHARS)
    # a run of leading blanks says nothing: drop it, so that what is kept of a long line starts
    # where its content (or comment) does
    while not line.endswith(newline):
        line = line.lstrip(blank)
        if len(line) >= MAX_LINE + 2:
            break
        more = stream.readline(MAX_LINE + 2 - len(line))
        if not more:
            break
        line += more
    if not line.endswith(newline) and len(line) >= MAX_LINE + 2:
        while True:
            more = stream.readline(65536)
            if not more or more.endswith(newline):
                break
        head = _comment_head(line)
        if head is not None:
            return head + newline
    return line


def _comment_head(line):
    """A long line's text up to and with its comment's '#' (bytes or str), when the comment starts
    in its first MAX_LINE + 2 characters; else None. A comment's characters are never read, so
    an over-long comment makes no line too long, however the input's reads split it."""
    at = line.find(b"#" if isinstance(line, bytes) else "#", 0, MAX_LINE + 2)
    return line[: at + 1] if at >= 0 else None


def _fd_lines(fd: int):
    """Lines (bytes) read from a file descriptor with os.read, longer ones cut to MAX_LINE + 2 bytes
    (or to their comment's '#', _comment_head, and then ended as a whole line).

    Why not sys.stdin.buffer.readline: a daemon thread blocked in a BufferedReader holds its
    lock, and the interpreter aborts at exit ("could not acquire lock ... at interpreter
    shutdown") when `quit` ends the engine while the reader waits. os.read holds no lock."""
    pending = b""
    skipping = False  # inside the rest of an over-long line
    held = None  # with skipping: the line up to its comment, yielded whole at the line's newline
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            if held is not None:
                yield held + b"\n"
            elif pending and not skipping:
                yield pending
            return
        pending += chunk
        while True:
            cut = pending.find(b"\n")
            if cut < 0:
                if not skipping:
                    pending = pending.lstrip(_BLANK_BYTES)  # a leading blank run says nothing
                if len(pending) > MAX_LINE + 1:
                    if not skipping:
                        held = _comment_head(pending)
                        if held is None:
                            yield pending[: MAX_LINE + 2]
                    skipping = True
                    pending = b""
                break
            line, pending = pending[: cut + 1], pending[cut + 1:]
            if skipping:
                skipping = False
                if held is not None:
                    yield held + b"\n"
                    held = None
                continue
            yield line


class _Inbox:
    """The input lines read ahead of the command being answered: at most `size` of them (a put then
    waits, and the pipe holds the rest, so a client that sends faster than the engine answers holds
    no more of the engine's memory), and `arrived`, an Event set exactly while one waits, which an
    analysis streams until (engine.execute's interrupt)."""

    def __init__(self, size: int) -> None:
        self._lines: queue.Queue = queue.Queue()  # bounded by _room, not by itself: see put
        self._room = threading.Semaphore(size)
        self.arrived = threading.Event()
        self._handover = threading.Lock()  # a line's put with its set, against take's get with its clear

    def put(self, line) -> None:
        """Queue a line (the reader's thread); waits while `size` lines wait. It waits for room before the
        handover, never inside it: a put that waited for room holding the lock kept take from it, and 65
        lines sent at once hung the engine."""
        self._room.acquire()
        with self._handover:
            self._lines.put(line)
            self.arrived.set()

    def take(self):
        """The next line, waiting for one; `arrived` then says whether another waits. A put sets
        `arrived` inside the handover, so a late set of the line taken cannot follow the clear and
        stop the next command's analysis before it streams."""
        line = self._lines.get()
        self._room.release()
        with self._handover:
            self.arrived.clear()
            if not self._lines.empty():
                self.arrived.set()
        return line


PARENT_POLL = 1.0  # seconds between two looks at whether the engine's parent process is still there


def watch_parent(orphaned: threading.Event, done: threading.Event, poll: float = PARENT_POLL,
                 parent_of=os.getppid) -> None:
    """Set `orphaned` once the process that started this one is gone (its parent id changes: the orphan is
    adopted by init or a subreaper), looking every `poll` seconds from a daemon thread until `done` is set.
    A GUI killed during a genmove left the search running out its budget, up to an hour, for nobody."""
    parent = parent_of()

    def watch() -> None:
        while not done.wait(poll):
            if parent_of() != parent:
                orphaned.set()
                return

    threading.Thread(target=watch, name="gtp-parent", daemon=True).start()


def serve(engine, stdin, stdout) -> int:
    """Answer GTP commands from stdin (text or binary) on stdout until `quit` or end of input; returns 0.
    engine: a GtpEngine (its execute, quit_requested, orphaned and _log)."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        fd = None
    if fd is not None:
        source = _fd_lines(fd)
    else:
        def lines_of(stream):
            while (line := _read_line(stream)) is not None:
                yield line
        source = lines_of(stdin)
    lock = threading.Lock()
    encoding = getattr(stdout, "encoding", None)  # None for a StringIO: it takes any text

    def write(text: str) -> None:
        text = _encodable(text, encoding)  # else the UnicodeEncodeError, a ValueError, read as a closed stdout
        with lock:
            stdout.write(text)
            stdout.flush()

    inbox = _Inbox(QUEUED)

    def reader() -> None:
        try:
            for line in source:
                inbox.put(line)
        except Exception:
            engine._log(f"input reader stopped:\n{traceback.format_exc()}")
        finally:
            inbox.put(_EOF)

    threading.Thread(target=reader, name="gtp-input", daemon=True).start()
    served = threading.Event()
    watch_parent(engine.orphaned, served)
    try:
        return _answer(engine, inbox, write)
    finally:
        served.set()


def _answer(engine, inbox: _Inbox, write) -> int:
    """serve's command loop: each line's response written, until quit, end of input or a closed stdout."""
    while not engine.quit_requested:
        line = inbox.take()
        if line is _EOF:
            break
        try:
            response = engine.execute(line, stream=write, interrupt=inbox.arrived)
        except Exception:  # execute guards its handlers; this is the last line of defence
            engine._log(f"internal error:\n{traceback.format_exc()}")
            response = frame(False, None, "internal error")
        if response:
            try:
                write(response)
            except (BrokenPipeError, ValueError):
                break
    return 0
