"""Opening the files a user, a GUI or a results directory names: regular files only, and never a wait.

`open(path)` on a FIFO waits for a writer for ever, and a device may never end; an SGF, an opening book or
a stats run's files are read through `open_regular`, which opens without waiting (O_NONBLOCK) and refuses
anything but a regular file. The one place for that check (game_sgf, book and stats each had their own).

Imports nothing from foogo, like numbers.py, so any module may use it.
"""

from __future__ import annotations

import os
import stat
from typing import BinaryIO


class NotRegularFile(OSError):
    """A path that names something other than a regular file (a FIFO, a device, a directory); an OSError whose
    message (str and strerror) is "not a regular file", as callers report an OSError's strerror."""

    def __init__(self) -> None:
        super().__init__("not a regular file")
        self.strerror = "not a regular file"


def open_regular(path) -> BinaryIO:
    """`path` opened to read in binary, if it is a regular file; NotRegularFile otherwise, OSError if it cannot
    be opened. Opening never waits: O_NONBLOCK, which has no effect on a regular file's reads."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegularFile
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
