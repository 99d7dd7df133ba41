"""The tree's arrays: node and edge layout, their columns and fields, and the prior kinds an edge carries.

What it is: the one owner of the layout of a search tree (tree.py grows and iterates it,
tree_select.py chooses in it, tree_priors.py fills new edges' kinds, search.py drives it).
A tree is six arrays, so that a whole iteration (descent, expansion, playout,
backup, AMAF update) runs in one compiled call without touching Python:

``ni`` int32[N, 9]   per node: first edge, edge count, visits, colour to move, best edge (its
                     offset from the first; -1: not known, select_edge finds it); then the
                     criticality counts of the move that reached it (CRIT_*: see P_CRIT)
``nh`` uint64[N]     per node: Zobrist hash of its position (for tree reuse)
``ei`` int32[1, E]   per edge: its child node or -1 (its move it has by position: below)
``ef`` float32[4, E] per edge, one row each: visits and wins including the prior (N, W),
                     AMAF visits and wins (AN, AW); wins are counted for the colour
                     that plays the edge's move
``ek`` uint8[E]      per edge: the kind of its prior (K_*), which gives the prior's
                     virtual visits and wins (prior_visits): real visits are N minus
                     them, so they take no room of their own
``meta`` int64[16]   nodes used, edges used, root node, full flag, iterations run, the
                     expansion threshold raised by collections (0: params'), nodes
                     ever created, collections run; then, in profiling builds
                     (jit.PROFILE), the cycles spent in each part of an iteration
                     (CYCLE_PARTS) and the stones the playouts played; then the lock
                     that threads sharing the tree take to allocate a node (LOCK)

An edge is 21 bytes. A node's edges are contiguous, one for every padded point
from the first on-board point to the last (`node_edges`; the border points
between rows, occupied points and moves the rules forbid are disabled: kind
K_DISABLED), then pass: edge `first + p - base` is point p (`edge_base`), so an
edge's move is its position (`edge_move`, `node_moves`) and takes no room. Each
field has a row of its own, so the AMAF update and the screen of a node's edges
run over whole rows (tree_select.credit_and_screen), and the node keeps its best
edge (BEST) for the next descent through it.

An edge's kind (K_*) is part of the layout: its prior's virtual visits and wins
(prior_visits) are counted inside N and W, so real visits are N less them.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from . import board_kernels as bk
from .jit import inline

PASS = bk.PASS

DISABLED = -3  # an edge that is no move here: a border or occupied point, one the tree does not
#                consider (expand), or a move the game's rules forbid at this root (disable)

# ni columns
FIRST, COUNT, VISITS, COLOR, BEST = 0, 1, 2, 3, 4
# criticality (params[P_CRIT] > 0): of the iterations through the node that ended with a winner, how many
# (CRIT_N), and in how many the point of the move that reached it ended owned by the winner (CRIT_WO), by
# black (CRIT_BO), and black won (CRIT_BW); tree.iterate counts them, tree_select.crit_gain reads them
CRIT_N, CRIT_WO, CRIT_BO, CRIT_BW = 5, 6, 7, 8
NODE_COLUMNS = 9
# ei rows
CHILD = 0  # the child node, or NO_CHILD, or GROWING while a thread of a shared tree expands it
NO_CHILD, GROWING = -1, -2
# ef columns
N, W, AN, AW = 0, 1, 2, 3
# meta fields
NODES, EDGES, ROOT, FULL, SAMPLES, EXPAND_AT, CREATED, COLLECTIONS = 0, 1, 2, 3, 4, 5, 6, 7
CYCLES = 8  # meta[CYCLES + C_*]: cycles spent in each part of the iterations (profiling builds only)
CYCLE_PARTS = ("copy", "descent", "expansion", "playout", "backup", "amaf")  # descent includes expansion
C_COPY, C_DESCENT, C_EXPANSION, C_PLAYOUT, C_BACKUP, C_AMAF = range(len(CYCLE_PARTS))
PLAYOUT_STONES = CYCLES + len(CYCLE_PARTS)  # meta[PLAYOUT_STONES]: stones the playouts played (profiling)
LOCK = PLAYOUT_STONES + 1  # meta[LOCK]: 1 while a thread takes room for a node in a shared tree (expand)
META_SIZE = 16
OWNERSHIP_EVERY = 16
# params fields (float64 array)
(P_KOMI, P_EQUIV, P_UCT, P_EXPAND, P_PRIOR, P_CAP, P_POLICY, P_KNOWLEDGE, P_SHARED, P_HISTORY, P_EXTRA, P_CRIT,
 P_CRIT_MIN, P_SCORE, P_REJECT) = range(15)
# P_POLICY: LIGHT or HEAVY; P_KNOWLEDGE: RULES or LEARNED (the prior); P_SHARED: 1 when several threads
# run iterations on the tree at once (tree parallelism: tree.iterate), else 0; P_HISTORY: how many of the
# game's positions before the root (at most HISTORY) the rows of tree.iterate's `earlier` begin with;
# P_EXTRA: dynamic komi (dynamic_komi.py), points added to P_KOMI for telling a playout's winner only
# (0: none; the score margins stay black's area less P_KOMI); P_CRIT: criticality's weight in the RAVE
# value (0: none; SearchConfig.crit), counted for an edge once its child has more than P_CRIT_MIN visits;
# P_SCORE: the score's weight in a playout's result (tree_score.playout_result; 0: win or loss only);
# P_REJECT: how often in 1000 the heavy playouts' rule (d) redraws a self-atari of two stones or more in this
# search (SearchConfig.self_atari_rate; policy.choose's reject_permil)
NPARAMS = 15
HISTORY = 8  # the game positions before the root that the tree's moves may not repeat (positional superko)
VIRTUAL_LOSS = 1.0  # a shared tree's descent counts this many lost visits on each edge it takes until its backup


NODE_BYTES = NODE_COLUMNS * 4 + 8
EDGE_BYTES = 4 + 4 * 4 + 1


@inline
def _span_edges(n, w):
    """The edges of a node on an n x n board of padded width w: padded points first (the first
    on-board point) .. last (the last on-board point), then pass."""
    return (n - 1) * w + n + 1


@inline
def node_edges(s):
    """The edges of every node of position s's board (_span_edges)."""
    return _span_edges(np.int64(s[bk.M_SIZE]), np.int64(s[bk.M_W]))


def edges_per_node(geometry) -> int:
    """The edges of every node on a Geometry's board (node_edges)."""
    return int(_span_edges.py_func(geometry.size, geometry.width))


@inline
def _first_point(w):
    return w + 1


@inline
def edge_base(s):
    """The padded point of a node's first edge (the first on-board point): its edge first + p - base
    is point p's, and first + node_edges - 1, the pass edge's, would be a border point's."""
    return _first_point(np.int64(s[bk.M_W]))


def edge_base_of(geometry) -> int:
    """edge_base on a Geometry's board."""
    return int(_first_point.py_func(geometry.width))


@inline
def edge_move(ni, node, e, base):
    """The move of node's edge e: the padded point base + its offset, or PASS for the last edge.
    Whether the edge is enabled is its kind's business (K_DISABLED)."""
    k = e - np.int64(ni[node, FIRST])
    return PASS if k == np.int64(ni[node, COUNT]) - 1 else base + k


def node_moves(ni, ek, node: int, base: int) -> np.ndarray:
    """The moves of node's edges, in order (int32): edge_move's, and DISABLED for a disabled edge.
    base: edge_base_of the board's geometry."""
    first, count = int(ni[node, FIRST]), int(ni[node, COUNT])
    moves = np.arange(base, base + count, dtype=np.int32)
    moves[count - 1] = PASS
    moves[ek[first:first + count] == K_DISABLED] = DISABLED
    return moves


def cycle_counts(meta) -> dict[str, int]:
    """Part name (CYCLE_PARTS) -> cycles its iterations spent there, from a tree's meta: all 0 unless
    the kernels were built for profiling (jit.PROFILE)."""
    return {name: int(meta[CYCLES + k]) for k, name in enumerate(CYCLE_PARTS)}


def playout_stones(meta) -> int:
    """Stones the tree's playouts played, from its meta (profiling builds; else 0)."""
    return int(meta[PLAYOUT_STONES])


class TreeArrays(NamedTuple):
    """A tree's arrays, as the kernels take them one by one (unpack it: `ni, nh, ei, ef, ek, meta = arrays`)."""

    ni: np.ndarray  # int32[nodes, NODE_COLUMNS]: each node's record
    nh: np.ndarray  # uint64[nodes]: each node's position hash
    ei: np.ndarray  # int32[1, edges]: each edge's child node (CHILD)
    ef: np.ndarray  # float32[4, edges]: each edge's statistics (N, W, AN, AW)
    ek: np.ndarray  # uint8[edges]: each edge's prior kind
    meta: np.ndarray  # int64[META_SIZE]: the tree's counters and flags (ROOT, NODES, EDGES, FULL...)


def new_tree(max_nodes: int, max_edges: int) -> TreeArrays:
    """Empty tree arrays (ni, nh, ei, ef, ek, meta) with the given capacities."""
    ni = np.zeros((max_nodes, NODE_COLUMNS), dtype=np.int32)
    nh = np.zeros(max_nodes, dtype=np.uint64)
    ei = np.zeros((1, max_edges), dtype=np.int32)
    ef = np.zeros((4, max_edges), dtype=np.float32)
    ek = np.zeros(max_edges, dtype=np.uint8)
    meta = np.zeros(META_SIZE, dtype=np.int64)
    return TreeArrays(ni, nh, ei, ef, ek, meta)


# ---------------------------------------------------------------- prior kinds

# prior kinds: what Go knowledge says of a move, and the prior it earns (KIND_WEIGHT * params[P_PRIOR]
# virtual visits winning KIND_VALUE of them). With the rules' prior (params[P_KNOWLEDGE] == RULES) an
# edge gets one of the first ten; with the learned prior (LEARNED) a move gets K_LEARNED + j, where
# j = round(LEARNED_SCALE * sqrt(pi)) (at most LEARNED_LEVELS - 1) for pi, the share of its gamma
# (features.py) among the node's moves (their sum taken as LEARNED_FLOOR at least): n0 virtual visits at
# 0.5 and n0 * j virtual wins, the shape of Pachi's pattern prior (whose ratio of pattern to even
# prior is 15 too). Every weight is a whole number, so that real visits stay exact (real_stats).
K_PLAIN, K_PASS, K_CAPTURE, K_SAVE, K_RISKY, K_NEAR, K_PATTERN, K_LINE0, K_LINE1, K_DISABLED = range(10)
K_LEARNED = 10
LEARNED_LEVELS = 16
LEARNED_SCALE = 15.0
# a node's gammas count as summing to at least LEARNED_FLOOR when shares are taken. Without it a
# lone move's share was 1, and earned the top prior whatever it was (in a seki ending, white's one
# move, a self-atari of gamma 0.39 that gives a living group away, got 155 of 160 virtual wins, and
# the search resigned a won game). Real 9x9 positions sum to 500-3,000 (p10 740-1,850 by phase) and
# still 30-400 with a handful of moves left, where the prior's shares guide the tree's reading
# (a floor of 500, or a pass counted as a move of gamma 50, changed the search's moves there);
# below 20 every move is poor
LEARNED_FLOOR = 20.0
KIND_WEIGHT = np.array([1.0, 1.0, 2.0, 2.0, 2.0, 1.0, 1.0, 1.0, 1.0, 0.0]
                       + [1.0 + j for j in range(LEARNED_LEVELS)])
KIND_VALUE = np.array([0.5, 0.1, 0.9, 0.8, 0.2, 0.6, 0.7, 0.3, 0.45, 0.0]
                      + [(0.5 + j) / (1.0 + j) for j in range(LEARNED_LEVELS)])
RULES, LEARNED = 0, 1  # params[P_KNOWLEDGE]
KNOWLEDGE = ("rules", "learned")  # names, indexed by id


@inline
def prior_visits(kind, n0):
    """The prior's virtual (visits, wins) for an edge of this kind, n0 = params[P_PRIOR]."""
    n = n0 * KIND_WEIGHT[kind]
    return n, n * KIND_VALUE[kind]

