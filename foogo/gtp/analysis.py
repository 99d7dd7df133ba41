"""The GTP engine's analysis commands: GoGui's analysis menu, and the live analysis of Leela Zero and KataGo.

What it is: `AnalysisCommands`, the part of `GtpEngine` (engine.py) that answers
`gogui-analyze_commands`, `foogo-ownership` and `foogo-visits` (dboards for GoGui), and
`lz-analyze`, `kata-analyze`, `lz-genmove_analyze` and `kata-genmove_analyze`, whose `info`
lines Sabaki and Lizzie draw while the search runs (`info_line` gives their format). It uses the
engine's game, search, argument parsers and streamed responses.
"""

from __future__ import annotations

import threading
import traceback
from typing import TYPE_CHECKING, Any

from ..geometry import BLACK, COLOR_NAMES, parse_color
from ..intervals import wilson
from ..search import HISTORY
from .arguments import Arguments
from .protocol import GtpError, Streamed, frame

if TYPE_CHECKING:
    from ..game import Game

DEFAULT_INTERVAL = 100  # lz-analyze interval in centiseconds when none is given
ANALYZE_KEYS = ("interval", "minmoves", "maxmoves", "ownership")  # the analysis commands' key-value pairs
ANALYSIS_OWNERSHIP_PLAYOUTS = 300


def collected_note(collections: int) -> str:
    """What a search's log line says of its full trees collected (the memory cap bound; bench/match_review.py
    and bench/game_memory.py look for it): ", trees collected Nx (memory cap)", or nothing."""
    return f", trees collected {collections}x (memory cap)" if collections else ""


class AnalysisCommands(Arguments):
    """GtpEngine's analysis commands (a base of GtpEngine: they use its game, search and helpers)."""

    if TYPE_CHECKING:  # what they use of GtpEngine
        game: Game
        seed: int
        _cid: str | None
        _stream: Any
        _interrupt: threading.Event | None
        last_result: Any  # the last genmove's SearchResult (None after a book move)

        @property
        def search(self) -> Any: ...
        def _log(self, message: str) -> None: ...
        def _ready_unless(self, stop: threading.Event) -> bool: ...
        def _think(self, color: int, budget: float | None, progress=None, interval: float = 0.5,
                   limit: float | None = None, commit: bool = True) -> Any: ...
        def _genmove(self, color: int, cleanup: bool = False, progress=None, interval: float = 0.5) -> str: ...

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
        from ..playout_ownership import ownership
        own = ownership(self.game.board, playouts=ANALYSIS_OWNERSHIP_PLAYOUTS, seed=self.seed)
        return self._dboard([f"{v:.2f}" for v in own])

    def cmd_foogo_visits(self, args):
        """foogo-visits -> dboard of the root visits of a search for the side to move, as shares of the most
        visited move's (1.000 for it): GoGui draws a dboard's values in [-1, 1], cutting larger ones to 1."""
        self._arity(args, 0)
        color = self.game.to_move
        result, _ = self._think(color, None, commit=False)
        visits = result.visits if result is not None else {}  # None: no legal point to search
        most = max(visits.values(), default=0) or 1
        g = self.game.geometry
        return self._dboard([f"{visits.get(int(p), 0) / most:.3f}" for p in g.points])

    def _parse_analyze_args(self, args, kata: bool) -> tuple[int, int, bool, int | None, int]:
        """[COLOR] [INTERVAL] then key-value pairs (interval N, minmoves N, maxmoves N, and for kata-analyze
        ownership true|false) -> (colour, interval in centiseconds, ownership wanted, the most moves a report
        names: maxmoves, None for all; the fewest: minmoves, filled as KataGo does with unvisited moves).
        KataGo's other options (avoid, allow, pvVisits...) are refused by name: a GUI probes them."""
        color, interval, ownership, most, least = self.game.to_move, DEFAULT_INTERVAL, False, None, 0
        rest = list(args)
        if rest and not rest[0].isdigit() and rest[0] not in ANALYZE_KEYS:
            try:
                color = parse_color(rest[0])
            except ValueError:  # not a colour: an option foogo lacks (avoid, allow...), named as such
                keys = [key for key in ANALYZE_KEYS if kata or key != "ownership"]
                raise GtpError(f"syntax error: {rest[0][:40]!r} is not supported (foogo's analysis takes a colour, "
                               f"an interval and the pairs {', '.join(keys)})") from None
            rest.pop(0)
        if rest and rest[0].isdigit():
            interval = self._int(rest.pop(0))
        while rest:
            key = rest.pop(0)
            if key not in ANALYZE_KEYS or not rest:
                raise GtpError(f"syntax error: unexpected analysis argument {key[:40]!r}")
            if key == "ownership" and not kata:
                raise GtpError("syntax error: ownership is kata-analyze's (lz-analyze has no ownership field)")
            value = rest.pop(0)
            if key == "interval":
                interval = self._int(value)
            elif key == "ownership":
                if value not in ("true", "false"):
                    raise GtpError(f"syntax error: ownership takes true or false, got {value!r}")
                ownership = value == "true"
            elif key == "maxmoves":
                most = self._int(value)
                if most < 1:
                    raise GtpError("syntax error: maxmoves must be >= 1")
            else:
                least = self._int(value)
                if least < 0:
                    raise GtpError("syntax error: minmoves must be >= 0")
        if interval < 0:
            raise GtpError("syntax error: interval must be >= 0")
        return color, interval, ownership, most, least

    def info_line(self, result, kata: bool = False, ownership: bool = False, most: int | None = None,
                  least: int = 0) -> str:
        """One analysis report for a SearchResult: `info move V visits N ...` per root move, most
        visited first (the `most` most visited only, if given; at least `least` if the root has that many,
        the unvisited ones by prior with the root's values and visits 0, as KataGo's minmoves), from the
        point of view of the side that searched. Leela Zero's format (winrate, prior, lcb in 0..10000) or, with kata,
        KataGo's (floats in [0, 1], scoreMean, scoreStdev, scoreLead in points; with ownership, an
        `ownership` list of size*size values in [-1, 1], rows from the top left). prior: the move's
        share of foogo's prior (Go knowledge: captures, atari escapes, ...); lcb: the lower end of
        the win rate's 95% Wilson interval; scores come from the playouts' final margins. A genmove that passed at
        once because passing already wins reports the pass alone: visits 0, its certain win rate and margin."""
        sign = 1.0 if result.color == BLACK else -1.0
        visited = sorted(((n, p) for p, n in result.visits.items() if n > 0), key=lambda t: -t[0])
        if visited:  # the root's values, an unvisited move's (KataGo gives its parent's)
            total = sum(n for n, _ in visited)
            root_rate = sum(n * result.winrates.get(p, result.winrate) for n, p in visited) / total
            root_score = (sum(n * result.scores.get(p, (0.0, 0.0))[0] for n, p in visited) / total, 0.0)
        elif result.stopped == "passed":  # passing already wins (Search.genmove): no playout, one certain move
            root_rate, root_score = result.winrate, result.scores.get(result.move, (0.0, 0.0))
            visited = [(0, result.move)]
        else:
            return ""
        unvisited = sorted((p for p in result.priors if result.visits.get(p, 0) <= 0), key=lambda p: -result.priors[p])
        ranked = (visited + [(0, p) for p in unvisited[:max(0, least - len(visited))]])[:most]
        parts = []
        for order, (n, p) in enumerate(ranked):
            line = result.pvs.get(p) or (result.pv if result.pv and result.pv[0] == p else [p])
            rate = min(1.0, max(0.0, result.winrates.get(p, result.winrate) if n else root_rate))
            prior = result.priors.get(p, 0.0)
            lcb = wilson(rate * n, n)[0] if n else 0.0
            pv = " ".join(self._name(q) for q in line)
            if kata:
                mean, stdev = result.scores.get(p, root_score)
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
        """lz-analyze [COLOR] [INTERVAL] [interval N] [minmoves N] [maxmoves N]: `=` then an info line every INTERVAL
        centiseconds until the next input line arrives, then the empty line that ends the response."""
        return self._analyze(args, kata=False)

    def cmd_kata_analyze(self, args):
        """kata-analyze [COLOR] [INTERVAL] [interval N] [minmoves N] [maxmoves N] [ownership true]: as lz-analyze,
        in KataGo's format."""
        return self._analyze(args, kata=True)

    def _reports(self, kata: bool, want_ownership: bool, most: int | None, least: int):
        """Where an analysis command's info lines go: `=id` and each line written at once when the
        server streams, else kept for the response. Returns (report(result) -> True if it gave a
        line, close(tail) -> the response with `tail` as its last line(s))."""
        head = frame(True, self._cid, "")[:-1]  # "=id\n": the response stays open
        stream = self._stream
        lines: list[str] = []
        if stream is not None:
            stream(head)

        def report(result) -> bool:
            text = self.info_line(result, kata, want_ownership, most, least)
            if text and stream is not None:
                stream(text + "\n")
            elif text:
                lines.append(text)
            return bool(text)

        def close(tail: str) -> Streamed:
            return Streamed(tail if stream is not None else head + "".join(line + "\n" for line in lines) + tail)

        return report, close

    def _analyze(self, args, kata: bool):
        color, interval, want_ownership, most, least = self._parse_analyze_args(args, kata)
        legal = self.game.legal_points(color)  # empty: pass is searched alone, and reported
        interrupt = self._interrupt
        stop = interrupt if interrupt is not None else threading.Event()
        report, close = self._reports(kata, want_ownership, most, least)
        emitted = [0]

        def progress(result):
            emitted[0] += report(result)
            if interrupt is None:
                stop.set()  # no input to wait for: answer one snapshot

        try:
            if self._ready_unless(stop):
                final = self.search.analyze(self.game.board.copy(), color, self.game.komi, legal, stop=stop,
                                            progress=progress, interval=max(interval, 1) / 100.0,
                                            history=self.game.recent_positions(HISTORY))
                if not emitted[0] and final is not None:
                    progress(final)
                if final is not None:
                    self._log_analysis("kata-analyze" if kata else "lz-analyze", color, final)
        except Exception:
            self._log(f"analysis failed:\n{traceback.format_exc()}")
        return close("\n")

    def _log_analysis(self, command: str, color: int, result) -> None:
        """Log an analysis once it ends: its playouts, time, and how often a full tree was collected (an
        analysis grows its trees as they fill, up to a ceiling: Search._size_trees)."""
        rate = result.playouts / result.seconds if result.seconds > 0 else 0.0
        self._log(f"{command} {COLOR_NAMES[color]}: {result.playouts} playouts in "
                  f"{result.seconds:.2f} s ({rate:.0f}/s{collected_note(result.collections)})")

    def cmd_lz_genmove_analyze(self, args):
        """lz-genmove_analyze [COLOR] [INTERVAL] ...: genmove, with lz-analyze lines while it searches,
        and `play MOVE` as the last line."""
        return self._genmove_analyze(args, kata=False)

    def cmd_kata_genmove_analyze(self, args):
        """kata-genmove_analyze [COLOR] [INTERVAL] ...: as lz-genmove_analyze, in KataGo's format."""
        return self._genmove_analyze(args, kata=True)

    def _genmove_analyze(self, args, kata: bool):
        color, interval, want_ownership, most, least = self._parse_analyze_args(args, kata)
        report, close = self._reports(kata, want_ownership, most, least)
        emitted = [0]

        def counted(result) -> bool:
            emitted[0] += report(result)
            return True

        try:
            move = self._genmove(color, progress=counted, interval=max(interval, 1) / 100.0)
        except Exception:
            if self._stream is None:
                raise  # nothing sent yet: the usual `? internal error`
            # "=id" is out: a second response would put every later one out of step, so end this one
            self._log(f"genmove failed after its response began:\n{traceback.format_exc()}")
            return close("\n")
        if not emitted[0] and self.last_result is not None:  # a search shorter than the interval: one line
            report(self.last_result)
        return close(f"play {move}\n\n")


def _per10000(x: float) -> int:
    """A fraction in [0, 1] as Leela Zero's integer in [0, 10000]."""
    return min(10000, max(0, int(round(10000 * x))))
