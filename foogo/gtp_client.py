"""A GTP client: one Go engine run as a subprocess and spoken to over its pipes, with timeouts.

What it is: `GtpClient`, which starts an engine (any GTP program: foogo, GNU Go, Pachi, ...),
sends it numbered commands and reads their responses through a reader thread, so that every
command can time out; it kills the process on a timeout or a broken frame and restarts it on
request, and drains the engine's stderr into a log. The errors it raises tell an engine's `?`
answer (`GtpError`) from a process that can no longer be used (`GtpFailure`: `GtpTimeout`,
`GtpCrash`). `foogo match` and the bench scripts that measure other engines use it.

What it is not: an engine (foogo's own GTP engine is foogo.gtp) or a referee: it parses
GTP's framing, never a command's meaning. Like foogo.match it imports nothing of the engine (only
foogo.files, which opens its stderr log), so it starts in a moment.
"""

from __future__ import annotations

import collections
import io
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time
from pathlib import Path
from typing import Sequence

from .files import open_regular

_RESPONSE_RE = re.compile(r"^([=?])([0-9]*)(.*)$", re.DOTALL)
_CONTROL: dict[int, str | None] = {c: None for c in range(32) if c not in (9, 10)}
_CONTROL[9] = " "
_CONTROL[127] = None
_CLOCK_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
# what an engine's output may hold in this process, whatever it writes: a line is cut after LINE_MAX
# bytes (the rest of it dropped), at most LINES_AHEAD lines wait unread (the engine's pipe then fills
# and it waits), and a response may have at most RESPONSE_LINES lines and RESPONSE_BYTES bytes (a
# GtpCrash beyond). Real engines' responses are far smaller: a 19x19 ownership line is some 3 KB.
LINE_MAX = 1 << 20
PIPE_BUFFER = 1 << 16  # bytes an engine's output pipe is read by at once (readline read one a call)
LOG_MAX_BYTES = 64 << 20  # an engine's stderr log file: past it the rest is drained, not written
LINES_AHEAD = 4096
RESPONSE_LINES = 1 << 16
RESPONSE_BYTES = 1 << 24


class GtpError(Exception):
    """The engine answered a command with `?`; the message is the engine's text."""


class GtpFailure(Exception):
    """The engine failed as a process: it is no longer usable until restarted."""


class GtpTimeout(GtpFailure):
    """The engine did not finish its response within the timeout."""


class GtpCrash(GtpFailure):
    """The engine exited, could not be started, or broke the GTP framing."""


def _clean_line(raw: bytes) -> str:
    """Decode one output line and drop CR and control characters (HT becomes a space)."""
    return raw.decode("utf-8", "replace").rstrip("\n").translate(_CONTROL)


class GtpClient:
    """One GTP engine run as a subprocess, spoken to over its stdin/stdout pipes.

    Commands carry numeric ids; a response must echo the id or carry none.
    Reading is done by a thread feeding a queue, so every command can time out.
    On a timeout or a crash the process is killed and `alive` turns false;
    `start()` starts a fresh process. The engine's stderr is drained by another
    thread into `log_path` (appended) if given, and its last lines are kept for
    error messages; it never reaches our stdout.
    """

    def __init__(self, command: str | Sequence[str], *, log_path: str | os.PathLike | None = None,
                 tail_lines: int = 20) -> None:
        """Prepare a client for `command` (a shell-like string or an argv list); does not start it."""
        argv = shlex.split(command) if isinstance(command, str) else [str(a) for a in command]
        if not argv:
            raise ValueError("empty engine command")
        self.argv: list[str] = argv
        self.log_path = Path(log_path) if log_path is not None else None
        self._tail: collections.deque[str] = collections.deque(maxlen=tail_lines)
        self._proc: subprocess.Popen | None = None
        self._lines: queue.Queue = queue.Queue(LINES_AHEAD)
        self._stopping = threading.Event()  # set when the process is gone: the stdout pump then stops
        self._threads: list[threading.Thread] = []
        self._next_id = 0
        self._broken = False

    # -- process management ------------------------------------------------

    def start(self) -> None:
        """Start (or restart) the engine process; raise GtpCrash if it cannot be started."""
        self.kill()
        try:
            proc = subprocess.Popen(self.argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                    stderr=subprocess.PIPE, bufsize=0, start_new_session=True)
        except OSError as exc:
            raise GtpCrash(f"cannot start {shlex.join(self.argv)}: {exc}") from exc
        self._proc = proc
        self._lines = queue.Queue(LINES_AHEAD)
        self._stopping = threading.Event()
        self._broken = False
        self._threads = [
            threading.Thread(target=_pump_stdout, args=(proc.stdout, self._lines, self._stopping), daemon=True),
            threading.Thread(target=_pump_stderr, args=(proc.stderr, self._tail, self.log_path), daemon=True),
        ]
        for thread in self._threads:
            thread.start()

    @property
    def alive(self) -> bool:
        """True while the process runs and the client has seen no timeout or crash."""
        return self._proc is not None and not self._broken and self._proc.poll() is None

    @property
    def pid(self) -> int | None:
        """The engine process's id while it has one (e.g. to read its CPU time), else None."""
        return None if self._proc is None else self._proc.pid

    def cpu_seconds(self) -> float | None:
        """User + system CPU seconds the engine has used so far: its process and every other process of
        its session (start() gives it one of its own), children they have reaped included, from
        /proc; None where /proc cannot tell (no process, or not Linux). A shell wrapper's engine
        counts too. Read in a few milliseconds (one stat file per process on the machine)."""
        proc = self._proc
        if proc is None:
            return None
        return session_cpu_seconds(proc.pid)

    @property
    def returncode(self) -> int | None:
        """The process's exit status once it has exited, else None."""
        return None if self._proc is None else self._proc.poll()

    def stderr_tail(self) -> str:
        """The last lines the engine wrote to stderr (for error reports)."""
        return "\n".join(self._tail)

    def kill(self) -> None:
        """Kill the process (and its process group) at once and reap it; safe to call twice."""
        proc, self._proc = self._proc, None
        self._broken = True
        if proc is None:
            return
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGKILL)  # its own session: see start()
            except (ProcessLookupError, PermissionError, AttributeError):
                proc.kill()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - unkillable process
            pass
        self._finish(proc)

    def close(self, timeout: float = 2.0) -> None:
        """Send `quit`, wait up to `timeout` seconds for the process to exit, then kill it."""
        proc = self._proc
        if proc is None:
            return
        if self.alive:
            try:
                self.send("quit", timeout=timeout)
            except (GtpError, GtpFailure):
                pass
            try:
                proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                pass
        self.kill()

    def _finish(self, proc: subprocess.Popen) -> None:
        """Stop the pump threads (the stdout pump may wait for room in a full queue: it gives up
        once told to stop), then close the pipes."""
        self._stopping.set()
        for thread in self._threads:
            thread.join(timeout=1.0)
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    def _fail(self, exc: GtpFailure) -> GtpFailure:
        """Kill the engine and return `exc` with the engine's last stderr lines appended."""
        proc = self._proc
        if proc is not None and isinstance(exc, GtpCrash):
            try:
                proc.wait(timeout=0.5)  # let an exiting engine finish so its code and stderr are known
            except subprocess.TimeoutExpired:
                pass
        self.kill()
        tail = self.stderr_tail()
        if tail:
            exc.args = (f"{exc.args[0]}; stderr ends: {tail[-500:]}",)
        return exc

    # -- protocol ----------------------------------------------------------

    def send(self, command: str, timeout: float | None = None) -> str:
        """Send one command; return the response text, raise GtpError on `?`, GtpTimeout or GtpCrash."""
        if not self.alive:
            code = self.returncode
            raise GtpCrash("engine is not running" if code is None else f"engine exited with code {code}")
        command = command.replace("\n", " ").strip()
        self._next_id += 1
        cid = self._next_id
        deadline = None if timeout is None else time.monotonic() + timeout
        proc = self._proc
        assert proc is not None and proc.stdin is not None  # alive
        try:
            proc.stdin.write(f"{cid} {command}\n".encode())
            proc.stdin.flush()
        except (OSError, ValueError) as exc:
            raise self._fail(GtpCrash(f"engine exited before {command!r} (code {self.returncode})")) from exc
        while True:
            sign, rid, text = self._read_response(command, timeout, deadline)
            if rid is None or rid == cid:
                break
            if rid > cid:
                raise self._fail(GtpCrash(f"response id {rid} to command {cid} {command!r}"))
            # rid < cid: a late answer to an earlier command; skip it
        if sign == "?":
            raise GtpError(text)
        return text

    def _read_response(self, command: str, timeout: float | None, deadline: float | None):
        """Read one response: (sign, id or None, text). Blank lines before it are skipped; GtpCrash
        for a response over RESPONSE_LINES lines or RESPONSE_BYTES characters."""
        lines: list[str] = []
        size = 0
        while True:
            line = self._get_line(command, timeout, deadline)
            size += len(line) + 1
            if len(lines) >= RESPONSE_LINES or size > RESPONSE_BYTES:
                raise self._fail(GtpCrash(f"response to {command!r} over {RESPONSE_LINES} lines or "
                                          f"{RESPONSE_BYTES} characters"))
            if not lines:
                if not line.strip():
                    continue
                if line[0] not in "=?":
                    raise self._fail(GtpCrash(f"malformed response to {command!r}: {line[:200]!r}"))
                lines.append(line)
            elif not line.strip():
                break
            else:
                lines.append(line)
        match = _RESPONSE_RE.match(lines[0])
        assert match is not None  # lines[0] was read as starting with = or ?
        sign, rid, first = match.group(1), match.group(2), match.group(3).strip()
        text = "\n".join([first] + [ln.rstrip() for ln in lines[1:]]).strip("\n")
        return sign, (int(rid) if rid else None), text

    def _get_line(self, command: str, timeout: float | None, deadline: float | None) -> str:
        """Next stdout line, or raise GtpTimeout at the deadline / GtpCrash at EOF."""
        remaining = None if deadline is None else max(0.0, deadline - time.monotonic())
        try:
            item = self._lines.get(timeout=remaining)
        except queue.Empty:
            raise self._fail(GtpTimeout(f"no answer to {command!r} within {timeout:g} s")) from None
        if item is None:
            proc = self._proc
            code = None
            if proc is not None:
                try:
                    code = proc.wait(timeout=1.0)
                except subprocess.TimeoutExpired:
                    pass
            raise self._fail(GtpCrash(f"engine closed its output during {command!r} (exit code {code})"))
        return _clean_line(item)

    def __enter__(self) -> GtpClient:
        if self._proc is None:
            self.start()
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()


def session_cpu_seconds(sid: int, proc_dir: str = "/proc") -> float | None:
    """User + system CPU seconds of the processes of session `sid` (each one's own, and that of the
    children it has reaped), from proc_dir's stat files; None if proc_dir has no such session."""
    ticks = 0
    found = False
    try:
        names = os.listdir(proc_dir)
    except OSError:
        return None
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"{proc_dir}/{name}/stat", "rb") as handle:
                stat = handle.read()
        except OSError:  # gone since the listing, or not ours to read
            continue
        # after the command's closing parenthesis: state is field 3 of stat(5), session 6, utime 14 .. cstime 17
        fields = stat[stat.rfind(b")") + 2:].split()
        try:
            if int(fields[3]) != sid:
                continue
            ticks += int(fields[11]) + int(fields[12]) + int(fields[13]) + int(fields[14])
        except (IndexError, ValueError):
            continue
        found = True
    return ticks / _CLOCK_TICKS if found else None


def _read_line(stream) -> bytes:
    """One line of stream (b"" at EOF), cut after LINE_MAX bytes: the rest of a longer line is read
    and dropped, and the line still ends with its newline."""
    raw = stream.readline(LINE_MAX)
    if len(raw) >= LINE_MAX and not raw.endswith(b"\n"):
        while True:
            more = stream.readline(LINE_MAX)
            if not more or more.endswith(b"\n"):
                break
        raw += b"\n"
    return raw


def _buffered(stream):
    """An engine's pipe as the pumps read it: a raw pipe (Popen's bufsize=0, which keeps stdin unbuffered) behind
    a buffer, whose readline takes what the pipe holds at once (the raw one's read a byte a system call: 1.2 MB/s,
    and an engine's 3 MB of stderr held its answer 2.4 s on its clock); anything else as it is."""
    return io.BufferedReader(stream, PIPE_BUFFER) if isinstance(stream, io.RawIOBase) else stream


def _pump_stdout(stream, lines: queue.Queue, stopping: threading.Event) -> None:
    """Thread body: move stdout lines (_read_line) into the queue, waiting while it is full, then
    None at EOF; ends without more once `stopping` is set."""

    def put(item) -> bool:
        while not stopping.is_set():
            try:
                lines.put(item, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    stream = _buffered(stream)
    try:
        for raw in iter(lambda: _read_line(stream), b""):
            if not put(raw):
                return
    except (OSError, ValueError):
        pass
    put(None)


def _pump_stderr(stream, tail: collections.deque, log_path: Path | None) -> None:
    """Thread body: drain stderr into the log file (if any) and the tail buffer. A log that cannot be opened
    (a FIFO there had blocked this thread for ever, and the engine with it once its stderr pipe filled) is
    left out, with a note in the tail, and stderr is drained all the same."""
    log = None
    if log_path is not None:
        try:
            log = open_regular(log_path, append=True)
        except OSError as error:
            tail.append(f"(stderr not logged to {log_path}: {error.strerror or error})")
    stream = _buffered(stream)
    try:
        for raw in iter(lambda: stream.readline(LINE_MAX), b""):  # a longer line comes in pieces
            tail.append(_clean_line(raw))
            if log is not None:
                if log.tell() + len(raw) > LOG_MAX_BYTES:  # the file's size, earlier starts' lines included
                    log.write(f"\n(the rest of the engine's stderr is not logged: over {LOG_MAX_BYTES >> 20} MiB)\n"
                              .encode())
                    log.close()
                    log = None
                    continue
                log.write(raw)
                log.flush()
    except (OSError, ValueError):
        pass
    finally:
        if log is not None:
            log.close()
