"""Game clocks for `foogo match`: the time control both engines play under, and each player's clock.

What it is: `TimeControl` (a main time, then optionally Canadian byo-yomi: `stones` moves in
every `byo` seconds), parsed from `--time-settings` ("90", "5m", "1h", "10m+30s/5"; a bare
number is seconds) and given to the engines as GTP's `time_settings MAIN BYO STONES`
(sudden death is `time_settings MAIN 0 0`); and `GameClock`, one player's clock in one game as
the match keeps it: what `time_left` tells the engine before each genmove, how long the engine
may think before its flag falls (the genmove's timeout), and the charge of each move's wall
time, which says whether the flag fell. A flag falls only when the clock is overdrawn by more
than `GRACE` seconds in all (pipes and process switches cost an engine a little on every move;
the grace does not carry over: an engine that overdraws by 0.3 s is at -0.3 s, and its next
overdraw counts from there).

What it is not: an engine's time manager (foogo/gtp/clock.py spends a clock it is told about;
this one keeps the truth and judges), nor Japanese byo-yomi (KGS's kgs-time_settings, which
two-engine matches do not need). Knows nothing of Go or of GTP's framing.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

GRACE = 0.5  # seconds a clock may be overdrawn before its flag falls (lag of pipes and process switches)
MAX_SECONDS = 86400.0  # a day: no match needs more on one clock, and every genmove's timeout stays finite

_TIME_RE = re.compile(r"^([0-9]+(?:\.[0-9]+)?)(s|m|h)?$")
_UNITS = {None: 1.0, "s": 1.0, "m": 60.0, "h": 3600.0}


def _seconds(text: str, what: str) -> float:
    """Seconds from '90', '90s', '5m' or '1h' (what: the part of the spec, for the error)."""
    m = _TIME_RE.match(text.strip().lower())
    if not m:
        raise ValueError(f"bad {what} {text!r} in --time-settings: want seconds such as 90, 90s, 5m or 1h")
    seconds = float(m.group(1)) * _UNITS[m.group(2)]
    if not (math.isfinite(seconds) and seconds <= MAX_SECONDS):
        raise ValueError(f"{what} {text!r} in --time-settings is more than a day")
    return seconds


@dataclass(frozen=True)
class TimeControl:
    """Main time in seconds, then `stones` moves in every `byo` seconds (Canadian); stones 0: sudden death."""

    main: float
    byo: float = 0.0
    stones: int = 0

    @classmethod
    def parse(cls, spec: str) -> "TimeControl":
        """A TimeControl from MAIN or MAIN+BYO/STONES ('5m', '10m+30s/5', '0+5s/1': 5 s a move)."""
        text = spec.strip()
        main_text, plus, rest = text.partition("+")
        main = _seconds(main_text, "main time")
        if not plus:
            if main <= 0:
                raise ValueError(f"--time-settings {spec!r} gives no time at all")
            return cls(main)
        byo_text, slash, stones_text = rest.partition("/")
        if not slash or not re.fullmatch(r"[0-9]{1,9}", stones_text.strip()):
            raise ValueError(f"bad byo-yomi {rest!r} in --time-settings: want BYO/STONES such as 30s/5")
        byo, stones = _seconds(byo_text, "byo-yomi time"), int(stones_text)
        if byo <= 0 or not 1 <= stones <= 1000:
            raise ValueError(f"byo-yomi {rest!r} in --time-settings needs a time > 0 and 1 to 1000 stones")
        return cls(main, byo, stones)

    def gtp(self) -> str:
        """The GTP command that tells an engine this time control."""
        return f"time_settings {self.main:g} {self.byo:g} {self.stones}"

    def __str__(self) -> str:
        main = f"{self.main:g} s"
        if not self.stones:
            return f"{main} sudden death"
        return f"{main} + {self.stones} moves in {self.byo:g} s (Canadian)"


class GameClock:
    """One player's clock in one game, kept by the match (see the module)."""

    def __init__(self, control: TimeControl) -> None:
        self.control = control
        self.main = control.main  # main time left (in sudden death it may go below 0 by up to GRACE)
        self.in_byo = control.main <= 0 and control.stones > 0
        self.period = control.byo if self.in_byo else 0.0  # seconds left in the byo-yomi period
        self.stones = control.stones if self.in_byo else 0  # moves still to play in the period

    def time_left(self) -> tuple[float, int]:
        """GTP's time_left arguments: (main time left, 0) in main time, (period left, stones left) in byo-yomi."""
        if self.in_byo:
            return max(0.0, self.period), self.stones
        return max(0.0, self.main), 0

    def allowance(self) -> float:
        """The most seconds the next move may take before the flag falls (grace included)."""
        if self.in_byo:
            return max(0.0, self.period + GRACE)
        extra = self.control.byo if self.control.stones else 0.0
        return max(0.0, self.main + extra + GRACE)

    def charge(self, seconds: float) -> bool:
        """Take a move's `seconds` off the clock; False if the flag fell."""
        if not self.in_byo:
            self.main -= seconds
            if self.main > 0:
                return True
            if not self.control.stones:
                return self.main >= -GRACE
            seconds, self.main = -self.main, 0.0  # the move that ends main time opens byo-yomi: its
            # overdraw and the move itself count in the first period
            self.in_byo, self.period, self.stones = True, self.control.byo, self.control.stones
        self.period -= seconds
        if self.period < -GRACE:
            return False
        self.stones -= 1
        if self.stones <= 0:
            self.period, self.stones = self.control.byo, self.control.stones
        return True
