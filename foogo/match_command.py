"""The `foogo match` command: its options, and a match run from them to its table and --json summary.

What it is: `configure_parser` (the options, each capped where it sizes memory or time) and `run`,
which builds the match (match.Match, where the options are checked and the rules of adjudication
live), plays it, prints its table (match_results.format_table) and writes its --json summary
(match_files.write_json), and stops cleanly on Ctrl-C or SIGTERM after writing the games so far.

What it is not: the match itself (match.py) or its files (match_files.py).
"""

from __future__ import annotations

import argparse
import json
import sys

from .interrupts import sigterm_as_interrupt
from .match import DEFAULT_REFEREE, MAX_GAMES, MAX_MOVES, Match, MatchError
from .match_files import write_json
from .match_results import format_table
from .match_settings import MAX_KEPT_MOVES
from .numbers import float_option, int_option


def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add the `foogo match` options to `parser`."""
    parser.add_argument("--black", required=True, metavar="CMD",
                        help="engine A's command (black in game 1), split like a shell line")
    parser.add_argument("--white", required=True, metavar="CMD",
                        help="engine B's command (white in game 1)")
    parser.add_argument("--games", type=int_option, default=10,
                        help=f"number of games (default 10, at most {MAX_GAMES:,}, and at most "
                             f"{MAX_KEPT_MOVES:,} games times --max-moves: 16,460 on 9x9 by default)")
    parser.add_argument("--size", type=int_option, default=9, help="board size (default 9)")
    parser.add_argument("--komi", type=float_option, default=7.0, help="komi (default 7)")
    parser.add_argument("--alternate", action="store_true", help="swap colours every game")
    parser.add_argument("--referee", metavar="CMD", default=None,
                        help=f"GTP engine that checks moves and scores (default: {DEFAULT_REFEREE} if "
                             "installed); 'none' to go without")
    parser.add_argument("--sgf-dir", metavar="DIR", default=None,
                        help="write game-NNNN.sgf per game (and the engines' stderr logs) here; a directory "
                             "that holds one of this match's file names already, or that another match is writing to, "
                             "is refused")
    parser.add_argument("--overwrite", action="store_true",
                        help="let --sgf-dir's games and --json's file replace an earlier match's files of the "
                             "same names")
    parser.add_argument("--max-moves", type=int_option, default=None,
                        help=f"score the game after this many moves (default 3*size*size, at most {MAX_MOVES:,})")
    parser.add_argument("--timeout", type=float_option, default=60.0,
                        help="seconds allowed per move / command; exceeding it loses the game (default 60)")
    parser.add_argument("--time-settings", metavar="SPEC", default=None,
                        help="a game clock for each engine: MAIN (sudden death) or MAIN+BYO/STONES (Canadian "
                             "byo-yomi: STONES moves in every BYO), times in seconds or with s, m or h, e.g. 5m, "
                             "10m+30s/5, 0+5s/1 (5 s a move); sent as time_settings and time_left, and an engine "
                             "whose clock runs out loses (genmove's timeout is then its clock, not --timeout)")
    parser.add_argument("--startup-timeout", type=float_option, default=None, metavar="SECONDS",
                        help="seconds an engine has to answer `name` and `version` after it starts, and "
                             "its first genmove then if no --time-settings (default: --timeout; foogo gtp's first "
                             "genmove after an install compiles its search, 1.5-2.5 minutes on two cores)")
    parser.add_argument("--opening", metavar="SGF", default=None,
                        help="start every game from the first --opening-moves moves of this SGF file's main line "
                             "(moves only, the match's board size), played on the referee and both engines")
    parser.add_argument("--opening-moves", type=int_option, default=None, metavar="N",
                        help="how many of --opening's moves (default 20)")
    parser.add_argument("--black-name", metavar="NAME", default=None,
                        help="engine A's name in the table and the SGFs (default: its name and version)")
    parser.add_argument("--white-name", metavar="NAME", default=None, help="engine B's name, likewise")
    parser.add_argument("--json", metavar="FILE", default=None,
                        help="write the results as JSON here ('-': to stdout, the table then to stderr)")
    parser.add_argument("--quiet", action="store_true", help="print nothing but errors (and --json's output)")


def run(args: argparse.Namespace) -> int:
    """Run the match described by `args`; print the table; return 0, 1 (match failed), 2 (bad options) or 130.

    Ctrl-C (SIGINT) or `kill` (SIGTERM) stops it after writing the games played so far: a match run in
    the background (nohup, a script's `&`) ignores SIGINT, as the shell makes background jobs do."""
    with sigterm_as_interrupt():
        return _run(args)


def _run(args: argparse.Namespace) -> int:
    try:
        match = Match(args)
    except ValueError as exc:
        print(f"foogo match: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # while the engines start: nothing played, nothing to write
        return 130
    code = 0
    try:
        match.play_all()
    except MatchError as exc:
        print(f"foogo match: {exc}", file=sys.stderr)
        code = 1
    finally:
        match.close()
    if code and not match.records:
        return code
    summary = match.summary()
    if not args.quiet:
        print(format_table(summary), file=sys.stderr if args.json == "-" else sys.stdout)
    if args.json == "-":
        print(json.dumps(summary, indent=2))
    elif (json_path := match.settings.json_path) is not None:
        try:
            write_json(json_path, summary)
        except OSError as error:
            print(f"foogo match: cannot write --json {json_path}: {error.strerror or error}", file=sys.stderr)
            return 1
    return code or (130 if match.interrupted else 0)
