"""Reading numbers from text: the one finite-number and whole-number parsers that GTP arguments, command-line
options and `foogo stats` options share (ASCII decimals only), and the one komi check that games, searches,
matches and statistics share.

Imports nothing from foogo, like intervals.py, so any module may use it.
"""

from __future__ import annotations

import argparse
import math
import re

# a decimal number in ASCII, with an optional exponent: what GTP's "float" and a command line's
# numbers spell; Python's float() also reads "1_000", "inf", "nan" and other scripts' digits. The fraction is
# one optional group, so that the digits before a point are read one way only: "[0-9]+\.?[0-9]*" split a
# run of digits every way before failing on what followed (8,000 digits and an "x" took 2.3 s, 100,000 5 min)
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?", re.ASCII)


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


_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)


def whole_number(text: str) -> int:
    """The integer `text` spells in ASCII digits, with an optional sign; ValueError otherwise (Python's
    int() also reads "1_000" and other scripts' digits)."""
    word = str(text).strip()
    if not _WHOLE.fullmatch(word) or len(word) > 4300:  # int()'s own limit on digits
        raise ValueError(f"{word!r} is not a whole number")
    return int(word)


def float_option(text: str) -> float:
    """argparse's type for a number option: finite_number, its error as argparse's message."""
    try:
        return finite_number(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def int_option(text: str) -> int:
    """argparse's type for an integer option: whole_number, its error as argparse's message."""
    try:
        return whole_number(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


MAX_KOMI = 1000.0  # beyond any board's area (25 x 25 = 625): a larger komi only overflows score statistics


def check_komi(komi) -> float:
    """komi as a float; ValueError if it is not a finite number of at most MAX_KOMI either way."""
    value = float(komi)
    if not math.isfinite(value):
        raise ValueError(f"komi must be a finite number, got {komi!r}")
    if abs(value) > MAX_KOMI:
        raise ValueError(f"komi must lie between -{MAX_KOMI:g} and {MAX_KOMI:g}, got {value:g}")
    return value + 0.0
