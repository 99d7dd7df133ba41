"""foogo's decisions about passing in a match's games, searched again by this checkout's foogo.

    python bench/pass_decisions.py DIR [DIR ...] --out FILE.jsonl [--kind answer|first] [--name foogo]
                                   [--playouts 26400] [--seed 1] [--against OTHER.jsonl]

DIR is a match directory as bench/match_review.py reads it (game-NNNN.sgf, or a directory of job-*
such directories). --kind says which positions: `answer` (the default), each position where the
opponent has just passed and foogo is to move, the one where a pass of foogo's ends the game;
`first`, each position where foogo passed without answering a pass. Each is set up from its SGF
with the game's history (superko), and searched as `foogo gtp` would at fixed playouts (the heavy
policy, the game's komi, no resigning), with the foogo this Python imports. FILE.jsonl gets one line
a position: the game, the move number, the game's result, foogo's colour, what foogo played there in
the game, the search's move (-1: pass), its win rate, and the pass's visits and win rate.

A change to how the tree scores the end of a game is judged by running the script under both
versions (PYTHONPATH=CLONE for the old one) on the same games and seed, and giving the second run
the first's file as --against: it prints each position where the two chose differently or their
win rates differ by more than 0.05, and how many. A search of one seed is one sequence of
playouts, so two runs of the same code give the same file.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from match_review import main_line, match_dirs
from sgfmill import common

from foogo.game import Game
from foogo.game_sgf import SgfError
from foogo.geometry import PASS, parse_color
from foogo.match_results import named_colour
from foogo.search import HISTORY, Search, SearchConfig

MAX_POSITIONS = 100_000  # a file's lines: far beyond any match's passes
MAX_LINE = 10_000  # a record's characters: a line is about 300
DIFFERENT = 0.05  # win rates further apart than this count as a difference


def positions(root, moves: list, name: str, kind: str) -> tuple[str, list[int]]:
    """foogo's colour ('b' or 'w'; '' if neither player's name holds `name`, or both do) in an SGF
    game (its root node and its moves as sgfmill's (colour, move) pairs), and the move numbers (1-based)
    after which foogo is to move at a position of `kind`."""
    me = named_colour(root, name)
    if not me:
        return "", []  # neither player is foogo, or both are: no side to search for
    found = []
    for i, (colour, move) in enumerate(moves):
        if kind == "answer":
            hit = colour not in (None, me) and move is None
        else:
            after = moves[i + 1] if i + 1 < len(moves) else (None, ())
            hit = after[0] == me and after[1] is None and move is not None
        if hit:
            found.append(i + 1)
    return me, found


def decide(data: bytes, number: int, me: str, playouts: int, seed: int) -> dict:
    """The search's decision for foogo (colour `me`) at the position after move `number` of an SGF game
    (SgfError if the game cannot be replayed to it, or it is not foogo's turn there)."""
    game = Game(9)
    game.load_sgf_bytes(data, move_number=number + 1)
    if game.to_move != parse_color(me):
        raise SgfError(f"not {me}'s turn after move {number}")
    config = SearchConfig(playouts=playouts, policy="heavy", seed=seed, resign_threshold=None)
    result = Search(config).genmove(game.board, game.to_move, game.komi, game.legal_moves(game.to_move),
                                    history=game.recent_positions(HISTORY))
    return {"choice": int(result.move), "winrate": round(result.winrate, 4),
            "pass_visits": result.visits.get(PASS), "pass_rate": result.winrates.get(PASS)}


def run(dirs: list[Path], out, name: str, kind: str, playouts: int, seed: int) -> list[dict]:
    """Search every position of `kind` in the games of `dirs`, writing a line to `out` for each."""
    records = []
    for directory in dirs:
        for path in sorted(directory.glob("game-*.sgf")):
            data = path.read_bytes()
            if (read := main_line(path, data)) is None:
                continue
            game, moves = read
            root = game.get_root()
            me, numbers = positions(root, moves, name, kind)
            for number in numbers:
                after = moves[number] if number < len(moves) else (None, "end")
                try:
                    decision = decide(data, number, me, playouts, seed)
                except SgfError as error:
                    print(f"{path} after move {number}: skipped, {error}", file=sys.stderr)
                    continue
                record = {"game": str(path), "move": number,
                          "result": root.get("RE") if root.has_property("RE") else "",
                          "colour": me, "played": "end" if after[0] is None else common.format_vertex(after[1]),
                          **decision}
                out.write(json.dumps(record) + "\n")
                out.flush()
                records.append(record)
                if len(records) >= MAX_POSITIONS:
                    raise SystemExit(f"over {MAX_POSITIONS} positions: give fewer directories")
    return records


def differences(records: list[dict], other: list[dict]) -> list[tuple[dict, dict]]:
    """The positions where two runs' searches chose differently or their win rates differ by more than
    DIFFERENT; ValueError if the runs are not of the same positions."""
    if [_key(r) for r in records] != [_key(o) for o in other]:
        raise ValueError("the two runs are not of the same positions (the same directories and --kind?)")
    return [(o, r) for r, o in zip(records, other)
            if r["choice"] != o["choice"] or abs(r["winrate"] - o["winrate"]) > DIFFERENT]


def _key(record: dict) -> tuple:
    """A position's name in a run: the game's file by its last three path parts (arm, job, file), so that
    runs given the same directories as relative and as absolute paths compare, and its move number."""
    return Path(record["game"]).parts[-3:], record["move"]


FIELDS = {"game": str, "move": int, "result": str, "colour": str, "played": str, "choice": int,
          "winrate": (int, float)}


def read_records(path: Path) -> list[dict]:
    """The records of an earlier run's file; SystemExit naming the file for one that is not such a file."""
    try:
        records = []
        with open(path, encoding="utf-8") as f:
            while len(records) <= MAX_POSITIONS and (line := f.readline(MAX_LINE + 1)):
                if len(line) > MAX_LINE:
                    raise ValueError(f"a line over {MAX_LINE} characters")
                records.append(json.loads(line))
        if len(records) > MAX_POSITIONS or not all(
                isinstance(r, dict) and all(isinstance(r.get(k), kind) for k, kind in FIELDS.items())
                for r in records):
            raise ValueError("not a pass_decisions file")
    except (OSError, ValueError) as error:
        raise SystemExit(f"{path}: {error}") from None
    return records


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--kind", choices=("answer", "first"), default="answer")
    parser.add_argument("--name", default="foogo")
    parser.add_argument("--playouts", type=int, default=26_400)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--against", type=Path)
    args = parser.parse_args(argv)
    if not 1 <= args.playouts <= 10**7:
        parser.error("--playouts must be 1 .. 10000000")
    other = read_records(args.against) if args.against else None
    dirs = [d for directory in args.dirs for d in match_dirs(directory)]
    with open(args.out, "w", encoding="utf-8") as out:
        records = run(dirs, out, args.name, args.kind, args.playouts, args.seed)
    passes = sum(r["choice"] == PASS for r in records)
    print(f"{len(records)} positions ({args.kind}) in {len(dirs)} directories: the search passes in {passes}")
    if other is not None:
        try:
            changed = differences(records, other)
        except ValueError as error:
            raise SystemExit(f"--against {args.against}: {error}; this run's file is {args.out}") from None
        for old, new in changed:
            print(f"{old['game']} after move {old['move']} ({old['result']}, foogo {old['colour']}, played "
                  f"{old['played']}): {args.against.name} {old['choice']} at {old['winrate']}, "
                  f"now {new['choice']} at {new['winrate']} (pass {old['pass_rate']} -> {new['pass_rate']})")
        print(f"{len(changed)} of {len(records)} differ from {args.against.name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
