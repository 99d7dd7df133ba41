"""The bench scripts' checks of their options before any work: counts and seconds against the engine's caps, and
an --out directory that holds an earlier match's jobs."""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from pathlib import Path


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


def refuse_earlier_jobs(parser: argparse.ArgumentParser, out: Path) -> None:
    """parser.error if `out` holds an earlier parallel match's job summaries (job-N.json) or games (job-N/*.sgf,
    which a match stopped before its summary leaves): its jobs would refuse to overwrite that match's games, and
    its old summaries would be read as this match's."""
    earlier = sorted(out.glob("job-*.json")) + sorted(out.glob("job-*/*.sgf")) if out.is_dir() else []
    if earlier:
        name = earlier[0].relative_to(out)
        parser.error(f"--out {out} holds an earlier match's {name}: give another directory")
