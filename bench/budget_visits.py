"""Where more playouts go: foogo's root visits at N and at FACTOR times N playouts, on positions from a match's games.

    python bench/budget_visits.py DIR [DIR ...] [--playouts 30500] [--factor 4] [--positions 40] [--every 6]
                                  [--first 6] [--name foogo] [--seed 1] [--surprises D [--rave] | --pachi PATH]
                                  [foogo gtp's tuning options]

DIR holds a match's games (game-*.sgf, in it or in job-* directories below it, as bench/pachi_ab.py and
bench/vs_pachi.py write them). From each game, in order, the positions where foogo was to move at its
--first, --first + --every, ... move are searched twice by the heavy policy with the same seed: at --playouts
and at --factor times as many. A search of a seed is one sequence of playouts, so the larger search's first
--playouts are the smaller one (as long as nothing reads the budget: the trees' memory cap grows with it, but
no 9x9 search of these sizes reaches it), and the difference between the two root visit counts is where the
extra playouts went. For each position: the share of the extra playouts the smaller search's best move took,
how many root moves got any of them, how many moves either search visited of the legal ones, and whether the
best move changed. The summary gives medians and totals. foogo gtp's search-tuning options (--uct, --equiv,
--crit...) set the searches' SearchConfig as they set the engine's.

--pachi PATH searches the same positions with Pachi instead (the exact copy the README builds: its `-t =N`
playouts are exact on one thread, so that its larger search's first N playouts are the smaller one too), at
--playouts (Pachi's count, e.g. 10000, its equal-CPU count) and FACTOR times that, reading each root move's
playouts from its tree dump (`-d 4`, `dumpthres=0`): where Pachi's extra playouts go, beside foogo's.

--surprises D instead takes the positions before the opponent's replies that surprised foogo, those after
which its estimate fell by D or more (bench/surprises.py's drops; it needs foogo's logs beside the games):
each is searched as the replier at both budgets, and the line gives the reply's visits, rank and win rate
in each. A reply that keeps the same few visits at both budgets is one the search gave up on early and
never looked at again (bench/RESULTS.md, "Where four times the playouts go"). With --rave each budget's
cell also gives the best move's and the reply's selection statistics (Search.root_rave): own mean with the
prior's virtual visits, AMAF mean and samples, beta and the RAVE value the tree chose by.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
from pathlib import Path

import match_review
import surprises
from option_caps import refuse_counts
from sgfmill import common, sgf

from foogo.game import Game
from foogo.geometry import BLACK
from foogo.gtp.command import add_tuning_options, tuning_fields
from foogo.match import MAX_MOVES
from foogo.match_results import named_colour
from foogo.search import MAX_PLAYOUTS, Search, SearchConfig
from foogo.tree_layout import HISTORY

MOST_POSITIONS = 10_000  # each one two searches: more is not an evening's run
MOST_FACTOR = 64


def games(dirs: list[Path]) -> list[Path]:
    """Every game-*.sgf in or below the directories, sorted by path."""
    return sorted(path for d in dirs for path in d.rglob("game-*.sgf"))


def foogo_positions(path: Path, name: str, first: int, every: int) -> list[int]:
    """The move numbers (1-based: the move about to be played) at which foogo, the one player whose name holds
    `name` (named_colour's rule), was to move for its first, first + every, ... time in the game at `path`;
    none for a game with setup stones, without foogo, or with foogo on both sides."""
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    root = game.get_root()
    if root.has_property("AB") or root.has_property("AW"):
        return []
    colour = named_colour(root, name)
    numbers, mine = [], 0
    for number, node in enumerate(game.get_main_sequence()[1:], 1):
        if colour and node.get_move()[0] == colour:
            mine += 1
            if mine >= first and (mine - first) % every == 0:
                numbers.append(number)
    return numbers


def searched(path: Path, number: int, playouts: int, seed: int, tuning: dict):
    """The game at `path` before its move `number`, foogo's heavy search of it for the player to move (tuning:
    more SearchConfig fields, as foogo gtp's tuning options give them) and the search's result."""
    game = Game(9, 7.0)
    game.load_sgf(str(path), number)
    colour = game.to_move
    search = Search(SearchConfig(playouts=playouts, policy="heavy", seed=seed, resign_threshold=None, **tuning))
    return game, search, search.genmove(game.board, colour, game.komi, game.legal_moves(colour),
                                        history=game.recent_positions(HISTORY))


PACHI_ROOT_CHILD = re.compile(r"^ \[(\w+)\] ([0-9.]+)/([0-9]+) ")  # tree_dump's root children: one space deep
PACHI_LEAST_PLAYOUTS = 500  # Pachi's -t =N refuses fewer ("minimum 500 playouts")
PACHI_WINNER = re.compile(r"\*\*\* WINNER is (\w+) with score ([0-9.]+)%")


class PachiResult:
    """What compare reads of a search (as of Search.genmove's result): the move, its win rate, and each root
    move's visits by vertex."""

    def __init__(self, vertex: str, winrate: float, vertex_visits: dict):
        self.vertex, self.winrate, self.vertex_visits = vertex, winrate, vertex_visits


def pachi_searched(pachi: str, path: Path, number: int, playouts: int, seed: int):
    """The game at `path` before its move `number` (as searched), and Pachi's search of it at `=playouts` on one
    thread with seed `seed`, read from its tree dump on stderr (a PachiResult); RuntimeError if Pachi failed."""
    game = Game(9, 7.0)
    game.load_sgf(str(path), number)
    sequence = sgf.Sgf_game.from_bytes(path.read_bytes()).get_main_sequence()[:number]  # the root, then moves
    if any(node.has_property(p) for node in sequence for p in ("AB", "AW", "AE")):
        raise ValueError(f"{path}: setup stones, which Pachi is not given here")
    moves = [node.get_move() for node in sequence[1:]]
    lines = [f"boardsize {game.size}", f"komi {game.komi:g}", "clear_board"]
    lines += [f"play {colour} {common.format_vertex(point) if point else 'pass'}" for colour, point in moves if colour]
    lines += [f"genmove {'b' if game.to_move == BLACK else 'w'}", "quit"]
    done = subprocess.run([pachi, "-t", f"={playouts}", "-d", "4", "-s", str(seed),
                           "threads=1,sure_win_threshold=2,dumpthres=0"], input="\n".join(lines) + "\n",
                          capture_output=True, text=True, timeout=600)
    winner = PACHI_WINNER.search(done.stderr)
    if done.returncode != 0 or winner is None or "? " in done.stdout:
        raise RuntimeError(f"Pachi failed on {path} move {number}: {done.stdout[-300:]} {done.stderr[-300:]}")
    visits = {m.group(1): int(m.group(3)) for m in map(PACHI_ROOT_CHILD.match, done.stderr.splitlines()) if m}
    return game, PachiResult(winner.group(1), float(winner.group(2)) / 100, visits)


def rave_cell(vertex: str, row) -> str:
    """A root move's selection statistics (Search.root_rave's RaveRow): its own mean (the prior's virtual
    visits counted in, as selection counts them), its AMAF mean and samples, beta and the blended value."""
    if row is None:
        return f"{vertex} no edge"
    own = row.wins / row.visits if row.visits else float("nan")
    amaf = row.amaf_wins / row.amaf_visits if row.amaf_visits else float("nan")
    return (f"{vertex} N {row.visits:.0f} Q {own:.3f} AN {row.amaf_visits:.0f} Qamaf {amaf:.3f} "
            f"beta {row.beta:.2f} value {row.value:.3f}")


def compare(path: Path, number: int, playouts: int, factor: int, seed: int, tuning: dict,
            pachi: str | None = None) -> dict:
    """Both searches of one position (foogo's, or with `pachi` Pachi's), and where the larger one's extra
    playouts went."""
    if pachi is not None:
        game, small = pachi_searched(pachi, path, number, playouts, seed)
        _, large = pachi_searched(pachi, path, number, playouts * factor, seed)
    else:
        game, _, small = searched(path, number, playouts, seed, tuning)
        _, _, large = searched(path, number, playouts * factor, seed, tuning)
    before, after = small.vertex_visits, large.vertex_visits
    extra = {v: after.get(v, 0) - before.get(v, 0) for v in set(before) | set(after)}
    total = sum(extra.values())
    return dict(game=path, number=number, legal=len(game.legal_moves(game.to_move)), best=small.vertex,
                best_after=large.vertex, top_share=extra.get(small.vertex, 0) / total if total else 0.0,
                got_more=sum(1 for n in extra.values() if n > 0), fewer=sum(1 for n in extra.values() if n < 0),
                visited=len(before), visited_after=len(after),
                winrate=small.winrate, winrate_after=large.winrate)


def reply_line(reply: dict, playouts: int, factor: int, seed: int, tuning: dict, rave: bool = False) -> str:
    """One surprise reply's visits, rank and win rate at the root of the replier's searches at both budgets;
    with `rave`, also the best move's and the reply's selection statistics (rave_cell) at each."""
    cells = []
    for budget in (playouts, playouts * factor):
        _, search, result = searched(Path(reply["path"]), reply["number"], budget, seed, tuning)
        visits = result.vertex_visits
        n = visits.get(reply["vertex"], 0)
        rank = sorted(visits.values(), reverse=True).index(n) if n else "-"
        rate = result.vertex_winrates.get(reply["vertex"])
        cells.append(f"{budget}: {n} visits (rank {rank}, win rate {'-' if rate is None else f'{rate:.2f}'}), "
                     f"best {result.vertex} {result.winrate:.2f}")
        if rave:
            rows = search.root_rave()
            cells[-1] += " [" + " | ".join(rave_cell(v, rows.get(v)) for v in (result.vertex, reply["vertex"])) + "]"
    return f"{reply['path']} move {reply['number']} {reply['vertex']} (drop {reply['drop']:.2f}): " + "; ".join(cells)


def summary(rows: list[dict], factor: int) -> str:
    """The medians and totals of compare's rows."""
    def median(key):
        return statistics.median(r[key] for r in rows)

    changed = sum(1 for r in rows if r["best"] != r["best_after"])
    fewer = sum(1 for r in rows if r["fewer"])
    warning = (f"\nthe larger search began otherwise than the smaller in {fewer} positions (a move had fewer visits "
               "in it), so there the differences are not where its extra playouts went") if fewer else ""
    return (f"{len(rows)} positions: the best move at N took a median {median('top_share'):.1%} of the "
            f"extra {factor - 1}N playouts; a median {median('got_more'):g} root moves got any of them; moves "
            f"visited, median {median('visited'):g} at N and {median('visited_after'):g} at {factor}N, of "
            f"{median('legal'):g} legal; the best move changed in {changed} ({changed / len(rows):.0%})" + warning)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--playouts", type=int, default=30500, help="the smaller search's playouts (N)")
    parser.add_argument("--factor", type=int, default=4, help="the larger search has FACTOR times N")
    parser.add_argument("--positions", type=int, default=40, help="at most this many positions")
    parser.add_argument("--first", type=int, default=6, help="foogo's first move searched in each game")
    parser.add_argument("--every", type=int, default=6, help="then every EVERY-th of its moves")
    parser.add_argument("--name", default="foogo", help="what foogo's player name holds in the SGFs (any case)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--surprises", type=float, default=None, metavar="D",
                        help="search the positions before the replies after which foogo's estimate fell by D "
                             "or more instead (see above)")
    parser.add_argument("--pachi", metavar="PATH", help="search with this Pachi (the exact copy) instead; "
                        "--playouts is then Pachi's count")
    parser.add_argument("--rave", action="store_true",
                        help="with --surprises: also the best move's and the reply's selection statistics (own "
                             "mean, AMAF mean and samples, beta, value) at each budget")
    add_tuning_options(parser)
    args = parser.parse_args(argv)
    try:
        tuning = tuning_fields(args)
    except ValueError as error:
        parser.error(str(error))
    refuse_counts(parser, (("--playouts", args.playouts, MAX_PLAYOUTS // MOST_FACTOR),
                           ("--factor", args.factor, MOST_FACTOR), ("--positions", args.positions, MOST_POSITIONS),
                           ("--first", args.first, MAX_MOVES), ("--every", args.every, MAX_MOVES)))  # a game's moves
    if args.factor < 2:
        parser.error(f"--factor must be at least 2, got {args.factor}")
    if args.rave and args.surprises is None:
        parser.error("--rave goes with --surprises")
    if args.pachi is not None and (args.surprises is not None or tuning):
        parser.error("--pachi goes with neither --surprises nor foogo's tuning options")
    if args.pachi is not None and args.playouts < PACHI_LEAST_PLAYOUTS:
        parser.error(f"--playouts must be at least {PACHI_LEAST_PLAYOUTS} with --pachi (Pachi refuses fewer)")
    if args.surprises is not None:
        found = [dict(reply, path=record["path"])
                 for record in match_review.reviewed_games(args.dirs, "auto", args.name)
                 for reply in surprises.replies(record)]
        chosen = sorted((r for r in found if r["drop"] >= args.surprises), key=lambda r: -r["drop"])
        print(f"{len(chosen)} replies with a drop of {args.surprises} or more, of {len(found)}")
        for reply in chosen[:args.positions]:
            print(reply_line(reply, args.playouts, args.factor, args.seed, tuning, args.rave), flush=True)
        return 0
    positions = [(path, number) for path in games(args.dirs)
                 for number in foogo_positions(path, args.name, args.first, args.every)][:args.positions]
    if not positions:
        print("no positions: no game-*.sgf with a player named " + args.name, file=sys.stderr)
        return 1
    rows = []
    for path, number in positions:
        row = compare(path, number, args.playouts, args.factor, args.seed, tuning, args.pachi)
        rows.append(row)
        print(f"{path} move {number}: best {row['best']} {row['winrate']:.2f} -> {row['best_after']} "
              f"{row['winrate_after']:.2f}; the best took {row['top_share']:.1%} of the extra, "
              f"{row['got_more']} moves got any; visited {row['visited']} -> {row['visited_after']} "
              f"of {row['legal']}", flush=True)
    print(summary(rows, args.factor))
    return 0


if __name__ == "__main__":
    sys.exit(main())
