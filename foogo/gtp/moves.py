"""The GTP engine's move generation: genmove and its kin, from the opening book or a search.

What it is: `MoveCommands`, the part of `GtpEngine` (engine.py) that answers `genmove`,
`kgs-genmove_cleanup` and `reg_genmove`: the opening book's move when it has the position
(`_book_move`), else a search of the clock's budget (`_think`), its move checked against the legal
points (`_checked`) and logged (`_report`: the line bench/match_review.py reads); in cleanup, a move
that takes the opponent's dead stones instead of a pass (`cleanup_move`). The analysis commands'
genmove (analysis.py) runs through `_genmove` too.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from ..game import board_strings
from ..geometry import BLACK, COLOR_NAMES, PASS, RESIGN, WHITE
from ..search import HISTORY
from .analysis import collected_note
from .arguments import Arguments

if TYPE_CHECKING:
    import threading

    from ..book import Book
    from ..game import Game
    from ..search import SearchResult
    from .clock import TimeManager


class MoveCommands(Arguments):
    """GtpEngine's move generation (a base of GtpEngine: it uses its game, search, clock and book)."""

    if TYPE_CHECKING:  # what it uses of GtpEngine
        game: Game
        seed: int
        time: TimeManager
        book_path: str | None
        orphaned: threading.Event
        _book: Book | None
        _book_idle: tuple[int, float] | None
        search_options: dict
        last_result: Any

        @property
        def search(self) -> Any: ...
        def _log(self, message: str) -> None: ...

    def _think(self, color: int, budget: float | None, progress=None, interval: float = 0.5,
               limit: float | None = None, commit: bool = True):
        """Run the search for `color` on the current position -> (SearchResult or None, legal moves);
        progress(result) is called about every `interval` seconds while it searches; limit: the most a
        close search may take (Search.genmove's time_limit); commit=False: a search for a move not played,
        which leaves the game's playout bank and dynamic komi as they were. No legal point: None, unless
        progress reports are wanted (genmove_analyze), which then come from a search of pass alone."""
        legal = self.game.legal_points(color)
        if not legal and progress is None:
            return None, legal
        board = self.game.board.copy()
        history = self.game.recent_positions(HISTORY)  # the tree's moves may not repeat them (superko)
        # the handicap and the moves since it: dynamic komi's handicap phase (when the search has it on)
        game = dict(history=history, handicap=self.game.handicap, moves=self.game.move_count(), time_limit=limit,
                    commit=commit, stop=self.orphaned)
        if progress is None:
            result = self.search.genmove(board, color, self.game.komi, legal, time_budget=budget, **game)
        else:
            result = self.search.genmove(board, color, self.game.komi, legal, time_budget=budget,
                                         progress=progress, interval=interval, **game)
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

    def _report(self, command: str, color: int, move: int, result: SearchResult | None, budget, elapsed: float,
                cpu: float) -> None:
        """Log a genmove's search: its move, playouts, wall and CPU time (cpu: the process's, all threads;
        below the threads times the wall time when another process takes the machine, which
        bench/match_review.py looks for), why it stopped, how often a full tree was collected (the memory
        cap bound), its win rate and principal variation."""
        if result is None:
            self._log(f"{command} {COLOR_NAMES[color]}: {self._name(move)} (no legal move on the board)")
            return
        seconds = result.seconds or elapsed
        rate = result.playouts / seconds if seconds > 0 else 0.0
        pv = " ".join(self._name(p) for p in result.pv[:12])
        budget_text = "" if budget is None else f", budget {budget:.2f} s"
        stopped = result.stopped
        budget_text += f", stopped: {stopped}" if stopped else ""
        budget_text += collected_note(result.collections)
        extra = result.extra_komi
        komi_text = f" at komi {self.game.komi + extra:g} (dynamic)" if extra else ""
        self._log(f"{command} {COLOR_NAMES[color]}: {self._name(move)} | {result.playouts} playouts in "
                  f"{seconds:.2f} s ({rate:.0f}/s, CPU {cpu:.2f} s{budget_text}), win rate {result.winrate:.1%}"
                  f"{komi_text}, pv {pv}")

    def _empty_points(self) -> int:
        board = self.game.board
        return self.game.size ** 2 - board.stones(BLACK).count() - board.stones(WHITE).count()

    def cmd_genmove(self, args, cleanup: bool = False):
        """genmove COLOR: search, play and answer the move (a vertex, pass or resign)."""
        self._arity(args, 1)
        return self._genmove(self._color(args[0]), cleanup)

    def open_book(self) -> Book | None:
        """The engine's opening book, read at the first call and kept (None without one); OSError or
        ValueError (book.load_book's) for a book that cannot be read."""
        if self._book is None and self.book_path is not None:
            from ..book import load_book
            self._book = load_book(self.book_path)
        return self._book

    def _book_move(self, color: int) -> tuple[int, str] | None:
        """(point, what the book says of it) of the opening book's move for color here, if there is a
        book, it has this position (board size, komi, no capture so far) and the move is legal; else
        None. A book that cannot be read is logged once and not used; so is a book for another size or komi,
        once for each."""
        if self.book_path is None:
            return None
        try:
            book = self.open_book()
        except (OSError, ValueError) as error:
            self._log(f"opening book {self.book_path} not used: {error}")
            self.book_path = None
            return None
        assert book is not None
        setting = (self.game.size, self.game.komi)
        if not book.fits(*setting):
            if setting != self._book_idle:  # once for each other size and komi, not at every genmove
                self._book_idle = setting
                self._log(f"opening book {self.book_path} is for {book.size}x{book.size}, komi {book.komi:g}: not "
                          f"used on {setting[0]}x{setting[0]}, komi {setting[1]:g}")
            return None
        found = book.lookup(self.game.board, color, self.game.komi)
        if found is None or found[0] not in self.game.legal_points(color):
            return None
        point, entry = found
        return point, (f"opening book (foogo's search of {book.playouts} playouts: win rate {entry.winrate:.1%}, "
                       f"{entry.visits:.0%} of the visits)")

    def _genmove(self, color: int, cleanup: bool = False, progress=None, interval: float = 0.5) -> str:
        """Search for color within the clock's budget (or take the opening book's move), play the move
        and return its name."""
        empty = self._empty_points()
        budget, limit = self.time.budget(color, empty), self.time.limit(color, empty)
        start = time.perf_counter()
        cpu_start = time.process_time()
        found = None if cleanup or progress is not None else self._book_move(color)
        if found is not None:
            move, said = found
            self.game.play(color, move)
            self.time.spend(color, time.perf_counter() - start)
            self.last_result = None
            self._log(f"genmove {COLOR_NAMES[color]}: {self._name(move)} | {said}")
            return self._name(move)
        result, legal = self._think(color, budget, progress, interval, limit)
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
        self._report("kgs-genmove_cleanup" if cleanup else "genmove", color, move, result, budget, elapsed,
                     time.process_time() - cpu_start)
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
        legal = set(game.legal_points(color))
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
        found = self._book_move(color)
        if found is not None:
            return self._name(found[0])
        result, legal = self._think(color, None, commit=False)
        return self._name(PASS if result is None else self._checked(result.move, legal))
