"""Golden traces: fixed-seed playouts and searches whose every move is pinned by a recorded digest.

A speed-up of the board, the policies or the tree must leave these unchanged;
then "behaviour unchanged" is a test, not a claim. What is pinned:
  * playouts from the empty board on every size 2..19, light and heavy: the
    sha256 of every playout's move sequence (trace), score, length and cap flag;
  * playouts from a middle-game 9x9 position (captures, ko fights, big strings);
  * the middle-game playouts with the opt-in "heavy-nakade" and "heavy-race" policies;
  * fixed-playout searches (one thread) on 9x9 and 13x13, with either prior
    (rules; learned, whose digests also pin foogo/data/gammas.npz): the move
    chosen and the visit count of every root move (the heavy 9x9 middle-game
    search also without late_nakade: "-early");
  * one 5x5 light playout as a readable diagram (tests/golden/trace_5x5.txt).

If a change must alter the random stream or the rule, re-record in a commit of
its own that says why, with statistics showing the new behaviour agrees:

    python tests/test_golden.py --record
"""

import hashlib
import json
import os
import sys

import numpy as np
import pytest

from foogo import BLACK, WHITE, Board
from foogo import playout as po
from foogo import random_stream as rs
from foogo.game import Game
from foogo.search import Search, SearchConfig

HERE = os.path.dirname(os.path.abspath(__file__))
DIGESTS = os.path.join(HERE, "golden", "digests.json")
DIAGRAM = os.path.join(HERE, "golden", "trace_5x5.txt")
PLAYOUTS = 40  # per (size, policy): long enough to reach captures, suicides and ko on every size
SIZES = range(2, 20)
MIDGAME_MOVES = ("E5 D4 C3 D6 F4 G5 E3 E4 D5 F5 C6 E6 F6 G6 D7 C7 B6 F3 G4 H4 E7 F7 G3 H3 D3 G2 "
                 "F2 H2 C5 C4 B4 B5 A5 B3 A4 C2").split()


def _digest_playouts(board, policy, count, seed=7):
    """sha256 over `count` playouts from board: each one's trace, score, length and cap flag."""
    geo = board.geometry
    cap = po.move_cap(board.size)
    trace = np.zeros(cap, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    h = hashlib.sha256()
    for i in range(count):
        b = board.copy()
        s, z = b._state()
        rs.seed_rng(rng, seed, i)
        score, moves, capped = po.playout(s, z, geo.zobrist, rng, cap, trace, np.empty(0, dtype=np.int8),
                                          po.policy_id(policy), po.PATTERN_TABLE)
        h.update(trace[:moves].tobytes())
        h.update(np.array([score, moves, capped], dtype=np.int64).tobytes())
    return h.hexdigest()


def midgame(size=9, moves=MIDGAME_MOVES):
    """A game at a middle-game position with strings in atari and shared liberties (black to move)."""
    game = Game(size)
    color = BLACK
    for name in moves:
        game.play(color, name)
        color = WHITE if color == BLACK else BLACK
    return game


def _search_summary(game, policy, playouts, knowledge, **config):
    """'move; visits of every root move' of a one-thread fixed-playout search (config: more SearchConfig fields)."""
    color = game.to_move
    result = Search(SearchConfig(playouts=playouts, threads=1, seed=3, policy=policy, knowledge=knowledge,
                                 **config)).genmove(game.board, color, 7.5, game.legal_points(color))
    name = game.geometry.name
    visits = ",".join(f"{name(p)}:{v}" for p, v in sorted(result.visits.items()))
    return f"{name(result.move) if result.move >= 0 else result.move}; {visits}"


def compute():
    """Everything this file pins, freshly computed."""
    out = {}
    for policy in ("light", "heavy"):
        for size in SIZES:
            out[f"empty-{size}-{policy}"] = _digest_playouts(Board(size), policy, PLAYOUTS)
        out[f"midgame-9-{policy}"] = _digest_playouts(midgame().board, policy, 200)
        for knowledge, suffix in (("rules", ""), ("learned", "-learned")):
            out[f"search-9-midgame-{policy}{suffix}"] = _search_summary(midgame(), policy, 3000, knowledge)
            out[f"search-13-empty-{policy}{suffix}"] = _search_summary(midgame(13, ()), policy, 1500, knowledge)
            if policy == "heavy":
                # the heavy search in the late game plays heavy-nakade's playouts (SearchConfig.late_nakade, the
                # default since 2026-11-28); with it off, its digests are those recorded for it before then
                out[f"search-9-midgame-heavy-early{suffix}"] = _search_summary(midgame(), "heavy", 3000, knowledge,
                                                                              late_nakade=0.0)
    # the heavy policy with the nakade exception (opt-in), where sacrifices come up (its 40 playouts
    # from the empty 9x9 board play none: the same digest as "heavy")
    out["midgame-9-heavy-nakade"] = _digest_playouts(midgame().board, "heavy-nakade", 200)
    out["midgame-9-heavy-race"] = _digest_playouts(midgame().board, "heavy-race", 200)  # the approach (d')
    return out


def diagram_5x5():
    """The first 5x5 light playout of seed 7: its moves in GTP names and the final position."""
    board = Board(5)
    geo = board.geometry
    cap = po.move_cap(5)
    trace = np.zeros(cap, dtype=np.int32)
    rng = np.zeros(1, dtype=np.uint64)
    rs.seed_rng(rng, 7, 0)
    final = board.copy()
    s, z = final._state()
    score, moves, _ = po.playout(s, z, geo.zobrist, rng, cap, trace, np.empty(0, dtype=np.int8), po.LIGHT,
                                 po.PATTERN_TABLE)
    names = [("B " if v & 1 == 0 else "W ") + geo.name(v >> 1) for v in trace[:moves].tolist()]
    lines = [f"5x5 light playout, seed 7, index 0: {moves} stones played, score B-W {score:+d}", ""]
    lines += ["  ".join(names[i:i + 10]) for i in range(0, len(names), 10)]
    return "\n".join(lines + ["", str(final), ""])


def _recorded():
    """The recorded digests ({} before the first recording)."""
    if not os.path.exists(DIGESTS):
        return {}
    with open(DIGESTS) as handle:
        return json.load(handle)


@pytest.mark.parametrize("key", sorted(_recorded()))
def test_trace_unchanged(key, computed):
    assert computed[key] == _recorded()[key]


@pytest.fixture(scope="module")
def computed():
    return compute()


def test_every_pinned_trace_is_recorded(computed):
    assert sorted(computed) == sorted(_recorded())


def test_5x5_diagram_unchanged():
    with open(DIAGRAM) as handle:
        assert diagram_5x5() == handle.read()


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit(__doc__)
    fresh = compute()
    with open(DIGESTS, "w") as handle:
        json.dump(fresh, handle, indent=1, sort_keys=True)
        handle.write("\n")
    with open(DIAGRAM, "w") as handle:
        handle.write(diagram_5x5())
    print(f"recorded {DIGESTS} and {DIAGRAM}")
