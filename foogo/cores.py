"""The cores this process may use: the default thread and process count of searches, playouts, statistics and
`foogo compile`.

Imports nothing from foogo (nor numba), so that a process that only starts others, as `foogo compile` does,
reads it without loading the kernels' modules.
"""

from __future__ import annotations

import os


def default_threads() -> int:
    """The number of cores this process may use (its CPU affinity where the system has one)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1
