"""Fit the learned prior's feature gammas to games by Minorization-Maximization, and write the table.

    python bench/learn_gammas.py SGF_DIR [SGF_DIR ...] [--out foogo/data/gammas.npz]
                                 [--iterations 40] [--held-out 0.1] [--test DIR ...] [--player NAME]
    python bench/learn_gammas.py SGF_DIR [SGF_DIR ...] --score TABLE [TABLE ...] [--player NAME]

Reads every *.sgf under the directories (sorted, so the same files give the same table), replays
each game on a foogo Board and, before every move, takes the features (foogo/features.py) of all
the moves the tree would consider, as the heavy policies' searches see them (a nakade in a class of
its own, features.T_NAKADE); the move played is the winner among them. A move the tree
would not consider (an own-eye fill, say) or a pass teaches nothing and is skipped; so are games
with setup stones or an illegal move (from that move on). Games are split by index into training
and held-out sets (every k-th game held out), so the held-out figures measure prediction on games
the fit never saw. With --test DIR ..., the games under those directories are the held-out set
instead and every game of SGF_DIR is trained on: two fits from different training sets (more
games, say) then compare on the same held-out games. With --player NAME only the moves of a player
whose name (the SGF's PB or PW) holds NAME, in any case, are learned and tested (`Pachi` takes
Pachi's side of a match against foogo, and both sides of Pachi's self-play); the other side's moves
are played on the board and teach nothing.

The model (Coulom 2007): a move's gamma is the product of its features' gammas, one per group,
and P(move j chosen) = gamma_j / sum of the candidates' gammas. MM updates one group at a time,
gamma_i <- (W_i + 1) / (C_i + 2 / (gamma_i + 1)), where W_i counts the chosen moves with feature
i, C_i sums over positions the candidates with feature i's gamma-less-gamma_i over the position's
total, and the +1 / 2 / (gamma_i + 1) terms are one virtual win and one virtual loss against a
move of gamma 1 (Coulom's prior, which keeps rare features near 1). After each update the group is
scaled so that its mean log gamma over the candidates is 0 (which changes no probability: every
candidate has one feature of each group), so gamma 1 stands for an average feature of the group.
3x3 patterns are folded by the 8 symmetries first (gamma_table.pattern_classes); a class never seen
among the candidates gets gamma 1, an average shape. The spatial patterns (spatial_patterns.RING: the 5x5
square less its corners, and its inner 12 points) are a sixth group: each candidate's is its
level-2 pattern if that was seen at least --min-count (features.SPATIAL_MIN_COUNT) times among the
training candidates, else its level-1 pattern if that was, else none (gamma 1, which the engine
also gives a pattern its table lacks). A table with more spatial patterns than the engine's hash
table holds is fitted and tested but not written.

Prints per iteration the training log-likelihood per move, and at the end the held-out mean log
probability of the move played, how often it was the top-rated candidate and how often among the
top 5, against the same for uniform choice; then the gammas of the small groups and the
strongest and weakest patterns. Writes the table (features.TABLE_SIZE float32), the spatial
patterns' canonical keys and gammas (`spatial_keys`, `spatial_gammas`), and the provenance
(`source`, `games`, `positions`, held-out figures) to --out.

With --score, nothing is fitted: every game under the directories is rated by each table given (files
as --out writes them, the shipped one included) through the engine's own path, gamma_table.move_gammas,
which is what the tree's prior reads. It prints each table's mean log p of the move played, its top-1
and top-5 rates, and, for each table after the first, the paired difference in mean log p from the
first, position by position, with its 95% interval: a candidate table against the shipped one on games
neither was fitted to, before any match.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np
from option_caps import refuse_counts
from sgfmill import sgf

from foogo import BLACK, WHITE
from foogo import features as fe
from foogo import gamma_table as gt
from foogo.board import Board
from foogo.match_results import named_colours


def game_positions(path: Path, max_bytes: int = 1 << 20, player: str = ""):
    """Yield (board, colour, moves, feats, chosen) before each learnable move of one SGF game, in order, up
    to an illegal move: the position and the mover, which the caller reads before asking for the next (the
    board then plays the move); the candidates the tree would consider and their features
    (features.candidates, as the heavy policies' searches rate moves: sacrifices included); and the index of
    the move played among them. A move the tree would not consider (an own-eye fill, say) is skipped, and
    passes teach nothing. Nothing for a file that is too large, does not parse, or sets up stones. With
    `player`, only the moves of a colour whose name (PB, PW) holds it, in any case; the other side's moves
    are played all the same."""
    data = path.read_bytes()
    if len(data) > max_bytes:
        return
    try:
        game = sgf.Sgf_game.from_bytes(data)
        size = game.get_size()
        root = game.get_root()
        nodes = game.get_main_sequence()[1:]
    except ValueError:
        return
    if root.has_property("AB") or root.has_property("AW") or not 2 <= size <= 25:
        return
    learned = {"b", "w"}
    if player:
        learned = named_colours(root, player)
        if not learned:
            return
    board = Board(size)
    for node in nodes:
        try:
            colour, move = node.get_move()
        except ValueError:
            return
        if colour is None:
            continue
        c = BLACK if colour == "b" else WHITE
        if move is None:
            board.play(c, "pass")
            continue
        if not board.is_legal(c, move):
            return
        if colour in learned:
            moves, feats = fe.candidates(board, c, sacrifices=True)
            hit = np.flatnonzero(moves == board.geometry.point(*move))
            if hit.size:
                yield board, c, moves, feats, int(hit[0])
        board.play(c, move)


def game_samples(path: Path, max_bytes: int = 1 << 20, player: str = ""):
    """(feats, chosen index) for each usable move of one SGF game (game_positions), in order: the
    candidates' features with their spatial codes as a last column, and the index of the move played."""
    return [(np.concatenate([feats.astype(np.int64), fe.spatial_codes(board, c, moves)[:, None]], axis=1), chosen)
            for board, c, moves, feats, chosen in game_positions(path, max_bytes, player)]


SPATIAL = len(fe.GROUPS)  # the column of a sample's feats holding the raw spatial code
MAX_ITERATIONS = 10_000  # --iterations: 250 times the default (40), each a pass over every training candidate


class Data:
    """Candidates of many positions as flat arrays: raw features (the pattern column folded to its
    class; the spatial column, if any, the raw code), the position of each row, the chosen row of
    each position."""

    def __init__(self, samples, class_of: np.ndarray):
        self.positions = len(samples)
        counts = np.array([len(f) for f, _ in samples], dtype=np.int64)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
        raw = np.concatenate([f for f, _ in samples]).astype(np.int64)
        self.pos = np.repeat(np.arange(self.positions), counts)
        self.chosen = starts + np.array([k for _, k in samples], dtype=np.int64)
        raw[:, fe.G_PATTERN] = class_of[raw[:, fe.G_PATTERN]]
        self.raw = raw  # pattern column: class (a code); others: the group's own value


def class_index(classes: np.ndarray, codes: np.ndarray) -> np.ndarray:
    """Each code's index in the sorted array `classes`, or -1 where it is not there."""
    index = np.minimum(np.searchsorted(classes, codes), len(classes) - 1)
    return np.where(classes[index] == codes, index, -1)


def spatial_levels(raw: np.ndarray) -> list[np.ndarray]:
    """The canonical level-1 and level-2 keys (gamma_table.spatial_keys) of each row's spatial code."""
    return [gt.spatial_keys(raw[:, SPATIAL], level) for level in (1, 2)]


def frequent_spatial(raw: np.ndarray, least: int = fe.SPATIAL_MIN_COUNT) -> np.ndarray:
    """The sorted spatial keys, of either level, seen at least `least` times."""
    keys, counts = np.unique(np.concatenate(spatial_levels(raw)), return_counts=True)
    return keys[counts >= least]


def feature_ids(raw: np.ndarray, classes: np.ndarray, spatial: np.ndarray | None = None) -> np.ndarray:
    """Global compact ids: pattern classes 0..len(classes)-1 (unknown classes -1), then each small
    group at its offset after them, then (given the frequent spatial keys) each row's largest
    frequent spatial pattern (-1: none)."""
    groups = len(fe.GROUPS)
    ids = np.empty((len(raw), groups + (spatial is not None)), dtype=np.int64)
    ids[:, 0] = class_index(classes, raw[:, 0])
    offset = len(classes)
    for g in range(1, groups):
        ids[:, g] = offset + raw[:, g]
        offset += fe.GROUP_SIZES[g]
    if spatial is not None:
        col = np.full(len(raw), -1, dtype=np.int64)
        for keys in spatial_levels(raw):  # level 2 last: the larger pattern wins
            index = class_index(spatial, keys) if len(spatial) else np.full(len(raw), -1)
            col = np.where(index >= 0, offset + index, col)
        ids[:, groups] = col
    return ids


def feature_count(classes: np.ndarray, spatial: np.ndarray) -> int:
    """How many features feature_ids numbers with these pattern classes and frequent spatial keys."""
    return len(classes) + sum(fe.GROUP_SIZES[1:]) + len(spatial)


def team_gammas(ids: np.ndarray, gamma: np.ndarray) -> np.ndarray:
    """The product of each row's feature gammas (an unknown pattern counts 1)."""
    team = np.ones(len(ids))
    for g in range(ids.shape[1]):
        col = ids[:, g]
        team *= np.where(col >= 0, gamma[np.maximum(col, 0)], 1.0)
    return team


def team_totals(data: Data, ids: np.ndarray, gamma: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(each row's team gamma, each position's sum of them)."""
    team = team_gammas(ids, gamma)
    return team, np.bincount(data.pos, weights=team, minlength=data.positions)


def fit(data: Data, ids: np.ndarray, nfeatures: int, iterations: int, log=print) -> np.ndarray:
    """MM iterations over the groups; returns the gammas (float64[nfeatures])."""
    gamma = np.ones(nfeatures)
    chosen_ids = ids[data.chosen]
    wins = np.zeros(nfeatures)
    for g in range(ids.shape[1]):
        col = chosen_ids[:, g]
        wins += np.bincount(col[col >= 0], minlength=nfeatures)
    groups = [np.unique(ids[:, g][ids[:, g] >= 0]) for g in range(ids.shape[1])]
    team, total = team_totals(data, ids, gamma)
    for it in range(iterations):
        for g in range(ids.shape[1]):
            col = ids[:, g]
            known = col >= 0
            weights = team[known] / gamma[col[known]] / total[data.pos[known]]
            c = np.bincount(col[known], weights=weights, minlength=nfeatures)
            f = groups[g]
            gamma[f] = (wins[f] + 1.0) / (c[f] + 2.0 / (gamma[f] + 1.0))
            # every candidate has one feature of each group, so scaling a group scales every team alike and
            # changes no probability: keep the group's mean log gamma over the candidates at 0, so that the
            # virtual opponent of gamma 1 stands for an average feature and the groups cannot drift apart
            gamma[f] /= np.exp(np.mean(np.log(gamma[col[known]])))
            team, total = team_totals(data, ids, gamma)  # what the next group's update (or the log) reads
        ll = float(np.mean(np.log(team[data.chosen] / total)))
        log(f"iteration {it + 1:3d}: training log-likelihood per move {ll:.4f}")
    return gamma


def evaluate(data: Data, ids: np.ndarray, gamma: np.ndarray) -> dict:
    """Held-out figures: mean log probability of the move played, top-1 and top-5 rates, and the
    uniform baseline's."""
    team, total = team_totals(data, ids, gamma)
    counts = np.bincount(data.pos, minlength=data.positions)
    mine = team[data.chosen]
    better = np.bincount(data.pos, weights=(team > mine[data.pos]).astype(float), minlength=data.positions)
    return {"positions": data.positions,
            "log_p": float(np.mean(np.log(mine / total))),
            "log_p_uniform": float(np.mean(-np.log(counts))),
            "top1": float(np.mean(better == 0)), "top5": float(np.mean(better < 5)),
            "top1_uniform": float(np.mean(1.0 / counts)),
            "top5_uniform": float(np.mean(np.minimum(5, counts) / counts))}


def score_tables(files, paths, player: str = "") -> list[dict]:
    """Each prior table's figures on the moves of `files` (game_positions), rated as the tree rates them
    (gamma_table.move_gammas over game_positions' candidates, those the fit learns from): per position the
    log probability of the move played, and how many candidates it rated higher."""
    tables = [gt.prior_table(gt.load_gammas(str(path)), *gt.load_spatial(str(path))) for path in paths]
    log_p: list[list[float]] = [[] for _ in tables]
    better: list[list[int]] = [[] for _ in tables]
    for path in files:
        for board, c, moves, _, chosen in game_positions(path, player=player):
            for k, table in enumerate(tables):
                gammas = gt.move_gammas(board, c, moves, gammas=table)
                log_p[k].append(float(np.log(gammas[chosen] / gammas.sum())))
                better[k].append(int(np.sum(gammas > gammas[chosen])))
    return [{"log_p": np.array(lp), "better": np.array(b)} for lp, b in zip(log_p, better)]


def print_scores(paths, scores) -> None:
    """One line a table: mean log p, top-1 and top-5 rates; after the first, the paired difference in
    mean log p from it, position by position, with its 95% interval."""
    first = scores[0]["log_p"]
    for path, score in zip(paths, scores):
        lp, rank = score["log_p"], score["better"]
        line = (f"{path}: {len(lp)} positions, mean log p {lp.mean():.4f}, top-1 {np.mean(rank == 0):.1%}, "
                f"top-5 {np.mean(rank < 5):.1%}")
        if score is not scores[0]:
            d = lp - first
            half = 1.96 * d.std(ddof=1) / np.sqrt(len(d)) if len(d) > 1 else float("nan")
            line += f"; against the first {d.mean():+.4f} ({d.mean() - half:+.4f} to {d.mean() + half:+.4f})"
        print(line)


def pattern_diagram(code: int) -> str:
    """A 3x3 code as three rows (X: the mover, O: the opponent, #: off board), north first."""
    chars = ".XO#"
    cells = [chars[(code >> (2 * i)) & 3] for i in range(8)]
    return f"{cells[0]}{cells[1]}{cells[2]}/{cells[3]}*{cells[4]}/{cells[5]}{cells[6]}{cells[7]}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dirs", nargs="+", type=Path, help="directories of SGF games (searched recursively)")
    parser.add_argument("--out", type=Path, default=Path(gt.DATA_PATH))
    parser.add_argument("--iterations", type=int, default=40)
    parser.add_argument("--held-out", type=float, default=0.1, help="share of the games held out (0..0.5)")
    parser.add_argument("--test", nargs="+", type=Path, default=[],
                        help="directories of held-out games (then --held-out is not used)")
    parser.add_argument("--source", default="", help="where the games came from, stored with the table")
    parser.add_argument("--min-count", type=int, default=fe.SPATIAL_MIN_COUNT,
                        help="keep a spatial pattern seen at least this often among the training candidates "
                             f"(default {fe.SPATIAL_MIN_COUNT}; the engine's hash table holds "
                             f"{fe.SPATIAL_MAX_PATTERNS:,} patterns)")
    parser.add_argument("--player", default="",
                        help="learn and test only the moves of a player whose name (PB/PW) holds this, in any case")
    parser.add_argument("--score", nargs="+", type=Path, default=[], metavar="TABLE",
                        help="fit nothing: rate the games' moves with these tables (npz files as --out writes), "
                             "as the tree rates them, and compare each with the first")
    args = parser.parse_args()
    refuse_counts(parser, (("--iterations", args.iterations, MAX_ITERATIONS),))
    if not 0 <= args.held_out <= 0.5 or args.min_count < 1:
        parser.error("--held-out must lie in 0..0.5 and --min-count be at least 1")
    files = sorted(p for d in args.dirs for p in d.rglob("*.sgf"))
    test_files = sorted(p for d in args.test for p in d.rglob("*.sgf"))
    if not files or (args.test and not test_files):
        parser.error("no .sgf files found")
    if args.score:
        if not all(path.is_file() for path in args.score):
            parser.error("--score: every table must be an existing file")
        scores = score_tables(files, args.score, args.player)
        if not len(scores[0]["log_p"]):
            print("no usable positions", file=sys.stderr)
            return 1
        print_scores(args.score, scores)
        return 0
    every = round(1 / args.held_out) if args.held_out > 0 and not args.test else 0
    started = time.process_time()
    train, test = [], []
    used = 0
    for k, path in enumerate(files):
        samples = game_samples(path, player=args.player)
        used += bool(samples)
        (test if every and k % every == every - 1 else train).extend(samples)
    for path in test_files:
        test.extend(game_samples(path, player=args.player))
    print(f"{len(files)} files, {used} games used: {len(train)} training and {len(test)} held-out positions "
          f"({time.process_time() - started:.0f} s)", file=sys.stderr)
    if not train:
        print("no usable positions", file=sys.stderr)
        return 1
    class_of = gt.pattern_classes()
    data = Data(train, class_of)
    classes = np.unique(data.raw[:, 0])
    spatial = frequent_spatial(data.raw, args.min_count)
    ids = feature_ids(data.raw, classes, spatial)
    nfeatures = feature_count(classes, spatial)
    gamma = fit(data, ids, nfeatures, args.iterations, log=lambda m: print(m, file=sys.stderr))
    figures = {}
    if test:
        held = Data(test, class_of)
        figures = evaluate(held, feature_ids(held.raw, classes, spatial), gamma)
        print(f"held out, {figures['positions']} positions: mean log p {figures['log_p']:.3f} "
              f"(uniform {figures['log_p_uniform']:.3f}), top-1 {figures['top1']:.1%} "
              f"(uniform {figures['top1_uniform']:.1%}), top-5 {figures['top5']:.1%} "
              f"(uniform {figures['top5_uniform']:.1%})")
    table = np.ones(fe.TABLE_SIZE, dtype=np.float32)
    index = class_index(classes, class_of)
    seen = index >= 0
    table[:1 << 16][seen] = gamma[index[seen]]
    offset = len(classes)
    names = {fe.G_TACTICS: fe.TACTICS_NAMES}
    for g in range(1, len(fe.GROUPS)):
        size = fe.GROUP_SIZES[g]
        table[fe.OFFSETS[g]:fe.OFFSETS[g] + size] = gamma[offset:offset + size]
        labels = names.get(g, [str(v) for v in range(size)])
        print(f"{fe.GROUPS[g]:8}", "  ".join(f"{label}: {gamma[offset + v]:.3g}" for v, label in enumerate(labels)))
        offset += size
    order = np.argsort(gamma[:len(classes)])
    counts = np.bincount(ids[:, 0][ids[:, 0] >= 0], minlength=len(classes))
    for title, picks in (("strongest", order[::-1]), ("weakest", order)):
        shown = [i for i in picks if counts[i] >= 50][:8]
        print(f"{title} patterns (seen 50+ times):",
              "  ".join(f"{pattern_diagram(int(classes[i]))} {gamma[i]:.3g}" for i in shown))
    spatial_gammas = gamma[offset:offset + len(spatial)]
    if len(spatial) > fe.SPATIAL_MAX_PATTERNS:  # gamma_table.load_spatial would refuse the file
        print(f"not written: {len(spatial)} spatial patterns, where the engine's table holds "
              f"{fe.SPATIAL_MAX_PATTERNS:,} (raise --min-count)", file=sys.stderr)
        return 1
    args.out.parent.mkdir(parents=True, exist_ok=True)
    np.savez_compressed(args.out, table=table, spatial_keys=spatial, spatial_gammas=spatial_gammas,
                        source=np.array(args.source), games=np.array(used),
                        positions=np.array(data.positions),
                        **{f"held_out_{k}": np.array(v) for k, v in figures.items()})
    print(f"wrote {args.out}: {len(classes)} pattern classes and {len(spatial)} spatial patterns from "
          f"{data.positions} positions "
          f"({time.process_time() - started:.0f} s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
