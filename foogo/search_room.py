"""The search trees' room: how much memory a search's trees get, and how many nodes and edges that is.

A search that gives no `--memory` (SearchConfig.memory_mb) gets default_memory_mb's: a short move's room
per 81 points, more for each second of a longer move's budget, room for several searches' nodes for a
playout count, and never more than memory_ceiling_mb. tree_size turns megabytes into a tree's nodes and
edges at node_bytes a node. search.Search applies the rule (its trees grow, never shrink, and a full tree is
collected: SearchTree.collect); the figures behind each constant are in bench/RESULTS.md.
"""

from __future__ import annotations

import os

from . import tree as tk
from .geometry import geometry as geometry_of

MEMORY_PER_81_POINTS_MB = 64  # the trees' default memory: 64 MB on 9x9, 285 MB on 19x19 ...
MEMORY_SECONDS = 2.0  # ... for a move of up to this many seconds ...
MEMORY_PER_SECOND_MB = 128  # ... and this much more per 81 points for each second of a longer move's budget,
#                              at the expansion threshold EXPAND (more at a lower one) ...
MEMORY_MAX_MB = 512  # ... at most this, and at most an eighth of the machine's memory
REUSE_BUDGETS = 6  # a search of a playout count gets room for this many searches' nodes, if that is more: a
#                    game's reused subtree held 3.0 and 4.3 budgets' nodes (bench/RESULTS.md, "A tree's room"); a
#                    9x9 self-play game of 137,600 heavy playouts a move collected its trees in 31 of 40 searches
#                    with 64 MB, 5 with four budgets' room and 1 with six (bench/RESULTS.md, "Four times the budget
#                    with today's engine")
EXPAND = 8.0  # the expansion threshold MEMORY_PER_SECOND_MB is written for (search_config.default_expand_threshold's
#               default too)
FILL = 0.98  # the share of a tree's megabytes that tree_size fills with edges and their nodes


def default_memory_mb(size: int, seconds: float | None = None, expand_threshold: float = EXPAND,
                      playouts: int | None = None) -> int:
    """The trees' memory cap when none is given, for a search of `seconds` (None: a playout count, or no
    budget) whose trees expand at `expand_threshold`: per 81 points of the board, MEMORY_PER_81_POINTS_MB, and
    MEMORY_PER_SECOND_MB for each second past MEMORY_SECONDS times EXPAND / expand_threshold (a tree's nodes
    a playout), so 448 MB on 9x9 at 5 s expanding at 8, 678 MB expanding at 5 and 1,088 MB at 3 (the heavy
    9x9 default since 2026-12-01), before the ceiling; for a search of `playouts`,
    room for REUSE_BUDGETS searches' nodes (playouts / expand_threshold each) if that is more: 331 MB for
    137,600 heavy playouts on 9x9 expanding at 5 (552 MB at 3, so the ceiling), where 64 MB was collected
    in 309 of a match's 1,522 searches; at most MEMORY_MAX_MB and an eighth of the machine's memory.
    A full tree is collected and keeps growing (SearchTree.collect), so a cap costs little at short searches:
    on 9x9 it keeps a game at `--time 2` under issue 10's 250 MB, of which about 185 MB is the process's own.
    At 5 s a move on two threads, 64 MB was collected in 87% of the searches, and 512 MB, never collected,
    won +21 points against Pachi, with trees of up to about 370 MB expanding at 8; expanding at 5, 448 MB was
    collected in 4 of a game's 40 searches and 512 MB in none of two games' 100; expanding at 3, 512 MB was
    collected in 26 of a match's 1,453 searches (bench/RESULTS.md, "the trees' memory cap", "A fixed time a
    move spent whole", "The trees' memory at expansion 5" and "Issue 12's second condition at expansion 3")."""
    extra = max(0.0, (seconds or 0.0) - MEMORY_SECONDS) * MEMORY_PER_SECOND_MB * EXPAND / expand_threshold
    want = (MEMORY_PER_81_POINTS_MB + extra) * size * size / 81
    if playouts:
        want = max(want, REUSE_BUDGETS * playouts / expand_threshold * node_bytes(size) / 2**20)
    return max(16, int(min(want, memory_ceiling_mb())))


def node_bytes(size: int) -> float:
    """A tree node's room on a board of `size`: its row, its edges (tree.edges_per_node) and prune's scratch."""
    return tk.NODE_BYTES + 4 + tk.edges_per_node(geometry_of(size)) * tk.EDGE_BYTES


def machine_memory_mb() -> float | None:
    """This machine's physical memory in MB; None where the system does not say (not POSIX)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**20
    except (ValueError, OSError, AttributeError):
        return None


def memory_ceiling_mb() -> int:
    """The most default_memory_mb gives: MEMORY_MAX_MB, and at most an eighth of the machine's memory."""
    machine = machine_memory_mb()
    if machine is None:
        machine = 8 * MEMORY_MAX_MB
    return max(16, int(min(MEMORY_MAX_MB, machine / 8)))


def tree_size(geometry, memory_mb: float, trees: int = 1) -> tuple[int, int]:
    """(nodes, edges) of each of `trees` trees on `geometry` that share memory_mb: every node has
    tree.edges_per_node edges, so a node's room (node_bytes) is spread over them."""
    per_node = tk.edges_per_node(geometry)
    per_edge = node_bytes(geometry.size) / per_node
    max_edges = int(memory_mb / trees * 2**20 * FILL / per_edge)
    return max_edges // per_node + 16, max_edges
