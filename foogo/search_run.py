"""A search's run: its threads' batches of iterations, and when the run ends.

`Run(search, ...)` holds one search's loop (search.Search._search makes one per search): each thread
runs batches of compiled iterations on its tree (or, with one shared tree, on its worker of it) in
`Run.work` until the run ends, and `why` says why: the budget, the time limit, a settled or clear best
move (search_time.py), a banking search's settled count (search_bank.py), out of playouts, a stop, or an
empty tree. Thread 0 alone decides what needs the whole search's root statistics (it asks the Search:
`is_close`, `stop_reason`, `root_visits`, `adjust_komi`); the others read what it decided.

It knows the search's trees and clocks, not the game: the Search gives it the position's parameters and
its config.
"""

from __future__ import annotations

import math
import threading
import time
from typing import TYPE_CHECKING

import numpy as np

from . import tree as tk
from .dynamic_komi import STEP
from .playout import custom_policy_function
from .search_bank import CHECKS
from .search_bank import settled as bank_settled
from .search_config import MAX_SECONDS
from .search_time import EARLY_CHECK_SECONDS, SOFT, opening
from .search_tree import SearchTree
from .shared_root import SharedRoot

if TYPE_CHECKING:
    from .search import Search

BATCH_SECONDS = 0.005  # a custom policy's batches aim at this much work between clock checks (Run._adapt)


class Run:
    """One search's loop (Search._search): each thread runs batches of iterations in `work` until the
    search ends, and `why` says why it did. Thread 0 alone extends a timed search still close at its budget
    towards its time limit, asks whether it may stop early, settles a banking search and steps dynamic komi;
    the others read what it decided."""

    def __init__(self, search: Search, board, color: int, params: np.ndarray, shared: SharedRoot | None,
                 stop: threading.Event | None, start: float, seconds: float | None, playouts: int | None,
                 time_limit: float | None, decide: bool, dynamic: bool):
        config = search.config
        self.search, self.color, self.params, self.shared, self.stop = search, color, params, shared, stop
        self.start = start
        self.dynamic = dynamic
        # the deadline: the budget's; a count's search, or an analysis, ends after a day
        self.due = start + (MAX_SECONDS if seconds is None else seconds)
        self.hard = None  # the time limit, if a timed search has one beyond its budget
        if seconds is not None and time_limit is not None and time_limit > seconds:
            self.hard = start + time_limit
        self.ends = self.due  # when the search ends: thread 0 moves it to `hard` while the search is close near
        # the deadline, and back when it no longer is
        self.closed = -math.inf  # when thread 0 last asked whether the search is close
        self.extended = False  # it ran past its deadline, towards the limit (not merely close just before it)
        self.check_early = decide and seconds is not None  # a genmove's timed search may stop early ...
        self.soft = None  # ... and, past this (SOFT of its budget, after the opening), when clear
        if self.check_early and seconds is not None and not opening(board):
            self.soft = start + SOFT * seconds
        self.banking = False  # a playout count that is a game's average (SearchConfig.bank)
        self.playout_limit = playouts  # the count, and what the bank lends a banking search
        self.check_every = 0  # a banking search's playouts between settling checks
        self.checked = 0  # the playouts at its last check
        if decide and playouts is not None and config.bank:
            self.banking = True
            self.playout_limit = playouts + search.bank.extension(color, playouts)
            self.check_every = max(1, playouts // CHECKS)
        threads = config.threads
        limit = self.playout_limit
        self.quota = [None if limit is None else limit // threads + (1 if k < limit % threads else 0)
                      for k in range(threads)]
        # ~5 ms of work between clock checks (and returns to Python, some 20 us each): a light
        # iteration costs about a quarter of a heavy one. (A run ends early when the tree fills, for
        # its collection: tree.iterate.) Dynamic komi steps, and threads share their roots, where a
        # batch ends: they keep the batch they were measured with
        light = config.policy == "light" and not config.dynamic_komi and threads == 1
        self.batch = max(8, (65536 if light else 16384) // (board.size * board.size))
        # a custom policy's cost is unknown (one took 3 ms a move, and a 0.5-s search 84 s): where time or a stop
        # ends the search, each thread's batches start at one iteration and follow BATCH_SECONDS (adapt);
        # a search of a count alone keeps the fixed batch, and so its threads' turns at their batches' ends
        self.adaptive = custom_policy_function(config.policy) is not None and (seconds is not None or stop is not None)
        self.batches = [1 if self.adaptive else self.batch] * threads
        self.shared_tree = search.tree_parallel()
        self.ended = threading.Event()  # set by the thread that ends the search before the others see it end
        self.why = "playouts" if playouts is not None else "budget"

    def work(self, k: int) -> None:
        """Thread k's batches, until the search ends: stopped, past its end, stopping early, settled, out
        of playouts or with an empty tree."""
        search = self.search
        tree, worker = (search.trees[0], k) if self.shared_tree else (search.trees[k], 0)
        last_check = self.start
        adjusted = 0  # thread 0's iterations at the last dynamic komi step
        first = k == 0  # thread 0 runs one batch whatever the time: a search of no playouts passed (--time 0.001)
        while not self.ended.is_set():
            if self.stop is not None and self.stop.is_set():
                self.why = "stop"
                return
            now = time.perf_counter()
            if k == 0:
                self._extend_while_close(now)
            if not first and self._past_end(k, now):
                self.why = "limit" if self.ends == self.hard else ("extended" if self.extended else "budget")
                self.ended.set()
                return
            # not before this search has run: its rate, which the test needs, is unknown until then
            if k == 0 and self.check_early and tree.iterations > 0 and now - last_check >= EARLY_CHECK_SECONDS:
                last_check = now
                past_soft = self.soft is not None and now >= self.soft
                reason = search.stop_reason(now - self.start, self.ends - now, past_soft)
                if reason:
                    self.why = reason
                    self.ended.set()
                    return
            if k == 0 and self.banking and self._settles():
                self.ended.set()
                return
            n = self._batch(k, tree, worker)
            first = False
            if n <= 0:
                return
            began = time.perf_counter()
            if tree.run(n, self.params, worker) == 0 and tree.meta[tk.NODES] == 0:  # (a full tree is collected there)
                self.why = "empty"
                return
            if self.adaptive:
                self._adapt(k, n, time.perf_counter() - began)
            if self.shared is not None:
                self.shared.turn(k)
            if self.dynamic and k == 0 and tree.workers[worker].iterations - adjusted >= STEP:
                adjusted = tree.workers[worker].iterations
                search.adjust_komi(self.color, self.params)

    def _extend_while_close(self, now: float) -> None:
        """Thread 0, near the deadline of a timed search with a limit beyond it: every EARLY_CHECK_SECONDS,
        end at the limit if the search is close (search_time.close), at the deadline if not; and note when it
        runs past the deadline towards the limit (`extended`)."""
        if self.hard is None:
            return
        if now >= self.due - EARLY_CHECK_SECONDS and now - self.closed >= EARLY_CHECK_SECONDS:
            self.closed = now
            self.ends = self.hard if self.search.is_close() else self.due
        if self.ends == self.hard and now >= self.due:
            self.extended = True

    def _past_end(self, k: int, now: float) -> bool:
        """True if thread k ends the search now. While a limit lies beyond the budget, thread 0 alone ends it at the
        budget, for it first asks whether the search is still close: another thread that reached the budget while
        thread 0 ran a long batch (a slow machine) would end a close search before that."""
        waits = k != 0 and self.hard is not None and self.ends != self.hard and now < self.hard
        return now >= self.ends and not waits

    def _settles(self) -> bool:
        """Thread 0 of a banking search, every check_every playouts: True if its best move can no longer be
        overtaken within the playout limit (search_bank.settled)."""
        done = sum(tree.iterations for tree in self.search.trees)
        if done - self.checked < self.check_every:
            return False
        self.checked = done
        assert self.playout_limit is not None  # a banking search has a count
        if bank_settled(self.search.root_visits(), self.playout_limit - done):
            self.why = "settled"
            return True
        return False

    def _adapt(self, k: int, n: int, seconds: float) -> None:
        """Thread k's next batch after one of n iterations took `seconds` (a custom policy's timed or stoppable
        search): twice as many under half BATCH_SECONDS, up to the built-in policies' batch; half as many past
        twice it, down to one."""
        if seconds < BATCH_SECONDS / 2 and n >= self.batches[k]:
            self.batches[k] = min(2 * self.batches[k], self.batch)
        elif seconds > 2 * BATCH_SECONDS:
            self.batches[k] = max(1, self.batches[k] // 2)

    def _batch(self, k: int, tree: SearchTree, worker: int) -> int:
        """How many iterations thread k runs next: a batch, within its quota of a playout count (0 or less: done),
        and within a banking search's next check for thread 0."""
        n = self.batches[k]
        left = self.quota[k]
        if left is not None:
            n = min(n, left - tree.workers[worker].iterations)
            if self.banking and k == 0:
                n = min(n, self.check_every)
        return n
