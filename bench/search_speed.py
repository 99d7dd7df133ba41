"""Playouts/s inside the search against `foogo bench` with the same policy (the issue asks >= 90%).

    python bench/search_speed.py [--size 9] [--seconds 3] [--repeats 3] [--policies light,heavy]
                                 [--knowledge learned] [--replies] [--slices N]

For each policy, alternates in one run: a `foogo bench` measurement (light or heavy playouts from
the empty board), a UCT-RAVE search from the empty board, and one from a middle-game position,
each timed by the CPU clock on one thread, --repeats times. Prints the medians (min..max) and the
ratio of each search's median to the bench median. --replies adds the same two searches with last
good replies (SearchConfig.replies), alternated with the others, to show what they cost.

--slices N interleaves finely instead, for a machine whose speed drifts within seconds (other
guests on the host): each repeat grows one search of --seconds in N slices, each slice a run of
Search.analyze on the same position (which continues the same tree: Search reuses its root; and
analyze, unlike a timed genmove, never stops early) preceded by bench playouts of about the same
CPU time; the repeat's ratio is the search's playouts per CPU second over the bench's, summed over
its slices. Prints the median (min..max) of the repeats' ratios. Each repeat's search is new, so its
tree grows into memory no search has used: the first touch of each page is in the timing. In a
game the trees are kept from move to move (Search.new_game and set_root reuse their arrays), so
from the second move on a search grows into memory already used; --reuse times that case: each
position's repeats share one Search (seeded alike), cleared with new_game before each.
"""

from __future__ import annotations

import argparse
import statistics
import threading
import time

import numpy as np
from option_caps import refuse_counts, refuse_seconds

from foogo import BLACK
from foogo import board_kernels as bk
from foogo.bench import MAX_REPEATS, measure
from foogo.board import Board
from foogo.game import Game
from foogo.playout import MAX_BATCH, run_playouts
from foogo.policy_light import choose_light
from foogo.random_stream import seed_rng
from foogo.search import MAX_SECONDS, Search, SearchConfig

SLICES_A_SECOND = 1000  # --slices: a slice under a millisecond times bench_for's first 64 playouts, not the search


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


def bench_for(board, seconds: float, policy: str, seed: int, first: int = 0) -> tuple[int, float, int]:
    """`foogo bench`'s playouts (run_playouts) from board for about `seconds` of CPU time, in batches
    that double from 64 while they take under an eighth of it (up to run_playouts' MAX_BATCH), playout indices
    from `first` on: (playouts, CPU seconds, stones played)."""
    count, playouts, spent, stones = 64, 0, 0.0, 0
    while spent < seconds:
        start = time.process_time()
        batch = run_playouts(board, count, seed=seed, first=first + playouts, policy=policy)
        took = time.process_time() - start
        spent += took
        playouts += count
        stones += int(batch.moves.sum())
        if took < seconds / 8:
            count = min(2 * count, MAX_BATCH)
    return playouts, spent, stones


def analyze_for(search: Search, game: Game, legal, seconds: float):
    """Search.analyze on game's position for `seconds` of wall time (a timer sets its stop; analyze has no
    early stop, unlike a timed genmove, whose "settled" test ends a search whose best move cannot be
    overtaken): its SearchResult."""
    stop = threading.Event()
    timer = threading.Timer(seconds, stop.set)  # a sleeping thread: no CPU of its own
    timer.start()
    result = search.analyze(game.board, game.to_move, 7.5, legal, stop, None)
    timer.join()
    return result


def sliced_ratio(game: Game, seconds: float, slices: int, policy: str, seed: int, knowledge: str = "learned",
                 search: Search | None = None) -> tuple[float, int]:
    """(search playouts per CPU second over bench playouts per CPU second, search playouts): one search of
    `seconds` grown in `slices` runs of analyze_for on game's position (each continues the tree), each
    run after bench playouts of about the same CPU time."""
    if search is None:
        search = _new_search(policy, seed, knowledge)
    board = Board(game.size)
    legal = game.legal_points(game.to_move)
    per_slice = seconds / slices
    bench_n = search_n = 0
    bench_cpu = search_cpu = 0.0
    for k in range(slices):
        n, cpu, _ = bench_for(board, per_slice, policy, k, bench_n)
        bench_n += n
        bench_cpu += cpu
        start = time.process_time()
        search_n += analyze_for(search, game, legal, per_slice).playouts
        search_cpu += time.process_time() - start
    return (search_n / search_cpu) / (bench_n / bench_cpu), search_n


def _new_search(policy: str, seed: int, knowledge: str) -> Search:
    """The one-thread Search that sliced_ratio times."""
    return Search(SearchConfig(threads=1, seed=seed, policy=policy, resign_threshold=None, knowledge=knowledge))


def used_search(game: Game, seconds: float, policy: str, seed: int, knowledge: str) -> Search:
    """sliced_ratio's Search after one untimed search of `seconds` on game's position, cleared (new_game):
    a search timed on it grows into tree memory a search has used (--reuse)."""
    search = _new_search(policy, seed, knowledge)
    sliced_ratio(game, seconds, 1, policy, seed, knowledge, search)
    search.new_game()
    return search


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


def check_counts(parser: argparse.ArgumentParser, args: argparse.Namespace, most_seconds: float = MAX_SECONDS) -> None:
    """parser.error unless --repeats is from 1 to MAX_REPEATS (a bench's timed runs), --seconds above 0 and at
    most `most_seconds` (by default a search's cap, a day) and --slices from 0 to SLICES_A_SECOND a second of it
    (this script's, bench/search_cycles.py's and bench/search_speed_ab.py's options)."""
    refuse_counts(parser, (("--repeats", args.repeats, MAX_REPEATS),))
    refuse_seconds(parser, "--seconds", args.seconds, most_seconds)
    if not 0 <= args.slices <= args.seconds * SLICES_A_SECOND:
        parser.error(f"--slices must be from 0 to {SLICES_A_SECOND:,} a second of --seconds, got {args.slices}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--policies", default="light,heavy")
    parser.add_argument("--knowledge", default="learned", help="the tree's prior: learned or rules")
    parser.add_argument("--replies", action="store_true", help="also search with last good replies")
    parser.add_argument("--slices", type=int, default=0,
                        help="interleave each search with the bench in this many slices (see above)")
    parser.add_argument("--reuse", action="store_true",
                        help="with --slices: time searches that grow into tree memory an earlier search used, as "
                             "every search of a game after its first does (see above)")
    args = parser.parse_args()
    check_counts(parser, args)
    positions = {"empty board": Game(args.size), "middle game": middle_game(args.size)}
    if args.slices:
        if args.replies:
            parser.error("--slices does not measure --replies")
        sliced(args, positions)
        return
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


def sliced(args, positions: dict) -> None:
    """The --slices report: per policy and position, the median (min..max) of --repeats sliced ratios;
    with --reuse, each position's repeats share one Search, its tree cleared between them (new_game)."""
    for policy in args.policies.split(","):
        sliced_ratio(Game(args.size), 0.4, 2, policy, 0, args.knowledge)  # compile and warm up
        ratios: dict[str, list[float]] = {name: [] for name in positions}
        searches = {name: used_search(game, args.seconds, policy, 2, args.knowledge)
                    for name, game in positions.items()} if args.reuse else {}
        for _ in range(args.repeats):
            for name, game in positions.items():
                search = searches.get(name)
                if search is not None:
                    search.new_game()
                ratios[name].append(sliced_ratio(game, args.seconds, args.slices, policy, 2, args.knowledge,
                                                 search)[0])
        for name, values in ratios.items():
            print(f"{args.size}x{args.size} {policy:5} {name:12} search/bench {statistics.median(values):.3f} "
                  f"({min(values):.3f}..{max(values):.3f}), {args.repeats} searches of {args.seconds:g} s "
                  f"in {args.slices} slices", flush=True)


if __name__ == "__main__":
    main()
