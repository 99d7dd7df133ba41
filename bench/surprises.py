"""Which of the opponent's replies surprised foogo: the fall of its estimate after each, and how its prior rated them.

    python bench/surprises.py DIR [DIR ...] [--engine auto|A|B] [--name foogo] [--list 0.3]

DIR is a match directory as bench/match_review.py reads it (its games' SGFs and foogo's log, or job-*
directories of them). For each of the opponent's moves that answers one of foogo's searches and is
followed by another, the drop is foogo's estimate at that search less its estimate at the next: a
large drop is a reply the search did not see coming. Each reply is then rated as foogo's tree rates a
move when it creates a node: the learned prior's gamma (gamma_table.move_gammas, the heavy searches'
features) among the moves the tree would consider, its rank among them (0: the top-rated) and its
share of their gammas, and its tactics class (features.TACTICS_NAMES). An atari is also described by
the largest string of foogo's it puts in atari and by whether a ladder then takes that string
(ladders.ladder_captured). The table gives these by bins of the drop, so that the replies foogo missed
can be set beside all the others: if the prior rates the missed ones low, the tree gave them few
visits; if it rates them as it rates the rest, the search saw them and misjudged what follows.

--list D also names every reply whose drop is at least D: game, move number, the reply, its class.
A game whose log does not match its moves is skipped, as match_review does, and so is a game with setup
stones (a handicap).
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys

import match_review
import numpy as np

from foogo import BLACK, WHITE
from foogo import features as fe
from foogo import gamma_table as gt
from foogo.board import Board
from foogo.game_score import board_strings
from foogo.ladders import ladder_captured
from foogo.tree_layout import LEARNED_FLOOR

DROPS = (0.05, 0.1, 0.2)  # the table's bins of the estimate's drop: below the first, between, above the last
NEAR_TOP = 5  # a reply ranked this or lower counts as one the prior did not put near the top


def atari_target(board: Board, colour: int, point: int) -> tuple[int, bool]:
    """(the largest string of the opponent of `colour` beside padded `point` that is in atari, and whether
    a ladder then takes it), on the board after `colour` played there; (0, False) if there is none."""
    beside = {point + int(d) for d in board.geometry.neighbours}
    biggest, taken = 0, False
    for c, stones, libs in board_strings(board):
        if c == 3 - colour and len(libs) == 1 and len(stones) > biggest and beside.intersection(stones):
            biggest, taken = len(stones), ladder_captured(board, board.geometry.name(stones[0]))
    return biggest, taken


def replies(record: dict) -> list[dict]:
    """The opponent's replies in one reviewed game (match_review.review's record) that answer one of
    foogo's searches and precede another: move number (1-based), the reply, the drop, and its rating;
    none for a game with setup stones."""
    game = record["game"]  # the game match_review read (sgfmill's Sgf_game)
    if game.get_root().has_property("AB") or game.get_root().has_property("AW"):
        return []  # setup stones (a handicap): the replay below starts from the empty board
    board = Board(game.get_size())
    rates = record["rates"]
    out = []
    k = -1  # foogo's searches so far, less one: the index of its last in `rates`
    for number, node in enumerate(game.get_main_sequence()[1:], 1):
        colour, move = node.get_move()
        if colour is None:
            continue
        c = BLACK if colour == "b" else WHITE
        if colour == record["colour"]:
            k += 1
        elif 0 <= k < len(rates) - 1 and move is not None and None not in (rates[k], rates[k + 1]):
            p = board.geometry.point(*move)
            moves, feats = fe.candidates(board, c)
            hit = np.flatnonzero(moves == p)
            if hit.size:
                gammas = gt.move_gammas(board, c, moves)
                mine = gammas[hit[0]]
                reply = dict(number=number, vertex=board.geometry.name(p),
                             drop=rates[k] - rates[k + 1], rank=int((gammas > mine).sum()),
                             share=float(mine / max(gammas.sum(), LEARNED_FLOOR)),
                             tactics=int(feats[hit[0], fe.G_TACTICS]), target=0, laddered=False)
                if reply["tactics"] == fe.T_ATARI:
                    after = board.copy()
                    after.play(c, move)
                    reply["target"], reply["laddered"] = atari_target(after, c, p)
                out.append(reply)
        board.play(c, "pass" if move is None else move)
    return out


def table(found: list[dict]) -> str:
    """The replies by bins of the drop (DROPS): how many, the prior's median rank and share, how many it
    ranked NEAR_TOP or lower, the tactics classes, and of the ataris those of 2+ stones and laddered."""
    edges = (-math.inf,) + DROPS + (math.inf,)
    lines = []
    for lo, hi in zip(edges, edges[1:]):
        rows = [r for r in found if lo <= r["drop"] < hi]
        if not rows:
            continue
        label = (f"drop below {hi:.2f}" if lo == -math.inf else f"drop {lo:.2f} or more" if hi == math.inf
                 else f"drop {lo:.2f}-{hi:.2f}")
        counts = np.bincount([r["tactics"] for r in rows], minlength=len(fe.TACTICS_NAMES))
        classes = ", ".join(f"{fe.TACTICS_NAMES[t]} {n / len(rows):.0%}" for t, n in enumerate(counts) if n)
        ataris = [r for r in rows if r["tactics"] == fe.T_ATARI]
        atari_text = (f"; of its {len(ataris)} ataris {sum(r['target'] >= 2 for r in ataris) / len(ataris):.0%} "
                      f"on 2+ stones, {sum(r['laddered'] for r in ataris) / len(ataris):.0%} then taken by a ladder"
                      if ataris else "")
        rank = statistics.median(r["rank"] for r in rows)
        lines.append(f"{label}: {len(rows)} replies, the prior's median rank {rank:.0f} "
                     f"and share {statistics.median(r['share'] for r in rows):.3f}, "
                     f"ranked {NEAR_TOP} or lower {sum(r['rank'] >= NEAR_TOP for r in rows) / len(rows):.0%}; "
                     f"{classes}{atari_text}")
    return "\n".join(lines)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    match_review.add_match_arguments(parser)
    parser.add_argument("--list", type=float, default=None, metavar="D",
                        help="name every reply whose drop is D or more")
    args = parser.parse_args(argv)
    found, games = [], 0
    for record in match_review.reviewed_games(args.dirs, args.engine, args.name):
        games += 1
        found.extend(dict(reply, path=record["path"]) for reply in replies(record))
    if not found:
        print("no replies between two of foogo's searches", file=sys.stderr)
        return 1
    print(f"{games} games, {len(found)} replies between two of foogo's searches")
    print(table(found))
    if args.list is not None:
        for r in sorted((r for r in found if r["drop"] >= args.list), key=lambda r: -r["drop"]):
            print(f"  {r['path']} move {r['number']} {r['vertex']}: drop {r['drop']:.2f}, "
                  f"{fe.TACTICS_NAMES[r['tactics']]}, the prior's rank {r['rank']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
