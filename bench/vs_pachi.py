"""foogo against Pachi at equal CPU per move: calibrate the playout counts, then play the match.

    python bench/vs_pachi.py --pachi PATH [--size 9] [--pachi-playouts 10000] [--threads 1]
                             [--games 50] [--jobs 2] [--out DIR] [--foogo-args "--policy heavy"]
                             [--calibrate-only] [--foogo-playouts N]

Pachi (github.com/pasky/pachi, tag pachi-12.90) is built outside this repository; the README
says how. It plays `-t =N` (N playouts a move) with its default pattern priors and no DCNN.

Equal CPU per move, from measured rates: the two engines, started as GTP processes exactly as the
match starts them, play --calibration-games games against each other, Pachi at --pachi-playouts
and foogo at a probe count, and the CPU time each process used per genmove (user + system, from
/proc, after one untimed move that loads its tables and kernels) is measured. foogo calibrates with
its opening book off (--calibration-args), so the CPU is equal per move it searches; a move from
its book (made offline by foogo's own searches, foogo/book.py) costs it none in the match. foogo's count for
the match is the probe count scaled by the ratio of the two, rounded to a hundred. Fixed counts,
not seconds, then keep the match fair however busy the machine is, so --jobs matches can share
it (bench/parallel_match.py).

Writes DIR/calibration.json and the match files of parallel_match.py (DIR/match.txt with the
table, its 95% interval and the exact commands). The engines run with DIR as their current
directory (relative paths are taken from where the script started): `python -m foogo` looks in
the current directory first, so a --foogo-command that points PYTHONPATH at a worktree would,
started from a checkout's root, otherwise run the checkout's foogo.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

import option_caps

from foogo.gtp_client import GtpClient
from foogo.match import MAX_GAMES, MAX_TIMEOUT
from foogo.playout import MAX_THREADS
from foogo.search import MAX_PLAYOUTS


def engine_cpu_seconds(client: GtpClient) -> float:
    """User + system CPU seconds the running engine has used (GtpClient.cpu_seconds: from /proc, all
    its threads and processes); RuntimeError where /proc cannot tell."""
    seconds = client.cpu_seconds()
    if seconds is None:
        raise RuntimeError(f"no CPU time for {client.argv[0]}: this script reads /proc (Linux)")
    return seconds


FOOGO_GTP = f"{sys.executable} -m foogo gtp"  # how foogo's GTP engine is started unless told otherwise


def absolute_engine(path: str) -> str:
    """An engine's path made absolute if it names a file by a directory (bin/pachi), left as it is if it is a
    bare command name found on PATH (pachi): for a match that runs in another directory (main)."""
    return str(Path(path).resolve()) if os.sep in path else path


def pachi_command(pachi: str, playouts: int, threads: int, options: str = "", engine: str = "") -> str:
    """How a match starts Pachi: PACHI, `-t =PLAYOUTS` (that many playouts a move), its command-line
    OPTIONS (e.g. --nopatterns), then its engine arguments: threads=THREADS and ENGINE's (comma-separated,
    e.g. sure_win_threshold=2)."""
    arguments = ",".join(part for part in (f"threads={threads}", engine) if part)
    return " ".join(part for part in (pachi, f"-t ={playouts}", options, arguments) if part)


def foogo_command(command: str, options: str, threads: int, size: int) -> str:
    """How a match starts foogo: COMMAND (e.g. FOOGO_GTP) with its OPTIONS, THREADS threads, a SIZE board."""
    return " ".join(part for part in (command, options, f"--threads {threads}", f"--size {size}") if part)


def player_names(pachi_playouts: int, foogo_playouts: int) -> tuple[str, str]:
    """The players' names in a match's SGFs: Pachi's, then foogo's, which holds "foogo" (the name
    bench/pachi_ab.py's tallies look for)."""
    return f"Pachi 12.90 ={pachi_playouts}", f"foogo ={foogo_playouts}"


def calibration_games(pachi: str, foogo: str, size: int, komi: float, games: int, max_moves: int) -> dict:
    """CPU seconds per genmove of each engine over `games` games between them (colours alternating).

    Measured in real games against each other, not in self-play: Pachi's `=N` counts the playouts
    its tree holds, those it kept from the last move included, and in self-play it keeps far more
    of them (it predicted its own reply), so a self-play measure gave Pachi a third of the CPU it
    takes against foogo."""
    clients = {"pachi": GtpClient(pachi), "foogo": GtpClient(foogo)}
    cpu = {name: 0.0 for name in clients}
    moves = {name: 0 for name in clients}
    try:
        for client in clients.values():
            client.start()
            for line in (f"boardsize {size}", f"komi {komi}", "clear_board"):
                client.send(line, timeout=120)
            client.send("genmove b", timeout=600)  # loads tables, compiles kernels: not timed
        for game in range(games):
            for client in clients.values():
                client.send("clear_board", timeout=60)
            order = ["pachi", "foogo"] if game % 2 == 0 else ["foogo", "pachi"]
            passes = 0
            for k in range(max_moves):
                name, colour = order[k % 2], "bw"[k % 2]
                other = clients[order[1 - k % 2]]
                before = engine_cpu_seconds(clients[name])
                move = clients[name].send(f"genmove {colour}", timeout=600).strip().lower()
                cpu[name] += engine_cpu_seconds(clients[name]) - before
                moves[name] += 1
                if move == "resign":
                    break
                passes = passes + 1 if move == "pass" else 0
                if passes == 2:
                    break
                other.send(f"play {colour} {move}", timeout=60)
    finally:
        for client in clients.values():
            client.close()
    return {name: {"command": clients[name].argv, "moves": moves[name], "cpu_seconds": cpu[name],
                   "cpu_per_move": cpu[name] / max(moves[name], 1)} for name in clients}


def argument_parser() -> argparse.ArgumentParser:
    """The command line's parser (bench/pachi_ab.py builds command lines for it)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pachi", required=True, help="path of the pachi binary")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=7.0)
    parser.add_argument("--pachi-playouts", type=int, default=10000)
    parser.add_argument("--pachi-args", default="", help="more Pachi engine arguments (e.g. --nopatterns)")
    parser.add_argument("--threads", type=int, default=1, help="threads of each engine")
    parser.add_argument("--foogo-args", default="--policy heavy", help="foogo gtp options besides playouts/threads")
    parser.add_argument("--foogo-command", default=FOOGO_GTP,
                        help="how to start foogo's GTP engine (e.g. 'env PYTHONPATH=/old/checkout python -m foogo "
                             "gtp' to measure another version)")
    parser.add_argument("--probe-playouts", type=int, default=20000, help="foogo's count while calibrating")
    parser.add_argument("--calibration-games", type=int, default=2)
    parser.add_argument("--calibration-args", default="--no-book",
                        help="foogo gtp options for the calibration games only (default --no-book: every move "
                             "searched, so that the match gives both engines equal CPU per searched move; '' for "
                             "a foogo without a book)")
    parser.add_argument("--foogo-playouts", type=int, help="skip the calibration and use this count")
    parser.add_argument("--calibrate-only", action="store_true")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2, help="matches side by side (one per core)")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--out", default="pachi-match", help="directory for the results")
    parser.add_argument("--seed-base", type=int, default=1000,
                        help="both engines' seed in job j is this + j; another base plays other games")
    return parser


def refuse_counts(parser: argparse.ArgumentParser, counts, timeout: float) -> None:
    """option_caps.refuse_counts on `counts`, and refuse_seconds on --timeout (a match's wait for a move) with foogo
    match's cap, MAX_TIMEOUT (this script's and bench/pachi_ab.py's options)."""
    option_caps.refuse_counts(parser, counts)
    option_caps.refuse_seconds(parser, "--timeout", timeout, MAX_TIMEOUT, " s (foogo match's)")


def main() -> None:
    parser = argument_parser()
    args = parser.parse_args()
    # the engines' caps, checked before anything starts: a match's games, a search's playouts and threads (also
    # the matches side by side: each takes a core), the match's wait for a move
    counts = (("--games", args.games, MAX_GAMES), ("--calibration-games", args.calibration_games, MAX_GAMES),
              ("--pachi-playouts", args.pachi_playouts, MAX_PLAYOUTS),
              ("--probe-playouts", args.probe_playouts, MAX_PLAYOUTS),
              ("--foogo-playouts", args.foogo_playouts, MAX_PLAYOUTS), ("--threads", args.threads, MAX_THREADS),
              ("--jobs", args.jobs, MAX_THREADS))
    refuse_counts(parser, counts, args.timeout)
    out = Path(args.out).resolve()
    if not args.calibrate_only:
        option_caps.refuse_earlier_jobs(parser, out)
    out.mkdir(parents=True, exist_ok=True)
    args.pachi = absolute_engine(args.pachi)
    # the engines run in --out: `python -m foogo` puts its current directory first on sys.path, so a
    # --foogo-command with PYTHONPATH set to a worktree, started from a checkout's root, would import the checkout's
    os.chdir(out)
    pachi = pachi_command(args.pachi, args.pachi_playouts, args.threads, args.pachi_args)
    foogo = foogo_command(args.foogo_command, args.foogo_args, args.threads, args.size)
    calibration: dict = {"size": args.size, "threads": args.threads}
    playouts = args.foogo_playouts
    if playouts is None:
        print(f"calibrating: {args.calibration_games} games at foogo {args.probe_playouts} playouts ...",
              file=sys.stderr, flush=True)
        probe = f"{foogo} --playouts {args.probe_playouts} {args.calibration_args}".rstrip()
        measured = calibration_games(pachi, probe, args.size, args.komi, args.calibration_games, 3 * args.size ** 2)
        calibration.update(measured)
        ratio = measured["pachi"]["cpu_per_move"] / measured["foogo"]["cpu_per_move"]
        playouts = max(100, round(args.probe_playouts * ratio / 100) * 100)
        calibration["probe_playouts"] = args.probe_playouts
        calibration["foogo_playouts"] = playouts
        for name, c in measured.items():
            print(f"{name:6} {c['cpu_per_move']:.3f} CPU s a move over {c['moves']} moves", file=sys.stderr)
        print(f"foogo gets {playouts} playouts a move for Pachi's {args.pachi_playouts}", file=sys.stderr)
    (out / "calibration.json").write_text(json.dumps(calibration, indent=1))
    if args.calibrate_only:
        return
    names = player_names(args.pachi_playouts, playouts)
    command = [sys.executable, str(Path(__file__).with_name("parallel_match.py")),
               "--black", pachi, "--white", f"{foogo} --playouts {playouts}",
               "--black-name", names[0], "--white-name", names[1],
               "--black-seed-flag=-s", "--white-seed-flag=--seed",  # '=': argparse reads "-s" as a flag
               "--seed-base", str(args.seed_base),
               "--games", str(args.games), "--jobs", str(args.jobs), "--size", str(args.size),
               "--komi", str(args.komi), "--timeout", str(args.timeout), "--out", str(out)]
    sys.exit(subprocess.call(command))


if __name__ == "__main__":
    main()
