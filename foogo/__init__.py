"""foogo: a Monte Carlo Go engine with bitset playable sets, numba playouts, UCT search and GTP.

Start reading at `board.py` (a move), `playout.py` (a playout), `search.py` (a
search iteration) and `gtp/engine.py` (a GTP command).
"""

from .board import Board, BoardInconsistent, IllegalMove, MoveResult, board_from_ascii
from .geometry import BLACK, EMPTY, PASS, WHITE, geometry, opponent, parse_color

__version__ = "0.1.0"

__all__ = [
    "BLACK", "WHITE", "EMPTY", "PASS", "Board", "BoardInconsistent", "IllegalMove", "MoveResult",
    "board_from_ascii", "geometry", "opponent", "parse_color", "__version__",
]
