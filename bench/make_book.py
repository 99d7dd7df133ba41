"""Make foogo's opening book (foogo/book.py) from foogo's own long searches.

    python bench/make_book.py [--playouts 1000000] [--jobs 2] --out FILE
    python bench/make_book.py --from-games PATH [--depth 10] [--min-games 5] [--max-positions 200]
                              [--extend BOOK] [--player NAME] [--playouts N] [--jobs 2] --out FILE

The positions, each taken up to the board's 8 symmetries (book.key) so that each is searched once:
  1. the empty board, black to move;
  2. every first move of black, white to move (15 positions on 9x9);
  3. the book's first move for black and every answer of white, black to move (14 after E5).
With --from-games instead: the positions that games reach, from an SGF file or a directory of them (searched
through its subdirectories, at most MAX_GAMES files in name order): every position before move --depth of each
game of the book's size with no handicap or setup stones, up to its first pass or capture (the book answers only
positions with no capture), that at least --min-games games reach, the --max-positions most frequent (ties: the
earlier in the game, then the key). Files that cannot be read or replayed are counted and skipped. --extend BOOK
keeps BOOK's entries (its size, komi and playouts must be these) and searches only positions it lacks, so a book
grows deeper in steps; the positions of a match archive are those its engines reached, and the book changes
which they reach, so a deeper book is made from games played with the one before it. --player NAME counts only
the positions whose side to move is played by a player whose name (PB, PW) holds NAME, in any case (as in
learn_gammas.py): in a match archive, `--player foogo` keeps the positions foogo was asked and leaves those
only its opponent was (about half the searches).
Each is searched by `Search` with the settings `foogo gtp` plays with (heavy playouts, the learned
prior, one thread) for --playouts playouts, once for each of the seeds 0 .. --seeds - 1, and the
move most of those searches chose is stored (ties: the larger mean share of the root's visits), with
their mean win rate and visit share. One seed is not enough: a search concentrates its visits on one
move early and keeps them there, so two seeds of 1,000,000 playouts answered black's F6 with E5 (97%
of the visits) and with D4 (67%). The same commit, count and seeds give the same book. Searches run
--jobs at a time in worker processes (one per core). Prints each position's answer and writes the
book; bench/RESULTS.md ("The opening book") gives the command and what the book is worth.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from option_caps import refuse_counts
from sgfmill import sgf

from foogo import book as bk_
from foogo.bench import MAX_REPEATS
from foogo.board import Board
from foogo.game import Game
from foogo.game_sgf import SGF_MAX_BYTES, SgfError
from foogo.geometry import BLACK, EMPTY, PASS, WHITE, geometry
from foogo.match_results import named_colours
from foogo.playout import MAX_THREADS
from foogo.search import MAX_PLAYOUTS, Search, SearchConfig


def search(task):
    """(key, entry dict, moves, chosen vertex, seconds) for one search of a position given as (size, komi,
    moves, color, playouts, seed)."""
    size, komi, moves, color, playouts, seed = task
    board = Board(size)
    for c, vertex in moves:
        board.play(c, vertex)
    k, frame = bk_.key(board, color)
    config = SearchConfig(playouts=playouts, threads=1, policy="heavy", seed=seed, resign_threshold=None)
    started = time.perf_counter()
    result = Search(config).genmove(board, color, komi)
    # the move in the key's frame: the book turns it back into any asking position's
    g = board.geometry
    row, col = bk_.transform(size, frame, *g.row_col(result.move))
    total = sum(result.visits.values()) or 1
    entry = {"move": g.name(g.point(row, col)), "winrate": round(result.winrate, 4),
             "visits": round(result.visits.get(result.move, 0) / total, 4)}
    return k, entry, moves, result.vertex, time.perf_counter() - started


def distinct_moves(size: int, moves, color: int) -> list[str]:
    """The moves of color after `moves` that lead to positions distinct up to symmetry (first of each)."""
    g = geometry(size)
    base = Board(size)
    for c, vertex in moves:
        base.play(c, vertex)
    seen = set()
    out = []
    for row in range(size):
        for col in range(size):
            vertex = g.name(g.point(row, col))
            if base.color_at(vertex) != 0:
                continue
            board = base.copy()
            board.play(color, vertex)
            k, _ = bk_.key(board, 3 - color)
            if k not in seen:
                seen.add(k)
                out.append(vertex)
    return out


MAX_GAMES = 20_000  # SGF files --from-games reads at most (in name order)
MAX_DEPTH = 40  # --depth at most: the positions counted stay under a million (some 150 MB)


def sgf_paths(path: Path) -> list[Path]:
    """The SGF files at path (a file, or a directory searched through its subdirectories), at most MAX_GAMES in
    name order; ValueError if there is none or path does not exist."""
    if path.is_file():
        return [path]
    if not path.is_dir():
        raise ValueError(f"--from-games {path}: no such file or directory")
    found = []
    for file in sorted(path.rglob("*.sgf")):
        if len(found) == MAX_GAMES:
            break
        if file.is_file():
            found.append(file)
    if not found:
        raise ValueError(f"--from-games {path}: no .sgf file there")
    return found


def player_colors(path: Path, player: str) -> set[int]:
    """The colours of the game at path (an SGF file load_sgf has read) whose player's name (PB, PW) holds
    `player`, in any case."""
    with open(path, "rb") as f:  # load_sgf read it whole, at most SGF_MAX_BYTES: a file grown since is cut here
        root = sgf.Sgf_game.from_bytes(f.read(SGF_MAX_BYTES)).get_root()
    return {{"b": BLACK, "w": WHITE}[c] for c in named_colours(root, player)}


def game_positions(paths, size: int, depth: int, player: str = "") -> tuple[dict, dict, int]:
    """({key: games reaching it}, {key: (moves, color) of its first game}, files skipped) over the positions
    before move `depth` of each game of `size` with no handicap or setup, to its first pass or capture; moves are
    (color, vertex) pairs from the empty board and color is the side to move. With `player`, only the positions
    whose side to move is played by a player whose name holds it (any case): those the book's user is asked."""
    counts: dict = {}
    first: dict = {}
    skipped = 0
    for path in paths:
        game = Game(size)
        try:
            game.load_sgf(str(path), move_number=depth + 1)
            asked = player_colors(path, player) if player else {BLACK, WHITE}
        except (SgfError, OSError, ValueError):
            skipped += 1
            continue
        if game.size != size or game.handicap or any(game.base.color_at(int(p)) for p in game.geometry.points):
            continue
        board = Board(size)
        moves: list = []
        for color, p in game.history:
            if color == EMPTY:
                break  # a setup between moves: the book's positions end here
            if color in asked:
                k, _ = bk_.key(board, color)
                counts[k] = counts.get(k, 0) + 1
                first.setdefault(k, (list(moves), color))
            if p == PASS:
                break  # and after a pass
            vertex = board.geometry.name(p)
            board.play(color, vertex)
            if board.captures(BLACK) or board.captures(WHITE):
                break
            moves.append((color, vertex))
    return counts, first, skipped


def frequent_positions(counts: dict, first: dict, min_games: int, most: int) -> list[str]:
    """The keys at least min_games games reach, the `most` most frequent (ties: fewer stones, then the key)."""
    keys = [k for k, n in counts.items() if n >= min_games]
    keys.sort(key=lambda k: (-counts[k], len(first[k][0]), k))
    return keys[:most]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=7.0)
    parser.add_argument("--playouts", type=int, default=1_000_000)
    parser.add_argument("--seeds", type=int, default=3,
                        help="searches a position, one per seed 0..N-1; the move most of them chose is kept")
    parser.add_argument("--jobs", type=int, default=2)
    # no default: a bare run does not overwrite the shipped book (the wide one, made with --from-games)
    parser.add_argument("--out", type=Path, required=True,
                        help="the book file to write (foogo/data/book9.json is the one foogo gtp plays)")
    parser.add_argument("--from-games", type=Path, metavar="PATH", help="the positions these SGF games reach")
    parser.add_argument("--depth", type=int, default=10, help="with --from-games: positions before this move")
    parser.add_argument("--min-games", type=int, default=5, help="with --from-games: reached by this many games")
    parser.add_argument("--max-positions", type=int, default=200, help="with --from-games: the most frequent")
    parser.add_argument("--extend", metavar="BOOK", help="with --from-games: keep this book's entries")
    parser.add_argument("--player", default="", metavar="NAME",
                        help="with --from-games: only positions whose side to move is played by a NAME player")
    args = parser.parse_args()
    # a search's playouts; a position's searches, like a bench's timed runs (their tasks are listed before the
    # first); worker processes, one a core, like a search's threads
    refuse_counts(parser, (("--playouts", args.playouts, MAX_PLAYOUTS), ("--seeds", args.seeds, MAX_REPEATS),
                           ("--jobs", args.jobs, MAX_THREADS), ("--depth", args.depth, MAX_DEPTH),
                           ("--min-games", args.min_games, MAX_GAMES),
                           ("--max-positions", args.max_positions, bk_.MAX_ENTRIES)))
    if not 2 <= args.size <= 25:
        parser.error(f"--size must be from 2 to 25, got {args.size}")
    for option, value in (("--extend", args.extend), ("--player", args.player)):
        if value and not args.from_games:
            parser.error(f"{option} goes with --from-games")
    started = time.perf_counter()
    entries: dict = {}
    base = None
    if args.extend:
        try:
            base = bk_.load_book(args.extend)
        except (ValueError, OSError) as error:
            parser.error(f"--extend {args.extend}: {error}")
        if (base.size, base.komi, base.playouts) != (args.size, args.komi, args.playouts):
            parser.error(f"--extend {args.extend}: its size, komi and playouts ({base.size}, {base.komi:g}, "
                         f"{base.playouts}) are not these ({args.size}, {args.komi:g}, {args.playouts})")
        entries.update({k: {"move": e.move, "winrate": e.winrate, "visits": e.visits} for k, e in base.entries.items()})

    def run(positions):
        """Search each position (size, komi, moves, color, playouts) once per seed; keep the move most
        seeds chose (ties: the larger mean share of the visits), with its searches' mean figures."""
        tasks = [position + (seed,) for position in positions for seed in range(args.seeds)]
        votes: dict = {}
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            for k, entry, moves, vertex, seconds in pool.map(search, tasks):
                votes.setdefault(k, []).append(entry)
                line = " ".join(f"{'B' if c == BLACK else 'W'} {v}" for c, v in moves) or "(empty board)"
                print(f"{line:>16} -> {vertex:4} win rate {entry['winrate']:.3f}, visits {entry['visits']:.1%}"
                      f" ({seconds:.0f} s)", flush=True)
        for k, found in votes.items():
            moves_ = [e["move"] for e in found]
            best = max(set(moves_), key=lambda m: (moves_.count(m), sum(e["visits"] for e in found if e["move"] == m)))
            chosen = [e for e in found if e["move"] == best]
            entries[k] = {"move": best, "winrate": round(sum(e["winrate"] for e in chosen) / len(chosen), 4),
                          "visits": round(sum(e["visits"] for e in chosen) / len(chosen), 4)}
            if len(chosen) < len(found):
                print(f"  seeds disagree: {' '.join(moves_)} (key frame) -> {best}", flush=True)

    source = (f"bench/make_book.py --playouts {args.playouts} --seeds {args.seeds}: foogo's heavy search with the "
              f"learned prior, one thread, the move most of seeds 0..{args.seeds - 1} chose")
    if args.from_games:
        try:
            paths = sgf_paths(args.from_games)
        except ValueError as error:
            parser.error(str(error))
        counts, first_seen, skipped = game_positions(paths, args.size, args.depth, args.player)
        chosen = frequent_positions(counts, first_seen, args.min_games, args.max_positions)
        todo = [k for k in chosen if k not in entries]
        frequent = sum(1 for n in counts.values() if n >= args.min_games)
        print(f"{len(paths)} files ({skipped} unreadable): {len(counts)} positions before move {args.depth}, "
              f"{frequent} reached by {args.min_games} games or more, {len(chosen)} kept (--max-positions), "
              f"{len(todo)} not in the book yet", flush=True)
        run([(args.size, args.komi, first_seen[k][0], first_seen[k][1], args.playouts) for k in todo])
        asked = f" with a {args.player} player to move" if args.player else ""
        source += (f"; the positions before move {args.depth}{asked} that {args.min_games} or more of {len(paths)} "
                   f"games reached ({args.from_games.name}), the {args.max_positions} most frequent")
        if base is not None:
            source = f"{base.source} | extended: {source}"
    else:
        # 1. the empty board
        run([(args.size, args.komi, [], BLACK, args.playouts)])
        # 2. every first move of black, and 3. every answer to the book's first move
        root = Board(args.size)
        first = bk_.Book(args.size, args.komi, args.playouts, "", {
            k: bk_.Entry(e["move"], e["winrate"], e["visits"]) for k, e in entries.items()}).move(root, BLACK,
                                                                                                 args.komi)
        opening = [(BLACK, geometry(args.size).name(first))]
        tasks = [(args.size, args.komi, [(BLACK, v)], WHITE, args.playouts)
                 for v in distinct_moves(args.size, [], BLACK)]
        tasks += [(args.size, args.komi, opening + [(WHITE, v)], BLACK, args.playouts)
                  for v in distinct_moves(args.size, opening, WHITE)]
        run(tasks)
    book = {"format": bk_.FORMAT, "size": args.size, "komi": args.komi, "playouts": args.playouts,
            "source": source, "entries": dict(sorted(entries.items()))}
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(book, indent=1) + "\n")
    bk_.load_book(str(args.out))  # what was written reads back
    print(f"wrote {args.out}: {len(entries)} positions ({time.perf_counter() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
