"""How many of a player's opening positions an opening book answers, in a set of games.

    python bench/book_coverage.py --games PATH [--player foogo] [--depth 20] [--book FILE ...]
                                  [--min-games 1 2 3 5]

The positions are make_book.py --from-games's: those before move --depth of each game of the book's size
(9x9) at PATH (an SGF file or a directory of them), up to the board's symmetries, to the game's first pass
or capture, and with --player only those whose side to move a player of that name plays. Prints how many
such positions a game has, then for each --book how many of them it answers a game, then the same for a
book made from the games themselves by make_book.py --from-games --min-games N, measured out of sample:
its positions taken from the even-numbered games (in name order) and counted in the odd-numbered ones. A
book made from a match archive can answer no more of a new game's opening than that. (The book's komi is
not compared with the games': `foogo gtp --book` answers only at its own komi.)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from make_book import MAX_DEPTH, MAX_GAMES, game_positions, sgf_paths
from option_caps import refuse_counts

from foogo import book as bk_


def covered(counts: dict, keys) -> int:
    """The positions of `counts` ({key: games reaching it}) that `keys` holds, counted once a game."""
    return sum(n for k, n in counts.items() if k in keys)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=Path, required=True, metavar="PATH")
    parser.add_argument("--player", default="", metavar="NAME")
    parser.add_argument("--depth", type=int, default=20)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--book", action="append", default=[], metavar="FILE")
    parser.add_argument("--min-games", type=int, nargs="*", default=[1, 2, 3, 5])
    args = parser.parse_args()
    refuse_counts(parser, [("--depth", args.depth, MAX_DEPTH)]
                  + [("--min-games", n, MAX_GAMES) for n in args.min_games])
    if not 2 <= args.size <= 25:
        parser.error(f"--size must be from 2 to 25, got {args.size}")
    try:
        paths = sgf_paths(args.games)
        books = [(name, bk_.load_book(name)) for name in args.book]
    except (ValueError, OSError) as error:
        parser.error(str(error))
    # each file is read once: the even-numbered games build the out-of-sample books, the odd-numbered count them
    build, _, build_skipped = game_positions(paths[0::2], args.size, args.depth, args.player)
    test, _, test_skipped = game_positions(paths[1::2], args.size, args.depth, args.player)
    counts = {k: build.get(k, 0) + test.get(k, 0) for k in build.keys() | test.keys()}
    skipped = build_skipped + test_skipped
    games = len(paths) - skipped
    whose = f"{args.player}'s " if args.player else ""
    print(f"{len(paths)} files ({skipped} unreadable): {sum(counts.values()) / max(1, games):.2f} of {whose}"
          f"positions before move {args.depth} a game, {len(counts)} distinct")
    for name, book in books:
        if book.size != args.size:
            print(f"  {name}: a {book.size}x{book.size} book, none of these games")
            continue
        print(f"  {name} ({len(book.entries)} positions): {covered(counts, book.entries) / max(1, games):.2f} a game")
    test_games = len(paths[1::2]) - test_skipped
    for n in args.min_games:
        keys = {k for k, reached in build.items() if reached >= n}
        answered = covered(test, keys) / max(1, test_games)
        print(f"  a book of the positions {n}+ of the even games reach ({len(keys)}): {answered:.2f} a game of the "
              f"odd ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
