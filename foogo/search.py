"""UCT-RAVE search: the readable driver around the compiled tree in `tree.py`.

`Search.genmove(board, color, komi, legal_moves)` grows trees from the position
for a playout count or a time budget and returns a `SearchResult`: the move,
its win rate, the principal variation, root visits and win rates, and an
ownership map. With `threads = T` it runs T trees, one per thread and seed (root
parallelisation; their roots share statistics, shared_root.py), and sums their
root statistics; or, with `parallel = "tree"`, one tree that the T threads grow
at once with virtual loss (tree parallelisation: tree.iterate, search_tree's
workers). The compiled iterations release the GIL, so T threads use T cores;
the threads' loop, and when a run ends, is search_run.py's.

Trees are reused: when the next genmove's position is the last root itself (a
GUI asking again, a genmove after analysis) or a child or grandchild of it, that
subtree becomes the root (its edges re-checked against the game's legal moves).
A new komi drops the tree: its win rates were counted under the old one.
Passing: when the opponent has just passed and the position already wins under
area scoring, with every stone alive and with the stones playouts judge dead
removed, pass at once; otherwise pass is one of the root's moves and is
played when it is the most visited.

Dynamic komi (SearchConfig.dynamic_komi, off by default): a genmove's search gives komi while
its side is far ahead, moved every few iterations from the root's win rate and carried from move to
move within a game (dynamic_komi.py: Pachi's situational compensation), so that a won position is
played for a margin rather than with slack moves; the tree counts a playout's winner at the komi in
force (tree.P_EXTRA) and its score margins at the game's komi. A search giving komi never resigns.

Time use (search_time.py): a timed search stops early once its best move is settled, or, past half
its budget, clear; close positions and the opening use the whole budget, and a search still close at its
budget goes on towards its time limit. The trees' memory (search_room.py): a short move's room per 81
points, more for a longer budget or a large playout count, within a ceiling.
A search for a playout count runs its count, unless SearchConfig.bank makes the
count an average over a game's moves (search_bank.py). `stopped` in the result
says why a search ended.

It does not know the game's rules beyond `legal_moves`, nor GTP or clocks:
callers turn clocks into a time budget. Its configuration is search_config.py's SearchConfig (checked on
construction), its result search_result.py's SearchResult; both are importable from here.
"""

from __future__ import annotations

import copy
import threading
import time
from concurrent.futures import ThreadPoolExecutor, wait

import numpy as np

from . import board_kernels as bk
from . import tree as tk
from .dynamic_komi import MIN_VISITS, DynamicKomi, handicap_extra
from .game_score import final_margins
from .geometry import BLACK, PASS, RESIGN, parse_color
from .numbers import check_komi
from .playout import move_cap, policy_kind
from .policy import POLICIES, policy_id  # noqa: F401 (POLICIES: this module's API)
from .search_bank import PlayoutBank
from .search_config import (  # noqa: F401 (this module's API: a search's configuration with it)
    DEFAULT_PLAYOUTS,
    EXPAND_HEAVY_SMALL,
    MAX_PLAYOUTS,
    MAX_SECONDS,
    PARALLEL,
    PLAYOUT_PATTERNS,
    SMALL_BOARD,
    ConfigError,
    SearchConfig,
    default_expand_threshold,
    default_self_atari_rate,
)
from .search_result import RaveRow, SearchResult
from .search_room import default_memory_mb, memory_ceiling_mb, tree_size
from .search_run import Run
from .search_time import close, early_stop
from .search_tree import SearchTree
from .shared_root import SharedRoot
from .tree_layout import HISTORY

SCORE_MIN_SAMPLES = 10  # a root move's own score statistics need this many of the search's playouts (_root_knowledge)


class Search:
    """UCT-RAVE search with tree reuse and root-parallel threads. Construct with a SearchConfig."""

    def __init__(self, config: SearchConfig | None = None):
        self.config = config or SearchConfig()
        self.trees: list[SearchTree] = []
        self._shared: SharedRoot | None = None  # while a search shares its trees' roots
        self._geometry = None
        self.dynamic_komi = DynamicKomi()  # each colour's extra komi in this game (SearchConfig.dynamic_komi)
        self.bank = PlayoutBank()  # each colour's playouts saved in this game (SearchConfig.bank)

    def new_game(self) -> None:
        """Forget the trees (no reuse across games), the game's dynamic komi and its playout banks."""
        for tree in self.trees:
            tree.clear()
        self.dynamic_komi.new_game()
        self.bank.new_game()

    def genmove(self, board, color, komi: float, legal_moves=None, time_budget: float | None = None,
                stop: threading.Event | None = None, progress=None, interval: float = 0.5,
                history=(), handicap: int = 0, moves: int = 0, time_limit: float | None = None,
                commit: bool = True) -> SearchResult:
        """Search (board, color) within the budget and return the chosen move and statistics.

        legal_moves: the moves the game's rules allow color (GTP names, (row, col) pairs or padded
        points; Game.legal_moves gives them with superko); None: every move the board allows.
        Pass is always allowed. time_budget overrides config.seconds; time_limit (None: the budget) is the most a
        search still close at its budget may go on to (search_time.py); stop ends the search early; progress(result) is
        called about every `interval` seconds while searching. history: (Zobrist hash, empty points)
        of the positions before `board`, oldest first (Game.recent_positions(HISTORY)); the tree's
        moves never repeat the last HISTORY of them, nor a position of their own line (positional
        superko inside the tree). handicap, moves: the game's handicap stones and the moves played since
        (dynamic komi's handicap phase; SearchConfig.dynamic_komi). commit=False: the move genmove would
        choose, and the game's bank and dynamic komi left as they were (GTP's reg_genmove: it plays nothing)."""
        color = parse_color(color)
        komi = check_komi(komi)
        time_budget, time_limit = _seconds("time_budget", time_budget), _seconds("time_limit", time_limit)
        start = time.perf_counter()
        legal = self._root_moves(board, color, legal_moves)
        margin = self._passing_margin(board, color, komi) if board.last_move == PASS else None
        if margin is not None:  # no playout runs: the pass, certain, and the margin it wins by
            return SearchResult(PASS, 1.0, 0, time.perf_counter() - start, [PASS], color=color, stopped="passed",
                                size=board.size, scores={PASS: (margin, 0.0)})
        seconds = time_budget if time_budget is not None else self.config.seconds
        playouts = self.config.playouts
        if seconds is None and playouts is None:
            playouts = DEFAULT_PLAYOUTS
        kept = None if commit else (copy.deepcopy(self.dynamic_komi), copy.deepcopy(self.bank))
        try:
            return self._search(board, color, komi, legal, seconds, playouts, stop, progress, interval, start,
                                decide=True, history=history, handicap=(handicap, moves), time_limit=time_limit)
        finally:
            if kept is not None:
                self.dynamic_komi, self.bank = kept

    def analyze(self, board, color, komi: float, legal_moves, stop: threading.Event, progress,
                interval: float = 0.5, history=()) -> SearchResult:
        """Search until `stop` is set, calling progress(result) every `interval` seconds (progress None: in
        this thread, with no calls); return the last result. history: as genmove's. ValueError without a stop
        event (the search would run to its one-day cap)."""
        if not isinstance(stop, threading.Event):
            raise ValueError(f"analyze needs a threading.Event to stop it, got {stop!r:.60}")
        color = parse_color(color)
        komi = check_komi(komi)
        legal = self._root_moves(board, color, legal_moves)
        return self._search(board, color, komi, legal, None, None, stop, progress, interval,
                            time.perf_counter(), decide=False, history=history)

    # ------------------------------------------------------------ internals

    @staticmethod
    def _history(history) -> np.ndarray:
        """The last HISTORY of `history`'s (hash, empty points) pairs as tree.iterate's rows (uint64[n, 2]);
        ValueError for anything but pairs of integers in 0 .. 2**64 - 1."""
        rows = list(history)[-HISTORY:]
        try:
            pairs = [(int(h), int(e)) for h, e in rows]
        except (TypeError, ValueError):
            raise ValueError("history: expected (hash, empty points) pairs of integers") from None
        if any(not (0 <= h < 2**64 and 0 <= e < 2**32) for h, e in pairs):
            raise ValueError("history: a hash or an empty-point count out of range")
        return np.array(pairs, dtype=np.uint64).reshape(len(pairs), 2)

    def _params(self, board, komi: float) -> np.ndarray:
        c = self.config
        params = np.zeros(tk.NPARAMS, dtype=np.float64)
        params[tk.P_KOMI] = komi
        params[tk.P_EQUIV] = c.equiv
        params[tk.P_UCT] = c.uct
        params[tk.P_EXPAND] = self.expand_threshold(board.size)
        params[tk.P_PRIOR] = c.prior
        params[tk.P_CAP] = move_cap(board.size)
        params[tk.P_POLICY] = policy_kind(c.policy)
        if c.policy == "heavy" and board.empty_points <= c.late_nakade * board.size * board.size:
            params[tk.P_POLICY] = policy_id("heavy-nakade")  # SearchConfig.late_nakade
        params[tk.P_KNOWLEDGE] = tk.KNOWLEDGE.index(c.knowledge)
        params[tk.P_SHARED] = 1.0 if self.tree_parallel() else 0.0
        params[tk.P_CRIT] = c.crit
        params[tk.P_CRIT_MIN] = c.crit_min_visits
        params[tk.P_SCORE] = c.score_weight
        params[tk.P_REJECT] = round(1000 * self.self_atari_rate(board.size))
        return params

    def self_atari_rate(self, size: int) -> float:
        """How often this search's heavy playouts redraw a self-atari of two stones or more on a board of `size`:
        SearchConfig.self_atari_rate, or default_self_atari_rate's."""
        given = self.config.self_atari_rate
        return default_self_atari_rate(size) if given is None else given

    def expand_threshold(self, size: int) -> float:
        """The expansion threshold of this search's trees on a board of `size`: SearchConfig.expand_threshold, or
        default_expand_threshold's."""
        given = self.config.expand_threshold
        return default_expand_threshold(size, self.config.policy) if given is None else given

    def _default_memory_mb(self, size: int, seconds: float | None = None, playouts: int | None = None) -> int:
        """default_memory_mb for this search's trees on a board of `size`, which expand at expand_threshold(size)."""
        return default_memory_mb(size, seconds, self.expand_threshold(size), playouts)

    def tree_parallel(self) -> bool:
        """True if the threads grow one tree (SearchConfig.parallel "tree" with more than one thread)."""
        return self.config.parallel == "tree" and self.config.threads > 1

    def _ensure_trees(self, geometry) -> None:
        """The trees for a board's geometry, made once: together they hold SearchConfig.memory_mb, or else
        default_memory_mb's for the searches' budgets so far (_size_trees). Their arrays are mapped, not touched,
        so a tree takes memory only as it fills; a game's searches reuse the subtree of the position reached,
        which can grow to several budgets' nodes (two 9x9 self-play games at 36,400 heavy playouts a move reached
        3.0 and 4.3), where trees sized for two budgets were collected 25 and 17 times in 80 and 63 moves
        (bench/RESULTS.md, "A tree's room")."""
        threads = self.config.threads
        trees, workers = (1, threads) if self.tree_parallel() else (threads, 1)
        if self._geometry is geometry and len(self.trees) == trees:
            return
        memory_mb = self.config.memory_mb or self._default_memory_mb(geometry.size)
        max_nodes, max_edges = self._tree_size(geometry, memory_mb)
        self.trees = [SearchTree(geometry, max_nodes, max_edges, self.config.seed * 1000 + k + 1, self.config.prior,
                             self.expand_threshold(geometry.size), self.config.policy,
                             PLAYOUT_PATTERNS[self.config.playout_patterns], self.config.replies, workers)
                       for k in range(trees)]
        self._geometry = geometry

    def _tree_size(self, geometry, memory_mb: float) -> tuple[int, int]:
        """(nodes, edges) of each tree when the trees share memory_mb (search_room.tree_size)."""
        return tree_size(geometry, memory_mb, 1 if self.tree_parallel() else self.config.threads)

    def _size_trees(self, geometry, seconds: float | None, open_ended: bool, playouts: int | None = None) -> None:
        """Without SearchConfig.memory_mb, give the trees default_memory_mb for a search of `seconds` or `playouts` if
        they have less (SearchTree.grow; they never shrink: a game's trees keep what its longest move gave them),
        and let an open-ended search's trees (an analysis, which has no budget) grow as they fill, up to
        memory_ceiling_mb (SearchTree.allowed). A tree that fills, and may not grow, is collected."""
        allowed = (0, 0)  # no more than each tree has
        if not self.config.memory_mb:
            nodes, edges = self._tree_size(geometry, self._default_memory_mb(geometry.size, seconds, playouts))
            for tree in self.trees:
                tree.grow(nodes, edges)
            if open_ended:
                allowed = self._tree_size(geometry, memory_ceiling_mb())
        for tree in self.trees:
            tree.allowed = (max(allowed[0], tree.capacity[0]), max(allowed[1], tree.capacity[1]))

    def _search(self, board, color, komi, legal, seconds, playouts, stop, progress, interval, start,
                decide: bool, history=(), handicap=(0, 0), time_limit=None) -> SearchResult:
        """Set the trees' root at (board, color), grow them in a search_run.Run on the config's threads until it
        ends, and return the result (with `decide`, a genmove's: it may resign, and dynamic komi steps)."""
        params = self._params(board, komi)
        dynamic = decide and self.config.dynamic_komi
        if dynamic:
            phase = handicap_extra(color, handicap[0], handicap[1], board.size, komi)
            params[tk.P_EXTRA] = self.dynamic_komi.black_extra(color) if phase is None else phase
            dynamic = phase is None  # the handicap phase's komi holds for the whole search
        rows = self._history(history)
        params[tk.P_HISTORY] = len(rows)
        self._ensure_trees(board.geometry)
        self._size_trees(board.geometry, seconds, open_ended=seconds is None and playouts is None, playouts=playouts)
        for tree in self.trees:
            tree.set_root(board, color, legal, params, rows)
        collected = sum(tree.collections for tree in self.trees)
        shared = SharedRoot(self.trees) if self.config.share_root and len(self.trees) > 1 else None
        self._shared = shared
        run = Run(self, board, color, params, shared, stop, start, seconds, playouts, time_limit, decide, dynamic)
        threads = self.config.threads
        try:
            if progress is None and threads == 1:
                run.work(0)
            else:
                with ThreadPoolExecutor(max_workers=threads) as pool:
                    futures = [pool.submit(run.work, k) for k in range(threads)]
                    # a report every `interval`, until the threads end (stopped, or at the search's end): a
                    # sleep of the interval kept a stopped analysis, or a genmove's, waiting its whole length
                    while progress is not None and wait(futures, timeout=interval).not_done:
                        progress(self._result(board, color, start, decide=False, lines=True))
                    for f in futures:
                        f.result()
        finally:
            if shared is not None:
                shared.end()
            self._shared = None
        if run.banking:
            self.bank.settle(color, playouts, sum(tree.iterations for tree in self.trees))
        extra = float(params[tk.P_EXTRA])
        result = self._result(board, color, start, decide=decide, giving=extra != 0, lines=progress is not None)
        result.stopped = run.why
        result.extra_komi = extra
        result.collections = sum(tree.collections for tree in self.trees) - collected
        return result

    def adjust_komi(self, color: int, params) -> None:
        """One dynamic komi step from the root's win rate over all its moves (once it has MIN_VISITS)."""
        visits, wins, _ = self._root_totals()
        total = sum(visits.values())
        if total >= MIN_VISITS:
            self.dynamic_komi.adjust(color, sum(wins.values()) / total)
            params[tk.P_EXTRA] = self.dynamic_komi.black_extra(color)

    def _root_totals(self) -> tuple[dict[int, float], dict[int, float], list[dict[int, float]]]:
        """Root move -> real visits and wins summed over the threads' trees, and each tree's visits."""
        visits: dict[int, float] = {}
        wins: dict[int, float] = {}
        per_tree = []
        shared = self._shared  # while a shared search runs, each tree's own statistics
        for k, tree in enumerate(self.trees):
            moves, rn, rw = tree.root_edges() if shared is None else shared.own_root_edges(k)
            own = dict(zip(moves.tolist(), rn.tolist()))
            per_tree.append(own)
            for m, w in zip(moves.tolist(), rw.tolist()):
                visits[m] = visits.get(m, 0.0) + own[m]
                wins[m] = wins.get(m, 0.0) + w
        return visits, wins, per_tree

    def root_rave(self) -> dict[str, RaveRow]:
        """GTP name -> RaveRow of each root move of the last search, its rows summed over the threads' trees;
        value is the RAVE blend without criticality's gain or the UCT term (SearchConfig.crit, .uct)."""
        if self._geometry is None:
            return {}
        sums: dict[int, np.ndarray] = {}
        for tree in self.trees:
            moves, rows = tree.root_rows()
            for m, row in zip(moves.tolist(), rows):
                sums[m] = sums[m] + row if m in sums else row
        equiv = float(self.config.equiv)
        out = {}
        for m, row in sums.items():
            n, w, an, aw = row.tolist()  # Python floats
            beta = an / (an + n + an * n / equiv) if an + n > 0 else 0.0
            q = w / n if n > 0 else 0.5
            qa = aw / an if an > 0 else 0.5
            out[self._geometry.name(m)] = RaveRow(n, w, an, aw, beta, (1.0 - beta) * q + beta * qa)
        return out

    def root_visits(self) -> list[float]:
        """The root moves' real visits, summed over the trees (in no particular order): with one tree, a
        third of _root_totals' cost, which a banking search pays CHECKS times."""
        if len(self.trees) == 1:
            return self.trees[0].root_edges()[1].tolist()
        return list(self._root_totals()[0].values())

    def _root_knowledge(self) -> tuple[dict[int, float], dict[int, tuple[float, float]]]:
        """Root move -> its share of the prior's virtual wins (the search's prior belief, summing to
        1), and root move -> (mean, standard deviation) of black's final margin over the trees, in this
        search's playouts through it; for a move with fewer than SCORE_MIN_SAMPLES of them (in a reused tree,
        one this search hardly visited, whose visits are mostly earlier searches'), over all of this search's
        playouts, the position's: a single playout's margin, with a deviation of 0, read as a sure score."""
        prior_wins: dict[int, float] = {}
        stats: dict[int, np.ndarray] = {}
        for tree in self.trees:
            moves, kinds, scores = tree.root_knowledge()
            for m, kind, row in zip(moves.tolist(), kinds.tolist(), scores):
                prior_wins[m] = float(tk.KIND_WEIGHT[kind] * tk.KIND_VALUE[kind])
                stats[m] = stats[m] + row if m in stats else row.copy()
        total = sum(prior_wins.values())
        priors = {m: w / total for m, w in prior_wins.items()} if total > 0 else {}

        def mean_and_deviation(n: float, s: float, q: float) -> tuple[float, float]:
            mean = s / n
            return mean, float(np.sqrt(max(q / n - mean * mean, 0.0)))

        pooled = np.sum(list(stats.values()), axis=0) if stats else np.zeros(3)
        scores = {}
        for m, (n, s, q) in stats.items():
            if n >= SCORE_MIN_SAMPLES:
                scores[m] = mean_and_deviation(n, s, q)
            elif pooled[0] > 0:
                scores[m] = mean_and_deviation(*pooled)
        return priors, scores

    def is_close(self) -> bool:
        """True while the search is close (search_time.close) by the root's statistics over the trees."""
        visits, wins, _ = self._root_totals()
        return close(visits, wins)

    def stop_reason(self, elapsed: float, remaining: float, past_soft: bool) -> str:
        """Why a timed search should end now ("settled" or "clear"), or "" to go on (search_time.early_stop)."""
        visits, wins, _ = self._root_totals()
        iterations = sum(tree.iterations for tree in self.trees)
        return early_stop(visits, wins, iterations, elapsed, remaining, past_soft)

    def _result(self, board, color, start, decide: bool, giving: bool = False, lines: bool = False) -> SearchResult:
        """The search's result so far; with `decide`, RESIGN below the threshold, unless `giving` komi; with
        `lines`, the principal variation of every root move visited (`pvs`: what analysis reports show)."""
        visits, wins, per_tree = self._root_totals()
        total = int(sum(tree.iterations for tree in self.trees))
        elapsed = time.perf_counter() - start
        # the samples the sums hold, counted with them: a report read while a batch runs (kata-analyze's)
        # found up to a batch's samples more in the sums than its iterations so far said (owners of -9);
        # a read torn between a sample's points and its count is off by one sample at most, hence the clip
        sums = np.sum([tree.ownership for tree in self.trees], axis=0)
        ownership = np.clip(sums[board.geometry.points] / max(sums[-1], 1.0), -1.0, 1.0)
        if not visits or max(visits.values()) <= 0:
            return SearchResult(PASS, 0.5, total, elapsed, [PASS], {}, {}, ownership, color=color, size=board.size)
        priors, scores = self._root_knowledge()
        best = max(visits, key=lambda m: (visits[m], wins[m]))
        winrate = wins[best] / visits[best]
        def line(m: int) -> list[int]:  # m's principal variation in the tree that visited it most
            k = max(range(len(self.trees)), key=lambda k: per_tree[k].get(m, 0.0))
            return self.trees[k].principal_variation(m)

        pv = line(best)
        pvs = {m: pv if m == best else line(m) for m, n in visits.items() if n > 0} if lines else {}
        move = best
        threshold = self.config.resign_threshold
        if decide and threshold is not None and winrate < threshold and total >= 200 and not giving:
            move = RESIGN
        return SearchResult(
            move=move, winrate=winrate, playouts=total, seconds=elapsed, pv=pv,
            visits={m: int(n) for m, n in visits.items() if n > 0},
            winrates={m: wins[m] / visits[m] for m in visits if visits[m] > 0},
            ownership=ownership, color=color, priors=priors, scores=scores, size=board.size, pvs=pvs,
        )

    @staticmethod
    def _root_moves(board, color: int, legal_moves) -> np.ndarray:
        """The legal moves worth searching: legal ones that the playout rule allows (no own-eye fills). Moves of
        `legal_moves` the board forbids (a point taken, a suicide, the ko point) are left out: the caller's list
        narrows the board's rules (superko), never widens them."""
        s, _ = board._state()
        g = board.geometry
        if legal_moves is None:
            points = [int(p) for p in g.points if board.is_legal(color, int(p))]
        else:
            points = [p for p in (g.parse(v) for v in legal_moves) if p == PASS or board.is_legal(color, p)]
        moves = sorted(p for p in points if p != PASS and bk.is_playable(s, p, color))
        return np.array(moves, dtype=np.int32)

    @staticmethod
    def _passing_margin(board, color: int, komi: float) -> float | None:
        """Black's margin by the count least good for color if the position, scored now, wins for color
        however its doubtful stones are counted, else None. The counts: by
        area with every stone alive (how Tromp-Taylor counts), with the stones foogo judges dead removed
        (how it scores a finished game), and with those that uniform playouts judge dead removed, which
        is how GNU Go, the usual referee, scores a seki whose strings have no eye
        (game_score.final_margins; bench/RESULTS.md, "Dead stones read by heavy playouts"). By the
        first alone foogo passed with its dead stones on the board and lost the count."""
        sign = 1 if color == BLACK else -1
        alive = board.area_score(komi)
        if sign * alive <= 0:
            return None
        least = min((alive, *final_margins(board, komi)), key=lambda m: sign * m)
        return least if sign * least > 0 else None


def _seconds(name: str, value) -> float | None:
    """A search's time argument: None, or a number of seconds in (0, MAX_SECONDS]; ValueError naming it otherwise
    (nan never ended a search, and 0 or less passed at once)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)) \
            or not 0 < value <= MAX_SECONDS:
        raise ValueError(f"{name} must be seconds in (0, {MAX_SECONDS:g}], got {value!r:.40}")
    return float(value)


def warm_up_search(policy: str = "light", threads: int = 1, parallel: str = "root") -> None:
    """Compile (or load from numba's cache) the kernels of a search of this shape: two searches of 64
    playouts in a row on a 5x5 game, as in a game, the second reusing the first one's tree, which
    compacts it (tree.prune, also what a full tree's collection runs; without it, the first reuse
    after an install compiled prune inside its move)."""
    from .game import Game

    game = Game(5)
    search = Search(SearchConfig(playouts=64, policy=policy, resign_threshold=None, threads=threads,
                                 parallel=parallel))
    for _ in range(2):
        result = search.genmove(game.board, game.to_move, 0.5, game.legal_moves(game.to_move),
                                history=game.recent_positions(HISTORY))
        game.play(game.to_move, result.vertex)
