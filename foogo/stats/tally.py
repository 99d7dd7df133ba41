"""Sufficient statistics of `foogo stats`: the Tally of a set of scores (an exact, order-free
histogram) and the figures computed from it (mean with Student's t interval, win rates with
Wilson intervals, fair komi, median)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from ..intervals import Z95, wilson


@dataclass
class Tally:
    """Sufficient statistics of a set of scores: n, the histogram (counts[i] games scored lo + i),
    total stones played and cap hits. Adding tallies is exact and order-free."""

    n: int = 0
    lo: int = 0
    counts: list[int] = field(default_factory=list)
    moves: int = 0
    capped: int = 0

    @classmethod
    def of(cls, scores, moves, capped) -> "Tally":
        """The tally of per-playout arrays (scores int, moves, capped 0/1)."""
        scores = np.asarray(scores, dtype=np.int64)
        if scores.size == 0:
            return cls()
        lo = int(scores.min())
        counts = np.bincount(scores - lo)
        return cls(int(scores.size), lo, [int(c) for c in counts],
                   int(np.asarray(moves, dtype=np.int64).sum()), int(np.asarray(capped, dtype=np.int64).sum()))

    def add(self, other: "Tally") -> None:
        """Add `other` into this tally."""
        if other.n == 0:
            return
        if self.n == 0:
            self.lo, self.counts = other.lo, list(other.counts)
        else:
            lo = min(self.lo, other.lo)
            hi = max(self.lo + len(self.counts), other.lo + len(other.counts))
            merged = [0] * (hi - lo)
            for base, counts in ((self.lo, self.counts), (other.lo, other.counts)):
                for i, c in enumerate(counts):
                    merged[base - lo + i] += c
            self.lo, self.counts = lo, merged
        self.n += other.n
        self.moves += other.moves
        self.capped += other.capped

    def histogram(self) -> list[tuple[int, int]]:
        """(score, count) for every score that occurred, ascending."""
        return [(self.lo + i, c) for i, c in enumerate(self.counts) if c]


# two-sided 95% quantiles of Student's t for 1..30 degrees of freedom
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145,
        2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048,
        2.045, 2.042)


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with `df` >= 1 degrees of freedom (a table to 30, then
    the Cornish-Fisher expansion, within 1e-4 beyond; the table's three decimals are within 5e-4; it tends to
    the normal 1.95996 as df grows)."""
    if df <= len(_T95):
        return _T95[df - 1]
    z = Z95
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df * df)


def black_share(hist: list[tuple[int, int]], n: int, komi: float) -> float:
    """Black's expected result at `komi` with a draw counted as half a win."""
    wins = sum(c for s, c in hist if s > komi)
    draws = sum(c for s, c in hist if s == komi)
    return (wins + draws / 2) / n


def fair_komi(hist: list[tuple[int, int]], n: int) -> float:
    """The fair komi as the scores' mid-median: where black's share (draws as half) passes 1/2 on the
    mid-distribution function G(s) = P(score > s) + P(score = s) / 2 taken at the scores that occur and
    joined linearly (the "mid-quantile"; Ma, Genton and Parzen 2011). Scores are integers, so every komi
    strictly between two neighbouring scores gives the same games; this places the fair komi within that gap,
    where black's actual share is the same on both sides of it (read it from the win rates)."""
    points = []  # (score, G(score)), G decreasing
    above = n
    for s, c in hist:
        above -= c
        points.append((s, (above + c / 2) / n))
    if points[0][1] <= 0.5:
        return float(points[0][0])
    for (s0, g0), (s1, g1) in zip(points, points[1:]):
        if g1 <= 0.5 <= g0:
            return s0 + (s1 - s0) * (g0 - 0.5) / (g0 - g1)
    return float(points[-1][0])


def quantile_rank(hist: list[tuple[int, int]], rank: int) -> int:
    """The score of the `rank`-th smallest game (1-based)."""
    seen = 0
    for s, c in hist:
        seen += c
        if seen >= rank:
            return s
    return hist[-1][0]


def summarize(tally: Tally, komi: list[float], size: int) -> dict:
    """Every figure of one group from its tally (n >= 1) on a size x size board: plain JSON-ready
    values, None where undefined (the mean's interval of one game, or of games that all scored alike). The mean's
    interval is clipped to the scores a board allows (-size^2 .. size^2): with few games Student's t can reach
    past them."""
    n = tally.n
    hist = tally.histogram()
    total = sum(s * c for s, c in hist)
    squares = sum(s * s * c for s, c in hist)
    mean = total / n
    # exact integer arithmetic up to the one division: the same bits whatever the chunk order
    std = math.sqrt((n * squares - total * total) / (n * (n - 1))) if n > 1 else None
    # one distinct score: Student's t would give a zero-width interval, which no sample of a random score supports
    half = t95(n - 1) * std / math.sqrt(n) if std else None
    # median and its distribution-free 95% interval from binomial order statistics
    median_lo = quantile_rank(hist, (n + 1) // 2)
    median_hi = quantile_rank(hist, n // 2 + 1)
    r_lo = max(1, math.floor(n / 2 - Z95 * math.sqrt(n) / 2))
    r_hi = min(n, math.ceil(n / 2 + 1 + Z95 * math.sqrt(n) / 2))
    win = []
    for k in komi:
        wins = sum(c for s, c in hist if s > k)
        losses = sum(c for s, c in hist if s < k)
        draws = n - wins - losses
        lo, hi = wilson(wins, n)
        win.append({"komi": k, "black_wins": wins, "white_wins": losses, "draws": draws,
                     "black_win_rate": wins / n, "wilson95": [lo, hi],
                     "black_share": (wins + draws / 2) / n})
    return {
        "n": n,
        "mean": mean,
        "std": std,
        "ci95": [max(mean - half, -size * size), min(mean + half, size * size)] if half is not None else None,
        "median": (median_lo + median_hi) / 2,
        "median_ci95": [quantile_rank(hist, r_lo), quantile_rank(hist, r_hi)],
        "fair_komi": fair_komi(hist, n),
        "win": win,
        "moves_mean": tally.moves / n,
        "capped": tally.capped,
        "histogram": {"lo": tally.lo, "counts": list(tally.counts)},
    }
