"""Scoring a finished game: the strings, their status (alive, dead, seki) from playout ownership, the score.

What it is: `GameScoring`, the part of `Game` (game.py) that estimates dead stones and scores,
and the helpers it and the game share (`board_strings`, `diagram`, `format_score`). Dead stones
are estimated from the ownership of playouts from the final stones (half of them with each side
moving first), of both built-in policies (`final_statuses`): a string is in seki if the heavy
playouts leave one of its liberties to neither colour beside a live opponent string, and else dead
if either policy's playouts give it to the opponent more often than to its owner. Each policy
misjudges what the other reads: a uniform playout fills a seki's or an edge race's shared liberty
at random, so it kills strings in seki and lets the loser of a race win it, where the heavy
policy's self-atari rule plays neither; heavy playouts defend a loose group in an open area as
well as they attack it, so they let invading stones live that uniform ones, and GNU Go, take
(bench/RESULTS.md, "Dead stones read by heavy playouts"). On GNU Go's own finished 9x9 games this
agrees with GNU Go's final_score. What it is not: a life-and-death reader; a position far from
finished gets a playout's guess, and a dead shape that only a sacrifice of two stones or more
kills (a nakade heavy playouts do not play) may be read as a seki.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from .board import Board, board_from_ascii
from .geometry import BLACK, EMPTY, WHITE, Geometry
from .numbers import shown, whole_value
from .playout import MAX_SEED
from .playout_ownership import owner_shares

SCORE_PLAYOUTS = 400  # playouts behind a dead-stone estimate, of each policy
MAX_SCORE_PLAYOUTS = 1_000_000  # Game's scoring methods take at most this many (about a minute on 19x19)
DEAD_THRESHOLD = 0.0  # a string is dead if the opponent's mean ownership of it is above this
SEKI_SHARE = 0.5  # a live string is in seki if neither colour owns one of its liberties at the end of more
# than this share of the playouts, and an opponent string that is not dead touches it


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
    """GTP's form of a black-minus-white score: "B+3.5", "W+0.5" or "0"; one decimal as GNU Go writes it
    ("W+3.0"), more where a komi such as 0.75 needs them (one decimal wrote W+0.8, and W+0.0 for komi 0.01)."""
    if abs(score) < 1e-9:
        return "0"
    margin = f"{abs(score):.1f}"
    if abs(float(margin) - abs(score)) > 1e-9:
        margin = f"{abs(score):.6f}".rstrip("0")
    return f"{'B' if score > 0 else 'W'}+{margin}"



def stone_colors(board: Board) -> dict[int, int]:
    """Padded point -> colour of every stone on the board."""
    return {int(p): c for p in board.geometry.points if (c := board.color_at(int(p))) != EMPTY}


def final_ownership(board: Board, playouts: int = SCORE_PLAYOUTS, seed: int = 0,
                    policy: str = "heavy") -> tuple[np.ndarray, np.ndarray]:
    """(mean final owner of each on-board point, +1 black and -1 white, and the share of the playouts
    that left it owned by neither colour), both in bit order, over `playouts` playouts of a built-in
    policy from the board's stones, half of them with each side moving first (the side to move is
    arbitrary after two passes) and no pass counted (playouts end at two)."""
    stones = diagram(board.size, stone_colors(board), board.geometry)
    first = playouts // 2
    own = np.zeros(board.size * board.size)
    neutral = np.zeros(board.size * board.size)
    for color, count in ((BLACK, first), (WHITE, playouts - first)):
        start = board_from_ascii(stones, to_move=color, allow_suicide=board.allow_suicide)
        mean, share = owner_shares(start, playouts=count, seed=seed + color, policy=policy)
        own += count * mean
        neutral += count * share
    return own / max(1, playouts), neutral / max(1, playouts)


def string_statuses(board: Board, shares: tuple[np.ndarray, np.ndarray]) -> list[tuple[str, int, list[int]]]:
    """Each string as (status, colour, padded points), status "alive", "dead" or "seki", from
    final_ownership's shares: dead if its mean final ownership m (+1 where its owner keeps it, -1
    where the opponent takes it) is below -DEAD_THRESHOLD; else seki if one of its liberties is left
    to neither colour in more than SEKI_SHARE of the playouts and touches an opponent string that
    is not dead either (a liberty neither side can fill: a dame the playouts fill); else alive."""
    own, neutral = shares
    g = board.geometry
    strings = board_strings(board)
    means = [sum(own[g.bit_of[p]] for p in pts) / len(pts) * (1 if c == BLACK else -1) for c, pts, _ in strings]
    dead = [m < -DEAD_THRESHOLD for m in means]
    owner_of = {p: i for i, (_, pts, _) in enumerate(strings) for p in pts}
    out = []
    for i, (c, pts, libs) in enumerate(strings):
        status = "dead" if dead[i] else "alive"
        if not dead[i]:
            for lib in libs:
                if neutral[g.bit_of[lib]] <= SEKI_SHARE:
                    continue
                touching = (owner_of.get(lib + int(d)) for d in g.neighbours)
                if any(j is not None and strings[j][0] != c and not dead[j] for j in touching):
                    status = "seki"
                    break
        out.append((status, c, pts))
    return out


def _both_policies(board: Board, playouts: int, seed: int):
    """(final_statuses, the uniform playouts' own string_statuses), from one set of playouts of each policy."""
    heavy = string_statuses(board, final_ownership(board, playouts, seed, "heavy"))
    light = string_statuses(board, final_ownership(board, playouts, seed, "light"))
    combined = [("seki" if h == "seki" else "dead" if "dead" in (h, u) else "alive", c, pts)
                for (h, c, pts), (u, _, _) in zip(heavy, light)]
    return combined, light


def final_statuses(board: Board, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[tuple[str, int, list[int]]]:
    """Each string as (status, colour, padded points) as foogo scores a finished game: string_statuses
    of heavy playouts' and of uniform playouts' final_ownership, combined: seki where the heavy ones
    find it, else dead where either finds it, else alive (see the module's docstring)."""
    return _both_policies(board, playouts, seed)[0]


def dead_points(statuses: list[tuple[str, int, list[int]]]) -> list[int]:
    """The padded points of the strings string_statuses judged dead, in order."""
    return sorted(p for status, _, pts in statuses if status == "dead" for p in pts)


def margin_without(board: Board, komi: float, dead: set[int]) -> float:
    """Black minus white area of the board's stones less those at `dead`, minus komi."""
    stones = {p: c for p, c in stone_colors(board).items() if p not in dead}
    return board_from_ascii(diagram(board.size, stones, board.geometry), allow_suicide=True).area_score(komi)


def final_margin(board: Board, komi: float, playouts: int = SCORE_PLAYOUTS, seed: int = 0,
                 policy: str | None = None) -> float:
    """The board scored as a finished game: black minus white area after removing the stones judged
    dead, minus komi; by final_statuses (what Game.score gives for its board), or with policy
    "light" or "heavy" by that policy's playouts alone (string_statuses of its final_ownership)."""
    if policy is None:
        statuses = final_statuses(board, playouts, seed)
    else:
        statuses = string_statuses(board, final_ownership(board, playouts, seed, policy))
    return margin_without(board, komi, set(dead_points(statuses)))


def final_margins(board: Board, komi: float, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> tuple[float, float]:
    """(final_margin, the margin with only the strings uniform playouts judge dead removed: how GNU Go
    scores a seki whose strings have no eye), from one set of playouts of each policy."""
    combined, light = _both_policies(board, playouts, seed)
    return (margin_without(board, komi, set(dead_points(combined))),
            margin_without(board, komi, set(dead_points(light))))


class GameScoring:
    """Game's scoring (a base of Game: it reads the game's board, komi and size)."""

    if TYPE_CHECKING:  # what it uses of Game
        board: Board
        komi: float
        _score_cache: tuple[tuple, list[tuple[str, int, list[int]]]] | None

        @property
        def size(self) -> int: ...
        @property
        def geometry(self) -> Geometry: ...

    def statuses(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[tuple[str, int, list[int]]]:
        """Each string as (status, colour, padded points): final_statuses of the board (cached per position).
        ValueError (TypeError for a type) naming the argument unless playouts is a whole number in
        1..MAX_SCORE_PLAYOUTS and seed an int64 less 2 (each colour's playouts are drawn with seed + colour)."""
        playouts, seed = whole_value("playouts", playouts), whole_value("seed", seed)
        if not 1 <= playouts <= MAX_SCORE_PLAYOUTS:
            raise ValueError(f"playouts must be from 1 to {MAX_SCORE_PLAYOUTS:,}, got {shown(playouts)}")
        if not -MAX_SEED - 1 <= seed <= MAX_SEED - 2:  # run_numbers' range, for seed + colour
            raise ValueError(f"seed must be from -2**63 to 2**63 - 3, got {shown(seed)}")
        key = (self.board.hash, self.board.to_move, self.board.ko_point, playouts, seed)
        if self._score_cache is None or self._score_cache[0] != key:
            self._score_cache = (key, final_statuses(self.board, playouts, seed))
        return self._score_cache[1]

    def dead_stones(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[int]:
        """Padded points of the stones judged dead."""
        return dead_points(self.statuses(playouts, seed))

    def final_status_list(self, status: str, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[list[str]]:
        """The strings with `status` ("alive", "dead" or "seki") as lists of GTP vertices; ValueError otherwise."""
        if status not in ("alive", "dead", "seki"):
            raise ValueError(f"unknown status {shown(status)}: expected alive, dead or seki")
        g = self.geometry
        return [[g.name(p) for p in pts] for s, _, pts in self.statuses(playouts, seed) if s == status]

    def score(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> float:
        """Black minus white area after removing dead stones, minus komi."""
        return margin_without(self.board, self.komi, set(self.dead_stones(playouts, seed)))

    def final_score(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> str:
        """The result as GTP writes it: "B+3.5", "W+0.5" or "0"."""
        return format_score(self.score(playouts, seed))
