"""One match split over several `foogo match` processes at once, and their results merged.

    python bench/parallel_match.py --black CMD --white CMD --games 50 --jobs 2 --out DIR
                                   [--size 9] [--komi 7] [--timeout 120] [--black-name NAME]
                                   [--white-name NAME] [--black-seed-flag=-s] [--white-seed-flag=--seed]
                                   [--seed-base 1000] [--time-settings SPEC]

`foogo match` plays its games one after another. With one-thread engines, one match keeps one
core busy (the engines think in turn), so on a machine with J cores J matches can run side by
side. Job j plays its share of the games with colours alternating (engine A black in its first
game), in DIR/job-j with its SGFs and logs, and writes DIR/job-j.json. When a seed flag is given
for an engine, job j appends `FLAG SEED+j` to that engine's command (SEED: --seed-base, 1000),
so that the jobs do not repeat each other's games, and another base plays other games. The
merged summary (same fields as `foogo match --json`, games renumbered job by job) goes to
DIR/match.json and the table, with the exact commands, to DIR/match.txt.

The `foogo match` runs are this script's checkout's (`harness_env`: the checkout first on
PYTHONPATH), whatever foogo an editable install points at: a match from a worktree is that
worktree's harness, and a checkout edited while the match runs is never imported halfway.

Engines that play by a fixed number of playouts give the same games whatever else runs on the
machine; engines that play by time get less of the machine per job. --time-settings gives every job's
games `foogo match`'s game clock (e.g. 40 for 40 s sudden death a side): one-thread engines think
in turn, so with as many jobs as cores and nothing else running each engine has a core while it thinks.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

from option_caps import refuse_counts, refuse_earlier_jobs, refuse_seconds

from foogo.intervals import wilson
from foogo.match import MAX_GAMES, MAX_TIMEOUT
from foogo.match_results import format_table
from foogo.playout import MAX_THREADS

CHECKOUT = Path(__file__).resolve().parent.parent  # the checkout this script belongs to


def source_fingerprint(root: Path = CHECKOUT) -> str:
    """A digest of the foogo package's Python sources under root (names and contents): it changes when any of
    them is edited, added or removed, so a script that starts `foogo match` again and again for hours can tell
    that the harness (and the engines it runs from this checkout) is no longer the one it began with."""
    digest = hashlib.sha256()
    for path in sorted((root / "foogo").rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode() + b"\0")
        try:
            digest.update(path.read_bytes())
        except OSError:  # removed while we read: a change too
            digest.update(b"\1missing")
    return digest.hexdigest()


def harness_env() -> dict[str, str]:
    """The environment for a `python -m foogo match` this script starts: its own checkout first on
    PYTHONPATH. The engines the harness starts inherit it; a --command that sets PYTHONPATH (a worktree)
    keeps its own."""
    path = os.environ.get("PYTHONPATH")
    return dict(os.environ, PYTHONPATH=str(CHECKOUT) + (os.pathsep + path if path else ""))


def merge(summaries: list[dict]) -> dict:
    """One summary (foogo match's JSON fields) from several matches between the same two engines."""
    first = summaries[0]
    games = sum(s["games"] for s in summaries)
    void = sum(s["void"] for s in summaries)
    draws = sum(s["draws"] for s in summaries)
    decided = games - void
    engines = []
    for k, engine in enumerate(first["engines"]):
        parts = [s["engines"][k] for s in summaries]
        total = {key: sum(p[key] for p in parts) for key in
                 ("wins", "wins_as_black", "games_as_black", "wins_as_white", "games_as_white", "genmoves",
                  "illegal_moves", "timeouts", "crashes")}
        seconds = sum((p["mean_seconds_per_move"] or 0.0) * p["genmoves"] for p in parts)
        # CPU times: absent from summaries written before foogo match measured them
        timed = sum(p.get("cpu_timed_moves", 0) for p in parts)
        cpu = sum((p.get("mean_cpu_seconds_per_move") or 0.0) * p.get("cpu_timed_moves", 0) for p in parts)
        points = total["wins"] + 0.5 * draws
        low, high = wilson(points, decided)
        engines.append({**engine, **total, "command": " | ".join(dict.fromkeys(p["command"] for p in parts)),
                        "win_rate": points / decided if decided else None, "win_rate_ci95": [low, high],
                        "mean_seconds_per_move": seconds / total["genmoves"] if total["genmoves"] else None,
                        "cpu_timed_moves": timed, "mean_cpu_seconds_per_move": cpu / timed if timed else None,
                        "usual_cpu_share": None,  # each job judged starved genmoves by its own
                        "starved_moves": sum(p.get("starved_moves", 0) for p in parts)})
    per_game = []
    for s in summaries:
        for g in s["per_game"]:
            per_game.append({**g, "game": len(per_game) + 1})
    moves = sum((s["mean_moves"] or 0.0) * s["games"] for s in summaries)
    seconds = sum((s["mean_game_seconds"] or 0.0) * s["games"] for s in summaries)
    return {**first, "games": games, "games_requested": sum(s["games_requested"] for s in summaries),
            "interrupted": any(s["interrupted"] for s in summaries), "engines": engines, "draws": draws,
            "void": void, "mean_moves": moves / games if games else None,
            "mean_game_seconds": seconds / games if games else None,
            "illegal_moves": sum(s["illegal_moves"] for s in summaries),
            "timeouts": sum(s["timeouts"] for s in summaries), "crashes": sum(s["crashes"] for s in summaries),
            "disputed": sum(s.get("disputed", 0) for s in summaries),  # absent from summaries before 2026-11-29
            "per_game": per_game}


def job_commands(args: argparse.Namespace) -> list[list[str]]:
    """The `foogo match` command line of each job."""
    out = Path(args.out)
    shares = [args.games // args.jobs + (1 if j < args.games % args.jobs else 0) for j in range(args.jobs)]
    commands = []
    for j, share in enumerate(shares):
        if share == 0:
            continue
        seed = args.seed_base + j
        black = args.black + (f" {args.black_seed_flag} {seed}" if args.black_seed_flag else "")
        white = args.white + (f" {args.white_seed_flag} {seed}" if args.white_seed_flag else "")
        command = [sys.executable, "-m", "foogo", "match", "--black", black, "--white", white,
                   "--games", str(share), "--alternate", "--size", str(args.size), "--komi", str(args.komi),
                   "--timeout", str(args.timeout), "--sgf-dir", str(out / f"job-{j}"),
                   "--json", str(out / f"job-{j}.json"), "--quiet"]
        for flag, value in (("--black-name", args.black_name), ("--white-name", args.white_name),
                            ("--time-settings", args.time_settings)):
            if value:
                command += [flag, value]
        commands.append(command)
    return commands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--black", required=True, help="engine A's command (black in each job's first game)")
    parser.add_argument("--white", required=True, help="engine B's command")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--out", required=True, help="directory for the jobs' files and the merged results")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=7.0)
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--black-name")
    parser.add_argument("--white-name")
    parser.add_argument("--black-seed-flag", help="engine A's seed option, e.g. --seed (job j adds SEED+j)")
    parser.add_argument("--white-seed-flag", help="engine B's seed option")
    parser.add_argument("--seed-base", type=int, default=1000,
                        help="job j's seed is this + j (default 1000; another base plays other games)")
    parser.add_argument("--time-settings", metavar="SPEC", help="a game clock for each engine (foogo match's option)")
    args = parser.parse_args()
    # one match's games (the merge keeps every game's record); processes side by side, one a core, as a search's
    # threads (job_commands lists every job's share before any starts); foogo match's wait for a move
    refuse_counts(parser, (("--games", args.games, MAX_GAMES), ("--jobs", args.jobs, MAX_THREADS)))
    refuse_seconds(parser, "--timeout", args.timeout, MAX_TIMEOUT, " s (foogo match's)")
    out = Path(args.out)
    refuse_earlier_jobs(parser, out)
    out.mkdir(parents=True, exist_ok=True)
    commands = job_commands(args)
    procs = [subprocess.Popen(c, env=harness_env()) for c in commands]
    codes = [p.wait() for p in procs]
    summaries = [json.loads((out / f"job-{j}.json").read_text()) for j in range(len(commands))
                 if (out / f"job-{j}.json").exists()]
    if not summaries:
        sys.exit(f"no job finished (exit codes {codes})")
    merged = merge(summaries)
    (out / "match.json").write_text(json.dumps(merged, indent=1))
    text = format_table(merged) + "\n\nJobs (run side by side):\n" + "\n".join(shlex.join(c) for c in commands)
    (out / "match.txt").write_text(text + "\n")
    print(text)
    if any(codes):
        sys.exit(f"a job failed (exit codes {codes})")


if __name__ == "__main__":
    main()
