"""The code passes the linter and the type checker configured in pyproject.toml: ruff ([tool.ruff]:
pyflakes, pycodestyle, import order, bugbear) over foogo/, bench/ and tests/, and mypy ([tool.mypy])
over foogo/."""

import pathlib
import shutil
import subprocess
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent


def installed(tool: str) -> bool:
    return shutil.which(tool) is not None or subprocess.run(
        [sys.executable, "-m", tool, "--version"], capture_output=True).returncode == 0


@pytest.mark.skipif(not installed("ruff"), reason="ruff is not installed (pip install -e '.[test]' installs it)")
def test_ruff_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "ruff", "check", "foogo", "bench", "tests"],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.skipif(not installed("mypy"), reason="mypy is not installed (pip install -e '.[test]' installs it)")
def test_mypy_finds_nothing():
    result = subprocess.run([sys.executable, "-m", "mypy"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
