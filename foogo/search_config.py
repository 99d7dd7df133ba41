"""How a search is set up: `SearchConfig`, the fields a `Search` is built from, each checked on construction.

A field out of its range raises `ConfigError`, which names the field and the rule, so that a command line can
name its own option for it (foogo gtp, and the bench scripts that take its tuning options). The ranges are the
engine's caps (MAX_PLAYOUTS, MAX_SECONDS, playout.MAX_THREADS, this machine's memory), so no configuration can
ask for unbounded time or memory. Each field's comment gives its default's measured reason where one was
measured (bench/RESULTS.md).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from . import tree as tk
from .gamma_table import LEARNED_PATTERN_TABLE
from .numbers import shown
from .patterns import PATTERN_TABLE
from .playout import MAX_THREADS, policy_kind
from .policy import LIGHT
from .search_room import EXPAND, machine_memory_mb

DEFAULT_PLAYOUTS = 5000
PLAYOUT_PATTERNS = {"mogo": PATTERN_TABLE, "learned": LEARNED_PATTERN_TABLE}  # SearchConfig.playout_patterns
PARALLEL = ("root", "tree")  # SearchConfig.parallel
MAX_SECONDS = 86400.0  # SearchConfig.seconds: a day (foogo gtp's --time and clocks stop at an hour); a search
#                        of a playout count, or an open-ended analysis, also ends after this long
MAX_PLAYOUTS = 10**12  # SearchConfig.playouts: more than a day of a 256-thread search (2e11 at 9x9's light rate)
MAX_PRIOR = 1e6  # SearchConfig.prior: the tree counts visits in float32 (exact to 2**24); a prior of 1e7 virtual
#                  visits drowned every playout (the search passed at move 1), 1e40 overflowed
MAX_EQUIV = 1e12  # SearchConfig.equiv: far past any AMAF weighting (3000 is tuned); 1e40 overflowed float32
EXPAND_HEAVY_SMALL = 3.0  # the expansion threshold of heavy searches on boards up to SMALL_BOARD x SMALL_BOARD ...
SMALL_BOARD = 9  # ... and search_room.EXPAND on the others (default_expand_threshold)
SELF_ATARI_RATE_SMALL = 0.6  # the heavy playouts' self-atari redraw rate in searches on boards up to SMALL_BOARD ...
SELF_ATARI_RATE = 1.0  # ... and on the others (default_self_atari_rate)


def default_expand_threshold(size: int, policy) -> float:
    """The expansion threshold when none is given: EXPAND_HEAVY_SMALL for a heavy policy's search on a board up to
    9x9, EXPAND otherwise. On 9x9 with the learned prior, against the stock Pachi 12.90 at equal CPU, expanding at
    3 won 67.4% of 360 games beside 5's 62.8% on the same seeds (+4.6 points: +3.7 in a pre-registered screen of
    160 games an arm, then +5.2, -3.9 to +14.3, in its confirming block of 200); 5 had won 70.0% of 100 beside
    8's 62.0% (+8.0, -5.1 to +20.7), and 16 lost 42.5% of 120 against 8 at equal time in self-play
    (bench/RESULTS.md, "Expansion at 3 visits", "Expansion thresholds again"). Light searches, and 13x13 and
    19x19, whose games against GNU Go were measured at 8, keep 8."""
    return EXPAND_HEAVY_SMALL if size <= SMALL_BOARD and policy_kind(policy) != LIGHT else EXPAND


def default_self_atari_rate(size: int) -> float:
    """How often a search's heavy playouts redraw a self-atari of two stones or more (rule (d) of
    policy_heavy.py) when SearchConfig.self_atari_rate is not given: 0.6 on boards up to 9x9 (Pachi's moggy
    selfatarirate), where the playouts of run_playouts, ownership and scoring keep 1.0. At 0.6, with the wide
    opening book and the prior of 13,247 games shipped beside it, foogo beat the engine before them against
    Pachi at equal CPU in a pre-registered screen and its confirming block (bench/results/pachi-9x9-stack-*.txt).
    Its cost, pinned by tests/test_search.py: where a side's one move fills a seki's shared liberty (a
    self-atari of its string), the search reads the seki later, passing from 8,000 playouts with
    policy_heavy.SEKI_GUARD (on) and from 12,000 without it (at 1.0 from 6,000; a game's 9x9 search makes
    30,500). 13x13 and 19x19, whose games against GNU Go were measured at 1.0, keep 1.0."""
    return SELF_ATARI_RATE_SMALL if size <= SMALL_BOARD else SELF_ATARI_RATE


class ConfigError(ValueError):
    """A SearchConfig field out of its range: `field` names it, `rule` says what it must be (the message is
    both, so that a command line can name its own option for the field)."""

    def __init__(self, field: str, rule: str):
        super().__init__(f"{field} {rule}")
        self.field = field
        self.rule = rule


@dataclass
class SearchConfig:
    """How to search: a budget (playouts per move or seconds per move), threads, policy, seed, resigning."""

    playouts: int | None = None
    seconds: float | None = None
    threads: int = 1
    policy: object = "light"  # playouts and priors: "light" (uniform), "heavy" (policy_heavy.py), "heavy-nakade",
    # "heavy-race" (policy.POLICIES), or a custom policy function or "module:function" (playout.custom_batch: its
    # playouts, light priors)
    seed: int = 0
    resign_threshold: float | None = 0.1  # resign below this win rate; None never resigns
    equiv: float = 1000.0  # RAVE equivalence parameter
    uct: float = 0.0  # UCT exploration constant (RAVE does the exploring)
    expand_threshold: float | None = None  # expand an edge's child once it has this many visits; None:
    # default_expand_threshold(the board's size, policy): 3 for heavy playouts on 9x9, else 8
    prior: float = 10.0  # weight of the prior in virtual visits
    playout_patterns: str = "mogo"  # the heavy policy's 3x3 shapes: "mogo" (patterns.PATTERNS, MoGo's hane, cut
    # and edge shapes) or "learned" (the shapes whose learned gamma is high: gamma_table.learned_pattern_table;
    # 23% slower playouts, and 38% against Pachi where mogo's gave 53.8%: bench/RESULTS.md)
    knowledge: str = "learned"  # the prior: "learned" (the gammas of features.py, fitted to games by
    # bench/learn_gammas.py: 53.8% of 200 games against Pachi where "rules" won 20.5%, bench/RESULTS.md) or
    # "rules" (captures, escapes, shapes: tree_priors.prior)
    replies: bool = False  # last good replies in the playouts (Drake's LGRF-1: playout.learn_replies)
    share_root: bool = True  # with threads, each tree's root sees every tree's statistics (shared_root.py):
    # 63.5% of 100 games against independent trees (bench/results/share-root-vs-independent-9x9-2t-30000po.txt)
    parallel: str = "root"  # with threads: "root", a tree per thread (share_root says whether their roots
    # share statistics), or "tree", one tree that every thread grows, with virtual loss (tree.iterate)
    memory_mb: int | None = None  # cap on the trees' memory, all threads together (foogo gtp --memory);
    # None: default_memory_mb(board size, the longest move's time budget so far, the expansion threshold, the
    # largest playout count so far)
    dynamic_komi: bool = False  # genmove gives komi while far ahead (dynamic_komi.py), carried across a game's moves
    crit: float = 0.0  # criticality's weight in the RAVE value (tree_select.crit_gain; Pachi's crit_rave is 1.1):
    # 0 leaves it out
    crit_min_visits: int = 2000  # criticality counts for a move once its node has more visits than this
    score_weight: float = 0.0  # the score's weight in a playout's result (tree_score.playout_result; Fuego's score
    # modification is 0.02): a larger win counts more, a larger loss less; 0 counts win or loss only. At 0.1:
    # 54.7% of 150 against Pachi beside the default's 62.3% (bench/RESULTS.md, "A score weight")
    late_nakade: float = 0.75  # with policy "heavy": a search whose board has at most this share of its points
    # empty plays heavy-nakade's playouts (policy_heavy.py: nakade sacrifices and vital points), from about move 21 on
    # 9x9; 0: never. Heavy-nakade reads the dead shapes heavy's playouts take for seki, but from the first move it
    # won no more games; from 0.75 on, 63.1% of 202 paired games against Pachi beside the default's 58.2% (+5.0
    # points, -2.3 to +12.1) at 7% more CPU a move (bench/RESULTS.md, "Heavy-nakade's playouts in the late game")
    self_atari_rate: float | None = None  # how often the heavy playouts' rule (d) redraws a self-atari of two
    # stones or more in this search (the rest are played); None: default_self_atari_rate(the board's size)
    bank: bool = False  # with a playout count: the count is a genmove's average; settled searches stop early
    # and bank what they save, close ones draw on it (search_bank.py)

    def __post_init__(self):
        try:
            policy_kind(self.policy)
        except ValueError as error:  # it names the policies, or what is wrong with a custom one
            raise ConfigError("policy", f"is wrong: {error}") from None
        if self.playouts is not None and not 1 <= self.playouts <= MAX_PLAYOUTS:
            raise ConfigError("playouts", f"must be from 1 to {MAX_PLAYOUTS:.0e}, got {shown(self.playouts)}")
        if self.seconds is not None and not 0 < self.seconds <= MAX_SECONDS:
            raise ConfigError("seconds", f"must be positive and at most {MAX_SECONDS:g} (a day), got {self.seconds}")
        if self.resign_threshold is not None and not 0.0 <= self.resign_threshold < 1.0:  # 1: resign every move
            raise ConfigError("resign_threshold", f"must be a win rate in [0, 1), got {self.resign_threshold}")
        if not 1 <= self.threads <= MAX_THREADS:
            raise ConfigError("threads", f"must be from 1 to {MAX_THREADS}, got {shown(self.threads)}")
        if self.self_atari_rate is not None and not 0.0 <= self.self_atari_rate <= 1.0:
            raise ConfigError("self_atari_rate", f"must be a share in [0, 1], got {shown(self.self_atari_rate)}")
        if not 0.0 <= self.late_nakade <= 1.0:
            raise ConfigError("late_nakade", f"must be a share of the board's points in [0, 1], "
                                              f"got {self.late_nakade}")
        if self.memory_mb is not None:
            machine = machine_memory_mb()
            if not self.memory_mb >= 1:
                raise ConfigError("memory_mb", f"must be at least 1, got {shown(self.memory_mb)}")
            if machine is not None and self.memory_mb > machine:  # a tree grown to it would exhaust the machine
                raise ConfigError("memory_mb", f"must be at most this machine's memory, {int(machine)} MB, "
                                                 f"got {shown(self.memory_mb)}")
        for name, low in (("prior", 0.0), ("uct", 0.0), ("expand_threshold", 1.0), ("crit", 0.0),
                          ("crit_min_visits", 0)):
            value = getattr(self, name)
            if value is None and name == "expand_threshold":
                continue
            if not (math.isfinite(value) and value >= low):
                raise ConfigError(name, f"must be a finite number >= {low:g}, got {shown(value)}")
        if self.playout_patterns not in PLAYOUT_PATTERNS:
            raise ConfigError("playout_patterns", f"must be one of {', '.join(PLAYOUT_PATTERNS)}, "
                                                  f"got {self.playout_patterns!r}")
        if self.knowledge not in tk.KNOWLEDGE:
            raise ConfigError("knowledge", f"must be one of {', '.join(tk.KNOWLEDGE)}, got {self.knowledge!r}")
        if self.parallel not in PARALLEL:
            raise ConfigError("parallel", f"must be one of {', '.join(PARALLEL)}, got {self.parallel!r}")
        if not (math.isfinite(self.equiv) and 0 < self.equiv <= MAX_EQUIV):
            raise ConfigError("equiv", f"must be a finite number > 0 and at most {MAX_EQUIV:.0e}, got {self.equiv}")
        if self.prior > MAX_PRIOR:
            raise ConfigError("prior", f"must be at most {MAX_PRIOR:.0e} (virtual visits), got {self.prior}")
        if not 0.0 <= self.score_weight < 0.5:  # below 0.5: every win counts more than every loss
            raise ConfigError("score_weight", f"must be a number in [0, 0.5), got {self.score_weight}")
