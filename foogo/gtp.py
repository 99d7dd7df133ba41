"""GTP engine: the Go Text Protocol (version 2) over a Game and a Search, plus time management.

What it is: `GtpEngine` parses command lines (preprocessing, ids and framing as
in ../shared/GTP.md), dispatches them to handlers that call `Game` and the
search, and answers `=id result` / `?id message` followed by an empty line.
`serve(engine, stdin, stdout)` reads input in a thread (so that `lz-analyze`
can stream until the next line arrives) and writes only GTP responses to
stdout; logs and search reports go to stderr. `TimeManager` turns GTP and KGS
time controls into a number of seconds for each move.

Guarantees: every input line other than an empty or comment-only one gets
exactly one well-framed response; after any error response the game (position,
history, komi, clocks) is as it was; the engine leaves only on `quit` or end of
input; a bug inside a handler becomes `? internal error: ...` (traceback on
stderr), never a crash.

What it is not: no rules (game.py), no move choice (search.py; imported lazily
so that the protocol works, and is testable, without it), no process
management of other engines (match.py).
"""

from __future__ import annotations

import argparse
import copy
import math
import os
import queue
import re
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field

from .board import IllegalMove
from .game import (
    RULES,
    SGF_MAX_BYTES,
    SGF_MAX_MOVES,
    Game,
    GameError,
    SgfError,
    board_strings,
    check_rules,
    max_fixed_handicap,
)
from .geometry import BLACK, COLOR_NAMES, COLUMNS, PASS, RESIGN, WHITE, OffBoardError, check_size, parse_color
from .intervals import wilson

PROTOCOL_VERSION = "2"
ENGINE_NAME = "foogo"
MAX_LINE = 8192  # longer command lines are refused ("syntax error"), the rest of the line drained
POLICIES = ("light", "heavy")  # policy.POLICIES, repeated so that GTP starts without numba
DEFAULT_INTERVAL = 100  # lz-analyze interval in centiseconds when none is given
ANALYZE_KEYS = ("interval", "minmoves", "maxmoves", "ownership")  # the analysis commands' key-value pairs
ANALYSIS_OWNERSHIP_PLAYOUTS = 300

_VERTEX_SHAPE = re.compile(r"^[A-Za-z][0-9]+$")
_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")  # control characters except HT (LF is cut before)
# what preprocessing removes or turns into a space, as bytes: the leading run of these in a line says
# nothing, so the readers drop it before measuring a line against MAX_LINE
_BLANK_BYTES = bytes(range(0, 10)) + bytes(range(11, 32)) + b"\x7f "
_BLANK_CHARS = _BLANK_BYTES.decode("ascii")


class GtpError(Exception):
    """A failure answered as `? message`; the message starts with one of GTP's error words."""


def _version() -> str:
    try:
        from . import __version__
        return __version__
    except ImportError:  # pragma: no cover - package without __init__
        return "0.1.0"


# ---------------------------------------------------------------- time management

@dataclass
class Clock:
    """One player's clock as last known: main time left, and the byo-yomi state."""

    main: float = 0.0  # seconds of main time left
    in_byo: bool = False  # main time is used up
    period_left: float = 0.0  # seconds left in the current byo-yomi period
    stones_left: int = 0  # Canadian: stones still to play in this period
    periods_left: int = 0  # Japanese: periods left


@dataclass
class TimeManager:
    """Seconds to spend on a move under the game's time control, with a margin so as never to lose on time.

    Systems: "none" (no limit: `budget` is None), "absolute" (main time only), "canadian" (main
    time, then `byo_stones` stones in every `byo_time` seconds; GTP's time_settings) and "japanese"
    (main time, then `periods` periods of `byo_time` seconds, one move per period; KGS's byoyomi).
    The controller's `time_left` is the truth; between two of them `spend` keeps a local estimate.

    Allocation: in main time (main left - SAFETY) / max(20, empty points / 2) plus the byo-yomi
    share that follows it; in byo-yomi BYO_FRACTION of the period (per stone, for Canadian) minus
    SAFETY; never below MIN_BUDGET."""

    SAFETY = 0.3  # seconds kept back for latency and the search's own overhead
    BYO_FRACTION = 0.8
    MIN_BUDGET = 0.05

    system: str = "none"
    main_time: float = 0.0
    byo_time: float = 0.0
    byo_stones: int = 0
    periods: int = 0
    clocks: dict = field(default_factory=lambda: {BLACK: Clock(), WHITE: Clock()})

    # ------------------------------------------------------------ settings

    def set_none(self) -> None:
        """No time limit."""
        self._set("none", 0.0, 0.0, 0, 0)

    def set_absolute(self, main: float) -> None:
        """Sudden death: `main` seconds for the whole game."""
        self._set("absolute", main, 0.0, 0, 0)

    def set_canadian(self, main: float, byo_time: float, byo_stones: int) -> None:
        """Main time, then `byo_stones` stones in each `byo_time` seconds."""
        self._set("canadian", main, byo_time, byo_stones, 0)

    def set_japanese(self, main: float, byo_time: float, periods: int) -> None:
        """Main time, then `periods` periods of `byo_time` seconds (a period is lost by overrunning it)."""
        self._set("japanese", main, byo_time, 0, periods)

    def set_gtp(self, main: float, byo_time: float, byo_stones: int) -> None:
        """GTP time_settings: byo_time > 0 with 0 stones means no limit, byo_time 0 means absolute
        (and all zeros, no limit)."""
        if byo_time > 0 and byo_stones == 0:
            self.set_none()
        elif byo_time == 0 or byo_stones == 0:
            self.set_absolute(main) if main > 0 else self.set_none()
        else:
            self.set_canadian(main, byo_time, byo_stones)

    def _set(self, system, main, byo_time, byo_stones, periods) -> None:
        for value in (main, byo_time):
            if not (math.isfinite(value) and value >= 0):
                raise ValueError(f"time must be a finite number of seconds >= 0, got {value}")
        if byo_stones < 0 or periods < 0:
            raise ValueError("stones and periods must be >= 0")
        if system == "japanese" and (periods == 0 or byo_time == 0) and main == 0:
            system = "none"
        self.system, self.main_time, self.byo_time = system, float(main), float(byo_time)
        self.byo_stones, self.periods = int(byo_stones), int(periods)
        self.reset_clocks()

    def reset_clocks(self) -> None:
        """Both clocks back to the start of a game."""
        for color in (BLACK, WHITE):
            self.clocks[color] = Clock(main=self.main_time)
            if self.main_time == 0 and self.system in ("canadian", "japanese"):
                self._enter_byo(self.clocks[color], 0.0)

    def _enter_byo(self, c: Clock, overflow: float) -> None:
        c.main, c.in_byo = 0.0, True
        if self.system == "canadian":
            c.period_left, c.stones_left = self.byo_time - overflow, self.byo_stones
        elif self.system == "japanese":
            lost = int(overflow // self.byo_time) if self.byo_time > 0 else 0
            c.periods_left, c.period_left = max(0, self.periods - lost), self.byo_time

    # ------------------------------------------------------------ clock updates

    def time_left(self, color, seconds: float, stones: int) -> None:
        """GTP time_left: `stones` 0 means in main time with `seconds` left; otherwise in byo-yomi
        with `seconds` left in the period and `stones` stones (Canadian) or periods (Japanese) left."""
        if not (math.isfinite(seconds) and seconds >= 0) or stones < 0:
            raise ValueError("time_left needs seconds >= 0 and stones >= 0")
        c = self.clocks[parse_color(color)]
        if stones == 0 or self.system in ("none", "absolute"):
            c.main, c.in_byo = float(seconds), False
        else:
            c.main, c.in_byo, c.period_left = 0.0, True, float(seconds)
            if self.system == "japanese":
                c.periods_left = int(stones)
            else:
                c.stones_left = int(stones)

    def spend(self, color, seconds: float) -> None:
        """Record `seconds` used on a move by `color` (local estimate until the next time_left)."""
        c = self.clocks[parse_color(color)]
        if self.system == "none":
            return
        if not c.in_byo:
            c.main -= seconds
            if c.main >= 0 or self.system == "absolute":
                return
            overflow = -c.main
            self._enter_byo(c, overflow)
            if self.system == "canadian":
                self._canadian_stone(c)
            return
        if self.system == "canadian":
            c.period_left -= seconds
            self._canadian_stone(c)
        elif self.system == "japanese":
            if seconds > c.period_left and self.byo_time > 0:
                c.periods_left = max(0, c.periods_left - max(1, int(seconds // self.byo_time)))
            c.period_left = self.byo_time

    def _canadian_stone(self, c: Clock) -> None:
        c.stones_left -= 1
        if c.stones_left <= 0:
            c.period_left, c.stones_left = self.byo_time, self.byo_stones

    # ------------------------------------------------------------ allocation

    def budget(self, color, empty_points: int) -> float | None:
        """Seconds to think about `color`'s next move, or None when there is no time limit."""
        if self.system == "none":
            return None
        c = self.clocks[parse_color(color)]
        if c.in_byo:
            return max(self.MIN_BUDGET, self._byo_share(c))
        moves = max(20.0, empty_points / 2)
        share = max(0.0, c.main - self.SAFETY) / moves
        if self.system == "absolute":
            return max(self.MIN_BUDGET, min(share, c.main - self.SAFETY))
        return max(self.MIN_BUDGET, share + max(0.0, self._byo_share(c)))

    def _byo_share(self, c: Clock) -> float:
        """Seconds for one move in byo-yomi, from the current period (or a fresh one in main time)."""
        if self.system == "canadian":
            seconds, stones = (c.period_left, c.stones_left) if c.in_byo else (self.byo_time, self.byo_stones)
            return self.BYO_FRACTION * seconds / max(1, stones) - self.SAFETY
        if self.system == "japanese":
            if c.in_byo and c.periods_left <= 0:
                return 0.0
            seconds = c.period_left if c.in_byo else self.byo_time
            return self.BYO_FRACTION * seconds - self.SAFETY
        return 0.0


# ---------------------------------------------------------------- the engine

def default_search_factory(options: dict):
    """The production search: foogo.search.Search built from SearchConfig(**options) (imported here, lazily)."""
    from .search import Search, SearchConfig
    return Search(SearchConfig(**options))


def _hoshi(size: int, row: int, col: int) -> bool:
    """GNU Go's star points for showboard."""
    if size in (2, 4):
        return False
    if size == 3:
        return row == 1 and col == 1
    if size == 5:
        return (row in (1, 3) and col in (1, 3)) or (row == 2 and col == 2)
    edge = 2 if size <= 11 else 3
    middle = size // 2
    m = size - 1 - row if row >= middle else row
    n = size - 1 - col if col >= middle else col
    if m == edge and n == edge:
        return True
    if size % 2 == 0:
        return False
    if size < 12:
        return m == middle and n == middle
    return m in (edge, middle) and n in (edge, middle)


class GtpEngine:
    """A GTP engine over one Game; `execute(line)` answers one command line."""

    def __init__(self, rules: str = "chinese", playouts: int | None = None, seconds: float | None = None,
                 threads: int = 1, policy: str = "light", seed: int = 0, resign: bool = True,
                 resign_threshold: float = 0.1, search_factory=None, size: int = 9, komi: float = 7.0,
                 log=None, sgf_max_bytes: int = SGF_MAX_BYTES, sgf_max_moves: int = SGF_MAX_MOVES,
                 memory_mb: int | None = None, expand_threshold: float | None = None):
        """An engine with an empty size x size game. Search options go to SearchConfig (memory_mb and
        expand_threshold None: SearchConfig's); search_factory(options) builds the search object (default: foogo.search,
        imported at the first command that needs it)."""
        self.rules = check_rules(rules)
        self.game = Game(size, komi, self.rules)
        self.search_options = dict(playouts=playouts, seconds=seconds, threads=threads, policy=policy,
                                   seed=seed, resign_threshold=resign_threshold if resign else None,
                                   memory_mb=memory_mb)
        if expand_threshold is not None:
            self.search_options["expand_threshold"] = expand_threshold
        self.seed = seed
        self.sgf_limits = dict(max_bytes=sgf_max_bytes, max_moves=sgf_max_moves)  # for loadsgf
        self._search_factory = search_factory or default_search_factory
        self._search = None
        self.time = TimeManager()
        self.log = log if log is not None else sys.stderr
        self.quit_requested = False
        self.last_result = None  # the SearchResult of the last genmove
        self.commands = {
            "protocol_version": self.cmd_protocol_version,
            "name": self.cmd_name,
            "version": self.cmd_version,
            "known_command": self.cmd_known_command,
            "list_commands": self.cmd_list_commands,
            "quit": self.cmd_quit,
            "boardsize": self.cmd_boardsize,
            "clear_board": self.cmd_clear_board,
            "komi": self.cmd_komi,
            "play": self.cmd_play,
            "genmove": self.cmd_genmove,
            "undo": self.cmd_undo,
            "showboard": self.cmd_showboard,
            "final_score": self.cmd_final_score,
            "final_status_list": self.cmd_final_status_list,
            "time_settings": self.cmd_time_settings,
            "time_left": self.cmd_time_left,
            "kgs-time_settings": self.cmd_kgs_time_settings,
            "kgs-genmove_cleanup": self.cmd_kgs_genmove_cleanup,
            "fixed_handicap": self.cmd_fixed_handicap,
            "place_free_handicap": self.cmd_place_free_handicap,
            "set_free_handicap": self.cmd_set_free_handicap,
            "loadsgf": self.cmd_loadsgf,
            "printsgf": self.cmd_printsgf,
            "reg_genmove": self.cmd_reg_genmove,
            "is_legal": self.cmd_is_legal,
            "all_legal": self.cmd_all_legal,
            "list_stones": self.cmd_list_stones,
            "gogui-analyze_commands": self.cmd_gogui_analyze_commands,
            "foogo-ownership": self.cmd_foogo_ownership,
            "foogo-visits": self.cmd_foogo_visits,
            "lz-analyze": self.cmd_lz_analyze,
            "kata-analyze": self.cmd_kata_analyze,
            "lz-genmove_analyze": self.cmd_lz_genmove_analyze,
            "kata-genmove_analyze": self.cmd_kata_genmove_analyze,
        }
        self._stream = None  # set by execute for streaming commands
        self._interrupt = None

    # ------------------------------------------------------------ plumbing

    @property
    def search(self):
        """The search object, built on first use."""
        if self._search is None:
            self._search = self._search_factory(dict(self.search_options))
        return self._search

    def _log(self, message: str) -> None:
        try:
            print(message, file=self.log, flush=True)
        except Exception:  # a closed stderr must not take the engine down
            pass

    def execute(self, line, stream=None, interrupt=None) -> str | None:
        """The full response ("=id ...\\n\\n" or "?id ...\\n\\n") to one input line (str or bytes),
        or None for a line that is empty after preprocessing. `stream(text)` and `interrupt` (an
        Event set when more input arrives) let lz-analyze stream; without them it answers one snapshot."""
        # the readers cut a line longer than MAX_LINE to MAX_LINE + 2 characters, without its newline
        cut = len(line) >= MAX_LINE + 2 and line[-1:] not in ("\n", b"\n")
        if isinstance(line, (bytes, bytearray)):
            head = bytes(line).split(b"\n", 1)[0].split(b"#", 1)[0]  # a comment's bytes are never read
            try:
                line = head.decode("utf-8")
            except UnicodeDecodeError:
                text = head.decode("utf-8", errors="replace")
                return _frame(False, _leading_id(text), "syntax error: line is not UTF-8 text")
        processed = preprocess(line)
        if processed is None:  # empty, white space (GTP's: space and tab) or a comment: never answered
            return None
        text = processed
        if cut or len(text) > MAX_LINE:
            return _frame(False, _leading_id(text), f"syntax error: line longer than {MAX_LINE} characters")
        tokens = [token for token in text.split(" ") if token]
        cid = None
        if tokens[0].isascii() and tokens[0].isdigit():
            cid = tokens.pop(0)
            if not tokens:
                return _frame(False, cid, "syntax error: id without a command")
        name, args = tokens[0], tokens[1:]
        handler = self.commands.get(name)
        if handler is None:
            return _frame(False, cid, "unknown command")
        # the state to put back if the handler fails (a checkpoint costs the same at any game length)
        saved = (self.game, self.game.checkpoint(), copy.deepcopy(self.time))
        self._stream, self._interrupt, self._cid = stream, interrupt, cid
        try:
            result = handler(args)
        except GtpError as error:
            self._restore(saved)
            return _frame(False, cid, str(error))
        except Exception as error:  # a bug: report it, keep serving
            self._restore(saved)
            self._log(f"internal error in {name!r}:\n{traceback.format_exc()}")
            message = " ".join(f"{type(error).__name__}: {error}".split())
            return _frame(False, cid, f"internal error: {message}"[:500])
        finally:
            self._stream = self._interrupt = None
        if isinstance(result, _Streamed):
            return result.tail
        return _frame(True, cid, result or "")

    def _restore(self, saved) -> None:
        self.game, token, self.time = saved
        self.game.rollback(token)

    # ------------------------------------------------------------ argument helpers

    @staticmethod
    def _arity(args, low: int, high: int | None = None) -> None:
        high = low if high is None else high
        if not low <= len(args) <= high:
            want = str(low) if low == high else f"{low} to {high}" if high < 10**6 else f"at least {low}"
            raise GtpError(f"syntax error: expected {want} arguments, got {len(args)}")

    @staticmethod
    def _color(word: str) -> int:
        try:
            return parse_color(word)
        except ValueError:
            raise GtpError(f"syntax error: invalid color {word!r}") from None

    def _vertex(self, word: str, off_board: str = "illegal move") -> int:
        """Padded point or PASS; GtpError "syntax error" if malformed, `off_board` if not on this board."""
        try:
            return self.game.geometry.parse(word)
        except OffBoardError:
            raise GtpError(f"{off_board}: {word} is off the board") from None
        except ValueError:
            if _VERTEX_SHAPE.match(word):  # e.g. a column past the board, or "I"
                raise GtpError(f"{off_board}: {word} is not on the board") from None
            raise GtpError(f"syntax error: invalid vertex {word!r}") from None

    @staticmethod
    def _int(word: str) -> int:
        if not re.fullmatch(r"[+-]?[0-9]{1,9}", word):
            raise GtpError(f"syntax error: expected an integer, got {word!r}")
        return int(word)

    @staticmethod
    def _float(word: str) -> float:
        try:
            value = float(word)
        except ValueError:
            raise GtpError(f"syntax error: expected a number, got {word!r}") from None
        if not math.isfinite(value):
            raise GtpError(f"syntax error: expected a finite number, got {word!r}")
        return value

    def _name(self, p: int) -> str:
        if p == RESIGN:
            return "resign"
        return self.game.geometry.name(p)

    def _new_position(self) -> None:
        """The position was replaced: tell the search to drop its tree (no reuse across games)."""
        if self._search is not None:
            try:
                self._search.new_game()
            except Exception:
                self._log(f"search.new_game failed:\n{traceback.format_exc()}")

    # ------------------------------------------------------------ administrative commands

    def cmd_protocol_version(self, args):
        """protocol_version -> 2"""
        self._arity(args, 0)
        return PROTOCOL_VERSION

    def cmd_name(self, args):
        """name -> foogo"""
        self._arity(args, 0)
        return ENGINE_NAME

    def cmd_version(self, args):
        """version -> the package version"""
        self._arity(args, 0)
        return _version()

    def cmd_known_command(self, args):
        """known_command NAME -> true | false"""
        self._arity(args, 1)
        return "true" if args[0] in self.commands else "false"

    def cmd_list_commands(self, args):
        """list_commands -> one command name per line"""
        self._arity(args, 0)
        return "\n".join(self.commands)

    def cmd_quit(self, args):
        """quit: answer, then stop serving."""
        self.quit_requested = True
        return ""

    # ------------------------------------------------------------ setup commands

    def cmd_boardsize(self, args):
        """boardsize N (2..25): an empty board of that size; `unacceptable size` otherwise."""
        self._arity(args, 1)
        size = self._int(args[0])
        try:
            check_size(size)
        except ValueError:
            raise GtpError("unacceptable size") from None
        self.game = Game(size, self.game.komi, self.rules)
        self.time.reset_clocks()
        self._new_position()
        return ""

    def cmd_clear_board(self, args):
        """clear_board: an empty board, same size and komi."""
        self._arity(args, 0)
        self.game.clear()
        self.time.reset_clocks()
        self._new_position()
        return ""

    def cmd_komi(self, args):
        """komi K (a finite number)."""
        self._arity(args, 1)
        self.game.set_komi(self._float(args[0]))
        return ""

    def _handicap_count(self, args) -> int:
        self._arity(args, 1)
        n = self._int(args[0])
        if not self.game.is_empty():
            raise GtpError("board not empty")
        return n

    def cmd_fixed_handicap(self, args):
        """fixed_handicap N: GTP's fixed placement on an empty board -> the vertices."""
        n = self._handicap_count(args)
        if not 2 <= n <= max_fixed_handicap(self.game.size):
            raise GtpError(f"invalid number of stones: fixed placement takes 2 to "
                           f"{max_fixed_handicap(self.game.size)} on {self.game.size}x{self.game.size}")
        vertices = self.game.fixed_handicap(n)
        self._new_position()
        return " ".join(vertices)

    def cmd_place_free_handicap(self, args):
        """place_free_handicap N: the engine places N stones on an empty board -> the vertices."""
        n = self._handicap_count(args)
        if not 2 <= n < self.game.size ** 2:
            raise GtpError(f"invalid number of stones: {n}")
        vertices = self.game.place_free_handicap(n)
        self._new_position()
        return " ".join(vertices)

    def cmd_set_free_handicap(self, args):
        """set_free_handicap V1 V2 ...: handicap stones where the controller says."""
        points = [self._vertex(v, off_board="syntax error") for v in args]
        if not self.game.is_empty():
            raise GtpError("board not empty")
        if len(points) < 2 or PASS in points or len(set(points)) != len(points) \
                or len(points) >= self.game.size ** 2:
            raise GtpError("bad vertex list")
        self.game.set_free_handicap(points)
        self._new_position()
        return ""

    def cmd_loadsgf(self, args):
        """loadsgf FILE [MOVE_NUMBER]: the position before that move (all moves without it) -> colour to move."""
        self._arity(args, 1, 2)
        move_number = self._int(args[1]) if len(args) == 2 else None
        try:
            self.game.load_sgf(args[0], move_number, **self.sgf_limits)
        except SgfError as error:
            raise GtpError(f"cannot load file: {error}".replace("\n", " ")) from None
        self.time.reset_clocks()
        self._new_position()
        return COLOR_NAMES[self.game.to_move]

    def cmd_printsgf(self, args):
        """printsgf [FILE]: the game as SGF, or written to FILE."""
        self._arity(args, 0, 1)
        text = self.game.to_sgf()
        if args:
            try:
                with open(args[0], "w", encoding="utf-8") as f:
                    f.write(text + "\n")
            except OSError as error:
                raise GtpError(f"cannot save file: {error.strerror or error}") from None
            return ""
        return text

    # ------------------------------------------------------------ moves

    def cmd_play(self, args):
        """play COLOR VERTEX: in turn or not; `illegal move` (reason after it) leaves the game unchanged."""
        self._arity(args, 2)
        color = self._color(args[0])
        point = self._vertex(args[1])
        try:
            self.game.play(color, point)
        except IllegalMove as error:
            raise GtpError(f"illegal move: {args[1]} {error.reason}") from None
        return ""

    def cmd_undo(self, args):
        """undo: take back the last move; `cannot undo` if there is none."""
        self._arity(args, 0)
        try:
            self.game.undo()
        except GameError:
            raise GtpError("cannot undo") from None
        return ""

    def _think(self, color: int, budget: float | None, progress=None, interval: float = 0.5):
        """Run the search for `color` on the current position -> (SearchResult or None, legal moves);
        progress(result) is called about every `interval` seconds while it searches."""
        legal = self.game.legal_moves(color)
        if not legal:
            return None, legal
        board = self.game.board.copy()
        if progress is None:
            result = self.search.genmove(board, color, self.game.komi, legal, time_budget=budget)
        else:
            result = self.search.genmove(board, color, self.game.komi, legal, time_budget=budget,
                                         progress=progress, interval=interval)
        return result, legal

    def _checked(self, move, legal) -> int:
        """The search's move if legal (RESIGN only when resigning is on), else PASS (logged)."""
        if move == RESIGN and self.search_options["resign_threshold"] is None:
            self._log("search resigned although resigning is off; passing instead")
            return PASS
        if move in (PASS, RESIGN) or move in legal:
            return move
        self._log(f"search returned {move!r}, which is not a legal move; passing instead")
        return PASS

    def _report(self, command: str, color: int, move: int, result, budget, elapsed: float) -> None:
        if result is None:
            self._log(f"{command} {COLOR_NAMES[color]}: {self._name(move)} (no legal move on the board)")
            return
        seconds = result.seconds or elapsed
        rate = result.playouts / seconds if seconds > 0 else 0.0
        pv = " ".join(self._name(p) for p in result.pv[:12])
        budget_text = "" if budget is None else f", budget {budget:.2f} s"
        stopped = result.stopped
        budget_text += f", stopped: {stopped}" if stopped else ""
        self._log(f"{command} {COLOR_NAMES[color]}: {self._name(move)} | {result.playouts} playouts in "
                  f"{seconds:.2f} s ({rate:.0f}/s{budget_text}), win rate {result.winrate:.1%}, pv {pv}")

    def _empty_points(self) -> int:
        board = self.game.board
        return self.game.size ** 2 - board.stones(BLACK).count() - board.stones(WHITE).count()

    def cmd_genmove(self, args, cleanup: bool = False):
        """genmove COLOR: search, play and answer the move (a vertex, pass or resign)."""
        self._arity(args, 1)
        return self._genmove(self._color(args[0]), cleanup)

    def _genmove(self, color: int, cleanup: bool = False, progress=None, interval: float = 0.5) -> str:
        """Search for color within the clock's budget, play the move and return its name."""
        budget = self.time.budget(color, self._empty_points())
        start = time.perf_counter()
        result, legal = self._think(color, budget, progress, interval)
        move = PASS if result is None else self._checked(result.move, legal)
        if cleanup and move in (PASS, RESIGN):
            capture = self.cleanup_move(color)
            if capture is not None:
                move = capture
        elapsed = time.perf_counter() - start
        if move != RESIGN:
            self.game.play(color, move)
        self.time.spend(color, elapsed)
        self.last_result = result
        self._report("kgs-genmove_cleanup" if cleanup else "genmove", color, move, result, budget, elapsed)
        return self._name(move)

    def cmd_kgs_genmove_cleanup(self, args):
        """kgs-genmove_cleanup COLOR: as genmove, but capture the opponent's dead stones instead of passing."""
        return self.cmd_genmove(args, cleanup=True)

    def cleanup_move(self, color: int) -> int | None:
        """A legal move that attacks an opponent string judged dead (the one with fewest liberties
        first, never filling an own eye, avoiding self-atari), or None if no dead stone remains."""
        game = self.game
        g = game.geometry
        dead = [(pts, c) for status, c, pts in game.statuses(seed=self.seed)
                if status == "dead" and c != color]
        if not dead:
            return None
        legal = set(game.legal_moves(color))
        eyes = game.board.eyes(color)
        strings = [s for s in board_strings(game.board) if s[0] != color]
        dead_heads = {pts[0] for pts, _ in dead}
        targets = sorted((s for s in strings if s[1][0] in dead_heads), key=lambda s: len(s[2]))
        fallback = None
        for _, _, libs in targets:
            for lib in sorted(libs):
                if lib not in legal or eyes[int(g.bit_of[lib])]:
                    continue
                after = game.board.copy()
                result = after.play(color, lib)
                mine = [s for s in board_strings(after) if lib in s[1]]
                if result.captured or (mine and len(mine[0][2]) >= 2):
                    return lib
                fallback = fallback if fallback is not None else lib
        return fallback

    def cmd_reg_genmove(self, args):
        """reg_genmove COLOR: the move genmove would choose, without playing it."""
        self._arity(args, 1)
        color = self._color(args[0])
        result, legal = self._think(color, None)
        return self._name(PASS if result is None else self._checked(result.move, legal))

    # ------------------------------------------------------------ inspection

    def cmd_showboard(self, args):
        """showboard: the board in GNU Go's layout (X black, O white, + star points, captures on the right)."""
        self._arity(args, 0)
        board = self.game.board
        n = board.size
        g = board.geometry
        letters = "   " + " ".join(COLUMNS[:n])
        lines = ["", letters]
        for i in range(n):
            row = n - 1 - i
            cells = []
            for col in range(n):
                c = board.color_at(g.point(row, col))
                cells.append("X" if c == BLACK else "O" if c == WHITE else "+" if _hoshi(n, row, col) else ".")
            line = f"{row + 1:2d} {' '.join(cells)} {row + 1}"
            if i == (n - 2 if n < 10 else 8):
                line += f"     WHITE (O) has captured {board.captures(WHITE)} stones"
            if i == (n - 1 if n < 10 else 9):
                line += f"     BLACK (X) has captured {board.captures(BLACK)} stones"
            lines.append(line)
        lines.append(letters)
        return "\n".join(lines)

    def cmd_final_score(self, args):
        """final_score -> B+3.5, W+0.5 or 0 (area, dead stones estimated by playouts); `cannot score` on failure."""
        self._arity(args, 0)
        try:
            return self.game.final_score(seed=self.seed)
        except Exception as error:
            self._log(f"final_score failed:\n{traceback.format_exc()}")
            raise GtpError(f"cannot score: {type(error).__name__}") from None

    def cmd_final_status_list(self, args):
        """final_status_list alive|dead|seki -> one string per line."""
        self._arity(args, 1)
        if args[0] not in ("alive", "dead", "seki"):
            raise GtpError(f"syntax error: status must be alive, dead or seki, got {args[0]!r}")
        try:
            strings = self.game.final_status_list(args[0], seed=self.seed)
        except Exception as error:
            self._log(f"final_status_list failed:\n{traceback.format_exc()}")
            raise GtpError(f"cannot score: {type(error).__name__}") from None
        return "\n".join(" ".join(s) for s in strings)

    def cmd_is_legal(self, args):
        """is_legal COLOR VERTEX -> 1 or 0 (superko included; 0 off the board)."""
        self._arity(args, 2)
        color = self._color(args[0])
        try:
            point = self._vertex(args[1])
        except GtpError as error:
            if str(error).startswith("illegal move"):
                return "0"
            raise
        return "1" if self.game.is_legal(color, point) else "0"

    def cmd_all_legal(self, args):
        """all_legal COLOR -> the legal board points."""
        self._arity(args, 1)
        color = self._color(args[0])
        return " ".join(self._name(p) for p in self.game.legal_moves(color))

    def cmd_list_stones(self, args):
        """list_stones COLOR -> the points holding that colour's stones."""
        self._arity(args, 1)
        color = self._color(args[0])
        g = self.game.geometry
        stones = self.game.board.stones(color)
        return " ".join(g.name(int(g.points[i])) for i in stones.search(1))

    # ------------------------------------------------------------ time

    def cmd_time_settings(self, args):
        """time_settings MAIN BYO_TIME BYO_STONES (GTP: Canadian byo-yomi; BYO_TIME > 0 with 0 stones: no limit)."""
        self._arity(args, 3)
        main, byo, stones = self._float(args[0]), self._float(args[1]), self._int(args[2])
        if main < 0 or byo < 0 or stones < 0:
            raise GtpError("syntax error: times and stones must be >= 0")
        self.time.set_gtp(main, byo, stones)
        return ""

    def cmd_time_left(self, args):
        """time_left COLOR SECONDS STONES (STONES 0: main time; else stones or periods left in byo-yomi)."""
        self._arity(args, 3)
        color, seconds, stones = self._color(args[0]), self._float(args[1]), self._int(args[2])
        if seconds < 0 or stones < 0:
            raise GtpError("syntax error: time and stones must be >= 0")
        self.time.time_left(color, seconds, stones)
        return ""

    def cmd_kgs_time_settings(self, args):
        """kgs-time_settings none | absolute MAIN | byoyomi MAIN PERIOD PERIODS | canadian MAIN PERIOD STONES."""
        if not args:
            raise GtpError("syntax error: expected none, absolute, byoyomi or canadian")
        system, rest = args[0].lower(), args[1:]
        wants = {"none": 0, "absolute": 1, "byoyomi": 3, "canadian": 3}
        if system not in wants:
            raise GtpError(f"syntax error: unknown time system {args[0]!r}")
        self._arity(rest, wants[system])
        values = [self._float(rest[0])] if rest else []
        if len(rest) == 3:
            values += [self._float(rest[1]), self._int(rest[2])]
        if any(v < 0 for v in values):
            raise GtpError("syntax error: times and counts must be >= 0")
        if system == "none":
            self.time.set_none()
        elif system == "absolute":
            self.time.set_absolute(values[0])
        elif system == "byoyomi":
            self.time.set_japanese(*values)
        else:
            self.time.set_gtp(*values)
        return ""

    # ------------------------------------------------------------ analysis

    def cmd_gogui_analyze_commands(self, args):
        """gogui-analyze_commands -> type/label/command lines for GoGui's analysis menu."""
        self._arity(args, 0)
        return "\n".join([
            "dboard/Ownership/foogo-ownership",
            "dboard/Visits/foogo-visits",
            "string/Final Score/final_score",
            "plist/Dead Stones/final_status_list dead",
        ])

    def _dboard(self, values) -> str:
        """Rows top first of size numbers each, from a row*size+col indexed sequence of strings."""
        n = self.game.size
        return "\n".join(" ".join(values[row * n + col] for col in range(n)) for row in range(n - 1, -1, -1))

    def cmd_foogo_ownership(self, args):
        """foogo-ownership -> dboard of mean playout ownership, +1 black to -1 white."""
        self._arity(args, 0)
        from .playout import ownership
        own = ownership(self.game.board, playouts=ANALYSIS_OWNERSHIP_PLAYOUTS, seed=self.seed)
        return self._dboard([f"{v:.2f}" for v in own])

    def cmd_foogo_visits(self, args):
        """foogo-visits -> dboard of the root visit counts of a search for the side to move."""
        self._arity(args, 0)
        color = self.game.to_move
        result, _ = self._think(color, None)
        visits = result.visits
        g = self.game.geometry
        return self._dboard([str(visits.get(int(p), 0)) for p in g.points])

    def _parse_analyze_args(self, args) -> tuple[int, int, bool]:
        """[COLOR] [INTERVAL] then key-value pairs (interval N, minmoves N, maxmoves N, ownership
        true|false) -> (colour, interval in centiseconds, ownership wanted)."""
        color, interval, ownership = self.game.to_move, DEFAULT_INTERVAL, False
        rest = list(args)
        if rest and not rest[0].isdigit() and rest[0] not in ANALYZE_KEYS:
            color = self._color(rest.pop(0))
        if rest and rest[0].isdigit():
            interval = self._int(rest.pop(0))
        while rest:
            key = rest.pop(0)
            if key not in ANALYZE_KEYS or not rest:
                raise GtpError(f"syntax error: unexpected analysis argument {key!r}")
            value = rest.pop(0)
            if key == "interval":
                interval = self._int(value)
            elif key == "ownership":
                if value not in ("true", "false"):
                    raise GtpError(f"syntax error: ownership takes true or false, got {value!r}")
                ownership = value == "true"
            else:  # minmoves, maxmoves: foogo reports every move it visited
                self._int(value)
        if interval < 0:
            raise GtpError("syntax error: interval must be >= 0")
        return color, interval, ownership

    def info_line(self, result, kata: bool = False, ownership: bool = False) -> str:
        """One analysis report for a SearchResult: `info move V visits N ...` per root move, most
        visited first, from the point of view of the side that searched. Leela Zero's format
        (winrate, prior, lcb in 0..10000) or, with kata, KataGo's (floats in [0, 1], scoreMean,
        scoreStdev, scoreLead in points; with ownership, an `ownership` list of size*size values
        in [-1, 1], rows from the top left). prior: the move's share of foogo's prior (Go
        knowledge: captures, atari escapes, ...); lcb: the lower end of the win rate's 95%
        Wilson interval; scores come from the playouts' final margins."""
        sign = 1.0 if result.color == BLACK else -1.0
        ranked = sorted(((n, p) for p, n in result.visits.items() if n > 0), key=lambda t: -t[0])
        parts = []
        for order, (n, p) in enumerate(ranked):
            line = result.pv if result.pv and result.pv[0] == p else [p]
            rate = min(1.0, max(0.0, result.winrates.get(p, result.winrate)))
            prior = result.priors.get(p, 0.0)
            lcb = wilson(rate * n, n)[0]
            pv = " ".join(self._name(q) for q in line)
            if kata:
                mean, stdev = result.scores.get(p, (0.0, 0.0))
                lead = sign * mean
                parts.append(f"info move {self._name(p)} visits {n} winrate {rate:.6f} scoreMean {lead:.3f} "
                             f"scoreStdev {stdev:.3f} scoreLead {lead:.3f} prior {prior:.6f} lcb {lcb:.6f} "
                             f"order {order} pv {pv}")
            else:
                parts.append(f"info move {self._name(p)} visits {n} winrate {_per10000(rate)} "
                             f"prior {_per10000(prior)} lcb {_per10000(lcb)} order {order} pv {pv}")
        if kata and ownership and parts and result.ownership is not None:
            n = self.game.size
            own = result.ownership
            values = [sign * float(own[row * n + col]) for row in range(n - 1, -1, -1) for col in range(n)]
            parts.append("ownership " + " ".join(f"{v:.4f}" for v in values))
        return " ".join(parts)

    def cmd_lz_analyze(self, args):
        """lz-analyze [COLOR] [INTERVAL] [interval N]: `=` then an info line every INTERVAL centiseconds
        until the next input line arrives, then the empty line that ends the response."""
        return self._analyze(args, kata=False)

    def cmd_kata_analyze(self, args):
        """kata-analyze [COLOR] [INTERVAL] [interval N] [ownership true]: as lz-analyze, in KataGo's format."""
        return self._analyze(args, kata=True)

    def _analyze(self, args, kata: bool):
        color, interval, want_ownership = self._parse_analyze_args(args)
        legal = self.game.legal_moves(color)
        head = _frame(True, self._cid, "")[:-1]  # "=id\n": the response stays open
        lines: list[str] = []
        stream, interrupt = self._stream, self._interrupt
        stop = interrupt if interrupt is not None else threading.Event()
        emitted = [0]

        def progress(result):
            text = self.info_line(result, kata, want_ownership)
            if text:
                emitted[0] += 1
                if stream is not None:
                    stream(text + "\n")
                else:
                    lines.append(text)
            if interrupt is None:
                stop.set()  # no input to wait for: answer one snapshot

        if stream is not None:
            stream(head)
        try:
            if legal:
                final = self.search.analyze(self.game.board.copy(), color, self.game.komi, legal, stop=stop,
                                            progress=progress, interval=max(interval, 1) / 100.0)
                if not emitted[0] and final is not None:
                    progress(final)
        except Exception:
            self._log(f"analysis failed:\n{traceback.format_exc()}")
        if stream is not None:
            stream("\n")
            return _Streamed("")
        return _Streamed(head + "".join(line + "\n" for line in lines) + "\n")

    def cmd_lz_genmove_analyze(self, args):
        """lz-genmove_analyze [COLOR] [INTERVAL] ...: genmove, with lz-analyze lines while it searches,
        and `play MOVE` as the last line."""
        return self._genmove_analyze(args, kata=False)

    def cmd_kata_genmove_analyze(self, args):
        """kata-genmove_analyze [COLOR] [INTERVAL] ...: as lz-genmove_analyze, in KataGo's format."""
        return self._genmove_analyze(args, kata=True)

    def _genmove_analyze(self, args, kata: bool):
        color, interval, want_ownership = self._parse_analyze_args(args)
        head = _frame(True, self._cid, "")[:-1]
        stream = self._stream
        lines: list[str] = []

        def progress(result):
            text = self.info_line(result, kata, want_ownership)
            if text:
                if stream is not None:
                    stream(text + "\n")
                else:
                    lines.append(text)

        if stream is not None:
            stream(head)
        move = self._genmove(color, progress=progress, interval=max(interval, 1) / 100.0)
        if stream is not None:
            return _Streamed(f"play {move}\n\n")
        return _Streamed(head + "".join(line + "\n" for line in lines) + f"play {move}\n\n")


def _per10000(x: float) -> int:
    """A fraction in [0, 1] as Leela Zero's integer in [0, 10000]."""
    return min(10000, max(0, int(round(10000 * x))))


@dataclass
class _Streamed:
    """A response already written (or assembled) by a streaming handler; `tail` is what remains to return."""

    tail: str


def preprocess(line: str) -> str | None:
    """GTP preprocessing (spec 2.2): drop control characters but HT, cut a comment from '#', HT to
    space; None if nothing but white space is left. White space is GTP's, space and HT only: a
    line of other (Unicode) spaces is a command, and gets its answer."""
    line = _CONTROL.sub("", line.split("\n", 1)[0] if "\n" in line else line)
    line = line.split("#", 1)[0].replace("\t", " ").strip(" ")
    return line or None


def _leading_id(text: str) -> str | None:
    match = re.match(r"[ \t]*([0-9]+)[ \t]", text)
    return match.group(1) if match else None


def _frame(ok: bool, cid: str | None, text: str) -> str:
    """`=id text` or `?id text`, no empty line inside, ended by an empty line."""
    lines = text.split("\n")
    body = "\n".join([lines[0]] + [line for line in lines[1:] if line.strip()])
    sign = "=" if ok else "?"
    head = f"{sign}{cid or ''}"
    return f"{head} {body}\n\n" if body else f"{head}\n\n"


# ---------------------------------------------------------------- serving

_EOF = object()


def _read_line(stream):
    """One line (bytes or str) of at most MAX_LINE + 2 characters, the rest of a longer line
    drained; None at end of input."""
    line = stream.readline(MAX_LINE + 2)
    if not line:
        return None
    newline, blank = (b"\n", _BLANK_BYTES) if isinstance(line, bytes) else ("\n", _BLANK_CHARS)
    # a run of leading blanks says nothing: drop it, so that what is kept of a long line starts
    # where its content (or comment) does
    while not line.endswith(newline):
        line = line.lstrip(blank)
        if len(line) >= MAX_LINE + 2:
            break
        more = stream.readline(MAX_LINE + 2 - len(line))
        if not more:
            break
        line += more
    if not line.endswith(newline) and len(line) >= MAX_LINE + 2:
        while True:
            more = stream.readline(65536)
            if not more or more.endswith(newline):
                break
    return line


def _fd_lines(fd: int):
    """Lines (bytes) read from a file descriptor with os.read, longer ones cut to MAX_LINE + 2 bytes.

    Why not sys.stdin.buffer.readline: a daemon thread blocked in a BufferedReader holds its
    lock, and the interpreter aborts at exit ("could not acquire lock ... at interpreter
    shutdown") when `quit` ends the engine while the reader waits. os.read holds no lock."""
    import os
    pending = b""
    skipping = False  # inside the rest of an over-long line
    while True:
        chunk = os.read(fd, 65536)
        if not chunk:
            if pending and not skipping:
                yield pending
            return
        pending += chunk
        while True:
            cut = pending.find(b"\n")
            if cut < 0:
                if not skipping:
                    pending = pending.lstrip(_BLANK_BYTES)  # a leading blank run says nothing
                if len(pending) > MAX_LINE + 1:
                    if not skipping:
                        yield pending[: MAX_LINE + 2]
                    skipping = True
                    pending = b""
                break
            line, pending = pending[: cut + 1], pending[cut + 1:]
            if skipping:
                skipping = False
                continue
            yield line


def serve(engine: GtpEngine, stdin, stdout) -> int:
    """Answer GTP commands from stdin (text or binary) on stdout until `quit` or end of input; returns 0."""
    try:
        fd = stdin.fileno()
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError
        fd = None
    if fd is not None:
        source = _fd_lines(fd)
    else:
        def lines_of(stream):
            while (line := _read_line(stream)) is not None:
                yield line
        source = lines_of(stdin)
    lock = threading.Lock()

    def write(text: str) -> None:
        with lock:
            stdout.write(text)
            stdout.flush()

    lines: queue.Queue = queue.Queue()
    arrived = threading.Event()

    def reader() -> None:
        try:
            for line in source:
                lines.put(line)
                arrived.set()
        except Exception:
            engine._log(f"input reader stopped:\n{traceback.format_exc()}")
        finally:
            lines.put(_EOF)
            arrived.set()

    threading.Thread(target=reader, name="gtp-input", daemon=True).start()
    while not engine.quit_requested:
        line = lines.get()
        if line is _EOF:
            break
        arrived.clear()
        if not lines.empty():
            arrived.set()
        try:
            response = engine.execute(line, stream=write, interrupt=arrived)
        except Exception:  # execute guards its handlers; this is the last line of defence
            engine._log(f"internal error:\n{traceback.format_exc()}")
            response = _frame(False, None, "internal error")
        if response:
            try:
                write(response)
            except (BrokenPipeError, ValueError):
                break
    return 0


# ---------------------------------------------------------------- command line

def available_cores() -> int:
    """The cores this process may run on (its CPU affinity where the system says, else the CPU count)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # not Linux
        return os.cpu_count() or 1


def configure_parser(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Add the `foogo gtp` options to an argparse parser."""
    parser.add_argument("--rules", choices=RULES, default="chinese", help="chinese (default) or tromp-taylor")
    parser.add_argument("--playouts", type=int, default=None, metavar="N", help="playouts per move")
    parser.add_argument("--time", type=float, default=None, metavar="SECONDS",
                        help="seconds per move (GTP time controls take precedence)")
    parser.add_argument("--threads", type=int, default=available_cores(),
                        help=f"search threads (default: the cores this process may use, {available_cores()} here)")
    parser.add_argument("--policy", choices=POLICIES, default="heavy",
                        help="playout policy (default heavy, the strongest; light is uniform random)")
    parser.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    parser.add_argument("--no-resign", action="store_true", help="never resign")
    parser.add_argument("--no-warm-up", action="store_true",
                        help="do not compile/load the search kernels before the first command")
    parser.add_argument("--resign-threshold", type=float, default=0.1, metavar="W",
                        help="resign below this win rate (default 0.1)")
    parser.add_argument("--size", type=int, default=9, help="initial board size (default 9)")
    parser.add_argument("--memory", type=int, default=None, metavar="MB",
                        help="cap on the search trees' memory, all threads together (default: 64 per 81 "
                             "points, so 64 on 9x9 and 285 on 19x19, at most 512 and 1/8 of the RAM)")
    parser.add_argument("--sgf-max-bytes", type=int, default=SGF_MAX_BYTES, metavar="N",
                        help=f"loadsgf refuses larger files (default {SGF_MAX_BYTES})")
    parser.add_argument("--sgf-max-moves", type=int, default=SGF_MAX_MOVES, metavar="N",
                        help=f"loadsgf refuses longer main lines (default {SGF_MAX_MOVES})")
    parser.add_argument("--komi", type=float, default=7.0, help="initial komi (default 7)")
    parser.add_argument("--expand", type=float, default=None, metavar="N",
                        help="grow a tree node below a move once it has N visits (tuning; default 2)")
    return parser


def run(args) -> int:
    """`foogo gtp`: serve GTP on stdin/stdout with the parsed options; returns the exit status."""
    if args.playouts is not None and args.playouts < 1:
        print("foogo gtp: --playouts must be at least 1", file=sys.stderr)
        return 2
    if args.time is not None and not args.time > 0:
        print("foogo gtp: --time must be positive", file=sys.stderr)
        return 2
    if args.threads < 1:
        print("foogo gtp: --threads must be at least 1", file=sys.stderr)
        return 2
    if args.memory is not None and args.memory < 16:
        print("foogo gtp: --memory must be at least 16 (MB)", file=sys.stderr)
        return 2
    if args.expand is not None and not args.expand >= 1:
        print("foogo gtp: --expand must be at least 1", file=sys.stderr)
        return 2
    if args.sgf_max_bytes < 1 or args.sgf_max_moves < 1:
        print("foogo gtp: --sgf-max-bytes and --sgf-max-moves must be at least 1", file=sys.stderr)
        return 2
    try:
        engine = GtpEngine(rules=args.rules, playouts=args.playouts, seconds=args.time, threads=args.threads,
                           policy=args.policy, seed=args.seed, resign=not args.no_resign,
                           resign_threshold=args.resign_threshold, size=args.size, komi=args.komi,
                           sgf_max_bytes=args.sgf_max_bytes, sgf_max_moves=args.sgf_max_moves,
                           memory_mb=args.memory, expand_threshold=args.expand)
    except ValueError as error:
        print(f"foogo gtp: {error}", file=sys.stderr)
        return 2
    if not args.no_warm_up:
        warm_up(args.policy)
    return serve(engine, sys.stdin, sys.stdout)


def warm_up(policy: str = "light") -> None:
    """Compile (or load from numba's cache) every kernel a game uses before the first command is read.

    Otherwise the first genmove would pay for compilation inside its time budget: about 20 s
    on a fresh install, enough to lose on time under byo-yomi. With a warm cache this takes
    about a second."""
    start = time.perf_counter()
    from .board import Board
    from .playout import ownership
    from .search import Search, SearchConfig

    board = Board(5)
    legal = [int(p) for p in board.geometry.points]
    Search(SearchConfig(playouts=16, policy=policy, resign_threshold=None)).genmove(board, BLACK, 0.5, legal)
    ownership(board, playouts=2)
    print(f"foogo gtp: kernels ready in {time.perf_counter() - start:.1f} s", file=sys.stderr)


def main(argv=None) -> int:
    """`python -m foogo.gtp [options]`."""
    parser = configure_parser(argparse.ArgumentParser(prog="foogo gtp", description="foogo's GTP engine"))
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
