"""Reading numbers from text: the one finite-number parser that GTP arguments and `foogo stats` options share,
and the one komi check that games, searches, matches and statistics share.

Imports nothing from foogo, like intervals.py, so any module may use it.
"""

from __future__ import annotations

import math
import re

# a decimal number in ASCII, with an optional exponent: what GTP's "float" and a command line's
# numbers spell; Python's float() also reads "1_000", "inf", "nan" and other scripts' digits
_NUMBER = re.compile(r"[+-]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


def finite_number(text: str) -> float:
    """The finite number `text` spells in ASCII decimal, with an optional exponent (-0.0 read as
    0.0); ValueError saying why not (not such a number, or beyond a float's range)."""
    word = str(text).strip()
    if not _NUMBER.fullmatch(word):
        raise ValueError(f"{word!r} is not a number")
    value = float(word)
    if not math.isfinite(value):
        raise ValueError(f"{word!r} is not a finite number")
    return value + 0.0


MAX_KOMI = 1000.0  # beyond any board's area (25 x 25 = 625): a larger komi only overflows score statistics


def check_komi(komi) -> float:
    """komi as a float; ValueError if it is not a finite number of at most MAX_KOMI either way."""
    value = float(komi)
    if not math.isfinite(value):
        raise ValueError(f"komi must be a finite number, got {komi!r}")
    if abs(value) > MAX_KOMI:
        raise ValueError(f"komi must lie between -{MAX_KOMI:g} and {MAX_KOMI:g}, got {value:g}")
    return value + 0.0
