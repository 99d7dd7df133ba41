"""Dynamic komi: the komi a search plays for, moved against the side it plays while that side is far ahead.

Monte Carlo search maximises the probability of winning, not the margin. Where one side wins nearly
every playout, every move looks alike to it: the search gives points away (slack moves) until its
estimate comes down, and a position its playouts misjudge (a blind spot) is then lost with no margin
to spare. Situational compensation (Baudis, "Balancing MCTS by dynamically adjusting the komi value",
ICGA Journal 34(3), 2011; Pachi's default `dynkomi=linear` in even games) makes the search give komi
while its estimate for the side it plays is high, so that it keeps choosing among moves by how much
they keep:
  * above GREEN (0.85) the extra komi rises by one point, but never above the ratchet;
  * below ORANGE (0.8), with extra komi, it falls by DROP (4) points, and the ratchet is set there:
    in this game it never rises above that again;
  * below 0.5 after a ratchet was set, it is off for the rest of the game (ratchet 0).
The estimate is the root's win rate at the komi in force, read every STEP iterations of a search
once the root has MIN_VISITS (Search does this; Pachi adjusts every 100 playouts after 500). Each
colour the engine plays has its own extra komi and ratchet, carried from move to move within a game.
It never gives the side behind komi (negative extra komi): as in Pachi's even games.

In a handicap game (two stones or more) the first moves come first (handicap_extra, Pachi's linear
phase): black's area must pass the komi plus most of what the stones are worth, HANDICAP_VALUE points
each less the komi, falling linearly to nothing by move handicap_moves (15 on 9x9, 50 on 13x13, 200 for
black and 150 for white on 19x19), whichever side the engine plays: black does not sit on its stones,
and white, far behind at first, does not play the desperate moves of a search that sees every move
lose. The situational steps above take over after that.

What the search reports stays in the game's komi where it can: the score margins (black's area less
the komi) and passing (Search._passing_margin); the win rates are at the komi in force (SearchResult
says which), and the search does not resign while it gives komi. The GUI analysis commands do not
use it: they show the game's komi.
"""

from __future__ import annotations

import math

from .geometry import BLACK, WHITE

GREEN = 0.85  # win rate above which the extra komi rises by one point
ORANGE = 0.8  # win rate below which extra komi falls by DROP and the ratchet is set
DROP = 4.0  # points the extra komi falls by
HANDICAP_VALUE = {BLACK: 12.0, WHITE: 8.0}  # points a handicap stone counts, for black's and for white's search
STEP = 100  # iterations between two adjustments within a search
MIN_VISITS = 500  # the root's visits before the first adjustment (an estimate on fewer is noise)


def handicap_moves(size: int, color: int) -> int:
    """The moves after the handicap stones over which their extra komi falls to nothing (Pachi's)."""
    if size <= 9:
        return 15
    if size == 15:
        return 100
    if size < 15:
        return 50
    return 200 if color == BLACK else 150


def handicap_extra(color: int, handicap: int, moves: int, size: int, komi: float) -> float | None:
    """The extra komi, in black's terms (added to the komi black's area must pass), of `color`'s search
    `moves` moves after `handicap` stones on a size x size board; None outside the handicap phase (fewer
    than two stones, or that many moves played)."""
    span = handicap_moves(size, color)
    if handicap < 2 or moves >= span:
        return None
    return max(handicap * HANDICAP_VALUE[color] + 0.5 - komi, 0.0) * (span - moves) / span


class DynamicKomi:
    """Each colour's extra komi and ratchet in one game (points; 0 and infinity at its start)."""

    def __init__(self):
        self.extra = {}
        self.ratchet = {}

    def new_game(self) -> None:
        """Forget every colour's extra komi and ratchet."""
        self.extra.clear()
        self.ratchet.clear()

    def komi_for(self, color: int) -> float:
        """The points `color`'s search gives (>= 0)."""
        return self.extra.get(color, 0.0)

    def black_extra(self, color: int) -> float:
        """The extra komi in black's terms (added to the komi black's area must pass) for `color`'s search."""
        extra = self.komi_for(color)
        return extra if color == BLACK else -extra

    def adjust(self, color: int, winrate: float) -> float:
        """One step from `color`'s root win rate at the komi in force; returns color's new extra komi."""
        extra = self.extra.get(color, 0.0)
        ratchet = self.ratchet.get(color, math.inf)
        if winrate < 0.5 and 0 < ratchet < math.inf:  # fallen behind while a ratchet held: off for the game
            extra = ratchet = 0.0
        elif winrate < ORANGE and extra > 0:
            extra = ratchet = max(extra - DROP, 0.0)
        elif winrate > GREEN and extra + 1 <= ratchet:
            extra += 1.0
        self.extra[color] = extra
        self.ratchet[color] = ratchet
        return extra
