"""files.py: regular files only, read without waiting and written whole."""

import errno
import os
import stat
import threading

import pytest

from foogo.files import NotRegularFile, open_regular, write_whole


def finished_within(seconds, job):
    """job()'s outcome ("ok" or the exception's name), or None if it is still running after `seconds`."""
    outcome = []

    def run():
        try:
            job()
            outcome.append("ok")
        except Exception as error:  # noqa: BLE001 (reported to the test)
            outcome.append(type(error).__name__)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    return outcome[0] if outcome else None


def test_write_whole_writes_a_new_file_and_replaces_an_old_one_keeping_its_mode(tmp_path):
    path = tmp_path / "game.sgf"
    write_whole(path, b"first")
    assert path.read_bytes() == b"first"
    os.chmod(path, 0o600)
    write_whole(str(path), b"second")
    assert path.read_bytes() == b"second" and stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert os.listdir(tmp_path) == ["game.sgf"]  # no temporary file left


@pytest.mark.skipif(not hasattr(os, "O_DIRECTORY"), reason="a directory cannot be opened to flush it here")
def test_write_whole_flushes_the_file_and_then_its_directory(tmp_path, monkeypatch):
    """The rename is an entry of the directory: without flushing the directory too, a crash just after
    write_whole could find the old file, or none."""
    flushed = []
    real = os.fsync

    def fsync(fd):
        info = os.fstat(fd)
        flushed.append("directory" if stat.S_ISDIR(info.st_mode) else "file")
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    write_whole(tmp_path / "game.sgf", b"data")
    assert flushed == ["file", "directory"]


def test_write_whole_follows_a_link_and_keeps_it(tmp_path):
    target = tmp_path / "real.sgf"
    target.write_bytes(b"old")
    link = tmp_path / "link.sgf"
    link.symlink_to(target)
    write_whole(link, b"new")
    assert link.is_symlink() and target.read_bytes() == b"new"


def test_write_whole_refuses_what_is_not_a_regular_file_at_once_and_changes_nothing(tmp_path):
    fifo = tmp_path / "x.fifo"
    os.mkfifo(fifo)  # nobody reads it: open(fifo, "w") waits for ever
    for path in (fifo, tmp_path, "/dev/null"):
        assert finished_within(30, lambda path=path: write_whole(path, b"data")) == "NotRegularFile"
    assert stat.S_ISFIFO(os.stat(fifo).st_mode) and sorted(os.listdir(tmp_path)) == ["x.fifo"]
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)


def test_a_failed_write_leaves_the_old_file_and_no_temporary(tmp_path):
    path = tmp_path / "keep.json"
    path.write_bytes(b"earlier")
    with pytest.raises(TypeError):
        write_whole(path, "text, not bytes")
    with pytest.raises(FileNotFoundError):
        write_whole(tmp_path / "missing" / "x.json", b"data")
    assert path.read_bytes() == b"earlier" and os.listdir(tmp_path) == ["keep.json"]


def test_open_regular_refuses_a_fifo_without_waiting(tmp_path):
    fifo = tmp_path / "x.fifo"
    os.mkfifo(fifo)
    assert finished_within(30, lambda: open_regular(fifo)) == "NotRegularFile"
    with pytest.raises(NotRegularFile, match="not a regular file"):
        open_regular(tmp_path)


def test_open_regular_to_append_creates_a_file_and_refuses_a_fifo_with_no_reader_at_once(tmp_path):
    with open_regular(tmp_path / "lock", append=True) as handle:
        handle.write(b"x")
    assert (tmp_path / "lock").read_bytes() == b"x"
    fifo = tmp_path / "x.fifo"
    os.mkfifo(fifo)  # opened to write without a reader: ENXIO at once (O_NONBLOCK), or a wait for ever without it
    assert finished_within(30, lambda: open_regular(fifo, append=True)) == "NotRegularFile"


def test_write_whole_takes_a_name_near_the_file_systems_limit(tmp_path):
    path = tmp_path / ("g" * 240 + ".sgf")  # the temporary file's name once added 22 characters to it
    write_whole(path, b"data")
    assert path.read_bytes() == b"data" and os.listdir(tmp_path) == [path.name]


def test_write_whole_refuses_a_name_ending_in_a_separator(tmp_path):
    with pytest.raises(NotRegularFile):
        write_whole(f"{tmp_path / 'game.sgf'}{os.sep}", b"data")  # realpath dropped the slash: game.sgf was written
    assert os.listdir(tmp_path) == []


def test_write_whole_writes_a_hard_linked_file_in_place_for_all_its_names(tmp_path):
    path = tmp_path / "game.sgf"
    path.write_bytes(b"old and longer")
    os.link(path, tmp_path / "other.sgf")
    write_whole(path, b"new")
    assert (tmp_path / "other.sgf").read_bytes() == b"new" and path.read_bytes() == b"new"


@pytest.mark.parametrize("code", [errno.EACCES, errno.EPERM, errno.EBUSY])
def test_a_file_the_rename_cannot_replace_is_written_in_place(tmp_path, monkeypatch, code):
    # a directory closed to new files (EACCES), another user's file in a sticky /tmp (EPERM), a file
    # bind-mounted on its own (EBUSY): open(path, "w") wrote them, and printsgf must still
    path = tmp_path / "game.sgf"
    path.write_bytes(b"old and longer")

    def refuse(*args):
        raise OSError(code, os.strerror(code))

    monkeypatch.setattr(os, "replace", refuse)
    write_whole(path, b"new")
    assert path.read_bytes() == b"new" and os.listdir(tmp_path) == ["game.sgf"]
    with pytest.raises(OSError):
        write_whole(tmp_path / "missing.sgf", b"new")  # nothing to write in place: the rename's error
    assert os.listdir(tmp_path) == ["game.sgf"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write a read-only file")
def test_write_whole_refuses_a_file_it_may_not_write(tmp_path):
    path = tmp_path / "game.sgf"
    path.write_bytes(b"old")
    os.chmod(path, 0o444)  # open(path, "w") refuses it; the rename had replaced it
    with pytest.raises(PermissionError):
        write_whole(path, b"new")
    assert path.read_bytes() == b"old"
