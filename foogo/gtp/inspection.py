"""The GTP engine's inspection commands: the board, the score and the legal points as GTP shows them.

What it is: `InspectionCommands`, the part of `GtpEngine` (engine.py) that answers `showboard`
(GNU Go's layout), `final_score` and `final_status_list` (Game's scoring, dead stones estimated by
playouts), `is_legal`, `all_legal` and `list_stones`. They change nothing.
"""

from __future__ import annotations

import traceback
from typing import TYPE_CHECKING

from ..geometry import BLACK, COLUMNS, WHITE, is_star_point
from .arguments import Arguments
from .protocol import GtpError

if TYPE_CHECKING:
    from ..game import Game


class InspectionCommands(Arguments):
    """GtpEngine's inspection commands (a base of GtpEngine: they read its game)."""

    if TYPE_CHECKING:  # what they use of GtpEngine
        game: Game
        seed: int

        def _log(self, message: str) -> None: ...

    def cmd_showboard(self, args):
        """showboard: the board in GNU Go's layout (X black, O white, + star points, captures on the right)."""
        self._arity(args, 0)
        board = self.game.board
        n = board.size
        g = board.geometry
        letters = "   " + " ".join(COLUMNS[:n])
        lines = ["", letters]
        for i in range(n):
            row = n - 1 - i
            cells = []
            for col in range(n):
                c = board.color_at(g.point(row, col))
                cells.append("X" if c == BLACK else "O" if c == WHITE else "+" if is_star_point(n, row, col) else ".")
            line = f"{row + 1:2d} {' '.join(cells)} {row + 1}"
            if i == (n - 2 if n < 10 else 8):
                line += f"     WHITE (O) has captured {board.captures(WHITE)} stones"
            if i == (n - 1 if n < 10 else 9):
                line += f"     BLACK (X) has captured {board.captures(BLACK)} stones"
            lines.append(line)
        lines.append(letters)
        return "\n".join(lines)

    def cmd_final_score(self, args):
        """final_score -> B+3.5, W+0.5 or 0 (area, dead stones estimated by playouts); `cannot score` on failure."""
        self._arity(args, 0)
        try:
            return self.game.final_score(seed=self.seed)
        except Exception as error:
            self._log(f"final_score failed:\n{traceback.format_exc()}")
            raise GtpError(f"cannot score: {type(error).__name__}") from None

    def cmd_final_status_list(self, args):
        """final_status_list alive|dead|seki -> one string per line."""
        self._arity(args, 1)
        if args[0] not in ("alive", "dead", "seki"):
            raise GtpError(f"syntax error: status must be alive, dead or seki, got {args[0]!r}")
        try:
            strings = self.game.final_status_list(args[0], seed=self.seed)
        except Exception as error:
            self._log(f"final_status_list failed:\n{traceback.format_exc()}")
            raise GtpError(f"cannot score: {type(error).__name__}") from None
        return "\n".join(" ".join(s) for s in strings)

    def cmd_is_legal(self, args):
        """is_legal COLOR VERTEX -> 1 or 0 (superko included; 0 off the board)."""
        self._arity(args, 2)
        color = self._color(args[0])
        try:
            point = self._vertex(args[1])
        except GtpError as error:
            if str(error).startswith("illegal move"):
                return "0"
            raise
        return "1" if self.game.is_legal(color, point) else "0"

    def cmd_all_legal(self, args):
        """all_legal COLOR -> the legal board points."""
        self._arity(args, 1)
        color = self._color(args[0])
        return " ".join(self._name(p) for p in self.game.legal_points(color))

    def cmd_list_stones(self, args):
        """list_stones COLOR -> the points holding that colour's stones."""
        self._arity(args, 1)
        color = self._color(args[0])
        g = self.game.geometry
        stones = self.game.board.stones(color)
        return " ".join(g.name(int(g.points[i])) for i in stones.search(1))
