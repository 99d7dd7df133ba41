"""Ladder reading: whether a string short of liberties is taken by a chase of ataris.

What it is: the classic ladder. The attacker keeps the defender's string in atari;
the defender extends at its one liberty; when the extension leaves two liberties
the attacker ataris again, on the one of the two that leaves the defender's next
extension the fewest liberties (never a self-atari); when both of its first
ataris are worth playing (a ladder may run two ways) each is read. The string is taken when an
extension leaves it one liberty or none. It escapes when an extension gives it
three or more, when it can capture an attacker string in atari instead of
extending, or when the attacker has no atari worth playing. The chase is played
with the board's own moves on a scratch copy of the position (`ls`, `lz`: arrays
shaped like the position's, which the caller owns), never on the position, and
stops after `plies` moves with the answer "escapes": bounded time on any board.

The tree's learned prior reads it (features.tactics: an atari escape into a working
ladder), and so does the Python API (`ladder_captured`).

What it is not: general tactical reading (GNU Go's `attack`): one line of play after
the first atari, the attacker's choice made by counting liberties, no ko fights, no nets.
"""

from __future__ import annotations

import numpy as np

from . import board_kernels as bk
from .jit import inline, jit
from .tactics import self_atari

TAKEN, ESCAPED, IN_ATARI, TWO_LIBERTIES = 0, 1, 2, 3  # the chase's states
TWO_WAYS = 4  # chase's answer when the string escaped but the attacker's first atari had another choice
NO_CHOICE = 3  # _extension_liberties of a branch the attacker should not take: as good as an escape


@inline
def default_plies(size):
    """Enough moves for a ladder across the board and back (two a row or column crossed, twice)."""
    return 4 * size + 8


@inline
def _touches_capturable(s, P, w, h, d):
    """True if a stone of string h (colour d) touches a string of the other colour in atari."""
    other = 3 - d
    r = h
    while True:
        if (bk.stone_in_atari(s, P, r - w, other) | bk.stone_in_atari(s, P, r - 1, other)
                | bk.stone_in_atari(s, P, r + 1, other) | bk.stone_in_atari(s, P, r + w, other)):
            return True
        r = bk.next_stone(s, P, r)
        if r == h:
            return False


@inline
def liberty_state(s, P, w, x):
    """(state, a, b) of the string holding the stone at x: TAKEN (no liberty), IN_ATARI, TWO_LIBERTIES
    (a and b its two liberties) or ESCAPED (three or more)."""
    h = bk.head_of(s, P, x)
    if bk.has_no_liberty(s, P, h):
        return TAKEN, -1, -1
    if bk.string_in_atari(s, P, h):
        return IN_ATARI, -1, -1
    a, b = bk.two_liberties(s, P, w, h)
    if a >= 0:
        return TWO_LIBERTIES, a, b
    return ESCAPED, -1, -1


@inline
def _extension_liberties(s, P, w, b, a, h, d):
    """The liberties of string h (colour d, liberties a and b) after the attacker plays a and the
    defender extends at b: b's empty neighbours but a; NO_CHOICE if the extension would join another
    of the defender's strings or touch an attacker string in atari (the chase has no use then)."""
    other = 3 - d
    n = 0
    for q in (b - w, b - 1, b + 1, b + w):
        cq = bk.color_at(s, P, q)
        if cq == bk.EMPTY:
            n += q != a
        elif cq == d:
            if bk.head_of(s, P, q) != h:
                return NO_CHOICE
        elif cq == other and bk.string_in_atari(s, P, bk.head_of(s, P, q)):
            return NO_CHOICE
    return n


@inline
def _atari_choices(s, P, w, x, a, b):
    """The attacker's ataris on the string at x (liberties a, b), best first: (best, other), the best
    leaving the defender's extension the fewest liberties, the other -1 unless it too is worth
    playing; best is -1 when neither is."""
    h = bk.head_of(s, P, x)
    d = np.int64(bk.color_at(s, P, x))
    other = 3 - d
    cost_a = NO_CHOICE if self_atari(s, a, other) else _extension_liberties(s, P, w, b, a, h, d)
    cost_b = NO_CHOICE if self_atari(s, b, other) else _extension_liberties(s, P, w, a, b, h, d)
    if cost_b < cost_a:
        a, b = b, a
        cost_a, cost_b = cost_b, cost_a
    if cost_a >= NO_CHOICE:
        return -1, -1
    return a, (b if cost_b < NO_CHOICE else -1)


@inline
def chase(ls, lz, zob, x, plies, second):
    """Play a ladder on the string holding the stone at x in scratch position (ls, lz): its owner
    moves first when it is in atari, the attacker when it has two liberties (any more and it has
    escaped). The attacker's first atari is its second choice if `second` (see _atari_choices),
    every later one its best. At most `plies` moves. Returns TAKEN, ESCAPED, or TWO_WAYS: escaped,
    but the first atari had a second choice worth reading."""
    P = bk.stride(ls)
    w = np.int64(ls[bk.M_W])
    d = np.int64(bk.color_at(ls, P, x))
    state, a, b = liberty_state(ls, P, w, x)
    two_ways = False
    first = True
    for _ in range(plies):
        if state == IN_ATARI:  # the defender: capture around the string, or extend
            h = bk.head_of(ls, P, x)
            if _touches_capturable(ls, P, w, h, d):
                break
            if bk.play_inline(ls, lz, zob, bk.atari_liberty(ls, P, h), d) < 0:  # a suicide
                return TAKEN
            state, a, b = liberty_state(ls, P, w, x)
            if state == IN_ATARI:  # the extension left one liberty: the attacker takes it
                return TAKEN
        elif state == TWO_LIBERTIES:  # the attacker: atari again
            best, other = _atari_choices(ls, P, w, x, a, b)
            if first:
                two_ways = other >= 0
                if second:
                    best = other
                first = False
            if best < 0 or bk.play_inline(ls, lz, zob, best, 3 - d) < 0:
                break
            state = IN_ATARI
        elif state == TAKEN:
            return TAKEN
        else:
            break
    return TWO_WAYS if two_ways and not second else ESCAPED


@inline
def _empty_beside(s, P, w, q):
    """The empty neighbours of q."""
    n = 0
    for r in (q - w, q - 1, q + 1, q + w):
        n += bk.color_at(s, P, r) == bk.EMPTY
    return n


@inline
def captured_after(s, z, zob, ls, lz, p, c, x, plies):
    """True if, after c plays empty p in position (s, z) (PASS: at once), the string holding the stone
    at x is taken by a ladder (chase, each of the attacker's first two ataris when it has two); (s, z)
    unchanged, (ls, lz) scratch."""
    # the string p itself joins has at least p's empty neighbours as liberties: with three it is plainly
    # free, no copy needed (most escapes in open play end here; the chase would answer ESCAPED at once)
    if x == p and _empty_beside(s, bk.stride(s), np.int64(s[bk.M_W]), p) >= 3:
        return False
    for second in (False, True):
        bk.copy_position(s, z, ls, lz)
        if p != bk.PASS:
            bk.play_inline(ls, lz, zob, p, c)
        if bk.color_at(ls, bk.stride(ls), x) == bk.EMPTY:  # p took it (a suicide)
            return True
        result = chase(ls, lz, zob, x, plies, second)
        if result != TWO_WAYS:
            return result == TAKEN
    return False


@jit
def _ladder_captured(s, z, zob, x, plies):
    ls = s.copy()
    lz = z.copy()
    return captured_after(s, z, zob, ls, lz, bk.PASS, bk.BLACK, x, plies)


def ladder_captured(board, vertex) -> bool:
    """True if the string at `vertex` (GTP name or (row, col)) is taken by a ladder: its owner moves
    first when it is in atari, the opponent when it has two liberties; a string with more is not.
    Raises ValueError for an empty or bad vertex. The board is unchanged."""
    g = board.geometry
    x = g.parse(vertex)
    if x == bk.PASS or board.color_at(vertex) not in (bk.BLACK, bk.WHITE):
        raise ValueError(f"no stone at {vertex!r}")
    s, z = board._state()
    return bool(_ladder_captured(s, z, g.zobrist, x, default_plies.py_func(g.size)))
