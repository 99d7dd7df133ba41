"""A search tree as Python sees it: the compiled arrays, their reuse and their root, and the threads that grow it.

What it is: `SearchTree`, the handle `Search` keeps around the arrays of tree.py, one per
thread (root parallelism) or one for all (tree parallelism). It makes a position the root
(reusing the root itself, a child or a grandchild when the game reached it, and pruning the
rest in place: `set_root`), runs compiled iterations (`run`) and makes room in a full tree
between them (`collect`), and reads the root's statistics, prior kinds and principal variation
back. Each thread that runs iterations on it has a `Worker`: its scratch arrays, its random
stream and its sums. With several workers, the tree is shared (tree.iterate's params[P_SHARED])
and a gate lets them run at once and collect the tree while none runs.

What it is not: the search (search.py decides how long to run, how threads combine and what
to play) or the tree's layout and kernels (tree_layout.py, tree.py).
"""

from __future__ import annotations

import threading

import numpy as np

from . import board_kernels as bk
from . import tree as tk
from .gamma_table import GAMMAS, open_parts
from .geometry import PASS
from .patterns import PATTERN_TABLE
from .playout import NO_REPLIES, PolicyError, custom_policy_function, move_cap, policy_label

MAX_DEPTH = 400  # the deepest descent an iteration makes (its path and trace scratch)


class Worker:
    """One thread's part in a tree's iterations: its scratch arrays (board copies, path, trace, the AMAF
    and screen rows), its random stream, and what its iterations add up (iterations, ownership, scores)."""

    def __init__(self, geometry, seed: int):
        P = geometry.npoints
        cap = move_cap(geometry.size)
        self.trace = np.zeros(cap + MAX_DEPTH + 8, dtype=np.int32)
        self.tstart = np.zeros(MAX_DEPTH, dtype=np.int64)
        self.path = np.zeros(MAX_DEPTH, dtype=np.int64)
        self.firstc = np.zeros(P, dtype=np.int8)
        self.earlier = np.zeros((tk.HISTORY + MAX_DEPTH + 1, 2), dtype=np.uint64)  # positions: tree.iterate
        self.values = np.zeros(P + 1, dtype=np.float32)  # select_edge's screen
        self.codes = np.zeros(P, dtype=np.int64)  # a new node's candidates' spatial codes (tree.expand)
        self.parts = open_parts(geometry.size)  # the prior's open points (tree.expand), shared, read only
        self.owners = np.zeros(P, dtype=np.int8)
        self.ownership = np.zeros(P + 1, dtype=np.float64)  # owners summed over samples, then their count
        self.scores = np.zeros((P + 1, 3), dtype=np.float64)  # per root edge: n, sum, sum of squares
        self.rng = np.array([np.uint64(seed * 0x9E3779B97F4A7C15 % 2**64) | np.uint64(1)], dtype=np.uint64)
        self.s = self.z = self.ls = self.lz = np.zeros(0, dtype=np.int32)  # set by start
        self.iterations = 0

    def work(self) -> tk.Work:
        """The scratch arrays as tree.iterate takes them: one named tuple (tree.Work), field by field."""
        return tk.Work(**{name: getattr(self, name) for name in tk.WORK_FIELDS})

    def start(self, root_s: np.ndarray, root_z: np.ndarray) -> None:
        """A new search from the root position (root_s, root_z): fresh board copies, sums at zero."""
        self.s, self.z = root_s.copy(), root_z.copy()
        self.ls, self.lz = root_s.copy(), root_z.copy()  # the ladder reader's (tree.expand)
        self.ownership[:] = 0
        self.scores[:] = 0
        self.iterations = 0


class _Gate:
    """Lets a tree's workers run iterations at once, and one of them make room in the full tree (grow or
    collect it: SearchTree.make_room) while none runs."""

    def __init__(self):
        self.cond = threading.Condition()
        self.running = 0
        self.collecting = False

    def enter(self) -> None:
        """Wait while the tree is being collected, then count this thread as running."""
        with self.cond:
            while self.collecting:
                self.cond.wait()
            self.running += 1

    def leave(self, tree: "SearchTree") -> None:
        """This thread's iterations ended; if the tree is full (its meta's flag) and nobody collects it yet,
        wait until no other thread runs and make room in it."""
        with self.cond:
            self.running -= 1
            if tree.meta[tk.FULL] and not self.collecting:
                self.collecting = True
                try:
                    while self.running:
                        self.cond.wait()
                    tree.make_room()
                finally:
                    self.collecting = False
            self.cond.notify_all()


class SearchTree:
    """A tree with its workers' scratch arrays and random streams (one worker: a thread's own tree)."""

    def __init__(self, geometry, max_nodes: int, max_edges: int, seed: int, prior: float,
                 expand_threshold: float, policy="light", patterns: np.ndarray = PATTERN_TABLE,
                 replies: bool = False, workers: int = 1):
        self.geometry = geometry
        self.base = tk.edge_base_of(geometry)  # the point of a node's first edge (tree.node_moves)
        self.policy = policy
        self.patterns = patterns  # the heavy policy's pattern table (SearchConfig.playout_patterns)
        # the built-in policies' cached kernel, or one compiled for a custom policy function
        function = custom_policy_function(policy)
        if function is not None:
            self.kernel = tk.custom_iterations(function)
        else:  # several workers share the tree: the kernel with the atomic steps (tree.iterate)
            self.kernel = tk.run_iterations if workers == 1 else tk.run_shared_iterations
        self.n0 = prior  # the prior's weight (SearchConfig.prior): real visits are N less the prior
        self.expand_threshold = expand_threshold  # SearchConfig's, before any collection
        # numpy's zeros are mapped, not touched: memory is taken as the tree fills, up to the cap
        self.capacity = (max_nodes, max_edges)
        self.arrays = tk.new_tree(max_nodes, max_edges)
        # what a full tree may grow to before it is collected (make_room): its capacity, unless its owner
        # allows more (Search does for an analysis, which has no budget to size the tree by)
        self.allowed = self.capacity
        self._rank: np.ndarray | None = None  # prune's scratch, made on first use
        # per colour, its last good reply to each point (-1: none), kept across moves, or none at all;
        # one table for all the workers (a race between two of them loses one reply, no more)
        self.replies = np.full((2, geometry.npoints), -1, dtype=np.int32) if replies else NO_REPLIES
        # worker k's stream from seed + k: one worker's is the single-thread tree's, whatever the threads
        self.workers = [Worker(geometry, seed + k) for k in range(workers)]
        self._gate = _Gate()
        self.root_s = self.root_z = np.zeros(0, dtype=np.int32)  # the root position, set by set_root
        self.komi: float | None = None  # the komi the tree's statistics were counted under

    @property
    def iterations(self) -> int:
        """Iterations its workers ran in this search."""
        return sum(w.iterations for w in self.workers)

    @property
    def collections(self) -> int:
        """Times it was collected (collect) since it was made or cleared."""
        return int(self.meta[tk.COLLECTIONS])

    @property
    def ownership(self) -> np.ndarray:
        """Its workers' ownership sums (per padded point: black's samples less white's), then the
        number of samples."""
        return np.sum([w.ownership for w in self.workers], axis=0)

    @property
    def scores(self) -> np.ndarray:
        """Its workers' score sums per root edge: iterations, sum and sum of squares of black's margin."""
        return np.sum([w.scores for w in self.workers], axis=0)

    @property
    def meta(self):
        """The tree's counters and flags (its ROOT, NODES, EDGES and FULL fields: tree_layout.py)."""
        return self.arrays.meta

    def clear(self):
        """An empty tree, in the same arrays: their counts go back to zero. Not fresh arrays: the old
        ones, freed, can stay resident in the allocator's heap (glibc serves arrays under its
        dynamic mmap threshold, up to 32 MB, from there) while the new ones fill, which took a
        9x9 game with two 32 MB trees to 263 MB; and the pages a tree touched are wanted again."""
        self.meta[:] = 0  # nodes, edges, root, full, samples, threshold, created, collections
        self.replies.fill(-1)

    def grow(self, max_nodes: int, max_edges: int) -> None:
        """Room for max_nodes nodes and max_edges edges, if that is more than the tree has: new arrays of that
        size hold what the old ones held (the same node and edge numbers), and the old ones are freed. Not
        arrays mapped at the largest size and filled part way: numpy asks for huge pages on large arrays,
        and each of a row's ends inside one would take 2 MB more than the tree uses."""
        if max_nodes <= self.capacity[0] and max_edges <= self.capacity[1]:
            return
        max_nodes, max_edges = max(max_nodes, self.capacity[0]), max(max_edges, self.capacity[1])
        ni, nh, ei, ef, ek, meta = self.arrays
        new = tk.new_tree(max_nodes, max_edges)
        ni2, nh2, ei2, ef2, ek2, meta2 = new
        nodes, edges = int(meta[tk.NODES]), int(meta[tk.EDGES])
        ni2[:nodes], nh2[:nodes] = ni[:nodes], nh[:nodes]
        ei2[:, :edges], ef2[:, :edges], ek2[:edges] = ei[:, :edges], ef[:, :edges], ek[:edges]
        meta2[:] = meta
        meta2[tk.FULL] = 0  # a tree that filled in the last search has room again
        self.arrays = new
        self.capacity = (max_nodes, max_edges)
        self._rank = None

    def make_room(self) -> None:
        """Make room in a full tree during a search: grow it (twice its size, at most `allowed`) if it may
        grow, else collect it."""
        if self.allowed[0] > self.capacity[0] or self.allowed[1] > self.capacity[1]:
            self.grow(min(self.allowed[0], 2 * self.capacity[0]), min(self.allowed[1], 2 * self.capacity[1]))
        else:
            self.collect()

    def _prune(self, root: int) -> None:
        """Keep only the subtree under `root` (the new root), moved in place to the front of the
        arrays: what the game left behind is dropped, and the tree has room to grow again, within
        the same arrays (so memory stays under the cap)."""
        self._compact(root, 0)

    def _compact(self, root: int, min_visits: int) -> None:
        ni, nh, ei, ef, ek, meta = self.arrays
        if self._rank is None:
            self._rank = np.zeros(self.capacity[0], dtype=np.int32)
        tk.prune(ni, nh, ei, ef, ek, meta, root, min_visits, self._rank)

    def collect(self) -> None:
        """Make room in a full tree during a search: drop the nodes below the root with fewer than
        m visits (and their subtrees; their edges keep their statistics), m the smallest power of
        two that frees at least half the edges, and raise this tree's expansion threshold by m so
        that they do not grow back at once. The tree then keeps growing where the search spends
        its playouts, as deep as it goes, within the same memory (Pachi's tree garbage
        collection, here during the search as well as at the next move)."""
        ni, nh, ei, ef, ek, meta = self.arrays
        nodes, root = int(meta[tk.NODES]), int(meta[tk.ROOT])
        visits = ni[:nodes, tk.VISITS].copy()
        visits[root] = np.iinfo(np.int32).max
        counts = ni[:nodes, tk.COUNT]
        m = 2
        while m < 2**30 and counts[visits < m].sum() * 2 < meta[tk.EDGES]:
            m *= 2
        threshold = max(int(meta[tk.EXPAND_AT]), int(self.expand_threshold))
        self._compact(root, m)
        meta[tk.EXPAND_AT] = threshold + m
        meta[tk.COLLECTIONS] += 1

    def set_root(self, board, color: int, legal: np.ndarray, params: np.ndarray, history=None) -> bool:
        """Make (board, color) the root, reusing (under the same komi) the root itself if the position is
        the same in every respect (stones, colour, ko, passes, last moves: bk.situation), or else a
        matching child or grandchild; True if reused. A node that does not consider every legal move
        (its candidates were decided under another history) is not reused. history: the game's
        positions before the root (uint64[params[P_HISTORY], 2]: hash, empty points), which the tree's
        moves may not repeat (tree.iterate)."""
        s, z = board._state()
        same_root = self.root_s.shape[0] == s.shape[0] and bk.situation(self.root_s) == bk.situation(s)
        self.root_s, self.root_z = s.copy(), z.copy()
        self.root_s[bk.M_TO_MOVE] = color
        rows = 0 if history is None else len(history)
        assert rows == int(params[tk.P_HISTORY]) and rows <= tk.HISTORY, "history rows and P_HISTORY disagree"
        for worker in self.workers:
            worker.start(self.root_s, self.root_z)
            if rows:
                worker.earlier[:rows] = history
        self.meta[tk.SAMPLES] = 0
        self.meta[tk.EXPAND_AT] = 0  # a new search: the configured threshold again
        komi = float(params[tk.P_KOMI])
        same_komi = self.komi == komi
        self.komi = komi
        reused = self._find(board.hash, color, same_root) if self.meta[tk.NODES] and same_komi else -1
        if reused >= 0 and self._considers(reused, legal):
            if reused != self.meta[tk.ROOT]:
                self._prune(reused)
            ni, nh, ei, ef, ek, meta = self.arrays
            reused = int(meta[tk.ROOT])
            first = int(ni[reused, tk.FIRST])
            allowed = set(int(p) for p in legal) | {PASS}
            for k, move in enumerate(tk.node_moves(ni, ek, reused, self.base).tolist()):
                if move != tk.DISABLED and move not in allowed:
                    tk.disable(ni, ei, ef, ek, reused, first + k)
            return True
        self.clear()
        ni, nh, ei, ef, ek, meta = self.arrays
        ladder = self.workers[0]
        root = tk.expand(ni, nh, ei, ef, ek, meta, self.root_s, self.root_z, self.geometry.zobrist, ladder.ls,
                         ladder.lz, ladder.codes, color, legal.astype(np.int32), len(legal), params, self.patterns,
                         GAMMAS, ladder.parts)
        if root < 0:
            raise MemoryError("search tree too small for one root")
        meta[tk.ROOT] = root
        return False

    def _considers(self, node: int, legal: np.ndarray) -> bool:
        """True if every move of `legal` has an enabled edge at node."""
        ni, nh, ei, ef, ek, meta = self.arrays
        moves = tk.node_moves(ni, ek, node, self.base)
        return bool(np.isin(legal, moves[moves != tk.DISABLED]).all())

    def _find(self, hash_: int, color: int, same_root: bool = False) -> int:
        """The current root if same_root (the caller compared the rest of the position) and it holds these
        stones with this colour to move, or else a child or grandchild of it that does; or -1."""
        ni, nh, ei, ef, ek, meta = self.arrays
        root = int(meta[tk.ROOT])
        if same_root and nh[root] == np.uint64(hash_) and ni[root, tk.COLOR] == color:
            return root
        frontier = [root]
        for _ in range(2):
            nxt = []
            for node in frontier:
                first, count = ni[node, tk.FIRST], ni[node, tk.COUNT]
                for child in ei[tk.CHILD, first:first + count]:
                    if child >= 0:
                        if nh[child] == np.uint64(hash_) and ni[child, tk.COLOR] == color:
                            return int(child)
                        nxt.append(int(child))
            frontier = nxt
        return -1

    def run(self, count: int, params: np.ndarray, k: int = 0) -> int:
        """Run `count` iterations as worker k, then make room in the tree if it is full (make_room); returns how
        many ran. Workers may run at once from their own threads when params[P_SHARED] is set."""
        w = self.workers[k]
        self._gate.enter()
        try:
            ni, nh, ei, ef, ek, meta = self.arrays  # inside the gate: make_room may have grown them
            done = self.kernel(ni, nh, ei, ef, ek, meta, self.root_s, self.root_z, self.geometry.zobrist, w.work(),
                               params, self.patterns, GAMMAS, self.replies, count)
        finally:
            self._gate.leave(self)
        if done < 0:
            raise PolicyError(f"the playout policy {policy_label(self.policy)} chose a point it may not take "
                             "(occupied, ko or a single-stone suicide)")
        w.iterations += done
        return done

    def root_block(self) -> tuple[int, int, int]:
        """(root node, its first edge, its edge count): its statistic rows are ef[:, first:first + count]."""
        ni, nh, ei, ef, ek, meta = self.arrays
        root = int(meta[tk.ROOT])
        return root, int(ni[root, tk.FIRST]), int(ni[root, tk.COUNT])

    def _root_slice(self):
        """(first edge, edge count, enabled mask) of the root's edges."""
        ni, nh, ei, ef, ek, meta = self.arrays
        _, first, count = self.root_block()
        return first, count, ek[first:first + count] != tk.K_DISABLED

    def root_enabled(self) -> np.ndarray:
        """The mask of the root's enabled edges among all its edges (root_edges' order)."""
        return self._root_slice()[2]

    def root_edges(self):
        """(moves, real visits, real wins) of the root's enabled edges."""
        ni, nh, ei, ef, ek, meta = self.arrays
        first, count, keep = self._root_slice()
        rn, rw = tk.real_stats(ef, ek, first, count, self.n0)
        return tk.node_moves(ni, ek, int(meta[tk.ROOT]), self.base)[keep], rn[keep], rw[keep]

    def root_rows(self):
        """(moves, float64[moves, 4]: each one's N, W, AN, AW) of the root's enabled edges as selection reads
        them: N and W with the prior's virtual visits and wins counted in, AN and AW the AMAF visits and wins."""
        ni, nh, ei, ef, ek, meta = self.arrays
        first, count, keep = self._root_slice()
        rows = ef[[tk.N, tk.W, tk.AN, tk.AW], first:first + count][:, keep].T.astype(np.float64)
        return tk.node_moves(ni, ek, int(meta[tk.ROOT]), self.base)[keep], rows

    def root_knowledge(self):
        """(moves, prior kinds, score statistics [n, sum, sum of squares] of this search) of the
        root's enabled edges."""
        ni, nh, ei, ef, ek, meta = self.arrays
        first, count, keep = self._root_slice()
        moves = tk.node_moves(ni, ek, int(meta[tk.ROOT]), self.base)
        return moves[keep], ek[first:first + count][keep], self.scores[:count][keep]

    def principal_variation(self, first_move: int, limit: int = 12) -> list[int]:
        """Moves from the root starting with first_move, then the most visited child at each step."""
        ni, nh, ei, ef, ek, meta = self.arrays
        node = int(meta[tk.ROOT])
        pv: list[int] = []
        move: int | None = first_move
        while node >= 0 and len(pv) < limit:
            first, count = ni[node, tk.FIRST], ni[node, tk.COUNT]
            if count == 0:
                break
            moves = tk.node_moves(ni, ek, node, self.base)
            if move is None:
                visits = tk.real_stats(ef, ek, first, count, self.n0)[0]
                e = first + int(np.argmax(visits))
                if visits[e - first] < 1:
                    break
            else:
                matches = np.flatnonzero(moves == move)
                if not len(matches):
                    break
                e = first + int(matches[0])
            pv.append(int(moves[e - first]))
            node = int(ei[tk.CHILD, e])
            move = None
        return pv
