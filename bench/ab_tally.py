"""Reading an A/B against Pachi (bench/pachi_ab.py) from its files: each arm's tally from its SGFs, foogo's CPU
from its genmove logs and Pachi's from the games' summaries (so that a block says whether equal CPU held), the
paired games and the intervals of their difference, the tables --report-only prints, and the blind --status of a
block in play, which reads no result.

Every function here reads and none plays, so a block's games can be judged or watched from any checkout while
pachi_ab.py plays them.
"""

from __future__ import annotations

import json
import math
import re
from pathlib import Path

from sgfmill import sgf

from foogo.intervals import wilson
from foogo.match_results import black_score, named_colour


def foogo_score(root, name: str = "foogo") -> tuple[str, float] | None:
    """(colour "b" or "w", score 1, 0.5 or 0) of the player whose name holds `name` (named_colour's rule) in a
    game's SGF root, or None when the game has no such single player or no result (RE[Void], or none)."""
    ours = named_colour(root, name)
    black = black_score(root.get("RE")) if root.has_property("RE") else None
    if not ours or black is None:
        return None
    return ours, black if ours == "b" else 1.0 - black


def tally(directory: Path, name: str = "foogo") -> dict:
    """Wins, losses and draws of the player whose name holds `name` in directory's game SGFs
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
    return in_game_order(foogo_searches_by_game(directory))


def in_game_order(by_game: dict[int, list[tuple[int, float]]]) -> list[tuple[int, float]]:
    """foogo_searches_by_game's searches as one list, game by game in index order (foogo_searches' list)."""
    return [search for _, found in sorted(by_game.items()) for search in found]


def foogo_searches_by_game(directory: Path) -> dict[int, list[tuple[int, float]]]:
    """foogo_searches for each job-i directory apart: game index i -> its searches (jobs without a log left out)."""
    games: dict[int, list[tuple[int, float]]] = {}
    for path in sorted(directory.glob("job-*/engine-*.stderr.log")):
        index = path.parent.name.removeprefix("job-")
        if not index.isdigit():
            continue
        for process in path.read_text(errors="replace").split(_PROCESS_START):
            games.setdefault(int(index), []).extend(
                [(int(n), float(x)) for n, x in _GENMOVE_SEARCH.findall(process)][1:])
    return games


PACE_GAMES = 10  # pace(): game indices a cell


def pace(by_game: dict[str, dict[int, list[tuple[int, float]]]], games: int = PACE_GAMES) -> str:
    """foogo's playouts a CPU second over all the arms' searches (by_game: arm -> foogo_searches_by_game), for each
    run of `games` game indices, in the order a block plays them: the host's pace over the block. Fixed playout
    counts are immune to the host's pace; a timed block (--time) is not, and a fall of a tenth or more from one
    cell to the next, where the arms cost alike, may be the host slowing under it (bench/RESULTS.md, 2026-12-07:
    the EPYC at half its pace for hours, with no steal time). The last cell may hold games still in play."""
    totals: dict[int, list[float]] = {}
    for found_by_game in by_game.values():
        for index, found in found_by_game.items():
            cell = totals.setdefault(index // games, [0.0, 0.0])
            cell[0] += sum(n for n, _ in found)
            cell[1] += sum(x for _, x in found)
    cells = [f"{k * games}-{k * games + games - 1} {n / x:,.0f}" for k, (n, x) in sorted(totals.items()) if x > 0]
    return ("foogo's playouts a CPU second, all arms, by games (the host's pace): "
            + ("; ".join(cells) if cells else "n/a"))


def foogo_cpu(searches: list[tuple[int, float]]) -> tuple[float, int]:
    """foogo's mean CPU seconds a search and the searches counted, of foogo_searches' list; (0.0, 0) with none."""
    seconds = [x for _, x in searches]
    return (sum(seconds) / len(seconds) if seconds else 0.0), len(seconds)


def foogo_playout_cost(searches: list[tuple[int, float]]) -> float:
    """foogo's CPU microseconds a playout over foogo_searches' list; 0.0 with none. At fixed playouts an
    arm's equal-CPU count is the control's count times the control's cost over the arm's."""
    playouts = sum(n for n, _ in searches)
    return 1e6 * sum(x for _, x in searches) / playouts if playouts else 0.0


def opponent_cpu(directory: Path, name: str = "foogo") -> tuple[float, int]:
    """The other engine's (Pachi's) mean CPU seconds a move by the match's own clock and the moves timed, over
    directory's played --paired job summaries (each engine's mean_cpu_seconds_per_move weighted by its
    cpu_timed_moves; an engine whose name starts with `name` is foogo and left out); (0.0, 0) with none."""
    seconds, moves = 0.0, 0
    for data in _summaries(directory).values():
        if data is None or not played_summary(data):
            continue
        for engine in data.get("engines", []):
            n, mean = engine.get("cpu_timed_moves"), engine.get("mean_cpu_seconds_per_move")
            if str(engine.get("name", "")).startswith(name) or type(n) is not int or n <= 0:
                continue
            if not isinstance(mean, (int, float)) or not math.isfinite(mean) or mean < 0:
                continue
            seconds, moves = seconds + mean * n, moves + n
    return (seconds / moves if moves else 0.0), moves


EQUAL_CPU_BAND = 0.1  # report names an arm whose searches cost more than this share above or below Pachi's moves


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
    by_game = {arm: foogo_searches_by_game(out / arm) for arm in arms}  # each arm's logs read once
    searches = {arm: in_game_order(by_game[arm]) for arm in arms}
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
        rows.append(pace(by_game))
        # equal CPU is set by playout counts calibrated on some host: the games say whether it held on this one
        pachi = {arm: opponent_cpu(out / arm) for arm in arms}
        ratios = {arm: cpu[arm][0] / seconds for arm, (seconds, count) in pachi.items() if count and cpu[arm][1]}
        if ratios:
            rows.append("Pachi's CPU s a move by the match's clock (its job summaries): " + "; ".join(
                f"{arm} {pachi[arm][0]:.4f} over {pachi[arm][1]}" + (f" (foogo's searches {ratios[arm]:.3f} of it)"
                                                                   if arm in ratios else "") for arm in arms
                if pachi[arm][1]))
            far = [arm for arm, r in ratios.items() if abs(r - 1) > EQUAL_CPU_BAND]
            if far:
                rows.append(f"note: foogo's searches cost more than {100 * EQUAL_CPU_BAND:.0f}% above or below "
                            f"Pachi's moves in {', '.join(far)}: at fixed playouts that is not equal CPU on this "
                            "host (bench/vs_pachi.py --calibrate-only finds the count)")
    return "\n".join(rows)


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
    move over its searches; then the complete sets, game i played by every arm, and foogo's pace (pace). It
    reads no SGF, and takes only whether a game ended and its fault counts from a summary, and only playouts
    and CPU seconds from foogo's logs, so it shows no result before the block's planned size, where
    --report-only tallies them. (What it shows still hints, weakly: a fault usually forfeits a game, and the
    searches counted are the moves foogo played.)"""
    rows = ["arm | played | begun, not played | illegal moves | timeouts | crashes | foogo's CPU s a move (searches)",
            "---|---:|---:|---:|---:|---:|---:"]
    done = []
    by_game: dict[str, dict[int, list[tuple[int, float]]]] = {}
    for arm in arms:
        summaries = _summaries(out / arm)
        finished = sorted(i for i, data in summaries.items() if data is not None and played_summary(data))
        begun = {int(p.name.removeprefix("job-")) for p in (out / arm).glob("job-*")
                 if p.is_dir() and p.name.removeprefix("job-").isdigit()} | set(summaries)
        open_games = sorted(begun - set(finished))
        faults = [sum(engine.get(key, 0) for data in summaries.values() if data is not None
                      for engine in data.get("engines", [])) for key in FAULTS]
        by_game[arm] = foogo_searches_by_game(out / arm)
        seconds, searches = foogo_cpu(in_game_order(by_game[arm]))
        rows.append(f"{arm} | {len(finished)} | {len(open_games)}" + (f" ({_spans(open_games)})" if open_games else "")
                    + f" | {faults[0]} | {faults[1]} | {faults[2]} | "
                    + (f"{seconds:.3f} ({searches})" if searches else "n/a"))
        done.append(set(finished))
    complete = sorted(set.intersection(*done)) if done else []
    rows += ["", f"complete sets (game i played by every arm): {len(complete)}: {_spans(complete)}", pace(by_game),
             "(no result read: --report-only tallies them)"]
    return "\n".join(rows)
