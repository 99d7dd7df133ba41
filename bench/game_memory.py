"""Peak memory of a `foogo gtp` process over a self-played game (issue 10: 9x9 --time 2 under 250 MB).

    python bench/game_memory.py [--moves 80] [--analyze S] [-- extra foogo gtp options, e.g. --time 2 --memory 64]

Starts `foogo gtp` with the options given after `--` (default: --time 2), asks it for `--moves`
alternating genmoves on an empty 9x9 board, and prints the process's peak resident memory (VmHWM
from /proc) after the warm-up and at the end, with the moves played and how many of their searches
collected a full tree (foogo's log says "trees collected"). The warm-up loads the kernels
in the background: the first figure waits for its "kernels ready" line on the engine's stderr (which
is passed on), so that it is the process before any search. Linux only.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading
import time

from option_caps import refuse_counts

from foogo.match import MAX_MOVES
from foogo.search import MAX_SECONDS


def peak_mb(pid: int) -> float:
    """VmHWM of a process, in MB."""
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc status")


def pass_on(stream, ready: threading.Event, collected: list[int], analysis: list[str]) -> None:
    """Copy the engine's stderr to ours, setting `ready` at the warm-up's "kernels ready" line (or its end)
    and counting in collected[0] the genmoves whose search collected a full tree (the memory cap bound);
    an analysis's closing log line goes to `analysis`."""
    for line in stream:
        sys.stderr.write(line)
        if "kernels ready" in line:
            ready.set()
        if line.startswith("genmove") and "trees collected" in line:
            collected[0] += 1
        if line.startswith("lz-analyze"):
            analysis.append(line.strip())
    ready.set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=80)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--analyze", type=float, default=0.0, metavar="S",
                        help="first analyse the empty board for S seconds (lz-analyze), as a GUI does")
    parser.add_argument("gtp_options", nargs="*", default=["--time", "2"])
    args = parser.parse_args()
    refuse_counts(parser, (("--moves", args.moves, MAX_MOVES),), least=0)  # a match's longest game (--max-moves)
    if not 0 <= args.analyze <= MAX_SECONDS:  # an analysis's own end (a day); time.sleep refuses inf and nan
        parser.error(f"--analyze must be from 0 to {MAX_SECONDS:g} seconds, got {args.analyze}")
    command = [sys.executable, "-m", "foogo", "gtp", *args.gtp_options]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    ready = threading.Event()
    collected = [0]
    analysis: list[str] = []
    reader = threading.Thread(target=pass_on, args=(engine.stderr, ready, collected, analysis), daemon=True)
    reader.start()

    def send(line: str) -> None:
        assert engine.stdin is not None
        engine.stdin.write(line + "\n")
        engine.stdin.flush()

    def ask(line: str | None) -> str:
        """Send `line` (None: nothing) and read one response, up to its blank line."""
        assert engine.stdout is not None
        if line is not None:
            send(line)
        answer = []
        while True:
            reply = engine.stdout.readline()
            if reply in ("\n", ""):
                break
            answer.append(reply.strip())
        return " ".join(answer)

    ask(f"boardsize {args.size}")
    ask("clear_board")
    warm_up = "--no-warm-up" not in args.gtp_options
    warmed = "" if not warm_up or ready.wait(timeout=600) else " (no 'kernels ready' line seen)"
    print(f"{' '.join(command[2:])}: after start-up {peak_mb(engine.pid):.0f} MB{warmed}", flush=True)
    if args.analyze > 0:
        send("lz-analyze b 100")
        time.sleep(args.analyze)
        ask("name")  # interrupts the analysis: this reads its lines, up to the blank line that ends them
        ask(None)  # name's own response
        time.sleep(0.5)  # the analysis's log line
        print(f"after an analysis of {args.analyze:g} s: {peak_mb(engine.pid):.0f} MB; "
              f"{analysis[-1] if analysis else 'no analysis log line'}", flush=True)
    played = 0
    for k in range(args.moves):
        answer = ask(f"genmove {'b' if k % 2 == 0 else 'w'}")
        played += 1
        if answer.lower().endswith("resign"):
            break
    peak = peak_mb(engine.pid)
    ask("quit")
    engine.wait(timeout=30)
    reader.join(timeout=5)  # the last genmove's log line
    print(f"peak after {played} genmoves: {peak:.0f} MB; {collected[0]} of them collected a full tree")


if __name__ == "__main__":
    main()
