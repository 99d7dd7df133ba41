"""`foogo gtp`: the command line (options, warm-up) around the engine and the server."""

from __future__ import annotations

import argparse
import sys
import threading
import time
import traceback

from ..book import BOOK_PATH
from ..game import RULES, SGF_MAX_BYTES, SGF_MAX_MOVES
from ..geometry import BLACK, WHITE
from ..numbers import float_option, int_option, shown
from ..playout import MAX_SEED, default_threads
from ..search import ConfigError, SearchConfig
from .clock import TimeManager
from .engine import POLICIES, GtpEngine
from .protocol import serve


def configure_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the `foogo gtp` options to an argparse parser."""
    parser.add_argument("--rules", choices=RULES, default="chinese", help="chinese (default) or tromp-taylor")
    parser.add_argument("--playouts", type=int_option, default=None, metavar="N", help="playouts per move")
    parser.add_argument("--time", type=float_option, default=None, metavar="SECONDS",
                        help="seconds per move (GTP time controls take precedence)")
    parser.add_argument("--threads", type=int_option, default=default_threads(),
                        help=f"search threads (default: the cores this process may use, {default_threads()} here)")
    parser.add_argument("--policy", choices=POLICIES, default="heavy",
                        help="playout policy (default heavy, the strongest; light is uniform random)")
    parser.add_argument("--seed", type=int_option, default=0, help="random seed (default 0)")
    parser.add_argument("--no-resign", action="store_true", help="never resign")
    parser.add_argument("--no-warm-up", action="store_true",
                        help="do not compile/load the search kernels before the first command")
    parser.add_argument("--resign-threshold", type=float_option, default=0.1, metavar="W",
                        help="resign below this win rate (default 0.1)")
    parser.add_argument("--size", type=int_option, default=9, help="initial board size (default 9)")
    parser.add_argument("--memory", type=int_option, default=None, metavar="MB",
                        help="cap on the search trees' memory, all threads together (default: 64 per 81 "
                             "points for moves of up to 2 s, so 64 on 9x9 and 285 on 19x19, and 128 more per 81 "
                             "points a second of a longer move's budget when the trees expand at 8, 8/3 of that at "
                             "the heavy 9x9 default's 3, so 512 on 9x9 at 5 s; with --playouts N, room for 6 "
                             "searches' nodes if more, N/threshold each, so 122 on 9x9 at 30,500 heavy; never more "
                             "than 512 and 1/8 of the RAM (so 512 at 137,600, whose 6 searches would ask 552), "
                             "which an analysis grows to as its trees fill)")
    parser.add_argument("--sgf-max-bytes", type=int_option, default=SGF_MAX_BYTES, metavar="N",
                        help=f"loadsgf refuses larger files (default {SGF_MAX_BYTES})")
    parser.add_argument("--sgf-max-moves", type=int_option, default=SGF_MAX_MOVES, metavar="N",
                        help=f"loadsgf refuses longer main lines (default {SGF_MAX_MOVES})")
    parser.add_argument("--komi", type=float_option, default=7.0, help="initial komi (default 7)")
    parser.add_argument("--book", nargs="?", const=BOOK_PATH, default=BOOK_PATH, metavar="FILE",
                        help="play from an opening book before searching, where it has the position: FILE, or "
                             "by default the shipped one (9x9, komi 7: the 200 positions foogo's games against "
                             "Pachi met most before move 20, each answered by a search of 122,000 playouts, "
                             "bench/make_book.py)")
    parser.add_argument("--no-book", action="store_true", help="never play from a book: search every move")
    return add_tuning_options(parser)


def add_tuning_options(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add `foogo gtp`'s search-tuning options, each a SearchConfig field (tuning_fields reads them), to a
    parser: the one spelling of search settings for the engine and for the bench scripts that search."""
    tuning = parser.add_argument_group("search tuning (defaults: SearchConfig's)")
    tuning.add_argument("--expand", type=float_option, default=None, metavar="N",
                        help="grow a tree node below a move once it has N visits (default 3 for heavy playouts "
                             "on boards up to 9x9, else 8)")
    tuning.add_argument("--prior", type=float_option, default=None, metavar="N",
                        help="weight of the Go-knowledge priors, in virtual visits (default 10)")
    tuning.add_argument("--equiv", type=float_option, default=None, metavar="N",
                        help="RAVE equivalence: the visits at which a move's own and AMAF values weigh "
                             "equally (default 1000)")
    tuning.add_argument("--uct", type=float_option, default=None, metavar="C",
                        help="UCT exploration constant on top of RAVE (default 0)")
    tuning.add_argument("--playout-patterns", choices=("mogo", "learned"), default=None,
                        help="the heavy playouts' 3x3 shapes: MoGo's, or those with a high learned gamma "
                             "(default mogo)")
    tuning.add_argument("--knowledge", choices=("rules", "learned"), default=None,
                        help="the tree's prior: feature gammas learned from games, or hand-written rules "
                             "(default learned)")
    tuning.add_argument("--replies", action="store_true", default=None,
                        help="playouts play last good replies (LGRF-1), learned by the search (default off)")
    tuning.add_argument("--share-root", action=argparse.BooleanOptionalAction, default=None,
                        help="with several threads, each thread's tree sees every tree's root statistics "
                             "(default on; --no-share-root: independent trees)")
    tuning.add_argument("--dynamic-komi", action=argparse.BooleanOptionalAction, default=None,
                        help="give komi while far ahead, so that the search keeps a margin (Pachi's "
                             "situational compensation: dynamic_komi.py; default off)")
    tuning.add_argument("--crit", type=float_option, default=None, metavar="K",
                        help="criticality's weight in the RAVE value: a well-visited move whose point's owner "
                             "tends to win counts K * crit more AMAF wins (Pachi's crit_rave is 1.1; default 0, off)")
    tuning.add_argument("--crit-min", type=int_option, default=None, metavar="N",
                        help="criticality counts for a move once its node has more than N visits (default 2000)")
    tuning.add_argument("--score-weight", type=float_option, default=None, metavar="W",
                        help="the score's weight in a playout's result: a win counts 1 - W plus W times its "
                             "margin over the board's points, a loss W plus W times its (negative) margin "
                             "(Fuego's score modification, 0.02 there; default 0, win or loss only)")
    tuning.add_argument("--late-nakade", type=float_option, default=None, metavar="F",
                        help="with --policy heavy: the search plays heavy-nakade's playouts once at most F of the "
                             "board's points are empty (default 0.75, from about move 21 on 9x9; 0: never)")
    tuning.add_argument("--self-atari-rate", type=float_option, default=None, metavar="F",
                        help="how often the search's heavy playouts redraw a self-atari of two stones or more, "
                             "playing it otherwise (default 0.6 on boards up to 9x9, Pachi's rate, 1 on larger "
                             "ones; the playouts of scoring and final_status_list always redraw it)")
    tuning.add_argument("--bank", action=argparse.BooleanOptionalAction, default=None,
                        help="with --playouts: the count is a move's average over the game; a search whose "
                             "best move is settled early banks the rest, a close one draws on the bank, "
                             "up to four times the count in all (search_bank.py; default off)")
    tuning.add_argument("--parallel", choices=("root", "tree"), default=None,
                        help="with several threads: a tree per thread (root) or one tree they all grow, "
                             "with virtual loss (tree) (default root)")
    return parser


# the option that sets each SearchConfig field whose name is not its option's (see check_search_options)
OPTION_OF_FIELD = {"seconds": "--time", "memory_mb": "--memory", "expand_threshold": "--expand",
                   "crit_min_visits": "--crit-min", "resign_threshold": "--resign-threshold"}
MIN_MEMORY_MB = 16  # `foogo gtp --memory`'s own floor; SearchConfig takes 1 MB (tests use it to make trees collect)


def tuning_fields(args) -> dict:
    """The SearchConfig fields set by the tuning options (add_tuning_options) given in args; ValueError
    naming the first option out of its range."""
    fields = {field: value for field, value in (("expand_threshold", args.expand), ("prior", args.prior),
                                                ("equiv", args.equiv), ("uct", args.uct),
                                                ("knowledge", args.knowledge),
                                                ("playout_patterns", args.playout_patterns),
                                                ("replies", args.replies),
                                                ("share_root", args.share_root),
                                                ("dynamic_komi", args.dynamic_komi),
                                                ("crit", args.crit), ("crit_min_visits", args.crit_min),
                                                ("parallel", args.parallel), ("bank", args.bank),
                                                ("score_weight", args.score_weight),
                                                ("late_nakade", args.late_nakade),
                                                ("self_atari_rate", args.self_atari_rate))
              if value is not None}
    check_search_options(fields)
    return fields


def check_search_options(options: dict) -> None:
    """ValueError unless SearchConfig takes these fields, its message naming the command line's option
    (--memory for memory_mb): the one check of a search's settings, SearchConfig's own."""
    try:
        SearchConfig(**options)
    except ConfigError as error:
        option = OPTION_OF_FIELD.get(error.field, "--" + error.field.replace("_", "-"))
        raise ValueError(f"{option} {error.rule}") from None


def run(args) -> int:
    """`foogo gtp`: serve GTP on stdin/stdout with the parsed options; returns the exit status."""
    if args.time is not None and not 0 < args.time <= TimeManager.MAX_BUDGET:
        print(f"foogo gtp: --time must be positive seconds, at most {TimeManager.MAX_BUDGET:g}", file=sys.stderr)
        return 2
    if args.memory is not None and args.memory < MIN_MEMORY_MB:
        print(f"foogo gtp: --memory must be at least {MIN_MEMORY_MB} (MB), got {shown(args.memory)}", file=sys.stderr)
        return 2
    if not -MAX_SEED - 1 <= args.seed <= MAX_SEED:  # the searches' seeds are taken modulo 2**64: 2**64 played as 0
        print("foogo gtp: --seed must be from -2**63 to 2**63 - 1", file=sys.stderr)
        return 2
    if args.sgf_max_bytes < 1 or args.sgf_max_moves < 1:
        print("foogo gtp: --sgf-max-bytes and --sgf-max-moves must be at least 1", file=sys.stderr)
        return 2
    try:
        engine = GtpEngine(rules=args.rules, playouts=args.playouts, seconds=args.time, threads=args.threads,
                           policy=args.policy, seed=args.seed, resign=not args.no_resign,
                           resign_threshold=args.resign_threshold, size=args.size, komi=args.komi,
                           sgf_max_bytes=args.sgf_max_bytes, sgf_max_moves=args.sgf_max_moves,
                           memory_mb=args.memory, tuning=tuning_fields(args),
                           book=None if args.no_book else args.book)
        check_search_options(engine.search_options)  # at start, not at the first genmove, which builds the search
        if args.book is not None and not args.no_book:
            engine.open_book()  # a bad book refused now, not logged at the first genmove; read once, kept
    except OSError as error:
        print(f"foogo gtp: --book {args.book}: {error.strerror or error}", file=sys.stderr)
        return 2
    except ValueError as error:
        print(f"foogo gtp: {error}", file=sys.stderr)
        return 2
    if not args.no_warm_up:
        print("foogo gtp: loading kernels in the background (the first start after an install compiles them: "
              "1.5-2.5 minutes on two cores, which `foogo compile` does ahead); commands are answered meanwhile, "
              "genmove and analysis wait for them", file=sys.stderr, flush=True)
        engine.kernels_ready = start_warm_up(args.policy, args.threads, args.parallel or "root")
    return serve(engine, sys.stdin, sys.stdout)


def start_warm_up(policy: str = "light", threads: int = 1, parallel: str = "root") -> threading.Event:
    """warm_up in a background thread; the Event is set when it has finished (or failed, logged), so
    that the protocol answers at once while the kernels compile and only the search waits."""
    done = threading.Event()

    def work() -> None:
        try:
            warm_up(policy, threads, parallel)
        except Exception:  # the search will compile on demand, or fail, where it is used
            print(f"foogo gtp: warm-up failed:\n{traceback.format_exc()}", file=sys.stderr, flush=True)
        finally:
            done.set()

    threading.Thread(target=work, name="foogo-warm-up", daemon=True).start()
    return done


def warm_up(policy: str = "light", threads: int = 1, parallel: str = "root") -> None:
    """Compile (or load from numba's cache) every kernel a game uses, the board's first (about 4 s on a
    fresh install, so that play and friends wait little), then the search's (about 80 s more on a 2-core
    Xeon, 2026-12-02; the search's iteration, one kernel with every playout policy inlined, is most of it): those
    of a search with this many threads and this parallelism (SearchConfig.parallel), whose trees are
    grown by another kernel when several threads share one.

    Otherwise the first genmove would pay for compilation inside its time budget, enough to lose
    on time under byo-yomi. With a warm cache this takes about a second."""
    start = time.perf_counter()
    from ..game import Game
    from ..playout_ownership import ownership
    from ..search import warm_up_search

    game = Game(5)  # first what play, undo, legality and showboard use, so that they wait least
    game.play(BLACK, "C3")
    game.legal_points(WHITE)
    str(game.board)
    game.undo()
    ownership(game.board, playouts=2)
    game.score(playouts=2)  # final_score's area count
    warm_up_search(policy, min(threads, 2), parallel)
    print(f"foogo gtp: kernels ready in {time.perf_counter() - start:.1f} s", file=sys.stderr)


def main(argv=None) -> int:
    """`python -m foogo.gtp [options]`."""
    parser = configure_parser(argparse.ArgumentParser(prog="foogo gtp", description="foogo's GTP engine"))
    try:
        args = parser.parse_args(argv)
    except SystemExit as done:  # --help, or a malformed option (argparse printed why): its exit code
        return done.code if isinstance(done.code, int) else 2
    return run(args)


if __name__ == "__main__":
    sys.exit(main())
