"""foogo arms against Pachi side by side: same seeds, same playout counts, one table with each arm's
effect against the first arm (the control).

    python bench/pachi_ab.py --pachi PATH --foogo-playouts N --arm NAME=ARGS [--arm NAME=ARGS ...]
                             [--command NAME=CMD] [--pachi-playouts 10000] [--games 100]
                             [--seed-base 1000] [--timeout 120] [--out DIR] [--report-only]
                             [--paired [--jobs J] [--until HH:MM]]
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
starts with "foogo"), so a run stopped part way, or still running, is read the same way
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

--time S [--threads T] plays at S seconds a move on T threads each instead (the issue's second
condition: `--time 5 --threads 2` against the stock Pachi's `-t 5 threads=2`), with --paired's
machinery (game i of every arm in DIR/NAME/job-i, seed --seed-base + i, Pachi black in even games,
resumable) but never two games at once, as timed games must not share the cores: game by game, the
arms' games i interleaved, the arm going first turning with i, so that every arm sees the same
hours of the machine. --until HH:MM (the machine's local time), with --paired or --time, starts no game
after that time: a part of a block spread over sessions ends at a time fixed before it starts, and the
games in play then end as they would have.

--status shows a --paired or --time run's progress blind, for a pre-registered block that is judged only
at its planned size: each arm's games played to their end and those begun and not, the illegal moves,
timeouts and crashes, foogo's CPU a move, and the complete sets (game i played by every arm). It reads no
result (no SGF, no summary's wins); it plays nothing and writes nothing. A --paired or --time run that ends
short of --games in some arm (a part stopped by --until, or games that failed) prints the same, not its
results: they are read at the planned size, by --report-only or by the run that plays the last game.

Every game runs with DIR as its current directory (paths given relative are taken from where the
script started): `python -m foogo` puts the current directory first on sys.path, so an arm whose
--command sets PYTHONPATH to a worktree would otherwise, started from a checkout's root, import
that checkout's foogo instead, and two arms would silently be one engine. The `foogo match` that
plays each game is this script's checkout's (parallel_match.harness_env), not an editable install's.
The table then adds, for each arm, the games it and the control both finished: how many are the
same move for move, where
the others part (median move), the four cells of (arm won, control won), and the paired
difference with its 95% interval (Newcombe's method 10 for paired proportions: the Wilson
intervals of the two rates joined with their correlation); a draw counts half a win. Last, the
games each arm parted in, with both results: the games to review.
"""

from __future__ import annotations

import argparse
import datetime
import json
import math
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from option_caps import refuse_seconds
from parallel_match import harness_env
from sgfmill import sgf
from vs_pachi import FOOGO_GTP, absolute_engine, foogo_command, pachi_command, player_names, refuse_counts

from foogo.gtp.clock import TimeManager
from foogo.intervals import wilson
from foogo.match import MAX_GAMES
from foogo.match_results import black_score
from foogo.playout import MAX_THREADS
from foogo.search import MAX_PLAYOUTS


def foogo_score(root, name: str = "foogo") -> tuple[str, float] | None:
    """(colour "b" or "w", score 1, 0.5 or 0) of the player whose name starts with `name` in a game's
    SGF root, or None when the game has no such single player or no result (RE[Void], or none)."""
    players = {c: root.get(k) if root.has_property(k) else "" for c, k in (("b", "PB"), ("w", "PW"))}
    ours = [c for c, player in players.items() if player.startswith(name)]
    black = black_score(root.get("RE")) if root.has_property("RE") else None
    if len(ours) != 1 or black is None:
        return None
    return ours[0], black if ours[0] == "b" else 1.0 - black


def tally(directory: Path, name: str = "foogo") -> dict:
    """Wins, losses and draws of the player whose name starts with `name` in directory's game SGFs
    (directly in it or in its job-* directories), overall and by colour; games with no result (a
    game in progress has no file yet; a void game has RE[Void] or none) are counted apart."""
    counts = {"wins": 0, "losses": 0, "draws": 0, "unscored": 0, "black": [0.0, 0], "white": [0.0, 0]}
    for path in sorted(directory.glob("game-*.sgf")) + sorted(directory.glob("job-*/game-*.sgf")):
        scored = foogo_score(sgf.Sgf_game.from_bytes(path.read_bytes()).get_root(), name)
        if scored is None:
            counts["unscored"] += 1
            continue
        colour, score = scored
        if score == 0.5:
            counts["draws"] += 1
        else:
            counts["wins" if score else "losses"] += 1
        side = counts["black" if colour == "b" else "white"]
        side[0] += score
        side[1] += 1
    counts["games"] = counts["wins"] + counts["losses"] + counts["draws"]
    counts["points"] = counts["wins"] + 0.5 * counts["draws"]
    return counts


_PROCESS_START = "foogo gtp: loading kernels"  # what foogo gtp writes first (command.run)
_GENMOVE_SEARCH = re.compile(r"^genmove (?:black|white): \S+ \| ([0-9]+) playouts .*?CPU ([0-9.]+) s", re.MULTILINE)


def foogo_searches(directory: Path) -> list[tuple[int, float]]:
    """(playouts, CPU seconds) of each of foogo's searches, from the genmove lines of the engine logs
    in directory's job-* directories (foogo gtp logs `genmove C: V | N playouts in ... CPU X s ...`;
    Pachi's lines do not match), each process's first search left out: it may load the kernels. A log
    is appended to by every process a job starts (a game played again, an engine restarted after a
    crash): each `foogo gtp: loading kernels` line begins a process."""
    searches = []
    for path in sorted(directory.glob("job-*/engine-*.stderr.log")):
        for process in path.read_text(errors="replace").split(_PROCESS_START):
            searches += [(int(n), float(x)) for n, x in _GENMOVE_SEARCH.findall(process)][1:]
    return searches


def foogo_cpu(searches: list[tuple[int, float]]) -> tuple[float, int]:
    """foogo's mean CPU seconds a search and the searches counted, of foogo_searches' list; (0.0, 0) with none."""
    seconds = [x for _, x in searches]
    return (sum(seconds) / len(seconds) if seconds else 0.0), len(seconds)


def foogo_playout_cost(searches: list[tuple[int, float]]) -> float:
    """foogo's CPU microseconds a playout over foogo_searches' list; 0.0 with none. At fixed playouts an
    arm's equal-CPU count is the control's count times the control's cost over the arm's."""
    playouts = sum(n for n, _ in searches)
    return 1e6 * sum(x for _, x in searches) / playouts if playouts else 0.0


def difference(points1: float, n1: int, points2: float, n2: int) -> tuple[float, float, float]:
    """(p1 - p2, low, high): the difference of two win rates and its 95% interval (Newcombe 1998,
    method 10: the hybrid score interval from each rate's Wilson interval)."""
    p1, p2 = points1 / n1, points2 / n2
    l1, u1 = wilson(points1, n1)
    l2, u2 = wilson(points2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


def paired_difference(pairs: list[tuple[float, float]]) -> tuple[float, float, float]:
    """(p1 - p2, low, high) for paired results (score1, score2), each 1, 0.5 or 0 (a draw half a win):
    the difference of the two win rates and its 95% interval by Newcombe's method 10 (Statistics in
    Medicine 17, 1998, 2635-2650): each rate's Wilson interval, joined with the phi correlation of
    the pairs' 2x2 table, corrected as Newcombe does (a draw spreads its pair over the cells by halves)."""
    n = len(pairs)
    if n == 0:
        return 0.0, -1.0, 1.0
    cell = [[0.0, 0.0], [0.0, 0.0]]  # cell[won1][won2]
    for s1, s2 in pairs:
        for won1, w1 in ((1, s1), (0, 1.0 - s1)):
            for won2, w2 in ((1, s2), (0, 1.0 - s2)):
                cell[won1][won2] += w1 * w2
    a, b, c, d = cell[1][1], cell[1][0], cell[0][1], cell[0][0]
    p1, p2 = (a + b) / n, (a + c) / n
    l1, u1 = wilson(a + b, n)
    l2, u2 = wilson(a + c, n)
    denominator = (a + b) * (c + d) * (a + c) * (b + d)
    # phi, with Newcombe's correction: ad - bc less n/2 when it is above n/2, and 0 from 0 to n/2
    excess = a * d - b * c
    excess = excess - n / 2 if excess > n / 2 else min(excess, 0.0)
    phi = excess / math.sqrt(denominator) if denominator > 0 else 0.0
    below = math.sqrt(max(0.0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2))
    above = math.sqrt(max(0.0, (u1 - p1) ** 2 - 2 * phi * (u1 - p1) * (p2 - l2) + (p2 - l2) ** 2))
    diff = p1 - p2
    return diff, max(-1.0, diff - below), min(1.0, diff + above)


def paired_games(directory: Path, name: str = "foogo") -> dict[int, tuple[list, float]]:
    """Game index i -> (moves, foogo's score) of each scored game directory/job-i/game-0001.sgf that
    --paired wrote (moves as sgfmill's (colour, move) pairs)."""
    games = {}
    for path in directory.glob("job-*/game-0001.sgf"):
        index = path.parent.name.removeprefix("job-")
        if not index.isdigit():
            continue
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        scored = foogo_score(game.get_root(), name)
        if scored is not None:
            games[int(index)] = ([node.get_move() for node in game.get_main_sequence()[1:]], scored[1])
    return games


def parting(moves1: list, moves2: list) -> int | None:
    """The number of the first move at which two games differ (1 for the first), None if they are the
    same game; one that stops where the other goes on parts at the move after its last."""
    for k, (m1, m2) in enumerate(zip(moves1, moves2)):
        if m1 != m2:
            return k + 1
    return None if len(moves1) == len(moves2) else min(len(moves1), len(moves2)) + 1


def paired_report(arms: list[str], out: Path) -> str:
    """Each arm's games against the control's of the same index (--paired): how many are the same game,
    where the others part, the 2x2 table of wins and the paired difference with its 95% interval; then,
    for each arm, the games that parted (the only ones that carry its effect), to review."""
    control = paired_games(out / arms[0])
    rows = ["arm | pairs | same game | parted at move (median, range) | both won | arm only | " + arms[0]
            + " only | both lost | against " + arms[0] + ", paired (95% CI)",
            "---|---:|---:|---:|---:|---:|---:|---:|---:"]
    notes = []
    for arm in arms[1:]:
        games = paired_games(out / arm)
        common = sorted(set(games) & set(control))
        if not common:
            rows.append(f"{arm} | 0 | | | | | | |")
            continue
        parts = [parting(games[i][0], control[i][0]) for i in common]
        parted = sorted(k for k in parts if k is not None)
        where = (f"{parted[len(parted) // 2]} ({parted[0]}-{parted[-1]})" if parted else "")
        pairs = [(games[i][1], control[i][1]) for i in common]
        cells = [sum(1 for s1, s2 in pairs if (s1, s2) == key) for key in ((1, 1), (1, 0), (0, 1), (0, 0))]
        draws = len(pairs) - sum(cells)
        d, low, high = paired_difference(pairs)
        rows.append(f"{arm} | {len(common)} | {parts.count(None)} | {where} | {cells[0]} | {cells[1]} | "
                    f"{cells[2]} | {cells[3]} | {100 * d:+.1f} points ({100 * low:+.1f} to {100 * high:+.1f})"
                    + (f" ({draws} pairs with a draw)" if draws else ""))
        notes.append(f"{arm} parted from {arms[0]} in games (index (move: foogo's score in {arms[0]} / in {arm})): "
                     + (", ".join(f"{i} ({k}: {control[i][1]:g} / {games[i][1]:g})"
                                  for i, k in zip(common, parts) if k is not None) or "none"))
    return "\n".join(rows + [""] + notes)


def report(arms: list[str], out: Path) -> str:
    """The table of every arm's tally in out/NAME, each against the first arm."""
    rows = ["arm | games | won | drawn | win rate (95% CI) | as black | as white | against " + arms[0]
            + " (95% CI)", "---|---:|---:|---:|---:|---:|---:|---:"]
    tallies = {arm: tally(out / arm) for arm in arms}
    control = tallies[arms[0]]
    for arm, t in tallies.items():
        n = t["games"]
        if n == 0:
            rows.append(f"{arm} | 0 | | | | | |")
            continue
        low, high = wilson(t["points"], n)
        sides = [f"{points:g}/{games}" for points, games in (t["black"], t["white"])]
        versus = ""
        if arm != arms[0] and control["games"]:
            d, dl, dh = difference(t["points"], n, control["points"], control["games"])
            versus = f"{100 * d:+.1f} points ({100 * dl:+.1f} to {100 * dh:+.1f})"
        rows.append(f"{arm} | {n} | {t['wins']} | {t['draws']} | {100 * t['points'] / n:.1f}% "
                    f"({100 * low:.1f}-{100 * high:.1f}%) | {sides[0]} | {sides[1]} | {versus}")
        if t["unscored"]:
            rows[-1] += f" ({t['unscored']} unscored)"
    # an equal-CPU A/B is equal only if the arms' searches cost the same: the CPU a move tells
    searches = {arm: foogo_searches(out / arm) for arm in arms}  # each arm's logs read once
    cpu = {arm: foogo_cpu(found) for arm, found in searches.items()}
    if any(count for _, count in cpu.values()):

        def against_first(arm: str, value: float, base: float) -> str:
            return f" ({100 * (value / base - 1):+.1f}%)" if arm != arms[0] and base and value else ""

        base = cpu[arms[0]][0]
        parts = [(f"{arm} {seconds:.4f} over {count}" if count else f"{arm} n/a") + against_first(arm, seconds, base)
                 for arm, (seconds, count) in cpu.items()]
        rows += ["", "foogo's CPU s a move (its genmove logs, each process's first search left out): "
                 + "; ".join(parts)]
        cost = {arm: foogo_playout_cost(found) for arm, found in searches.items()}
        base = cost[arms[0]]
        rows.append("foogo's CPU a playout over the same searches: " + "; ".join(
            (f"{arm} {us:.3f} us" if us else f"{arm} n/a") + against_first(arm, us, base) for arm, us in cost.items()))
    return "\n".join(rows)


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
    return [sys.executable, "-m", "foogo", "match", "--black", players[0][0], "--white", players[1][0],
            "--black-name", players[0][1], "--white-name", players[1][1], "--games", "1", "--size", "9",
            "--komi", "7", "--timeout", str(args.timeout), "--sgf-dir", str(directory),
            "--json", str(directory.parent / f"job-{game}.json"), "--quiet", "--overwrite"]


def played(summary: Path) -> bool:
    """Whether a --paired game's `foogo match --json` summary says its game was played to the end: one
    that was stopped (the match interrupted, no game counted) or whose file is damaged (_summary) is not."""
    data = _summary(summary)
    return data is not None and played_summary(data)


def played_summary(data: dict) -> bool:
    """played, of a summary already read."""
    return data.get("games") == 1 and not data.get("interrupted")


FAULTS = ("illegal_moves", "timeouts", "crashes")  # a `foogo match --json` engine's fault counts


def _summary(path: Path) -> dict | None:
    """A --paired job's `foogo match --json` summary, or None if it is unreadable or not shaped as one (its
    engines a list of objects whose fault counts are whole numbers): a damaged file is a game not played."""
    try:
        data = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict):
        return None
    engines = data.get("engines", [])
    if not isinstance(engines, list) or not all(
            isinstance(e, dict) and all(type(e.get(key, 0)) is int for key in FAULTS) for e in engines):
        return None
    return data


def _summaries(directory: Path) -> dict[int, dict | None]:
    """Game index i -> job-i.json's summary under directory (_summary: None if damaged), for every --paired job."""
    return {int(path.stem.removeprefix("job-")): _summary(path) for path in directory.glob("job-*.json")
            if path.stem.removeprefix("job-").isdigit()}


def _spans(indices: list[int]) -> str:
    """Sorted game indices as spans: [0, 1, 2, 5] -> "0-2, 5"."""
    spans: list[list[int]] = []
    for i in indices:
        if spans and i == spans[-1][1] + 1:
            spans[-1][1] = i
        else:
            spans.append([i, i])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in spans) or "none"


def status(arms: list[str], out: Path) -> str:
    """A blind view of a --paired or --time run, for watching a pre-registered block: per arm the games played
    to their end (`played`), the games begun and not (in play, or stopped: played again on the next run), the
    illegal moves, timeouts and crashes their summaries count (both engines: a block needs 0), and foogo's CPU a
    move over its searches; then the complete sets, game i played by every arm. It reads no SGF, and takes only
    whether a game ended and its fault counts from a summary, and only CPU seconds from foogo's logs, so it
    shows no result before the block's planned size, where --report-only tallies them. (What it shows still
    hints, weakly: a fault usually forfeits a game, and the searches counted are the moves foogo played.)"""
    rows = ["arm | played | begun, not played | illegal moves | timeouts | crashes | foogo's CPU s a move (searches)",
            "---|---:|---:|---:|---:|---:|---:"]
    done = []
    for arm in arms:
        summaries = _summaries(out / arm)
        finished = sorted(i for i, data in summaries.items() if data is not None and played_summary(data))
        begun = {int(p.name.removeprefix("job-")) for p in (out / arm).glob("job-*")
                 if p.is_dir() and p.name.removeprefix("job-").isdigit()} | set(summaries)
        open_games = sorted(begun - set(finished))
        faults = [sum(engine.get(key, 0) for data in summaries.values() if data is not None
                      for engine in data.get("engines", [])) for key in FAULTS]
        seconds, searches = foogo_cpu(foogo_searches(out / arm))
        rows.append(f"{arm} | {len(finished)} | {len(open_games)}" + (f" ({_spans(open_games)})" if open_games else "")
                    + f" | {faults[0]} | {faults[1]} | {faults[2]} | "
                    + (f"{seconds:.3f} ({searches})" if searches else "n/a"))
        done.append(set(finished))
    complete = sorted(set.intersection(*done)) if done else []
    rows += ["", f"complete sets (game i played by every arm): {len(complete)}: {_spans(complete)}",
             "(no result read: --report-only tallies them)"]
    return "\n".join(rows)


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

    def play(job: tuple[str, int]) -> int:
        name, game = job
        if until is not None and time.time() >= until:
            return 0
        with open(Path(args.out) / f"{name}.log", "a") as log:
            return subprocess.call(paired_commands(args, name, arms[name], commands.get(name), game),
                                   stdout=log, stderr=subprocess.STDOUT, cwd=args.out, env=harness_env())

    with ThreadPoolExecutor(max_workers=1 if timed else args.jobs or len(arms)) as pool:
        return [code for code in pool.map(play, todo) if code]


def clock_time(text: str) -> float:
    """--until's HH:MM as the epoch seconds of that time today (the machine's local time)."""
    hours, _, minutes = text.partition(":")
    if not (hours.isdigit() and minutes.isdigit() and int(hours) < 24 and int(minutes) < 60):
        raise argparse.ArgumentTypeError(f"want HH:MM, got {text!r}")
    now = datetime.datetime.now()
    return now.replace(hour=int(hours), minute=int(minutes), second=0, microsecond=0).timestamp()


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
