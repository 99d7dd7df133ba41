"""Playouts/s inside the search against `foogo bench` with the same policy (the issue asks >= 90%).

    python bench/search_speed.py [--size 9] [--seconds 3] [--repeats 3] [--policies light,heavy]
                                 [--knowledge learned] [--replies]

For each policy, alternates in one run: a `foogo bench` measurement (light or heavy playouts from
the empty board), a UCT-RAVE search from the empty board, and one from a middle-game position,
each timed by the CPU clock on one thread, --repeats times. Prints the medians (min..max) and the
ratio of each search's median to the bench median. --replies adds the same two searches with last
good replies (SearchConfig.replies), alternated with the others, to show what they cost.
"""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from foogo import BLACK
from foogo import board_kernels as bk
from foogo.bench import measure
from foogo.game import Game
from foogo.policy import choose_light, seed_rng
from foogo.search import Search, SearchConfig


def search_rate(game: Game, seconds: float, policy: str, seed: int, knowledge: str = "learned",
                replies: bool = False) -> float:
    """Search iterations per CPU second of one timed search from the game's position."""
    color = game.to_move
    extra = {"replies": True} if replies else {}  # named only when on: search_speed_ab runs older checkouts
    search = Search(SearchConfig(seconds=seconds, threads=1, seed=seed, policy=policy, resign_threshold=None,
                                 knowledge=knowledge, **extra))
    start = time.process_time()
    result = search.genmove(game.board, color, 7.5, game.legal_points(color), time_budget=seconds)
    return result.playouts / (time.process_time() - start)


def middle_game(size: int) -> Game:
    """A game a third of the way through a random game (fixed seed)."""
    game = Game(size)
    rng = np.zeros(1, dtype=np.uint64)
    seed_rng(rng, 42, 0)
    color = BLACK
    for _ in range(size * size // 3):
        s, z = game.board._state()  # Game.play replaces its board
        p = choose_light(s, z, color, rng)
        game.play(color, "pass" if p == bk.PASS else game.geometry.name(p))
        color = 3 - color
    return game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--policies", default="light,heavy")
    parser.add_argument("--knowledge", default="learned", help="the tree's prior: learned or rules")
    parser.add_argument("--replies", action="store_true", help="also search with last good replies")
    args = parser.parse_args()
    positions = {"empty board": Game(args.size), "middle game": middle_game(args.size)}
    searches = [(name, game, False) for name, game in positions.items()]
    if args.replies:
        searches += [(name + " +replies", game, True) for name, game in positions.items()]
    for policy in args.policies.split(","):
        search_rate(Game(args.size), 0.3, policy, 0, args.knowledge)  # compile and warm up
        rates: dict[str, list[float]] = {"bench": [], **{name: [] for name, _, _ in searches}}
        for _ in range(args.repeats):
            rates["bench"].append(measure(args.size, None, 1, repeats=1, policy=policy,
                                          min_seconds=args.seconds)["playouts_per_cpu_second"])
            for name, game, replies in searches:
                rates[name].append(search_rate(game, args.seconds, policy, 2, args.knowledge, replies))
        bench = statistics.median(rates["bench"])
        for name, values in rates.items():
            median = statistics.median(values)
            ratio = "" if name == "bench" else f"   ratio {median / bench:.2f}"
            print(f"{args.size}x{args.size} {policy:5} {name:21} {median:9.0f} playouts/CPU s "
                  f"({min(values):.0f}..{max(values):.0f}){ratio}", flush=True)


if __name__ == "__main__":
    main()
