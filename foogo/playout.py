"""Random playouts: the playout loop any policy drives, and batches of playouts over threads (fan_out).

A playout continues a position to the end with the design card's rule: each
side picks among its playable points (never its own eyes; the opponent's
eye-like points only to capture; multi-stone suicide allowed; the ko point
removed), passing when there is none; the light policy picks uniformly, the
heavy ones by Go knowledge (policy_heavy.py), a custom one as it likes (custom_batch). It ends after two consecutive
passes or at a cap of 3 * size * size moves, which is counted and reported so
that a loop is visible and never hangs.

Randomness is a xorshift64* stream per playout, seeded from (seed, playout
index) by splitmix64: playout i of a batch is the same whatever the thread
count or the order in which threads run.

Policies sit behind one seam, `policy.choose(s, z, c, rng, policy, reject_permil, table)`:
the light (uniform) and heavy choosers live in policy_light.py and
policy_heavy.py, and the random stream in random_stream.py, below this
module. Kernels take the policy id (policy.LIGHT, HEAVY, HEAVY_NAKADE or
HEAVY_RACE); the Python API takes its name (one of policy.POLICIES), a custom policy function
or "module:function" naming one (custom_batch). This module knows nothing of trees or of GTP.
"""

from __future__ import annotations

import inspect
import re
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from . import board_kernels as bk
from .cores import default_threads  # noqa: F401 (read as playout.default_threads too)
from .geometry import geometry
from .jit import inline, jit_nogil, kernel, uncached_nogil
from .numbers import cut, shown, whole_value
from .patterns import PATTERN_TABLE  # noqa: F401 (read as playout.PATTERN_TABLE too)
from .policy import LIGHT, PASS, POLICIES, choose, choose_light_only, policy_id
from .policy_heavy import SELF_ATARI_REJECT_PERMIL
from .policy_light import allowed
from .random_stream import seed_rng


def move_cap(size: int) -> int:
    """The playout move cap for a board size: 3 * size * size."""
    return 3 * size * size


POLICY_ARGUMENTS = 5  # a custom policy's (s, z, color, rng, table)
BROKEN = 2  # a playout's `capped` when a custom policy chose a point it may not take (see custom_batch)
NO_REPLIES = np.zeros((0, 0), dtype=np.int32)  # play_out_with's replies for playouts without them: a
# constant in the kernels, so that the reply test compiles away


@kernel
def playout(s, z, zob, rng, cap, trace, owners, policy, table):
    """Play position (s, z) out in place with a built-in policy id (policy.LIGHT, HEAVY...; table: the
    heavy policies' patterns, see patterns.py), side to move first.

    trace (int32) receives point * 2 + colour - 1 of each stone played while it has room;
    owners (int8[P]) receives the final owner of each point (see board_kernels.area); pass
    empty arrays for neither. Returns (black-minus-white area score, stones played,
    1 if the cap was hit else 0)."""
    return play_out_with(s, z, zob, rng, cap, trace, owners, choose, policy, SELF_ATARI_REJECT_PERMIL, table,
                         NO_REPLIES, True)


@inline
def last_good_reply(s, z, c, replies):
    """c's stored reply to the last move (replies[c - 1, last move]; -1 for none), if c may take it
    now (policy_light.allowed), else PASS: the last-good-reply rule (Drake's LGRF-1, whose table the
    search keeps; see learn_replies)."""
    last = np.int64(s[bk.M_LAST])
    if last < 0:
        return PASS
    r = np.int64(replies[c - 1, last])
    if r >= 0 and allowed(s, z, c, r):
        return r
    return PASS


@inline
def learn_replies(trace, ntrace, winner, replies):
    """The last-good-reply tables' update after an iteration (Drake's LGRF-1): along the stones it
    played (trace[:ntrace], point * 2 + colour - 1), each move of the winner becomes its reply to
    the opponent's move just before, and a move of the loser that is its stored reply to that
    move is forgotten (-1). Moves after a pass (two stones of one colour in a row) are skipped."""
    for j in range(1, ntrace):
        before = trace[j - 1]
        v = trace[j]
        if (v ^ before) & 1 == 0:
            continue
        c = (v & 1) + 1
        prev = before >> 1
        if c == winner:
            replies[c - 1, prev] = v >> 1
        elif replies[c - 1, prev] == v >> 1:
            replies[c - 1, prev] = -1


@inline
def play_out_with(s, z, zob, rng, cap, trace, owners, chooser, policy, reject_permil, table, replies, full):
    """playout with any chooser(s, z, c, rng, policy, reject_permil, table) -> point or PASS: the built-in choose,
    or a custom policy's checked chooser, which answers a point below PASS when its policy broke
    the rule (the playout then stops, `capped` BROKEN). With a replies table (int32[2, P]; NO_REPLIES
    for none) a side first plays its last good reply to the last move when it may (last_good_reply).
    full: the moves keep the Zobrist hash and the empty-point bitset (board_kernels.play_inline);
    False (play_scratch) only for a position thrown away after the playout and a built-in chooser,
    which reads neither. A constant at every call, so that LLVM keeps one of the two."""
    replying = replies.shape[0] > 0
    c = np.int64(s[bk.M_TO_MOVE])
    passes = np.int64(s[bk.M_PASSES])
    moves = 0
    capped = 0
    room = trace.shape[0]
    while passes < 2:
        if moves >= cap:
            capped = 1
            break
        p = last_good_reply(s, z, c, replies) if replying else PASS
        if p == PASS:
            p = chooser(s, z, c, rng, policy, reject_permil, table)
        if p < PASS:
            capped = BROKEN
            break
        if p == PASS:
            bk.play_pass(s, c)
            passes += 1
        else:
            if full:
                bk.play_inline(s, z, zob, p, c)
            else:
                bk.play_scratch(s, z, zob, p, c)
            passes = 0
            if moves < room:
                trace[moves] = p * 2 + c - 1
            moves += 1
        c = 3 - c
    return bk.area(s, owners), moves, capped


@jit_nogil
def playout_batch(s0, z0, zob, seed, first, cap, scores, moves, capped, policy, table):
    """Run playouts first .. first + len(scores) - 1 of a seeded run from (s0, z0), filling the arrays."""
    s, z, rng, no_trace, no_owners = batch_scratch(s0, z0)
    _batch_into(s0, z0, s, z, rng, no_trace, no_owners, zob, seed, first, cap, scores, moves, capped, choose,
                policy, table, False)


@jit_nogil
def light_batch(s0, z0, zob, seed, first, cap, scores, moves, capped, policy, table):
    """playout_batch for policy LIGHT (run_playouts' and `foogo bench`'s light playouts, the same playouts):
    its own kernel, with none of the heavy rules in it, so that a fresh install compiles it in a
    fraction of playout_batch's time."""
    s, z, rng, no_trace, no_owners = batch_scratch(s0, z0)
    _batch_into(s0, z0, s, z, rng, no_trace, no_owners, zob, seed, first, cap, scores, moves, capped,
                choose_light_only, policy, table, False)


@jit_nogil
def batch_scratch(s0, z0):
    """A batch's scratch arrays: copies of the position, a random stream, no trace and no owners.
    Allocated here, outside the kernels, which do not allocate; shared by every batch driver."""
    return (s0.copy(), z0.copy(), np.zeros(1, dtype=np.uint64), np.empty(0, dtype=np.int32),
            np.empty(0, dtype=np.int8))


@inline
def _batch_into(s0, z0, s, z, rng, no_trace, no_owners, zob, seed, first, cap, scores, moves, capped, chooser,
                policy, table, full):
    """The loop of a batch, with any chooser (see play_out_with; full: False only for the built-in
    choose), on the caller's scratch arrays."""
    for i in range(scores.shape[0]):
        bk.copy_position(s0, z0, s, z)
        seed_rng(rng, seed, first + i)
        scores[i], moves[i], capped[i] = play_out_with(s, z, zob, rng, cap, no_trace, no_owners, chooser,
                                                       policy, SELF_ATARI_REJECT_PERMIL, table, NO_REPLIES, full)


# ---------------------------------------------------------------- custom policies

class PolicyError(ValueError):
    """A custom playout policy that does not compile as one or broke the playout rule: the message names it (a
    policy's own exception, raised inside its playouts, comes through as it is)."""


_CUSTOM_BATCHES: dict = {}
_CHECKED: dict = {}


def checked_chooser(policy):
    """A chooser (play_out_with's signature) calling custom `policy` and answering PASS - 1, which
    stops the playout, when it chose a point it may not take (see custom_batch)."""
    checked = _CHECKED.get(policy)
    if checked is not None:
        return checked

    @uncached_nogil
    def checked(s, z, c, rng, _policy, _reject_permil, table):
        p = policy(s, z, c, rng, table)
        if p == PASS:
            return PASS
        if p < 0 or p >= s[bk.M_P] or bk.legality(s, p, c, True) != bk.LEGAL:
            return PASS - 1
        return p

    _compile_or_refuse(checked, policy)
    _CHECKED[policy] = checked
    return checked


def _compile_or_refuse(checked, policy) -> None:
    """Compile a custom policy's checked chooser now, for a position's argument types; ValueError with numba's
    own reason in a line for a policy that does not type as one (a point that is no integer, say): the batch
    or tree kernel around it printed a page of compiler output."""
    from numba import typeof, types
    from numba.core.errors import NumbaError

    g = geometry(2)  # a batch's own scratch arrays (their owners' types): the smallest board's
    s, z, rng, _, _ = batch_scratch(*bk.new_state(g.size, g.width, g.npoints, g.nwords))
    name = policy_label(policy)
    arguments = (typeof(s), typeof(z), types.int64, typeof(rng), typeof(PATTERN_TABLE))
    try:
        checked.compile(arguments[:4] + (types.int64, types.int64) + arguments[4:])
    except NumbaError as error:
        if any(signature.return_type == types.none for signature in policy.nopython_signatures):
            raise PolicyError(f"the playout policy {name} answers nothing: it returns None, or raises on every "
                             "path (it answers a point, an integer)") from None
        text = re.sub(r"\x1b\[[0-9;]*m", "", str(error))  # numba's highlighting
        lines = [line.strip() for line in text.splitlines() if line.strip()]
        at = next((i for i, line in enumerate(lines) if not line.startswith(("Failed in", "During:", "File"))), 0)
        reason = " ".join(lines[at:at + 2])  # numba's reason, and the signature it names
        raise PolicyError(f"the playout policy {name} does not compile as one (it answers a "
                         f"point, an integer): {reason[:300]}") from None
    answers = [signature.return_type for signature in policy.nopython_signatures if signature.args == arguments]
    if answers and types.unliteral(answers[0]) not in types.signed_domain:  # (`return PASS` types as a literal)
        # an unsigned point, unified with PASS in the checks, made a float that the kernels around failed on
        raise PolicyError(f"the playout policy {name} answers {answers[0]}, where a point is a signed integer "
                         "(PASS is -1)")


def policy_label(policy) -> str:
    """A playout policy as a message names it: a name or "module:function" as given, a function by its name."""
    if isinstance(policy, str):
        return shown(policy)
    function = getattr(policy, "py_func", policy)
    return getattr(function, "__qualname__", None) or repr(policy)


def custom_batch(policy):
    """The batch kernel (playout_batch's signature) for a custom playout policy, compiled on first
    use (numba cannot cache kernels specialised on a function, so each process compiles it once).

    A custom policy is a numba function `policy(s, z, color, rng, table) -> point` (choose_heavy's
    arguments; policy.choose, the built-in seam, takes the policy id too): s and z the position, read
    with board_kernels' accessors and never written (compiled code: a write is not caught), color the
    side to move, rng the playout's random stream (random_stream.random_below: a seed reproduces the
    playouts only when the policy draws from it), table the heavy policy's patterns; it answers a
    padded point or PASS, an integer. The point must be empty, not the ko point and not a single-stone
    suicide (bk.legality with suicide allowed): a policy that breaks this stops its playout, which
    run_playouts reports as a ValueError. Its kernels are kept for the process's life (_CUSTOM_BATCHES,
    tree._CUSTOM_ITERATIONS: about 15 MB for each new function)."""
    batch = _CUSTOM_BATCHES.get(policy)
    if batch is not None:
        return batch
    checked = checked_chooser(policy)

    # playout_batch with the checked chooser (a cached function cannot take the chooser: numba would
    # miss its cache and add a file to it at every start)
    @uncached_nogil
    def batch(s0, z0, zob, seed, first, cap, scores, moves, capped, _policy, table):
        s, z, rng, no_trace, no_owners = batch_scratch(s0, z0)
        _batch_into(s0, z0, s, z, rng, no_trace, no_owners, zob, seed, first, cap, scores, moves, capped, checked,
                    0, table, True)  # a custom policy may read the hash and the empty set

    _CUSTOM_BATCHES[policy] = batch
    return batch


def custom_policy_function(policy):
    """The custom policy function (see custom_batch) that `policy` is or names ("module:function"),
    or None for a built-in one (a name of policy.POLICIES); ValueError for anything else."""
    if isinstance(policy, str) and ":" not in policy:
        try:
            policy_id(policy)
        except ValueError as error:  # it names the built-in policies
            raise ValueError(f"{error}, or 'module:function' naming a custom policy") from None
        return None
    if isinstance(policy, str):
        import importlib
        module, _, name = policy.partition(":")
        try:
            policy = getattr(importlib.import_module(module), name)
        except Exception as error:  # noqa: BLE001 (a missing module, a relative name, a module that fails to load)
            raise ValueError(f"cannot load the playout policy {cut(policy, 200)}: {type(error).__name__}: "
                             f"{cut(str(error), 200)}") from None
    if not callable(policy) or not hasattr(policy, "py_func"):
        raise ValueError(f"a playout policy is 'light', 'heavy', 'module:function' or a numba function, "
                         f"not {shown(policy)}")
    try:  # checked here: numba's typing error for a wrong argument count is a page of compiler output
        inspect.signature(policy.py_func).bind(*range(POLICY_ARGUMENTS))
    except (TypeError, ValueError):
        raise ValueError(f"a playout policy takes (s, z, color, rng, table); {policy.py_func.__name__} takes "
                         f"{inspect.signature(policy.py_func)}") from None
    return policy


def policy_kind(policy) -> int:
    """The policy id the kernels take for any policy run_playouts accepts: policy_id's for the
    built-in ones, LIGHT for a custom one (its tree priors are light's); ValueError otherwise.
    Builds no kernel."""
    return LIGHT if custom_policy_function(policy) is not None else policy_id(policy)


def resolve_policy(policy):
    """A policy as the kernels take it: (policy id, batch kernel) for "light", "heavy", a custom policy
    function (see custom_batch) or "module:function" naming one; ValueError otherwise."""
    function = custom_policy_function(policy)
    if function is None:
        kind = policy_id(policy)
        return kind, light_batch if kind == LIGHT else playout_batch
    return LIGHT, custom_batch(function)


# ---------------------------------------------------------------- the Python API

@dataclass
class PlayoutBatch:
    """Results of a batch: per-playout scores (black minus white, no komi), stones played, cap hits."""

    scores: np.ndarray  # int32
    moves: np.ndarray  # int32
    capped: np.ndarray  # int8
    seconds: float
    threads: int

    def wins(self, komi: float = 0.0) -> tuple[int, int, int]:
        """(black wins, white wins, draws) at this komi."""
        margin = self.scores - komi
        return int((margin > 0).sum()), int((margin < 0).sum()), int((margin == 0).sum())


MAX_THREADS = 256  # threads a run or a search may ask for: more cores than any machine foogo runs on has
MAX_BATCH = 100_000_000  # playouts one run_playouts may hold: 9 bytes of results each, 900 MB at most
MAX_SEED = 2**63 - 1  # seeds and playout indices are int64 in the kernels (a negative seed wraps, as the search's)


def run_numbers(count, threads, seed, first) -> tuple[int, int, int, int]:
    """A run's playout count, threads, seed and first playout index, checked before any work: whole numbers,
    count 0 .. MAX_BATCH, threads 1 .. MAX_THREADS, seed an int64, first .. first + count within 0 .. MAX_SEED."""
    count, threads, seed, first = (whole_value(name, value) for name, value in
                                   (("playout count", count), ("threads", threads), ("seed", seed), ("first", first)))
    if not 0 <= count <= MAX_BATCH:
        raise ValueError(f"playout count must be from 0 to {MAX_BATCH:,} (a batch keeps each playout's result), "
                         f"got {count}")
    if not 1 <= threads <= MAX_THREADS:
        raise ValueError(f"threads must be from 1 to {MAX_THREADS}, got {threads}")
    if not -MAX_SEED - 1 <= seed <= MAX_SEED:
        raise ValueError(f"seed must be from -2**63 to 2**63 - 1, got {seed}")
    if not 0 <= first <= MAX_SEED - count:
        raise ValueError(f"first must be from 0 to 2**63 - 1 less the playout count, got {first}")
    return count, threads, seed, first


def fan_out(count: int, threads: int, work) -> None:
    """Call work(k, a, b) for playouts a .. b - 1 of 0 .. count - 1 cut into `threads` near-equal slices
    (slice k; the empty ones skipped), each on a thread of its own when there are two or more."""
    bounds = np.linspace(0, count, threads + 1).astype(int)
    jobs = [(k, a, b) for k, (a, b) in enumerate(zip(bounds[:-1].tolist(), bounds[1:].tolist())) if b > a]
    if len(jobs) <= 1:
        for job in jobs:
            work(*job)
    else:
        with ThreadPoolExecutor(max_workers=len(jobs)) as pool:
            list(pool.map(lambda job: work(*job), jobs))


def play_out(board, seed: int = 0, index: int = 0, policy: str = "light"):
    """Play a copy of `board` out with a built-in policy (its name, one of policy.POLICIES); return (copy, score,
    stones played, capped). ValueError for any other policy (custom ones play through run_playouts)."""
    _, _, seed, index = run_numbers(1, 1, seed, index)
    if not isinstance(policy, str) or ":" in policy:
        raise ValueError(f"play_out takes a built-in policy's name ({', '.join(POLICIES)}), not "
                         f"{policy_label(policy)}: a custom policy plays through run_playouts")
    kind = policy_id(policy)
    result = board.copy()
    rng = np.zeros(1, dtype=np.uint64)
    seed_rng(rng, seed, index)
    s, z = result._state()
    score, moves, capped = playout(s, z, result.geometry.zobrist, rng, move_cap(result.size),
                                   np.empty(0, dtype=np.int32), np.empty(0, dtype=np.int8), kind, PATTERN_TABLE)
    return result, int(score), int(moves), bool(capped)


def run_playouts(board, count: int, seed: int = 0, threads: int = 1, first: int = 0,
                 policy="light") -> PlayoutBatch:
    """Playouts first .. first + count - 1 of the run seeded `seed` from `board`, on `threads` threads,
    with a playout policy: a built-in one's name (policy.POLICIES), a custom policy (a numba function,
    see custom_batch) or "module:function" naming one.

    The results depend only on (board, seed, first, count, policy), never on the thread count (a custom
    policy's, when it draws its randomness from its rng). ValueError if a custom policy chose a point it may
    not take, or does not compile as one."""
    count, threads, seed, first = run_numbers(count, threads, seed, first)
    kind, batch = resolve_policy(policy)
    s0, z0 = board._state()
    zob = board.geometry.zobrist
    cap = move_cap(board.size)
    scores = np.zeros(count, dtype=np.int32)
    moves = np.zeros(count, dtype=np.int32)
    capped = np.zeros(count, dtype=np.int8)
    start = time.perf_counter()

    def work(k, a, b):
        batch(s0, z0, zob, seed, first + a, cap, scores[a:b], moves[a:b], capped[a:b], kind, PATTERN_TABLE)

    fan_out(count, threads, work)
    seconds = time.perf_counter() - start
    broken = np.flatnonzero(capped == BROKEN)
    if broken.size:
        raise PolicyError(f"the playout policy {policy_label(policy)} chose a point it may not take (occupied, ko "
                         f"or a single-stone suicide) in playout {first + int(broken[0])}")
    return PlayoutBatch(scores, moves, capped, seconds, threads)
