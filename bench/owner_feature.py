"""Would a Monte-Carlo owner feature improve the learned prior? A held-out test before any engine work.

    python bench/owner_feature.py SGF_DIR [SGF_DIR ...] --test DIR [DIR ...] [--player NAME]
                                  [--playouts 32] [--buckets 8] [--min-count 50] [--iterations 40] [--jobs 2]

Coulom's 2007 move model has a feature the engine's prior lacks: the Monte-Carlo owner, the share of
playouts from the position that leave the candidate point the mover's. This script reads the same moves
as bench/learn_gammas.py (game_positions: the candidates the tree would consider, the move played, only
`--player`'s moves), runs --playouts heavy playouts from each position (playout_ownership.ownership) and puts each
candidate's ownership for the mover, -1 (the opponent's every time) .. +1 (the mover's), in one of --buckets
equal bins. It then fits learn_gammas' model twice on the same training positions, without the owner group
and with it as a seventh group, and rates the --test games' moves with each: the mean log probability of
the move played, its top-1 and top-5 rates, and the paired difference in mean log p, position by position,
with its 95% interval. Nothing is written: a gain here would have to be large enough to be worth a search
seeding an ownership map before its prior rates a node, and a match.
"""

from __future__ import annotations

import argparse
import sys
import time
from multiprocessing import Pool
from pathlib import Path

import numpy as np
from learn_gammas import (
    MAX_ITERATIONS,
    Data,
    evaluate,
    feature_count,
    feature_ids,
    fit,
    frequent_spatial,
    game_positions,
    team_totals,
)
from option_caps import refuse_counts

from foogo import BLACK, playout_ownership
from foogo import features as fe
from foogo import gamma_table as gt

MAX_PLAYOUTS = 10_000  # --playouts: a position's ownership map
MAX_BUCKETS = 64


def owner_bucket(ownership: np.ndarray, buckets: int) -> np.ndarray:
    """Each mover's ownership in -1..+1 as one of `buckets` equal bins, 0 (the opponent's) .. buckets - 1."""
    return np.minimum(np.floor((np.asarray(ownership) + 1.0) / 2.0 * buckets).astype(np.int64), buckets - 1)


def owner_samples(path: Path, player: str, playouts: int, buckets: int, seed: int) -> list:
    """(feats, chosen) for each learnable move of one game, as learn_gammas.game_samples gives them, with one
    more column: each candidate's owner bucket, from `playouts` heavy playouts from the position."""
    out = []
    for k, (board, c, moves, feats, chosen) in enumerate(game_positions(path, player=player)):
        own = playout_ownership.ownership(board, playouts=playouts, seed=seed + k, policy="heavy")  # row * size + col
        mine = own[board.geometry.bit_of[moves]] * (1 if c == BLACK else -1)
        columns = [feats.astype(np.int64), fe.spatial_codes(board, c, moves)[:, None],
                   owner_bucket(mine, buckets)[:, None]]
        out.append((np.concatenate(columns, axis=1), chosen))
    return out


def _work(job):
    path, player, playouts, buckets, seed = job
    return owner_samples(Path(path), player, playouts, buckets, seed)


def collect(files, player: str, playouts: int, buckets: int, jobs: int, seed: int) -> list:
    """owner_samples of every file, in order, on `jobs` processes (file k's positions seeded from seed + 10**6 k)."""
    work = [(str(path), player, playouts, buckets, seed + 10**6 * k) for k, path in enumerate(files)]
    if jobs == 1:
        return [s for job in work for s in _work(job)]
    with Pool(jobs) as pool:
        return [s for found in pool.map(_work, work, chunksize=8) for s in found]


def owner_ids(data: Data, owner: np.ndarray, classes, spatial, buckets: int) -> tuple[np.ndarray, np.ndarray, int]:
    """(learn_gammas' feature ids, the same with the owner group's ids as a last column, the features' count
    with it)."""
    ids = feature_ids(data.raw, classes, spatial)
    n = feature_count(classes, spatial)
    return ids, np.concatenate([ids, (n + owner)[:, None]], axis=1), n + buckets


def split(samples, class_of) -> tuple[Data, np.ndarray]:
    """(learn_gammas' Data of the samples without their owner column, that column)."""
    data = Data([(f[:, :-1], k) for f, k in samples], class_of)
    return data, np.concatenate([f[:, -1] for f, _ in samples])


def log_p(data: Data, ids: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """Each position's log probability of the move played."""
    team, total = team_totals(data, ids, gamma)
    return np.log(team[data.chosen] / total)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="directories of training games (searched recursively)")
    parser.add_argument("--test", nargs="+", type=Path, required=True, help="directories of held-out games")
    parser.add_argument("--player", default="", help="only the moves of a player whose name (PB/PW) holds this")
    parser.add_argument("--playouts", type=int, default=32, help="heavy playouts a position's ownership map")
    parser.add_argument("--buckets", type=int, default=8)
    parser.add_argument("--min-count", type=int, default=fe.SPATIAL_MIN_COUNT)
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    refuse_counts(parser, (("--playouts", args.playouts, MAX_PLAYOUTS), ("--buckets", args.buckets, MAX_BUCKETS),
                           ("--iterations", args.iterations, MAX_ITERATIONS), ("--jobs", args.jobs, 256),
                           ("--min-count", args.min_count, 10**9)))
    files = sorted(p for d in args.dirs for p in d.rglob("*.sgf"))
    test_files = sorted(p for d in args.test for p in d.rglob("*.sgf"))
    if not files or not test_files:
        parser.error("no .sgf files found")
    started = time.time()
    train = collect(files, args.player, args.playouts, args.buckets, args.jobs, args.seed)
    test = collect(test_files, args.player, args.playouts, args.buckets, args.jobs, args.seed + 1)
    print(f"{len(train)} training and {len(test)} held-out positions, {args.playouts} heavy playouts each "
          f"({time.time() - started:.0f} s)", file=sys.stderr)
    if not train or not test:
        print("no usable positions", file=sys.stderr)
        return 1
    class_of = gt.pattern_classes()
    data, owner = split(train, class_of)
    held, held_owner = split(test, class_of)
    classes = np.unique(data.raw[:, 0])
    spatial = frequent_spatial(data.raw, args.min_count)
    plain, with_owner, n = owner_ids(data, owner, classes, spatial, args.buckets)
    held_plain, held_with, _ = owner_ids(held, held_owner, classes, spatial, args.buckets)
    quiet = lambda message: None  # noqa: E731
    gamma_plain = fit(data, plain, n - args.buckets, args.iterations, log=quiet)
    gamma_owner = fit(data, with_owner, n, args.iterations, log=quiet)
    arms = (("without the owner", held_plain, gamma_plain), ("with the owner", held_with, gamma_owner))
    for name, ids, gamma in arms:
        figures = evaluate(held, ids, gamma)
        print(f"{name:18}: {figures['positions']} held-out positions, mean log p {figures['log_p']:.4f}, "
              f"top-1 {figures['top1']:.1%}, top-5 {figures['top5']:.1%}")
    d = log_p(held, held_with, gamma_owner) - log_p(held, held_plain, gamma_plain)
    half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
    print(f"the owner's gain in mean log p: {d.mean():+.4f} ({d.mean() - half:+.4f} to {d.mean() + half:+.4f})")
    print(f"owner gammas, the opponent's .. the mover's ({args.buckets} bins):",
          "  ".join(f"{g:.3g}" for g in gamma_owner[n - args.buckets:]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
