"""A playout count spent where it matters: the bank of a game's playouts (SearchConfig.bank).

What it is: with a playout count and `bank` on, a genmove's count is what its moves get on average,
not what each gets. Each search may run its count plus what its colour's bank lends it (up to
BANK_MAX times the count in all), and stops as soon as its most visited root move leads the next by
more visits than the playouts left (`settled`: no move can overtake it, so the choice is the one the
whole budget would have made). The playouts a search does not use of its count go into the bank, and
those it uses beyond its count are repaid from it. A clear move settles early, a close one runs
longer: the moves already decided pay for the close ones, as a clock's seconds do for Pachi or
Fuego, and a game's searches never use more than the count times its moves (less when the bank is
left over at the end).

The bank is per colour (a Search may play both sides) and per game (Search.new_game empties it).

What it is not: the search (search.py runs it and asks `settled`, as a timed search does with the
playouts its time left can add), nor time: a timed search has its
own early stops, and the GTP clock carries its seconds from move to move.
"""

from __future__ import annotations

from collections.abc import Iterable

# a search may use at most this many times the count, the bank lending the rest: most searches settle
# before their count, so at 2 a self-play game at 30,900 heavy playouts left a quarter of its count
# unspent (22,890 a move); at 4 two games spent 27,590 and 30,770 a move
BANK_MAX = 4
CHECKS = 64  # a banking search asks whether it has settled about this many times over its count


class PlayoutBank:
    """Each colour's playouts saved by its searches in this game."""

    def __init__(self) -> None:
        self.saved = {1: 0, 2: 0}

    def new_game(self) -> None:
        """Empty both colours' banks."""
        self.saved = {1: 0, 2: 0}

    def extension(self, color: int, count: int) -> int:
        """What `color`'s bank lends a search of `count` playouts now: all it holds, up to
        (BANK_MAX - 1) times the count."""
        return max(0, min(self.saved[color], (BANK_MAX - 1) * count))

    def settle(self, color: int, count: int, used: int) -> None:
        """A search of `count` playouts for `color` used `used`: the bank gains what it saved of the
        count, or pays what it used beyond (never more than it lent: extension)."""
        self.saved[color] = max(0, self.saved[color] + count - used)


def settled(visits: Iterable[float], left: float) -> bool:
    """True if the most visited of the root moves' `visits` leads the next by more than the `left`
    playouts a search may still run: no other move can end with more visits."""
    ranked = sorted(visits, reverse=True)
    if not ranked:
        return False
    second = ranked[1] if len(ranked) > 1 else 0.0
    return ranked[0] - second > left
