"""The `foogo stats` command line: parse, check the run directory, compute the missing chunks,
report."""

from __future__ import annotations

import argparse
import sys

from ..interrupts import sigterm_as_interrupt
from ..numbers import whole_number
from ..playout import MAX_THREADS, default_threads
from ..search_config import MAX_PLAYOUTS
from .chunks import code_fingerprint, plan
from .executors import connect_dask, run_dask, run_local
from .reports import format_table, results, write_reports
from .request import (
    DEFAULT_CHUNK,
    DEFAULT_KOMI,
    FORMAT,
    StatsError,
    check_run_size,
    parse_count,
    parse_counts,
    parse_komi,
    parse_sizes,
)
from .rundir import RunDir

OUTPUTS = ("results.json", "results.csv", "histograms.csv", "results.md",
           "histograms.png", "mean_score.png", "winrate_komi.png")

def configure_parser(parser: argparse.ArgumentParser) -> None:
    """Add `foogo stats` options to `parser`."""
    parser.add_argument("--out", required=True, metavar="DIR",
                        help="run directory: manifest, chunks and reports; rerun the same command to continue")
    parser.add_argument("--sizes", default=None,
                        help='random playouts: board sizes, e.g. "9", "5-19", "9,13,19" (default 9)')
    parser.add_argument("--playouts", default=None, help="random playouts per size (default 100000; 1e6 accepted)")
    parser.add_argument("--selfplay", action="store_true", help="measure self-play games of the UCT search instead")
    parser.add_argument("--size", default=None, help="self-play: board size (default 9)")
    parser.add_argument("--playouts-per-move", default=None,
                        help="self-play: search strengths, e.g. 100,1000,10000 (default 100,1000)")
    parser.add_argument("--games", default=None, help="self-play: games per strength (default 100)")
    parser.add_argument("--game-komi", default=None,
                        help="self-play: the komi the players play for (default 7.5); scores are reported without it")
    parser.add_argument("--komi", default=",".join(f"{k:g}" for k in DEFAULT_KOMI),
                        help="komi values for the win rates (default 0,0.5,5.5,6.5,7.5); report only")
    parser.add_argument("--seed", default=None, help="seed of the run (default 0)")
    parser.add_argument("--chunk", default=None,
                        help=f"playouts (random, default {DEFAULT_CHUNK['random']}) or games "
                             f"(self-play, default {DEFAULT_CHUNK['selfplay']}) per chunk")
    parser.add_argument("--threads", default=None,
                        help="local: playout threads (random) or game processes (self-play), default every core; "
                             "with --scheduler: playout threads per task, default 1")
    parser.add_argument("--scheduler", default=None, metavar="ADDRESS",
                        help="run the chunks on this dask.distributed scheduler (needs foogo[dask])")
    parser.add_argument("--max-chunks", default=None,
                        help="stop after this many new chunks; rerun to continue")
    parser.add_argument("--report-only", action="store_true",
                        help="compute no chunk: report what DIR holds (may be partial; no lock taken); the run's "
                             "options are read from DIR unless given, and it may have been made by older code")
    parser.add_argument("--quiet", action="store_true", help="no progress bar and no table")


def make_manifest(args: argparse.Namespace) -> dict:
    """The run's identity from parsed arguments (all checked here); StatsError for bad input."""
    seed = _seed(args.seed if args.seed is not None else "0")
    if args.selfplay:
        if args.sizes is not None or args.playouts is not None:
            raise StatsError("with --selfplay give --size, --playouts-per-move and --games "
                             "(not --sizes or --playouts)")
        sizes = parse_sizes(_given(args.size, "9"))
        if len(sizes) != 1:
            raise StatsError("--size takes one board size")
        _require_search()
        game_komi = parse_komi(_given(args.game_komi, "7.5"))
        if len(game_komi) != 1:
            raise StatsError("--game-komi takes one value")
        strengths = parse_counts(_given(args.playouts_per_move, "100,1000"), "playouts per move")
        if max(strengths) > MAX_PLAYOUTS:  # checked before DIR is made: each game's search would refuse it
            raise StatsError(f"playouts per move must be at most {MAX_PLAYOUTS:.0e}, got {max(strengths):,}")
        games = parse_count(_given(args.games, "100"), "games")
        chunk = parse_count(_given(args.chunk, str(DEFAULT_CHUNK["selfplay"])), "chunk")
        check_run_size("selfplay", [games] * len(strengths), chunk)
        return {"format": FORMAT, "mode": "selfplay", "seed": seed, "size": sizes[0], "groups": strengths,
                "games": games, "game_komi": game_komi[0], "rules": "chinese", "chunk": chunk}
    if args.size is not None or args.playouts_per_move is not None or args.games is not None \
            or args.game_komi is not None:
        raise StatsError("--size, --playouts-per-move, --games and --game-komi need --selfplay "
                         "(random playouts take --sizes and --playouts)")
    board_sizes = parse_sizes(_given(args.sizes, "9"))
    playouts = parse_count(_given(args.playouts, "100000"), "playouts")
    chunk = parse_count(_given(args.chunk, str(DEFAULT_CHUNK["random"])), "chunk")
    check_run_size("random", [playouts] * len(board_sizes), chunk)
    return {"format": FORMAT, "mode": "random", "seed": seed, "groups": board_sizes, "playouts": playouts,
            "chunk": chunk}


RUN_OPTIONS = ("seed", "sizes", "playouts", "size", "playouts_per_move", "games", "game_komi", "chunk")


def stored_request(stored: dict) -> argparse.Namespace:
    """The options that made a run, from its manifest `stored`: what `--report-only` reports when the
    command gives none. make_manifest then checks them as it checks a command's own, so a damaged
    manifest is refused, never planned."""
    try:
        selfplay = stored["mode"] == "selfplay"
        groups = ",".join(str(whole_number(g)) for g in stored["groups"])
        return argparse.Namespace(
            seed=str(stored["seed"]), selfplay=selfplay, chunk=str(stored["chunk"]),
            sizes=None if selfplay else groups, playouts=None if selfplay else str(stored["playouts"]),
            size=str(stored["size"]) if selfplay else None, playouts_per_move=groups if selfplay else None,
            games=str(stored["games"]) if selfplay else None,
            game_komi=f"{float(stored['game_komi']):g}" if selfplay else None)
    except (KeyError, TypeError, ValueError, OverflowError) as error:
        raise StatsError(f"the run's manifest.json is not a foogo stats manifest ({error!r})") from None


def _given(value, default):
    """An option's text, or `default` when it was not given; an empty one given ("") stays, to be refused."""
    return default if value is None else value


def _seed(text) -> int:
    try:
        seed = whole_number(text)
    except ValueError:
        raise StatsError(f"seed must be an integer, got {text!r}") from None
    if not 0 <= seed < 2**63:
        raise StatsError(f"seed must be in 0..2**63-1, got {seed}")
    return seed


def _require_search() -> None:
    """StatsError unless foogo.search (the UCT search that self-play needs) is installed."""
    import importlib.util

    if importlib.util.find_spec("foogo.search") is None:
        raise StatsError("self-play needs foogo.search (the UCT search), which this foogo does not have yet")


def run(args: argparse.Namespace) -> int:
    """Run (or continue) `foogo stats` as parsed by configure_parser; returns the exit code. Ctrl-C or `kill`
    (SIGTERM) stops it with its chunks so far kept, and its self-play workers stopped."""
    try:
        with sigterm_as_interrupt():
            return _run(args)
    except StatsError as error:
        print(f"foogo stats: error: {error}", file=sys.stderr)
        return 2


def _run(args: argparse.Namespace) -> int:
    komi = parse_komi(args.komi)
    threads = None if args.threads is None else parse_count(args.threads, "threads")
    if threads is not None and threads > MAX_THREADS:
        raise StatsError(f"threads must be at most {MAX_THREADS}, got {threads}")
    max_chunks = None if args.max_chunks is None else parse_count(args.max_chunks, "max-chunks")
    run_dir = RunDir(args.out)
    if args.report_only:
        return _report_stored(args, run_dir, komi)
    manifest = make_manifest(args)
    manifest["fingerprint"] = code_fingerprint(manifest)
    exists = run_dir.check(manifest)  # nothing written before this line
    client = connect_dask(args.scheduler, manifest) if args.scheduler else None
    try:
        if not exists:
            run_dir.create(manifest)
        run_dir.lock()
        return _compute(args, run_dir, manifest, komi, threads, max_chunks, client)
    finally:
        run_dir.unlock()
        if client is not None:
            client.close()


def _report_stored(args: argparse.Namespace, run_dir: RunDir, komi: list[float]) -> int:
    """--report-only: report DIR's run, with the options given and, for the others, those DIR was made with
    (one option given took the defaults for the rest, and a run made with other ones was refused). The run's
    own code fingerprint stands: a report reads its chunks and mixes in no new one."""
    if not run_dir.holds_run():
        raise StatsError(f"{args.out} holds no run to report")
    stored = run_dir.stored_manifest()
    request = stored_request(stored)
    if args.selfplay and not request.selfplay:  # --selfplay for a run of random playouts: refused below
        request = args
    else:  # each option not given is the run's own (it was the default)
        request = argparse.Namespace(**{**vars(request), **{name: getattr(args, name) for name in RUN_OPTIONS
                                                            if getattr(args, name) is not None}})
    manifest = make_manifest(request)
    manifest["fingerprint"] = stored.get("fingerprint")
    run_dir.check(manifest)
    return _report(run_dir, manifest, run_dir.load(manifest), komi, args.quiet)


def _compute(args, run_dir: RunDir, manifest: dict, komi: list[float], threads: int | None,
             max_chunks: int | None, client) -> int:
    chunks = run_dir.load(manifest, repair=True)
    todo = [job for job in plan(manifest) if (job[0], job[1]) not in chunks]
    if max_chunks is not None:
        todo = todo[:max_chunks]
    weight = (lambda job: job[2]) if manifest["mode"] == "random" else (lambda job: job[0] * job[2])
    total = sum(weight(j) for j in plan(manifest))
    done = total - sum(weight(j) for j in plan(manifest) if (j[0], j[1]) not in chunks)
    weights = {(g, f): weight((g, f, c)) for g, f, c in todo}
    from tqdm import tqdm

    unit = "playouts" if manifest["mode"] == "random" else "po-budget"
    with tqdm(total=total, initial=done, unit=unit, unit_scale=True, file=sys.stderr, smoothing=0.05,
              disable=args.quiet or not todo, desc="foogo stats") as bar:
        def on_done(record):
            key = (record["group"], record["first"])
            run_dir.append(record, manifest)
            chunks[key] = record
            bar.update(weights[key])

        try:
            if client is not None:
                run_dask(client, manifest, todo, threads or 1, on_done)
            else:
                run_local(manifest, todo, threads or default_threads(), on_done)
        except KeyboardInterrupt:
            bar.close()
            print(f"foogo stats: interrupted; {_safe_chunks(run_dir, manifest, chunks)} chunks are safe in "
                  f"{args.out}: rerun the same command to continue", file=sys.stderr)
            raise
    return _report(run_dir, manifest, chunks, komi, args.quiet)


def _safe_chunks(run_dir: RunDir, manifest: dict, chunks: dict) -> int:
    """How many chunks DIR holds after an interrupt: its file's, read again (an interrupt between a chunk's
    write and its count here left `chunks` one short), or `chunks`' count if the file cannot be read."""
    try:
        return len(run_dir.load(manifest))
    except (StatsError, OSError):
        return len(chunks)


def _report(run_dir: RunDir, manifest: dict, chunks: dict, komi: list[float], quiet: bool) -> int:
    report = results(manifest, chunks, komi)
    write_reports(run_dir, report)
    if not quiet:
        print(format_table(report))
        print(f"reports in {run_dir.path}: " + ", ".join(OUTPUTS))
    if not report["complete"]:
        print(f"foogo stats: {len(chunks)} of {len(plan(manifest))} chunks done; "
              "rerun the same command to continue", file=sys.stderr)
    return 0
