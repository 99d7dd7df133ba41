"""CPU cost of a search playout with the heavy policy against the light one, over game positions.

    python bench/policy_cost.py [--size 9] [--playouts 20000] [--games 6]

Plays `--games` quick self-play games (light search, 300 playouts a move, fixed seeds), takes
the positions at moves 0, 10, 20, 30 and 40 of each, and searches every position for
`--playouts` playouts with each policy on one thread, timing CPU seconds (process time, so other
jobs on the machine do not skew it). Prints each position's times and the overall ratio
heavy / light: the factor by which light's playout count must exceed heavy's for the two to
search for equal time (how bench/results/heavy-vs-light-9x9-equal-cpu.txt was set up).
"""

from __future__ import annotations

import argparse
import time

from option_caps import refuse_counts

from foogo.game import Game
from foogo.match import MAX_GAMES
from foogo.search import MAX_PLAYOUTS, Search, SearchConfig

SAMPLE_MOVES = (0, 10, 20, 30, 40)


def positions(size: int, games: int) -> list[Game]:
    """Positions at SAMPLE_MOVES of `games` self-play games."""
    found = []
    for g in range(games):
        game = Game(size, 7.0)
        search = Search(SearchConfig(playouts=300, seed=100 + g, resign_threshold=None))
        for move in range(max(SAMPLE_MOVES) + 1):
            if move in SAMPLE_MOVES:
                found.append(game.copy())
            color = game.to_move
            result = search.genmove(game.board.copy(), color, game.komi, game.legal_points(color))
            game.play(color, result.move)
            if game.last_passes() >= 2:
                break
    return found


def cpu_seconds(game: Game, policy: str, playouts: int, **options) -> float:
    """Process seconds for one search of `playouts` playouts from `game` with `policy` (and any other
    SearchConfig fields in `options`), on one thread."""
    color = game.to_move
    search = Search(SearchConfig(playouts=playouts, policy=policy, seed=5, resign_threshold=None, **options))
    start = time.process_time()
    search.genmove(game.board.copy(), color, game.komi, game.legal_points(color))
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--playouts", type=int, default=20000)
    parser.add_argument("--games", type=int, default=6)
    args = parser.parse_args()
    # a search's playouts, a match's games (0 of them left the ratio 0 / 0)
    refuse_counts(parser, (("--playouts", args.playouts, MAX_PLAYOUTS), ("--games", args.games, MAX_GAMES)))
    for policy in ("light", "heavy"):  # compile before timing
        cpu_seconds(Game(args.size, 7.0), policy, 200)
    totals = {"light": 0.0, "heavy": 0.0}
    for k, game in enumerate(positions(args.size, args.games)):
        row = {policy: cpu_seconds(game, policy, args.playouts) for policy in totals}
        for policy, seconds in row.items():
            totals[policy] += seconds
        print(f"position {k:2d} (move {len(game.history):2d}): light {row['light']:.2f} s  "
              f"heavy {row['heavy']:.2f} s  ratio {row['heavy'] / row['light']:.2f}", flush=True)
    print(f"{args.size}x{args.size}, {args.playouts} playouts per search: light {totals['light']:.1f} s, "
          f"heavy {totals['heavy']:.1f} s; heavy / light CPU per playout = "
          f"{totals['heavy'] / totals['light']:.2f}")


if __name__ == "__main__":
    main()
