"""foogo against Pachi at equal CPU per move: calibrate the playout counts, then play the match.

    python bench/vs_pachi.py --pachi PATH [--size 9] [--pachi-playouts 10000] [--threads 1]
                             [--games 50] [--jobs 2] [--out DIR] [--foogo-args "--policy heavy"]
                             [--calibrate-only] [--foogo-playouts N]

Pachi (github.com/pasky/pachi, tag pachi-12.90) is built outside this repository; the README
says how. It plays `-t =N` (N playouts a move) with its default pattern priors and no DCNN.

Equal CPU per move, from measured rates: each engine, started as a GTP process exactly as the
match starts it, plays a self-play game of up to --calibration-moves moves at a fixed playout
count (Pachi at --pachi-playouts, foogo at a probe count), and the CPU time its process used
(user + system, from /proc, after one untimed move that loads its tables and kernels) is divided
by the moves. foogo's count for the match is the probe count scaled by the ratio of the two CPU
times per move, rounded to a hundred. Fixed counts, not seconds, then keep the match fair however
busy the machine is, so --jobs matches can share it (bench/parallel_match.py).

Writes DIR/calibration.json and the match files of parallel_match.py (DIR/match.txt with the
table, its 95% interval and the exact commands).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path

from foogo.match import GtpClient

CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of a running process (all its threads), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS  # utime, stime: fields 14 and 15


def cpu_per_move(command: str, size: int, komi: float, moves: int) -> dict:
    """CPU seconds per genmove of a GTP engine in a self-play game from the empty board."""
    client = GtpClient(command)
    client.start()
    try:
        for line in (f"boardsize {size}", "clear_board", f"komi {komi}"):
            client.send(line, timeout=120)
        client.send("genmove b", timeout=600)  # loads tables, compiles kernels: not timed
        client.send("clear_board", timeout=60)
        pid = client._proc.pid  # noqa: SLF001 (the process the client runs)
        start_cpu, start_wall = process_cpu_seconds(pid), time.perf_counter()
        played = 0
        passes = 0
        for k in range(moves):
            move = client.send(f"genmove {'bw'[k % 2]}", timeout=600).strip().lower()
            played += 1
            if move == "resign":
                break
            passes = passes + 1 if move == "pass" else 0
            if passes == 2:
                break
        cpu, wall = process_cpu_seconds(pid) - start_cpu, time.perf_counter() - start_wall
    finally:
        client.close()
    return {"command": command, "moves": played, "cpu_seconds": cpu, "wall_seconds": wall,
            "cpu_per_move": cpu / played}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pachi", required=True, help="path of the pachi binary")
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--komi", type=float, default=7.0)
    parser.add_argument("--pachi-playouts", type=int, default=10000)
    parser.add_argument("--pachi-args", default="", help="more Pachi engine arguments (e.g. --nopatterns)")
    parser.add_argument("--threads", type=int, default=1, help="threads of each engine")
    parser.add_argument("--foogo-args", default="--policy heavy", help="foogo gtp options besides playouts/threads")
    parser.add_argument("--probe-playouts", type=int, default=20000, help="foogo's count while calibrating")
    parser.add_argument("--calibration-moves", type=int, default=40)
    parser.add_argument("--foogo-playouts", type=int, help="skip the calibration and use this count")
    parser.add_argument("--calibrate-only", action="store_true")
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--jobs", type=int, default=2, help="matches side by side (one per core)")
    parser.add_argument("--timeout", type=float, default=120.0)
    parser.add_argument("--out", default="pachi-match", help="directory for the results")
    args = parser.parse_args()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    pachi = f"{args.pachi} -t ={args.pachi_playouts} {args.pachi_args} threads={args.threads}".replace("  ", " ")
    foogo = f"{sys.executable} -m foogo gtp {args.foogo_args} --threads {args.threads} --size {args.size}"
    calibration: dict = {"size": args.size, "threads": args.threads}
    playouts = args.foogo_playouts
    if playouts is None:
        print("calibrating Pachi ...", file=sys.stderr, flush=True)
        calibration["pachi"] = cpu_per_move(pachi, args.size, args.komi, args.calibration_moves)
        print("calibrating foogo ...", file=sys.stderr, flush=True)
        probe = f"{foogo} --playouts {args.probe_playouts} --no-resign"
        calibration["foogo_probe"] = cpu_per_move(probe, args.size, args.komi, args.calibration_moves)
        ratio = calibration["pachi"]["cpu_per_move"] / calibration["foogo_probe"]["cpu_per_move"]
        playouts = max(100, round(args.probe_playouts * ratio / 100) * 100)
        calibration["foogo_playouts"] = playouts
        for key in ("pachi", "foogo_probe"):
            c = calibration[key]
            print(f"{key:12} {c['cpu_per_move']:.3f} CPU s a move over {c['moves']} moves  <- {c['command']}",
                  file=sys.stderr)
        print(f"foogo gets {playouts} playouts a move for Pachi's {args.pachi_playouts}", file=sys.stderr)
    (out / "calibration.json").write_text(json.dumps(calibration, indent=1))
    if args.calibrate_only:
        return
    command = [sys.executable, str(Path(__file__).with_name("parallel_match.py")),
               "--black", pachi, "--white", f"{foogo} --playouts {playouts}",
               "--black-name", f"Pachi 12.90 ={args.pachi_playouts}", "--white-name", f"foogo ={playouts}",
               "--black-seed-flag=-s", "--white-seed-flag=--seed",  # '=': argparse reads "-s" as a flag
               "--games", str(args.games), "--jobs", str(args.jobs), "--size", str(args.size),
               "--komi", str(args.komi), "--timeout", str(args.timeout), "--out", str(out)]
    sys.exit(subprocess.call(command))


if __name__ == "__main__":
    main()
