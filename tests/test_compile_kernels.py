"""`foogo compile`: every part compiled (here: loaded from the warm cache) in processes of its own."""

import io
import os
import sys
import time
import types

import pytest

from foogo import cli
from foogo import compile_kernels as ck


def test_foogo_compile_readies_every_part_and_says_so(capsys):
    assert cli.main(["compile", "--jobs", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sorted(line.split(": ")[1].split(" ready in ")[0] for line in lines[:-1]) == ["board", "search, shared"]
    assert all(" ready in " in line for line in lines)
    assert lines[-1].startswith("foogo compile: every kernel ready in ")


def test_with_fewer_processes_than_parts_the_shared_tree_follows_the_search_in_its_process():
    assert ck.process_groups(3) == ck.process_groups(8) == [("search",), ("shared",), ("board",)]
    assert ck.process_groups(2) == [("search", "shared"), ("board",)]
    assert ck.process_groups(1) == [("search", "shared", "board")]
    assert ck.process_groups(1, ["no-such-part", "board"]) == [("no-such-part", "board")]
    assert ck.process_groups(2, ["no-such-part", "board"]) == [("no-such-part",), ("board",)]
    assert 1 <= ck.default_jobs() <= len(ck.PARTS)


def test_a_part_that_fails_gives_its_exit_code_and_the_other_parts_still_run(monkeypatch):
    monkeypatch.setattr(ck, "PARTS", ("no-such-part", "board"))
    out = io.StringIO()
    assert ck.compile_all(jobs=2, out=out) == 1  # the part's process refuses the name
    report = out.getvalue()
    assert "no-such-part failed (exit 1)" in report and "board ready in " in report


def test_in_one_process_a_part_that_fails_leaves_the_next_to_compile(monkeypatch, capsys):
    done = []

    def compile_part(name):
        if name not in ck.PARTS:
            raise ValueError(f"unknown part {name!r}")
        done.append(name)
    monkeypatch.setattr(ck, "compile_part", compile_part)
    args = ck.argparse.Namespace(part=["search", "no-such-part", "board"], jobs=None)
    assert ck.run(args) == 1 and done == ["search", "board"]
    assert "part no-such-part failed" in capsys.readouterr().err


def test_bad_requests_are_refused():
    with pytest.raises(ValueError, match="unknown part"):
        ck.compile_part("everything")
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        ck.compile_all(jobs=0)
    for jobs in ("0", "9", "two", "1_0"):
        with pytest.raises(SystemExit):
            cli.main(["compile", "--jobs", jobs])


def test_a_parts_process_imports_this_checkouts_foogo(monkeypatch):
    import foogo

    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    path = ck._child_environment()["PYTHONPATH"].split(os.pathsep)
    assert path == [os.path.dirname(os.path.dirname(os.path.abspath(foogo.__file__))), "/elsewhere"]


def test_a_part_past_its_timeout_is_stopped(monkeypatch, tmp_path):
    started = _sleeping_parts(monkeypatch, tmp_path)
    out = io.StringIO()
    assert ck.compile_all(jobs=3, out=out, timeout=0.5) == 1
    assert out.getvalue().count("stopped (signal 9)") == len(ck.PARTS) == len(started)
    assert not any(_alive(pid) for pid in started)


def test_an_interrupt_stops_the_parts_still_running(monkeypatch, tmp_path):
    started = _sleeping_parts(monkeypatch, tmp_path)

    def interrupt(seconds):
        raise KeyboardInterrupt
    monkeypatch.setattr(ck, "time", types.SimpleNamespace(perf_counter=time.perf_counter, sleep=interrupt))
    with pytest.raises(KeyboardInterrupt):
        ck.compile_all(jobs=2)
    assert len(started) == 2 and not any(_alive(pid) for pid in started)


def _sleeping_parts(monkeypatch, tmp_path) -> list[int]:
    """Make every part's process a Python that sleeps a minute; returns the pids started."""
    script = tmp_path / "sleeper.py"
    script.write_text("import time\ntime.sleep(60)\n")
    real, started = ck.subprocess.Popen, []

    def popen(args, **kwargs):
        process = real([sys.executable, str(script)], **kwargs)
        started.append(process.pid)
        return process
    monkeypatch.setattr(ck.subprocess, "Popen", popen)
    return started


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True
