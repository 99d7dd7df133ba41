"""foogo: a Monte Carlo Go engine with bitset playable sets, numba playouts, UCT search and GTP.

Start reading at `board.py` (a move), `playout.py` (a playout), `search.py` (a
search iteration) and `gtp/engine.py` (a GTP command).
"""

__version__ = "0.1.0"  # before the imports: gtp and cli read it from here

from . import book, render
from .board import Board, BoardInconsistent, IllegalMove, MoveResult, board_from_ascii
from .game import Game, GameError, SgfError
from .geometry import BLACK, EMPTY, PASS, WHITE, geometry, opponent, parse_color
from .ladders import ladder_captured
from .playout import PlayoutBatch, run_playouts
from .search import Search, SearchConfig, SearchResult

__all__ = [
    "BLACK", "WHITE", "EMPTY", "PASS", "Board", "BoardInconsistent", "IllegalMove", "MoveResult",
    "board_from_ascii", "Game", "GameError", "SgfError", "Search", "SearchConfig", "SearchResult",
    "run_playouts", "PlayoutBatch", "book", "render", "geometry", "opponent", "parse_color", "ladder_captured",
    "__version__",
]
