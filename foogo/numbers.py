"""Reading numbers from text: the one finite-number and whole-number parsers that GTP arguments, command-line
options and `foogo stats` options share (ASCII decimals only), and the one komi check that games, searches,
matches and statistics share.

Imports nothing from foogo, like intervals.py, so any module may use it.
"""

from __future__ import annotations

import argparse
import math
import operator
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
        raise ValueError(f"{shown(word)} is not a number")
    value = float(word)
    if not math.isfinite(value):
        raise ValueError(f"{shown(word)} is not a finite number")
    return value + 0.0


_WHOLE = re.compile(r"[+-]?[0-9]+", re.ASCII)


def whole_number(text: str) -> int:
    """The integer `text` spells in ASCII digits, with an optional sign; ValueError otherwise (Python's
    int() also reads "1_000" and other scripts' digits)."""
    word = str(text).strip()
    if not _WHOLE.fullmatch(word) or len(word) > 4300:  # int()'s own limit on digits
        raise ValueError(f"{shown(word)} is not a whole number")
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


def whole_value(name: str, value) -> int:
    """value as an int (a Python or numpy integer, or a bool); TypeError naming it for anything else (a float,
    a string): the one check of the Python API's counts, so that "2" or 2.5 is refused by name, not deep inside."""
    try:
        return operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be a whole number, got {shown(value)}") from None


def shown(value) -> str:
    """repr(value) for a message, at most 60 characters: an int of 40 digits or more is named by its length,
    and anything whose repr fails (a tuple holding an int past Python's 4,300-digit limit) by its type."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10**40:
        return f"an integer of {_digits(value)} digits"
    if isinstance(value, (str, bytes)) and len(value) > 60:
        value = value[:60]  # repr of a long one is never built whole
    try:
        text = repr(value)
    except ValueError:  # int's digit limit
        return f"a {type(value).__name__} too large to show"
    return cut(text, 60)


def cut(text: str, most: int) -> str:
    """text, or its first most - 3 characters and "..." if it is longer than `most`: a message's echo of what
    a user or a file sent, kept to a size."""
    return text if len(text) <= most else text[:most - 3] + "..."


def _digits(value: int) -> str:
    """How many decimal digits abs(value) has, without str() (which refuses 4,301 or more): exact up to about
    30,000 digits, else a bound."""
    n = abs(value)
    bits = n.bit_length()
    if bits > 100_000:
        return "over 30,000"
    count = (bits - 1) * 30102 // 100_000 + 1  # a lower bound (0.30102 < log10 2): the loop counts up to the digits
    while n >= 10**count:
        count += 1
    return str(count)


def check_komi(komi) -> float:
    """komi as a float; ValueError if it is not a finite number of at most MAX_KOMI either way (None, a
    string that is no number, 10**400 and nan included)."""
    limits = f"komi must be a finite number between -{MAX_KOMI:g} and {MAX_KOMI:g}, got"
    try:
        value = float(komi)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{limits} {shown(komi)}") from None
    if not math.isfinite(value) or abs(value) > MAX_KOMI:
        raise ValueError(f"{limits} {shown(komi)}")
    return value + 0.0
