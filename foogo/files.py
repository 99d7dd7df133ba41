"""Opening the files a user, a GUI or a results directory names: regular files only, and never a wait.

`open(path)` on a FIFO waits for a writer for ever, and a device may never end; an SGF, an opening book or
a stats run's files are read through `open_regular`, which opens without waiting (O_NONBLOCK) and refuses
anything but a regular file. The one place for that check (game_sgf, book and stats each had their own).

Files are written through `write_whole`: a new file beside the old, renamed over it, so that a reader sees
the old file or the new one and a failed write leaves the old one as it was (in place where no rename can
replace it: a directory closed to new files, a bind-mounted file, hard links); it refuses to replace anything
but a regular file (`open(path, "w")` on a FIFO waits for a reader for ever, and a rename run as root would
put a regular file where /dev/null was). The one place for that (printsgf, pictures, match and stats
results and the compiler set-up's record of the kernels' code each had their own, or none).

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


# an existing file that a rename cannot replace (its directory closed to new files, another user's file in a
# sticky directory, a file bind-mounted on its own, across devices) is written in place instead
_IN_PLACE = (errno.EACCES, errno.EPERM, errno.EBUSY, errno.EXDEV)


def writable(path) -> tuple[str, os.stat_result | None]:
    """Where write_whole(path, ...) writes (a symbolic link's target) and that file's stat (None while it does
    not exist), if it may write there: NotRegularFile if `path` names something that is not a regular file (a
    FIFO, a device, a directory, a name ending in a separator), PermissionError if the file, or the directory
    of a new one, may not be written, FileNotFoundError if that directory is missing. write_whole checks it
    first; so does work whose result goes there, before it starts (foogo match's --json)."""
    text = os.fsdecode(os.fspath(path))
    if text.endswith(os.sep) or (os.altsep and text.endswith(os.altsep)):
        raise NotRegularFile
    target = os.path.realpath(text)
    try:
        old = os.stat(target)
    except FileNotFoundError:
        directory = os.path.dirname(target)
        if not os.path.isdir(directory):
            raise FileNotFoundError(errno.ENOENT, f"no directory {directory}", text) from None
        if not os.access(directory, os.W_OK):
            raise PermissionError(errno.EACCES, f"the directory {directory} is not writable", text) from None
        return target, None
    if not stat.S_ISREG(old.st_mode):
        raise NotRegularFile
    if not os.access(target, os.W_OK):
        raise PermissionError(errno.EACCES, "not writable", text)
    return target, old


def write_whole(path, data: bytes) -> None:
    """Write `data` to `path` whole where it can: to a new file beside it (created afresh, so never a wait),
    flushed to the disk, then renamed over it, so that a reader sees the old file or the new one and a failed
    write leaves the old one as it was. A symbolic link is followed (its target replaced, the link kept), and
    an existing file's mode, and where allowed its owner, are kept. An existing file that the rename cannot
    replace (_IN_PLACE), or that has other names (hard links), is written in place. The errors of `writable`
    if it may not write there, OSError if it cannot; the file is then as it was."""
    target, old = writable(path)
    if old is not None and old.st_nlink > 1:
        _write_in_place(target, data)
        return
    try:
        _write_beside(target, data, old)
    except OSError as error:
        if old is None or error.errno not in _IN_PLACE:
            raise
        _write_in_place(target, data)


def _write_beside(target: str, data: bytes, old: os.stat_result | None) -> None:
    """write_whole's rename: a new file in target's directory (a short name of its own, so that a target's
    name near the file system's limit fits), written, flushed, given the old file's mode and owner, renamed
    over target, and the rename flushed to the disk with the directory (_sync_directory); removed on any
    failure."""
    temporary = os.path.join(os.path.dirname(target), f".foogo-{os.getpid()}-{secrets.token_hex(4)}.tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o666)
    try:
        try:
            _write_all(fd, data)
            os.fsync(fd)
        finally:
            os.close(fd)
        if old is not None:
            os.chmod(temporary, stat.S_IMODE(old.st_mode))
            if hasattr(os, "chown") and (old.st_uid, old.st_gid) != (os.geteuid(), os.getegid()):
                with contextlib.suppress(OSError):  # only root may give a file away
                    os.chown(temporary, old.st_uid, old.st_gid)
        os.replace(temporary, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(temporary)
        raise
    _sync_directory(os.path.dirname(target))  # target is absolute (writable: realpath), so never ""


def _sync_directory(directory: str) -> None:
    """Flush a directory's entries (a rename in it) to the disk, so that a crash just after write_whole keeps
    the new file, where the system lets a directory be opened (POSIX; not Windows); nothing if it cannot."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    with contextlib.suppress(OSError):
        fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _write_in_place(target: str, data: bytes) -> None:
    """write_whole where no rename can: the regular file target opened without waiting, written from its
    start, cut to data's length and flushed."""
    fd = os.open(target, os.O_WRONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile
        _write_all(fd, data)
        os.ftruncate(fd, len(data))
        os.fsync(fd)
    finally:
        os.close(fd)


def _write_all(fd: int, data: bytes) -> None:
    """Write every byte of data to fd (os.write may write part)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
