"""Match runner: two GTP engines play a series of games, gogui-twogtp style.

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
import re
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from tqdm import tqdm

from .files import write_whole
from .gtp_client import GtpClient, GtpError, GtpFailure, GtpTimeout
from .match_clock import GameClock, TimeControl
from .match_files import claim_sgf_dir, release_sgf_dir, sgf_name
from .match_openings import GTP_COLUMNS, vertex
from .match_results import GameRecord, game_sgf, summarize
from .match_settings import DEFAULT_REFEREE, MAX_GAMES, MAX_MOVES, MAX_TIMEOUT, read_settings

__all__ = ["DEFAULT_REFEREE", "MAX_GAMES", "MAX_MOVES", "MAX_TIMEOUT", "MatchError"]  # match_settings' limits,
# imported from here by match_command and the bench scripts

REFEREE_MIN_TIMEOUT = 60.0  # the referee is not on trial; give it time
BRIEF = 200  # the characters of an engine's text (a name, a score, an error) a game's record keeps
DIRTY = ".dirty"  # how a version from a modified git checkout ends (foogo's: version.source_version)

_VERTEX_RE = re.compile(r"^[a-hj-z][1-9][0-9]?$", re.IGNORECASE)
_SCORE_RE = re.compile(r"^([BW])\+([0-9]+(?:\.[0-9]+)?)$", re.IGNORECASE)

# --------------------------------------------------------------------------
# Match
# --------------------------------------------------------------------------


class MatchError(Exception):
    """The match cannot go on: an engine cannot start or refuses the board setup."""


@dataclass
class _Player:
    """An engine in the match, identified by key "A" (--black) or "B" (--white)."""

    key: str
    command: str
    client: GtpClient
    name: str = ""
    version: str = ""
    label: str = ""
    fresh: bool = False  # started or restarted, and not yet asked for a move: its first genmove has the grace

    @property
    def full_name(self) -> str:
        """The engine's `name` and `version` as one string (the SGF PB/PW value)."""
        return f"{self.name} {self.version}".strip()


class _Match:
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
        self.players = {"A": _Player("A", args.black, client("--black", args.black, "engine-A")),
                        "B": _Player("B", args.white, client("--white", args.white, "engine-B"))}
        self.referee = client("--referee", referee, "referee") if referee else None
        # the directory's lock is held to the match's end (close)
        sgf_dir = settings.sgf_dir
        self._sgf_lock = claim_sgf_dir(sgf_dir, settings.games, settings.overwrite) if sgf_dir else None
        self.referee_name = ""
        self.records: list[GameRecord] = []
        self.interrupted = False

    # -- engines -------------------------------------------------------------

    def _launch(self, player: _Player) -> None:
        """(Re)start a player's engine and learn its name; raise GtpFailure if it fails."""
        client = player.client
        client.start()
        player.fresh = True
        grace = self.settings.startup_timeout
        try:
            player.name = _brief(client.send("name", grace)) or player.command
        except GtpError:
            player.name = player.command  # no `name`: the command line tells the engines apart
        try:
            player.version = _brief(client.send("version", grace))
        except GtpError:
            player.version = ""

    def start(self) -> None:
        """Start the referee and both engines, and give the players distinct labels. The referee first, asked
        the board size at once: one that cannot referee the match (GNU Go past 19x19) stops it before the
        engines start and write their logs."""
        if self.referee is not None:
            self.referee_name = self._start_referee()
            self._setup(self.referee, "the referee", max(self.settings.timeout, REFEREE_MIN_TIMEOUT))
        for player in self.players.values():
            try:
                self._launch(player)
            except GtpFailure as exc:
                raise MatchError(f"engine {player.key} ({player.command}) failed to start: {exc}") from exc
        a, b = self.players["A"], self.players["B"]
        for p in (a, b):
            if p.version.endswith(DIRTY):
                print(f"foogo match: warning: engine {p.key} ({p.full_name}) runs from a modified checkout; files "
                      "edited during the match change it at its next start (after a crash or timeout): run it "
                      "from a clean worktree to know what played", file=sys.stderr)
            p.label = self.settings.names[p.key] or p.full_name
        if a.label == b.label:
            a.label, b.label = f"{a.label} (A)", f"{b.label} (B)"

    def _start_referee(self) -> str:
        """Start the referee and return its name; MatchError if it cannot start."""
        assert self.referee is not None
        try:
            self.referee.start()
            grace = max(self.settings.timeout, REFEREE_MIN_TIMEOUT)
            parts = []
            for cmd in ("name", "version"):
                try:
                    parts.append(self.referee.send(cmd, grace))
                except GtpError:
                    pass
            return " ".join(parts).strip() or self.settings.referee_command
        except GtpFailure as exc:
            raise MatchError(f"referee ({self.settings.referee_command}) failed to start: {exc}") from exc

    def _setup(self, client: GtpClient, who: str, timeout: float, clock: TimeControl | None = None) -> None:
        """Send boardsize, clear_board, komi (and the clock's time_settings); GtpError there is fatal (MatchError)."""
        st = self.settings
        for cmd in (f"boardsize {st.size}", "clear_board", f"komi {st.komi:g}") + ((clock.gtp(),) if clock else ()):
            try:
                client.send(cmd, timeout)
            except GtpError as exc:
                raise MatchError(f"{who} rejected {cmd!r}: {exc}") from exc

    def close(self) -> None:
        """Quit all engines and let another match have the SGF directory. A Ctrl-C while an engine is asked to
        quit (a second one, or the first during the last game's end) kills them all instead and marks the match
        interrupted: the games so far are still written (it skipped the summary and its --json)."""
        clients = [client for client in [p.client for p in self.players.values()] + [self.referee]
                   if client is not None]
        try:
            for client in clients:
                client.close()
        except KeyboardInterrupt:
            self.interrupted = True
            for client in clients:
                client.kill()
        finally:  # even when killing them is interrupted (a third Ctrl-C)
            release_sgf_dir(self._sgf_lock)
            self._sgf_lock = None

    # -- one game ------------------------------------------------------------

    def play_game(self, number: int, black: _Player, white: _Player) -> GameRecord:
        """Play game `number` from setup to adjudication and return its record."""
        rec = GameRecord(number, black.key, white.key, timings={black.key: [], white.key: []})
        t_start = time.monotonic()
        try:
            self._play(rec, {"b": black, "w": white})
        finally:
            rec.seconds = time.monotonic() - t_start
        return rec

    def _forfeit(self, rec: GameRecord, loser: _Player, color: str, reason: str, detail: str) -> None:
        """End `rec` as a loss of `loser` (playing `color`) by illegal move, time or crash."""
        word = {"illegal": "Illegal", "time": "Time", "crash": "Forfeit"}[reason]
        other = "W" if color == "b" else "B"
        rec.result = f"{other}+{word}"
        rec.winner = rec.white if color == "b" else rec.black
        rec.reason, rec.fault, rec.detail = reason, loser.key, _brief(detail)
        if reason == "crash":
            loser.client.kill()  # restarted before the next game

    def _failure(self, rec: GameRecord, player: _Player, color: str, exc: GtpFailure, doing: str) -> None:
        """Forfeit for a timeout or crash of `player` while `doing` something."""
        reason = "time" if isinstance(exc, GtpTimeout) else "crash"
        self._forfeit(rec, player, color, reason, f"{player.label} {doing}: {exc}")

    def _void(self, rec: GameRecord, detail: str) -> None:
        """End `rec` without a result (the referee could not follow or score it)."""
        rec.result, rec.winner, rec.reason, rec.detail = "?", None, "void", _brief(detail)

    def _play(self, rec: GameRecord, side: dict[str, _Player]) -> None:
        st = self.settings
        for color, player in side.items():
            try:
                if not player.client.alive:
                    self._launch(player)
                self._setup(player.client, f"engine {player.key} ({player.label})", st.timeout, st.clock)
            except GtpFailure as exc:
                return self._failure(rec, player, color, exc, "failed at game setup")
        if self.referee is not None:
            if not self.referee.alive:
                try:
                    self._start_referee()
                except MatchError as exc:
                    return self._void(rec, f"referee failed to restart: {exc}")
            try:
                self._setup(self.referee, "the referee", max(st.timeout, REFEREE_MIN_TIMEOUT))
            except GtpFailure as exc:
                return self._void(rec, f"referee failed at game setup: {exc}")

        color, passes = "b", 0
        if st.opening:
            if not self._play_opening(rec, side):
                return None
            color = "w" if st.opening[-1][0] == "b" else "b"
            passes = 1 if st.opening[-1][1] is None else 0
        clocks = {c: GameClock(st.clock) for c in side} if st.clock else {}
        while True:
            mover, other = side[color], side["w" if color == "b" else "b"]
            # an engine's first move after it starts may take --startup-timeout: an engine that answers the
            # protocol at once may still compile or load what its search needs then (foogo gtp after an install)
            timeout = max(st.timeout, st.startup_timeout) if mover.fresh else st.timeout
            mover.fresh = False
            if clocks:
                timeout = clocks[color].allowance()
                failure = self._tell_time(mover, color, clocks[color])
                if failure is not None:
                    return self._failure(rec, mover, color, failure, "at time_left")
            cpu0 = mover.client.cpu_seconds()
            t0 = time.monotonic()
            try:
                answer = mover.client.send(f"genmove {color}", timeout)
            except GtpFailure as exc:
                if clocks and isinstance(exc, GtpTimeout):  # (the client has stopped the engine: restarted later)
                    return self._forfeit(rec, mover, color, "time", f"{mover.label} ran out of time (no move in "
                                         f"the {timeout:.2f} s its clock allowed, {st.clock})")
                return self._failure(rec, mover, color, exc, "at genmove")
            except GtpError as exc:
                return self._forfeit(rec, mover, color, "crash", f"{mover.label} failed genmove: ? {exc}")
            wall = time.monotonic() - t0
            cpu1 = mover.client.cpu_seconds()
            rec.timings[mover.key].append((wall, None if cpu0 is None or cpu1 is None else cpu1 - cpu0))
            if clocks and not clocks[color].charge(wall):
                return self._forfeit(rec, mover, color, "time",
                                     f"{mover.label} ran out of time ({wall:.2f} s on its move, {st.clock})")

            word = answer.strip().lower()
            if word == "resign":
                rec.result = ("W" if color == "b" else "B") + "+R"
                rec.winner, rec.reason = other.key, "resign"
                rec.detail = f"{mover.label} resigned"
                return None
            if word == "pass":
                move = None
            elif _VERTEX_RE.match(word):
                row, col = int(word[1:]) - 1, GTP_COLUMNS.index(word[0].upper())
                if row >= st.size or col >= st.size:
                    return self._forfeit(rec, mover, color, "illegal", f"{mover.label} played off-board {answer}")
                move = (row, col)
            else:
                return self._forfeit(rec, mover, color, "crash",
                                     f"{mover.label} answered genmove with {answer[:100]!r}")

            vertex = word.upper() if move is not None else "pass"
            if self.referee is not None:
                try:
                    self.referee.send(f"play {color} {vertex}", max(st.timeout, REFEREE_MIN_TIMEOUT))
                except GtpError as exc:
                    return self._forfeit(rec, mover, color, "illegal",
                                         f"{mover.label} played {vertex}: referee says ? {exc}")
                except GtpFailure as exc:
                    return self._void(rec, f"referee failed on play {color} {vertex}: {exc}")
            try:
                other.client.send(f"play {color} {vertex}", st.timeout)
            except GtpError as exc:
                return self._forfeit(rec, mover, color, "illegal",
                                     f"{mover.label} played {vertex}: opponent {other.label} says ? {exc}")
            except GtpFailure as exc:
                other_color = "w" if color == "b" else "b"
                return self._failure(rec, other, other_color, exc, f"on play {color} {vertex}")
            rec.moves.append((color, move))
            if clocks:
                rec.clock.append(clocks[color].time_left()[0])

            passes = passes + 1 if move is None else 0
            if passes >= 2 or len(rec.moves) >= st.max_moves:
                if passes < 2:
                    rec.detail = f"stopped at --max-moves {st.max_moves}; "
                return self._score(rec, side)
            color = "w" if color == "b" else "b"

    def _play_opening(self, rec: GameRecord, side: dict[str, _Player]) -> bool:
        """Play the opening's moves on the referee and both engines, into rec; False with the game ended when
        one of them refuses a move (void: the opening's fault, not a player's) or an engine fails (its loss)."""
        for color, move in self.settings.opening:
            command = f"play {color} {vertex(move)}"
            if self.referee is not None:
                try:
                    self.referee.send(command, max(self.settings.timeout, REFEREE_MIN_TIMEOUT))
                except GtpError as exc:
                    self._void(rec, f"the referee refused the opening's {command}: ? {exc}")
                    return False
                except GtpFailure as exc:
                    self._void(rec, f"referee failed on the opening's {command}: {exc}")
                    return False
            for player_color, player in side.items():
                try:
                    player.client.send(command, self.settings.timeout)
                except GtpError as exc:
                    self._void(rec, f"{player.label} refused the opening's {command}: ? {exc}")
                    return False
                except GtpFailure as exc:
                    self._failure(rec, player, player_color, exc, f"on the opening's {command}")
                    return False
            rec.moves.append((color, move))
            rec.opening += 1
        return True

    def _tell_time(self, player: _Player, color: str, clock: GameClock) -> GtpFailure | None:
        """Send `player` its time_left (whole seconds, as GTP has them); the failure if it hangs or dies.
        An engine that rejects time_left keeps its own count: the clock here still judges it."""
        seconds, stones = clock.time_left()
        try:
            player.client.send(f"time_left {color} {int(seconds)} {stones}", self.settings.timeout)
        except GtpFailure as exc:
            return exc
        except GtpError:
            pass
        return None

    def _score(self, rec: GameRecord, side: dict[str, _Player]) -> None:
        """Score a finished game with the referee (or with both engines when they agree)."""
        if self.referee is not None:
            try:
                score = self.referee.send("final_score", max(self.settings.timeout, REFEREE_MIN_TIMEOUT))
            except (GtpError, GtpFailure) as exc:
                return self._void(rec, rec.detail + f"referee could not score: {exc}")
            source = "referee"
        else:
            scores: list[str | None] = []
            for color, player in side.items():
                try:
                    scores.append(_brief(player.client.send("final_score", self.settings.timeout).strip()))
                except GtpFailure as exc:
                    return self._failure(rec, player, color, exc, "at final_score")
                except GtpError:
                    scores.append(None)
            if scores[0] is None or scores[0].upper() != (scores[1] or "").upper():
                return self._void(rec, rec.detail + f"no referee and the engines' scores differ: {scores}")
            score, source = scores[0], "both engines"
        score = _brief(score.strip())
        m = _SCORE_RE.match(score)
        if m:
            rec.result = f"{m.group(1).upper()}+{m.group(2)}"
            rec.winner = rec.black if m.group(1).upper() == "B" else rec.white
        elif score.lower() in ("0", "draw", "jigo"):
            rec.result, rec.winner = "0", None
        else:
            return self._void(rec, rec.detail + f"unreadable score from {source}: {score!r}")
        rec.reason = "score"
        rec.detail += f"scored by {source}"
        if source == "referee":
            self._engine_counts(rec, side)
        return None

    def _engine_counts(self, rec: GameRecord, side: dict[str, _Player]) -> None:
        """Ask both engines their own `final_score` of a game the referee scored, into rec.engine_scores,
        and say in rec.detail when both name another winner than the referee (GameRecord.disputed). The
        engines are not on trial here: an error or no answer within --timeout is recorded as None (an
        engine that timed out was stopped by its client and is restarted for the next game)."""
        for player in side.values():
            try:
                rec.engine_scores[player.key] = _brief(player.client.send("final_score", self.settings.timeout).strip())
            except (GtpError, GtpFailure):
                rec.engine_scores[player.key] = None
        if rec.disputed:
            counts = " and ".join(f"{side[c].label} {rec.engine_scores[side[c].key]}" for c in ("b", "w"))
            rec.detail += f"; disputed: both engines count otherwise ({counts})"

    # -- the series ----------------------------------------------------------

    def colours(self, number: int) -> tuple[_Player, _Player]:
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


def _brief(text: str) -> str:
    """An engine's text as a game's record keeps it: at most BRIEF characters, and how long it was."""
    return text if len(text) <= BRIEF else f"{text[:BRIEF]}... ({len(text):,} characters)"


