"""Compiled UCT-RAVE tree: the search iteration over it (its growth is tree_grow's).

A whole iteration runs in one compiled call without touching Python, and reads
as its five steps (`iterate`): descend (`_descend`: choose, play, expand at a
leaf), play out (`_play_out`), record what the search keeps beside the tree
(`_record`: replies, ownership, the root's margins), back up (`_back_up_path`)
and credit AMAF (`_credit_amaf`). The arrays and their fields are
tree_layout's, the choice at a node tree_select's, the knowledge a new node's
edges start with tree_priors', a node's creation and pruning tree_grow's, the
positions a tree move may not repeat tree_superko's, what a line is worth (a
playout's result, a line ended by two passes) tree_score's; this module re-exports the
layout's names and tree_grow's functions, so `tree.FIRST`, `tree.K_LEARNED`,
`tree.expand` and the like read as before. The AMAF update needs no lookup: the
colour that first played each point is a row too (work.firstc, over the same
span as a node's edges), and the update runs over whole rows, which LLVM
vectorises. These passes are most of the search's cost beyond its playouts.

Inside the tree moves follow the playout rule (no own-eye fills), the board
rule (no suicide, simple ko) and positional superko over the tree's line and
the game's last positions, which the caller gives (tree_superko.py); the root's
moves are given by the caller, who knows the game's rules. Nothing here knows
about time; of threads it knows only that several may share one tree (see
"threads sharing the tree").
"""

from __future__ import annotations

import collections

import numpy as np

from . import board_kernels as bk
from .intrinsics import atomic_add, atomic_cas, rdtsc
from .jit import PROFILE, inline, kernel, step, uncached_nogil
from .playout import BROKEN, checked_chooser, learn_replies, play_out_with
from .policy import choose
from .tree_grow import disable, expand, prune, real_stats  # noqa: F401 (disable, prune, real_stats: tree API)
from .tree_layout import *  # noqa: F401,F403 (the layout's names, read as tree.*)
from .tree_layout import (
    AN,
    AW,
    BEST,
    C_AMAF,
    C_BACKUP,
    C_COPY,
    C_DESCENT,
    C_EXPANSION,
    C_PLAYOUT,
    CHILD,
    COLOR,
    COUNT,
    CRIT_BO,
    CRIT_BW,
    CRIT_N,
    CRIT_WO,
    CYCLES,
    EXPAND_AT,
    FIRST,
    FULL,
    GROWING,
    NO_CHILD,
    NODES,
    OWNERSHIP_EVERY,
    P_CAP,
    P_CRIT,
    P_CRIT_MIN,
    P_EQUIV,
    P_EXPAND,
    P_EXTRA,
    P_HISTORY,
    P_KOMI,
    P_POLICY,
    P_PRIOR,
    P_REJECT,
    P_SCORE,
    P_SHARED,
    P_UCT,
    PASS,
    PLAYOUT_STONES,
    ROOT,
    SAMPLES,
    VIRTUAL_LOSS,
    VISITS,
    N,
    W,
    edge_base,
    edge_move,
    prior_visits,
)
from .tree_score import ender_of, playout_result, settle_start, settled
from .tree_select import (  # noqa: F401 (select_edge, crit_gain: tree API)
    best_edge,
    credit_and_screen,
    crit_gain,
    crit_screen,
    keep_best,
    pick,
    select_edge,
    select_uct,
)
from .tree_superko import history_floor, note_position, refuse, repeats

# A worker's scratch arrays travel as one named tuple, read by name on both sides (search_tree.Worker.work
# builds it; iterate's docstring says what each field is for)
Work = collections.namedtuple("Work", ("s", "z", "ls", "lz", "codes", "parts", "trace", "tstart", "path", "firstc",
                                       "earlier", "values", "owners", "ownership", "scores", "rng"))
WORK_FIELDS = Work._fields


@kernel
def run_iterations(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, work, params, table, gammas, replies, count):
    """iterate with the built-in playout policies (params[P_POLICY]) on a tree one thread grows; see iterate."""
    return iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, work, params, table, gammas, replies, count, choose,
                   False, False)


@kernel
def run_shared_iterations(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, work, params, table, gammas, replies, count):
    """run_iterations on a tree several threads grow at once (params[P_SHARED] set). A kernel of its own,
    so that run_iterations has none of the atomic steps: with them in it, as branches on params, the
    one-thread search lost 3% of its speed."""
    return iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, work, params, table, gammas, replies, count, choose,
                   False, True)


_CUSTOM_ITERATIONS: dict = {}


def custom_iterations(policy):
    """run_iterations (and run_shared_iterations: params[P_SHARED] decides) for a custom playout policy
    (playout.custom_batch says what one is), compiled on first use; it returns -1 when the policy chose
    a point it may not take."""
    kernel_ = _CUSTOM_ITERATIONS.get(policy)
    if kernel_ is not None:
        return kernel_
    checked = checked_chooser(policy)

    @uncached_nogil
    def kernel_(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, work, params, table, gammas, replies, count):
        return iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, work, params, table, gammas, replies, count,
                       checked, True, params[P_SHARED] > 0)

    _CUSTOM_ITERATIONS[policy] = kernel_
    return kernel_


# ---------------------------------------------------------------- threads sharing the tree

# With params[P_SHARED] several threads run iterate on one tree at once, each with scratch arrays of
# its own (tree parallelism, as in Pachi and Fuego). What needs it is atomic: a descent's virtual
# loss, a backup's visit and win, the claim and publication of a new node (_grow) and the allocation
# of its room (_allocate's lock). The AMAF rows and a node's BEST are updated as they are with one
# thread: two threads crediting one node's row at the same instant can lose one of the credits, a
# rare and harmless loss (Fuego's lock-free search accepts the same; Enzenberger and Mueller 2009).


@inline
def _take(ni, ef, node, e, shared):
    """The descent takes node's edge e. In a shared tree, e counts a visit with no win (a virtual loss)
    at once, which the backup turns into the real result (_back_up), so that the other threads see e
    as worse while this iteration runs and spread over other moves; and the node's best edge, which
    does not show the loss, is found again at the next descent through it."""
    if shared:
        atomic_add(ef[N], e, VIRTUAL_LOSS)
        ni[node, BEST] = -1


@inline
def _back_up(ni, ef, node, e, result, shared):
    """The backup's visit to node and its edge e, won `result` for the edge's mover (a shared tree
    counted e's visit at the descent: _take)."""
    if shared:
        atomic_add(ni[node], VISITS, 1)
        atomic_add(ef[W], e, result)
    else:
        ni[node, VISITS] += 1
        ef[N, e] += 1.0
        ef[W, e] += result


@inline
def _grow(ni, nh, ei, ef, ek, meta, s, z, zob, ls, lz, codes, parts, color, trace, params, table, gammas, e,
          shared):
    """Expand edge e's child (position s, z with `color` to move) and link it: the child, or -1 if the
    tree is full or, in a shared tree, another thread is growing it. A shared tree's thread claims the
    edge first (CHILD GROWING) and publishes the node when it is whole; readers take any CHILD below 0
    for none."""
    if shared and atomic_cas(ei[CHILD], e, NO_CHILD, GROWING) != NO_CHILD:
        return -1
    child = expand(ni, nh, ei, ef, ek, meta, s, z, zob, ls, lz, codes, color, trace, -1, params, table, gammas, parts)
    if shared:
        atomic_cas(ei[CHILD], e, GROWING, child)
    else:
        ei[CHILD, e] = child
    return child


# ---------------------------------------------------------------- criticality


@inline
def _count_owner(ni, child, s, move, black_result):
    """Criticality's counts (tree_layout.CRIT_*) of node `child`, reached by `move` (a padded point), after
    an iteration through it that ended at position s with black_result above 0.5 (black won) or below
    (playout_result; draws are not counted).
    In a shared tree two threads may lose one count, as with AMAF."""
    owner = bk.point_owner(s, move)
    black_won = black_result > 0.5
    ni[child, CRIT_N] += 1
    ni[child, CRIT_WO] += owner == (bk.BLACK if black_won else bk.WHITE)
    ni[child, CRIT_BO] += owner == bk.BLACK
    ni[child, CRIT_BW] += black_won


# ---------------------------------------------------------------- profiling builds

@inline
def _clock():
    """The cycle counter in profiling builds (jit.PROFILE), else 0: then the timers compile away."""
    if PROFILE:
        return rdtsc()
    return np.int64(0)


@inline
def _charge(meta, part, since):
    """Count the cycles since `since` (a _clock reading) to part C_* of meta; returns the clock now."""
    if PROFILE:
        now = rdtsc()
        meta[CYCLES + part] += now - since
        return now
    return np.int64(0)


# ---------------------------------------------------------------- an iteration's steps


@inline
def _descend(ni, nh, ei, ef, ek, meta, zob, work, params, table, gammas, root, base, nhist, floor, taken, shared):
    """Step 1: from the root down the tree on work.s (a fresh copy of the root position), choosing
    each node's best edge, playing its move and noting it (path, tstart, trace, earlier), until an
    edge has no child (which it expands once it has params[P_EXPAND] real visits, this one
    counted), the path is as deep as work.path, or two passes end the line. Returns (depth, stones
    traced, terminal: two passes ended it, repeated: its last move repeats an earlier position and
    was refused, which ends the iteration)."""
    s, z, path, tstart, trace = work.s, work.z, work.path, work.tstart, work.trace
    earlier, values = work.earlier, work.values
    uct = params[P_UCT] > 0
    equiv = params[P_EQUIV]
    coef = params[P_CRIT]
    least = params[P_CRIT_MIN]
    n0 = params[P_PRIOR]
    expand_at = max(params[P_EXPAND], np.float64(meta[EXPAND_AT]))
    seen = 0.0 if shared else 1.0  # this iteration's visit to an edge: counted at the descent if shared
    max_depth = path.shape[0]
    node = root
    depth = 0
    ntrace = 0
    passes = np.int64(s[bk.M_PASSES])
    color = np.int64(ni[root, COLOR])
    s[bk.M_TO_MOVE] = color
    while True:
        e = select_uct(ni, ei, ef, ek, node, params) if uct else best_edge(ni, ei, ef, node, equiv, values, coef, least)
        if e < 0 or depth >= max_depth:
            return depth, ntrace, False, False
        _take(ni, ef, node, e, shared)
        path[depth] = e
        tstart[depth] = ntrace
        depth += 1
        move = edge_move(ni, node, e, base)
        if move == PASS:
            bk.play_pass(s, color)
            passes += 1
        else:
            bk.play_inline(s, z, zob, move, color)
            # stones captured since the root, from the colours' capture counts (a `for` over the iterations
            # and no use of play's result: measured 1-2% faster from the empty 9x9 board than either)
            captured = bk.captured_total(s) - taken
            if repeats(earlier, nhist + depth, s, z, captured, floor):
                refuse(ni, ei, ef, ek, node, e, path, depth, shared)
                return depth, ntrace, False, True
            passes = 0
            trace[ntrace] = move * 2 + color - 1
            ntrace += 1
        note_position(earlier, nhist + depth, s, z)
        color = 3 - color
        if passes >= 2:
            return depth, ntrace, True, False
        child = ei[CHILD, e]
        if child < 0:
            if ef[N, e] - prior_visits(ek[e], n0)[0] + seen >= expand_at:  # real visits with this one
                started = _clock()
                _grow(ni, nh, ei, ef, ek, meta, s, z, zob, work.ls, work.lz, work.codes, work.parts, color, trace,
                      params, table, gammas, e, shared)
                _charge(meta, C_EXPANSION, started)
            return depth, ntrace, False, False
        node = child


@inline
def _play_out(meta, zob, work, params, table, replies, ntrace, terminal, target, chooser, full):
    """Step 2: the playout from where the descent ended, tracing its stones after the tree's; a line
    that ended in two passes is scored as a referee would (tree_score.settled_score). Black's area score and
    the owners of the points are left on work.s and work.owners (owners on one iteration in
    OWNERSHIP_EVERY: `sample`). Returns (score, stones traced in all, capped flag as play_out_with's,
    sample)."""
    s, z, trace, owners, rng = work.s, work.z, work.trace, work.owners, work.rng
    cap = np.int64(params[P_CAP])
    policy = np.int64(params[P_POLICY])
    reject_permil = np.int64(params[P_REJECT])
    # ownership is sampled on one iteration in OWNERSHIP_EVERY: enough for a map, and
    # labelling every point after every playout would cost several percent of the search
    sample = meta[SAMPLES] % OWNERSHIP_EVERY == 0
    meta[SAMPLES] += 1
    marks = owners if sample else owners[:0]
    # one playout call for both kinds of line (the whole playout loop, every policy inlined, is most
    # of the kernel's code and of its compile time): a settled line's has no trace and no replies
    ender = ender_of(s) if terminal else 0
    standing = settle_start(s, owners) if terminal else 0
    line = trace[ntrace:ntrace] if terminal else trace[ntrace:]
    answers = replies[:0] if terminal else replies[:]
    score, nmoves, capped = play_out_with(s, z, zob, rng, cap, line, marks, chooser, policy, reject_permil, table,
                                          answers, full)
    if terminal:
        return settled(standing, score, target, ender), ntrace, capped, sample
    if PROFILE:
        meta[PLAYOUT_STONES] += nmoves
    return score, ntrace + min(nmoves, trace.shape[0] - ntrace), capped, sample


@inline
def _record(ni, work, replies, root, depth, ntrace, score, komi, target, sample, P):
    """Step 3: what the search keeps beside the tree: the last-good-reply tables (learn_replies), the
    ownership sums (a sampled iteration), and the root edge's margin sums (work.scores)."""
    if replies.shape[0] > 0 and score != target:
        learn_replies(work.trace, ntrace, bk.BLACK if score > target else bk.WHITE, replies)
    if sample:
        owners, ownership = work.owners, work.ownership
        for p in range(P):
            ownership[p] += (owners[p] == bk.BLACK) - (owners[p] == bk.WHITE)
        ownership[P] += 1.0
    if depth > 0:
        margin = score - komi
        r = work.path[0] - ni[root, FIRST]
        scores = work.scores
        scores[r, 0] += 1.0
        scores[r, 1] += margin
        scores[r, 2] += margin * margin


@inline
def _back_up_path(ni, ei, ef, root, path, depth, s, base, black_result, coef, shared):
    """Step 4: each edge of the path gains its visit and the result for its mover (alternating from
    the root's colour); with criticality, each child's owner counts (_count_owner)."""
    mover = np.int64(ni[root, COLOR])
    node = root
    counting = coef != 0.0 and black_result != 0.5
    for d in range(depth):
        e = path[d]
        result = black_result if mover == bk.BLACK else 1.0 - black_result
        _back_up(ni, ef, node, e, result, shared)
        child = ei[CHILD, e]
        if counting and child >= 0:
            move = edge_move(ni, node, e, base)
            if move != PASS:
                _count_owner(ni, child, s, move, black_result)
        node = child
        mover = 3 - mover
        if node < 0:
            break


@inline
def _credit_amaf(ni, ei, ef, work, root, depth, ntrace, base, black_result, equiv, coef, least):
    """Step 5, AMAF: walking back from the end, firstc[p] holds the colour that played p first from
    depth d on; each node on the path credits the edges its colour played first later
    (credit_and_screen), and keeps its best edge (its statistics changed only here: see BEST)."""
    trace, tstart, path, firstc, values = work.trace, work.tstart, work.path, work.firstc, work.values
    k = ntrace - 1
    for d in range(depth - 1, -1, -1):
        stop = tstart[d]  # a local: numba's stores to firstc could alias tstart's memory for LLVM
        while k >= stop:
            v = trace[k]
            firstc[v >> 1] = (v & 1) + 1
            k -= 1
        # the node above path[d] is the parent of edge path[d]
        parent = root if d == 0 else ei[CHILD, path[d - 1]]
        if parent < 0:
            continue
        pcolor = ni[parent, COLOR]
        result = black_result if pcolor == bk.BLACK else 1.0 - black_result
        first = np.int64(ni[parent, FIRST])
        width = np.int64(ni[parent, COUNT])
        last = first + width
        top = credit_and_screen(firstc[base:base + width], ef[N, first:last], ef[W, first:last],
                                 ef[AN, first:last], ef[AW, first:last], pcolor, np.float32(result), equiv, values)
        if coef != 0.0 and ni[parent, VISITS] > least:
            top = crit_screen(ni, ei, ef, first, width, equiv, values, coef, least)
        keep_best(ni, parent, pick(ni, ei, ef, first, width, equiv, values, top, coef, least))
    firstc[:] = 0  # a memset: cheaper than clearing the trace's points one by one


# ---------------------------------------------------------------- the iteration


@step
def iterate(ni, nh, ei, ef, ek, meta, root_s, root_z, zob, work, params, table, gammas, replies, count, chooser, full,
            shared):
    """Run `count` search iterations from the root position (root_s, root_z) on the tree, playing
    out with the policy params[P_POLICY] (table: patterns.PATTERN_TABLE) and growing nodes with the prior
    params[P_KNOWLEDGE] (gammas: gamma_table.GAMMAS). With a replies table (int32[2, P], -1 for none;
    playout.NO_REPLIES's shape for none) the playouts play last good replies, which each iteration
    updates (learn_replies).

    work: the worker's scratch arrays, a Work (random stream and sums included): s, z and ls, lz (board
    copies: the iteration's, the ladder reader's), codes (int64[P]: tree_grow.expand's scratch), parts
    (float64[3, P]: the prior's open points, gamma_table.open_parts, read only), trace (int32, >= cap +
    depth), tstart and path (int64[depth]), firstc (int8[P], zeros), values (float32[P + 1]), owners
    (int8[P]); earlier (uint64[HISTORY + depth + 1, 2]) begins with params[P_HISTORY] rows of the game's
    positions before the root, and the rest is scratch (see "positional superko in the tree"). ownership
    (float64[P + 1]) accumulates final owners (+1 black, -1 white) on one iteration in OWNERSHIP_EVERY, and
    in [P] the number of those samples. scores (float64[root edges, 3]) accumulates, per root edge, the
    iterations through it and the sum and sum of squares of their final margins (black's area score less
    komi); rng (uint64[1]) is the worker's random stream. full: the playouts keep the hash and the empty set
    (play_out_with; False only with the built-in choose: the tree's own moves always do, and each iteration
    starts from a fresh copy of the root). shared: other threads run iterate on the tree at the same time
    (params[P_SHARED]; see "threads sharing the tree" above), a constant in the built-in kernels. Returns
    the number of iterations run: `count` less the descents refused for repeating a position (tree_superko.refuse),
    which are not iterations (each disables an edge, so they are few), and less the ones never run because
    the tree filled (its FULL flag: the run ends there, after one iteration at least, for its caller to
    collect the tree); 0 also if the tree is empty; -1 if a custom policy's chooser broke the rule."""
    P = root_s[bk.M_P]
    base = edge_base(root_s)
    komi = params[P_KOMI]
    target = komi + params[P_EXTRA]  # black's area must pass it to win (dynamic komi); margins count from komi
    weight = params[P_SCORE]
    points = np.float64(root_s[bk.M_SIZE]) ** 2
    equiv = params[P_EQUIV]
    coef = params[P_CRIT]  # criticality (tree_select.crit_gain): counted for children past `least` visits
    least = params[P_CRIT_MIN]
    root = meta[ROOT]
    if meta[NODES] == 0:
        return 0
    s, z, earlier = work.s, work.z, work.earlier
    nhist = np.int64(params[P_HISTORY])
    floor = history_floor(earlier, nhist)
    note_position(earlier, nhist, root_s, root_z)
    taken = bk.captured_total(root_s)  # stones captured so far
    refused = 0
    ran = 0
    for _ in range(count):
        # a full tree ends the run (after one iteration at least), so that it is collected at once
        # (SearchTree.run) whatever the batch: iterations on a full tree grow nothing
        if ran > 0 and meta[FULL] != 0:
            break
        ran += 1
        clock = _clock()
        bk.copy_position(root_s, root_z, s, z)
        clock = _charge(meta, C_COPY, clock)
        depth, ntrace, terminal, repeated = _descend(ni, nh, ei, ef, ek, meta, zob, work, params, table, gammas, root,
                                                     base, nhist, floor, taken, shared)
        if repeated:
            refused += 1
            continue
        clock = _charge(meta, C_DESCENT, clock)
        score, ntrace, capped, sample = _play_out(meta, zob, work, params, table, replies, ntrace, terminal, target,
                                                  chooser, full)
        if capped == BROKEN:
            return -1
        clock = _charge(meta, C_PLAYOUT, clock)
        black_result = playout_result(score, target, weight, points)
        _record(ni, work, replies, root, depth, ntrace, score, komi, target, sample, P)
        _back_up_path(ni, ei, ef, root, work.path, depth, s, base, black_result, coef, shared)
        clock = _charge(meta, C_BACKUP, clock)
        _credit_amaf(ni, ei, ef, work, root, depth, ntrace, base, black_result, equiv, coef, least)
        _charge(meta, C_AMAF, clock)
    return ran - refused
