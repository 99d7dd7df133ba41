"""How a long command stops: `kill` (SIGTERM) read as Ctrl-C (SIGINT), so that what the command has done so far
is written and its workers are stopped either way. A run in the background (nohup, a script's `&`) ignores
SIGINT, as the shell makes background jobs do: SIGTERM is then the only way to stop it."""

from __future__ import annotations

import contextlib
import signal
import threading


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt


@contextlib.contextmanager
def sigterm_as_interrupt():
    """Within the block, SIGTERM raises KeyboardInterrupt in the main thread, as Ctrl-C does; the handler
    before is restored after. Off the main thread (where Python cannot set handlers) it changes nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGTERM, _interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)
