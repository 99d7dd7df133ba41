"""One GTP engine made of two: the first plays a game's first moves, the second the rest (or a window of them).

    python bench/phase_proxy.py --switch-at M [--switch-back N] --late-arg OLD:NEW [--late-arg OLD:NEW ...] \
        -- COMMAND [ARGS ...]

Starts COMMAND ARGS twice: the early engine as given, and the late engine with each argument equal to OLD
replaced by NEW (e.g. `--late-arg =40000:=10000` for Pachi's `-t =40000`, `--late-arg 122000:30500` for foogo's
`--playouts 122000`). Every command goes to both engines, so both hold the game; `genmove` goes to the early
engine while fewer than M moves have been played since the last `clear_board` or `boardsize` (moves given by
`play`, by an opening, count), and to the late one after (with --switch-back N, only until N moves have been
played: the early engine plays again from move N + 1, so the late one plays moves M + 1 to N), and the move it
returns is then played on the other engine. The answer is the playing engine's (for `genmove`) or the early
engine's, or the first error. Both engines write to this process's stderr, so a match's engine log holds both
(foogo's genmove lines included), and both run in its session, so a match's CPU count holds both.

What it is for: placing a budget's effect in the game. A match whose two players both run at a large budget for
the first M moves and at a small one after (or the other way round) shows how much of what the larger budget
changes happens in the opening, from the empty board, in whole games: games started from recorded positions
instead fold in how decided those positions already are, which pulls every win rate towards 50%
(bench/RESULTS.md, "Where in the game a larger budget counts"). bench/pachi_ab.py runs it as an arm's
--command, and as --pachi through a two-line wrapper script (the commands are in RESULTS.md).
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys

_ID = re.compile(r"^([0-9]+)\s*(.*)$")
MAX_SWITCH = 10_000  # the game's move count at which the late engine takes over, at most
MAX_LINE = 1 << 20  # a command or response line longer than this is refused (bounded memory)
MAX_RESPONSE_LINES = 10_000


class Engine:
    """One engine process: commands in, responses out, stderr shared with this process. Not foogo's GtpClient:
    that one starts its engine in a session of its own and keeps its stderr, where a match must count this
    process's CPU with its copies' and read their genmove lines in its own engine log."""

    def __init__(self, argv: list[str]):
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None)

    def send(self, command: str) -> tuple[bool, str]:
        """(success, text) of one GTP command (no id), or a failure if the engine stopped answering."""
        try:
            self.proc.stdin.write((command + "\n").encode())
            self.proc.stdin.flush()
        except OSError:
            return False, "engine stopped"
        lines: list[str] = []
        while True:
            raw = self.proc.stdout.readline(MAX_LINE + 1)
            if not raw:
                return False, "engine stopped"
            if len(raw) > MAX_LINE or len(lines) > MAX_RESPONSE_LINES:
                return False, "engine response too long"
            line = raw.decode("utf-8", "replace").rstrip("\r\n")
            if not lines and not line.strip():
                continue  # blank lines before a response
            if not line.strip():
                break
            lines.append(line)
        head = lines[0]
        ok = head.startswith("=")
        return ok, "\n".join([head[1:].strip()] + lines[1:]).strip()

    def close(self) -> None:
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()


def late_argv(argv: list[str], replacements: list[tuple[str, str]]) -> list[str]:
    """argv with each argument equal to an OLD of replacements made its NEW; every OLD must occur."""
    table = dict(replacements)
    missing = [old for old in table if old not in argv]
    if missing:
        raise SystemExit(f"phase_proxy: --late-arg {missing[0]!r} is not an argument of the command")
    return [table.get(a, a) for a in argv]


class Proxy:
    """The two engines and the game's move count."""

    def __init__(self, early: Engine, late: Engine, switch_at: int, switch_back: int | None = None):
        self.early, self.late, self.switch_at, self.switch_back = early, late, switch_at, switch_back
        self.moves = 0

    def playing(self) -> tuple[Engine, Engine]:
        """(the engine to generate the next move, the other)."""
        if self.switch_at <= self.moves and (self.switch_back is None or self.moves < self.switch_back):
            return self.late, self.early
        return self.early, self.late

    def both(self, command: str) -> tuple[bool, str]:
        """command on both engines: the early one's answer, or the first error."""
        results = [self.early.send(command), self.late.send(command)]
        for ok, text in results:
            if not ok:
                return False, text
        return results[0]

    def handle(self, command: str) -> tuple[bool, str]:
        """One command (no id): (success, text)."""
        words = command.split()
        name = words[0].lower() if words else ""
        if name == "genmove" and len(words) == 2:
            player, other = self.playing()
            print(f"phase_proxy: move {self.moves + 1} by the {'early' if player is self.early else 'late'} engine",
                  file=sys.stderr, flush=True)
            ok, move = player.send(command)
            if not ok:
                return ok, move
            if move.lower() != "resign":
                ok2, text = other.send(f"play {words[1]} {move}")
                if not ok2:
                    return False, f"the other engine refused {move}: {text}"
                self.moves += 1
            return True, move
        ok, text = self.both(command)
        if ok:
            if name == "play":
                self.moves += 1
            elif name in ("clear_board", "boardsize"):
                self.moves = 0
            elif name == "undo":
                self.moves = max(0, self.moves - 1)
        return ok, text


def serve(proxy: Proxy, stdin, stdout) -> None:
    """Answer GTP commands from stdin until quit or end of input."""
    while True:
        raw = stdin.readline(MAX_LINE + 1)
        if not raw:
            break
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        match = _ID.match(line)
        ident, command = (match.group(1), match.group(2)) if match else ("", line)
        if len(raw) > MAX_LINE:
            ok, text = False, "line too long"
            while raw and not raw.endswith("\n"):  # drop the rest of the line
                raw = stdin.readline(MAX_LINE + 1)
        else:
            ok, text = proxy.handle(command)
        stdout.write(f"{'=' if ok else '?'}{ident} {text}".rstrip() + "\n\n")
        stdout.flush()
        if command.split()[:1] == ["quit"]:
            break


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--switch-at", type=int, required=True, metavar="M",
                        help="the late engine plays once M moves have been played")
    parser.add_argument("--switch-back", type=int, default=None, metavar="N",
                        help="the early engine plays again once N (more than M) moves have been played")
    parser.add_argument("--late-arg", action="append", default=[], metavar="OLD:NEW",
                        help="the late engine's argument NEW where the command has OLD (repeatable)")
    parser.add_argument("command", nargs=argparse.REMAINDER, help="-- COMMAND [ARGS ...]")
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command:
        parser.error("give the engine's command after --")
    if not 0 <= args.switch_at <= MAX_SWITCH:
        parser.error(f"--switch-at must be 0..{MAX_SWITCH}")
    if args.switch_back is not None and not args.switch_at < args.switch_back <= MAX_SWITCH:
        parser.error(f"--switch-back must be more than --switch-at and at most {MAX_SWITCH}")
    replacements = []
    for item in args.late_arg:
        old, sep, new = item.partition(":")
        if not sep or not old:
            parser.error(f"--late-arg takes OLD:NEW, not {item!r}")
        replacements.append((old, new))
    late = late_argv(command, replacements)
    early_engine, late_engine = Engine(command), Engine(late)
    try:
        serve(Proxy(early_engine, late_engine, args.switch_at, args.switch_back), sys.stdin, sys.stdout)
    finally:
        early_engine.close()
        late_engine.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
