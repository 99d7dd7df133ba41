"""Opening book: the moves foogo's own long searches chose for the first positions of a game.

What it is: a small table from positions to moves, made by `bench/make_book.py` with searches
of several times a game's playouts, and read by `foogo gtp` before it searches (on by default,
`--no-book` turns it off). A search of 11,000 to 33,000 playouts from the empty 9x9 board opens
next to the centre; one of 1,000,000 opens on it (E5). The book keeps such slower answers for
the positions games start from. The shipped one (foogo/data/book9.json) holds the 200 positions
before move 20, with foogo to move, that two or more of 704 of its games against Pachi reached,
each answered by one search of 122,000 playouts (`make_book.py --from-games --player foogo`):
with the self-atari rate and the prior shipped beside it, it won the pre-registered screen and
confirming block in bench/results/pachi-9x9-stack-*.txt.

A position is its stones and the side to move, taken up to the board's 8 symmetries: `key`
writes a position as one line per symmetry and keeps the smallest, and an entry's move is
stored in that frame and turned back into the asking position's. So one entry answers every
rotation and reflection of its position. The book answers only positions where nothing has
been captured (so no ko or superko can bind), for its own board size and komi; anything else
is searched.

The file is JSON: {"format": 1, "size", "komi", "playouts", "source", "entries": {key: {"move":
vertex, "winrate": w, "visits": share of the root's visits}}}. `load_book` checks all of it
and bounds its size (a damaged or foreign file is a ValueError naming what is wrong).

What it is not: a book of other engines' or professional moves (the issue allows only foogo's
own: the games only chose which positions to search), or anything for boards but 9x9 at komi 7.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import TYPE_CHECKING

import numpy as np

from .files import NotRegularFile, open_regular
from .geometry import BLACK, PASS, WHITE, geometry, parse_color
from .numbers import shown

if TYPE_CHECKING:  # the book reads a Board through its methods only: no numba at import (foogo gtp starts at once)
    from .board import Board

BOOK_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data", "book9.json")
MAX_BOOK_BYTES = 1 << 20  # a book of this many bytes holds thousands of positions: far more than one is made of
MAX_ENTRIES = 10_000
FORMAT = 1
SYMMETRIES = 8


def transform(size: int, k: int, row: int, col: int) -> tuple[int, int]:
    """(row, col) under symmetry k (0..7) of the size x size board; k = 0 is the identity."""
    last = size - 1
    if k & 4:
        row, col = col, row
    if k & 2:
        row = last - row
    if k & 1:
        col = last - col
    return row, col


def inverse(size: int, k: int, row: int, col: int) -> tuple[int, int]:
    """The (row, col) that symmetry k takes to (row, col)."""
    last = size - 1
    if k & 1:
        col = last - col
    if k & 2:
        row = last - row
    if k & 4:
        row, col = col, row
    return row, col


def _line(n: int, stones: list[tuple[int, int]], color: int, k: int) -> str:
    """The position (stones: (row-major index from A1, colour)) under symmetry k as one line: the
    points in reading order (. X O), then the side to move."""
    cells = ["."] * (n * n)
    for i, c in stones:
        row, col = transform(n, k, i // n, i % n)
        cells[row * n + col] = "X" if c == BLACK else "O"
    return "".join(cells) + ("X" if color == BLACK else "O")


def key(board: Board, color: int) -> tuple[str, int]:
    """(the position's book key, a symmetry k that takes the position to the key's frame)."""
    colors = board._colors()[board.geometry.points]  # row-major from A1
    stones = [(i, int(colors[i])) for i in np.flatnonzero(colors).tolist()]
    return min((_line(board.size, stones, color, k), k) for k in range(SYMMETRIES))


@dataclass(frozen=True)
class Entry:
    """A book position's move (a GTP vertex in the key's frame), its search's win rate and visit share."""

    move: str
    winrate: float
    visits: float


@dataclass(frozen=True)
class Book:
    """Book moves for one board size and komi; `move` answers a position or None."""

    size: int
    komi: float
    playouts: int
    source: str
    entries: dict

    def fits(self, size: int, komi: float) -> bool:
        """Whether the book is for games of this board size and komi (it answers no other)."""
        return size == self.size and komi == self.komi

    def lookup(self, board: Board, color, komi: float) -> tuple[int, Entry] | None:
        """(padded point, entry) of the book move for color in this position, or None when the book
        has none: another size or komi, a capture so far, or a position not in the book."""
        color = parse_color(color)
        if not self.fits(board.size, komi) or board.captures(BLACK) or board.captures(WHITE):
            return None
        k_key, k = key(board, color)
        entry = self.entries.get(k_key)
        if entry is None:
            return None
        g = board.geometry
        row, col = inverse(self.size, k, *g.row_col(g.parse(entry.move)))
        return g.point(row, col), entry

    def move(self, board: Board, color, komi: float) -> int | None:
        """The book move (a padded point) for color in this position, or None (see lookup)."""
        found = self.lookup(board, color, komi)
        return None if found is None else found[0]

    def vertex(self, board: Board, color, komi: float) -> str | None:
        """The book move as a GTP name ("E5") for color ("b", "w" or BLACK, WHITE) here, or None (see lookup)."""
        p = self.move(board, color, komi)
        return None if p is None else board.geometry.name(p)


def _number(value, name: str, low: float, high: float) -> float:
    # compared, never converted, first: an int past a float's range (JSON has no limit) fails the range
    # here, where math.isfinite would raise OverflowError; NaN and infinities fail it too
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ValueError(f"book: {name} must be a number in {low}..{high}, got {shown(value)}")
    return float(value)


def parse_book(data: bytes) -> Book:
    """A Book from the bytes of a book file; ValueError naming the problem for anything malformed."""
    if len(data) > MAX_BOOK_BYTES:
        raise ValueError(f"book: more than the {MAX_BOOK_BYTES} bytes a book may have")
    try:
        raw = json.loads(data)
    except ValueError as error:  # bad UTF-8 or JSON, or an integer past Python's 4,300 digits
        raise ValueError(f"book: not JSON ({error})") from None
    except RecursionError:  # a RecursionError escaped the engine's check and failed every genmove
        raise ValueError("book: not a foogo book (JSON nested too deeply)") from None
    if not isinstance(raw, dict) or raw.get("format") != FORMAT:
        raise ValueError(f"book: not a format-{FORMAT} foogo book")
    size = int(_number(raw.get("size"), "size", 2, 25))
    if size != raw["size"]:
        raise ValueError("book: size must be a whole number")
    komi = _number(raw.get("komi"), "komi", -1000, 1000)
    playouts = int(_number(raw.get("playouts"), "playouts", 1, 1e12))
    source = raw.get("source", "")
    entries = raw.get("entries")
    if not isinstance(source, str) or not isinstance(entries, dict) or len(entries) > MAX_ENTRIES:
        raise ValueError(f"book: needs a source text and at most {MAX_ENTRIES} entries")
    g = geometry(size)
    book = {}
    for k, value in entries.items():
        if not isinstance(k, str) or len(k) != size * size + 1 or set(k) - set(".XO") or k[-1] == ".":
            raise ValueError(f"book: bad position key {k!r}")
        if not isinstance(value, dict):
            raise ValueError(f"book: entry {k!r} is not an object")
        move = value.get("move")
        if not isinstance(move, str):
            raise ValueError(f"book: entry {k!r} has no move ({move!r})")
        try:
            p = g.parse(move)
        except ValueError:
            p = PASS
        if p == PASS:
            raise ValueError(f"book: entry {k!r} has no move on the board ({move!r})")
        row, col = g.row_col(p)
        if k[row * size + col] != ".":
            raise ValueError(f"book: entry {k!r} plays {move} on a stone")
        book[k] = Entry(move.upper(), _number(value.get("winrate"), "winrate", 0, 1),
                        _number(value.get("visits"), "visits", 0, 1))
    return Book(size, komi, playouts, source, book)


def load_book(path: str = BOOK_PATH) -> Book:
    """The book in file `path` (by default the shipped 9x9 one); ValueError if it is not a good book or not a
    regular file (a FIFO would wait for a writer for ever), OSError if it cannot be read."""
    try:
        with open_regular(path) as handle:
            data = handle.read(MAX_BOOK_BYTES + 1)
    except NotRegularFile:
        raise ValueError(f"book: {path} is not a regular file") from None
    return parse_book(data)
