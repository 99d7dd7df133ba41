#!/bin/sh
# The `foogo stats` runs behind the README's first-move-advantage table and plots.
# Each command is resumable: interrupt it (Ctrl-C, kill, power loss) and run it again with the
# same arguments; it continues from the chunks already in its directory, and the final figures
# equal an uninterrupted run's. Rerunning a finished command computes nothing and rewrites its
# reports: DIR/results.{json,csv,md}, DIR/histograms.csv, DIR/{histograms,mean_score,winrate_komi}.png.
# Run from anywhere (it changes to the repository root); runs/ is git-ignored. --threads 1 because
# the machine is shared (2 cores); drop it to use every core (the results do not depend on it).
# Times are for one idle core; on the shared machine they were about twice as long.
set -e
cd "$(dirname "$0")/.."
FOOGO="${FOOGO:-python -m foogo}"

# Random playouts from the empty board, sizes 5..19, 10^6 per size: 15M playouts, ~12 min
# (0.008 ms per 5x5 playout .. 0.11 ms per 19x19; 0.72 ms for one of each size).
$FOOGO stats --sizes 5-19 --playouts 1000000 --threads 1 --seed 0 --out runs/stats-random

# 10^7 for 9x9 and 19x19 (95% CI about +-0.03 and +-0.05 points), ~23 min. Same seed: its first
# 10^6 playouts per size are those of the run above, so it refines those two rows, not adds to them.
if [ "${LONG:-1}" = 1 ]; then
    $FOOGO stats --sizes 9,19 --playouts 10000000 --threads 1 --seed 0 --out runs/stats-random-1e7
fi

# Self-play of the UCT search on 9x9 (game komi 7.5, no resignation, Game.score's dead stones):
# ~0.5 s, ~4 s and ~45 s per game at 100, 1000 and 10000 playouts per move.
if [ "${SELFPLAY:-0}" = 1 ]; then
    $FOOGO stats --selfplay --size 9 --playouts-per-move 100,1000 --games 200 --threads 1 --seed 0 \
        --out runs/stats-selfplay-9-fast
    $FOOGO stats --selfplay --size 9 --playouts-per-move 10000 --games 40 --threads 1 --seed 0 \
        --out runs/stats-selfplay-9-10k
fi
