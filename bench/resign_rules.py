"""What each resign rule would have made of a match played without resigning, game by game, exactly.

    python bench/resign_rules.py DIR [DIR ...] [--engine auto|A|B] [--name foogo]
                                 [--thresholds 0.10,0.05,0.02,0.01] [--runs 1,2,3,5] [--reference 0.10:1]

DIR is a match directory as bench/match_review.py reads it (game-NNNN.sgf and the engines' logs, or a
directory of job-* such directories: bench/pachi_ab.py's arm directories). The games are to be played
with `foogo gtp --no-resign`.

A rule (t, m) resigns at a genmove when the root win rates foogo reported at its last m genmoves of
the game, this one included, are all below t (search.py's resign rule is (t, 1) with t its
resign_threshold). A rule that looks only at foogo's own results so far changes a game only from the
genmove where it fires, and up to there the game is the one played. So its result in a game is a loss
if it fires at one of foogo's genmoves there, else the game's result as played: every rule is scored
on the same games, and two rules differ game by game by 0, 0.5 or 1 (a draw is half a win). The table
gives each rule's games it fires in, its score and win rate, foogo's genmoves it saves (those after it
fires), and its difference from the reference rule with a 95% interval (the mean of the per-game
differences +- 1.96 of their standard error); `never` is the match as played. Then the games that
some rule of the table loses and `never` does not: where a resignation would have thrown a game away.

The log prints a win rate to 0.1%, so a rate printed exactly at a threshold (10.0% for 0.10) may lie
either side of it by 0.05%: such genmoves are counted ("at the edge") and taken as not below, and each
rule whose results would change with them taken as below is named.
"""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path

from match_review import match_dirs, review

from foogo.match_results import black_score

NEVER = (None, 0)
EDGE = 5e-4  # half the log's last printed digit (0.1%)
MAX_RULES = 100  # thresholds times runs: the table's rows


def game_score(record: dict) -> float | None:
    """foogo's score in a reviewed game (match_review.review's record): 1, 0.5 or 0; None without a result."""
    black = black_score(record["result"])
    if black is None:
        return None
    return black if record["colour"] == "b" else 1.0 - black


def fires_at(rates: list, threshold: float | None, run: int, edge_below: bool = False) -> int | None:
    """The index of the first genmove at which rule (threshold, run) resigns, given foogo's win rates
    genmove by genmove (None where a line gave none, which breaks a run), or None if it never does; a
    rate printed at the threshold itself counts as below it only with edge_below."""
    if threshold is None:
        return None
    bar = threshold + EDGE if edge_below else threshold - EDGE
    below = 0
    for k, rate in enumerate(rates):
        below = below + 1 if rate is not None and rate < bar else 0
        if below >= run:
            return k
    return None


def parse_rule(text: str) -> tuple[float | None, int]:
    """A rule written T:M (threshold T, run M), or `never`."""
    if text == "never":
        return NEVER
    threshold, _, run = text.partition(":")
    value, count = float(threshold), int(run or "1")
    if not 0.0 < value < 1.0 or count < 1:
        raise ValueError(f"bad rule {text!r}: want T:M with 0 < T < 1 and M >= 1, or never")
    return value, count


def name(rule: tuple[float | None, int]) -> str:
    """A rule's name in the table."""
    return "never" if rule[0] is None else f"below {rule[0]:.2f} for {rule[1]}"


def evaluate(games: list[dict], rule: tuple[float | None, int], edge_below: bool = False) -> dict:
    """One rule's results over the games: per-game scores, the games it fires in, genmoves saved."""
    scores, fired, saved = [], 0, 0
    for g in games:
        at = fires_at(g["rates"], *rule, edge_below)
        if at is None:
            scores.append(g["score"])
        else:
            scores.append(0.0)
            fired += 1
            saved += len(g["rates"]) - 1 - at
    return dict(scores=scores, fired=fired, saved=saved)


def paired(scores: list[float], reference: list[float]) -> tuple[float, float, float]:
    """(mean difference, low, high): the mean of the per-game differences and its 95% normal interval."""
    d = [a - b for a, b in zip(scores, reference)]
    n = len(d)
    mean = sum(d) / n
    var = sum((x - mean) ** 2 for x in d) / (n - 1) if n > 1 else 0.0
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dirs", nargs="+", type=Path)
    parser.add_argument("--engine", default="auto", choices=["auto", "A", "B"])
    parser.add_argument("--name", default="foogo")
    parser.add_argument("--thresholds", default="0.10,0.05,0.02,0.01")
    parser.add_argument("--runs", default="1,2,3,5")
    parser.add_argument("--reference", default="0.10:1", help="the rule the others are compared with (T:M)")
    args = parser.parse_args(argv)
    try:
        rules = [(float(t), int(m)) for t in args.thresholds.split(",") for m in args.runs.split(",")]
        reference = parse_rule(args.reference)
        if any(not 0.0 < t < 1.0 or m < 1 for t, m in rules):
            raise ValueError("thresholds must lie in (0, 1) and runs be 1 or more")
        if len(rules) > MAX_RULES:
            raise ValueError(f"at most {MAX_RULES} rules (thresholds times runs), got {len(rules)}")
    except ValueError as error:
        parser.error(str(error))
    games, skipped = [], 0
    for directory in args.dirs:
        for match in match_dirs(directory):
            for record in review(match, args.engine, args.name):
                score = None if record is None else game_score(record)
                if score is None:
                    skipped += 1
                    continue
                record["score"] = score
                games.append(record)
    if not games:
        print("no scored games", file=sys.stderr)
        return 1
    edge = sum(1 for g in games for r in g["rates"] if r is not None and any(abs(r - t) < EDGE for t, _ in rules))
    print(f"{len(games)} games ({skipped} skipped: unscored, or a log that does not match the game), "
          f"{sum(len(g['rates']) for g in games)} genmoves of foogo's, {edge} at the edge of a threshold")
    table = [NEVER] + rules
    results = {rule: evaluate(games, rule) for rule in table + [reference]}  # each rule once, the reference too
    base = results[reference]
    print(f"reference: {name(reference)}; differences in points of 100 games, 95% interval\n")
    print("rule | fires in | score | win rate | genmoves saved | against the reference")
    print("---|---:|---:|---:|---:|---:")
    for rule in table:
        r = results[rule]
        mean, low, high = paired(r["scores"], base["scores"])
        total = sum(r["scores"])
        print(f"{name(rule)} | {r['fired']} | {total:g} | {100 * total / len(games):.1f}% | {r['saved']} | "
              f"{100 * mean:+.1f} ({100 * low:+.1f} to {100 * high:+.1f})")
    for rule in rules + ([reference] if reference not in rules else []):
        other = evaluate(games, rule, edge_below=True)["scores"]
        changed = sum(a != b for a, b in zip(other, results[rule]["scores"]))
        if changed:
            print(f"{name(rule)}: {changed} games go the other way with the rates printed at its threshold "
                  "taken as below it")
    never = results[NEVER]["scores"]
    thrown = [k for k in range(len(games)) if any(results[rule]["scores"][k] < never[k] for rule in rules)]
    print(f"\ngames some rule throws away ({len(thrown)}): foogo's score as played, its lowest win rate "
          "and the rules that lose it")
    for k in thrown:
        g = games[k]
        low = min(r for r in g["rates"] if r is not None)
        losing = [name(rule) for rule in rules if results[rule]["scores"][k] < never[k]]
        print(f"  {g['path']}: {g['score']:g} as {g['colour']}, lowest {100 * low:.1f}%, {len(g['rates'])} "
              f"genmoves; lost by {len(losing)}: {', '.join(losing)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
