"""Which foogo is running: the version with the checkout's commit, and whether it was modified."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from foogo import __version__
from foogo.version import PACKAGE_DIR, git_local_version, source_version

needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _git(repo, *args):
    return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True).stdout.strip()


@needs_git
def test_a_checkout_gives_its_commit_and_a_modified_one_says_dirty(tmp_path):
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / "pkg" / "a.py").write_text("x = 1\n")
    (repo / "notes.txt").write_text("outside the package\n")
    _git(repo, "init", "-q")
    _git(repo, "add", ".")
    _git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "-m", "one")
    commit = _git(repo, "rev-parse", "--short", "HEAD")
    assert git_local_version(repo / "pkg") == f"+g{commit}"
    (repo / "notes.txt").write_text("edited outside the package\n")  # not the package's code
    assert git_local_version(repo / "pkg") == f"+g{commit}"
    (repo / "pkg" / "a.py").write_text("x = 2\n")
    assert git_local_version(repo / "pkg") == f"+g{commit}.dirty"
    (repo / "pkg" / "a.py").write_text("x = 1\n")
    (repo / "pkg" / "new.py").write_text("y = 1\n")  # an untracked module is loaded too
    assert git_local_version(repo / "pkg") == f"+g{commit}.dirty"


def test_outside_a_checkout_the_package_version_stands_alone(tmp_path):
    assert git_local_version(tmp_path) == ""
    assert git_local_version(tmp_path / "missing") == ""


def test_foogo_answers_its_version_with_the_commit_it_runs_from():
    version = source_version()
    assert version.startswith(__version__)
    local = git_local_version(PACKAGE_DIR)
    assert version == __version__ + local
    out = subprocess.run([sys.executable, "-m", "foogo", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"foogo {version}"
