"""A match's opening: the first moves of an SGF game, played on the referee and both engines before the first
genmove (`foogo match --opening FILE --opening-moves N`), so that every game of a match, or the games of
two matches, start from the same position: a late-game rule is measured where it plays.

The file is read as the match reads everything, without the engine: sgfmill parses it (regular files of at
most OPENING_MAX_BYTES), its board size must be the match's, its main line must be moves only from the empty
board (no setup stones, no handicap), and it must hold at least N moves. Its moves are played on sgfmill's
board first: one on a stone, a suicide or a retaking of a simple ko is refused with the file. Superko is left
to the referee and the engines: a move they refuse makes the game void, as any move they refuse ends a game.
"""

from __future__ import annotations

import re

from sgfmill import boards, sgf

from .files import open_regular

OPENING_MAX_BYTES = 1024 * 1024  # an opening's SGF file, read whole
_VERTEX_RE = re.compile(r"^[a-hj-z][1-9][0-9]?$", re.IGNORECASE)  # a GTP vertex, any case
GTP_COLUMNS = "ABCDEFGHJKLMNOPQRSTUVWXYZ"  # a vertex's column letters: no "I"


def load_opening(path: str, moves: int, size: int, max_moves: int) -> list[tuple[str, tuple[int, int] | None]]:
    """The first `moves` moves of the SGF file's main line as (colour "b" or "w", (row, col) or None for a pass),
    for a match on a `size` board whose games stop after `max_moves`; ValueError, naming the file and the
    problem, for a file that cannot be read or parsed, another board size, setup stones, too few moves, or
    `moves` out of 1..max_moves - 1."""
    if not 1 <= moves < max_moves:
        raise ValueError(f"--opening-moves must be from 1 to {max_moves - 1} (--max-moves less one), got {moves}")
    try:
        with open_regular(path) as f:  # a FIFO or a device refused, never waited on
            data = f.read(OPENING_MAX_BYTES + 1)
    except OSError as error:  # files.NotRegularFile's strerror: "not a regular file"
        raise ValueError(f"--opening {path}: cannot read it: {error.strerror or error}") from None
    if len(data) > OPENING_MAX_BYTES:
        raise ValueError(f"--opening {path}: over the opening size limit of {OPENING_MAX_BYTES} bytes")
    try:
        game = sgf.Sgf_game.from_bytes(data)
        nodes = game.get_main_sequence()
        file_size = game.get_size()
    except ValueError as error:
        raise ValueError(f"--opening {path}: corrupt SGF: {str(error)[:200]}") from None
    if file_size != size:
        raise ValueError(f"--opening {path}: a {file_size}x{file_size} game, not {size}x{size} as --size")
    found: list[tuple[str, tuple[int, int] | None]] = []
    board, ko = boards.Board(size), None  # the opening's position, and the point simple ko forbids next
    for number, node in enumerate(nodes):
        if any(node.has_property(p) for p in ("AB", "AW", "AE")):
            raise ValueError(f"--opening {path}: setup stones (AB, AW or AE) in node {number}; an opening is "
                             "moves from the empty board")
        try:
            colour, move = node.get_move()
        except ValueError as error:  # sgfmill's own for a point off the board has no text
            told = str(error)[:200] or f"a move off the {size}x{size} board or malformed"
            raise ValueError(f"--opening {path}: node {number}: {told}") from None
        if colour is None:
            continue  # the root, or a node without a move (a comment)
        if move is None and found and found[-1][1] is None:
            raise ValueError(f"--opening {path}: two passes in a row at node {number}: the game ends there")
        ko = _play(board, colour, move, ko, f"--opening {path}: node {number}")
        found.append((colour, move))
        if len(found) == moves:
            return found
    raise ValueError(f"--opening {path}: its main line has {len(found)} moves, fewer than --opening-moves {moves}")


def _play(board: boards.Board, colour: str, move: tuple[int, int] | None, ko, where: str):
    """Play an opening's move on sgfmill's board; -> the point simple ko forbids next (None if none).
    ValueError, saying `where`, for a move on a stone, a suicide or a retaking of the ko."""
    if move is None:
        return None
    if move == ko:
        raise ValueError(f"{where}: {colour.upper()} {vertex(move)} retakes a ko at once (illegal)")
    if board.get(*move) is not None:
        raise ValueError(f"{where}: {colour.upper()} {vertex(move)} is on a stone (illegal)")
    forbidden = board.play(*move, colour)
    if board.get(*move) is None:  # sgfmill plays a suicide by taking the string off
        raise ValueError(f"{where}: {colour.upper()} {vertex(move)} is a suicide (illegal)")
    return forbidden


def vertex(move: tuple[int, int] | None) -> str:
    """The GTP vertex of an opening's move: "pass" for None."""
    if move is None:
        return "pass"
    row, col = move
    return f"{GTP_COLUMNS[col]}{row + 1}"


def parse_vertex(word: str) -> tuple[int, int] | None:
    """(row, col) from 0 of a GTP vertex ("c4", any case; no I column), or None for anything else: the
    inverse of vertex, with no board size (an off-board move is the caller's to judge)."""
    if not _VERTEX_RE.match(word):
        return None
    return int(word[1:]) - 1, GTP_COLUMNS.index(word[0].upper())
