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

Where things are:
  request.py    what may be asked (sizes, komi, counts), derived seeds, StatsError
  tally.py      the Tally of scores and the figures computed from it
  chunks.py     the units of work, the plan of a run, fingerprints
  rundir.py     the run directory: manifest, checksummed chunk lines, lock, atomic writes
  executors.py  running chunks here or on a dask cluster
  reports.py    tables, CSV, Markdown and plots
  command.py    the command line
"""

from .chunks import code_fingerprint, fingerprint, plan, random_chunk, run_chunk, selfplay_chunk, selfplay_game
from .command import OUTPUTS, configure_parser, make_manifest, run
from .executors import DASK_CONNECT_TIMEOUT, connect_dask, run_dask, run_local
from .reports import canonical_command, format_markdown, format_table, results, write_plots, write_reports
from .request import (
                      DEFAULT_CHUNK,
                      DEFAULT_KOMI,
                      FORMAT,
                      StatsError,
                      derived_seed,
                      parse_counts,
                      parse_komi,
                      parse_sizes,
)
from .rundir import CHUNKS, LOCK, MANIFEST, RunDir
from .tally import Tally, black_share, fair_komi, quantile_rank, summarize, t95, wilson

__all__ = [
    "CHUNKS", "DASK_CONNECT_TIMEOUT", "DEFAULT_CHUNK", "DEFAULT_KOMI", "FORMAT", "LOCK", "MANIFEST", "OUTPUTS",
    "RunDir", "StatsError", "Tally", "black_share", "canonical_command", "code_fingerprint", "configure_parser",
    "connect_dask", "derived_seed", "fair_komi", "fingerprint", "format_markdown", "format_table", "make_manifest",
    "parse_counts", "parse_komi", "parse_sizes", "plan", "quantile_rank", "random_chunk", "results", "run",
    "run_chunk", "run_dask", "run_local", "selfplay_chunk", "selfplay_game", "summarize", "t95", "wilson",
    "write_plots", "write_reports",
]
