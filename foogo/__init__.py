"""foogo: a Monte Carlo Go engine with bitset playable sets, numba playouts, UCT search and GTP.

Start reading at `board.py` (a move), `playout.py` (a playout), `search.py` (a
search iteration) and `gtp/engine.py` (a GTP command).

The geometry's names are imported at once (numpy only). The others are imported when first used
(`from foogo import Board` imports the board then), so `import foogo` and the commands that need no
engine (`foogo match`, `foogo gtp` until its first genmove) start without numba: importing it costs
about a second and 150 MB.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

__version__ = "0.1.0"  # before the imports: gtp and cli read it from here

# Now, not lazily: `geometry` is a function here and also its module's name, and the import of the module
# foogo.geometry sets the package's attribute to the module; imported first, the function's binding stays
from .geometry import BLACK, EMPTY, PASS, WHITE, geometry, opponent, parse_color

_EXPORTS = {  # public name -> the module that defines it, imported at first use (a module's own name: itself)
    "Board": "board", "BoardInconsistent": "board", "IllegalMove": "board", "MoveResult": "board",
    "board_from_ascii": "board",
    "Game": "game", "GameError": "game", "SgfError": "game",
    "ladder_captured": "ladders",
    "PlayoutBatch": "playout", "run_playouts": "playout",
    "Search": "search", "SearchConfig": "search", "SearchResult": "search",
    "book": "book", "render": "render",
}

__all__ = [  # the geometry's names and _EXPORTS' (a test holds them equal)
    "BLACK", "WHITE", "EMPTY", "PASS", "Board", "BoardInconsistent", "IllegalMove", "MoveResult",
    "board_from_ascii", "Game", "GameError", "SgfError", "Search", "SearchConfig", "SearchResult",
    "run_playouts", "PlayoutBatch", "book", "render", "geometry", "opponent", "parse_color", "ladder_captured",
    "__version__",
]

if TYPE_CHECKING:  # what type checkers and editors read; at run time __getattr__ imports on first use
    from . import book, render
    from .board import Board, BoardInconsistent, IllegalMove, MoveResult, board_from_ascii
    from .game import Game, GameError, SgfError
    from .ladders import ladder_captured
    from .playout import PlayoutBatch, run_playouts
    from .search import Search, SearchConfig, SearchResult


def __getattr__(name: str):
    """A public name, imported from its module at its first use (PEP 562) and kept."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'foogo' has no attribute {name!r}")
    loaded = importlib.import_module(f".{module}", __name__)
    value = loaded if module == name else getattr(loaded, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
