"""Confidence intervals for win rates: the one Wilson interval that `foogo stats` and `foogo match` report.

What it is: plain arithmetic with no dependency on the rest of foogo, so that match.py,
which pits any two GTP engines and imports none of the engine, can use it too.
"""

from __future__ import annotations

import math

Z95 = 1.959963984540054  # two-sided 95% normal quantile


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval (low, high) for `successes` out of `n` (a draw may count as half a
    success); (0, 1) when n is 0. The bound is exactly 0 with no success and exactly 1 with all."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1.0 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    # at 0 or n successes rounding would leave 1e-17 or 0.9999999999999999
    low = 0.0 if successes <= 0 else max(0.0, centre - half)
    high = 1.0 if successes >= n else min(1.0, centre + half)
    return low, high
