"""One game of a match: from the engines' setup to the result, with the referee judging every move.

What it is: `MatchGame`, the part of the match runner (match.py's `Match`) that plays a game:
the opening's moves, then genmove and play in turn, each move checked by the referee (an illegal
move, a timeout or a crash forfeits the game; a referee that cannot follow voids it), the clocks
(match_clock.py) charged and told, and the end scored by the referee (or by both engines when they
agree), into a GameRecord (match_results.py). It imports nothing of the engine.
"""

from __future__ import annotations

import re
import time

from .gtp_client import GtpError, GtpFailure, GtpTimeout
from .match_clock import GameClock
from .match_engines import MatchEngines, MatchError, Player, brief
from .match_openings import parse_vertex, vertex
from .match_results import GameRecord

_SCORE_RE = re.compile(r"^([BW])\+([0-9]+(?:\.[0-9]+)?)$", re.IGNORECASE)


def other_colour(color: str) -> str:
    """The other of GTP's colours "b" and "w"."""
    return "w" if color == "b" else "b"


class MatchGame(MatchEngines):
    """A match's games (a base of match.Match: it uses the engines, the referee and the settings)."""

    def play_game(self, number: int, black: Player, white: Player) -> GameRecord:
        """Play game `number` from setup to adjudication and return its record."""
        rec = GameRecord(number, black.key, white.key, timings={black.key: [], white.key: []})
        t_start = time.monotonic()
        try:
            self._play(rec, {"b": black, "w": white})
        finally:
            rec.seconds = time.monotonic() - t_start
        return rec

    def _forfeit(self, rec: GameRecord, loser: Player, color: str, reason: str, detail: str) -> None:
        """End `rec` as a loss of `loser` (playing `color`) by illegal move, time or crash."""
        word = {"illegal": "Illegal", "time": "Time", "crash": "Forfeit"}[reason]
        other = "W" if color == "b" else "B"
        rec.result = f"{other}+{word}"
        rec.winner = rec.white if color == "b" else rec.black
        rec.reason, rec.fault, rec.detail = reason, loser.key, brief(detail)
        if reason == "crash":
            loser.client.kill()  # restarted before the next game

    def _failure(self, rec: GameRecord, player: Player, color: str, exc: GtpFailure, doing: str) -> None:
        """Forfeit for a timeout or crash of `player` while `doing` something."""
        reason = "time" if isinstance(exc, GtpTimeout) else "crash"
        self._forfeit(rec, player, color, reason, f"{player.label} {doing}: {exc}")

    def _void(self, rec: GameRecord, detail: str) -> None:
        """End `rec` without a result (the referee could not follow or score it)."""
        rec.result, rec.winner, rec.reason, rec.detail = "?", None, "void", brief(detail)

    def _play(self, rec: GameRecord, side: dict[str, Player]) -> None:
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
                self._setup(self.referee, "the referee", self.referee_timeout)
            except GtpFailure as exc:
                return self._void(rec, f"referee failed at game setup: {exc}")

        color, passes = "b", 0
        if st.opening:
            if not self._play_opening(rec, side):
                return None
            color = other_colour(st.opening[-1][0])
            passes = 1 if st.opening[-1][1] is None else 0
        clocks = {c: GameClock(st.clock) for c in side} if st.clock else {}
        while True:
            mover, other = side[color], side[other_colour(color)]
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
            elif (move := parse_vertex(word)) is not None:
                if max(move) >= st.size:
                    return self._forfeit(rec, mover, color, "illegal", f"{mover.label} played off-board {answer}")
            else:
                return self._forfeit(rec, mover, color, "crash",
                                     f"{mover.label} answered genmove with {answer[:100]!r}")

            played = word.upper() if move is not None else "pass"
            if self.referee is not None:
                try:
                    self.referee.send(f"play {color} {played}", self.referee_timeout)
                except GtpError as exc:
                    return self._forfeit(rec, mover, color, "illegal",
                                         f"{mover.label} played {played}: referee says ? {exc}")
                except GtpFailure as exc:
                    return self._void(rec, f"referee failed on play {color} {played}: {exc}")
            try:
                other.client.send(f"play {color} {played}", st.timeout)
            except GtpError as exc:
                return self._forfeit(rec, mover, color, "illegal",
                                     f"{mover.label} played {played}: opponent {other.label} says ? {exc}")
            except GtpFailure as exc:
                return self._failure(rec, other, other_colour(color), exc, f"on play {color} {played}")
            rec.moves.append((color, move))
            if clocks:
                rec.clock.append(clocks[color].time_left()[0])

            passes = passes + 1 if move is None else 0
            if passes >= 2 or len(rec.moves) >= st.max_moves:
                if passes < 2:
                    rec.detail = f"stopped at --max-moves {st.max_moves}; "
                return self._score(rec, side)
            color = other_colour(color)

    def _play_opening(self, rec: GameRecord, side: dict[str, Player]) -> bool:
        """Play the opening's moves on the referee and both engines, into rec; False with the game ended when
        one of them refuses a move (void: the opening's fault, not a player's) or an engine fails (its loss)."""
        for color, move in self.settings.opening:
            command = f"play {color} {vertex(move)}"
            if self.referee is not None:
                try:
                    self.referee.send(command, self.referee_timeout)
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

    def _tell_time(self, player: Player, color: str, clock: GameClock) -> GtpFailure | None:
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

    def _score(self, rec: GameRecord, side: dict[str, Player]) -> None:
        """Score a finished game with the referee (or with both engines when they agree)."""
        if self.referee is not None:
            try:
                score = self.referee.send("final_score", self.referee_timeout)
            except (GtpError, GtpFailure) as exc:
                return self._void(rec, rec.detail + f"referee could not score: {exc}")
            source = "referee"
        else:
            scores: list[str | None] = []
            for color, player in side.items():
                try:
                    scores.append(brief(player.client.send("final_score", self.settings.timeout).strip()))
                except GtpFailure as exc:
                    return self._failure(rec, player, color, exc, "at final_score")
                except GtpError:
                    scores.append(None)
            if scores[0] is None or scores[0].upper() != (scores[1] or "").upper():
                return self._void(rec, rec.detail + f"no referee and the engines' scores differ: {scores}")
            score, source = scores[0], "both engines"
        score = brief(score.strip())
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

    def _engine_counts(self, rec: GameRecord, side: dict[str, Player]) -> None:
        """Ask both engines their own `final_score` of a game the referee scored, into rec.engine_scores,
        and say in rec.detail when both name another winner than the referee (GameRecord.disputed). The
        engines are not on trial here: an error or no answer within --timeout is recorded as None (an
        engine that timed out was stopped by its client and is restarted for the next game)."""
        for player in side.values():
            try:
                rec.engine_scores[player.key] = brief(player.client.send("final_score", self.settings.timeout).strip())
            except (GtpError, GtpFailure):
                rec.engine_scores[player.key] = None
        if rec.disputed:
            counts = " and ".join(f"{side[c].label} {rec.engine_scores[side[c].key]}" for c in ("b", "w"))
            rec.detail += f"; disputed: both engines count otherwise ({counts})"
