"""GTP engine: the Go Text Protocol (version 2) over a Game and a Search, plus time management.

In four modules, by job: `protocol` (preprocessing, framing, serving), `clock` (time
control), `engine` (the commands) and `command` (`foogo gtp`'s options and warm-up).

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

from .clock import Clock, TimeManager
from .command import configure_parser, main, run, start_warm_up, warm_up
from .engine import ENGINE_NAME, POLICIES, GtpEngine, default_search_factory
from .protocol import MAX_LINE, PROTOCOL_VERSION, GtpError, preprocess, serve

__all__ = [
    "Clock", "TimeManager", "start_warm_up", "configure_parser", "main", "run", "warm_up", "ENGINE_NAME",
    "POLICIES", "GtpEngine", "default_search_factory", "MAX_LINE", "PROTOCOL_VERSION", "GtpError", "preprocess",
    "serve",
]
