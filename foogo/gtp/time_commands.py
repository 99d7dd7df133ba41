"""The GTP engine's time commands: the clocks a controller or a server sets and reports.

What it is: `TimeCommands`, the part of `GtpEngine` (engine.py) that reads `time_settings`,
`time_left` and `kgs-time_settings` (none, absolute, byo-yomi, Canadian) into the engine's
TimeManager (clock.py), which turns them into each move's budget.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .arguments import Arguments
from .protocol import GtpError

if TYPE_CHECKING:
    from .clock import TimeManager


class TimeCommands(Arguments):
    """GtpEngine's time commands (a base of GtpEngine: they set its TimeManager)."""

    if TYPE_CHECKING:  # what they use of GtpEngine
        time: TimeManager

    def cmd_time_settings(self, args):
        """time_settings MAIN BYO_TIME BYO_STONES (GTP: Canadian byo-yomi; BYO_TIME > 0 with 0 stones: no limit)."""
        self._arity(args, 3)
        main, byo, stones = self._float(args[0]), self._float(args[1]), self._int(args[2])
        if main < 0 or byo < 0 or stones < 0:
            raise GtpError("syntax error: times and stones must be >= 0")
        self.time.set_gtp(main, byo, stones)
        return ""

    def cmd_time_left(self, args):
        """time_left COLOR SECONDS STONES (STONES 0: main time; else stones or periods left in byo-yomi)."""
        self._arity(args, 3)
        color, seconds, stones = self._color(args[0]), self._float(args[1]), self._int(args[2])
        if seconds < 0 or stones < 0:
            raise GtpError("syntax error: time and stones must be >= 0")
        self.time.time_left(color, seconds, stones)
        return ""

    def cmd_kgs_time_settings(self, args):
        """kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES."""
        if not args:
            raise GtpError("syntax error: expected none, absolute, byoyomi or canadian")
        system, rest = args[0].lower(), args[1:]
        wants = {"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}
        if system not in wants:
            raise GtpError(f"syntax error: unknown time system {args[0]!r}")
        self._arity(rest, wants[system])
        values = [self._float(rest[0])] if rest else []
        if len(rest) == 3:
            values += [self._float(rest[1]), self._int(rest[2])]
        if any(v < 0 for v in values):
            raise GtpError("syntax error: times and counts must be >= 0")
        if system == "none":
            self.time.set_none()
        elif system == "absolute":
            self.time.set_absolute(values[0])
        elif system == "byoyomi":
            self.time.set_japanese(*values)
        else:
            self.time.set_gtp(*values)
        return ""
