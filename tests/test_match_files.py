"""Where a match's files go (match_files.py): the --json file checked and kept, and the --sgf-dir
refused when it holds earlier games, locked while a match writes to it and let go however it stops."""

import argparse
import errno
import json
import os
import subprocess
import sys

import pytest
from match_double import play_match, run_match

from foogo import match_files
from foogo.match import Match
from foogo.match_command import configure_parser
from foogo.match_files import lock_directory


def test_json_keeps_an_earlier_matchs_results_unless_told_to_overwrite(tmp_path, fake, capsys):
    earlier = tmp_path / "earlier.json"
    earlier.write_text('{"old": true}')
    common = ["--black", fake(), "--white", fake(), "--games", "1", "--size", "5", "--referee", "none", "--quiet"]
    assert run_match(*common, "--json", str(earlier)) == 2
    assert "exists" in capsys.readouterr().err and earlier.read_text() == '{"old": true}'
    assert run_match(*common, "--json", str(earlier), "--overwrite") == 0
    assert json.loads(earlier.read_text())["games"] == 1


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
