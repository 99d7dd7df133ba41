"""Where two playout policies judge a position differently, and which of them GNU Go's play-out agrees with.

    python bench/policy_diff.py DIR [DIR ...] --out FILE [--policies heavy heavy-nakade [MORE ...]]
        [--playouts 400] [--every 1] [--from-move 10] [--gap 0.3] [--per-game 1]
        [--gnugo /usr/games/gnugo] [--level 10] [--jobs 2] [--report-only] [--pachi PATH]

A match shows that one playout rule wins fewer games than another, never where. This script looks
at the positions of played games (every game-*.sgf under the DIRs, 9x9 or any size the SGF says):
1. scan: from each position (every --every moves from --from-move on), --playouts playouts of each
   policy give black's share of wins at the game's komi (a draw counts half);
2. judge: in the positions where the first two policies' shares differ by --gap or more (at most
   --per-game of each game, the largest gaps first), GNU Go plays both colours to the end and counts the board
   (`final_score`, Chinese rules): black's result there is the oracle's verdict (1, 0 or 0.5);
3. report: for every judged position, each policy's error (|share - verdict|), which policy was
   nearer, and the positions where one was right and the other wrong, with their SGF and move
   number, to look at; and, over every scanned position whose game has a result (RE), each policy's
   Brier score against that result by stage of the game, with each later policy's difference from
   the first and its 95% interval (clustered by game: a game's positions share one result). The
   Brier score asks no oracle and sees every position, not only the disagreements: how well the
   playouts alone predict the games. Last, the games that carry each difference (games_carrying): a Brier gain
   that lies in four or five games of hundreds is a misread shape, not a general gain.
Every step writes one JSON line per position to --out and skips what the file already holds, so
a stopped run resumes and --report-only reads a running one. GNU Go's play-out is one game from
the position, a noisy verdict where the position is close; a gap of 0.3 or more between the
policies picks positions where one of them should be clearly wrong.

A policy named `pachi` (or `pachi:OPTIONS`, Pachi's moggy options joined by `:`, such as
`pachi:nlibrate=0:patternrate=0`) is Pachi's own playout policy, moggy, run by the Pachi binary
--pachi from each position: how far foogo's playouts are from Pachi's, and which of moggy's rules
its judgement owes most to. Pachi's `montecarlo` engine runs playouts but plays a uniform random
move before each and prints no totals, so it takes a local two-line change to Pachi 12.90's
engines/montecarlo.c, made in a copy built for this only (never in foogo's repository):
    coord_t coord = getenv("MC_NO_FIRST") ? pass : board_play_random(&b2, color, NULL, NULL);
and, just before `if (!good_games) {`,
    { int tw = 0; foreach_point(b) { tw += moves[c].wins; } foreach_point_end;
      fprintf(stderr, "MCSHARE %d %d %d\n", tw, good_games, losses); }
(build: `make DCNN=0 JOSEKIFIX=0`). Its counts are the wins and losses of the side that did not
move: the side to move's opponent, as Pachi's engine keeps them. A copy with three more moggy options
(satest=0, threelib=0, sekicheck=0: its self-atari test, 3-liberty test and seki check switched off one by one)
takes moggy's base apart; bench/results/moggy-base-brier-2026-12-05.txt, part 6, gives its change to moggy.c.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import json
import math
import os
import statistics
import subprocess
import sys
from pathlib import Path

from option_caps import refuse_counts
from sgfmill import sgf

from foogo import Game, run_playouts
from foogo.geometry import COLUMNS
from foogo.gtp_client import GtpClient, GtpError
from foogo.match_results import black_score
from foogo.playout import MAX_BATCH, MAX_THREADS

MAX_PLAYOUT_MOVES = 200  # GNU Go's play-out from a position stops here (it never took more than 80 on 9x9)
GNUGO_SECONDS = 120.0  # per GNU Go command: far above a level-10 move on 9x9


def game_files(dirs: list[Path]) -> list[Path]:
    """Every game-*.sgf under the directories, sorted."""
    return sorted(p for d in dirs for p in d.rglob("game-*.sgf"))


def game_moves(path: Path) -> tuple[int, float, list[tuple[str, str]]]:
    """(size, komi, [(colour 'b'/'w', GTP vertex or 'pass')]) of an SGF's main line; ValueError for a
    file sgfmill cannot read or a game with setup stones (handicap), whose positions the moves alone
    do not give."""
    game = sgf.Sgf_game.from_bytes(path.read_bytes())
    if any(node.has_setup_stones() for node in game.get_main_sequence()):
        raise ValueError("setup stones (AB/AW/AE): not read")
    size = game.get_size()
    moves = []
    for node in game.get_main_sequence()[1:]:
        colour, move = node.get_move()
        if colour is None:
            continue
        moves.append((colour, "pass" if move is None else COLUMNS[move[1]] + str(move[0] + 1)))
    return size, float(game.get_komi()), moves


def black_share(scores, komi: float) -> float:
    """Black's share of wins among playout scores (black's area), a draw counting half."""
    wins = sum(1.0 if s > komi else (0.5 if s == komi else 0.0) for s in scores.tolist())
    return wins / len(scores)


PACHI_MIN_PLAYOUTS = 500  # Pachi's `-t =N` takes no fewer
PACHI_SECONDS_PER_PLAYOUT = 0.01  # a generous bound on a moggy playout (about 0.1 ms on 9x9)


def is_pachi(policy: str) -> bool:
    """True for the policies Pachi runs: `pachi` and `pachi:OPTIONS` (pachi_shares)."""
    return policy.split(":")[0] == "pachi"


def pachi_shares(pachi: str, policy: str, size: int, komi: float, moves: list[tuple[str, str]],
                 at: list[int], playouts: int) -> dict[int, float]:
    """Black's share of wins (a draw half) of `playouts` of Pachi's playouts from the position before
    moves[i], for each i in `at`: policy `pachi` or `pachi:OPTIONS` (the module doc says which
    Pachi build). One Pachi process for the game, each position set up from an empty board."""
    options = policy.partition(":")[2]
    engine = f"playout=moggy{':' + options if options else ''},debug=0"
    script = [f"boardsize {size}", f"komi {komi}"]
    for i in at:
        script += ["clear_board"] + [f"play {c} {v}" for c, v in moves[:i]] + [f"genmove {moves[i][0]}"]
    timeout = 30 + len(at) * playouts * PACHI_SECONDS_PER_PLAYOUT
    done = subprocess.run([pachi, "-e", "montecarlo", "-t", f"={playouts}", engine],
                          input="\n".join(script) + "\nquit\n", capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "MC_NO_FIRST": "1"}, check=False)
    refused = [line for line in done.stdout.splitlines() if line.startswith("?")]
    if refused:  # a move of the record Pachi would not play: its positions would not be the game's
        raise RuntimeError(f"{pachi} refused a command of the game's record: {refused[0]}")
    counts = [line.split()[1:] for line in done.stderr.splitlines() if line.startswith("MCSHARE ")]
    if len(counts) != len(at):
        raise RuntimeError(f"{pachi} printed {len(counts)} MCSHARE lines for {len(at)} positions (exit "
                           f"{done.returncode}): is it the patched build the module doc describes?\n"
                           + done.stderr[-400:])
    shares = {}
    for i, (wins, games, losses) in zip(at, counts):
        wins, games, losses = int(wins), int(games), int(losses)
        draws = games - wins - losses
        mover_share = (losses + draws / 2) / games  # Pachi counts the other side's wins
        shares[i] = mover_share if moves[i][0] == "b" else 1 - mover_share
    return shares


def scan(files: list[Path], policies: list[str], playouts: int, every: int, start: int, done: set,
         pachi: str | None = None):
    """One record per position not in `done` ((file, move) pairs), as it is made: each policy's black share
    (policies `pachi[:OPTIONS]` run by the Pachi binary `pachi`: pachi_shares)."""
    for path in files:
        try:
            size, komi, moves = game_moves(path)
        except ValueError as exc:
            print(f"skipped {path}: {exc}", file=sys.stderr)
            continue
        at = [i for i in range(start, len(moves), every) if (str(path), i) not in done]
        if not at:
            continue
        from_pachi = {p: pachi_shares(pachi, p, size, komi, moves, at, playouts)
                      for p in policies if is_pachi(p)}
        game = Game(size, komi=komi)
        for i, (colour, vertex) in enumerate(moves):
            if i in at:
                shares = {p: from_pachi[p][i] if p in from_pachi else
                          black_share(run_playouts(game.board, playouts, seed=i, policy=p).scores, komi)
                          for p in policies}
                yield {"step": "scan", "file": str(path), "move": i, "to_move": colour, "shares": shares}
            game.play(colour, vertex)


def gnugo_verdict(gnugo: str, level: int, size: int, komi: float, moves: list[tuple[str, str]]) -> dict:
    """GNU Go plays both colours from the position after `moves` to two passes (it may not resign) and
    counts: black's result (1, 0 or 0.5), the margin and the moves it played."""
    with GtpClient(f"{gnugo} --mode gtp --level {level} --chinese-rules --never-resign") as engine:
        engine.send(f"boardsize {size}", GNUGO_SECONDS)
        engine.send("clear_board", GNUGO_SECONDS)
        engine.send(f"komi {komi}", GNUGO_SECONDS)
        for colour, vertex in moves:
            engine.send(f"play {colour} {vertex}", GNUGO_SECONDS)
        colour = "w" if moves and moves[-1][0] == "b" else "b"
        passes, played = 0, []
        while passes < 2 and len(played) < MAX_PLAYOUT_MOVES:
            move = engine.send(f"genmove {colour}", GNUGO_SECONDS).strip().lower()
            played.append(move)
            passes = passes + 1 if move == "pass" else 0
            colour = "w" if colour == "b" else "b"
        score = engine.send("final_score", GNUGO_SECONDS).strip().upper()
    if score == "0":
        return {"verdict": 0.5, "margin": 0.0, "played": played}
    margin = float(score[2:]) * (1 if score.startswith("B") else -1)
    return {"verdict": 1.0 if margin > 0 else 0.0, "margin": margin, "played": played}


def game_result(path: Path) -> float | None:
    """Black's result of a recorded game from its RE (match_results.black_score: 1, 0 or 0.5 for a
    draw), None when there is none or the file cannot be read."""
    try:
        root = sgf.Sgf_game.from_bytes(path.read_bytes()).get_root()
    except (OSError, ValueError):
        return None
    return black_score(root.get("RE")) if root.has_property("RE") else None


STAGES = ((10, 30), (30, 50), (50, 70), (70, None))  # move numbers of the Brier table's rows


def brier(records: list[dict], policies: list[str], results: dict) -> str:
    """Each policy's Brier score (mean of (black's share - the game's result)^2) over the scanned
    positions of games with a result (`results`: file -> result or None), by stage: a line for each
    policy after the first, with its difference from the first and that difference's 95% interval,
    clustered by game."""
    a = policies[0]
    rows = [(r, results[r["file"]]) for r in records if r["step"] == "scan" and results.get(r["file"]) is not None]
    lines = [f"Against the games' results (Brier score, lower is better; {len(rows)} positions of "
             f"{len({r['file'] for r, _ in rows})} games):"]
    for low, high in STAGES + ((STAGES[0][0], None),):
        part = [(r, y) for r, y in rows if r["move"] >= low and (high is None or r["move"] < high)]
        if not part:
            continue
        score = {p: statistics.mean((r["shares"][p] - y) ** 2 for r, y in part) for p in policies}
        stage = f"moves {low}-{high - 1}" if high is not None else f"moves {low}-"
        for b in policies[1:]:
            by_game: dict[str, list[float]] = {}
            for r, y in part:
                by_game.setdefault(r["file"], []).append((r["shares"][b] - y) ** 2 - (r["shares"][a] - y) ** 2)
            mean = sum(sum(d) for d in by_game.values()) / len(part)
            spread = math.sqrt(sum((sum(d) - len(d) * mean) ** 2 for d in by_game.values())) / len(part)
            lines.append(f"  {stage:>12} ({len(part):5d} positions): {a} {score[a]:.4f}, {b} {score[b]:.4f}, "
                         f"difference {mean:+.4f} ({mean - 1.96 * spread:+.4f} to {mean + 1.96 * spread:+.4f})")
    return "\n".join(lines)


def games_carrying(records: list[dict], policies: list[str], results: dict, start: int, shown: int = 5) -> str:
    """Which games carry each later policy's Brier difference from the first, from move `start` on: each game's
    summed difference of squared errors (negative: the later policy nearer the result), the `shown` games most
    for it and the 3 most against it, how many games moved by more than 0.5, and the difference per position of
    the other games, without the `shown` most for it (a difference that lies in a few games is no general gain)."""
    a = policies[0]
    rows = [(r, results[r["file"]]) for r in records
            if r["step"] == "scan" and r["move"] >= start and results.get(r["file"]) is not None]
    lines = [f"Which games carry each difference (each game's summed difference of squared errors, moves {start} on):"]
    if not rows:
        return lines[0] + "\n  no position of a game with a result"
    for b in policies[1:]:
        # each position's (game, difference of squared errors), once
        diffs = [(r["file"], (r["shares"][b] - y) ** 2 - (r["shares"][a] - y) ** 2) for r, y in rows]
        sums: dict[str, float] = {}
        for game, d in diffs:
            sums[game] = sums.get(game, 0.0) + d
        ranked = sorted(sums.items(), key=lambda kv: kv[1])
        total = sum(sums.values())
        moved = sum(1 for v in sums.values() if abs(v) > 0.5)
        lines.append(f"  {b}: {total / len(rows):+.4f} a position over {len(sums)} games; {moved} games moved by more "
                     "than 0.5")
        lines += [f"    for it {v:+.2f}  {f}" for f, v in ranked[:shown] if v < 0]
        lines += [f"    against it {v:+.2f}  {f}" for f, v in ranked[::-1][:3] if v > 0]
        best = {f for f, v in ranked[:shown] if v < 0}
        rest = [d for game, d in diffs if game not in best]
        lines.append(f"    without its {len(best)} best games: "
                     + (f"{sum(rest) / len(rest):+.4f} a position over {len(rest)}" if rest else "no position left"))
    return "\n".join(lines)


def to_judge(records: list[dict], policies: list[str], gap: float, per_game: int) -> list[dict]:
    """The scanned positions whose first two policies' shares differ by `gap` or more, at most `per_game`
    a game, the largest gaps first."""
    a, b = policies[:2]
    by_game: dict[str, list[dict]] = {}
    for r in records:
        if abs(r["shares"][a] - r["shares"][b]) >= gap:
            by_game.setdefault(r["file"], []).append(r)
    out = []
    for rs in by_game.values():
        rs.sort(key=lambda r: -abs(r["shares"][a] - r["shares"][b]))
        out.extend(rs[:per_game])
    return out


def judge(positions: list[dict], gnugo: str, level: int, jobs: int, sink) -> None:
    """gnugo_verdict for each scanned position, `jobs` at a time; each result goes to sink(record)."""
    def work(r: dict) -> dict:
        size, komi, moves = game_moves(Path(r["file"]))
        verdict = gnugo_verdict(gnugo, level, size, komi, moves[:r["move"]])
        return {"step": "judge", "file": r["file"], "move": r["move"], **verdict}

    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        for future in concurrent.futures.as_completed([pool.submit(work, r) for r in positions]):
            try:
                sink(future.result())
            except GtpError as exc:  # GNU Go refused a move of the record: the position is skipped
                print(f"skipped: {exc}", file=sys.stderr)


def report(records: list[dict], policies: list[str]) -> str:
    """The judged positions: each of the first two policies' mean error, who was nearer, and the positions
    one got wrong."""
    a, b = policies[:2]
    policies = policies[:2]
    shares = {(r["file"], r["move"]): r for r in records if r["step"] == "scan"}
    judged = [(shares[(r["file"], r["move"])], r) for r in records
              if r["step"] == "judge" and (r["file"], r["move"]) in shares]
    games = len({s["file"] for s, _ in judged})
    lines = [f"{len(shares)} positions scanned, {len(judged)} judged by GNU Go's play-out (of {games} games)"]
    if not judged:
        return "\n".join(lines)
    err = {p: [abs(s["shares"][p] - j["verdict"]) for s, j in judged] for p in policies}
    nearer = {p: sum(1 for i in range(len(judged)) if err[p][i] < err[q][i])
              for p, q in ((a, b), (b, a))}
    for p in policies:
        lines.append(f"{p:>14}: mean error {statistics.mean(err[p]):.3f}, nearer in {nearer[p]} of {len(judged)}")
    for p, q in ((a, b), (b, a)):
        wrong = [(s, j) for i, (s, j) in enumerate(judged) if err[p][i] > 0.5 and err[q][i] < 0.5]
        lines.append(f"\n{p} wrong where {q} is right ({len(wrong)}, in {len({s['file'] for s, _ in wrong})} games):")
        for s, j in sorted(wrong, key=lambda sj: (sj[0]["file"], sj[0]["move"])):
            lines.append(f"  {s['file']} move {s['move']} ({s['to_move']} to play): "
                         f"{a} {s['shares'][a]:.2f}, {b} {s['shares'][b]:.2f}, GNU Go {j['verdict']:g} "
                         f"(margin {j['margin']:+g})")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--policies", nargs="+", default=["heavy", "heavy-nakade"])
    parser.add_argument("--playouts", type=int, default=400)
    parser.add_argument("--every", type=int, default=1)
    parser.add_argument("--from-move", type=int, default=10)
    parser.add_argument("--gap", type=float, default=0.3)
    parser.add_argument("--per-game", type=int, default=1)
    parser.add_argument("--gnugo", default="/usr/games/gnugo")
    parser.add_argument("--level", type=int, default=10)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--report-only", action="store_true")
    parser.add_argument("--pachi", help="the patched Pachi binary that policies pachi[:OPTIONS] need (module doc)")
    args = parser.parse_args()
    if args.every < 1 or not 0 < args.gap <= 1 or len(args.policies) < 2:
        parser.error("--every must be >= 1, --gap in (0, 1], and --policies two or more")
    # run_playouts' batch; GNU Gos at once, one a core
    refuse_counts(parser, (("--playouts", args.playouts, MAX_BATCH), ("--jobs", args.jobs, MAX_THREADS)))
    if any(is_pachi(p) for p in args.policies) and not args.report_only:
        if not args.pachi or args.playouts < PACHI_MIN_PLAYOUTS:
            parser.error(f"a pachi policy needs --pachi PATH and --playouts {PACHI_MIN_PLAYOUTS} or more "
                         "(Pachi's least)")
    records = [json.loads(line) for line in args.out.read_text().splitlines()] if args.out.exists() else []
    if not args.report_only:
        with args.out.open("a") as out:
            def sink(record: dict) -> None:
                records.append(record)
                out.write(json.dumps(record) + "\n")
                out.flush()

            done = {(r["file"], r["move"]) for r in records if r["step"] == "scan"}
            for r in scan(game_files(args.dirs), args.policies, args.playouts, args.every, args.from_move, done,
                          args.pachi):
                sink(r)
            judged = {(r["file"], r["move"]) for r in records if r["step"] == "judge"}
            todo = [r for r in to_judge([r for r in records if r["step"] == "scan"], args.policies, args.gap,
                                        args.per_game) if (r["file"], r["move"]) not in judged]
            print(f"judging {len(todo)} positions", file=sys.stderr)
            judge(todo, args.gnugo, args.level, args.jobs, sink)
    print(report(records, args.policies))
    files = {r["file"] for r in records if r["step"] == "scan"}
    results = {f: game_result(Path(f)) for f in files}
    print("\n" + brier(records, args.policies, results))
    print("\n" + games_carrying(records, args.policies, results, args.from_move))


if __name__ == "__main__":
    main()
