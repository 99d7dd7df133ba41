"""Statistics of light playouts from the empty board, to show that a kernel change keeps the rule.

    python bench/playout_stats.py --sizes 5 9 19 --playouts 1000000 --json new.json
    python bench/playout_stats.py --sizes 5 9 19 --playouts 1000000 --compare old.json

For each size: mean score (black minus white area, no komi) with its 95% interval, black's
win rate at komi 0 (draws counted half) with its 95% interval, and mean stones per playout.
With --compare, each figure is tested against a file this script wrote earlier (for
instance with the previous kernel): the difference of two independent means must lie
within 1.96 of its standard error, and the script exits 1 when one does not (at 95%,
about one figure in twenty differs by chance; rerun with another --seed before concluding).
The script imports foogo from the checkout it lives in, so running it from a git worktree
of an older commit measures that commit's kernel.
"""

from __future__ import annotations

import argparse
import json
import math
import pathlib
import sys

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent))

import numpy as np  # noqa: E402
from option_caps import refuse_counts  # noqa: E402

from foogo import Board  # noqa: E402
from foogo.playout import MAX_BATCH, MAX_THREADS, run_playouts  # noqa: E402


def figures(size: int, playouts: int, seed: int, threads: int) -> dict:
    """Mean and standard error of score, black win (komi 0, draw = 1/2) and stones per playout."""
    batch = run_playouts(Board(size), playouts, seed=seed, threads=threads)
    scores = batch.scores.astype(np.float64)
    wins = (scores > 0) + 0.5 * (scores == 0)
    moves = batch.moves.astype(np.float64)
    out = {"size": size, "playouts": playouts, "seed": seed, "capped": int(batch.capped.sum())}
    for name, values in (("score", scores), ("black_wins", wins), ("moves", moves)):
        out[name] = {"mean": float(values.mean()), "se": float(values.std(ddof=1) / math.sqrt(len(values)))}
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 9, 19])
    ap.add_argument("--playouts", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=12345)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--compare", help="a file written earlier by --json: test each figure against it")
    args = ap.parse_args(argv)
    # a standard error needs two playouts; run_playouts holds at most MAX_BATCH
    refuse_counts(ap, (("--playouts", args.playouts, MAX_BATCH),), least=2)
    refuse_counts(ap, (("--threads", args.threads, MAX_THREADS),))
    results = [figures(size, args.playouts, args.seed, args.threads) for size in args.sizes]
    old = {r["size"]: r for r in json.load(open(args.compare))} if args.compare else {}
    ok = True
    for r in results:
        print(f"{r['size']}x{r['size']}, {r['playouts']} playouts, seed {r['seed']}, {r['capped']} capped")
        for name in ("score", "black_wins", "moves"):
            m, se = r[name]["mean"], r[name]["se"]
            line = f"  {name:10s} {m:9.4f} +- {1.96 * se:.4f}"
            if r["size"] in old:
                o = old[r["size"]][name]
                z = (m - o["mean"]) / math.sqrt(se ** 2 + o["se"] ** 2)
                agree = abs(z) <= 1.96
                ok &= agree
                verdict = "agrees" if agree else "DIFFERS"
                line += f"   was {o['mean']:9.4f} +- {1.96 * o['se']:.4f}   z {z:+.2f} {verdict}"
            print(line)
    if args.json:
        pathlib.Path(args.json).write_text(json.dumps(results, indent=1) + "\n")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
