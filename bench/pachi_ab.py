"""foogo arms against Pachi side by side: same seeds, same playout counts, one table with each arm's
effect against the first arm (the control).

    python bench/pachi_ab.py --pachi PATH --foogo-playouts N --arm NAME=ARGS [--arm NAME=ARGS ...]
                             [--command NAME=CMD] [--pachi-playouts 10000] [--games 100]
                             [--seed-base 1000] [--timeout 120] [--out DIR] [--report-only]

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
a 95% interval (Newcombe's hybrid score interval from the two Wilson intervals). Written to
DIR/ab.txt as well.
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from pathlib import Path

from sgfmill import sgf

from foogo.intervals import wilson
from foogo.match_results import black_score


def tally(directory: Path, name: str = "foogo") -> dict:
    """Wins, losses and draws of the player whose name starts with `name` in directory's game SGFs
    (directly in it or in its job-* directories), overall and by colour; games with no result (a
    game in progress has no file yet; a void game has RE[Void] or none) are counted apart."""
    counts = {"wins": 0, "losses": 0, "draws": 0, "unscored": 0, "black": [0.0, 0], "white": [0.0, 0]}
    for path in sorted(directory.glob("game-*.sgf")) + sorted(directory.glob("job-*/game-*.sgf")):
        root = sgf.Sgf_game.from_bytes(path.read_bytes()).get_root()
        players = {c: root.get(k) if root.has_property(k) else "" for c, k in (("b", "PB"), ("w", "PW"))}
        ours = [c for c, player in players.items() if player.startswith(name)]
        black = black_score(root.get("RE")) if root.has_property("RE") else None
        if len(ours) != 1 or black is None:
            counts["unscored"] += 1
            continue
        colour = ours[0]
        score = black if colour == "b" else 1.0 - black
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


def difference(points1: float, n1: int, points2: float, n2: int) -> tuple[float, float, float]:
    """(p1 - p2, low, high): the difference of two win rates and its 95% interval (Newcombe 1998,
    method 10: the hybrid score interval from each rate's Wilson interval)."""
    p1, p2 = points1 / n1, points2 / n2
    l1, u1 = wilson(points1, n1)
    l2, u2 = wilson(points2, n2)
    d = p1 - p2
    return d, d - math.sqrt((p1 - l1) ** 2 + (u2 - p2) ** 2), d + math.sqrt((u1 - p1) ** 2 + (p2 - l2) ** 2)


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
    args = parser.parse_args(argv)
    arms = _named(args.arm, "--arm", parser)
    commands = _named(args.command, "--command", parser)
    unknown = set(commands) - set(arms)
    if unknown:
        parser.error(f"--command for no arm: {', '.join(sorted(unknown))}")
    out = Path(args.out)
    if not args.report_only:
        if not args.pachi or not args.foogo_playouts:
            parser.error("playing needs --pachi and --foogo-playouts (bench/vs_pachi.py --calibrate-only finds it)")
        out.mkdir(parents=True, exist_ok=True)
        script = str(Path(__file__).with_name("vs_pachi.py"))
        procs = []
        for name, options in arms.items():
            command = [sys.executable, script, *arm_arguments(args, name, options, commands.get(name))]
            with open(out / f"{name}.log", "w") as log:
                procs.append(subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT))
        codes = [p.wait() for p in procs]
        if any(codes):
            print(f"an arm failed (exit codes {codes}; see {out}/NAME.log)", file=sys.stderr)
    table = report(list(arms), out)
    if out.is_dir():
        (out / "ab.txt").write_text(table + "\n")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
