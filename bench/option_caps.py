"""The bench scripts' check of their count and seconds options against the engine's caps, before any work."""

from __future__ import annotations

import argparse
from collections.abc import Iterable


def refuse_counts(parser: argparse.ArgumentParser, counts: Iterable[tuple[str, int | None, int]],
                  least: int = 1) -> None:
    """parser.error unless each (option, value, most) of `counts` has a value of None or from `least` to most."""
    for option, value, most in counts:
        if value is not None and not least <= value <= most:
            parser.error(f"{option} must be from {least} to {most:,}, got {value}")


def refuse_seconds(parser: argparse.ArgumentParser, option: str, value: float, most: float, unit: str = "") -> None:
    """parser.error unless `value` is above 0 and at most `most` (nan and inf are not)."""
    if not 0 < value <= most:
        parser.error(f"{option} must be above 0 and at most {most:g}{unit}, got {value}")
