"""Peak memory of a `foogo gtp` process over a self-played game (issue 10: 9x9 --time 2 under 250 MB).

    python bench/game_memory.py [--moves 80] [-- extra foogo gtp options, e.g. --time 2 --memory 64]

Starts `foogo gtp` with the options given after `--` (default: --time 2), asks it for `--moves`
alternating genmoves on an empty 9x9 board, and prints the process's peak resident memory (VmHWM
from /proc) after the warm-up and at the end, with the moves played. The warm-up loads the kernels
in the background: the first figure waits for its "kernels ready" line on the engine's stderr (which
is passed on), so that it is the process before any search. Linux only.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import threading


def peak_mb(pid: int) -> float:
    """VmHWM of a process, in MB."""
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmHWM in /proc status")


def pass_on(stream, ready: threading.Event) -> None:
    """Copy the engine's stderr to ours, setting `ready` at the warm-up's "kernels ready" line (or its end)."""
    for line in stream:
        sys.stderr.write(line)
        if "kernels ready" in line:
            ready.set()
    ready.set()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=80)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("gtp_options", nargs="*", default=["--time", "2"])
    args = parser.parse_args()
    command = [sys.executable, "-m", "foogo", "gtp", *args.gtp_options]
    engine = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                              text=True)
    ready = threading.Event()
    threading.Thread(target=pass_on, args=(engine.stderr, ready), daemon=True).start()

    def ask(line: str) -> str:
        assert engine.stdin is not None and engine.stdout is not None
        engine.stdin.write(line + "\n")
        engine.stdin.flush()
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
    played = 0
    for k in range(args.moves):
        answer = ask(f"genmove {'b' if k % 2 == 0 else 'w'}")
        played += 1
        if answer.lower().endswith("resign"):
            break
    print(f"peak after {played} genmoves: {peak_mb(engine.pid):.0f} MB")
    ask("quit")
    engine.wait(timeout=30)


if __name__ == "__main__":
    main()
