"""A match's engines: starting them (the referee first), telling them the board, and quitting them.

What it is: `MatchEngines`, the part of the match runner (match.py's `Match`) that owns the GTP
clients: the two players (`Player`, "A" for --black and "B" for --white) and the referee, each
launched and asked its name and version, set up for a game (boardsize, clear_board, komi, the
clock's time_settings), restarted after a crash, and quit (or killed on a second Ctrl-C) at the end.
`MatchError` is a match that cannot go on. It imports nothing of the engine.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .gtp_client import GtpClient, GtpError, GtpFailure
from .match_clock import TimeControl
from .match_files import release_sgf_dir

if TYPE_CHECKING:
    from .match_settings import MatchSettings

REFEREE_MIN_TIMEOUT = 60.0  # the referee is not on trial; give it time
BRIEF = 200  # the characters of an engine's text (a name, a score, an error) a game's record keeps
DIRTY = ".dirty"  # how a version from a modified git checkout ends (foogo's: version.source_version)


class MatchError(Exception):
    """The match cannot go on: an engine cannot start or refuses the board setup."""


@dataclass
class Player:
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


class MatchEngines:
    """The match's engines (a base of match.Match, which sets its players, referee, settings and lock)."""

    players: dict[str, Player]
    referee: GtpClient | None
    referee_name: str
    settings: MatchSettings
    interrupted: bool
    _sgf_lock: int | None  # the SGF directory lock's descriptor (match_files.claim_sgf_dir)

    @property
    def referee_timeout(self) -> float:
        """The seconds the referee gets for any command: --timeout, and at least REFEREE_MIN_TIMEOUT."""
        return max(self.settings.timeout, REFEREE_MIN_TIMEOUT)

    def _launch(self, player: Player) -> None:
        """(Re)start a player's engine and learn its name; raise GtpFailure if it fails."""
        client = player.client
        client.start()
        player.fresh = True
        grace = self.settings.startup_timeout
        try:
            player.name = brief(client.send("name", grace)) or player.command
        except GtpError:
            player.name = player.command  # no `name`: the command line tells the engines apart
        try:
            player.version = brief(client.send("version", grace))
        except GtpError:
            player.version = ""

    def start(self) -> None:
        """Start the referee and both engines, and give the players distinct labels. The referee first, asked
        the board size at once: one that cannot referee the match (GNU Go past 19x19) stops it before the
        engines start and write their logs."""
        if self.referee is not None:
            self.referee_name = self._start_referee()
            self._setup(self.referee, "the referee", self.referee_timeout)
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
            grace = self.referee_timeout
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


def brief(text: str) -> str:
    """An engine's text as a game's record keeps it: at most BRIEF characters, and how long it was."""
    return text if len(text) <= BRIEF else f"{text[:BRIEF]}... ({len(text):,} characters)"


