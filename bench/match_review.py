"""Where foogo's games of a match turned: its own win rate move by move, and the games it lost from a won position.

    python bench/match_review.py DIR [DIR ...] [--engine auto|A|B] [--name foogo] [--collapse 0.9] [--games]
                                 [--turns]

DIR is a `foogo match --sgf-dir` directory: game-NNNN.sgf for each game and engine-A.stderr.log /
engine-B.stderr.log (or a directory of such directories, job-0, job-1..., as bench/parallel_match.py
and bench/vs_pachi.py write them), where `foogo gtp` writes one line per genmove ("genmove black: E5 | ... win rate
50.2%, ..."). --engine says which of the two is foogo (auto, the default: the one whose log has foogo's
genmove lines; bench/vs_pachi.py makes it B, `foogo match --black foogo ...` A), --name how its player
name in the SGFs starts.
The log is split into games by counting foogo's moves in each SGF (its last genmove may be a
resignation, which the SGF does not hold); a game whose moves do not match the log is reported and
skipped. For every game: foogo's colour and result, its moves, its peak and lowest win rate after
its first five moves, and why its searches stopped (settled, clear, budget...). Then the summary:
the games lost after foogo's own estimate had reached --collapse (a collapse: a misjudged position,
the first place to look for a bug or a blind spot), the games won from below 1 - --collapse, and
how many searches collected a full tree (their log line says "trees collected Nx": the memory cap
bound them, and their expansion threshold rose; foogo gtp --memory sets the cap).
--turns adds where the games turned: foogo's mean estimate at its 5th, 10th, ... move in the games it
won, lost and drew, and, for the lost games, the move of foogo's from which its estimate stayed below
0.45 (in bins of five): a game lost in the opening or middle game and one thrown away at its end
want different remedies.

The summary also counts foogo's starved searches, which had less of the machine than the match's
usual: another process took CPU. A match at fixed playouts shrugs that off; a timed match does not,
as its games were not played at the stated time per move, and the summary names each game with
SLOW_GAME or more. A log that gives each search's CPU time (foogo gtp since 2026-11-26: "CPU 9.71 s")
is judged by it: a search is starved whose CPU seconds over its wall seconds fell below --slow (0.6)
times the match's usual share (their 90th percentile: the engine's threads, when nothing else ran);
as in `foogo match`'s table, only searches of MIN_TIMED_SECONDS (0.25 s) or more are judged.
An older log is judged by playouts a second against the match's usual rate at that point of a game
(the 90th percentile of every game's rates over foogo's moves k - 5 .. k + 5, so that it holds while
most games are slow), a rougher measure: rates move with the position, a timed 19x19 game's within a
fifth of that, a 9x9 game's at fixed playouts by more. (It found games 1-5 of the 2026-11-26 19x19 run
against GNU Go at 42484a6 played at half foogo's CPU, although the notes said the work beside them ran
at nice 19: with the kernel's autogroups on, nice weighs only within one session, and `foogo match`
starts each engine in a session of its own. With autogroups off, niced work beside the next run still
starved a dozen of its searches (two games, 5-9 each): a timed match wants the machine to itself.)
"""

from __future__ import annotations

import argparse
import collections
import re
import sys
from pathlib import Path
from typing import NamedTuple

from sgfmill import sgf

from foogo.match_results import MIN_TIMED_SECONDS, STARVED_SHARE, USUAL_QUANTILE, black_score, named_colour

GENMOVE = re.compile(r"genmove (black|white): (\S+)")
RATE = re.compile(r"win rate ([\d.]+)%")
STOPPED = re.compile(r"stopped: (\w+)")
SPEED = re.compile(r"\((\d+)/s")
SECONDS = re.compile(r"playouts in ([\d.]+) s")
CPU = re.compile(r"CPU ([\d.]+) s")
COLLECTED = re.compile(r"trees collected (\d+)x")
SLOW = STARVED_SHARE  # a search below this share of the match's usual CPU share (or rate) is starved, as in foogo match
WINDOW = 5  # the usual rate at foogo's move k is taken over its moves k - WINDOW .. k + WINDOW
SLOW_GAME = 5  # a game with this many starved searches is named in the summary


class Logged(NamedTuple):
    """One genmove line of a foogo log."""
    colour: str
    move: str
    rate: float | None  # foogo's estimate, 0..1
    stopped: str | None  # why the search stopped
    speed: int | None  # playouts a second
    share: float | None  # the process's CPU seconds over the search's wall seconds
    collected: int  # full trees collected during the search (the memory cap bound; 0 in older logs)


def log_moves(path: Path) -> list[Logged]:
    """Every genmove line of a foogo log."""
    out = []
    for line in path.read_text(errors="replace").splitlines():
        m = GENMOVE.match(line)
        if m:
            rate, stopped, speed = RATE.search(line), STOPPED.search(line), SPEED.search(line)
            seconds, cpu, collected = SECONDS.search(line), CPU.search(line), COLLECTED.search(line)
            # a search of no playouts (a pass that wins at once) gives nothing to judge the machine by
            playouts = int(speed.group(1)) if speed and int(speed.group(1)) > 0 else None
            # and one shorter than MIN_TIMED_SECONDS (a settled search of 0.05 s, say, which one thread ran alone
            # before the other started) has no share to speak of: foogo match's table leaves both out alike
            share = None
            if playouts and seconds and cpu and float(seconds.group(1)) >= MIN_TIMED_SECONDS:
                share = float(cpu.group(1)) / float(seconds.group(1))
            out.append(Logged(m.group(1), m.group(2).upper(), float(rate.group(1)) / 100 if rate else None,
                              stopped.group(1) if stopped else None, playouts, share,
                              int(collected.group(1)) if collected else 0))
    return out


def sgf_moves(game: sgf.Sgf_game, colour: str) -> list[str]:
    """The GTP names of `colour`'s moves ('b' or 'w') in a game's main line ("PASS" for a pass)."""
    size = game.get_size()
    names = []
    for node in game.get_main_sequence()[1:]:
        c, move = node.get_move()
        if c == colour:
            if move is None:
                names.append("PASS")
            else:
                row, col = move
                names.append("ABCDEFGHJKLMNOPQRSTUVWXYZ"[col] + str(row + 1))
    assert size <= 25
    return names


def main_line(path: Path, data: bytes) -> tuple[sgf.Sgf_game, list] | None:
    """An SGF file's game and its main line's moves as sgfmill's (colour, move) pairs; None, named on
    stderr, for a file that is not a readable SGF or whose main line holds a node without a move (the move
    numbers after it would slip)."""
    try:
        game = sgf.Sgf_game.from_bytes(data)
        moves = [node.get_move() for node in game.get_main_sequence()[1:]]
    except ValueError as error:
        print(f"{path}: skipped, not a readable SGF ({str(error)[:100]})", file=sys.stderr)
        return None
    if any(colour is None for colour, _ in moves):
        print(f"{path}: skipped, a node of its main line holds no move", file=sys.stderr)
        return None
    return game, moves


def match_dirs(directory: Path) -> list[Path]:
    """The match directories in `directory`: itself if it holds games, else its job-* subdirectories."""
    if any(directory.glob("game-*.sgf")):
        return [directory]
    jobs = sorted(d for d in directory.glob("job-*") if d.is_dir())
    if not jobs:
        raise SystemExit(f"{directory}: no game-*.sgf and no job-* directories")
    return jobs


def foogo_log(directory: Path, engine: str) -> tuple[str, list]:
    """(foogo's engine, "A" or "B", and its genmove lines: log_moves) in the match in `directory`: engine
    `engine`'s log, or with "auto" the one of the two logs that has foogo's genmove lines, each log read
    once; SystemExit if the log is missing or has none, or with "auto" if neither or both have them."""
    if engine == "auto":
        found = {e: log_moves(directory / f"engine-{e}.stderr.log") for e in ("A", "B")
                 if (directory / f"engine-{e}.stderr.log").is_file()}
        with_lines = [e for e, lines in found.items() if lines]
        if len(with_lines) != 1:
            which = "neither engine's log has" if not with_lines else "both engines' logs have"
            raise SystemExit(f"{directory}: {which} foogo genmove lines: say which engine is foogo with --engine")
        return with_lines[0], found[with_lines[0]]
    log = directory / f"engine-{engine}.stderr.log"
    if not log.is_file():
        raise SystemExit(f"{directory}: no {log.name} (is foogo engine {engine}? see --engine)")
    lines = log_moves(log)
    if not lines:
        raise SystemExit(f"{log}: no foogo genmove lines (is foogo engine {engine}? see --engine)")
    return engine, lines


def review(directory: Path, engine: str, name: str) -> list[dict]:
    """One record per game of the match in `directory` (see the module's docstring; `game` holds the parsed
    SGF, for the scripts that read the games further); engine "A", "B" or "auto" (foogo_log)."""
    _, lines = foogo_log(directory, engine)
    at = 0
    games = []
    for path in sorted(directory.glob("game-*.sgf")):
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        root = game.get_root()
        colour = named_colour(root, name)
        if not colour:
            print(f"{path}: neither player's name holds {name!r}, or both do; skipped", file=sys.stderr)
            games.append(None)
            continue
        result = root.get("RE") if root.has_property("RE") else "?"
        score = black_score(result)  # 1, 0, 0.5 (a draw) or None (no result)
        won = None if score is None or score == 0.5 else (score == 1.0) == (colour == "b")
        moves = sgf_moves(game, colour)
        resigned = won is False and result.strip().upper().partition("+")[2] in ("R", "RESIGN")
        count = len(moves) + (1 if resigned else 0)
        mine = lines[at:at + count]
        expected = moves + (["RESIGN"] if resigned else [])
        if [m.move for m in mine] != expected:
            print(f"{path}: foogo's log does not match the game's moves; skipped", file=sys.stderr)
            games.append(None)
            continue
        at += count
        rates = [m.rate for m in mine if m.rate is not None]
        later = rates[5:] or rates
        games.append(dict(path=str(path), game=game, colour=colour, won=won,
                          result=result, moves=len(moves), peak=max(later, default=0.5),
                          low=min(later, default=0.5), rates=[m.rate for m in mine],
                          speeds=[m.speed for m in mine], shares=[m.share for m in mine],
                          collected=[m.collected for m in mine],
                          stopped=collections.Counter(m.stopped for m in mine if m.stopped)))
    return games


def _usual(values: list) -> float:
    """The USUAL_QUANTILE (foogo match's, 0.9) of the values that are not None (0 if none)."""
    known = sorted(v for v in values if v is not None)
    return known[min(len(known) - 1, int(USUAL_QUANTILE * len(known)))] if known else 0.0


def starved_searches(records: list[dict], slow: float = SLOW) -> tuple[list[int], str]:
    """(how many of each game's searches were starved, by what measure): by CPU share (below `slow`
    times the match's usual) if the log gives CPU times, else by playouts a second (below `slow` times
    the usual rate at that point of a game; see the module's docstring)."""
    if any(share is not None for r in records for share in r["shares"]):
        usual = _usual([v for r in records for v in r["shares"]])
        return [sum(v is not None and v < slow * usual for v in r["shares"]) for r in records], "CPU share"
    longest = max((len(r["speeds"]) for r in records), default=0)
    usual_at = [_usual([v for g in records for v in g["speeds"][max(0, k - WINDOW):k + WINDOW + 1]])
                for k in range(longest)]
    counts = [sum(v is not None and v < slow * usual_at[k] for k, v in enumerate(r["speeds"])) for r in records]
    return counts, "playouts a second"


TURN_MOVES = (5, 10, 15, 20, 25, 30)  # foogo's moves at which --turns gives the mean estimate
BEHIND = 0.45  # --turns: a lost game turned where foogo's estimate fell below this for good


def turns(records: list[dict]) -> str:
    """Where the games turned (--turns): mean estimates by foogo's move and outcome, and when each lost
    game's estimate fell below BEHIND for good."""
    lines = []
    for label, outcome in (("won", True), ("lost", False), ("drawn", None)):
        games = [r for r in records if r["won"] is outcome]
        if not games:
            continue
        cells = []
        for k in TURN_MOVES:
            rates = [r["rates"][k - 1] for r in games if len(r["rates"]) >= k and r["rates"][k - 1] is not None]
            if rates:
                cells.append(f"{k}: {sum(rates) / len(rates):.2f} ({len(rates)})")
        lines.append(f"{label} ({len(games)}): foogo's mean estimate at its move " + ", ".join(cells))
    bins: dict[int, int] = collections.Counter()
    for r in records:
        if r["won"] is False:
            k = len(r["rates"])
            while k > 0 and r["rates"][k - 1] is not None and r["rates"][k - 1] < BEHIND:
                k -= 1
            bins[k // 5 * 5] += 1
    if bins:
        lines.append(f"lost games by foogo's move from which its estimate stayed below {BEHIND}: "
                     + ", ".join(f"{k}-{k + 4}: {n}" for k, n in sorted(bins.items())))
    return "\n".join(lines)


def add_match_arguments(parser: argparse.ArgumentParser) -> None:
    """The arguments of every reader of match directories: the directories, which engine is foogo, its name."""
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--engine", default="auto", choices=("auto", "A", "B"),
                        help="which engine is foogo (default auto: the one whose log has foogo's genmove lines)")
    parser.add_argument("--name", default="foogo", help="what foogo's player name holds in the SGFs (any case)")


def reviewed_games(dirs: list[Path], engine: str, name: str):
    """The records (review) of every game in the match directories under `dirs` (match_dirs), in order,
    less the games whose log does not match their moves."""
    for directory in [d for given in dirs for d in match_dirs(given)]:
        for record in review(directory, engine, name):
            if record is not None:
                yield record


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    add_match_arguments(parser)
    parser.add_argument("--collapse", type=float, default=0.9, help="a lost game whose peak reached this")
    parser.add_argument("--games", action="store_true", help="one line per game too")
    parser.add_argument("--turns", action="store_true", help="where the games turned (see the docstring)")
    parser.add_argument("--slow", type=float, default=SLOW,
                        help="a search below this share of the match's usual CPU share (or rate) is starved")
    args = parser.parse_args(argv)
    records = []
    for record in reviewed_games(args.dirs, args.engine, args.name):
        records.append(record)
        if args.games:
            outcome = "won " if record["won"] else "lost" if record["won"] is False else "draw"
            stops = ", ".join(f"{k} {v}" for k, v in sorted(record["stopped"].items()))
            print(f"{record['path']}: {record['colour']} {outcome} {record['result']:>7s}, "
                  f"{record['moves']} moves, win rate {record['low']:.2f}..{record['peak']:.2f}; {stops}")
    lost = [r for r in records if r["won"] is False]
    won = [r for r in records if r["won"]]
    collapses = [r for r in lost if r["peak"] >= args.collapse]
    comebacks = [r for r in won if r["low"] <= 1 - args.collapse]
    print(f"{len(records)} games: {len(won)} won, {len(lost)} lost, {len(records) - len(won) - len(lost)} drawn")
    print(f"lost after reaching {args.collapse:.2f}: {len(collapses)}"
          + "".join(f"\n  {r['path']} ({r['colour']}, peak {r['peak']:.2f})" for r in collapses))
    print(f"won from {1 - args.collapse:.2f} or below: {len(comebacks)}"
          + "".join(f"\n  {r['path']} ({r['colour']}, low {r['low']:.2f})" for r in comebacks))
    starved, measure = starved_searches(records, args.slow)
    named = [(r, n) for r, n in zip(records, starved) if n >= SLOW_GAME]
    print(f"searches starved (their {measure} below {args.slow:.2f} of the match's usual): {sum(starved)} of "
          f"{sum(len(r['speeds']) for r in records)}, {SLOW_GAME} or more in {len(named)} games"
          + "".join(f"\n  {r['path']} ({n} of {len(r['speeds'])})" for r, n in named))
    collected = [n for r in records for n in r["collected"]]
    print(f"searches that collected a full tree (the memory cap bound): {sum(n > 0 for n in collected)} of "
          f"{len(collected)}, {sum(collected)} collections")
    if args.turns:
        print(turns(records))
    return 0


if __name__ == "__main__":
    sys.exit(main())
