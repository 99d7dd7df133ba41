"""A match's settings, read from `foogo match`'s options and checked before anything starts: the board, the games,
the komi, the waits, the clock, the move cap, the opening, the referee's command and where the results go.
A value out of range is a ValueError naming its option; the match runner (match.py) then starts nothing.
"""

from __future__ import annotations

import argparse
import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from .match_clock import TimeControl
from .match_files import json_path
from .match_openings import load_opening
from .numbers import check_komi, shown

DEFAULT_REFEREE = "/usr/games/gnugo --mode gtp --chinese-rules --level 0"
MAX_TIMEOUT = 7 * 24 * 3600.0  # --timeout, --startup-timeout: a week; a wait past ~3e9 s overflows the clock
MAX_GAMES = 100_000  # --games: a match keeps every game's record in memory and in its --json summary
MAX_MOVES = 10_000  # --max-moves: what foogo gtp's loadsgf reads back by default (game_sgf.SGF_MAX_MOVES)
MAX_KEPT_MOVES = 4_000_000  # --games times --max-moves: the moves and timings a match keeps (some 250 bytes each)
OPENING_MOVES = 20  # --opening-moves' default


@dataclass(frozen=True)
class MatchSettings:
    """What a match plays and where its results go, checked (read_settings)."""

    size: int
    games: int
    komi: float
    names: dict[str, str | None]  # player key ("A", "B") -> the name it is given, or None for its own
    timeout: float
    startup_timeout: float
    clock: TimeControl | None
    max_moves: int
    opening: list[tuple[str, tuple[int, int] | None]]  # match_openings.load_opening's moves; empty for none
    alternate: bool
    quiet: bool
    json_path: Path | None
    sgf_dir: Path | None
    overwrite: bool
    referee_command: str  # "" for none


def read_settings(args: argparse.Namespace) -> MatchSettings:
    """The settings `foogo match`'s parsed options ask for; ValueError, naming the option, for one out of range,
    an opening that cannot start a game (match_openings), or --opening-moves without --opening."""
    size = int(args.size)
    if not 2 <= size <= 25:
        raise ValueError(f"--size must be from 2 to 25, got {shown(size)}")
    games = int(args.games)
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"--games must be from 1 to {MAX_GAMES:,}")
    try:
        komi = check_komi(args.komi)
    except ValueError as error:
        raise ValueError(f"--{error}") from None
    timeout = float(args.timeout)
    if not 0 < timeout <= MAX_TIMEOUT:
        raise ValueError(f"--timeout must be positive seconds, at most {MAX_TIMEOUT:g}")
    # the first commands have --timeout too unless --startup-timeout says otherwise (an engine
    # may compile or load data before it answers: foogo gtp, about 21 s on a fresh install)
    startup_timeout = timeout if args.startup_timeout is None else float(args.startup_timeout)
    if not 0 < startup_timeout <= MAX_TIMEOUT:
        raise ValueError(f"--startup-timeout must be positive seconds, at most {MAX_TIMEOUT:g}")
    clock = TimeControl.parse(args.time_settings) if args.time_settings is not None else None
    max_moves = 3 * size * size if args.max_moves is None else int(args.max_moves)
    if not 1 <= max_moves <= MAX_MOVES:
        raise ValueError(f"--max-moves must be from 1 to {MAX_MOVES:,}")
    if games * max_moves > MAX_KEPT_MOVES:
        implied = " (--max-moves' default, 3*size*size)" if args.max_moves is None else ""
        raise ValueError(f"--games times --max-moves must be at most {MAX_KEPT_MOVES:,} (a match keeps every "
                         f"move and its timing), got {games:,} x {max_moves:,}{implied}: at most "
                         f"{MAX_KEPT_MOVES // max_moves:,} games of {max_moves:,} moves")
    opening_file, opening_moves = args.opening, args.opening_moves
    if opening_file is None and opening_moves is not None:
        raise ValueError("--opening-moves needs --opening")
    opening = [] if opening_file is None else load_opening(
        opening_file, OPENING_MOVES if opening_moves is None else opening_moves, size, max_moves)
    referee = args.referee
    if referee is None:
        referee = DEFAULT_REFEREE if os.path.exists(shlex.split(DEFAULT_REFEREE)[0]) else ""
    if referee.strip().lower() in ("", "none"):
        referee = ""
    return MatchSettings(size=size, games=games, komi=komi, names={"A": args.black_name, "B": args.white_name},
                         timeout=timeout, startup_timeout=startup_timeout, clock=clock, max_moves=max_moves,
                         opening=opening, alternate=bool(args.alternate), quiet=bool(args.quiet),
                         json_path=json_path(args.json, bool(args.overwrite)),
                         sgf_dir=Path(args.sgf_dir) if args.sgf_dir else None,
                         overwrite=bool(args.overwrite), referee_command=referee)
