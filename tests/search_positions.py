"""What the search tests share: a board's legal moves, a move's name, DEAD_CORNER (a lost game's final
position, its corner in seki for heavy playouts and dead for light ones and the referee) and a search
two plies down its own principal variation."""

import pytest

from foogo import BLACK, PASS, WHITE, Board
from foogo.geometry import RESIGN
from foogo.search import Search, SearchConfig


def legal(board, color):
    return [p for p in board.geometry.points if board.is_legal(color, int(p))]


def name(board, move):
    return "pass" if move == PASS else ("resign" if move == RESIGN else board.geometry.name(move))


DEAD_CORNER = """
    X . X O O O X X .
    X X . X O O X . O
    X . X . X O O O O
    X X . X X X O O X
    O O X X X X X X X
    . O X X O X X X O
    . O O O O O O X O
    . . O O O . O O O
    O . O X . O O O O
"""


def two_plies_down(size, seed, **config):
    """A search that chose black's move, and the board after that move and the reply its PV expects."""
    board = Board(size)
    # a node for every second visit, so that the PV's positions are in the tree
    search = Search(SearchConfig(playouts=3000, seed=seed, **{"expand_threshold": 2.0, **config}))
    first = search.genmove(board, BLACK, 7.0, legal(board, BLACK))
    board.play(BLACK, first.move)
    reply = first.pv[1] if len(first.pv) > 1 and first.pv[1] != PASS else None
    if reply is None:
        pytest.skip("search produced no reply in its PV")
    board.play(WHITE, reply)
    return board, search
