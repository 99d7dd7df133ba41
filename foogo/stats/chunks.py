"""The units of work of `foogo stats`: a chunk is playouts (or self-play games) first ..
first + count - 1 of one group, its result a record of sufficient statistics that depends only
on (manifest, group, first, count); the plan of a run; the fingerprints that tie a run to the
code that plays it. Module-level, plain-argument functions: dask workers run them too."""

from __future__ import annotations

import hashlib
import json
import math
import time

import numpy as np

from ..geometry import BLACK, PASS, RESIGN, WHITE
from ..playout import move_cap, run_playouts
from .request import derived_seed
from .tally import Tally

FINGERPRINT_PLAYOUTS = 64  # playouts per size behind a random run's fingerprint
SELFPLAY_FINGERPRINT_PLAYOUTS = 16  # playouts per move in the two games behind a self-play run's fingerprint

def random_chunk(size: int, seed: int, first: int, count: int, threads: int = 1) -> dict:
    """Playouts first .. first + count - 1 from the empty size x size board, seeded `seed`, as a
    chunk record (the same for any thread count). Runs on dask workers too: module-level, plain args."""
    from ..board import Board

    start = time.perf_counter()
    batch = run_playouts(Board(size), count, seed=seed, threads=threads, first=first)
    tally = Tally.of(batch.scores, batch.moves, batch.capped)
    return _record(size, first, tally, time.perf_counter() - start)


def fingerprint(sizes: list[int], seed: int) -> str:
    """A digest of the first FINGERPRINT_PLAYOUTS playouts of each size: it changes when the playout
    code would give different results, and not when it only gets faster."""
    from ..board import Board

    digest = hashlib.sha256()
    for size in sizes:
        batch = run_playouts(Board(size), FINGERPRINT_PLAYOUTS, seed=derived_seed(seed, "random", size))
        for array in (batch.scores, batch.moves, batch.capped):
            digest.update(np.ascontiguousarray(array, dtype=np.int64).tobytes())
    return digest.hexdigest()[:32]


def selfplay_fingerprint(size: int, seed: int, game_komi: float) -> str:
    """A digest of two short self-play games (SELFPLAY_FINGERPRINT_PLAYOUTS playouts per move): it
    changes when the search, playouts or scoring would play or score games differently (at least at
    that strength), and not when the code only gets faster or its comments change."""
    games = [selfplay_game(size, SELFPLAY_FINGERPRINT_PLAYOUTS, derived_seed(seed, "fingerprint", g), game_komi)
             for g in range(2)]
    return hashlib.sha256(json.dumps(games).encode()).hexdigest()[:32]


def code_fingerprint(manifest: dict) -> str:
    """The fingerprint of the code that computes the run `manifest` describes (random or self-play)."""
    if manifest["mode"] == "random":
        return fingerprint(manifest["groups"], manifest["seed"])
    return selfplay_fingerprint(manifest["size"], manifest["seed"], manifest["game_komi"])


def selfplay_game(size: int, playouts_per_move: int, seed: int, game_komi: float) -> tuple[int, int, int]:
    """One game of the UCT search against itself from the empty board, both sides with
    `playouts_per_move` playouts and komi `game_komi`, Chinese rules with positional superko, no
    resignation; it ends after two passes or move_cap(size) moves. Returns (black-minus-white area
    after Game's dead-stone removal, no komi; stones played; 1 if the cap ended it else 0)."""
    from ..game import SCORE_PLAYOUTS, Game
    from ..search import HISTORY, Search, SearchConfig

    game = Game(size, komi=game_komi, rules="chinese")
    search = Search(SearchConfig(playouts=playouts_per_move, threads=1, seed=seed, resign_threshold=None))
    color, played, stones = BLACK, 0, 0
    while game.last_passes() < 2 and played < move_cap(size):
        result = search.genmove(game.board.copy(), color, game_komi, game.legal_points(color),
                                history=game.recent_positions(HISTORY))
        move = int(result.move)
        if move == RESIGN:
            raise RuntimeError("the search resigned although resign_threshold=None")
        game.play(color, move)
        played += 1
        stones += move != PASS
        color = BLACK + WHITE - color
    capped = int(game.last_passes() < 2)
    game.set_komi(0.0)
    score = game.score(SCORE_PLAYOUTS, seed=derived_seed(seed, "score") & 0x7FFFFFFF)
    return int(round(score)), stones, capped


def selfplay_chunk(size: int, playouts_per_move: int, seed: int, first: int, count: int,
                   game_komi: float) -> dict:
    """Self-play games first .. first + count - 1 at `playouts_per_move` as a chunk record; game g
    uses search seed derived_seed(seed, "selfplay", size, playouts_per_move, g)."""
    start = time.perf_counter()
    games = [selfplay_game(size, playouts_per_move, derived_seed(seed, "selfplay", size, playouts_per_move, g),
                           game_komi) for g in range(first, first + count)]
    tally = Tally.of(*zip(*games))
    record = _record(playouts_per_move, first, tally, time.perf_counter() - start)
    record["games"] = [list(g) for g in games]
    return record


def _record(group: int, first: int, tally: Tally, seconds: float) -> dict:
    return {"group": group, "first": first, "count": tally.n, "lo": tally.lo, "counts": tally.counts,
            "moves": tally.moves, "capped": tally.capped, "seconds": round(seconds, 3)}


def plan(manifest: dict) -> list[tuple[int, int, int]]:
    """Every chunk of a run as (group, first, count), round-robin over the groups (chunk 0 of each
    group, then chunk 1, ...) so that an interrupted run has figures for every group."""
    per_group = {g: manifest["playouts"] if manifest["mode"] == "random" else manifest["games"]
                 for g in manifest["groups"]}
    chunk = manifest["chunk"]
    rounds = max(math.ceil(n / chunk) for n in per_group.values())
    return [(g, k * chunk, min(chunk, n - k * chunk))
            for k in range(rounds) for g, n in per_group.items() if k * chunk < n]


def run_chunk(manifest: dict, group: int, first: int, count: int, threads: int = 1) -> dict:
    """Compute one chunk of the run `manifest` describes (locally or on a dask worker)."""
    if manifest["mode"] == "random":
        return random_chunk(group, derived_seed(manifest["seed"], "random", group), first, count, threads)
    return selfplay_chunk(manifest["size"], group, manifest["seed"], first, count, manifest["game_komi"])
