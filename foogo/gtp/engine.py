"""The GTP engine: one handler per command over a Game and a Search (the analysis commands: analysis.py;
the inspection commands: inspection.py; the time commands: time_commands.py; genmove and its kin:
moves.py).

`GtpEngine.execute(line)` preprocesses and frames (protocol.py), dispatches to a `cmd_*` method
that calls `Game` (rules) and the search (imported lazily, so that the protocol works, and is
testable, without numba), and answers `=id result` / `?id message`. After any error the game
(position, history, komi, clocks) is as it was; a bug inside a handler becomes
`? internal error: ...` (traceback on stderr), never a crash.
"""

from __future__ import annotations

import copy
import re
import sys
import threading
import traceback
from typing import TYPE_CHECKING

from ..board import IllegalMove
from ..files import write_whole
from ..game import (
    SGF_MAX_BYTES,
    SGF_MAX_MOVES,
    Game,
    GameError,
    SgfError,
    check_rules,
    max_fixed_handicap,
    sgf_rules_name,
)
from ..geometry import (
    COLOR_NAMES,
    PASS,
    check_size,
)
from ..version import source_version
from .analysis import AnalysisCommands
from .clock import TimeManager
from .inspection import InspectionCommands
from .moves import MoveCommands
from .protocol import MAX_LINE, PROTOCOL_VERSION, GtpError, Streamed, frame, leading_id, preprocess
from .time_commands import TimeCommands

if TYPE_CHECKING:
    from ..book import Book

ENGINE_NAME = "foogo"
POLICIES = ("light", "heavy", "heavy-nakade", "heavy-race")  # policy.POLICIES: GTP starts without numba


def default_search_factory(options: dict):
    """The production search: foogo.search.Search built from SearchConfig(**options) (imported here, lazily)."""
    from ..search import Search, SearchConfig
    return Search(SearchConfig(**options))


class GtpEngine(AnalysisCommands, InspectionCommands, TimeCommands, MoveCommands):
    """A GTP engine over one Game; `execute(line)` answers one command line."""

    def __init__(self, rules: str = "chinese", playouts: int | None = None, seconds: float | None = None,
                 threads: int = 1, policy: str = "light", seed: int = 0, resign: bool = True,
                 resign_threshold: float = 0.1, search_factory=None, size: int = 9, komi: float = 7.0,
                 log=None, sgf_max_bytes: int = SGF_MAX_BYTES, sgf_max_moves: int = SGF_MAX_MOVES,
                 memory_mb: int | None = None, tuning: dict | None = None, book: str | None = None):
        """An engine with an empty size x size game. Search options go to SearchConfig (memory_mb None:
        SearchConfig's; tuning: more SearchConfig fields, such as expand_threshold, prior, equiv or
        uct); search_factory(options) builds the search object (default: foogo.search, imported at the
        first command that needs it). book: the path of an opening book (foogo/book.py) that genmove
        answers from before it searches, read at the first genmove; None: no book."""
        self.rules = check_rules(rules)
        self.game = Game(size, komi, self.rules)
        self.search_options = dict(playouts=playouts, seconds=seconds, threads=threads, policy=policy,
                                   seed=seed, resign_threshold=resign_threshold if resign else None,
                                   memory_mb=memory_mb)
        self.search_options.update(tuning or {})
        self.seed = seed
        self.sgf_limits = dict(max_bytes=sgf_max_bytes, max_moves=sgf_max_moves)  # for loadsgf
        self._search_factory = search_factory or default_search_factory
        self._search = None
        self.kernels_ready: threading.Event | None = None  # set by `foogo gtp`'s background warm-up
        self.time = TimeManager()
        self.log = log if log is not None else sys.stderr
        self.quit_requested = False
        self.last_result = None  # the SearchResult of the last genmove (None after a book move)
        self.book_path = book
        self._book: Book | None = None  # read once by open_book: at `foogo gtp`'s start, else at the first genmove
        self._book_idle: tuple[int, float] | None = None  # the size and komi the book was last logged idle for
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
        # set when the process that started the engine is gone (serve's watch): a search then ends at once
        # instead of running out its budget, up to MAX_BUDGET, for a GUI that no longer reads the answer
        self.orphaned = threading.Event()

    # ------------------------------------------------------------ plumbing

    @property
    def search(self):
        """The search object, built on first use, once the kernels are ready (see kernels_ready)."""
        if self.kernels_ready is not None:
            self.kernels_ready.wait()
        if self._search is None:
            self._search = self._search_factory(dict(self.search_options))
        return self._search

    def _ready_unless(self, stop: threading.Event) -> bool:
        """Wait for the kernels (kernels_ready) unless `stop` is set first: True when they are ready.
        An analysis asks this before it touches `search`, so that a command sent while the kernels
        still load (Lizzie's next `play`, for one) ends it at once instead of waiting for them."""
        ready = self.kernels_ready
        while ready is not None and not ready.wait(0.02):
            if stop.is_set():
                return False
        return True

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
                return frame(False, leading_id(text), "syntax error: line is not UTF-8 text")
        processed = preprocess(line)
        if processed is None:  # empty, white space (GTP's: space and tab) or a comment: never answered
            return None
        text = processed
        if cut or len(text) > MAX_LINE:
            return frame(False, leading_id(text), f"syntax error: line longer than {MAX_LINE} characters")
        tokens = [token for token in text.split(" ") if token]
        cid = None
        if tokens[0].isascii() and tokens[0].isdigit():
            cid = tokens.pop(0)
            if not tokens:
                return frame(False, cid, "syntax error: id without a command")
        name, args = tokens[0], tokens[1:]
        handler = self.commands.get(name)
        if handler is None:
            return frame(False, cid, "unknown command")
        # the state to put back if the handler fails (a checkpoint costs the same at any game length)
        saved = (self.game, self.game.checkpoint(), copy.deepcopy(self.time))
        self._stream, self._interrupt, self._cid = stream, interrupt, cid
        try:
            result = handler(args)
        except GtpError as error:
            self._restore(saved)
            return frame(False, cid, str(error))
        except Exception as error:  # a bug: report it, keep serving
            self._restore(saved)
            self._log(f"internal error in {name!r}:\n{traceback.format_exc()}")
            message = " ".join(f"{type(error).__name__}: {error}".split())
            return frame(False, cid, f"internal error: {message}"[:500])
        finally:
            self._stream = self._interrupt = None
        if isinstance(result, Streamed):
            return result.tail
        return frame(True, cid, result or "")

    def _restore(self, saved) -> None:
        self.game, token, self.time = saved
        self.game.rollback(token)

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
        """version -> the package version, with its commit when run from a git checkout (version.py)"""
        self._arity(args, 0)
        return source_version()

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
        if re.fullmatch(r"[+-]?[0-9]{10,}", args[0]):  # an integer too long for _int: no board has that size
            raise GtpError("unacceptable size")
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
        """komi K (a finite number, at most numbers.MAX_KOMI either way)."""
        self._arity(args, 1)
        try:
            self.game.set_komi(self._float(args[0]))
        except ValueError as error:
            raise GtpError(f"syntax error: {error}") from None
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
        most, size = max_fixed_handicap(self.game.size), self.game.size
        if not 2 <= n <= most:
            room = f"2 to {most}" if most else "none (boards of 7x7 and up have it)"
            raise GtpError(f"invalid number of stones: fixed placement takes {room} on {size}x{size}")
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
        try:  # under the engine's rules (--rules), whatever the file's RU says: GTP has no command to set them
            self.game.load_sgf(args[0], move_number, rules=self.rules, **self.sgf_limits)
        except SgfError as error:
            raise GtpError(f"cannot load file: {error}") from None  # one line: frame
        if self.game.sgf_rules and sgf_rules_name(self.game.sgf_rules) != self.rules:
            self._log(f"loadsgf: the file's rules are RU[{self.game.sgf_rules}]; foogo plays it under {self.rules} "
                      "rules (--rules)")
        self.time.reset_clocks()
        self._new_position()
        return COLOR_NAMES[self.game.to_move]

    def cmd_printsgf(self, args):
        """printsgf [FILE]: the game as SGF, or written whole to FILE (a regular file: files.write_whole)."""
        self._arity(args, 0, 1)
        text = self.game.to_sgf()
        if args:
            try:
                write_whole(args[0], (text + "\n").encode("utf-8"))
            except OSError as error:  # a FIFO or a device too (files.NotRegularFile): written, it could wait for ever
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
