"""How much worse than a strong oracle's move foogo's moves are, on positions of lost games: a screen for a
change to the search or the playouts with far less noise than a match, if it is validated (see RESULTS).

    python bench/oracle_regret.py positions DIR [DIR ...] --out POSITIONS.jsonl [--count 200] [--per-game 2]
                                  [--moves 10-40] [--games lost|all] [--name foogo] [--seed 1]
    python bench/oracle_regret.py choose POSITIONS.jsonl --out CHOICES.jsonl [--playouts 26400] [--searches 4]
                                  [--policy heavy] [--seed 1] [foogo gtp's tuning options, e.g. --expand 5]
    python bench/oracle_regret.py oracle POSITIONS.jsonl CHOICES.jsonl [...] --pachi PACHI --cache VALUES.jsonl
                                  [--pachi-playouts 80000] [--jobs 2] [--best] [--seed 1]
    python bench/oracle_regret.py score POSITIONS.jsonl VALUES.jsonl CHOICES.jsonl [CHOICES.jsonl]

`positions` picks positions where foogo is to move from a match's games (DIR as bench/match_review.py
reads it: game-NNNN.sgf, or job-* directories of them): in games foogo lost (`--games lost`, the default)
at move numbers in --moves (the moves played before it, 10-40 by default, where most lost games turn), at
most --per-game of them a game and --count in all, drawn at random with --seed. Each is written with its
moves, so the file stands alone. A position's id is its game's path (the last four parts: arm, job, game,
or more when two of the games would share them) and its move number; choices and values carry a digest of
the position too, and one made at another position of the same id is refused, so files of positions drawn
from different archives can share a cache.

`choose` searches each position --searches times (seeds --seed, --seed + 1, ...; a new tree each) with the
foogo this Python imports (PYTHONPATH=CLONE for another version) and records the moves chosen.

`oracle` evaluates every move any of the choice files holds, with Pachi as the oracle: the move is played and
Pachi searches the reply at --pachi-playouts (`-t =N`, one thread, no dynamic komi, no resigning, no early
stop); the move's value is one minus the win rate Pachi reports for its reply (`pachi-result`). With
--best it also asks Pachi for its own move at each position and evaluates that move the same way, which
gives each move a regret: the best move's value less its value. Values go to --cache, a line each, and a
move already there is not evaluated again, so one cache serves every screen of the same positions.

`score` prints, for each choice file, the mean value of its moves over the positions (each position the mean
of its searches), and with --best's values the mean regret and how often the move was Pachi's; for two files,
the second's mean value less the first's, position by position, with its 95% interval (a normal one,
clustered by game): a paired comparison of two versions or settings on the same positions, valued by the same
oracle.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import random
import statistics
import sys
import threading
from pathlib import Path

from match_review import main_line, match_dirs
from option_caps import refuse_counts
from sgfmill import common

from foogo.game import Game
from foogo.geometry import parse_color
from foogo.gtp.command import add_tuning_options, tuning_fields
from foogo.gtp_client import GtpClient, GtpError, GtpFailure
from foogo.match_results import named_colour
from foogo.search import HISTORY, Search, SearchConfig

MAX_RECORDS = 100_000  # a file's lines: far beyond any screen
MAX_LINE = 20_000  # a record's characters: a 9x9 position with its moves is about 2,000
MAX_SEARCHES = 64  # a position's searches in `choose`
MAX_JOBS = 8  # Pachi processes at once
REPLY_TIMEOUT = 900.0  # seconds for one of Pachi's searches: 80,000 playouts take about 6 on 9x9
BEST = "best"  # the cache's move for Pachi's own choice at the position (its value is its search's win rate)
RESIGN = "RESIGN"  # Pachi's reply that is no move (it is told never to resign)
MAX_FAILURES = 20  # moves refused, crashes and timeouts of the oracle before a run stops


class RecordError(ValueError):
    """A file that is not what a step of this script wrote: the message names it and the line."""


# -- files ----------------------------------------------------------------------------------------------------

def read_records(path: Path, fields: dict) -> list[dict]:
    """The JSON records of a file a step wrote, each checked to have `fields` (name: type); RecordError
    naming the file and the line otherwise, and for a file over MAX_RECORDS lines or a line over MAX_LINE."""
    records = []
    try:
        with open(path, encoding="utf-8") as f:
            while line := f.readline(MAX_LINE + 1):
                where = f"{path}, line {len(records) + 1}"
                if len(records) >= MAX_RECORDS:
                    raise RecordError(f"{path}: over {MAX_RECORDS:,} lines")
                if len(line) > MAX_LINE:
                    raise RecordError(f"{where}: over {MAX_LINE:,} characters")
                try:
                    record = json.loads(line)
                except ValueError:
                    raise RecordError(f"{where}: not JSON") from None
                if not isinstance(record, dict) or not all(isinstance(record.get(k), t) for k, t in fields.items()):
                    raise RecordError(f"{where}: not a record with {', '.join(fields)}")
                records.append(record)
    except (OSError, UnicodeDecodeError) as error:
        raise RecordError(f"{path}: {error}") from None
    return records


POSITION_FIELDS = {"id": str, "size": int, "komi": (int, float), "moves": list, "colour": str}
CHOICE_FIELDS = {"id": str, "choices": list}
VALUE_FIELDS = {"id": str, "move": str, "value": (int, float)}


def position_digest(position: dict) -> str:
    """A short digest of what a position is (size, komi, moves, colour): choices and values carry it as "at", so
    that a record made at another position of the same id (two archives whose games share a path's last parts)
    is refused instead of read as this one's."""
    what = json.dumps([position["size"], float(position["komi"]), position["moves"], position["colour"]])
    return hashlib.sha1(what.encode()).hexdigest()[:12]


def check_digests(path: Path, records: list[dict], positions: dict) -> None:
    """RecordError for a record of `path` whose "at" is not its position's digest (records without one, made
    before digests were kept, are taken as they are)."""
    for r in records:
        at = r.get("at")
        if at is not None and r["id"] in positions and at != position_digest(positions[r["id"]]):
            raise RecordError(f"{path}: {r['id']} was made at another position of the same id")


def read_positions(path: Path) -> dict[str, dict]:
    """The positions of a `positions` file by id, each replayable (RecordError otherwise)."""
    found = {}
    for record in read_records(path, POSITION_FIELDS):
        if record["id"] in found:
            raise RecordError(f"{path}: position {record['id']} twice")
        try:
            game_at(record)
        except ValueError as error:  # IllegalMove, SgfError and a bad vertex or colour are ValueErrors
            raise RecordError(f"{path}: position {record['id']}: {error}") from None
        found[record["id"]] = record
    if not found:
        raise RecordError(f"{path}: no positions")
    return found


def game_at(position: dict) -> Game:
    """The game at a position, its moves replayed (ValueError if one is not legal or it is not the
    position's colour to move)."""
    game = Game(position["size"], float(position["komi"]))
    for move in position["moves"]:
        if not (isinstance(move, list) and len(move) == 2 and all(isinstance(m, str) for m in move)):
            raise ValueError(f"a move is a [colour, vertex] pair, got {move!r}")
        game.play(move[0], move[1])
    if game.to_move != parse_color(position["colour"]):
        raise ValueError(f"it is not {position['colour']}'s turn")
    return game


# -- positions ------------------------------------------------------------------------------------------------

def game_keys(paths: list[Path]) -> dict[Path, str]:
    """Each game's key, its positions' id before the "@": the last four parts of its path (arm, job, game), or
    as many more as make the keys unique (two archives whose arms share a name), so that a position's
    values are never another's."""
    longest = max((len(p.parts) for p in paths), default=4)
    for parts in range(4, longest):
        keys = {path: "/".join(path.parts[-parts:]) for path in paths}
        if len(set(keys.values())) == len(keys):
            return keys
    return {path: "/".join(path.parts[-longest:]) for path in paths}  # whole paths: distinct, repeats dropped


def game_positions(path: Path, key: str, name: str, games: str, first: int, last: int) -> list[dict]:
    """The positions of one SGF game (ids `key`@moves) where foogo (the one player whose name holds `name`) is
    to move after `first` to `last` moves; none for a game foogo did not lose (with games="lost"), with setup stones, or
    that cannot be read (named on stderr)."""
    try:
        read = main_line(path, path.read_bytes())  # names and skips an unparsable game or a moveless node
        if read is None:
            return []
        game, moves = read
        komi = game.get_komi()
    except (OSError, ValueError) as error:
        print(f"{path}: skipped, not a readable SGF ({str(error)[:100]})", file=sys.stderr)
        return []
    root = game.get_root()
    me = named_colour(root, name)
    if not me or root.has_property("AB") or root.has_property("AW"):
        return []
    result = root.get("RE") if root.has_property("RE") else ""
    if games == "lost" and not result.lower().startswith("w+" if me == "b" else "b+"):
        return []
    size = game.get_size()
    listed = [[c, common.format_vertex(m)] for c, m in moves]
    return [{"id": f"{key}@{n}", "size": size, "komi": komi, "moves": listed[:n], "colour": me,
             "played": listed[n][1], "result": result}
            for n in range(first, min(last, len(moves) - 1) + 1) if moves[n][0] == me]


def pick_positions(dirs: list[Path], name: str, games: str, first: int, last: int, per_game: int, count: int,
                   seed: int) -> list[dict]:
    """At most `per_game` positions of each game and `count` in all, drawn at random (seeded), by id."""
    rng = random.Random(seed)
    pool = []
    paths = list(dict.fromkeys(path for directory in dirs for path in sorted(directory.glob("game-*.sgf"))))
    keys = game_keys(paths)
    for path in paths:
        found = game_positions(path, keys[path], name, games, first, last)
        pool.extend(rng.sample(found, min(per_game, len(found))))
    return sorted(rng.sample(pool, min(count, len(pool))), key=lambda p: p["id"])


# -- foogo's choices ------------------------------------------------------------------------------------------

def choose(game: Game, config: SearchConfig) -> str:
    """foogo's move in the game's position with one search of `config` (a new tree; the game unchanged), as a
    GTP vertex."""
    colour = game.to_move
    result = Search(config).genmove(game.board, colour, game.komi, game.legal_moves(colour),
                                    history=game.recent_positions(HISTORY))
    return result.vertex.upper()


# -- the oracle -----------------------------------------------------------------------------------------------

def oracle_command(pachi: str, playouts: int, seed: int) -> list[str]:
    """Pachi as the oracle: a fixed count of playouts on one thread, komi as given (no dynamic komi),
    never resigning and never stopping early because it is sure to win."""
    return [pachi, "-t", f"={playouts}", "-s", str(seed),
            "threads=1,dynkomi=none,resign_threshold=0,sure_win_threshold=2"]


def evaluate(client: GtpClient, position: dict, move: str) -> tuple[float, str]:
    """(the value of `move` for the player to move at the position, Pachi's reply): one minus the win rate
    of Pachi's search of the reply. For move BEST: Pachi's own move at the position and its search's
    win rate."""
    colour = position["colour"]
    opponent = "w" if colour == "b" else "b"
    client.send(f"boardsize {position['size']}")
    client.send("clear_board")
    client.send(f"komi {float(position['komi']):g}")
    for c, vertex in position["moves"]:
        client.send(f"play {c} {vertex}")
    if move != BEST:
        client.send(f"play {colour} {move}")
    to_move = colour if move == BEST else opponent
    reply = client.send(f"genmove {to_move}", timeout=REPLY_TIMEOUT).strip().upper()
    fields = client.send("pachi-result").split()  # colour, move, playouts, win rate, dynamic komi
    try:
        winrate = float(fields[3])
    except (IndexError, ValueError):
        raise GtpError(f"pachi-result gave {' '.join(fields)!r}") from None
    if not 0.0 <= winrate <= 1.0:
        raise GtpError(f"pachi-result gave a win rate of {winrate}")
    return (winrate, reply) if move == BEST else (1.0 - winrate, reply)


def run_oracle(positions: dict, wanted: list[tuple[str, str]], commands: list[list[str]], have: set,
               cache_path: Path, note: str) -> tuple[int, list[str]]:
    """Evaluate each (id, move) of `wanted` with one oracle process a command, appending each value to the
    cache as it comes (and, for BEST, evaluating Pachi's move as well, unless `have`, the pairs the cache
    holds, or `wanted` has it): (the count evaluated, the failures). A move
    the oracle refuses is named and skipped; a process that crashes or times out is named and started
    again; after MAX_FAILURES failures the run stops (what it evaluated stays in the cache)."""
    lock = threading.Lock()
    todo = list(wanted)
    seen = have | set(wanted)
    done = [0]
    failures: list[str] = []

    def worker(argv: list[str]) -> None:
        with GtpClient(argv) as client:
            while True:
                with lock:
                    if not todo or len(failures) >= MAX_FAILURES:
                        return
                    key, move = todo.pop(0)
                try:
                    if not client.alive:
                        client.start()
                    value, reply = evaluate(client, positions[key], move)
                except (GtpError, GtpFailure) as error:
                    with lock:
                        failures.append(f"{key} {move}: {error}")
                        print(f"oracle_regret: {key} {move} not evaluated: {error}", file=sys.stderr, flush=True)
                    continue
                record = {"id": key, "at": position_digest(positions[key]), "move": move, "value": round(value, 4),
                          "reply": reply, "oracle": note}
                with lock:
                    with open(cache_path, "a", encoding="utf-8") as f:
                        f.write(json.dumps(record) + "\n")
                    done[0] += 1
                    if move == BEST and reply != RESIGN and (key, reply) not in seen:
                        seen.add((key, reply))
                        todo.insert(0, (key, reply))  # the best move's value, measured like the others'
                    print(f"{done[0]} evaluated, {len(todo)} to go: {key} {move} {value:.3f}", flush=True)

    threads = [threading.Thread(target=worker, args=(argv,)) for argv in commands]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return done[0], failures


def cached_pairs(cache: list[dict]) -> set[tuple[str, str]]:
    """The (id, move) pairs a cache holds."""
    return {(v["id"], v["move"]) for v in cache}


def wanted_moves(positions: dict, choice_files: list[list[dict]], have: set, best: bool) -> list:
    """The (id, move) pairs the choice files (and --best) need that are not in `have`, in order."""
    have = set(have)
    chosen: dict[str, list[str]] = {}
    for records in choice_files:
        for r in records:
            chosen.setdefault(r["id"], []).extend(r["choices"])
    needed = []
    for key in positions:
        for move in ([BEST] if best else []) + chosen.get(key, []):
            if (key, move) not in have:
                have.add((key, move))
                needed.append((key, move))
    return needed


# -- the score ------------------------------------------------------------------------------------------------

def position_values(records: list[dict], values: dict) -> dict[str, float]:
    """Each position's mean value over one choice file's searches (KeyError for a move not evaluated)."""
    return {r["id"]: statistics.fmean(values[r["id"], m] for m in r["choices"]) for r in records}


def paired(first: dict[str, float], second: dict[str, float]) -> tuple[float, float, float, int]:
    """The mean of second - first over the positions both hold, its 95% interval (normal, clustered by game:
    positions of one game are not independent), and the count of positions."""
    keys = sorted(first.keys() & second.keys())
    diffs = {k: second[k] - first[k] for k in keys}
    mean = statistics.fmean(diffs.values())
    games: dict[str, float] = {}
    for k, d in diffs.items():
        game = k.rsplit("@", 1)[0]
        games[game] = games.get(game, 0.0) + d - mean
    if len(games) < 2:
        return mean, -math.inf, math.inf, len(keys)
    spread = math.sqrt(sum(g * g for g in games.values()) * len(games) / (len(games) - 1)) / len(keys)
    return mean, mean - 1.96 * spread, mean + 1.96 * spread, len(keys)


def score(positions: dict, values: list[dict], choice_files: list[tuple[Path, list[dict]]]) -> str:
    """The score step's report."""
    value = {(v["id"], v["move"]): float(v["value"]) for v in values}
    best_move = {v["id"]: v["reply"] for v in values if v["move"] == BEST}
    lines, means = [], []
    for path, records in choice_files:
        try:
            per = position_values(records, value)
        except KeyError as missing:
            raise SystemExit(f"oracle_regret: {path}: the move {missing.args[0][1]} at {missing.args[0][0]} "
                             "has no value: run the oracle step with this file first") from None
        means.append(per)
        line = f"{path}: {len(per)} positions, mean value {statistics.fmean(per.values()):.4f}"
        scored = [r for r in records if (r["id"], best_move.get(r["id"])) in value]
        if scored:
            regret = statistics.fmean(value[r["id"], best_move[r["id"]]] - per[r["id"]] for r in scored)
            agree = statistics.fmean(m == best_move[r["id"]] for r in scored for m in r["choices"])
            line += f", mean regret {regret:.4f} over {len(scored)}, Pachi's move {agree:.1%} of searches"
        lines.append(line)
    if len(means) == 2:
        mean, low, high, n = paired(means[0], means[1])
        lines.append(f"second - first: {mean:+.4f} ({low:+.4f} to {high:+.4f}), paired over {n} positions, "
                     "the interval clustered by game")
    return "\n".join(lines)


# -- the command line -----------------------------------------------------------------------------------------

def moves_range(text: str) -> tuple[int, int]:
    """--moves' FIRST-LAST."""
    try:
        first, last = (int(part) for part in text.split("-"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"--moves is FIRST-LAST, got {text!r}") from None
    if not 0 <= first <= last <= 1000:
        raise argparse.ArgumentTypeError(f"--moves needs 0 <= FIRST <= LAST <= 1000, got {text!r}")
    return first, last


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    steps = parser.add_subparsers(dest="step", required=True)
    p = steps.add_parser("positions", help="pick positions of lost games")
    p.add_argument("dirs", nargs="+", type=Path)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--count", type=int, default=200)
    p.add_argument("--per-game", type=int, default=2)
    p.add_argument("--moves", type=moves_range, default=(10, 40))
    p.add_argument("--games", choices=("lost", "all"), default="lost")
    p.add_argument("--name", default="foogo")
    p.add_argument("--seed", type=int, default=1)
    c = steps.add_parser("choose", help="foogo's moves at the positions")
    c.add_argument("positions", type=Path)
    c.add_argument("--out", type=Path, required=True)
    c.add_argument("--playouts", type=int, default=26400)
    c.add_argument("--searches", type=int, default=4)
    c.add_argument("--policy", default="heavy")
    c.add_argument("--seed", type=int, default=1)
    add_tuning_options(c)
    o = steps.add_parser("oracle", help="Pachi's values of the moves chosen")
    o.add_argument("positions", type=Path)
    o.add_argument("choices", nargs="*", type=Path)
    o.add_argument("--pachi", required=True)
    o.add_argument("--cache", type=Path, required=True)
    o.add_argument("--pachi-playouts", type=int, default=80000)
    o.add_argument("--jobs", type=int, default=2)
    o.add_argument("--best", action="store_true")
    o.add_argument("--seed", type=int, default=1)
    s = steps.add_parser("score", help="the moves' mean values, and two files compared")
    s.add_argument("positions", type=Path)
    s.add_argument("cache", type=Path)
    s.add_argument("choices", nargs="+", type=Path)
    args = parser.parse_args(argv)

    if args.step == "positions":
        refuse_counts(parser, (("--count", args.count, MAX_RECORDS), ("--per-game", args.per_game, 1000)))
        picked = pick_positions([d for top in args.dirs for d in match_dirs(top)], args.name,
                                args.games, *args.moves, args.per_game, args.count, args.seed)
        if not picked:
            print("oracle_regret: no positions in those games", file=sys.stderr)
            return 2
        with open(args.out, "w", encoding="utf-8") as f:
            f.writelines(json.dumps(p) + "\n" for p in picked)
        print(f"{len(picked)} positions written to {args.out}")
        return 0

    try:
        positions = read_positions(args.positions)
        if args.step == "choose":
            refuse_counts(parser, (("--searches", args.searches, MAX_SEARCHES),))
            fields = tuning_fields(args)
            configs = [SearchConfig(playouts=args.playouts, policy=args.policy, seed=args.seed + i,
                                    resign_threshold=None, **fields) for i in range(args.searches)]
            with open(args.out, "w", encoding="utf-8") as f:
                for n, (key, position) in enumerate(positions.items(), 1):
                    game = game_at(position)
                    record = {"id": key, "at": position_digest(position),
                              "choices": [choose(game, config) for config in configs],
                              "playouts": args.playouts, "policy": args.policy, "settings": fields}
                    f.write(json.dumps(record) + "\n")
                    f.flush()
                    print(f"{n} of {len(positions)}: {key} {' '.join(record['choices'])}", flush=True)
            return 0
        choice_files = [(path, read_records(path, CHOICE_FIELDS)) for path in args.choices]
        for path, records in choice_files:
            unknown = [r["id"] for r in records if r["id"] not in positions]
            if unknown or not all(all(isinstance(m, str) for m in r["choices"]) for r in records):
                raise RecordError(f"{path}: not a choice file of these positions ({unknown[:1] or 'a choice'})")
            check_digests(path, records, positions)
        cache = read_records(args.cache, VALUE_FIELDS) if args.cache.exists() else []
        check_digests(args.cache, cache, positions)
        if args.step == "oracle":
            refuse_counts(parser, (("--jobs", args.jobs, MAX_JOBS), ("--pachi-playouts", args.pachi_playouts,
                                                                      10_000_000)))
            have = cached_pairs(cache)
            wanted = wanted_moves(positions, [r for _, r in choice_files], have, args.best)
            print(f"{len(wanted)} moves to evaluate ({len(cache)} in the cache)", flush=True)
            commands = [oracle_command(args.pachi, args.pachi_playouts, args.seed + i) for i in range(args.jobs)]
            done, failures = run_oracle(positions, wanted, commands, have, args.cache, f"Pachi ={args.pachi_playouts}")
            print(f"{done} evaluated, {len(failures)} failed" + (" (stopped)" if len(failures) >= MAX_FAILURES else ""))
            return 1 if failures else 0
        print(score(positions, cache, choice_files))
        return 0
    except (RecordError, ValueError) as error:
        print(f"oracle_regret: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
