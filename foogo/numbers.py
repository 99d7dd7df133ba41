"""Reading numbers from text: the one finite-number parser that GTP arguments and `foogo stats` options share.

Imports nothing from foogo, like intervals.py, so any module may use it.
"""

from __future__ import annotations

import math


def finite_number(text: str) -> float:
    """The finite number `text` spells (-0.0 read as 0.0); ValueError saying why not (not a number,
    or infinite or NaN)."""
    word = str(text).strip()
    try:
        value = float(word)
    except ValueError:
        raise ValueError(f"{word!r} is not a number") from None
    if not math.isfinite(value):
        raise ValueError(f"{word!r} is not a finite number")
    return value + 0.0
