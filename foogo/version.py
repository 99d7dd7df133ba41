"""Which foogo is running: the package version and, run from a git checkout, its commit and whether the
checkout's foogo/ was modified.

What it is: `source_version` ("0.1.0", or "0.1.0+g2e63947" from a checkout, "0.1.0+g2e63947.dirty"
when foogo/ differs from that commit), which `foogo --version` prints and the GTP `version` command
answers, so that a match's results (foogo match records each engine's version) say which code played,
and an engine started from a working tree being edited says so. Read once per process. What it is not:
a build stamp of the compiled kernels (jit.py's cache keys) or of installed copies (no git: the package
version alone).
"""

from __future__ import annotations

import functools
import subprocess
from pathlib import Path

from . import __version__

PACKAGE_DIR = Path(__file__).resolve().parent
GIT_TIMEOUT = 2.0  # seconds; a git that does not answer leaves the package version alone


def git_local_version(directory: Path) -> str:
    """The local part of a version for the git checkout holding `directory`: "+g" and the short commit,
    ".dirty" after it if files under `directory` differ from the commit (untracked ones included);
    "" when `directory` is not in a checkout or git is missing or fails."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(directory), *args], capture_output=True, text=True,
                              timeout=GIT_TIMEOUT, check=True).stdout.strip()
    try:
        commit = git("rev-parse", "--short", "HEAD")
        changed = git("status", "--porcelain", "--", ".")
    except (OSError, subprocess.SubprocessError):
        return ""
    return f"+g{commit}{'.dirty' if changed else ''}" if commit else ""


@functools.cache
def source_version() -> str:
    """foogo's version, with the commit of the checkout it runs from (git_local_version of foogo/)."""
    return __version__ + git_local_version(PACKAGE_DIR)
