"""foogo's dead-stone estimate against GNU Go's scoring, on games GNU Go finishes and on saved games.

    python bench/score_check.py --gnugo-games 100 [--level 1] [--seed 1] [--policies light,heavy,combined]
    python bench/score_check.py --sgf-dir DIR          (games whose RE holds a referee's score)

foogo scores a finished position (game_score.final_score) from the ownership of playouts from its
final stones; this script scores each position with each of --policies (built-in playout policies:
light is uniform, heavy the default's, heavy-nakade heavy with nakade sacrifices; or "combined",
foogo's own: heavy playouts' sekis, and the strings either light or heavy ones judge dead), so that what the
policy changes is seen side by side. --gnugo-games plays that many games of
GNU Go (/usr/games/gnugo, --chinese-rules, komi 7, 9x9) against itself at --level until two passes,
each with its own --seed, and compares with GNU Go's own final_score there; --sgf-dir compares with
the RE of every SGF below DIR that ends in a score (resigned and timed-out games are skipped: no
score to compare). Prints the count of agreements per policy and every position where a policy
disagrees, with both scores, the board and the strings each policy calls dead or seki; read these,
since GNU Go's own scoring misjudges some sekis (bench/RESULTS.md, "Dead stones read by heavy
playouts").
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from option_caps import refuse_counts  # noqa: E402

from foogo import game_score as gs  # noqa: E402
from foogo.game import Game  # noqa: E402
from foogo.gtp_client import GtpClient  # noqa: E402
from foogo.match import MAX_GAMES  # noqa: E402

GNUGO = "/usr/games/gnugo"
SCORE = re.compile(r"[BW]\+[0-9.]+|0")


def judge(game: Game, policies) -> dict:
    """policy -> (score, statuses other than alive as (status, first vertex, stones)); policy
    "combined" is game_score.final_statuses, how foogo scores (light's and heavy's combined)."""
    out = {}
    board = game.board
    for policy in policies:
        if policy == "combined":
            statuses = gs.final_statuses(board)
        else:
            statuses = gs.string_statuses(board, gs.final_ownership(board, policy=policy))
        score = gs.format_score(gs.margin_without(board, game.komi, set(gs.dead_points(statuses))))
        out[policy] = (score, [(s, board.geometry.name(pts[0]), len(pts)) for s, _, pts in statuses if s != "alive"])
    return out


def gnugo_game(level: int, seed: int) -> tuple[str, str]:
    """(SGF moves, GNU Go's final_score) of a GNU Go self-play game at `level` to two passes."""
    with GtpClient([GNUGO, "--mode", "gtp", "--chinese-rules", "--level", str(level), "--seed", str(seed)]) as go:
        go.send("boardsize 9")
        go.send("clear_board")
        go.send("komi 7")
        moves = []
        passes = 0
        color = "b"
        while passes < 2 and len(moves) < 300:
            move = go.send(f"genmove {color}", timeout=120).strip().lower()
            passes = passes + 1 if move == "pass" else 0
            moves.append((color, move))
            color = "w" if color == "b" else "b"
        score = go.send("final_score", timeout=120).strip()
    letters = "abcdefghjklmnopqrst"

    def sgf_point(v: str) -> str:
        if v == "pass":
            return "tt"
        col, row = letters.index(v[0]), int(v[1:])
        return "abcdefghijklmnopqrs"[col] + "abcdefghijklmnopqrs"[9 - row]

    body = "".join(f";{c.upper()}[{sgf_point(v)}]" for c, v in moves)
    return f"(;GM[1]FF[4]SZ[9]KM[7]RE[{score}]{body})", score


def report(name: str, want: str, game: Game, verdicts: dict, agree: dict) -> None:
    """Count the agreements and print a disagreement."""
    for policy, (score, _) in verdicts.items():
        agree[policy] += score == want
    if any(score != want for score, _ in verdicts.values()):
        print(f"\n{name}: GNU Go {want}", flush=True)
        for policy, (score, marked) in verdicts.items():
            print(f"  {policy:5} {score:7} {marked}")
        print(game.board)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--gnugo-games", type=int, default=0)
    parser.add_argument("--level", type=int, default=1)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sgf-dir", type=Path)
    parser.add_argument("--policies", default="light,heavy,combined")
    args = parser.parse_args()
    refuse_counts(parser, (("--gnugo-games", args.gnugo_games, MAX_GAMES),), least=0)  # a match's games
    policies = args.policies.split(",")
    agree = dict.fromkeys(policies, 0)
    total = 0
    for k in range(args.gnugo_games):
        sgf, want = gnugo_game(args.level, args.seed + k)
        game = Game(9, komi=7)
        game.load_sgf_bytes(sgf.encode())
        total += 1
        report(f"GNU Go self-play, level {args.level}, seed {args.seed + k}", want, game, judge(game, policies), agree)
    if args.sgf_dir is not None:
        for path in sorted(args.sgf_dir.rglob("*.sgf")):
            data = path.read_bytes()
            found = re.search(rb"RE\[([^\]]*)\]", data)
            want = found.group(1).decode() if found else ""
            if not SCORE.fullmatch(want):
                continue
            game = Game(9)
            game.load_sgf_bytes(data)
            total += 1
            report(str(path), want, game, judge(game, policies), agree)
    print(f"\n{total} scored positions; agreeing with GNU Go: "
          + ", ".join(f"{p} {n} ({n / max(total, 1):.1%})" for p, n in agree.items()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
