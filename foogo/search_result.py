"""What a search returns: `SearchResult` (the move, its win rate and the statistics behind it) and `RaveRow`
(a root move's statistics as the tree's selection reads them). Points are the kernels' padded points; the
`vertex...` properties give GTP names."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

import numpy as np

from .geometry import BLACK, PASS, RESIGN, geometry


@dataclass
class SearchResult:
    """What a search found: a move and the statistics behind it. In GTP names: `vertex` ("D4", "pass"
    or "resign"), `pv_vertices`, `vertex_visits` and `vertex_winrates`; the fields themselves hold
    the kernels' padded points (PASS, RESIGN), keyed likewise."""

    move: int
    winrate: float  # for the colour that searched, of the chosen move
    playouts: int
    seconds: float
    pv: list[int] = field(default_factory=list)
    visits: dict[int, int] = field(default_factory=dict)  # root move -> real visits
    winrates: dict[int, float] = field(default_factory=dict)  # root move -> win rate
    ownership: np.ndarray | None = None  # float[size*size]: +1 black owns, -1 white
    priors: dict[int, float] = field(default_factory=dict)  # root move -> its share of the priors' wins
    scores: dict[int, tuple[float, float]] = field(default_factory=dict)  # root move -> mean and standard
    # deviation of black's final margin (area score less komi) in this search's playouts through it, or, with
    # fewer than search.SCORE_MIN_SAMPLES of them, in all its playouts
    color: int = BLACK
    stopped: str = ""  # why the search ended: budget, extended, limit, playouts, settled, clear, stop, passed, empty
    size: int = 0  # the board's size, for the GTP names (0: unknown)
    extra_komi: float = 0.0  # dynamic komi at the search's end: the win rates are at the game's komi plus
    # this (black's area had to pass it); > 0 where black gives komi, < 0 where white does
    pvs: dict[int, list[int]] = field(default_factory=dict)  # root move -> its principal variation (the
    # most visited reply at each step in the tree that visited the move most), in analysis reports only
    collections: int = 0  # full trees collected during this search (SearchTree.collect): the memory cap
    # bound it, and the expansion threshold rose for the rest of the search (SearchConfig.memory_mb)

    def __repr__(self) -> str:
        """One line: who searched, the move, its win rate, the budget spent, the principal variation's start and
        how many root moves were searched (the fields hold the rest: a dataclass's repr printed every one)."""
        if self.size:
            move, pv = self.vertex, " ".join(self.pv_vertices[:8]) + (" ..." if len(self.pv) > 8 else "")
        else:  # no GTP names without the size
            move, pv = {PASS: "pass", RESIGN: "resign"}.get(self.move, f"point {self.move}"), f"{len(self.pv)} moves"
        return (f"SearchResult({'black' if self.color == BLACK else 'white'} {move}, win rate {self.winrate:.3f}, "
                f"{self.playouts} playouts in {self.seconds:.2f} s, pv {pv or '-'}, {len(self.visits)} root moves, "
                f"stopped: {self.stopped or '-'})")

    @property
    def playouts_per_second(self) -> float:
        """Iterations per second of wall time."""
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    def _name(self, p: int) -> str:
        if p == RESIGN:
            return "resign"
        if not self.size:
            raise ValueError("this SearchResult does not know its board size: no GTP names")
        return geometry(self.size).name(p)

    @property
    def vertex(self) -> str:
        """The chosen move's GTP name: "D4", "pass" or "resign"."""
        return self._name(self.move)

    @property
    def pv_vertices(self) -> list[str]:
        """The principal variation in GTP names."""
        return [self._name(p) for p in self.pv]

    @property
    def vertex_visits(self) -> dict[str, int]:
        """GTP name -> real visits of the root moves searched."""
        return {self._name(p): n for p, n in self.visits.items()}

    @property
    def vertex_winrates(self) -> dict[str, float]:
        """GTP name -> win rate (for the side that searched) of the root moves searched."""
        return {self._name(p): w for p, w in self.winrates.items()}


class RaveRow(NamedTuple):
    """A root move's statistics as the tree's selection reads them (Search.root_rave)."""

    visits: float  # real visits plus the prior's virtual ones
    wins: float  # real wins plus the prior's virtual ones
    amaf_visits: float
    amaf_wins: float
    beta: float  # the AMAF part's weight in value: AN / (AN + N + AN * N / equiv)
    value: float  # (1 - beta) * wins / visits + beta * amaf_wins / amaf_visits, the move's selection value
