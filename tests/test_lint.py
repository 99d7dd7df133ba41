"""The code passes the linter configured in pyproject.toml ([tool.ruff]): pyflakes, pycodestyle,
import order and bugbear, over foogo/, bench/ and tests/."""

import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


@pytest.mark.skipif(shutil.which("ruff") is None and subprocess.run(
    [sys.executable, "-m", "ruff", "--version"], capture_output=True).returncode != 0,
    reason="ruff is not installed (pip install -e '.[test]' installs it)")
def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "foogo", "bench", "tests"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
