"""How the GTP engine reads its commands' arguments: counts, colours, vertices and numbers.

What it is: `Arguments`, the base of GtpEngine and of its command groups (analysis.py,
inspection.py, time_commands.py, moves.py): each reader answers the value or raises GtpError with GTP's
error words ("syntax error: ..." for a malformed word, "illegal move: ..." for a vertex off the
board), so that a handler checks its arguments before it changes anything.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from ..geometry import RESIGN, OffBoardError, parse_color
from ..numbers import finite_number
from .protocol import GtpError

if TYPE_CHECKING:
    from ..game import Game

_VERTEX_SHAPE = re.compile(r"^[A-Za-z][0-9]+$")


class Arguments:
    """The engine's argument readers (`_vertex` and `_name` read the size of its game)."""

    if TYPE_CHECKING:
        game: Game

    @staticmethod
    def _arity(args, low: int, high: int | None = None) -> None:
        high = low if high is None else high
        if not low <= len(args) <= high:
            want = str(low) if low == high else f"{low} to {high}" if high < 10**6 else f"at least {low}"
            raise GtpError(f"syntax error: expected {want} arguments, got {len(args)}")

    @staticmethod
    def _color(word: str) -> int:
        try:
            return parse_color(word)
        except ValueError:
            raise GtpError(f"syntax error: invalid color {word!r}") from None

    def _vertex(self, word: str, off_board: str = "illegal move") -> int:
        """Padded point or PASS; GtpError "syntax error" if malformed, `off_board` if not on this board."""
        try:
            return self.game.geometry.parse(word)
        except OffBoardError:
            raise GtpError(f"{off_board}: {word} is off the board") from None
        except ValueError:
            if _VERTEX_SHAPE.match(word):  # e.g. a column past the board, or "I"
                raise GtpError(f"{off_board}: {word} is not on the board") from None
            raise GtpError(f"syntax error: invalid vertex {word!r}") from None

    @staticmethod
    def _int(word: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]{1,9}", word):
            raise GtpError(f"syntax error: expected an integer, got {word!r}")
        return int(word)

    @staticmethod
    def _float(word: str) -> float:
        try:
            return finite_number(word)
        except ValueError as error:
            raise GtpError(f"syntax error: {error}") from None

    def _name(self, p: int) -> str:
        if p == RESIGN:
            return "resign"
        return self.game.geometry.name(p)
