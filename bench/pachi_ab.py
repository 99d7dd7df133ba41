"""foogo arms against Pachi side by side: same seeds, same playout counts, one table with each arm's
effect against the first arm (the control).

    python bench/pachi_ab.py --pachi PATH --foogo-playouts N --arm NAME=ARGS [--arm NAME=ARGS ...]
                             [--command NAME=CMD] [--pachi-playouts 10000] [--games 100]
                             [--seed-base 1000] [--timeout 120] [--out DIR] [--report-only]
                             [--paired [--jobs J] [--until HH:MM]] [--openings PATH [--opening-moves N]]
    python bench/pachi_ab.py --pachi PATH --time S [--threads T] [--until HH:MM] --arm NAME=ARGS ...
    python bench/pachi_ab.py --status --arm NAME= [--arm NAME= ...] --out DIR

Pachi at `=N` is nondeterministic, and runs of 50-100 games of one engine against it spread by
10-15 points from one day to the next (bench/RESULTS.md, "A nakade exception"), so a rule or prior
is measured beside its control, not against an older figure. Each arm (NAME=ARGS: `foogo gtp`
options such as `--policy heavy-nakade`; --command NAME=CMD starts that arm's foogo another way,
e.g. `env PYTHONPATH=/tmp/worktree python -m foogo gtp` for another commit) runs bench/vs_pachi.py
with one job, --foogo-playouts fixed and the same --seed-base, all arms at once: fixed playout
counts keep each game fair however the arms share the cores, and the arms see the same machine
for the whole run. The first arm is the control.

Each arm's games go to DIR/NAME. The table is tallied from the SGFs (RE, and the player whose name
holds "foogo"), so a run stopped part way, or still running, is read the same way
(--report-only reads and does not play): per arm its games, wins and draws (half a win), win rate
with its 95% Wilson interval, wins as black and as white, and its difference from the control with
a 95% interval (Newcombe's hybrid score interval from the two Wilson intervals); then each arm's
CPU seconds a move, from foogo's genmove log lines, and how far it is from the control's (an
equal-CPU A/B holds only if these agree). Written to DIR/ab.txt as well.

--paired plays paired games, for a Pachi that repeats its games (the README's "Reference engines"
says how to build one; stock Pachi plays a varying number of playouts past =N, so its games never
repeat; in won positions Pachi here plays all N, as its early break there comes at a varying count).
Game i of every arm is a `foogo match` of one game of its own, both engines started afresh with
seed --seed-base + i (Pachi black in even games, foogo in odd ones), in DIR/NAME/job-i, so that two
arms play the same game move for move as long as their moves agree: an arm that differs from the
control only in rare positions differs in a few games, and only those carry its effect. A game
whose job-i.json says it was played to its end is not played again, so a run stopped part way goes
on where it stopped (the game in progress then is played again), and a larger --games extends it;
an arm added later is measured on the control's games already played. --jobs J plays J games at
once, of any arm, in order of their index (default: one game an arm at a time).

--time S [--threads T] plays at S seconds a move on T threads each instead (the issue's second condition:
`--time 5 --threads 2` against the stock Pachi's `-t 5 threads=2`), with --paired's machinery (game i of every
arm in DIR/NAME/job-i, seed --seed-base + i, Pachi black in even games, resumable) but never two games at
once, as timed games must not share the cores: game by game, the arms' games i interleaved, the arm going
first turning with i, so that every arm sees the same hours of the machine. --until HH:MM (the machine's local
time; a time already past today is tomorrow's), with --paired or --time, starts no game after that time: a
part of a block spread over sessions ends at a time fixed before it starts, and the games in play then end as
they would have. --openings PATH [--opening-moves N] (an SGF file or a directory of them), with --paired or
--time, starts game i from the first N moves of opening i // 2 (sorted by name), played on both engines and
the referee (`foogo match --opening`): each opening is played with both colours, and a rule that matters late
in the game is measured where it plays, in games half as long (the positions of 5-s games at move 40, say,
where those games turn).

--status shows a --paired or --time run's progress blind, for a pre-registered block that is judged only
at its planned size: each arm's games played to their end and those begun and not, the illegal moves,
timeouts and crashes, foogo's CPU a move, the complete sets (game i played by every arm), and foogo's
playouts a CPU second by ten games at a time: the host's pace, which a timed block's parts should note. It
reads no result (no SGF, no summary's wins); it plays nothing and writes nothing. A --paired or --time run that ends
short of --games in some arm (a part stopped by --until, or games that failed) prints the same, not its
results: they are read at the planned size, by --report-only or by the run that plays the last game.

Every game runs with DIR as its current directory (paths given relative are taken from where the
script started): `python -m foogo` puts the current directory first on sys.path, so an arm whose
--command sets PYTHONPATH to a worktree would otherwise, started from a checkout's root, import
that checkout's foogo instead, and two arms would silently be one engine. The `foogo match` that
plays each game is this script's checkout's (parallel_match.harness_env), not an editable install's, and
each game starts it afresh: once foogo's sources in that checkout change (parallel_match.source_fingerprint),
no further game starts, since an edit would reach the harness halfway (run the script from a clone that nobody
edits, e.g. `PYTHONPATH=CLONE python CLONE/bench/pachi_ab.py ...`; run it again to go on).
The table then adds, for each arm, the games it and the control both finished: how many are the
same move for move, where
the others part (median move), the four cells of (arm won, control won), and the paired
difference with its 95% interval (Newcombe's method 10 for paired proportions: the Wilson
intervals of the two rates joined with their correlation); a draw counts half a win. Last, the
games each arm parted in, with both results: the games to review.

This script plays; bench/ab_tally.py reads (the tallies, the intervals, --status and --report-only's tables).
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ab_tally import paired_report, played, report, status
from option_caps import refuse_seconds
from parallel_match import CHECKOUT, harness_env, source_fingerprint
from vs_pachi import FOOGO_GTP, absolute_engine, foogo_command, pachi_command, player_names, refuse_counts

from foogo.gtp.clock import TimeManager
from foogo.match import MAX_GAMES
from foogo.playout import MAX_THREADS
from foogo.search import MAX_PLAYOUTS

HARNESS_CHANGED = 75  # a game's exit code when it was not started because foogo's code changed during the run


def _named(values: list[str], what: str, parser: argparse.ArgumentParser) -> dict[str, str]:
    """NAME=VALUE pairs as a dict, in order; a clear error for a malformed or repeated one."""
    pairs: dict[str, str] = {}
    for value in values:
        name, sep, rest = value.partition("=")
        if not sep or not name or "/" in name or name in pairs:
            parser.error(f"{what} wants NAME=VALUE with a new name (no '/'): {value!r}")
        pairs[name] = rest
    return pairs


def arm_arguments(args, name: str, options: str, command: str | None) -> list[str]:
    """bench/vs_pachi.py's arguments for one arm: its foogo options (joined to their flag with "=", so that
    options such as "--dynamic-komi" are not read as vs_pachi's own), one job, the shared seeds and counts,
    its games in --out/NAME; started by `command` if given."""
    arguments = ["--pachi", args.pachi, "--pachi-playouts", str(args.pachi_playouts),
                 "--foogo-playouts", str(args.foogo_playouts), f"--foogo-args={options}",
                 "--games", str(args.games), "--jobs", "1", "--seed-base", str(args.seed_base),
                 "--timeout", str(args.timeout), "--out", str(Path(args.out) / name)]
    return arguments + (["--foogo-command", command] if command is not None else [])


def paired_commands(args, name: str, options: str, command: str | None, game: int) -> list[str]:
    """The `foogo match` command line of game `game` of an arm (--paired, --time): one game, both engines
    started with seed --seed-base + game, Pachi black in even games, in --out/NAME/job-GAME. At fixed
    playouts Pachi's break in a won position (its best move's value past sure_win_threshold, 0.95, after
    5,000 playouts) is off: its main thread's poll times that break, so it came at a varying count. With
    --time both play S seconds a move on --threads threads, Pachi as it comes (`-t S`)."""
    seed = args.seed_base + game
    timed = args.time
    if timed:
        pachi = f"{args.pachi} -t {timed:g} threads={args.threads} -s {seed}"
        foogo = f"{foogo_command(command or FOOGO_GTP, options, args.threads, 9)} --time {timed:g} --seed {seed}"
        names = (f"Pachi 12.90 {timed:g}s", f"foogo {timed:g}s")
    else:
        pachi = f"{pachi_command(args.pachi, args.pachi_playouts, 1, engine='sure_win_threshold=2')} -s {seed}"
        foogo = f"{foogo_command(command or FOOGO_GTP, options, 1, 9)} --playouts {args.foogo_playouts} --seed {seed}"
        names = player_names(args.pachi_playouts, args.foogo_playouts)
    players = list(zip((pachi, foogo), names))
    if game % 2:
        players.reverse()
    directory = Path(args.out) / name / f"job-{game}"
    opening = []
    if args.openings:  # opening game // 2: each one with both colours
        opening = ["--opening", str(args.openings[game // 2 % len(args.openings)]),
                   "--opening-moves", str(args.opening_moves)]
    return [sys.executable, "-m", "foogo", "match", "--black", players[0][0], "--white", players[1][0],
            "--black-name", players[0][1], "--white-name", players[1][1], "--games", "1", "--size", "9",
            "--komi", "7", "--timeout", str(args.timeout), "--sgf-dir", str(directory),
            "--json", str(directory.parent / f"job-{game}.json"), "--quiet", "--overwrite", *opening]


def game_order(arms: list[str], games: int, timed: bool) -> list[tuple[str, int]]:
    """(arm, game) in the order they are played: game by game, each arm's game i before any game i + 1;
    timed (--time), the arm going first turns with i (game 0: the control first, game 1: the second arm...)."""
    order = []
    for game in range(games):
        turn = game % len(arms) if timed else 0
        order += [(name, game) for name in arms[turn:] + arms[:turn]]
    return order


def play_paired(args, arms: dict[str, str], commands: dict[str, str]) -> list[int]:
    """Every arm's games 0 .. --games - 1 not yet played (`played`), in game_order, --jobs of them at once
    (None: one an arm, the arms side by side; timed: one at a time, none started past --until); each
    game's `foogo match` output goes to --out/NAME.log. The exit codes of the games that failed."""
    timed = bool(args.time)
    until = args.until
    todo = [(name, game) for name, game in game_order(list(arms), args.games, timed)
            if not played(Path(args.out) / name / f"job-{game}.json")]
    for name in arms:  # where each game's `foogo match --json` goes, which refuses a directory that is not there
        (Path(args.out) / name).mkdir(parents=True, exist_ok=True)

    begun = source_fingerprint()
    changed = threading.Event()  # set at the first game refused: the pool's other threads refuse theirs at once

    def play(job: tuple[str, int]) -> int:
        name, game = job
        if until is not None and time.time() >= until:
            return 0
        if changed.is_set() or source_fingerprint() != begun:  # an edit would reach this game's harness
            if not changed.is_set():
                print(f"pachi_ab: foogo's code under {CHECKOUT} changed since the run began: no game starts from "
                      f"game {game} of {name} on (run the script from a clone that nobody edits, then again to go "
                      "on)", file=sys.stderr, flush=True)
            changed.set()
            return HARNESS_CHANGED
        with open(Path(args.out) / f"{name}.log", "a") as log:
            return subprocess.call(paired_commands(args, name, arms[name], commands.get(name), game),
                                   stdout=log, stderr=subprocess.STDOUT, cwd=args.out, env=harness_env())

    with ThreadPoolExecutor(max_workers=1 if timed else args.jobs or len(arms)) as pool:
        return [code for code in pool.map(play, todo) if code]


def opening_files(parser: argparse.ArgumentParser, path: str) -> list[Path]:
    """--openings' SGF files, absolute (the games run in --out): the file, or a directory's *.sgf sorted by name;
    a clear error for a path that is neither or a directory without one. Each file is read by the match."""
    where = Path(path).resolve()
    files = sorted(where.glob("*.sgf")) if where.is_dir() else [where] if where.is_file() else []
    if not files:
        parser.error(f"--openings {path}: neither an SGF file nor a directory holding one")
    return files


def clock_time(text: str, now: datetime.datetime | None = None) -> float:
    """--until's HH:MM as the epoch seconds of its next coming (the machine's local time): a time of day
    already past today is tomorrow's, so a run started at 23:00 with --until 01:00 plays two hours."""
    hours, _, minutes = text.partition(":")
    if not (hours.isdigit() and minutes.isdigit() and int(hours) < 24 and int(minutes) < 60):
        raise argparse.ArgumentTypeError(f"want HH:MM, got {text!r}")
    now = now or datetime.datetime.now()
    stop = now.replace(hour=int(hours), minute=int(minutes), second=0, microsecond=0)
    if stop <= now:
        stop += datetime.timedelta(days=1)
    return stop.timestamp()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pachi", help="path of the pachi binary (not needed with --report-only)")
    parser.add_argument("--arm", action="append", default=[], required=True,
                        help="NAME=foogo gtp options; the first arm is the control (repeat for each arm)")
    parser.add_argument("--command", action="append", default=[],
                        help="NAME=how to start that arm's foogo gtp (default: this Python's -m foogo gtp)")
    parser.add_argument("--foogo-playouts", type=int, help="foogo's playouts a move (see bench/vs_pachi.py)")
    parser.add_argument("--pachi-playouts", type=int, default=10000)
    parser.add_argument("--games", type=int, default=100, help="games of each arm")
    parser.add_argument("--seed-base", type=int, default=1000)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--out", default="pachi-ab", help="directory: one subdirectory an arm")
    parser.add_argument("--report-only", action="store_true", help="tally the arms' games so far; play none")
    parser.add_argument("--status", action="store_true",
                        help="a --paired or --time run's progress without its results (see above); play none")
    parser.add_argument("--paired", action="store_true",
                        help="paired games: each game afresh with its own seed (for a Pachi that repeats its games)")
    parser.add_argument("--jobs", type=int, default=None,
                        help="with --paired: games played at once, of any arm (default: one an arm)")
    parser.add_argument("--time", type=float, default=None, metavar="S",
                        help="S seconds a move for both engines instead of playout counts, one game at a time")
    parser.add_argument("--threads", type=int, default=1, help="with --time: threads for each engine")
    parser.add_argument("--until", type=clock_time, default=None, metavar="HH:MM",
                        help="with --paired or --time: start no game after this time of day")
    parser.add_argument("--openings", metavar="PATH", default=None,
                        help="with --paired or --time: an SGF file, or a directory of them (sorted by name); game i "
                             "starts from the first --opening-moves moves of opening i // 2, so each is played "
                             "with both colours (foogo match --opening)")
    parser.add_argument("--opening-moves", type=int, default=20, metavar="N",
                        help="with --openings: how many of each opening's moves (default 20)")
    args = parser.parse_args(argv)
    arms = _named(args.arm, "--arm", parser)
    commands = _named(args.command, "--command", parser)
    unknown = set(commands) - set(arms)
    if unknown:
        parser.error(f"--command for no arm: {', '.join(sorted(unknown))}")
    if args.jobs is not None and (args.jobs < 1 or not args.paired):
        parser.error("--jobs is for --paired runs, and at least 1")
    if args.time is not None:
        refuse_seconds(parser, "--time", args.time, TimeManager.MAX_BUDGET, " s (foogo gtp's)")
        if args.foogo_playouts or args.jobs is not None:
            parser.error("--time wants neither --foogo-playouts nor --jobs (one game at a time)")
    if args.threads != 1 and args.time is None:
        parser.error("--threads is for --time runs")
    if args.until is not None and not (args.paired or args.time):
        parser.error("--until is for --paired and --time runs")
    if args.openings is not None:
        if not (args.paired or args.time):
            parser.error("--openings is for --paired and --time runs")
        args.openings = opening_files(parser, args.openings)
    if args.status and args.report_only:
        parser.error("--status shows a run's progress without its results, --report-only its results: one of them")
    if args.threads < 1:
        parser.error("--threads must be at least 1")
    # the engines' caps: a match's games (game_order lists them all before the first is played), a search's
    # playouts, a search's threads (also the games at once: each takes a core); the match's wait for a move
    counts = (("--games", args.games, MAX_GAMES), ("--foogo-playouts", args.foogo_playouts, MAX_PLAYOUTS),
              ("--pachi-playouts", args.pachi_playouts, MAX_PLAYOUTS), ("--jobs", args.jobs, MAX_THREADS),
              ("--threads", args.threads, MAX_THREADS))
    refuse_counts(parser, counts, args.timeout)
    # the games run in --out (cwd): `python -m foogo` puts its current directory first on sys.path, so an arm
    # started from a checkout's root would import that checkout's foogo whatever its --command's PYTHONPATH says
    args.out = str(Path(args.out).resolve())
    if args.pachi:
        args.pachi = absolute_engine(args.pachi)
    out = Path(args.out)
    if args.status:
        print(status(list(arms), out))
        return 0
    if not args.report_only:
        if not args.pachi or not (args.foogo_playouts or args.time):
            parser.error("playing needs --pachi and --foogo-playouts (bench/vs_pachi.py --calibrate-only finds it) "
                         "or --time")
        out.mkdir(parents=True, exist_ok=True)
        if args.paired or args.time:
            codes = play_paired(args, arms, commands)
        else:
            script = str(Path(__file__).with_name("vs_pachi.py"))
            procs = []
            for name, options in arms.items():
                command = [sys.executable, script, *arm_arguments(args, name, options, commands.get(name))]
                with open(out / f"{name}.log", "w") as log:
                    # vs_pachi runs its engines in its own --out (an absolute path: arm_arguments)
                    procs.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
            codes = [p.wait() for p in procs]
        if any(codes):
            print(f"an arm failed (exit codes {codes}; see {out}/NAME.log)", file=sys.stderr)
            if not (args.paired or args.time):
                # an arm that refused its --out (an earlier run's games there) played nothing: the SGFs there
                # are another run's, and a table of them would read as this one's
                print("no result shown (--report-only tallies what the arms' directories hold)")
                return 1
        if (args.paired or args.time) and not all(played(out / name / f"job-{game}.json")
                                                  for name in arms for game in range(args.games)):
            # a part of a block (--until), or a run some games of which failed: its results wait for the
            # planned size, so that stopping a part never shows them (--report-only tallies them)
            print(status(list(arms), out))
            print(f"short of --games {args.games} in some arm: no result shown (--report-only tallies them)")
            return 0
    table = report(list(arms), out)
    if args.paired and len(arms) > 1:
        table += "\n\n" + paired_report(list(arms), out)
    if out.is_dir():
        (out / "ab.txt").write_text(table + "\n")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
