"""Where a match's files go: its --sgf-dir and its --json summary.

What it is: the --sgf-dir a match claims before its first engine starts (`claim_sgf_dir`: made if
missing, locked against another match for as long as this one runs, and refused if it holds one of
this match's game files already, unless the match may overwrite them), the file name of each game's
SGF there (`sgf_name`), and the --json file, checked before the first game (`json_path`) and written
whole at the end (`write_json`).

What it is not: the games' contents (match_results.game_sgf and summarize make them), nor a lock
where there is no flock (Windows) or where the file system has no locks (some network mounts): there
the directory is not locked.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from .files import writable, write_whole

try:
    import fcntl
except ImportError:  # not POSIX (Windows): --sgf-dir is not locked there
    fcntl = None  # type: ignore[assignment]


def sgf_name(number: int) -> str:
    """The file name of game `number`'s SGF in an --sgf-dir."""
    return f"game-{number:04d}.sgf"


def claim_sgf_dir(directory: Path, games: int, overwrite: bool) -> int | None:
    """Make `directory` if missing and lock it (lock_directory; its descriptor, for release_sgf_dir),
    then refuse it if it holds one of games 1..`games` already and not `overwrite`; ValueError, with
    the lock released, if it cannot be made, another match holds it, or it holds such a game."""
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise ValueError(f"--sgf-dir {directory}: {error.strerror or error}") from None
    # held from the check below to the match's end: two matches started at once on one directory
    # would otherwise both find it free and write each other's game files
    lock = lock_directory(directory)
    if not overwrite:
        try:
            refuse_earlier_games(directory, games)
        except BaseException:  # a refusal, or Ctrl-C / SIGTERM (KeyboardInterrupt) meanwhile
            release_sgf_dir(lock)
            raise
    return lock


def release_sgf_dir(lock: int | None) -> None:
    """Release a lock that claim_sgf_dir or lock_directory took (None: there is none)."""
    if lock is not None:
        os.close(lock)  # closing the descriptor releases its flock


def lock_directory(directory: Path) -> int | None:
    """An exclusive lock on `directory` (its open descriptor; None where there is no flock, or where the
    directory's file system cannot lock, as some network mounts cannot), or ValueError if another process
    holds it. The lock goes with the process, so a match that was killed leaves none."""
    if fcntl is None:
        return None
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError as error:
        raise ValueError(f"--sgf-dir {directory}: {error.strerror or error}") from None
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:  # another process holds it
        os.close(descriptor)
        raise ValueError(f"--sgf-dir {directory} is in use by another match running now: give each match "
                         "a directory of its own") from None
    except OSError:  # no locks on this file system (ENOLCK, EOPNOTSUPP): go on unlocked, as where there is no flock
        os.close(descriptor)
        return None
    return descriptor


def refuse_earlier_games(directory: Path, games: int) -> None:
    """Raise ValueError if `directory` already holds the SGF of one of games 1..`games` (an earlier match's,
    which this one would overwrite): checked before any engine starts, so nothing is lost or changed."""
    for number in range(1, games + 1):
        path = directory / sgf_name(number)
        if os.path.lexists(path):
            raise ValueError(f"--sgf-dir {directory} already holds {path.name} (an earlier match's games): give "
                             "another directory, or --overwrite to replace them")


def json_path(option: str | None, overwrite: bool = False) -> Path | None:
    """--json's file, checked before any game: None for none or '-' (stdout); ValueError if write_json could
    not write it then (files.writable: a directory, a FIFO or a device, a file or a directory this process may
    not write, a directory missing, also behind a symbolic link), so that no match is played for nothing, or
    if it exists and `overwrite` is not given (as --sgf-dir's files: an earlier match's results are kept)."""
    if option is None or option == "-":
        return None
    path = Path(option)
    if not option.strip() or path.is_dir():
        raise ValueError(f"--json {option!r}: not a file name")
    if os.path.lexists(path) and not overwrite:
        raise ValueError(f"--json {option} exists (an earlier match's results?): give another file, or "
                         "--overwrite to replace it")
    try:
        writable(option)
    except OSError as error:
        raise ValueError(f"--json {option}: {error.strerror or error}") from None
    return path


def write_json(path: Path, summary: dict) -> None:
    """Write `summary` to `path` as JSON, whole (files.write_whole), so that a match stopped while writing
    leaves the old one as it was; OSError if it cannot (files.NotRegularFile if `path` is not a regular file)."""
    write_whole(path, (json.dumps(summary, indent=2) + "\n").encode())
