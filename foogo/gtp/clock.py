"""GTP time control: the players' clocks as GTP and KGS report them, and the seconds to spend on a move.

`TimeManager` takes `time_settings`, `kgs-time_settings` and `time_left`, keeps each colour's
clock (absolute, Canadian or Japanese byo-yomi) and turns it into a budget with a safety margin,
so that foogo never loses on time. Knows nothing of the protocol's framing or of Go.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..geometry import BLACK, WHITE, parse_color


@dataclass
class Clock:
    """One player's clock as last known: main time left, and the byo-yomi state."""

    main: float = 0.0  # seconds of main time left
    in_byo: bool = False  # main time is used up
    period_left: float = 0.0  # seconds left in the current byo-yomi period
    stones_left: int = 0  # Canadian: stones still to play in this period
    periods_left: int = 0  # Japanese: periods left


@dataclass
class TimeManager:
    """Seconds to spend on a move under the game's time control, with a margin so as never to lose on time.

    Systems: "none" (no limit: `budget` is None), "absolute" (main time only), "canadian" (main
    time, then `byo_stones` stones in every `byo_time` seconds; GTP's time_settings) and "japanese"
    (main time, then `periods` periods of `byo_time` seconds, one move per period; KGS's byoyomi).
    The controller's `time_left` is the truth; between two of them `spend` keeps a local estimate.

    Allocation: in main time (main left - SAFETY) / max(MIN_MOVES, empty points / EMPTY_PER_MOVE),
    the moves still to come as games go, plus the share of the byo-yomi that follows it (a move in main
    time uses no period: the sooner the main time is spent, the more moves get a period's time); in byo-yomi
    BYO_FRACTION of the period (per stone, for Canadian) minus SAFETY; never below MIN_BUDGET, nor
    above MAX_BUDGET (a controller may grant any finite time: a time_settings of years would
    otherwise hold one genmove for years).

    Limit (`limit`): what a move whose search is still close at its budget may go on to (search_time.py):
    in main time up to EXTEND budgets, but never more than LIMIT_SHARE of the main time
    left; in a Canadian period up to EXTEND budgets too, leaving every other stone of the period
    MIN_BUDGET and SAFETY; in Japanese byo-yomi the budget itself (a period's time is not saved for
    later)."""

    SAFETY = 0.3  # seconds kept back for latency and the search's own overhead
    # a player has about one move still to play for every EMPTY_PER_MOVE empty points: in 330 9x9 games of
    # foogo's under a clock (against itself and Pachi), the mean own moves left was empty points / 2.8 to
    # / 3.9 at every stage (bench/results/clock-allocation-2026-11-27.txt). Searches that settle early save
    # time for later moves, which the divisor hands on; it stops falling at MIN_MOVES, so that no move takes
    # more than a tenth of the main time left (the extension, twice that)
    EMPTY_PER_MOVE = 3.0
    MIN_MOVES = 10.0
    BYO_FRACTION = 0.8
    MIN_BUDGET = 0.05
    MAX_BUDGET = 3600.0  # an hour: more than any real clock gives one move, and still an end
    EXTEND = 2.0  # a close move may take this many budgets (Pachi's max_maintime_ratio) ...
    LIMIT_SHARE = 0.25  # ... and at most this share of the main time left

    system: str = "none"
    main_time: float = 0.0
    byo_time: float = 0.0
    byo_stones: int = 0
    periods: int = 0
    clocks: dict = field(default_factory=lambda: {BLACK: Clock(), WHITE: Clock()})

    # ------------------------------------------------------------ settings

    def set_none(self) -> None:
        """No time limit."""
        self._set("none", 0.0, 0.0, 0, 0)

    def set_absolute(self, main: float) -> None:
        """Sudden death: `main` seconds for the whole game."""
        self._set("absolute", main, 0.0, 0, 0)

    def set_canadian(self, main: float, byo_time: float, byo_stones: int) -> None:
        """Main time, then `byo_stones` stones in each `byo_time` seconds."""
        self._set("canadian", main, byo_time, byo_stones, 0)

    def set_japanese(self, main: float, byo_time: float, periods: int) -> None:
        """Main time, then `periods` periods of `byo_time` seconds (a period is lost by overrunning it)."""
        self._set("japanese", main, byo_time, 0, periods)

    def set_gtp(self, main: float, byo_time: float, byo_stones: int) -> None:
        """GTP time_settings: byo_time > 0 with 0 stones means no limit, byo_time 0 means absolute
        (and all zeros, no limit)."""
        if byo_time > 0 and byo_stones == 0:
            self.set_none()
        elif byo_time == 0 or byo_stones == 0:
            self.set_absolute(main) if main > 0 else self.set_none()
        else:
            self.set_canadian(main, byo_time, byo_stones)

    def _set(self, system, main, byo_time, byo_stones, periods) -> None:
        for value in (main, byo_time):
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"time must be a finite number of seconds >= 0, got {value}")
        if byo_stones < 0 or periods < 0:
            raise ValueError("stones and periods must be >= 0")
        if system == "japanese" and (periods == 0 or byo_time == 0):  # no period follows the main time: it is
            # sudden death (KGS's "byoyomi 300 30 0" was budgeted as if a period followed, and lost on time)
            system, byo_time, periods = ("none" if main == 0 else "absolute"), 0.0, 0
        self.system, self.main_time, self.byo_time = system, float(main), float(byo_time)
        self.byo_stones, self.periods = int(byo_stones), int(periods)
        self.reset_clocks()

    def reset_clocks(self) -> None:
        """Both clocks back to the start of a game."""
        for color in (BLACK, WHITE):
            self.clocks[color] = Clock(main=self.main_time)
            if self.main_time == 0 and self.system in ("canadian", "japanese"):
                self._enter_byo(self.clocks[color], 0.0)

    def _enter_byo(self, c: Clock, overflow: float) -> None:
        c.main, c.in_byo = 0.0, True
        if self.system == "canadian":
            c.period_left, c.stones_left = self.byo_time - overflow, self.byo_stones
        elif self.system == "japanese":
            lost = self._periods_in(overflow)
            c.periods_left, c.period_left = max(0, self.periods - lost), self.byo_time

    # ------------------------------------------------------------ clock updates

    def time_left(self, color, seconds: float, stones: int) -> None:
        """GTP time_left: `stones` 0 means in main time with `seconds` left; otherwise in byo-yomi
        with `seconds` left in the period and `stones` stones (Canadian) or periods (Japanese) left."""
        if not (math.isfinite(seconds) and seconds >= 0) or stones < 0:
            raise ValueError("time_left needs seconds >= 0 and stones >= 0")
        c = self.clocks[parse_color(color)]
        if stones == 0 or self.system in ("none", "absolute"):
            c.main, c.in_byo = float(seconds), False
        else:
            c.main, c.in_byo, c.period_left = 0.0, True, float(seconds)
            if self.system == "japanese":
                c.periods_left = int(stones)
            else:
                c.stones_left = int(stones)

    def spend(self, color, seconds: float) -> None:
        """Record `seconds` used on a move by `color` (local estimate until the next time_left)."""
        c = self.clocks[parse_color(color)]
        if self.system == "none":
            return
        if not c.in_byo:
            c.main -= seconds
            if c.main >= 0 or self.system == "absolute":
                return
            overflow = -c.main
            self._enter_byo(c, overflow)
            if self.system == "canadian":
                self._canadian_stone(c)
            return
        if self.system == "canadian":
            c.period_left -= seconds
            self._canadian_stone(c)
        elif self.system == "japanese":
            if seconds > c.period_left and self.byo_time > 0:
                c.periods_left = max(0, c.periods_left - max(1, self._periods_in(seconds)))
            c.period_left = self.byo_time

    def _periods_in(self, seconds: float) -> int:
        """Whole byo-yomi periods in `seconds`, at most the periods a clock has: a tiny period (1e-320 s) made
        the quotient infinite, and int() of it failed every genmove after."""
        return int(min(seconds // self.byo_time, self.periods)) if self.byo_time > 0 else 0

    def _canadian_stone(self, c: Clock) -> None:
        c.stones_left -= 1
        if c.stones_left <= 0:
            c.period_left, c.stones_left = self.byo_time, self.byo_stones

    # ------------------------------------------------------------ allocation

    def budget(self, color, empty_points: int) -> float | None:
        """Seconds to think about `color`'s next move, or None when there is no time limit."""
        if self.system == "none":
            return None
        return min(self.MAX_BUDGET, self._share(self.clocks[parse_color(color)], empty_points))

    def limit(self, color, empty_points: int) -> float | None:
        """The most seconds `color`'s next move may take if its search is close (see the class), or None
        when there is no time limit; never below `budget`."""
        budget = self.budget(color, empty_points)
        c = self.clocks[parse_color(color)]
        if budget is None or (c.in_byo and self.system != "canadian"):
            return budget
        if c.in_byo:
            others = (c.stones_left - 1) * (self.MIN_BUDGET + self.SAFETY)  # the period's other stones
            cap = self.BYO_FRACTION * c.period_left - self.SAFETY - others
        else:
            cap = self.LIMIT_SHARE * max(0.0, c.main - self.SAFETY)
        return max(budget, min(self.MAX_BUDGET, cap, self.EXTEND * budget))

    def _share(self, c: Clock, empty_points: int) -> float:
        """budget's allocation before its cap (see the class)."""
        if c.in_byo:
            return max(self.MIN_BUDGET, self._byo_share(c))
        moves = max(self.MIN_MOVES, empty_points / self.EMPTY_PER_MOVE)
        share = max(0.0, c.main - self.SAFETY) / moves
        if self.system == "absolute":
            return max(self.MIN_BUDGET, min(share, c.main - self.SAFETY))
        return max(self.MIN_BUDGET, share + max(0.0, self._byo_share(c)))

    def _byo_share(self, c: Clock) -> float:
        """Seconds for one move in byo-yomi, from the current period (or a fresh one in main time)."""
        if self.system == "canadian":
            seconds, stones = (c.period_left, c.stones_left) if c.in_byo else (self.byo_time, self.byo_stones)
            return self.BYO_FRACTION * seconds / max(1, stones) - self.SAFETY
        if self.system == "japanese":
            if c.in_byo and c.periods_left <= 0:
                return 0.0
            seconds = c.period_left if c.in_byo else self.byo_time
            return self.BYO_FRACTION * seconds - self.SAFETY
        return 0.0
