"""What the match tests share: GNU Go's command (and a mark that skips a test without it), a fake GTP
engine whose misbehaviour its command line chooses (conftest.py's `fake` fixture writes it out),
and `foogo match` run in this process."""

import argparse
import json
import os
import textwrap

import pytest

from foogo.match_command import configure_parser, run

GNUGO = "/usr/games/gnugo"
GNUGO_CMD = f"{GNUGO} --mode gtp --level 0 --chinese-rules"
needs_gnugo = pytest.mark.skipif(not os.path.exists(GNUGO), reason="GNU Go is not installed")


FAKE_ENGINE = textwrap.dedent('''
    """A fake GTP engine for tests; its misbehaviour is chosen on the command line."""
    import argparse, sys, time

    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="Fake")
    ap.add_argument("--no-name", action="store_true")
    ap.add_argument("--version", default="0.1")
    ap.add_argument("--moves", default="")         # genmove answers in order each game, then pass
    ap.add_argument("--hang-at", type=int, default=0)   # this genmove of a game never answers
    ap.add_argument("--crash-at", type=int, default=0)  # this genmove of a game exits the process
    ap.add_argument("--crash-on-play", action="store_true")
    ap.add_argument("--reject-play", action="store_true")
    ap.add_argument("--reject-boardsize", action="store_true")
    ap.add_argument("--score", default="")
    ap.add_argument("--hang-on-score", action="store_true")  # never answers `final_score`
    ap.add_argument("--hang-on-name", action="store_true")  # never answers `name`
    ap.add_argument("--exit-at-once", type=int, default=-1)  # exits with this code before reading
    ap.add_argument("--burn", type=float, default=0.0)  # CPU seconds each genmove spends in a child process
    ap.add_argument("--think", type=float, default=0.0)  # seconds each genmove sleeps
    ap.add_argument("--think-first", type=float, default=0.0)  # seconds the process's first genmove sleeps
    ap.add_argument("--no-clock", action="store_true")  # rejects time_settings
    opts = ap.parse_args()
    if opts.exit_at_once >= 0:
        sys.exit(opts.exit_at_once)
    moves = [m for m in opts.moves.split(",") if m]
    sys.stderr.write("FAKE-STDERR-NOISE\\n"); sys.stderr.flush()
    out = sys.stdout
    n_genmove = 0
    first = True

    def reply(cid, text="", ok=True):
        out.write(("=" if ok else "?") + cid + (" " + text if text else "") + "\\n\\n")
        out.flush()

    for line in sys.stdin:
        words = line.split("#")[0].split()
        if not words:
            continue
        cid = ""
        if words[0].isdigit():
            cid, words = words[0], words[1:]
        cmd, rest = words[0], words[1:]
        if cmd == "name" and opts.hang_on_name:
            time.sleep(3600)
        elif cmd == "name" and not opts.no_name:
            reply(cid, opts.name)
        elif cmd == "version" and not opts.no_name:
            reply(cid, opts.version)
        elif cmd == "protocol_version":
            reply(cid, "2")
        elif cmd == "boardsize":
            reply(cid, "unacceptable size", ok=False) if opts.reject_boardsize else reply(cid)
        elif cmd == "clear_board":
            n_genmove = 0
            reply(cid)
        elif cmd == "komi":
            reply(cid)
        elif cmd == "time_settings":
            reply(cid, "no clocks here", ok=False) if opts.no_clock else reply(cid)
        elif cmd == "time_left":
            sys.stderr.write("TIME_LEFT " + " ".join(rest) + "\\n"); sys.stderr.flush()
            reply(cid)
        elif cmd == "play":
            if opts.crash_on_play:
                sys.exit(4)
            reply(cid, "illegal move", ok=False) if opts.reject_play else reply(cid)
        elif cmd == "genmove":
            n_genmove += 1
            if n_genmove == opts.hang_at:
                time.sleep(3600)
            if n_genmove == opts.crash_at:
                sys.stderr.write("fake engine: segmentation fault\\n"); sys.stderr.flush()
                sys.exit(3)
            if opts.burn:  # a child process of the engine's spends the CPU (reaped before the answer)
                import subprocess
                subprocess.run([sys.executable, "-c", "import time\\nt = time.process_time()\\n"
                                f"while time.process_time() - t < {opts.burn}: pass"], check=True)
            time.sleep(opts.think + (opts.think_first if first else 0.0))
            first = False
            reply(cid, moves[n_genmove - 1] if n_genmove <= len(moves) else "pass")
        elif cmd == "final_score" and opts.hang_on_score:
            time.sleep(3600)
        elif cmd == "final_score" and opts.score:
            reply(cid, opts.score)
        elif cmd == "quit":
            reply(cid)
            break
        # Commands for the framing tests.
        elif cmd == "multiline":
            out.write(f"={cid} first\\nsecond\\n  third indented\\n\\n"); out.flush()
        elif cmd == "noid":
            out.write("= no id here\\n\\n"); out.flush()
        elif cmd == "crlf":
            out.write(f"={cid} with\\tcr\\x01lf\\r\\n\\r\\n"); out.flush()
        elif cmd == "blanks":
            out.write(f"\\n\\n={cid} after blanks\\n\\n"); out.flush()
        elif cmd == "stale":
            out.write(f"=0 late answer\\n\\n={cid} fresh\\n\\n"); out.flush()
        elif cmd == "garbage":
            out.write("hello, I am not GTP\\n\\n"); out.flush()
        elif cmd == "sleep":
            time.sleep(float(rest[0]))
            reply(cid, "awake")
        elif cmd == "exit":
            sys.exit(5)
        else:
            reply(cid, "unknown command", ok=False)
''')


def play_match(tmp_path, *argv: str):
    """Run `foogo match` with `argv` plus --json and --quiet; return (exit code, JSON summary)."""
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    out = tmp_path / "result.json"
    out.unlink(missing_ok=True)  # each call's own summary (--json refuses an existing file without --overwrite)
    try:
        args = parser.parse_args([*argv, "--json", str(out), "--quiet"])
    except SystemExit as refused:  # argparse's own one-line error (a number it cannot read)
        return refused.code, None
    code = run(args)
    return code, (json.loads(out.read_text()) if out.exists() else None)


def engine(summary, key):
    """The engine entry with id `key` ("A" or "B") of a summary."""
    return next(e for e in summary["engines"] if e["id"] == key)


@needs_gnugo
def run_match(*argv: str) -> int:
    """Run `foogo match` with exactly `argv`; return its exit code."""
    parser = argparse.ArgumentParser()
    configure_parser(parser)
    return run(parser.parse_args(list(argv)))
