"""foogo against libego: light-playout throughput on 9x9 and 19x19, in alternating runs.

    python bench/vs_libego.py --libego9 PATH --libego19 PATH [--repeats 5]
                              [--playouts9 N] [--playouts19 N] [--threads 1] [--json PATH]

libego (github.com/lukaszlew/libego, C++) is the reference. It is built outside this repository,
one binary per board size (its board size is a compile-time constant), with its `benchmark` GTP
command switched to the light playout (`RandomLightMove`); the README says how. Only the sizes
whose binary is given are measured.

For each size, after one untimed warm-up run of each engine (foogo's first run may compile its
kernels), the script alternates foogo and libego runs, --repeats of each, every run a fresh
process playing the same number of light playouts (uniform random, eye rule) from the empty board:

  foogo   `python -m foogo bench --size S --playouts N --threads T --repeats 1 --json`;
          playouts/s from its JSON: the CPU time of the timed batch with one thread, its wall
          time with several. Its start-up, kernel-cache load and warm-up batch are not timed.
  libego  `boardsize S` (the binary refuses other sizes) and `benchmark N` on the binary's stdin;
          kpps and the other figures it prints. Its seconds are the process's user CPU time.

With one thread both engines are timed by the CPU clock, which other processes on the machine
do not disturb much; still, run it on an idle machine. libego's
benchmark is single-threaded: with --threads T > 1 the ratio is foogo on T threads against libego
on one. Runs shorter than 2 s are flagged: raise --playouts9/--playouts19 if you see the note.

Prints, per size, the median and min..max of playouts/s of each engine, moves per playout and the
ratio of the medians foogo/libego, as a Markdown table under the CPU model, core count and date;
progress goes to stderr. --json PATH also writes every run's raw numbers.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import re
import statistics
import subprocess
import sys
from pathlib import Path

from option_caps import refuse_counts

from foogo.bench import MAX_REPEATS, headline, machine_info
from foogo.playout import MAX_BATCH, MAX_THREADS

MIN_SECONDS = 2.0  # each timed run should last at least this long
WARMUP_PLAYOUTS = {9: 5_000, 19: 1_000}
DEFAULT_PLAYOUTS = {9: 300_000, 19: 70_000}  # runs of 2.5 s or more at the speeds measured here

NUMBER = r"([-+0-9.eE]+|inf|nan)"
LIBEGO_FIELDS = {  # key -> pattern for one line of libego's `benchmark` report
    "playouts": re.compile(r"^(\d+) playouts in " + NUMBER + r" seconds$", re.M),
    "kpps": re.compile(r"^" + NUMBER + r" kpps$", re.M),
    "kpps_per_ghz": re.compile(r"^" + NUMBER + r" kpps/GHz", re.M),
    "cc_per_move": re.compile(r"^" + NUMBER + r" CC/move", re.M),
    "wins": re.compile(r"^(\d+)/(\d+) \(black wins / white wins\)$", re.M),
    "moves_per_playout": re.compile(r"^AVG moves/playout = " + NUMBER + r"$", re.M),
}


def foogo_commit() -> str | None:
    """Short commit hash (with '+dirty' if it has local changes) of the checkout foogo is imported from."""
    spec = importlib.util.find_spec("foogo")
    if spec is None or spec.origin is None:
        return None
    repo = Path(spec.origin).resolve().parent.parent
    try:
        head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"],
                              capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "--untracked-files=no"],
                               capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return None
    return head + ("+dirty" if dirty else "")


def run_foogo(size: int, playouts: int, threads: int) -> dict:
    """One `foogo bench --json` process timing one run; its report with playouts/s by the CPU
    clock (one thread, as libego's) or the wall clock (several threads)."""
    command = [sys.executable, "-m", "foogo", "bench", "--size", str(size), "--playouts", str(playouts),
               "--threads", str(threads), "--repeats", "1", "--json"]
    done = subprocess.run(command, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} failed ({done.returncode}):\n{done.stderr}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report.get("policy", "light") != "light":
        raise RuntimeError(f"foogo bench ran the {report['policy']} policy, not light")
    report["playouts_per_second"] = headline(report)[0]
    if report["clock"] == "cpu":
        report["seconds"] = report["cpu_seconds"]
    return report


def parse_libego(text: str) -> dict:
    """The figures of one libego `benchmark` response (the text after '= ')."""
    found = {key: pattern.search(text) for key, pattern in LIBEGO_FIELDS.items()}
    missing = [key for key, match in found.items() if match is None]
    if missing:
        raise RuntimeError(f"libego benchmark output lacks {', '.join(missing)}:\n{text}")
    playouts = int(found["playouts"].group(1))
    kpps = float(found["kpps"].group(1))
    return {
        "playouts": playouts,
        "seconds": float(found["playouts"].group(2)),
        "kpps": kpps,
        "playouts_per_second": round(1000.0 * kpps, 1),
        "kpps_per_ghz": float(found["kpps_per_ghz"].group(1)),
        "cc_per_move": float(found["cc_per_move"].group(1)),
        "black_wins": int(found["wins"].group(1)),
        "white_wins": int(found["wins"].group(2)),
        "moves_per_playout": float(found["moves_per_playout"].group(1)),
        "clock": "user CPU",
    }


def gtp_responses(text: str) -> list[str]:
    """Split a GTP session's output into responses ('= ...' or '? ...'), blank-line separated."""
    return [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]


def libego_session(binary: str, size: int, commands: list[str]) -> list[str]:
    """Run `boardsize size` then `commands` in one libego process; return the commands' responses.

    Raises RuntimeError if the binary fails, refuses the board size (it was built for another) or
    answers a command with an error."""
    session = "\n".join([f"boardsize {size}", *commands, "quit"]) + "\n"
    try:
        done = subprocess.run([binary], input=session, capture_output=True, text=True)
    except OSError as error:
        raise RuntimeError(f"cannot run {binary}: {error}") from error
    if done.returncode != 0:
        raise RuntimeError(f"{binary} exited with {done.returncode}:\n{done.stderr}")
    responses = gtp_responses(done.stdout)
    if len(responses) < len(commands) + 1:
        raise RuntimeError(f"{binary}: unexpected GTP output:\n{done.stdout}")
    if not responses[0].startswith("="):
        raise RuntimeError(f"{binary} refuses `boardsize {size}` ({responses[0]}): built for another size?")
    for command, response in zip(commands, responses[1:]):
        if not response.startswith("="):
            raise RuntimeError(f"{binary}: `{command}` failed: {response}")
    return [response[1:].strip() for response in responses[1:len(commands) + 1]]


def run_libego(binary: str, size: int, playouts: int) -> dict:
    """One libego process running `benchmark playouts`; the figures it prints."""
    return parse_libego(libego_session(binary, size, [f"benchmark {playouts}"])[0])


def spread(values: list[float]) -> dict:
    """Median, minimum and maximum of a list of rates."""
    return {"median": statistics.median(values), "min": min(values), "max": max(values)}


def measure_size(size: int, binary: str, playouts: int, repeats: int, threads: int) -> dict:
    """Warm up both engines, then alternate `repeats` timed runs of each; return runs and summary."""
    print(f"{size}x{size}: warm-up (foogo may compile its kernels)", file=sys.stderr, flush=True)
    run_foogo(size, WARMUP_PLAYOUTS.get(size, 2_000), threads)
    run_libego(binary, size, WARMUP_PLAYOUTS.get(size, 2_000))
    runs: dict[str, list[dict]] = {"foogo": [], "libego": []}
    for index in range(repeats):
        for engine in ("foogo", "libego"):
            report = run_foogo(size, playouts, threads) if engine == "foogo" else run_libego(binary, size, playouts)
            runs[engine].append(report)
            print(f"{size}x{size} {engine:6} run {index + 1}/{repeats}: {report['playouts_per_second']:>9,.0f} "
                  f"playouts/s, {report['seconds']:.2f} s ({report['clock']}), "
                  f"{report['moves_per_playout']:.2f} moves/playout", file=sys.stderr, flush=True)
    summary = {engine: spread([r["playouts_per_second"] for r in reports]) for engine, reports in runs.items()}
    for engine, reports in runs.items():
        summary[engine]["moves_per_playout"] = statistics.mean(r["moves_per_playout"] for r in reports)
        summary[engine]["shortest_run_seconds"] = min(r["seconds"] for r in reports)
    summary["ratio_of_medians"] = summary["foogo"]["median"] / summary["libego"]["median"]
    return {"size": size, "playouts": playouts, "threads": threads, "libego_binary": str(Path(binary).resolve()),
            "runs": runs, "summary": summary}


def notes(result: dict) -> list[str]:
    """Warnings about one size's measurement: runs shorter than MIN_SECONDS, moves/playout mismatch."""
    size, summary, out = result["size"], result["summary"], []
    for engine in ("foogo", "libego"):
        if summary[engine]["shortest_run_seconds"] < MIN_SECONDS:
            out.append(f"note: {size}x{size} {engine} runs as short as {summary[engine]['shortest_run_seconds']:.2f} s "
                       f"(< {MIN_SECONDS:.0f} s): raise --playouts{size}")
    foogo_moves, libego_moves = summary["foogo"]["moves_per_playout"], summary["libego"]["moves_per_playout"]
    if abs(foogo_moves - libego_moves) > 0.05 * libego_moves:
        out.append(f"note: {size}x{size} moves/playout differ (foogo {foogo_moves:.1f}, libego {libego_moves:.1f}): "
                   f"is the libego binary built with the light playout?")
    return out


def format_table(header: dict, results: list[dict]) -> str:
    """The report: machine, date and method lines, then one Markdown table row per size."""
    threads = header["threads"]
    lines = [
        f"foogo vs libego, light playouts from the empty board ({header['date']})",
        f"machine: {header['machine']['cpu']}, {header['machine']['cores']} cores; "
        f"foogo {header['foogo_commit'] or '(commit unknown)'} on {threads} thread(s), libego on 1",
        f"{header['repeats']} runs per engine and size, alternating, a fresh process each, after one untimed warm-up; "
        f"foogo playouts/s over {header['foogo_clock']} time, libego over user CPU time",
        "",
        "| board | playouts/run | foogo playouts/s, median (min..max) | libego playouts/s, median (min..max) "
        "| foogo/libego | moves/playout foogo / libego |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for result in results:
        s = result["summary"]
        cells = [f"{result['size']}x{result['size']}", f"{result['playouts']:,}"]
        cells += [f"{s[e]['median']:,.0f} ({s[e]['min']:,.0f}..{s[e]['max']:,.0f})" for e in ("foogo", "libego")]
        cells += [f"{s['ratio_of_medians']:.3f}",
                  f"{s['foogo']['moves_per_playout']:.1f} / {s['libego']['moves_per_playout']:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    extra = [note for result in results for note in notes(result)]
    return "\n".join(lines + ([""] + extra if extra else []))


def main() -> int:
    """Parse the command line, measure each size given, print the table and write --json."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--libego9", metavar="PATH", help="libego binary built for 9x9")
    parser.add_argument("--libego19", metavar="PATH", help="libego binary built for 19x19")
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per engine and size (default 5)")
    parser.add_argument("--playouts9", type=int, default=DEFAULT_PLAYOUTS[9],
                        help=f"playouts per 9x9 run, both engines (default {DEFAULT_PLAYOUTS[9]})")
    parser.add_argument("--playouts19", type=int, default=DEFAULT_PLAYOUTS[19],
                        help=f"playouts per 19x19 run, both engines (default {DEFAULT_PLAYOUTS[19]})")
    parser.add_argument("--threads", type=int, default=1, help="foogo threads (default 1; libego has one)")
    parser.add_argument("--json", metavar="PATH", help="also write every run's numbers to this JSON file")
    args = parser.parse_args()
    sizes = [(9, args.libego9, args.playouts9), (19, args.libego19, args.playouts19)]
    sizes = [(size, binary, playouts) for size, binary, playouts in sizes if binary]
    if not sizes:
        parser.error("give --libego9 PATH and/or --libego19 PATH")
    refuse_counts(parser, [("--repeats", args.repeats, MAX_REPEATS), ("--threads", args.threads, MAX_THREADS),
                           *((f"--playouts{size}", n, MAX_BATCH) for size, _, n in sizes)])  # foogo bench's caps
    for size, binary, _ in sizes:
        if not os.access(binary, os.X_OK):
            parser.error(f"--libego{size}: {binary} is not an executable file")
        try:
            libego_session(binary, size, [])
        except RuntimeError as error:
            parser.error(f"--libego{size}: {error}")

    header = {"date": datetime.datetime.now().astimezone().isoformat(timespec="seconds"),
              "machine": machine_info(), "foogo_commit": foogo_commit(), "threads": args.threads,
              "repeats": args.repeats, "foogo_clock": "CPU" if args.threads == 1 else "wall-clock",
              "libego_clock": "user CPU"}
    results = [measure_size(size, binary, playouts, args.repeats, args.threads) for size, binary, playouts in sizes]
    print(format_table(header, results))
    if args.json:
        with open(args.json, "w") as handle:
            json.dump({**header, "sizes": results}, handle, indent=1)
            handle.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
