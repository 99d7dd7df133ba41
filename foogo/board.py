"""Board: a Go position of any size 2..25 with strings, liberties, playable sets, ko and hash.

Atari is known exactly after every move; liberty counts are computed on demand (`liberties`).

The readable face of `board_kernels`: it parses vertices and colours, checks
board-level legality (occupied, off board, simple ko, suicide), and returns
point sets as `bitarray`s (bit row * size + col, row 0 being GTP row 1).

Board-level rules only: single-stone suicide is always illegal, multi-stone
suicide is legal only with `allow_suicide=True`, and simple ko is enforced.
Superko, history, undo and rulesets belong to `game.py`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from bitarray import bitarray

from . import board_kernels as bk
from . import render
from .geometry import BLACK, COLUMNS, EMPTY, PASS, WHITE, Geometry, OffBoardError, geometry, parse_color
from .numbers import check_komi

_REASONS = {bk.OCCUPIED: "occupied", bk.KO: "ko", bk.SUICIDE: "suicide"}
_CHECK_MESSAGES = {
    bk.BAD_COLOR: "colour array has an impossible value (or the sentinel ring is broken)",
    bk.BAD_HEAD: "string head does not match the flood-filled string (or, at an empty point, is not a point)",
    bk.BAD_LIST: "stone list does not cycle through exactly the string's stones",
    bk.BAD_PSEUDO: "pseudo-liberty count, sum or sum of squares differs from the flood fill",
    bk.BAD_SIZE: "string size differs from the flood fill",
    bk.BAD_PLAYABLE: "the playable rule (playable_at) differs from the definition",
    bk.BAD_EMPTY_SET: "empty-set bit differs from the colours",
    bk.BAD_HASH: "Zobrist hash differs from the stones",
    bk.BAD_KO: "ko point is not an empty point",
    bk.BAD_COUNTS: "neighbour counts differ from the stones around",
    bk.BAD_BALANCE: "the stone balance (black less white) differs from the stones",
}


class IllegalMove(ValueError):
    """A move the rules forbid; `reason` is "occupied", "off board", "ko", "suicide" (or "superko" in Game)."""

    def __init__(self, reason: str, message: str):
        super().__init__(message)
        self.reason = reason


class BoardInconsistent(AssertionError):
    """The incremental state disagrees with a recomputation from scratch."""


@dataclass
class MoveResult:
    """What a move did: where (`vertex`, a GTP name; `point`, the kernels' padded index), the stones
    it captured and, for a suicide, lost (GTP names)."""

    point: int
    captured: list[str] = field(default_factory=list)
    suicided: list[str] = field(default_factory=list)
    vertex: str = ""


class Board:
    """A Go position. Construct empty with Board(size), or from a diagram with board_from_ascii."""

    def __init__(self, size: int = 9, allow_suicide: bool = False):
        """An empty board; ValueError unless size is an integer in 2..25 and allow_suicide a bool."""
        if not isinstance(allow_suicide, (bool, np.bool_)):  # bool("no") is True
            raise ValueError(f"allow_suicide must be True or False, got {allow_suicide!r:.40}")
        self.geometry: Geometry = geometry(size)
        self.size: int = self.geometry.size
        self.allow_suicide = bool(allow_suicide)
        g = self.geometry
        self._s, self._z = bk.new_state(g.size, g.width, g.npoints, g.nwords)

    # ------------------------------------------------------------ moves

    def play(self, color, vertex) -> MoveResult:
        """Play a stone (or pass) for `color` ("b", "white", BLACK, ...) at `vertex` ("D4", "pass", (row, col)
        from A1, or an int: a padded point, the kernels' layer, not a point set's bit: bit i is
        divmod(i, size)); IllegalMove leaves the board unchanged."""
        c = parse_color(color)
        p = self._point(vertex)
        if p == PASS:
            bk.play_pass(self._s, c)
            return MoveResult(PASS, vertex="pass")
        code = bk.legality(self._s, p, c, self.allow_suicide)
        if code:
            reason = _REASONS[code]
            raise IllegalMove(reason, f"illegal move {self.geometry.name(p)} for {_name(c)}: {reason}")
        colors = self._colors()
        before = colors.copy()
        before[p] = c  # the stone just played counts as on the board (it may be suicided)
        n = bk.play(self._s, self._z, self.geometry.zobrist, p, c)
        points = self.geometry.points
        gone = [self.geometry.name(q) for q in points[(before[points] != EMPTY) & (colors[points] == EMPTY)]]
        if n < 0:
            return MoveResult(p, suicided=gone, vertex=self.geometry.name(p))
        return MoveResult(p, captured=gone, vertex=self.geometry.name(p))

    def is_legal(self, color, vertex) -> bool:
        """True if `color` may play at `vertex` now under the board rules; False off board.

        ValueError for a malformed colour or vertex."""
        c = parse_color(color)
        try:
            p = self.geometry.parse(vertex)
        except OffBoardError:
            return False
        return p == PASS or bk.legality(self._s, p, c, self.allow_suicide) == 0

    def copy(self) -> "Board":
        """An independent copy of this position."""
        other = Board.__new__(Board)
        other.geometry, other.size, other.allow_suicide = self.geometry, self.size, self.allow_suicide
        other._s, other._z = self._s.copy(), self._z.copy()
        return other

    # ------------------------------------------------------------ state

    @property
    def to_move(self) -> int:
        """BLACK or WHITE: the opponent of the last player to move (BLACK on a new board)."""
        return int(self._s[bk.M_TO_MOVE])

    @to_move.setter
    def to_move(self, color) -> None:
        self._s[bk.M_TO_MOVE] = parse_color(color)

    @property
    def ko_point(self) -> str | None:
        """GTP name of the point the side to move may not take back (simple ko), or None."""
        ko = int(self._s[bk.M_KO])
        if ko == bk.NO_KO or int(self._s[bk.M_KO_COLOR]) != self.to_move:
            return None
        return self.geometry.name(ko)

    @property
    def hash(self) -> int:
        """64-bit Zobrist hash of the stones on the board (not of ko or side to move)."""
        return int(self._z[0])

    @property
    def empty_points(self) -> int:
        """The number of empty points on the board."""
        return int(self._s[bk.M_EMPTIES])

    @property
    def passes(self) -> int:
        """Consecutive passes that ended the move sequence so far."""
        return int(self._s[bk.M_PASSES])

    @property
    def last_move(self) -> int | None:
        """Padded point of the last move, PASS, or None before any move."""
        last = int(self._s[bk.M_LAST])
        return None if last == bk.NO_MOVE else last

    def captures(self, color) -> int:
        """Stones captured by `color` since the board was made (suicided stones count for the opponent)."""
        return int(self._s[bk.M_CAPTURES + parse_color(color)])  # from Python: an inline accessor would compile

    def color_at(self, vertex) -> int:
        """EMPTY, BLACK or WHITE at an on-board vertex; ValueError otherwise."""
        p = self.geometry.parse(vertex)
        if p == PASS:
            raise ValueError("'pass' is not a point")
        return int(self._colors()[p])

    def liberties(self, vertex) -> int:
        """Exact liberty count of the string holding a stone at `vertex`; ValueError at an empty point."""
        p = self.geometry.parse(vertex)
        if p == PASS or self._colors()[p] == EMPTY:
            raise ValueError(f"no stone at {vertex!r}")
        return int(bk.liberty_count(self._s, p))

    def stones(self, color) -> bitarray:
        """The points holding a stone of `color`."""
        c = parse_color(color)
        return _to_bitarray(self._colors()[self.geometry.points] == c)

    def playable(self, color) -> bitarray:
        """Empty points `color` may pick in a random playout (the card's rule; the ko point included), bit
        row * size + col: play(color, divmod(i, size)) plays bit i."""
        c = parse_color(color)
        words = np.zeros(self.geometry.nwords, dtype=np.uint64)
        bk.playable_set(self._s, self._z, c, words)
        bits = np.unpackbits(words.view(np.uint8), bitorder="little")
        return _to_bitarray(bits[self.geometry.points].astype(bool))

    def eyes(self, color) -> bitarray:
        """Empty points all of whose on-board neighbours are `color` stones and that are not false eyes."""
        c = parse_color(color)
        colors = self._colors()
        flags = np.zeros(self.size * self.size, dtype=bool)
        for i, p in enumerate(self.geometry.points):
            if colors[p] == EMPTY and bk.eye_color(self._s, p) == c:
                flags[i] = bk.is_real_eye(self._s, p, c)
        return _to_bitarray(flags)

    def area_score(self, komi: float = 0.0) -> float:
        """Black minus white area (stones plus empty regions bordered by one colour only) minus komi;
        ValueError for a komi that is not a finite number within numbers.MAX_KOMI."""
        return bk.area(self._s, np.empty(0, dtype=np.int8)) - check_komi(komi)

    def owners(self) -> np.ndarray:
        """int8[size * size]: BLACK, WHITE or EMPTY owner of each point under area scoring."""
        owners = np.zeros(self.geometry.npoints, dtype=np.int8)
        bk.area(self._s, owners)
        return owners[self.geometry.points]

    def check_consistency(self) -> None:
        """Recompute strings, liberties, the empty set, playability and hash from scratch; raise
        BoardInconsistent on a difference."""
        code, p = bk.check(self._s, self._z, self.geometry.zobrist)
        if code != bk.CHECK_OK:
            where = self.geometry.names[p] if 0 <= p < self.geometry.npoints and self.geometry.names[p] else p
            raise BoardInconsistent(f"{_CHECK_MESSAGES[code]} at {where}\n{self}")

    def __str__(self) -> str:
        n = self.size
        colors = self._colors()
        letters = "   " + " ".join(COLUMNS[:n])
        rows = [letters]
        for row in range(n - 1, -1, -1):
            cells = " ".join(".XO"[colors[self.geometry.point(row, col)]] for col in range(n))
            rows.append(f"{row + 1:2d} {cells} {row + 1:2d}")
        rows.append(letters)
        return "\n".join(rows)

    def _repr_svg_(self) -> str:
        """The board as an SVG picture (Jupyter shows it): coordinates, last move, ko point."""
        return render.board_svg(self)

    def __repr__(self) -> str:
        return f"Board(size={self.size}, to_move={_name(self.to_move)}, hash={self.hash:#018x})"

    # ------------------------------------------------------------ internals

    def _state(self):
        """The kernel arrays (s, z); callers that write to them own the consequences."""
        return self._s, self._z

    def _colors(self) -> np.ndarray:
        return bk.colors_view(self._s)

    def _point(self, vertex) -> int:
        try:
            return self.geometry.parse(vertex)
        except OffBoardError as error:
            raise IllegalMove("off board", str(error)) from None


def board_from_ascii(text: str, to_move=BLACK, allow_suicide: bool = False) -> Board:
    """A board from a square diagram, top row first: X black, O white, '.' or '+' empty; spaces ignored, and
    the coordinate frame str(board) draws (column letters above and below, row numbers either side) too.

    ValueError for a diagram that is not square, has other characters, or holds a string without liberties."""
    rows = [row for row in map(_diagram_row, text.strip("\n").splitlines()) if row]
    size = len(rows)
    if size == 0 or any(len(row) != size for row in rows):
        wrong = next((i for i, row in enumerate(rows) if len(row) != size), 0)
        shown = f"row {wrong + 1} has {len(rows[wrong])} points" if rows else "no rows"
        raise ValueError(f"diagram must be square; got {size} rows, and {shown}")
    board = Board(size, allow_suicide=allow_suicide)
    s, z = board._state()
    for i, row in enumerate(rows):
        for col, char in enumerate(row):
            color = {"X": BLACK, "x": BLACK, "O": WHITE, "o": WHITE, ".": EMPTY, "+": EMPTY}.get(char)
            if color is None:
                raise ValueError(f"unexpected character {char!r} in diagram row {i + 1}")
            if color != EMPTY:
                # Placing the stones of a legal position one by one never captures (every
                # partial string still touches an unplaced stone or one of its liberties).
                if bk.play(s, z, board.geometry.zobrist, board.geometry.point(size - 1 - i, col), color) != 0:
                    raise ValueError(f"diagram has a string without liberties (near row {i + 1}, column {col + 1})")
    bk.forget_history(s)
    board.to_move = to_move
    return board


def _diagram_row(line: str) -> str:
    """A diagram line's points with spaces and str(Board)'s frame taken off: "" for a line of column letters
    (A B C ..., in order from A), and a row number at either end dropped."""
    tokens = line.split()
    if len(tokens) > 1 and "".join(tokens) == COLUMNS[:len(tokens)]:
        return ""
    if len(tokens) > 1 and tokens[0].isdecimal():
        tokens = tokens[1:]
    if len(tokens) > 1 and tokens[-1].isdecimal():
        tokens = tokens[:-1]
    return "".join(tokens)


def _to_bitarray(flags: np.ndarray) -> bitarray:
    bits = bitarray(endian="little")
    bits.pack(flags.astype(np.uint8).tobytes())
    return bits


def _name(color: int) -> str:
    return "black" if color == BLACK else "white"
