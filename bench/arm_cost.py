"""CPU a search costs in one checkout against another, at the same positions, to set an A/B's equal CPU.

    python bench/arm_cost.py CONTROL ARM --policy heavy --playouts 32300 [--rounds 3] [--games 3]
                             [--size 9] [--control-config KEY=VALUE ...] [--arm-config KEY=VALUE ...]

Before an A/B at equal CPU (bench/pachi_ab.py), the arm's playout count is the control's divided by
what its searches cost against the control's. This script measures that factor: it plays `--games`
quick self-play games in the CONTROL checkout (policy_cost.positions: positions at moves 0, 10,
20, 30 and 40), then searches each position for `--playouts` playouts on one thread
(policy_cost.cpu_seconds) in a child process of each checkout (PYTHONPATH=CHECKOUT), `--rounds`
times, the order turning each round, and times the searches by the process's CPU clock. It prints
each round's sums, the arm's cost over the control's (the ratio of all sums), the median ratio at
each move number, each round's ratio with their spread (and a warning when they spread more than an
A/B's 3% CPU check: the ratio is then that uncertain), and the arm's equal-CPU playout count.

`--policy` has no default, on purpose: `SearchConfig()` searches with light playouts, and a cost
run that forgot the policy once measured two identical light searches (1.008) for a change that
acts in heavy ones only (1.116; bench/RESULTS.md, "The late switch inside the playouts, a second
block"). `--control-config` and `--arm-config` set other SearchConfig fields (numbers or words),
so that one checkout can be both arms.

Its rounds are short, and their ratios spread by several percent (twice a count from three rounds
missed the games' equal CPU by about 3%: bench/RESULTS.md, "A ko rule in the heavy playouts"). Where a
block of games has been played, bench/pachi_ab.py's "CPU a playout" line, over thousands of the games'
own searches, is the steadier figure: it sets the next block's count, and this script is for a first one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from option_caps import refuse_counts

from foogo.bench import MAX_REPEATS
from foogo.match import MAX_GAMES
from foogo.search import MAX_PLAYOUTS

HERE = os.path.dirname(os.path.abspath(__file__))
# an equal-CPU A/B holds if its arms' match CPU a move agree within 3% (bench/pachi_ab.py's CPU line): rounds that
# spread more leave the ratio uncertain by as much (2026-12-01: rounds of 0.998, 1.032 and 1.058 gave 1.029 for a
# rule whose searches then cost the same as the control's over 3,900 moves of games)
SPREAD_WARNING = 0.03

_CHILD = """
import json, sys
sys.path.insert(0, sys.argv[1])
from policy_cost import cpu_seconds
from foogo.game import Game
positions, size, policy = sys.argv[2], int(sys.argv[3]), sys.argv[4]
playouts, options = int(sys.argv[5]), json.loads(sys.argv[6])
games = []
for moves in json.load(open(positions)):
    game = Game(size, 7.0)
    for point in moves:
        game.play(game.to_move, point)
    games.append(game)
cpu_seconds(games[-1], policy, 2000, **options)  # compile or load every kernel before timing
print(json.dumps([cpu_seconds(game, policy, playouts, **options) for game in games]))
"""

_POSITIONS = """
import json, sys
sys.path.insert(0, sys.argv[1])
from policy_cost import positions
print(json.dumps([[int(p) for _, p in game.history] for game in positions(int(sys.argv[2]), int(sys.argv[3]))]))
"""


def config_pairs(pairs: list[str]) -> dict:
    """KEY=VALUE words as SearchConfig fields: integers, then floats, else the word."""
    options: dict = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise SystemExit(f"arm_cost: expected KEY=VALUE, got {pair!r}")
        for kind in (int, float):
            try:
                options[key] = kind(value)
                break
            except ValueError:
                continue
        else:
            options[key] = value
    return options


def child(checkout: str, argv: list[str]) -> subprocess.CompletedProcess:
    """Run python -c CODE with foogo imported from `checkout`."""
    env = {**os.environ, "PYTHONPATH": os.path.abspath(checkout)}
    return subprocess.run([sys.executable, "-c", *argv], capture_output=True, text=True, check=True,
                          timeout=3600, env=env, cwd=tempfile.gettempdir())


def measure(control: str, arm: str, policy: str, playouts: int, rounds: int, games: int, size: int,
            control_config: dict, arm_config: dict) -> dict:
    """Each search's CPU seconds, per checkout and round, at the positions of the control's games."""
    made = json.loads(child(control, [_POSITIONS, HERE, str(size), str(games)]).stdout.strip().splitlines()[-1])
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as handle:
        json.dump(made, handle)
        positions = handle.name
    try:
        times: dict[str, list[list[float]]] = {"control": [], "arm": []}
        setups = {"control": (control, control_config), "arm": (arm, arm_config)}
        for r in range(rounds):
            for name in (("control", "arm") if r % 2 == 0 else ("arm", "control")):
                checkout, options = setups[name]
                out = child(checkout, [_CHILD, HERE, positions, str(size), policy, str(playouts),
                                       json.dumps(options)])
                times[name].append(json.loads(out.stdout.strip().splitlines()[-1]))
    finally:
        os.unlink(positions)
    return {"times": times, "moves": [len(moves) for moves in made]}  # each position's move number


def report(result: dict, playouts: int) -> dict:
    """The arm's cost over the control's (all sums), each round's ratio and their spread (largest less
    smallest), the median ratio at each move number, and the arm's playout count for equal CPU."""
    control, arm = result["times"]["control"], result["times"]["arm"]
    control_sums, arm_sums = [sum(run) for run in control], [sum(run) for run in arm]
    ratio = sum(arm_sums) / sum(control_sums)
    by_move: dict[int, list[float]] = {}
    for i, move in enumerate(result["moves"]):
        c = statistics.median(run[i] for run in control)
        a = statistics.median(run[i] for run in arm)
        by_move.setdefault(move, []).append(a / c)
    rounds = [a / c for a, c in zip(arm_sums, control_sums)]
    return {"control_sums": control_sums, "arm_sums": arm_sums,
            "ratio": ratio, "rounds": rounds, "spread": max(rounds) - min(rounds),
            "by_move": {m: statistics.median(r) for m, r in sorted(by_move.items())},
            "equal_cpu_playouts": int(round(playouts / ratio / 100.0)) * 100}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("control")
    parser.add_argument("arm")
    parser.add_argument("--policy", required=True, help="the searches' playout policy (no default: see above)")
    parser.add_argument("--playouts", type=int, required=True)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--control-config", nargs="*", default=[], metavar="KEY=VALUE")
    parser.add_argument("--arm-config", nargs="*", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    # the engine's own caps: a search's playouts, a bench's timed runs (a round is one), a match's games
    refuse_counts(parser, (("--playouts", args.playouts, MAX_PLAYOUTS), ("--rounds", args.rounds, MAX_REPEATS),
                           ("--games", args.games, MAX_GAMES)))
    result = measure(args.control, args.arm, args.policy, args.playouts, args.rounds, args.games, args.size,
                     config_pairs(args.control_config), config_pairs(args.arm_config))
    out = report(result, args.playouts)
    print(f"{args.policy} searches of {args.playouts} playouts, {len(result['moves'])} positions, "
          f"{args.rounds} rounds alternated")
    print("control sums (s): " + ", ".join(f"{s:.3f}" for s in out["control_sums"]))
    print("arm sums (s):     " + ", ".join(f"{s:.3f}" for s in out["arm_sums"]))
    print(f"arm / control CPU: {out['ratio']:.3f}; by move number: "
          + ", ".join(f"{m}: {r:.3f}" for m, r in out["by_move"].items()))
    print("each round's ratio: " + ", ".join(f"{r:.3f}" for r in out["rounds"])
          + f" (spread {out['spread']:.3f})")
    if out["spread"] > SPREAD_WARNING:
        print(f"the rounds spread more than {SPREAD_WARNING:.0%}, an A/B's CPU check: the ratio is that uncertain; "
              "more --rounds or --games on a quiet machine narrow it")
    print(f"the arm's playouts for equal CPU: {out['equal_cpu_playouts']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
