"""Scoring a finished game: the strings, their status (alive, dead, seki) from playout ownership, the score.

What it is: `GameScoring`, the part of `Game` (game.py) that estimates dead stones and scores,
and the helpers it and the game share (`board_strings`, `diagram`, `format_score`). Dead stones
are estimated from the mean ownership of uniform playouts from the final stones (half of them
with each side moving first): a string the opponent owns at the end of more playouts than its
owner does is dead (see `statuses`). On GNU Go's own finished 9x9 games this agrees with GNU
Go's final_score. What it is not: a life-and-death reader; a position far from finished gets a
playout's guess.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .board import Board, board_from_ascii
from .geometry import BLACK, EMPTY, WHITE, Geometry
from .playout import ownership

SCORE_PLAYOUTS = 400  # playouts behind a dead-stone estimate
DEAD_THRESHOLD = 0.0  # a string is dead if the opponent's mean ownership of it is above this
SEKI_BAND = 0.1  # strings sharing a liberty, both with |mean ownership| below this, are in seki


def board_strings(board: Board) -> list[tuple[int, list[int], set[int]]]:
    """Every string on the board as (colour, padded stone points, padded liberty points), by flood fill."""
    g = board.geometry
    colors = {int(p): board.color_at(int(p)) for p in g.points}
    seen: set[int] = set()
    out = []
    for p, c in colors.items():
        if c == EMPTY or p in seen:
            continue
        stones, libs, stack = [], set(), [p]
        seen.add(p)
        while stack:
            q = stack.pop()
            stones.append(q)
            for d in g.neighbours:
                n = q + int(d)
                cn = colors.get(n)
                if cn is None:
                    continue
                if cn == EMPTY:
                    libs.add(n)
                elif cn == c and n not in seen:
                    seen.add(n)
                    stack.append(n)
        out.append((c, sorted(stones), libs))
    return out


def diagram(size: int, stones: dict[int, int], g: Geometry) -> str:
    """The stones {padded point: colour} as board_from_ascii's diagram, top row first."""
    rows = []
    for row in range(size - 1, -1, -1):
        rows.append("".join(".XO"[stones.get(g.point(row, col), EMPTY)] for col in range(size)))
    return "\n".join(rows)



def format_score(score: float) -> str:
    """GTP's form of a black-minus-white score: "B+3.5", "W+0.5" or "0"."""
    if abs(score) < 1e-9:
        return "0"
    return f"{'B' if score > 0 else 'W'}+{abs(score):.1f}"



def stone_colors(board: Board) -> dict[int, int]:
    """Padded point -> colour of every stone on the board."""
    return {int(p): c for p in board.geometry.points if (c := board.color_at(int(p))) != EMPTY}


def final_ownership(board: Board, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> np.ndarray:
    """Mean final owner of each on-board point (+1 black, -1 white, bit order) over `playouts` uniform
    playouts from the board's stones, half of them with each side moving first (the side to move is
    arbitrary after two passes) and no pass counted (playouts end at two)."""
    stones = diagram(board.size, stone_colors(board), board.geometry)
    first = playouts // 2
    total = np.zeros(board.size * board.size)
    for color, count in ((BLACK, first), (WHITE, playouts - first)):
        start = board_from_ascii(stones, to_move=color, allow_suicide=board.allow_suicide)
        total += count * ownership(start, playouts=count, seed=seed + color)
    return total / max(1, playouts)


def string_statuses(board: Board, own: np.ndarray) -> list[tuple[str, int, list[int]]]:
    """Each string as (status, colour, padded points), status "alive", "dead" or "seki", from its mean
    final ownership m (own: final_ownership; m is +1 where its owner keeps it, -1 where the opponent
    takes it): seki if |m| < SEKI_BAND and it shares a liberty with an opponent string that also has
    |m| < SEKI_BAND (in seki either side may be captured first in a random playout); otherwise dead if
    m < -DEAD_THRESHOLD, alive if not."""
    g = board.geometry
    strings = board_strings(board)
    means = [sum(own[g.bit_of[p]] for p in pts) / len(pts) * (1 if c == BLACK else -1) for c, pts, _ in strings]
    owner_of = {p: i for i, (_, pts, _) in enumerate(strings) for p in pts}
    out = []
    for i, (c, pts, libs) in enumerate(strings):
        neighbours = {owner_of[lib + int(d)] for lib in libs for d in g.neighbours
                      if owner_of.get(lib + int(d), i) != i and strings[owner_of[lib + int(d)]][0] != c}
        if abs(means[i]) < SEKI_BAND and any(abs(means[j]) < SEKI_BAND for j in neighbours):
            status = "seki"
        elif means[i] < -DEAD_THRESHOLD:
            status = "dead"
        else:
            status = "alive"
        out.append((status, c, pts))
    return out


def dead_points(statuses: list[tuple[str, int, list[int]]]) -> list[int]:
    """The padded points of the strings string_statuses judged dead, in order."""
    return sorted(p for status, _, pts in statuses if status == "dead" for p in pts)


def margin_without(board: Board, komi: float, dead: set[int]) -> float:
    """Black minus white area of the board's stones less those at `dead`, minus komi."""
    stones = {p: c for p, c in stone_colors(board).items() if p not in dead}
    return board_from_ascii(diagram(board.size, stones, board.geometry), allow_suicide=True).area_score(komi)


def final_margin(board: Board, komi: float, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> float:
    """The board scored as a finished game: black minus white area after removing the stones judged
    dead (string_statuses of final_ownership), minus komi; what Game.score gives for its board."""
    return margin_without(board, komi, set(dead_points(string_statuses(board, final_ownership(board, playouts, seed)))))


class GameScoring:
    """Game's scoring (a base of Game: it reads the game's board, komi and size)."""

    if TYPE_CHECKING:  # what it uses of Game
        board: Board
        komi: float
        _score_cache: tuple[tuple, np.ndarray] | None

        @property
        def size(self) -> int: ...
        @property
        def geometry(self) -> Geometry: ...

    def _ownership(self, playouts: int, seed: int) -> np.ndarray:
        key = (self.board.hash, self.board.to_move, self.board.ko_point, playouts, seed)
        if self._score_cache is None or self._score_cache[0] != key:
            self._score_cache = (key, final_ownership(self.board, playouts, seed))
        return self._score_cache[1]

    def statuses(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[tuple[str, int, list[int]]]:
        """Each string as (status, colour, padded points): string_statuses of the board's final ownership
        (cached per position)."""
        return string_statuses(self.board, self._ownership(playouts, seed))

    def dead_stones(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[int]:
        """Padded points of the stones judged dead."""
        return dead_points(self.statuses(playouts, seed))

    def final_status_list(self, status: str, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[list[str]]:
        """The strings with `status` ("alive", "dead" or "seki") as lists of GTP vertices; ValueError otherwise."""
        if status not in ("alive", "dead", "seki"):
            raise ValueError(f"unknown status {status!r}: expected alive, dead or seki")
        g = self.geometry
        return [[g.name(p) for p in pts] for s, _, pts in self.statuses(playouts, seed) if s == status]

    def score(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> float:
        """Black minus white area after removing dead stones, minus komi."""
        return margin_without(self.board, self.komi, set(self.dead_stones(playouts, seed)))

    def final_score(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> str:
        """The result as GTP writes it: "B+3.5", "W+0.5" or "0"."""
        return format_score(self.score(playouts, seed))
