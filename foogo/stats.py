"""`foogo stats`: how much is black's first move worth? Score statistics from random playouts or self-play.

What it is. A resumable measurement. Work is cut into chunks; a chunk is a
range of playouts (or self-play games) `first .. first + count - 1` of one
group (a board size, or a self-play strength in playouts per move), and its
result depends only on (manifest, group, first, count). Each finished chunk is
appended to DIR/chunks.jsonl at once as one fsynced line of sufficient
statistics (score histogram, stones played, cap hits), so every figure can be
recomputed exactly from the file. Rerunning the same command skips the chunks
already there; the figures then equal those of an uninterrupted run, bit for
bit, whatever the order in which chunks finished, the thread count or the
machines. DIR/manifest.json names the run (mode, seed, sizes, counts, chunk
size, and a fingerprint: a digest of a few playouts or short games, so that
chunks made by code that plays differently are never mixed); a DIR holding
another run is refused before anything is written.

Chunks run locally (random playouts on `run_playouts` threads, self-play games
in a process pool) or, with `--scheduler ADDRESS`, on an existing
dask.distributed cluster (optional extra `foogo[dask]`, imported only then).

Figures per group: n, mean black-minus-white area score (no komi) with its 95%
interval (Student's t), standard deviation, the histogram, median and
fair komi, black's win rate at each komi with Wilson 95% intervals, draws,
mean stones played and cap hits. Output: a terminal table, results.json,
results.csv, histograms.csv, results.md and three PNG plots in DIR.

What it is not. It does not choose moves (the light policy lives in
`playout.py`, the search in `search.py`), it does not judge life and death
itself (self-play games are scored by `Game.score`), and it is not a
benchmark: timings are shown but never stored among the figures.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import io
import json
import math
import os
import sys
import time
from dataclasses import dataclass, field

import numpy as np

from .geometry import BLACK, MAX_SIZE, MIN_SIZE, PASS, RESIGN, WHITE
from .intervals import Z95, wilson
from .playout import default_threads, move_cap, run_playouts

FORMAT = "foogo-stats/1"
DEFAULT_KOMI = (0.0, 0.5, 5.5, 6.5, 7.5)
DEFAULT_CHUNK = {"random": 50_000, "selfplay": 1}
FINGERPRINT_PLAYOUTS = 64  # playouts per size behind a random run's fingerprint
SELFPLAY_FINGERPRINT_PLAYOUTS = 16  # playouts per move in the two games behind a self-play run's fingerprint
DASK_CONNECT_TIMEOUT = "20s"  # how long to try reaching a --scheduler before giving up
CODE_KEYS = ("fingerprint",)  # manifest entries that identify the code, not the request
MANIFEST, CHUNKS, LOCK = "manifest.json", "chunks.jsonl", ".lock"
OUTPUTS = ("results.json", "results.csv", "histograms.csv", "results.md",
           "histograms.png", "mean_score.png", "winrate_komi.png")


class StatsError(ValueError):
    """A request `foogo stats` refuses (bad input, a DIR of another run); nothing has been written."""


# ---------------------------------------------------------------- input

def parse_sizes(text: str) -> list[int]:
    """Board sizes from "9", "5-19" or "9,13,19" (ranges and lists mix), sorted and distinct;
    StatsError unless every size is a whole number in 2..25."""
    sizes: set[int] = set()
    for part in str(text).split(","):
        part = part.strip()
        bounds = part.split("-")
        try:
            if len(bounds) == 1:
                values = [int(bounds[0])]
            elif len(bounds) == 2:
                lo, hi = int(bounds[0]), int(bounds[1])
                if lo > hi:
                    raise StatsError(f"size range {part!r} runs backwards")
                values = list(range(lo, hi + 1))
            else:
                raise ValueError
        except ValueError:
            raise StatsError(f"bad size {part!r} in {text!r}: expected e.g. 9, 5-19 or 9,13,19") from None
        for size in values:
            if not MIN_SIZE <= size <= MAX_SIZE:
                raise StatsError(f"board size {size} out of range {MIN_SIZE}..{MAX_SIZE}")
        sizes.update(values)
    return sorted(sizes)


def parse_komi(text: str) -> list[float]:
    """Komi values from "0,0.5,7.5", sorted and distinct; StatsError for a value that is not a finite number."""
    values = set()
    for part in str(text).split(","):
        try:
            value = float(part)
        except ValueError:
            raise StatsError(f"komi {part.strip()!r} is not a number") from None
        if not math.isfinite(value):
            raise StatsError(f"komi {part.strip()!r} is not a finite number")
        values.add(value + 0.0)  # -0.0 -> 0.0
    return sorted(values)


def parse_counts(text: str, what: str) -> list[int]:
    """Positive integers from "100,1000,10000" (or "1e4"), in the order given, distinct;
    StatsError naming `what` otherwise."""
    out: list[int] = []
    for part in str(text).split(","):
        value = _count(part, what)
        if value in out:
            raise StatsError(f"{what} {value} given twice")
        out.append(value)
    return out


def _count(text: str, what: str) -> int:
    """One positive integer ("1000000" or "1e6"); StatsError naming `what` otherwise."""
    try:
        value = float(text) if any(c in str(text).lower() for c in ".e") else int(text)
    except ValueError:
        raise StatsError(f"{what} must be a whole number >= 1, got {str(text).strip()!r}") from None
    if value != int(value) or value < 1:
        raise StatsError(f"{what} must be a whole number >= 1, got {str(text).strip()!r}")
    return int(value)


def derived_seed(*parts) -> int:
    """A seed in [0, 2**63) from any parts (ints, strings): the same on every machine and Python."""
    digest = hashlib.sha256("/".join(str(p) for p in parts).encode()).digest()
    return int.from_bytes(digest[:8], "little") & (2**63 - 1)


# ---------------------------------------------------------------- sufficient statistics

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
    the Cornish-Fisher expansion, within 1e-4; it tends to the normal 1.95996 as df grows)."""
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
    """The komi at which black's share (draws as half) is 1/2, on the mid-distribution function
    G(s) = P(score > s) + P(score = s) / 2 taken at the scores that occur and joined linearly
    (the "mid-quantile"). Scores are integers, so every komi strictly between two neighbouring
    scores gives the same games; this places the fair komi within that gap."""
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


def summarize(tally: Tally, komi: list[float]) -> dict:
    """Every figure of one group from its tally (n >= 1): plain JSON-ready values, None where undefined."""
    n = tally.n
    hist = tally.histogram()
    total = sum(s * c for s, c in hist)
    squares = sum(s * s * c for s, c in hist)
    mean = total / n
    # exact integer arithmetic up to the one division: the same bits whatever the chunk order
    std = math.sqrt((n * squares - total * total) / (n * (n - 1))) if n > 1 else None
    half = t95(n - 1) * std / math.sqrt(n) if std is not None else None
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
        "ci95": [mean - half, mean + half] if half is not None else None,
        "median": (median_lo + median_hi) / 2,
        "median_ci95": [quantile_rank(hist, r_lo), quantile_rank(hist, r_hi)],
        "fair_komi": fair_komi(hist, n),
        "win": win,
        "moves_mean": tally.moves / n,
        "capped": tally.capped,
        "histogram": {"lo": tally.lo, "counts": list(tally.counts)},
    }


# ---------------------------------------------------------------- chunks: the units of work

def random_chunk(size: int, seed: int, first: int, count: int, threads: int = 1) -> dict:
    """Playouts first .. first + count - 1 from the empty size x size board, seeded `seed`, as a
    chunk record (the same for any thread count). Runs on dask workers too: module-level, plain args."""
    from .board import Board

    start = time.perf_counter()
    batch = run_playouts(Board(size), count, seed=seed, threads=threads, first=first)
    tally = Tally.of(batch.scores, batch.moves, batch.capped)
    return _record(size, first, tally, time.perf_counter() - start)


def fingerprint(sizes: list[int], seed: int) -> str:
    """A digest of the first FINGERPRINT_PLAYOUTS playouts of each size: it changes when the playout
    code would give different results, and not when it only gets faster."""
    from .board import Board

    digest = hashlib.sha256()
    for size in sizes:
        batch = run_playouts(Board(size), FINGERPRINT_PLAYOUTS, seed=derived_seed(seed, "random", size))
        for array in (batch.scores, batch.moves, batch.capped):
            digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    return digest.hexdigest()[:32]


def selfplay_fingerprint(size: int, seed: int, game_komi: float) -> str:
    """A digest of two short self-play games (SELFPLAY_FINGERPRINT_PLAYOUTS playouts per move): it
    changes when the search, playouts or scoring would play or score games differently (at least at
    that strength), and not when the code only gets faster or its comments change."""
    games = [selfplay_game(size, SELFPLAY_FINGERPRINT_PLAYOUTS, derived_seed(seed, "fingerprint", g), game_komi)
             for g in range(2)]
    return hashlib.sha256(json.dumps(games).encode()).hexdigest()[:32]


def code_fingerprint(manifest: dict) -> str:
    """The fingerprint of the code that computes the run `manifest` describes (random or self-play)."""
    if manifest["mode"] == "random":
        return fingerprint(manifest["groups"], manifest["seed"])
    return selfplay_fingerprint(manifest["size"], manifest["seed"], manifest["game_komi"])


def selfplay_game(size: int, playouts_per_move: int, seed: int, game_komi: float) -> tuple[int, int, int]:
    """One game of the UCT search against itself from the empty board, both sides with
    `playouts_per_move` playouts and komi `game_komi`, Chinese rules with positional superko, no
    resignation; it ends after two passes or move_cap(size) moves. Returns (black-minus-white area
    after Game's dead-stone removal, no komi; stones played; 1 if the cap ended it else 0)."""
    from .game import SCORE_PLAYOUTS, Game
    from .search import Search, SearchConfig

    game = Game(size, komi=game_komi, rules="chinese")
    search = Search(SearchConfig(playouts=playouts_per_move, threads=1, seed=seed, resign_threshold=None))
    color, played, stones = BLACK, 0, 0
    while game.last_passes() < 2 and played < move_cap(size):
        result = search.genmove(game.board.copy(), color, game_komi, game.legal_moves(color))
        move = int(result.move)
        if move == RESIGN:
            raise RuntimeError("the search resigned although resign_threshold=None")
        game.play(color, move)
        played += 1
        stones += move != PASS
        color = BLACK + WHITE - color
    capped = int(game.last_passes() < 2)
    game.set_komi(0.0)
    score = game.score(SCORE_PLAYOUTS, seed=derived_seed(seed, "score") & 0x7FFFFFFF)
    return int(round(score)), stones, capped


def selfplay_chunk(size: int, playouts_per_move: int, seed: int, first: int, count: int,
                   game_komi: float) -> dict:
    """Self-play games first .. first + count - 1 at `playouts_per_move` as a chunk record; game g
    uses search seed derived_seed(seed, "selfplay", size, playouts_per_move, g)."""
    start = time.perf_counter()
    games = [selfplay_game(size, playouts_per_move, derived_seed(seed, "selfplay", size, playouts_per_move, g),
                           game_komi) for g in range(first, first + count)]
    tally = Tally.of(*zip(*games))
    record = _record(playouts_per_move, first, tally, time.perf_counter() - start)
    record["games"] = [list(g) for g in games]
    return record


def _record(group: int, first: int, tally: Tally, seconds: float) -> dict:
    return {"group": group, "first": first, "count": tally.n, "lo": tally.lo, "counts": tally.counts,
            "moves": tally.moves, "capped": tally.capped, "seconds": round(seconds, 3)}


def plan(manifest: dict) -> list[tuple[int, int, int]]:
    """Every chunk of a run as (group, first, count), round-robin over the groups (chunk 0 of each
    group, then chunk 1, ...) so that an interrupted run has figures for every group."""
    per_group = {g: manifest["playouts"] if manifest["mode"] == "random" else manifest["games"]
                 for g in manifest["groups"]}
    chunk = manifest["chunk"]
    rounds = max(math.ceil(n / chunk) for n in per_group.values())
    return [(g, k * chunk, min(chunk, n - k * chunk))
            for k in range(rounds) for g, n in per_group.items() if k * chunk < n]


def run_chunk(manifest: dict, group: int, first: int, count: int, threads: int = 1) -> dict:
    """Compute one chunk of the run `manifest` describes (locally or on a dask worker)."""
    if manifest["mode"] == "random":
        return random_chunk(group, derived_seed(manifest["seed"], "random", group), first, count, threads)
    return selfplay_chunk(manifest["size"], group, manifest["seed"], first, count, manifest["game_komi"])


# ---------------------------------------------------------------- the run directory

class RunDir:
    """DIR of one run: manifest.json (what the run is), chunks.jsonl (one fsynced line per finished
    chunk), a lock so that two processes never append at once, and the reports."""

    def __init__(self, path: str):
        self.path = path
        self._lock = None

    def file(self, name: str) -> str:
        """The path of `name` inside DIR."""
        return os.path.join(self.path, name)

    def check(self, manifest: dict) -> bool:
        """True if DIR already holds this run, False if DIR is absent or empty; StatsError (nothing
        touched) if it holds another run, stray files, or a chunk file that does not fit the plan."""
        if not os.path.exists(self.path):
            return False
        if not os.path.isdir(self.path):
            raise StatsError(f"{self.path} exists and is not a directory")
        names = set(os.listdir(self.path))
        if not names:
            return False
        if MANIFEST not in names:
            raise StatsError(f"{self.path} is not empty and holds no {MANIFEST}: not a foogo stats run; "
                             "choose a new or empty directory")
        try:
            with open(self.file(MANIFEST)) as handle:
                existing = json.load(handle)
        except (OSError, ValueError) as error:
            raise StatsError(f"cannot read {self.file(MANIFEST)}: {error}") from None
        if existing != manifest:
            keys = sorted(set(existing) | set(manifest))
            diffs = [f"{key}: DIR has {existing.get(key)!r}, this command {manifest.get(key)!r}"
                     for key in keys if key not in CODE_KEYS and existing.get(key) != manifest.get(key)]
            if diffs:
                raise StatsError(f"{self.path} holds another run; use a new directory or the same "
                                 "arguments.\n  " + "\n  ".join(diffs))
            raise StatsError(f"{self.path} holds this run made by other code: foogo's playouts or search now "
                             "give different results than when it began, so its chunks cannot be mixed with "
                             "new ones; use a new directory (or the foogo version that began it)")
        self.load(manifest)  # raises on a chunk file that does not belong to this plan
        return True

    def create(self, manifest: dict) -> None:
        """Make DIR and write the manifest atomically (temp file + rename)."""
        os.makedirs(self.path, exist_ok=True)
        _write_atomic(self.file(MANIFEST), json.dumps(manifest, indent=1, sort_keys=True) + "\n")

    def lock(self) -> None:
        """Take DIR's lock (released when the process ends, kill -9 included); StatsError if taken."""
        import fcntl

        handle = open(self.file(LOCK), "a")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            raise StatsError(f"another foogo stats is running in {self.path}") from None
        self._lock = handle

    def unlock(self) -> None:
        """Release DIR's lock if this object holds it."""
        if self._lock is not None:
            self._lock.close()
            self._lock = None

    def load(self, manifest: dict, repair: bool = False) -> dict[tuple[int, int], dict]:
        """The finished chunks by (group, first). A torn last line (a write cut short by a kill or a
        power loss) is ignored, and cut off the file when `repair`; any other bad line, or a chunk
        that is not in the plan, raises StatsError."""
        path = self.file(CHUNKS)
        if not os.path.exists(path):
            return {}
        with open(path, "rb") as handle:
            data = handle.read()
        expected = {(g, f): c for g, f, c in plan(manifest)}
        chunks: dict[tuple[int, int], dict] = {}
        good_end = 0
        lines = data.split(b"\n")
        for number, line in enumerate(lines, 1):
            end = good_end + len(line) + 1
            if not line.strip():
                good_end = min(end, len(data))
                continue
            try:
                if number == len(lines):
                    raise ValueError("no newline")
                record = json.loads(line)
            except (ValueError, RecursionError):  # a line cut short, or bytes that are no JSON
                if any(rest.strip() for rest in lines[number:]):
                    raise StatsError(f"{path}: line {number} is damaged and not the last one: nothing "
                                     "is summed (remove the line to recompute that chunk)") from None
                break  # the torn tail of an interrupted write
            problem = _problem(record, manifest, expected)
            if problem:  # a whole line that is wrong was altered, not cut short
                raise StatsError(f"{path}: line {number} {problem}: nothing is summed (remove the "
                                 "line to recompute that chunk)")
            key = (record["group"], record["first"])
            if key in chunks and _essential(chunks[key]) != _essential(record):
                raise StatsError(f"{path}: chunk {key} appears twice with different results")
            chunks[key] = record
            good_end = end
        if repair and good_end < len(data):
            with open(path, "r+b") as handle:
                handle.truncate(good_end)
                handle.flush()
                os.fsync(handle.fileno())
        return chunks

    def append(self, record: dict) -> None:
        """Append one chunk record, with its checksum, as a line and fsync it before returning;
        StatsError (one line) if the disk refuses."""
        line = json.dumps({**record, "sha": _checksum(record)}, separators=(",", ":")) + "\n"
        try:
            with open(self.file(CHUNKS), "a") as handle:
                handle.write(line)
                handle.flush()
                os.fsync(handle.fileno())
        except OSError as error:
            raise StatsError(f"cannot write {self.file(CHUNKS)}: {error.strerror or error}") from None


def _essential(record: dict) -> dict:
    return {k: v for k, v in record.items() if k not in ("seconds", "sha")}


def _checksum(record: dict) -> str:
    """The first 16 hex digits of the SHA-256 of a record's essential fields as canonical JSON."""
    text = json.dumps(_essential(record), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def _is_int(value) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _problem(record, manifest: dict, expected: dict) -> str:
    """What is wrong with a chunk record read back ("" if nothing): its fields and types, its
    checksum, its place in the plan, and every value against its range."""
    if not isinstance(record, dict):
        return "is not a chunk record"
    for name in ("group", "first", "count", "lo", "moves", "capped"):
        if not _is_int(record.get(name)):
            return f"has no whole-number {name!r}"
    counts = record.get("counts")
    if not isinstance(counts, list) or not all(_is_int(c) and c >= 0 for c in counts):
        return "has no list of non-negative counts"
    if record.get("sha") != _checksum(record):
        return "fails its checksum"
    key = (record["group"], record["first"])
    if expected.get(key) != record["count"]:
        return f"holds chunk {key} of {record['count']}, which is not in this run's plan"
    size = record["group"] if manifest["mode"] == "random" else manifest["size"]
    area = size * size
    if sum(counts) != record["count"] or (counts and (counts[0] == 0 or counts[-1] == 0)):
        return "has a histogram that does not add up to its count"
    if record["count"] and not (-area <= record["lo"] and record["lo"] + len(counts) - 1 <= area):
        return "has scores outside the board's area"
    if not (0 <= record["capped"] <= record["count"] and 0 <= record["moves"] <= 3 * area * record["count"]):
        return "has a move or cap count out of range"
    return ""


def _write_atomic(path: str, text: str, binary: bytes | None = None) -> None:
    """Write a file by temp file + fsync + rename: readers see the old or the new one, never a mix."""
    tmp = f"{path}.tmp{os.getpid()}"
    try:
        with open(tmp, "wb") as handle:
            handle.write(binary if binary is not None else text.encode())
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except OSError as error:
        try:
            os.remove(tmp)
        except OSError:
            pass
        raise StatsError(f"cannot write {path}: {error.strerror or error}") from None


# ---------------------------------------------------------------- executors

def run_local(manifest: dict, todo: list, threads: int, on_done) -> None:
    """Run chunks `todo` here: random playouts one chunk at a time on `threads` threads, self-play
    chunks in a pool of `threads` processes. Calls on_done(record) as each one finishes."""
    if manifest["mode"] == "random" or threads == 1:
        for group, first, count in todo:
            on_done(run_chunk(manifest, group, first, count, threads))
        return
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    with ProcessPoolExecutor(max_workers=threads, mp_context=multiprocessing.get_context("spawn")) as pool:
        pending = {pool.submit(run_chunk, manifest, *job) for job in todo}
        try:
            while pending:
                done, pending = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    on_done(future.result())
        except BaseException:
            for future in pending:
                future.cancel()
            raise


def connect_dask(address: str, manifest: dict):
    """A dask.distributed Client of the scheduler at `address`, checked to run playouts identical to
    this process's; StatsError if dask is missing, the scheduler is unreachable or its foogo differs."""
    try:
        from distributed import Client
    except ImportError:
        raise StatsError("--scheduler needs dask.distributed: pip install 'foogo[dask]'") from None
    try:
        client = Client(address, timeout=DASK_CONNECT_TIMEOUT)
    except (OSError, TimeoutError, ValueError) as error:
        raise StatsError(f"cannot reach the dask scheduler at {address}: {error}") from None
    try:
        remote = client.submit(code_fingerprint, manifest, pure=False).result()
        if remote != manifest["fingerprint"]:
            raise StatsError(f"the cluster at {address} runs a foogo whose results differ from this one's")
    except BaseException:
        client.close()
        raise
    return client


def run_dask(client, manifest: dict, todo: list, threads: int, on_done) -> None:
    """Run chunks `todo` as tasks of the dask.distributed `client`, `threads` playout threads per task,
    calling on_done(record) here as each one finishes (in any order)."""
    from distributed import as_completed

    futures = [client.submit(run_chunk, manifest, *job, threads, pure=False) for job in todo]
    try:
        for future in as_completed(futures):
            on_done(future.result())
    except BaseException:
        client.cancel(futures)
        raise


# ---------------------------------------------------------------- reports

def results(manifest: dict, chunks: dict, komi: list[float]) -> dict:
    """The report of a run from its chunks: the manifest, whether every chunk is in, and the figures
    of each group that has any (a pure function of its arguments: no timings)."""
    tallies: dict[int, Tally] = {}
    for key in sorted(chunks):
        r = chunks[key]
        tallies.setdefault(key[0], Tally()).add(Tally(r["count"], r["lo"], r["counts"], r["moves"], r["capped"]))
    groups = []
    for g in manifest["groups"]:
        if g in tallies:
            groups.append({"group": g, **summarize(tallies[g], komi)})
    planned = plan(manifest)
    return {"format": FORMAT, "manifest": manifest, "komi": komi,
            "complete": all((g, f) in chunks for g, f, _ in planned),
            "group_name": "size" if manifest["mode"] == "random" else "playouts_per_move",
            "groups": groups}


def _pct(x: float) -> str:
    return f"{100 * x:6.2f}"


def format_table(report: dict) -> str:
    """The terminal report: one block of score figures and one of black's win rates, a row per group."""
    name = "size" if report["group_name"] == "size" else "po/move"
    m = report["manifest"]
    title = (f"foogo stats: random playouts from the empty board, seed {m['seed']}" if m["mode"] == "random"
             else f"foogo stats: self-play on {m['size']}x{m['size']}, game komi {m['game_komi']}, seed {m['seed']}")
    if not report["complete"]:
        title += "  (PARTIAL: not every chunk is in)"
    lines = [title, "black minus white area score, no komi; 95% intervals",
             f"{name:>7} {'n':>9} {'mean':>8} {'95% CI of mean':>18} {'std':>7} {'median':>7} "
             f"{'fair komi':>9} {'moves':>7} {'capped':>6}"]
    for g in report["groups"]:
        ci = f"[{g['ci95'][0]:+.2f}, {g['ci95'][1]:+.2f}]" if g["ci95"] else "-"
        std = f"{g['std']:7.2f}" if g["std"] is not None else f"{'-':>7}"
        lines.append(f"{g['group']:>7} {g['n']:>9} {g['mean']:>+8.3f} {ci:>18} {std} {g['median']:>+7.1f} "
                     f"{g['fair_komi']:>+9.2f} {g['moves_mean']:>7.1f} {g['capped']:>6}")
    lines.append("")
    lines.append("black win rate % [Wilson 95%] at komi; draws in parentheses where the komi allows them")
    komi = report["komi"]
    width = 19 + max((len(f" ({w['draws']})") for g in report["groups"] for w in g["win"]
                      if w["komi"] == int(w["komi"])), default=0)
    lines.append(f"{name:>7} " + " ".join(f"{'komi ' + _komi_text(k):>{width}}" for k in komi))
    for g in report["groups"]:
        cells = []
        for w in g["win"]:
            low, high = (_pct(x).strip() for x in w["wilson95"])
            cell = f"{_pct(w['black_win_rate']).strip()} [{low},{high}]"
            if w["komi"] == int(w["komi"]):
                cell += f" ({w['draws']})"
            cells.append(f"{cell:>{width}}")
        lines.append(f"{g['group']:>7} " + " ".join(cells))
    lines.append("fair komi: where black's share (draws as half) is 1/2, interpolated between the integer "
                 "scores that occur;")
    lines.append("  any komi strictly between two neighbouring scores gives the same games.")
    return "\n".join(lines)


def _komi_text(k: float) -> str:
    return f"{k:g}"


def write_reports(run: RunDir, report: dict) -> list[str]:
    """Write results.json, results.csv, histograms.csv, results.md and the PNG plots into DIR
    (each atomically); return the paths."""
    paths = []
    _write_atomic(run.file("results.json"), json.dumps(report, indent=1, allow_nan=False) + "\n")
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    head = [report["group_name"], "n", "mean", "ci95_lo", "ci95_hi", "std", "median", "median_ci95_lo",
            "median_ci95_hi", "fair_komi", "moves_mean", "capped"]
    for k in report["komi"]:
        t = _komi_text(k)
        head += [f"win_rate_komi_{t}", f"wilson95_lo_komi_{t}", f"wilson95_hi_komi_{t}", f"draws_komi_{t}",
                 f"black_share_komi_{t}"]
    writer.writerow(head)
    for g in report["groups"]:
        row = [g["group"], g["n"], g["mean"], *(g["ci95"] or ["", ""]), "" if g["std"] is None else g["std"],
               g["median"], *g["median_ci95"], g["fair_komi"], g["moves_mean"], g["capped"]]
        for w in g["win"]:
            row += [w["black_win_rate"], *w["wilson95"], w["draws"], w["black_share"]]
        writer.writerow(row)
    _write_atomic(run.file("results.csv"), out.getvalue())
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow([report["group_name"], "score", "count"])
    for g in report["groups"]:
        for i, c in enumerate(g["histogram"]["counts"]):
            if c:
                writer.writerow([g["group"], g["histogram"]["lo"] + i, c])
    _write_atomic(run.file("histograms.csv"), out.getvalue())
    _write_atomic(run.file("results.md"), format_markdown(report))
    paths += [run.file(n) for n in ("results.json", "results.csv", "histograms.csv", "results.md")]
    if report["groups"]:
        paths += write_plots(run, report)
    return paths


def format_markdown(report: dict) -> str:
    """The figures as a Markdown table (for the README) with the command that made them."""
    m = report["manifest"]
    name = "size" if report["group_name"] == "size" else "playouts/move"
    komi = report["komi"]
    lines = [f"Made by `{canonical_command(m)}`" + ("" if report["complete"] else " (partial)") + "\n",
             f"| {name} | n | mean B-W | 95% CI | std | fair komi | "
             + " | ".join(f"B wins @{_komi_text(k)}" for k in komi) + " | moves | capped |",
             "|" + "---:|" * (8 + len(komi))]
    for g in report["groups"]:
        ci = f"{g['ci95'][0]:+.2f} .. {g['ci95'][1]:+.2f}" if g["ci95"] else "-"
        std = f"{g['std']:.1f}" if g["std"] is not None else "-"
        wins = " | ".join(f"{100 * w['black_win_rate']:.2f}% ±{50 * (w['wilson95'][1] - w['wilson95'][0]):.2f}"
                          + (f" ({100 * w['draws'] / g['n']:.2f}% draws)" if w["draws"] else "") for w in g["win"])
        lines.append(f"| {g['group']} | {g['n']:,} | {g['mean']:+.3f} | {ci} | {std} | {g['fair_komi']:+.2f} | "
                     f"{wins} | {g['moves_mean']:.1f} | {g['capped']} |")
    return "\n".join(lines) + "\n"


def canonical_command(manifest: dict, out: str = "DIR") -> str:
    """The `foogo stats` command line that makes (or continues) the run `manifest` describes."""
    m = manifest
    if m["mode"] == "random":
        sizes = m["groups"]
        text = (f"{sizes[0]}-{sizes[-1]}" if len(sizes) > 1 and sizes == list(range(sizes[0], sizes[-1] + 1))
                else ",".join(map(str, sizes)))
        return (f"foogo stats --sizes {text} --playouts {m['playouts']} --seed {m['seed']} "
                f"--chunk {m['chunk']} --out {out}")
    return (f"foogo stats --selfplay --size {m['size']} --playouts-per-move {','.join(map(str, m['groups']))} "
            f"--games {m['games']} --game-komi {m['game_komi']:g} --seed {m['seed']} --chunk {m['chunk']} --out {out}")


def write_plots(run: RunDir, report: dict) -> list[str]:
    """histograms.png, mean_score.png and winrate_komi.png in DIR (matplotlib, Agg canvas)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    groups = report["groups"]
    random_mode = report["group_name"] == "size"
    label = (lambda g: f"{g}x{g}") if random_mode else (lambda g: f"{g} po/move")
    size = report["manifest"].get("size")
    subtitle = "random playouts" if random_mode else f"self-play {size}x{size}"
    paths = []

    def save(fig, name):
        FigureCanvasAgg(fig)
        buffer = io.BytesIO()
        fig.savefig(buffer, format="png", dpi=110)
        _write_atomic(run.file(name), "", buffer.getvalue())
        paths.append(run.file(name))

    cols = min(4, len(groups))
    rows = math.ceil(len(groups) / cols)
    fig = Figure(figsize=(3.4 * cols, 2.6 * rows), layout="constrained")
    for i, g in enumerate(groups):
        ax = fig.add_subplot(rows, cols, i + 1)
        counts = np.array(g["histogram"]["counts"], dtype=float)
        scores = g["histogram"]["lo"] + np.arange(len(counts))
        seen = counts > 0
        # vertical lines, not bars: 1-point bars narrower than a pixel drop out when rendered
        ax.vlines(scores[seen], 0, counts[seen] / g["n"], color="0.3", lw=0.8)
        ax.set_ylim(bottom=0)
        ax.margins(x=0.04)  # keep the whole-board spikes at +-size*size off the frame
        ax.axvline(0, color="0.6", lw=0.8)
        ax.axvline(g["mean"], color="tab:red", lw=1.0)
        ax.set_title(f"{label(g['group'])}: n={g['n']:,}, mean {g['mean']:+.2f} (red)", fontsize=9)
        ax.tick_params(labelsize=7)
    fig.suptitle(f"Black minus white area score ({subtitle}), share of games per score", fontsize=10)
    save(fig, "histograms.png")

    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.add_subplot()
    xs = [g["group"] for g in groups]
    means = np.array([g["mean"] for g in groups])
    errs = np.array([(g["mean"] - g["ci95"][0]) if g["ci95"] else 0.0 for g in groups])
    ax.errorbar(xs, means, yerr=errs, fmt="o-", capsize=3, label="mean score, 95% CI")
    ax.plot(xs, [g["fair_komi"] for g in groups], "s--", ms=4, label="fair komi (mid-quantile)")
    ax.axhline(0, color="0.6", lw=0.8)
    ax.set_xlabel("board size" if random_mode else "playouts per move")
    if not random_mode:
        ax.set_xscale("log")
    ax.set_xticks(xs, [str(x) for x in xs])
    ax.set_ylabel("black minus white (points)")
    ax.set_title(f"First-move advantage ({subtitle})")
    ax.legend(frameon=False)
    save(fig, "mean_score.png")

    fig = Figure(figsize=(6.4, 4.2), layout="constrained")
    ax = fig.add_subplot()
    from matplotlib import colormaps

    colors = colormaps["viridis"](np.linspace(0, 0.9, len(groups)))  # one hue per group, in order
    for g, color in zip(groups, colors):
        hist = [(g["histogram"]["lo"] + i, c) for i, c in enumerate(g["histogram"]["counts"]) if c]
        grid = np.arange(-15.0, 15.01, 0.5)
        line, = ax.plot(grid, [black_share(hist, g["n"], k) for k in grid], lw=1, color=color,
                        label=label(g["group"]))
        ks = [w["komi"] for w in g["win"]]
        rates = np.array([w["black_win_rate"] for w in g["win"]])
        lo = rates - np.array([w["wilson95"][0] for w in g["win"]])
        hi = np.array([w["wilson95"][1] for w in g["win"]]) - rates
        ax.errorbar(ks, rates, yerr=[lo, hi], fmt=".", color=line.get_color(), capsize=2)
    ax.axhline(0.5, color="0.6", lw=0.8)
    ax.set_xlabel("komi")
    ax.set_ylabel("black win rate")
    ax.set_title(f"Black's win rate against komi ({subtitle})\n"
                 "lines: draws count half; points: wins only, Wilson 95% interval", fontsize=10)
    ax.legend(fontsize=7, ncol=3, frameon=False)
    save(fig, "winrate_komi.png")
    return paths


# ---------------------------------------------------------------- command line

def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add `foogo stats` options to `parser`."""
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="run directory: manifest, chunks and reports; rerun the same command to continue")
    parser.add_argument("--sizes", default=None,
                        help='random playouts: board sizes, e.g. "9", "5-19", "9,13,19" (default 9)')
    parser.add_argument("--playouts", default=None, help="random playouts per size (default 100000; 1e6 accepted)")
    parser.add_argument("--selfplay", action="store_true", help="measure self-play games of the UCT search instead")
    parser.add_argument("--size", default=None, help="self-play: board size (default 9)")
    parser.add_argument("--playouts-per-move", default=None,
                        help="self-play: search strengths, e.g. 100,1000,10000 (default 100,1000)")
    parser.add_argument("--games", default=None, help="self-play: games per strength (default 100)")
    parser.add_argument("--game-komi", default=None,
                        help="self-play: the komi the players play for (default 7.5); scores are reported without it")
    parser.add_argument("--komi", default=",".join(f"{k:g}" for k in DEFAULT_KOMI),
                        help="komi values for the win rates (default 0,0.5,5.5,6.5,7.5); report only")
    parser.add_argument("--seed", default="0", help="seed of the run (default 0)")
    parser.add_argument("--chunk", default=None,
                        help=f"playouts (random, default {DEFAULT_CHUNK['random']}) or games "
                             f"(self-play, default {DEFAULT_CHUNK['selfplay']}) per chunk")
    parser.add_argument("--threads", default=None,
                        help="local: playout threads (random) or game processes (self-play), default every core; "
                             "with --scheduler: playout threads per task, default 1")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the chunks on this dask.distributed scheduler (needs foogo[dask])")
    parser.add_argument("--max-chunks", default=None,
                        help="stop after this many new chunks; rerun to continue")
    parser.add_argument("--report-only", action="store_true",
                        help="compute no chunk: report what DIR holds (may be partial; no lock taken)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no table")


def make_manifest(args: argparse.Namespace) -> dict:
    """The run's identity from parsed arguments (all checked here); StatsError for bad input."""
    seed = _seed(args.seed)
    if args.selfplay:
        if args.sizes is not None or args.playouts is not None:
            raise StatsError("with --selfplay give --size, --playouts-per-move and --games "
                             "(not --sizes or --playouts)")
        sizes = parse_sizes(args.size if args.size is not None else "9")
        if len(sizes) != 1:
            raise StatsError("--size takes one board size")
        _require_search()
        game_komi = parse_komi(args.game_komi if args.game_komi is not None else "7.5")
        if len(game_komi) != 1:
            raise StatsError("--game-komi takes one value")
        return {"format": FORMAT, "mode": "selfplay", "seed": seed, "size": sizes[0],
                "groups": parse_counts(args.playouts_per_move or "100,1000", "playouts per move"),
                "games": _count(args.games or "100", "games"), "game_komi": game_komi[0],
                "rules": "chinese", "chunk": _count(args.chunk or str(DEFAULT_CHUNK["selfplay"]), "chunk")}
    if args.size is not None or args.playouts_per_move is not None or args.games is not None \
            or args.game_komi is not None:
        raise StatsError("--size, --playouts-per-move, --games and --game-komi need --selfplay "
                         "(random playouts take --sizes and --playouts)")
    return {"format": FORMAT, "mode": "random", "seed": seed,
            "groups": parse_sizes(args.sizes or "9"),
            "playouts": _count(args.playouts or "100000", "playouts"),
            "chunk": _count(args.chunk or str(DEFAULT_CHUNK["random"]), "chunk")}


def _seed(text) -> int:
    try:
        seed = int(text)
    except ValueError:
        raise StatsError(f"seed must be an integer, got {text!r}") from None
    if not 0 <= seed < 2**63:
        raise StatsError(f"seed must be in 0..2**63-1, got {seed}")
    return seed


def _require_search() -> None:
    """StatsError unless foogo.search (the UCT search that self-play needs) is installed."""
    import importlib.util

    if importlib.util.find_spec(f"{__package__}.search") is None:
        raise StatsError("self-play needs foogo.search (the UCT search), which this foogo does not have yet")


def run(args: argparse.Namespace) -> int:
    """Run (or continue) `foogo stats` as parsed by configure_parser; returns the exit code."""
    try:
        return _run(args)
    except StatsError as error:
        print(f"foogo stats: error: {error}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    komi = parse_komi(args.komi)
    threads = None if args.threads is None else _count(args.threads, "threads")
    max_chunks = None if args.max_chunks is None else _count(args.max_chunks, "max-chunks")
    manifest = make_manifest(args)
    manifest["fingerprint"] = code_fingerprint(manifest)
    run_dir = RunDir(args.out)
    exists = run_dir.check(manifest)  # nothing written before this line
    if args.report_only:
        if not exists:
            raise StatsError(f"{args.out} holds no run to report")
        return _report(run_dir, manifest, run_dir.load(manifest), komi, args.quiet)
    client = connect_dask(args.scheduler, manifest) if args.scheduler else None
    try:
        if not exists:
            run_dir.create(manifest)
        run_dir.lock()
        return _compute(args, run_dir, manifest, komi, threads, max_chunks, client)
    finally:
        run_dir.unlock()
        if client is not None:
            client.close()


def _compute(args, run_dir: RunDir, manifest: dict, komi: list[float], threads: int | None,
             max_chunks: int | None, client) -> int:
    chunks = run_dir.load(manifest, repair=True)
    todo = [job for job in plan(manifest) if (job[0], job[1]) not in chunks]
    if max_chunks is not None:
        todo = todo[:max_chunks]
    weight = (lambda job: job[2]) if manifest["mode"] == "random" else (lambda job: job[0] * job[2])
    total = sum(weight(j) for j in plan(manifest))
    done = total - sum(weight(j) for j in plan(manifest) if (j[0], j[1]) not in chunks)
    weights = {(g, f): weight((g, f, c)) for g, f, c in todo}
    from tqdm import tqdm

    unit = "playouts" if manifest["mode"] == "random" else "po-budget"
    with tqdm(total=total, initial=done, unit=unit, unit_scale=True, file=sys.stderr, smoothing=0.05,
              disable=args.quiet or not todo, desc="foogo stats") as bar:
        def on_done(record):
            key = (record["group"], record["first"])
            run_dir.append(record)
            chunks[key] = record
            bar.update(weights[key])

        try:
            if client is not None:
                run_dask(client, manifest, todo, threads or 1, on_done)
            else:
                run_local(manifest, todo, threads or default_threads(), on_done)
        except KeyboardInterrupt:
            bar.close()
            print(f"foogo stats: interrupted; {len(chunks)} chunks are safe in {args.out}: "
                  "rerun the same command to continue", file=sys.stderr)
            raise
    return _report(run_dir, manifest, chunks, komi, args.quiet)


def _report(run_dir: RunDir, manifest: dict, chunks: dict, komi: list[float], quiet: bool) -> int:
    report = results(manifest, chunks, komi)
    write_reports(run_dir, report)
    if not quiet:
        print(format_table(report))
        print(f"reports in {run_dir.path}: " + ", ".join(OUTPUTS))
    if not report["complete"]:
        print(f"foogo stats: {len(chunks)} of {len(plan(manifest))} chunks done; "
              "rerun the same command to continue", file=sys.stderr)
    return 0
