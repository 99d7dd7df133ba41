"""How much of the blind points at chosen positions of an owner_blind report the foogo on PYTHONPATH gives itself.

    PYTHONPATH=CHECKOUT python bench/blind_shares.py REPORT GAMES [--positions job-38:58,job-6:54,...]
                                                   [--playouts 240000] [--seed 1]

REPORT is bench/owner_blind.py's printed report (with its diagrams: no --quiet), GAMES the directory of job-*
directories it read. For each named position (job:move; default: the six whose blind regions were groups decided
in fights, bench/RESULTS.md, "Where foogo misjudged the board before its lost games turned"), the blind points
are read off the report's diagram (owner_blind.diagram_blind), and foogo's heavy search (owner_blind.foogo_view,
on one thread) gives its estimate and foogo's share of those points: the mean of its probability of owning
each. Run once per checkout (a worktree with a switch on, one without) to see whether a change moves foogo's
reading toward what happened (lower shares: the points went to the opponent).
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

import owner_blind
from option_caps import refuse_counts
from sgfmill import sgf

SIX = "job-38:58,job-6:54,job-6:58,job-16:36,job-35:45,job-56:36"
GAME = re.compile(r"== .*/(job-\d+)/game-0001\.sgf: foogo ([bw]),")
MOVE = re.compile(r"move (\d+) ")


def blind_points(report: str, size: int = 9) -> dict[tuple[str, int], tuple[str, set[str]]]:
    """(job, move) -> (foogo's colour "b" or "w", its blind points) for each position of `report` with a diagram."""
    lines = report.splitlines()
    found: dict[tuple[str, int], tuple[str, set[str]]] = {}
    job = colour = None
    for i, line in enumerate(lines):
        game = GAME.match(line)
        if game:
            job, colour = game.group(1), game.group(2)
            continue
        move = MOVE.match(line)
        if not move or job is None or "blind regions: none" in line:
            continue
        found[(job, int(move.group(1)))] = (colour, owner_blind.diagram_blind(lines[i + 1:i + 1 + size], size))
    return found


def position_list(text: str) -> list[tuple[str, int]]:
    """"job-38:58,job-6:54" -> [("job-38", 58), ("job-6", 54)]; ValueError on anything else."""
    out = []
    for item in text.split(","):
        job, _, move = item.strip().partition(":")
        if not re.fullmatch(r"job-\d+", job) or not move.isdigit():
            raise ValueError(f"a position is job-N:MOVE, got {item!r}")
        out.append((job, int(move)))
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("games", type=Path)
    parser.add_argument("--positions", default=SIX, help="job:move,... (default: the six of 2026-12-07)")
    parser.add_argument("--playouts", type=int, default=240_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    refuse_counts(parser, [("--playouts", args.playouts, owner_blind.MOST_PLAYOUTS)])
    try:
        wanted = position_list(args.positions)
    except ValueError as error:
        parser.error(str(error))
    known = blind_points(args.report.read_text())
    missing = [f"{job}:{move}" for job, move in wanted if (job, move) not in known]
    if missing:
        parser.error(f"no diagram of blind points in {args.report} for {', '.join(missing)}")
    print(f"# foogo {owner_blind.__file__}, {args.playouts} playouts, seed {args.seed}")
    for job, move in wanted:
        colour, points = known[(job, move)]
        start = time.process_time()
        path = args.games / job / "game-0001.sgf"
        komi = owner_blind.komi_of(sgf.Sgf_game.from_bytes(path.read_bytes()).get_root())
        _, rate, owned = owner_blind.foogo_view(path, move, komi, args.playouts, args.seed)
        black = [owned[v] for v in sorted(points)]
        share = sum(black) / len(black) if colour == "b" else sum(1.0 - x for x in black) / len(black)
        print(f"{job} move {move}: {len(points)} blind points, foogo's share {share:.2f}, estimate {rate:.2f} "
              f"({time.process_time() - start:.1f} CPU s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
