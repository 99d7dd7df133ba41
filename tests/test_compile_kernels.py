"""`foogo compile`: every part compiled (here: loaded from the warm cache) in processes of its own."""

import io

import pytest

from foogo import cli
from foogo import compile_kernels as ck


def test_foogo_compile_readies_every_part_and_says_so(capsys):
    assert cli.main(["compile", "--jobs", "2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sorted(line.split()[2] for line in lines[:-1]) == sorted(ck.PARTS)
    assert all(" ready in " in line for line in lines)
    assert lines[-1].startswith("foogo compile: every kernel ready in ")


def test_a_part_that_fails_gives_its_exit_code_and_the_other_parts_still_run(monkeypatch):
    monkeypatch.setattr(ck, "PARTS", ("no-such-part", "board"))
    out = io.StringIO()
    assert ck.compile_all(jobs=1, out=out) == 2  # the part's process refuses the name: argparse's exit code
    report = out.getvalue()
    assert "no-such-part failed (exit 2)" in report and "board ready in " in report


def test_bad_requests_are_refused():
    with pytest.raises(ValueError, match="unknown part"):
        ck.compile_part("everything")
    with pytest.raises(ValueError, match="jobs must be at least 1"):
        ck.compile_all(jobs=0)
    for jobs in ("0", "9", "two", "1_0"):
        with pytest.raises(SystemExit):
            cli.main(["compile", "--jobs", jobs])


def test_a_parts_process_imports_this_checkouts_foogo(monkeypatch):
    import os

    import foogo

    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    path = ck._child_environment()["PYTHONPATH"].split(os.pathsep)
    assert path == [os.path.dirname(os.path.dirname(os.path.abspath(foogo.__file__))), "/elsewhere"]
