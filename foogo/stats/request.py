"""What a `foogo stats` request may ask: board sizes, komi values and counts parsed from the
command line, the seeds derived from it, and the error for what it may not (StatsError)."""

from __future__ import annotations

import hashlib

from ..geometry import MAX_SIZE, MIN_SIZE
from ..numbers import check_komi, finite_number, whole_number

FORMAT = "foogo-stats/1"  # results.json's format
DEFAULT_KOMI = (0.0, 0.5, 5.5, 6.5, 7.5)
DEFAULT_CHUNK = {"random": 50_000, "selfplay": 1}
# what one run may ask, so that no request (or damaged manifest) plans without bound: a chunk's playouts
# are held in memory at once (a few bytes each), and the plan is a list of chunks
MAX_CHUNK = {"random": 10_000_000, "selfplay": 10_000}
MAX_RUN_CHUNKS = 100_000


class StatsError(ValueError):
    """A request `foogo stats` refuses (bad input, a DIR of another run); nothing has been written."""

def parse_sizes(text: str) -> list[int]:
    """Board sizes from "9", "5-19" or "9,13,19" (ranges and lists mix), sorted and distinct;
    StatsError unless every size is a whole number in 2..25."""
    sizes: set[int] = set()
    for part in str(text).split(","):
        part = part.strip()
        bounds = part.split("-")
        try:
            if len(bounds) == 1:
                values = [whole_number(bounds[0])]
            elif len(bounds) == 2:
                lo, hi = whole_number(bounds[0]), whole_number(bounds[1])
                if lo > hi:
                    raise StatsError(f"size range {part!r} runs backwards")
                values = [lo, hi] if lo < MIN_SIZE or hi > MAX_SIZE else list(range(lo, hi + 1))  # checked below
            else:
                raise ValueError
        except StatsError:
            raise  # a range that runs backwards says so (a StatsError is a ValueError)
        except ValueError:
            raise StatsError(f"bad size {part!r} in {text!r}: expected e.g. 9, 5-19 or 9,13,19") from None
        for size in values:
            if not MIN_SIZE <= size <= MAX_SIZE:
                raise StatsError(f"board size {size} out of range {MIN_SIZE}..{MAX_SIZE}")
        sizes.update(values)
    return sorted(sizes)


def check_run_size(mode: str, per_group: list[int], chunk: int) -> None:
    """StatsError unless a run of `per_group` playouts (random) or games (self-play) in each group, in
    chunks of `chunk`, keeps within MAX_CHUNK and MAX_RUN_CHUNKS."""
    if chunk > MAX_CHUNK[mode]:
        raise StatsError(f"chunk must be at most {MAX_CHUNK[mode]:,} ({mode}), got {chunk:,}")
    chunks = sum(-(-n // chunk) for n in per_group)
    if chunks > MAX_RUN_CHUNKS:
        what = "playouts" if mode == "random" else "games"
        raise StatsError(f"a run may have at most {MAX_RUN_CHUNKS:,} chunks, and this one would have {chunks:,}: "
                         f"ask fewer {what} or a larger --chunk (at most {MAX_CHUNK[mode]:,})")


def parse_komi(text: str) -> list[float]:
    """Komi values from "0,0.5,7.5", sorted and distinct; StatsError for a value that is not a finite number
    or lies beyond numbers.MAX_KOMI."""
    values = set()
    for part in str(text).split(","):
        try:
            value = finite_number(part)
        except ValueError as error:
            raise StatsError(f"komi {error}") from None
        try:
            values.add(check_komi(value))
        except ValueError as error:
            raise StatsError(str(error)) from None
    return sorted(values)


def parse_counts(text: str, what: str) -> list[int]:
    """Positive integers from "100,1000,10000" (or "1e4"), in the order given, distinct;
    StatsError naming `what` otherwise."""
    out: list[int] = []
    for part in str(text).split(","):
        value = parse_count(part, what)
        if value in out:
            raise StatsError(f"{what} {value} given twice")
        out.append(value)
    return out


def parse_count(text: str, what: str) -> int:
    """One positive integer ("1000000" or "1e6"); StatsError naming `what` otherwise."""
    try:
        value = finite_number(text) if any(c in str(text).lower() for c in ".e") else whole_number(text)
    except ValueError:
        raise StatsError(f"{what} must be a whole number >= 1, got {str(text).strip()!r}") from None
    if value != int(value) or value < 1:
        raise StatsError(f"{what} must be a whole number >= 1, got {str(text).strip()!r}")
    return int(value)


def derived_seed(*parts) -> int:
    """A seed in [0, 2**63) from any parts (ints, strings): the same on every machine and Python."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "little") & (2**63 - 1)
