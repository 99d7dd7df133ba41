"""How often foogo's search gets a position right: a suite of positions from lost games, each searched
several times with new seeds, so that a change to the playouts or the tree can be screened for a blind
spot in minutes, before a match of hours.

    python bench/position_suite.py [SUITE] [--playouts 50000] [--searches 8] [--policy heavy]
                                   [--threads 1] [--seed 1] [foogo gtp's tuning options, e.g. --uct 0.2]
                                   [--only TEXT] [--json FILE]

SUITE (default bench/positions/suite.txt) holds one position a line, `#` starting a comment:

    FILE MOVE EXPECT [EXPECT ...]

FILE an SGF (a path relative to the suite file), MOVE the number of the move to search for (the position
before it, with its player to move: GTP's `loadsgf FILE MOVE`), and each EXPECT one of: a vertex (the
search passes if its move is one of the vertices listed), `!VERTEX` (if its move is none of these),
`winrate<X` or `winrate>X` (its win rate for the player to move). A search passes when all hold.

Each position gets --searches searches of --playouts playouts, each with a new tree and seed (--seed,
--seed + 1, ...; `foogo gtp`'s search-tuning options, such as --uct 0.2, --equiv 3000 or --knowledge
rules, set the rest of the SearchConfig, as they do for a match), and prints
how many passed, the moves chosen and the mean win rate; the last line is the share of all searches
that passed, with its 95% interval. --json writes the same as data.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import re
import statistics
import sys

from option_caps import refuse_counts

from foogo.bench import MAX_REPEATS
from foogo.game import Game
from foogo.gtp.command import add_tuning_options, tuning_fields
from foogo.intervals import wilson
from foogo.search import HISTORY, Search, SearchConfig

DEFAULT_SUITE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "positions", "suite.txt")
WINRATE = re.compile(r"^winrate([<>])(0(?:\.\d+)?|1(?:\.0*)?)$")


class SuiteError(ValueError):
    """A suite line that cannot be read: the message names the file, the line and why."""


def read_suite(path: str) -> list[dict]:
    """The suite's positions: dicts of file (absolute), move, vertices, avoid, winrate (a list of
    (op, bound)), line (its number) and text (the line as written). SuiteError for a bad line."""
    positions = []
    folder = os.path.dirname(os.path.abspath(path))
    with open(path, encoding="utf-8") as f:
        for number, raw in enumerate(f, 1):
            text = raw.split("#", 1)[0].strip()
            if not text:
                continue
            fields = text.split()
            where = f"{path}:{number}"
            if len(fields) < 3:
                raise SuiteError(f"{where}: want FILE MOVE EXPECT..., got {text!r}")
            try:
                move = int(fields[1])
            except ValueError:
                raise SuiteError(f"{where}: the move number must be an integer, got {fields[1]!r}") from None
            if move < 1:
                raise SuiteError(f"{where}: the move number must be 1 or more, got {move}")
            position = dict(file=os.path.join(folder, fields[0]), move=move, vertices=[], avoid=[], winrate=[],
                            line=number, text=text)
            for token in fields[2:]:
                bound = WINRATE.match(token)
                if bound:
                    position["winrate"].append((bound.group(1), float(bound.group(2))))
                elif token.startswith("!"):
                    position["avoid"].append(token[1:].upper())
                elif token.startswith("winrate"):
                    raise SuiteError(f"{where}: a win rate bound is winrate<X or winrate>X with X in [0, 1], "
                                     f"got {token!r}")
                else:
                    position["vertices"].append(token.upper())
            positions.append(position)
    if not positions:
        raise SuiteError(f"{path}: no positions")
    return positions


def load(position: dict) -> Game:
    """The game at the position's move, its vertices checked against the board (SuiteError if one
    is not a point of it)."""
    game = Game()
    game.load_sgf(position["file"], position["move"])
    for vertex in position["vertices"] + position["avoid"]:
        try:
            game.geometry.parse(vertex)
        except ValueError as error:  # OffBoardError is one
            raise SuiteError(f"line {position['line']}: {error}") from None
    return game


def passes(position: dict, vertex: str, winrate: float) -> bool:
    """True if a search that chose `vertex` at `winrate` (for the player to move) meets every
    expectation of the position."""
    if position["vertices"] and vertex.upper() not in position["vertices"]:
        return False
    if vertex.upper() in position["avoid"]:
        return False
    return all(winrate < bound if op == "<" else winrate > bound for op, bound in position["winrate"])


def search_position(game: Game, config: SearchConfig) -> tuple[str, float]:
    """One search of the game's position with a new tree (the game unchanged): (its move, its win rate
    for the player to move)."""
    color = game.to_move
    result = Search(config).genmove(game.board, color, game.komi, game.legal_moves(color),
                                    history=game.recent_positions(HISTORY))
    return result.vertex, result.winrate


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("suite", nargs="?", default=DEFAULT_SUITE)
    parser.add_argument("--playouts", type=int, default=50000)
    parser.add_argument("--searches", type=int, default=8)
    parser.add_argument("--policy", default="heavy")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="search only the positions whose line contains this text")
    parser.add_argument("--json", help="write the results here")
    add_tuning_options(parser)
    args = parser.parse_args(argv)
    if args.playouts < 1:
        parser.error(f"--playouts must be at least 1, got {args.playouts}")
    refuse_counts(parser, (("--searches", args.searches, MAX_REPEATS),))  # a position's searches: a bench's timed runs
    try:
        fields = tuning_fields(args)
        knowledge = SearchConfig(playouts=args.playouts, threads=args.threads, policy=args.policy,
                                 **fields).knowledge  # its own checks (--playouts' cap too), before any search
    except ValueError as error:
        parser.error(str(error))
    try:
        positions = read_suite(args.suite)
        cases = [(position, load(position)) for position in positions]  # all checked before the first search
    except (OSError, ValueError) as error:  # SgfError and SuiteError are ValueErrors
        print(f"position_suite: {error}", file=sys.stderr)
        return 2
    if args.only:
        cases = [(position, game) for position, game in cases if args.only in position["text"]]
        if not cases:
            print(f"position_suite: no position of {args.suite} has {args.only!r} in its line", file=sys.stderr)
            return 2
    print(f"{len(cases)} positions, {args.searches} searches each of {args.playouts} playouts, "
          f"policy {args.policy}, knowledge {knowledge}, {args.threads} thread(s)"
          + "".join(f", {k}={v}" for k, v in fields.items()))
    rows, passed, total = [], 0, 0
    for position, game in cases:
        moves, rates, ok = collections.Counter(), [], 0
        for i in range(args.searches):
            config = SearchConfig(playouts=args.playouts, threads=args.threads, seed=args.seed + i,
                                  policy=args.policy, resign_threshold=None, **fields)
            vertex, winrate = search_position(game, config)
            moves[vertex] += 1
            rates.append(winrate)
            ok += passes(position, vertex, winrate)
        passed += ok
        total += args.searches
        chosen = ", ".join(f"{v} {n}" for v, n in moves.most_common())
        print(f"{ok} of {args.searches}  {position['text']}  (chose {chosen}; mean win rate "
              f"{statistics.fmean(rates):.3f})", flush=True)
        rows.append(dict(position=position["text"], line=position["line"], passed=ok, searches=args.searches,
                         moves=dict(moves), winrates=rates))
    low, high = wilson(passed, total)
    print(f"passed {passed} of {total} searches: {passed / total:.1%} ({low:.1%}-{high:.1%})")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(dict(suite=os.path.abspath(args.suite), playouts=args.playouts, searches=args.searches,
                           policy=args.policy, knowledge=knowledge, threads=args.threads, seed=args.seed,
                           settings=fields,
                           passed=passed, total=total, ci95=[low, high], positions=rows), f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
