"""Match runner: two GTP engines play a series of games, gogui-twogtp style.

The runner (`Match`, here: the series of games, their SGF files and the summary) is built from
match_engines (`MatchEngines`: starting, setting up and quitting the engines and the referee) and
match_game (`MatchGame`: one game, move by move, to its result).

What it is: `foogo match` drives two Go engines as subprocesses over GTP
(`foogo.gtp_client.GtpClient`), lets them play `--games` games on one board size (colours
swapped every game with `--alternate`), has a referee engine (GNU Go by
default) check every move with `play` and score finished games with
`final_score` (each engine's own `final_score` beside it: a game both engines
count otherwise is reported as disputed, the referee's result standing), can
hold both engines to a game clock (`--time-settings`, match_clock), writes one
SGF per game (into a directory that holds none of its file names yet, unless
`--overwrite`, and that no other match is writing to: the match holds a lock
on the directory while it runs: match_files) and prints a results table (wins per engine with a 95% Wilson
interval, wins by colour, wall and CPU seconds per move, game length, the
counts of illegal moves, timeouts and crashes, and disputed scores; each
game's record, the figures and the table are match_results'; the command line, its
options and its --json summary are match_command's). Each engine's CPU
time per genmove is read from /proc over its whole session (so any engine is
measured, and a timed match shows whether both sides had equal CPU); a genmove
in which an engine got far less than its usual share of the CPU is counted as
starved (another process took the cores), per engine and per game.

Rules of adjudication: `resign` ends a game; two consecutive passes or
`--max-moves` moves end it and the referee scores it. A move the referee or
the opponent rejects is a loss for the engine that played it ("B+Illegal"),
a command not answered within `--timeout` seconds is a loss for the engine
that was asked ("W+Time"), and so is a clock overdrawn by more than
match_clock.GRACE seconds under `--time-settings` (both engines get
`time_settings` at each game's setup and `time_left` before each genmove,
whose timeout is then what the mover's clock allows), and an engine that
exits, answers malformed GTP or fails `genmove` loses by forfeit
("B+Forfeit", reason "crash") and is restarted for the next game. An engine that cannot be started, exits at once
or does not answer `name` within `--startup-timeout` seconds (by default
`--timeout`) stops the match before its game, with a message that says which
engine and why. An engine's first `genmove` after it starts may take
`--startup-timeout` too, unless a game clock rules the move (an engine may
answer the protocol at once and compile its search then, as foogo gtp does
after an install). A game the referee cannot follow or score has
the result "?" and no winner; it is counted as void. These outcomes are all
counted and shown, never dropped.

What it is not: not a tournament manager (exactly two engines, games played
one after another), no Japanese byo-yomi, no handicap, one opening for every
game (--opening, match_openings.py) and no opening randomisation, no resuming
of an interrupted match, and no rules knowledge of its own: legality is whatever the referee
(and the opponent) accept, and without a referee the result is the engines'
`final_score` when both agree. Seconds per move count answered `genmove`s
only; where /proc is missing (not Linux) CPU seconds are left unknown. It
imports nothing of the engine (its own match_* modules, the GTP client, foogo.files'
whole writes and, through match_results, the interval arithmetic of foogo.intervals
shared with `foogo stats`), so it can pit any two GTP engines against each other.
"""

from __future__ import annotations

import argparse
import collections
import sys
from pathlib import Path

from tqdm import tqdm

from .files import write_whole
from .gtp_client import GtpClient
from .match_engines import MatchError, Player
from .match_files import claim_sgf_dir, sgf_name
from .match_game import MatchGame
from .match_results import GameRecord, game_sgf, summarize
from .match_settings import DEFAULT_REFEREE, MAX_GAMES, MAX_MOVES, MAX_TIMEOUT, read_settings

__all__ = ["DEFAULT_REFEREE", "MAX_GAMES", "MAX_MOVES", "MAX_TIMEOUT", "Match", "MatchError"]  # match_settings' limits,
# imported from here by match_command and the bench scripts


class Match(MatchGame):
    """The state of one match: two players, the referee, settings and finished games."""

    def __init__(self, args: argparse.Namespace) -> None:
        settings = read_settings(args)  # ValueError for an option out of range: nothing started yet
        self.settings = settings  # frozen: size, games, komi, names, timeouts, clock, opening, paths, ...
        referee = settings.referee_command

        def log(name: str) -> Path | None:
            """The stderr log path for `name` in the SGF directory, or None (stderr discarded)."""
            return self.settings.sgf_dir / f"{name}.stderr.log" if self.settings.sgf_dir is not None else None

        def client(option: str, command: str, name: str) -> GtpClient:
            try:
                return GtpClient(command, log_path=log(name))
            except ValueError as error:  # an empty command, or shlex's "No closing quotation"
                raise ValueError(f"{option} {command!r}: {error}") from None

        # the commands are checked before the SGF directory is made: a refused match leaves nothing behind
        self.players = {"A": Player("A", args.black, client("--black", args.black, "engine-A")),
                        "B": Player("B", args.white, client("--white", args.white, "engine-B"))}
        self.referee = client("--referee", referee, "referee") if referee else None
        # the directory's lock is held to the match's end (close)
        sgf_dir = settings.sgf_dir
        self._sgf_lock = claim_sgf_dir(sgf_dir, settings.games, settings.overwrite) if sgf_dir else None
        self.referee_name = ""
        self.records: list[GameRecord] = []
        self.interrupted = False

    # -- the series ----------------------------------------------------------

    def colours(self, number: int) -> tuple[Player, Player]:
        """(black, white) for game `number` (1-based): A is black first, swapped on even games if alternating."""
        a, b = self.players["A"], self.players["B"]
        return (b, a) if self.settings.alternate and number % 2 == 0 else (a, b)

    def play_all(self) -> list[GameRecord]:
        """Play every game (stopping early on Ctrl-C) and return the records."""
        st = self.settings
        bar = tqdm(total=st.games, unit="game", file=sys.stderr, disable=st.quiet, dynamic_ncols=True)
        try:
            self.start()
            for number in range(1, self.settings.games + 1):
                black, white = self.colours(number)
                rec = self.play_game(number, black, white)
                self.records.append(rec)
                if self.settings.sgf_dir is not None:
                    self.write_sgf(rec)
                wins = collections.Counter(r.winner for r in self.records)
                bar.set_postfix_str(f"A {wins['A']} : B {wins['B']}")
                bar.update(1)
                if not self.settings.quiet:
                    winner = self.players[rec.winner].label if rec.winner else "nobody"
                    bar.write(f"game {number}: black {black.label}, white {white.label}: {rec.result} "
                              f"({winner} wins, {len(rec.moves)} moves; {rec.detail})", file=sys.stderr)
        except KeyboardInterrupt:
            self.interrupted = True
        finally:
            bar.close()
        return self.records

    def write_sgf(self, rec: GameRecord) -> Path:
        """Write game `rec` to <sgf-dir>/game-NNNN.sgf (match_results.game_sgf) and return the path."""
        assert self.settings.sgf_dir is not None
        labels = {key: p.label for key, p in self.players.items()}
        path = self.settings.sgf_dir / sgf_name(rec.number)
        try:
            write_whole(path, game_sgf(rec, self.settings.size, self.settings.komi, labels, self.settings.clock))
        except OSError as error:  # the match stops; its summary of the games so far is still written
            raise MatchError(f"cannot write {path}: {error.strerror or error}") from None
        return path

    # -- results -------------------------------------------------------------

    def summary(self) -> dict:
        """The match figures as a JSON-ready dict (match_results.summarize)."""
        return summarize(self.records, self.players, {
            "games_requested": self.settings.games, "interrupted": self.interrupted,
            "size": self.settings.size, "komi": self.settings.komi, "max_moves": self.settings.max_moves,
            "timeout": self.settings.timeout, "alternate": self.settings.alternate,
            "time_settings": str(self.settings.clock) if self.settings.clock else None,
            "referee": self.referee_name or None, "referee_command": self.settings.referee_command or None})
