"""Which points foogo misjudged before its lost games turned, where Pachi judged them right: its blind spots.

    python bench/owner_blind.py DIR [DIR ...] --pachi PATH [--before 3] [--playouts 240000]
                                [--pachi-playouts 60000] [--gnugo /usr/games/gnugo] [--seed 1] [--games N]
                                [--gap 0.3] [--won [--at 19]] [--dump FILE] [--engine auto|A|B] [--name foogo]
                                [--quiet]
    python bench/owner_blind.py FILE --from-dump [--gap G] [--quiet]

DIR is a match directory as bench/match_review.py reads it (its games' SGFs and foogo's log, or job-*
directories of them). For each game foogo lost, the turn is foogo's move from which its estimate stayed below
match_review.BEHIND (match_review --turns); the positions are those at foogo's last --before moves before it,
where foogo still thought itself level or ahead. At each position, for the side to move (foogo):
- foogo's heavy search of --playouts on one thread (Search.genmove, as budget_visits.searched): its estimate
  and its ownership map (one iteration in tree.OWNERSHIP_EVERY);
- Pachi's search at `=--pachi-playouts` on one thread (the README's exact copy; `reporting=jsonbig`: the
  final JSON line's ownership of every point from its search's playouts, and its move's value, or its most
  visited move's when the move it chose heads none of the line's candidate sequences);
- the outcome: who owned each point at the game's end, as GNU Go (the match's referee) reads its last
  position: `final_status_list dead` taken off, then each empty region bordered by one colour alone is that
  colour's. Most of these games end by resignation, so this is GNU Go's reading of a decided position.
A point is *blind* when the outcome gave it to foogo's opponent and foogo's search gave foogo at least --gap
(0.3) more of it than Pachi's did: Pachi saw it go, foogo less so, and it went. Each position also gets the
ownership gap, the sum over every point of foogo's probability of owning it less Pachi's (in points: how much
more of the board foogo counted its own).
Blind points are joined into regions (4-neighbours, through stones and empty points alike), and each region
is named by what it holds: foogo's stones that died ("died"), the opponent's stones foogo counted dead that
lived ("lived"), or empty points only ("territory"). Per position the script prints both estimates, the
counts, and a diagram (X black, O white, lower case a blind stone, * a blind empty point, + the other
empty points); the summary counts regions by kind and size, and gives the median gaps. Reading the diagrams
names the shapes (ladders, races, eyes, seki): the knowledge foogo lacks, where it costs games against Pachi.

--won is the control: the same searches in the games foogo won, at its --before moves before its move --at
(about where the lost games turned), where the ownership gap says how much more foogo counts its own when
nothing went wrong. --dump writes every position's searches (JSON lines); --from-dump reads such a file
instead of searching, to read it again with another --gap.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from collections import Counter
from pathlib import Path

import match_review
from budget_visits import PACHI_LEAST_PLAYOUTS
from option_caps import refuse_counts
from sgfmill import common

from foogo.game import Game
from foogo.geometry import BLACK, WHITE
from foogo.search import Search, SearchConfig
from foogo.tree_layout import HISTORY

GAP = 0.3  # a point is blind from this much more of foogo's ownership in foogo's search than in Pachi's
MOST_BEFORE = 20
MOST_PLAYOUTS = 10_000_000  # a search each: more is not an evening's run
MOST_GAMES = 100_000
MOST_AT = 1_000
TIMEOUT = 600  # seconds for one GNU Go run, and at least for one Pachi run: a hung engine ends the script
LEAST_RATE = 2_000  # playouts a second a Pachi run's timeout allows for at the least (its rate on one thread: 15-25k)


def turn_index(rates: list) -> int:
    """The index in foogo's searches (0-based) from which its estimate stayed below match_review.BEHIND (as
    match_review.turns counts it); len(rates) if the last estimate was not below it."""
    k = len(rates)
    while k > 0 and rates[k - 1] is not None and rates[k - 1] < match_review.BEHIND:
        k -= 1
    return k


def move_numbers(game, colour: str) -> list[int]:
    """The move numbers (1-based: the move about to be played) at which `colour` ("b" or "w") was to move, in
    order, in sgfmill's game."""
    return [n for n, node in enumerate(game.get_main_sequence()[1:], 1) if node.get_move()[0] == colour]


def gtp_moves(game, number: int | None = None) -> list[str]:
    """GTP play commands for the game's moves before `number` (all of them if None)."""
    nodes = game.get_main_sequence()[1:]
    if number is not None:
        nodes = nodes[:number - 1]
    out = []
    for node in nodes:
        colour, point = node.get_move()
        if colour:
            out.append(f"play {colour} {common.format_vertex(point) if point else 'pass'}")
    return out


def run_gtp(command: list[str], lines: list[str], what: str, timeout: float = TIMEOUT) -> subprocess.CompletedProcess:
    """Run a GTP engine on `lines` (quit appended) for at most `timeout` seconds; RuntimeError naming `what` if it
    fails or answers an error (subprocess.TimeoutExpired if it takes longer)."""
    done = subprocess.run(command, input="\n".join(lines + ["quit"]) + "\n", capture_output=True, text=True,
                          timeout=timeout)
    if done.returncode != 0 or "\n? " in "\n" + done.stdout:
        raise RuntimeError(f"{what} failed: {done.stdout[-300:]} {done.stderr[-300:]}")
    return done


def answers(stdout: str) -> list[str]:
    """The texts of a GTP session's answers, in order ('= ' taken off, multi-line answers joined by spaces)."""
    return [" ".join(block[1:].split()) for block in stdout.strip().split("\n\n") if block.startswith("=")]


def vertices(size: int) -> list[str]:
    """Every vertex of a size x size board, row 1 first and A, B, ... along it: Pachi's foreach_point order."""
    return [common.format_vertex((row, col)) for row in range(size) for col in range(size)]


def outcome(gnugo: str, game, size: int, komi: float) -> dict[str, str]:
    """Who owned each point at the game's end, by GNU Go's reading of its last position: vertex -> "b", "w" or
    "" (neither: dame, seki or a region both colours border)."""
    done = run_gtp([gnugo, "--mode", "gtp", "--chinese-rules"],
                   [f"boardsize {size}", f"komi {komi:g}", "clear_board", *gtp_moves(game),
                    "list_stones black", "list_stones white", "final_status_list dead"], "GNU Go")
    black, white, dead = (set(a.upper().split()) for a in answers(done.stdout)[-4:-1])  # the last is quit's
    colour = {v: "b" for v in black - dead} | {v: "w" for v in white - dead}
    owner = dict(colour)
    for region in components(set(vertices(size)) - set(colour), size):
        border = {colour[n] for v in region for n in neighbours(v, size) if n in colour}
        whose = next(iter(border)) if len(border) == 1 else ""
        for v in region:
            owner[v] = whose
    return owner


def components(points: set[str], size: int) -> list[list[str]]:
    """The 4-connected components of a set of vertices, each sorted, in the order of their first vertex."""
    out, seen = [], set()
    for start in sorted(points):
        if start in seen:
            continue
        part, todo = [], [start]
        seen.add(start)
        while todo:
            v = todo.pop()
            part.append(v)
            for n in neighbours(v, size):
                if n in points and n not in seen:
                    seen.add(n)
                    todo.append(n)
        out.append(sorted(part))
    return out


def neighbours(vertex: str, size: int) -> list[str]:
    """The on-board 4-neighbours of a vertex."""
    row, col = common.move_from_vertex(vertex, size)
    return [common.format_vertex((r, c)) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            if 0 <= r < size and 0 <= c < size]


def foogo_view(path: Path, number: int, komi: float, playouts: int, seed: int):
    """(the Game before move `number`, foogo's estimate for the side to move, vertex -> P(black owns), or None
    when the search made no playouts: a pass that ends the game wins, Search.genmove's answer with no search):
    foogo's heavy search of the position on one thread at `komi` (the one Pachi and GNU Go are given)."""
    game = Game(9, komi)
    game.load_sgf(str(path), number)
    colour = game.to_move
    search = Search(SearchConfig(playouts=playouts, policy="heavy", seed=seed, resign_threshold=None))
    result = search.genmove(game.board, colour, komi, game.legal_moves(colour), history=game.recent_positions(HISTORY))
    if result.ownership is None:
        return game, result.winrate, None
    g = game.board.geometry
    owned = {g.name(int(p)).upper(): (float(o) + 1.0) / 2.0 for p, o in zip(g.points, result.ownership)}
    return game, result.winrate, owned


def pachi_view(pachi: str, sgf_game, number: int, size: int, komi: float, to_move: str, playouts: int,
               seed: int):
    """(Pachi's estimate for the side to move, or None if its line lists no candidate, vertex -> P(black owns))
    from its search at =playouts on one thread: the final JSON line of reporting=jsonbig."""
    done = run_gtp([pachi, "-t", f"={playouts}", "-s", str(seed), "threads=1,sure_win_threshold=2,reporting=jsonbig"],
                   [f"boardsize {size}", f"komi {komi:g}", "clear_board", *gtp_moves(sgf_game, number),
                    f"genmove {to_move}"], "Pachi", max(TIMEOUT, playouts / LEAST_RATE))
    final = [line for line in done.stderr.splitlines() if line.startswith('{"move"')]
    if not final:
        raise RuntimeError(f"Pachi gave no final JSON line: {done.stderr[-300:]}")
    data = json.loads(final[-1])["move"]
    territory = data["boards"]["territory"]
    names = vertices(size)
    if len(territory) != len(names):
        raise RuntimeError(f"Pachi's ownership has {len(territory)} points, not {len(names)}")
    choice = data["choice"].upper()
    owned = {v: t / 1000.0 for v, t in zip(names, territory)}
    heads = [next(iter(line[0].items())) for line in data.get("can", []) if line]  # each line's first move, value
    if not heads:
        return None, owned
    values = [float(value[0]) for move, value in heads if move.upper() == choice] or [float(heads[0][1][0])]
    return values[0], owned


def blind_regions(size: int, stones: dict[str, str], mine: str, foogo: dict, pachi: dict, owner: dict,
                  gap: float = GAP) -> list[dict]:
    """The blind points (see the module's docstring) joined into 4-connected regions, largest first: each with
    its points, its kind ("died", "lived", "territory"; "died" wins over "lived") and its stones."""
    theirs = "w" if mine == "b" else "b"

    def p_owns(view: dict, v: str, colour: str) -> float:
        return view[v] if colour == "b" else 1.0 - view[v]

    blind = {v for v in vertices(size)
             if owner.get(v) == theirs and p_owns(foogo, v, mine) - p_owns(pachi, v, mine) >= gap}
    regions = []
    for points in components(blind, size):
        held = Counter(stones.get(v, "") for v in points)
        kind = "died" if held[mine] else "lived" if held[theirs] else "territory"
        regions.append(dict(points=points, kind=kind, mine=held[mine], theirs=held[theirs]))
    return sorted(regions, key=lambda r: -len(r["points"]))


def diagram(size: int, stones: dict[str, str], blind: set[str], last: str | None) -> str:
    """The position, row `size` on top: X black, O white, lower case a blind stone, * a blind empty point, +
    another empty point; the last move in brackets."""
    rows = []
    for row in range(size - 1, -1, -1):
        cells = []
        for col in range(size):
            v = common.format_vertex((row, col))
            c = {"b": "X", "w": "O"}.get(stones.get(v, ""), "+")
            if v in blind:
                c = c.lower() if c != "+" else "*"
            cells.append(f"({c})" if v == last else f" {c} ")
        rows.append(f"{row + 1:2d} " + "".join(cells))
    letters = "".join(f" {common.column_letters[col]} " for col in range(size))
    return "\n".join(rows + ["   " + letters])


def diagram_blind(rows: list[str], size: int) -> set[str]:
    """The blind points (a lower-case stone or a *) of a diagram's `size` board rows as `diagram` prints them."""
    points = set()
    for line in rows:
        row = int(line[:2]) - 1
        for col in range(size):
            if any(ch in line[3 + 3 * col:6 + 3 * col] for ch in "xo*"):
                points.add(common.format_vertex((row, col)))
    return points


def komi_of(root) -> float:
    """A game's komi from its SGF root: its KM, 7 without one; every engine here is given it."""
    return float(root.get("KM")) if root.has_property("KM") else 7.0


def stones_of(game: Game) -> dict[str, str]:
    """vertex -> "b" or "w" for every stone on a Game's board."""
    names = vertices(game.board.size)  # bit i is row * size + col, row 0 being row 1: vertices' order
    out = {}
    for colour, name in ((BLACK, "b"), (WHITE, "w")):
        for i in game.board.stones(colour).search(1):
            out[names[i]] = name
    return out


def searched_positions(args):
    """One dict per position of foogo's lost games (see the module's docstring): where it is, both searches'
    estimates and ownership, the stones and the outcome."""
    lost = 0
    for record in match_review.reviewed_games(args.dirs, args.engine, args.name):
        sgf_game = record["game"]
        root = sgf_game.get_root()
        setup = root.has_property("AB") or root.has_property("AW")
        if record["won"] is not bool(args.won) or setup or sgf_game.get_size() != 9:
            continue
        if args.games and lost >= args.games:
            return
        lost += 1
        komi = komi_of(root)
        mine = record["colour"]
        turn = args.at - 1 if args.won else turn_index(record["rates"])
        numbers = move_numbers(sgf_game, mine)
        owner = outcome(args.gnugo, sgf_game, 9, komi)
        for k in range(max(0, turn - args.before), min(turn, len(numbers))):
            number = numbers[k]
            game, f_rate, f_own = foogo_view(Path(record["path"]), number, komi, args.playouts, args.seed)
            if f_own is None:
                print(f"move {number}: foogo's pass ends the game won, with no search; skipped", flush=True)
                continue
            p_rate, p_own = pachi_view(args.pachi, sgf_game, number, 9, komi, mine, args.pachi_playouts, args.seed)
            last = sgf_game.get_main_sequence()[number - 1].get_move()[1] if number > 1 else None
            yield dict(path=record["path"], number=number, mine=mine, mine_k=k + 1, turn=turn + 1,
                       result=record["result"], foogo_rate=f_rate, pachi_rate=p_rate, foogo=f_own, pachi=p_own,
                       owner=owner, stones=stones_of(game), last=common.format_vertex(last) if last else None)


def ownership_gap(position: dict) -> float:
    """How many more points foogo's search counted foogo's than Pachi's did (the sum over the board)."""
    sign = 1.0 if position["mine"] == "b" else -1.0
    return sum(sign * (position["foogo"][v] - position["pachi"][v]) for v in position["foogo"])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    match_review.add_match_arguments(parser)
    parser.add_argument("--pachi", help="the exact Pachi's binary (the README says how to build it)")
    parser.add_argument("--gnugo", default="/usr/games/gnugo")
    parser.add_argument("--before", type=int, default=3, help="foogo's moves before each lost game's turn")
    parser.add_argument("--playouts", type=int, default=240_000,
                        help="foogo's search (default: about its 5 s on 2 threads)")
    parser.add_argument("--pachi-playouts", type=int, default=60_000, help="Pachi's (default: about its 5 s)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, default=0, help="the first N lost games only (0: all)")
    parser.add_argument("--gap", type=float, default=GAP, help="how much more foogo's ownership makes a point blind")
    parser.add_argument("--dump", type=Path, help="also write each position's searches here (JSON lines)")
    parser.add_argument("--from-dump", action="store_true",
                        help="read the positions from DIR, a --dump file, instead of searching them")
    parser.add_argument("--won", action="store_true",
                        help="the control: foogo's won games instead, at its --before moves before its move --at")
    parser.add_argument("--at", type=int, default=19, help="with --won: the move that stands for the turn")
    parser.add_argument("--quiet", action="store_true", help="the summary only, no diagrams")
    args = parser.parse_args(argv)
    refuse_counts(parser, [("--at", args.at, MOST_AT)])
    refuse_counts(parser, [("--before", args.before, MOST_BEFORE), ("--playouts", args.playouts, MOST_PLAYOUTS)])
    refuse_counts(parser, [("--games", args.games, MOST_GAMES)], least=0)
    refuse_counts(parser, [("--pachi-playouts", args.pachi_playouts, MOST_PLAYOUTS)], least=PACHI_LEAST_PLAYOUTS)
    if not 0 < args.gap <= 1:
        parser.error(f"--gap must be above 0 and at most 1, got {args.gap}")
    if args.from_dump:
        if len(args.dirs) != 1 or not args.dirs[0].is_file():
            parser.error("--from-dump reads one --dump file, given in place of DIR")
        positions = [json.loads(line) for line in args.dirs[0].read_text().splitlines() if line.strip()]
    elif not args.pachi:
        parser.error("--pachi is needed unless --from-dump")
    else:
        positions = searched_positions(args)
    dump = args.dump.open("w") if args.dump else None
    kinds: Counter = Counter()
    sizes: dict[str, list[int]] = {"died": [], "lived": [], "territory": []}
    count = with_blind = 0
    rate_gaps, owner_gaps = [], []
    seen = None
    for pos in positions:
        if dump:
            dump.write(json.dumps(pos) + "\n")
            dump.flush()
        if pos["path"] != seen:
            seen = pos["path"]
            print(f"== {pos['path']}: foogo {pos['mine']}, {pos['result']}, "
                  f"{'control' if args.won else 'turned'} at its move {pos['turn']}", flush=True)
        regions = blind_regions(9, pos["stones"], pos["mine"], pos["foogo"], pos["pachi"], pos["owner"], args.gap)
        count += 1
        with_blind += bool(regions)
        if pos["pachi_rate"] is not None:
            rate_gaps.append(pos["foogo_rate"] - pos["pachi_rate"])
        owner_gaps.append(ownership_gap(pos))
        for r in regions:
            kinds[r["kind"]] += 1
            sizes[r["kind"]].append(len(r["points"]))
        said = ", ".join(f"{r['kind']} {len(r['points'])} ({' '.join(r['points'][:6])}"
                         f"{' ...' if len(r['points']) > 6 else ''})" for r in regions) or "none"
        shown = "?" if pos["pachi_rate"] is None else f"{pos['pachi_rate']:.2f}"
        print(f"move {pos['number']} (foogo's {pos['mine_k']}): foogo {pos['foogo_rate']:.2f}, Pachi {shown}, "
              f"ownership gap {owner_gaps[-1]:+.1f} points; blind regions: {said}", flush=True)
        if regions and not args.quiet:
            print(diagram(9, pos["stones"], {v for r in regions for v in r["points"]}, pos["last"]), flush=True)
    if dump:
        dump.close()
    print(f"\n{count} positions; {with_blind} with blind points (the opponent's in the end, and foogo's own by "
          f"{args.gap:g} or more above Pachi's reading)")
    for kind in ("died", "lived", "territory"):
        if sizes[kind]:
            print(f"  {kind}: {kinds[kind]} regions, median {statistics.median(sizes[kind]):g} points, "
                  f"largest {max(sizes[kind])}")
    if rate_gaps:
        print(f"foogo's estimate less Pachi's: median {statistics.median(rate_gaps):+.2f} over {len(rate_gaps)}")
    if owner_gaps:
        print(f"ownership gap (foogo's points less Pachi's reading of them): median "
              f"{statistics.median(owner_gaps):+.1f} over {len(owner_gaps)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
