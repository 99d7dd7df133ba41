"""A timed search's time use: when it may stop before its budget, and when it goes on past it.

A time budget is what a move should take, and a time limit (by default the budget) the most it may take.
A timed search stops early once the most visited root move leads the next by more visits than the time
left can add at the current rate (it cannot be overtaken: settled). Past SOFT of its budget (the soft limit)
it also stops when the result is clear: the best move's win rate is below CLEAR or above 1 - CLEAR. Close
positions, and the opening (fewer than OPENING of the points hold stones), use the whole budget. A search
still close at its budget (the most visited move has fewer than CLOSE_RATIO times the visits of the next,
and the result is not clear: Pachi's best2_ratio) goes on towards its limit, until it is no longer close
or settles (a game clock's time saved on settled moves is spent on close ones; gtp/clock.py sets the limit).

The rules read the root's statistics, summed over a search's trees (search.Search._root_totals): `visits`
and `wins`, root move -> real visits and wins. search.Search asks them every EARLY_CHECK_SECONDS.
"""

from __future__ import annotations

from .geometry import BLACK, WHITE
from .search_bank import settled

EARLY_CHECK_SECONDS = 0.05  # how often a timed search asks whether its best move is settled
SOFT = 0.5  # fraction of a time budget after which a clear position stops the search
CLEAR = 0.2  # a position is clear when the best win rate is below CLEAR or above 1 - CLEAR
OPENING = 0.15  # the opening: fewer than this fraction of the points hold stones
CLOSE_RATIO = 2.5  # a search is close while its most visited move has fewer than this many times the next's visits


def opening(board) -> bool:
    """True while fewer than OPENING of the board's points hold stones."""
    stones = board.stones(BLACK).count() + board.stones(WHITE).count()
    return stones < OPENING * board.size * board.size


def clear(visits: dict, wins: dict) -> bool:
    """True if the most visited root move has visits and a win rate below CLEAR or above 1 - CLEAR: the
    result is clear."""
    best = max(visits, key=lambda m: visits[m])
    first = visits[best]
    return first > 0 and not CLEAR <= wins[best] / first <= 1 - CLEAR


def close(visits: dict, wins: dict) -> bool:
    """True while the search is close: its most visited root move has fewer than CLOSE_RATIO times the
    visits of the next, and that move's win rate is not clear."""
    if len(visits) < 2 or clear(visits, wins):
        return False
    second, first = sorted(visits.values())[-2:]
    return first < CLOSE_RATIO * second


def early_stop(visits: dict, wins: dict, iterations: int, elapsed: float, remaining: float, past_soft: bool) -> str:
    """Why a timed search that ran `iterations` in `elapsed` seconds, with `remaining` seconds left, should end
    now ("settled" or "clear"), or "" to go on.

    settled: the most visited root move leads the next by more visits than the time left can add at the
    rate so far. clear (past the soft limit only): the best move's win rate is far from even."""
    if len(visits) < 2 or elapsed <= 0:
        return "settled" if len(visits) == 1 else ""
    if settled(visits.values(), iterations / elapsed * remaining):
        return "settled"
    return "clear" if past_soft and clear(visits, wins) else ""
