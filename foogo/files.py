"""Opening the files a user, a GUI or a results directory names: regular files only, and never a wait.

`open(path)` on a FIFO waits for a writer for ever, and a device may never end; an SGF, an opening book or
a stats run's files are read through `open_regular`, which opens without waiting (O_NONBLOCK) and refuses
anything but a regular file. The one place for that check (game_sgf, book and stats each had their own).

Files are written through `write_whole`: a new file beside the old, renamed over it, so that a reader sees
the old file or the new one and a failed write leaves the old one as it was; it refuses to replace anything
but a regular file (`open(path, "w")` on a FIFO waits for a reader for ever, and a rename run as root would
put a regular file where /dev/null was). The one place for that (printsgf, pictures, match and stats
results each had their own, or none).

Imports nothing from foogo, like numbers.py, so any module may use it.
"""

from __future__ import annotations

import contextlib
import errno
import os
import secrets
import stat
from typing import BinaryIO


class NotRegularFile(OSError):
    """A path that names something other than a regular file (a FIFO, a device, a directory); an OSError whose
    message (str and strerror) is "not a regular file", as callers report an OSError's strerror."""

    def __init__(self) -> None:
        super().__init__("not a regular file")
        self.strerror = "not a regular file"


def open_regular(path, append: bool = False) -> BinaryIO:
    """`path` opened to read in binary (with `append`: to append, created if missing, as a lock file is),
    if it is a regular file; NotRegularFile otherwise, OSError if it cannot be opened. Opening never waits:
    O_NONBLOCK, which has no effect on a regular file's reads and writes (opened so to write, a FIFO with no
    reader fails at once with ENXIO, also NotRegularFile)."""
    flags = (os.O_WRONLY | os.O_CREAT | os.O_APPEND) if append else os.O_RDONLY
    try:
        fd = os.open(path, flags | getattr(os, "O_NONBLOCK", 0), 0o644)
    except OSError as error:
        if error.errno == errno.ENXIO:
            raise NotRegularFile from None
        raise
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile
        return os.fdopen(fd, "ab" if append else "rb")
    except BaseException:
        os.close(fd)
        raise


def write_whole(path, data: bytes) -> None:
    """Write `data` to `path` whole: to a new file beside it (created afresh, so never a wait), flushed to the
    disk, then renamed over it. A symbolic link is followed (its target replaced, the link kept), and a
    file's permissions are kept. NotRegularFile if `path` names something that is not a regular file (a FIFO,
    a device, a directory), OSError if it cannot be written; either way `path` is left as it was."""
    target = os.path.realpath(path)
    try:
        mode = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    if mode is not None and not stat.S_ISREG(mode):
        raise NotRegularFile
    directory, name = os.path.split(target)
    temporary = os.path.join(directory, f".{name}.{os.getpid()}-{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if mode is not None:
            os.chmod(temporary, stat.S_IMODE(mode))
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise
