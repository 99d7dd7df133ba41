#!/bin/sh
# The `foogo stats` runs behind the README's first-move-advantage table and plots.
# Each command is resumable: interrupt it (Ctrl-C, kill, power loss) and run it again with the
# same arguments; it continues from the chunks already in its directory, and the final figures
# equal an uninterrupted run's. Reports: DIR/results.{json,csv,md}, DIR/histograms.csv, DIR/*.png.
# Run from the repository root; runs/ is git-ignored. Threads: 1 here because the machine is shared
# (2 cores); drop --threads to use every core (results do not depend on it).
set -e
cd "$(dirname "$0")/.."
FOOGO="${FOOGO:-python -m foogo}"

# Random playouts from the empty board, sizes 5..19, 10^6 per size (~12 min on one thread idle).
$FOOGO stats --sizes 5-19 --playouts 1000000 --threads 1 --seed 0 --out runs/stats-random

# 10^7 for 9x9 and 19x19 (95% CI about +-0.03 and +-0.05 points; ~23 min on one thread idle).
# Same seed: its first 10^6 playouts per size are those of the run above, so it supersedes it there.
$FOOGO stats --sizes 9,19 --playouts 10000000 --threads 1 --seed 0 --out runs/stats-random-1e7

# Self-play (needs foogo.search): how the advantage grows with strength on 9x9.
if [ "${SELFPLAY:-0}" = 1 ]; then
    $FOOGO stats --selfplay --size 9 --playouts-per-move 100,1000,10000 --games "${GAMES:-200}" \
        --threads 1 --seed 0 --out runs/stats-selfplay-9
fi
