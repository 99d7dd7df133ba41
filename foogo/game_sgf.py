"""A game as SGF: writing it (FF[4]) and reading an SGF file's main line back, within limits.

What it is: `SgfRecord`, the part of `Game` (game.py) that writes `to_sgf` and reads `load_sgf`
(a path: regular files only, at most SGF_MAX_BYTES) and `load_sgf_bytes`, with sgfmill doing
the parsing. A file that cannot be read, is over a limit (its bytes, its nodes or variations, counted
before sgfmill builds them, its main line's nodes, the points its setup properties name, SGF_MAX_SETUPS
setups between moves), or cannot be parsed or
replayed (a node with both a black and a white move, a handicap beyond the board) raises
`SgfError` and leaves the game unchanged: the main line is replayed into a new game, which
replaces this one only when every move was legal. What it is not: a full SGF editor
(variations are ignored, the main line is read).
"""

from __future__ import annotations

import os
import re
from decimal import Decimal
from typing import TYPE_CHECKING

from sgfmill import sgf

from .board import Board
from .files import open_regular
from .geometry import BLACK, EMPTY, PASS, WHITE, Geometry
from .numbers import cut, finite_number, shown, whole_number, whole_value

SGF_RULES = {"chinese": "Chinese", "tromp-taylor": "Tromp-Taylor"}
SGF_MAX_BYTES = 1024 * 1024  # load_sgf's default limits (foogo gtp --sgf-max-bytes, --sgf-max-moves)
SGF_MAX_MOVES = 10_000
SGF_MAX_NODES = 100_000  # nodes in the whole tree, variations included, and its variations: sgfmill builds
# an object for each (~10 us, a few hundred bytes), so 1 MiB of ";" cost 11 s and 300 MB before the move limit
# was checked; more than any game record with its review
# a property value, whose ";" and "(" are text; one left open runs to the end (a lone "\" there too), so that
# every "[" matches at its first try: with a value that had to close, 1 MiB of "[" took hours, each "[" scanning
# to the end and failing. Unrolled (a run of plain bytes, then escapes each with its run), as sgfmill's own, so
# that the engine loops once per escape, not once per byte
_VALUE = re.compile(rb"\[[^\\\]]*(?:\\.[^\\\]]*)*(?:\]|\\?\Z)", re.DOTALL)
_START = re.compile(rb"\(\s*;")  # where sgfmill starts to parse (sgf_grammar's _find_start_re): all before is junk
# an unescaped "]" (after a byte that is no backslash, an even run of them): no value is open after it
_CLOSE = re.compile(rb"[^\\](?:\\\\)*\]")
_STRUCTURE_CHUNK = 1 << 16  # _structure_counts takes the values out of this much at a time
_READ_CHUNK = 1 << 20  # load_sgf reads a file this much at a time (_read_at_most)
SGF_MAX_SETUPS = 100  # setups a main line may make between its moves: each rebuilds the board (~1.6 ms on 25x25)


def _read_at_most(f, limit: int) -> bytes:
    """Up to `limit` bytes of f, read a MiB at a time: one read of `limit` allocates all of it first, so that a
    limit of 2**63 (foogo gtp --sgf-max-bytes takes any whole number) raised OverflowError on every loadsgf."""
    chunks, total = [], 0
    while total < limit:
        chunk = f.read(min(_READ_CHUNK, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


class SgfError(ValueError):
    """An SGF file that cannot be read, parsed or replayed; the game is left unchanged."""


class SgfRecord:
    """Game's SGF reading and writing (a base of Game: it reads the game's fields and replays moves)."""

    if TYPE_CHECKING:  # what it uses of Game
        board: Board
        base: Board
        komi: float
        rules: str
        handicap: int
        sgf_rules: str | None
        history: list[tuple[int, int]]
        _setups: list[Board]

        def __init__(self, size: int = 9, komi: float = 7.0, rules: str = "chinese") -> None: ...
        @property
        def size(self) -> int: ...
        @property
        def geometry(self) -> Geometry: ...
        def play(self, color, vertex): ...
        def setup(self, black=(), white=(), to_move=None) -> None: ...
        def _setup_between_moves(self, black, white, to_move=None) -> None: ...

    def to_sgf(self) -> str:
        """The game as SGF text (FF[4]): size, komi (exactly), rules, handicap, setup stones, the side to move
        at the base position (PL, where not black on an empty board) and every move."""
        g = self.geometry
        game = sgf.Sgf_game(self.size)
        root = game.get_root()
        # exactly, without an exponent (SGF's Real has none): sgfmill's own wrote 1e-07 as KM[0]
        root.set_raw("KM", f"{Decimal(repr(float(self.komi))):f}".encode())
        root.set("RU", SGF_RULES[self.rules])
        root.set("AP", ("foogo", _version()))
        if self.handicap:
            root.set("HA", self.handicap)
        black = [g.row_col(int(p)) for p in g.points if self.base.color_at(int(p)) == BLACK]
        white = [g.row_col(int(p)) for p in g.points if self.base.color_at(int(p)) == WHITE]
        if black or white:
            root.set_setup_stones(black, white)
        if black or white or self.base.to_move != BLACK:  # an empty base with white to move needs it too
            root.set("PL", "b" if self.base.to_move == BLACK else "w")
        node = root
        board = self.base.copy() if self._setups else None  # replayed only where setups follow moves
        for color, p in self.history:  # new_child on the last node: extend_main_sequence walks the line
            node = node.new_child()
            if color == EMPTY:  # a setup between moves: the points it changed, and who plays next
                after = self._setups[p]
                assert board is not None  # a game with setups replays its board (above)
                changed = [int(q) for q in g.points if after.color_at(int(q)) != board.color_at(int(q))]
                for identifier, c in (("AB", BLACK), ("AW", WHITE), ("AE", EMPTY)):
                    points = {g.row_col(q) for q in changed if after.color_at(q) == c}
                    if points:
                        node.set(identifier, points)
                node.set("PL", "b" if after.to_move == BLACK else "w")
                board = after.copy()
            else:
                node.set_move("b" if color == BLACK else "w", None if p == PASS else g.row_col(p))
                if board is not None:
                    board.play(color, p)
        text = game.serialise().decode("utf-8")
        return "\n".join(line for line in text.splitlines() if line.strip())

    def load_sgf(self, path: str, move_number: int | None = None, max_bytes: int = SGF_MAX_BYTES,
                 max_moves: int = SGF_MAX_MOVES, rules: str | None = None) -> None:
        """Replace this game by the main line of an SGF file, stopping before move `move_number`
        (1-based; None: all moves). Plays it under `rules` if given, else under those of RU when it names
        foogo's (Chinese, Tromp-Taylor), else under the game's; size and komi from the file (komi 0 when it
        has no KM, the SGF default); the first game of a file holding several. The file's RU (40 characters of
        it at most, on one printable line) is kept in `sgf_rules` (None without one), so that a caller can tell
        a file of rules foogo lacks (Japanese, AGA), which is played under `rules` or the game's.
        Reads regular files only (never waits on a pipe or a device), of at most max_bytes, with
        at most max_moves nodes in the main line; nothing is read before the file is checked.
        SgfError, with the game unchanged, for a file that cannot be read, is over a limit (the
        message names it), or cannot be parsed or replayed; TypeError for a size limit that is not a
        whole number (any whole number is one: a file is read a MiB at a time). Setup stones (AB, AW, AE) before the
        first move make the base position (Game.setup); after moves, each run of setup nodes is one
        step of the history, which undo takes back and to_sgf writes where it was (superko's memory
        starts afresh there, as at the base position)."""
        max_bytes = whole_value("size limit", max_bytes)  # TypeError for 1e6 or "1000", before anything is read
        if max_bytes < 0:
            raise SgfError(f"the SGF size limit must be 0 or more, got {shown(max_bytes)}")
        _check_arguments(move_number, max_moves, rules)  # before the file is read, as load_sgf_bytes does after
        if not isinstance(path, (str, bytes, os.PathLike)):
            raise TypeError(f"an SGF path is a str or a path, not {type(path).__name__}")
        try:
            with open_regular(path) as f:  # a FIFO or a device refused, never waited on
                size = os.fstat(f.fileno()).st_size
                if size > max_bytes:
                    raise SgfError(f"{_path_text(path)} is {size} bytes, over the SGF size limit of {max_bytes}")
                data = _read_at_most(f, max_bytes + 1)
        except SgfError:
            raise  # over the limit: says so
        except (OSError, ValueError) as error:  # ValueError: a path holding a NUL byte
            raise SgfError(f"cannot read {_path_text(path)}: {getattr(error, 'strerror', None) or error}") from None
        if len(data) > max_bytes:  # it grew since fstat
            raise SgfError(f"{_path_text(path)} is over the SGF size limit of {max_bytes} bytes")
        self.load_sgf_bytes(data, move_number, max_moves, rules)

    def load_sgf_bytes(self, data: bytes | str, move_number: int | None = None,
                       max_moves: int = SGF_MAX_MOVES, rules: str | None = None) -> None:
        """As load_sgf, from the file's bytes (a str is read as its UTF-8 encoding; the size limit is the
        caller's). TypeError, with the game unchanged, for data that is not bytes or str, or a move number
        or move limit that is not a whole number."""
        if isinstance(data, str):
            data = data.encode("utf-8", "surrogateescape")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"SGF data must be bytes or str, got {type(data).__name__}")
        data = bytes(data)
        move_number, max_moves, rules = _check_arguments(move_number, max_moves, rules)
        start = _START.search(data)  # sgfmill skips what comes before; a "[" there must not hide the game
        nodes, variations = _structure_counts(data, start.start()) if start else (0, 0)
        if max(nodes, variations) > SGF_MAX_NODES:
            raise SgfError(f"the SGF has {nodes} nodes in {variations} variations, over the limit of "
                           f"{SGF_MAX_NODES} of either")
        try:
            game = _parse(data)
            root = game.get_root()
            _check_game(root)
            size = game.get_size()
            komi = _komi(root)
            nodes = game.get_main_sequence()
        except SgfError:
            raise  # says what it is
        except ValueError as error:  # sgfmill's message can quote a whole value: cut (a megabyte's CA[...])
            raise SgfError(f"corrupt SGF: {cut(str(error), 200)}") from None
        if len(nodes) - 1 > max_moves:
            raise SgfError(f"the main line has {len(nodes) - 1} nodes after the root, over the SGF move "
                           f"limit of {max_moves}")
        ru = _rules_text(root)
        try:  # the rules given, else those RU names if they are foogo's, else the game's
            new = type(self)(size, komi, rules if rules is not None else sgf_rules_name(ru) or self.rules)
        except ValueError as error:
            raise SgfError(f"unsupported SGF: {error}") from None
        handicap = _handicap(nodes[0], size)  # checked now, set after the setups (each sets none)
        area = _setup_area(nodes)
        if area > SGF_MAX_SETUPS * size * size:  # the points sgfmill would list, before it lists them
            raise SgfError(f"the main line's setup stones (AB, AW, AE) name {area} points, over the limit of "
                           f"{SGF_MAX_SETUPS} boards' worth")
        played = 0
        g = new.geometry
        # setup nodes (AB, AW, AE, PL) change `stones` and `to_play`; consecutive ones are applied as
        # one setup, before the next move or at the end (each Game.setup rebuilds the board)
        stones: dict[int, int] | None = None
        to_play = None
        setups = 0
        for number, node in enumerate(nodes):
            try:
                black, white, empty = node.get_setup_stones()
                color, move = node.get_move()
            except ValueError as error:
                raise SgfError(f"corrupt SGF node {number}: {_bad_point(node) or cut(str(error), 200)}") from None
            player = _player(node, number)
            if node.has_property("B") and node.has_property("W"):
                raise SgfError(f"corrupt SGF node {number}: both a black and a white move")
            twice = black & white  # (AE beside either clears the point: applied last, as before)
            if twice:
                row, col = min(twice)
                raise SgfError(f"corrupt SGF node {number}: the setup names {g.name(g.point(row, col))} in both AB "
                               "and AW")
            if black or white or empty or player:
                if stones is None:
                    stones = {int(p): new.board.color_at(int(p)) for p in g.points}
                for rc_set, c in ((black, BLACK), (white, WHITE), (empty, EMPTY)):
                    for row, col in rc_set:
                        stones[g.point(row, col)] = c
                # PL holds for the run of setup nodes; without one, Game.setup chooses before any move
                # and the side to move goes on after moves (Game._setup_between_moves)
                to_play = player or to_play
            if stones is not None and (color is not None or number == len(nodes) - 1):
                setups += 1
                if setups > SGF_MAX_SETUPS:
                    raise SgfError(f"the main line changes its setup stones more than {SGF_MAX_SETUPS} times "
                                   f"between its moves")
                try:  # before any move: the base position; after moves: a step of the history
                    (new._setup_between_moves if new.history else new.setup)(
                        [p for p, c in stones.items() if c == BLACK], [p for p, c in stones.items() if c == WHITE],
                        to_move=to_play)
                except ValueError as error:
                    raise SgfError(f"bad setup in SGF node {number}: {error}") from None
                stones, to_play = None, None
            if color is None:
                continue
            if move_number is not None and played + 1 >= move_number:
                break
            vertex = PASS if move is None else g.point(*move)
            try:
                new.play(color, vertex)
            except ValueError as error:
                raise SgfError(f"SGF move {played + 1} ({color.upper()} "
                               f"{g.name(vertex)}) is illegal: {error}") from None
            played += 1
        new.handicap = handicap
        new.sgf_rules = ru
        self.__dict__.update(new.__dict__)


def _player(node, number: int) -> str | None:
    """The node's PL ("b" or "w"), None without one; SgfError naming it for any other value."""
    if not node.has_property("PL"):
        return None
    try:
        return node.get("PL")
    except ValueError:
        raise SgfError(f"corrupt SGF node {number}: PL[{_raw(node, 'PL')}] is not B or W") from None


def _setup_area(nodes) -> int:
    """How many points the setup properties of these nodes name, compressed lists ("aa:cc") counted
    by their rectangles' areas, read from the raw values (malformed ones count 1: sgfmill refuses them)."""
    area = 0
    for node in nodes:
        for identifier in ("AB", "AW", "AE"):
            if not node.has_property(identifier):
                continue
            for raw in node.get_raw_list(identifier):
                corners = raw.split(b":")
                if len(corners) == 2 and len(corners[0]) == 2 and len(corners[1]) == 2:
                    (a, b), (c, d) = corners
                    area += (abs(c - a) + 1) * (abs(d - b) + 1)
                else:
                    area += 1
    return area


def _path_text(path) -> str:
    """A path as a message quotes it: its text in quotes, escapes for what is not printable, at most 120 characters
    of it."""
    text = os.fsdecode(path)
    return repr(text[:120]) + ("..." if len(text) > 120 else "")


def _check_arguments(move_number, max_moves, rules) -> tuple[int | None, int, str | None]:
    """load_sgf's move number (None, or 1 or more), move limit (0 or more) and rules (None, or foogo's), checked:
    SgfError naming a bad value (TypeError for a type, ValueError for rules foogo lacks)."""
    if move_number is not None:
        move_number = whole_value("move number", move_number)
        if move_number < 1:
            raise SgfError(f"move number must be 1 or more, got {shown(move_number)}")
    max_moves = whole_value("move limit", max_moves)
    if max_moves < 0:
        raise SgfError(f"the SGF move limit must be 0 or more, got {shown(max_moves)}")
    from .game import check_rules  # (game builds on this module: imported when called)

    return move_number, max_moves, None if rules is None else check_rules(rules)


def _structure_counts(data: bytes, start: int) -> tuple[int, int]:
    """The nodes and variations (";" and "(" outside property values) of data[start:], which starts outside
    any value: what sgfmill would build, counted at C speed before it builds it, a chunk at a time, each cut
    just after an unescaped "]" so that no value spans two. Whole, the values' removal took some 50 times the
    input's memory (a piece for each gap between values: 214 MB for 4 MB of ";B[]")."""
    nodes = variations = 0
    while start < len(data):
        close = _CLOSE.search(data, start + _STRUCTURE_CHUNK) if start + _STRUCTURE_CHUNK < len(data) else None
        end = close.end() if close else len(data)
        structure = _VALUE.sub(b"", data[start:end])
        nodes, variations = nodes + structure.count(b";"), variations + structure.count(b"(")
        start = end
    return nodes, variations


def _bad_point(node) -> str:
    """What sgfmill could not read of a node's points, as "B[e] holds a point off the board or malformed", or ""."""
    for identifier in ("B", "W", "AB", "AW", "AE"):
        if node.has_property(identifier):
            try:
                node.get(identifier)
            except ValueError:
                values = "".join(f"[{_text(node, v, 20)}]" for v in node.get_raw_list(identifier)[:4])
                return f"{identifier}{cut(values, 60)} holds a point off the board or malformed"
    return ""


def _text(node, raw: bytes, chars: int) -> str:
    """The first `chars` characters of one of `node`'s raw values, read in the file's own encoding (its CA, else
    ISO-8859-1), a byte sequence that does not decode read as U+FFFD."""
    return raw[:4 * chars + 4].decode(node.get_encoding(), errors="replace")[:chars]  # 4 bytes a character at most


def _raw(node, identifier: str) -> str:
    """A property's raw value as a message quotes it: at most 40 characters, cut with "..."."""
    return cut(_text(node, node.get_raw(identifier), 41), 40)


def _parse(data: bytes):
    """sgfmill's game of `data`; a CA naming an encoding Python lacks is read as ISO-8859-1 (foogo reads no text
    property, and the whole file was refused for it)."""
    try:
        return sgf.Sgf_game.from_bytes(data)
    except ValueError as error:
        if not str(error).startswith("unknown encoding"):
            raise
        return sgf.Sgf_game.from_bytes(data, override_encoding="iso-8859-1")


def _check_game(root) -> None:
    """SgfError unless the root says Go (GM[1], or no GM) in FF 1..4 (or no FF)."""
    for identifier, allowed, what in (("GM", (b"1",), "is not Go"), ("FF", (b"1", b"2", b"3", b"4"),
                                                                     "is not an SGF format 1..4")):
        if root.has_property(identifier) and root.get_raw(identifier).strip() not in allowed:
            raise SgfError(f"unsupported SGF: {identifier}[{_raw(root, identifier)}] {what}")


def _komi(root) -> float:
    """The root's KM (0 without one, the SGF default); SgfError naming it for a value that is no finite number."""
    if not root.has_property("KM"):
        return 0.0
    try:
        return finite_number(root.get_raw("KM")[:400].decode("latin-1"))  # (SGF's Real is shorter still)
    except ValueError:
        raise SgfError(f"corrupt SGF: KM[{_raw(root, 'KM')}] is not a finite number") from None


def _rules_text(root) -> str | None:
    """A root's RU as a message may quote it: 40 characters of it at most, its escapes, line breaks and
    other control characters dropped, its spaces single; None without one or for an empty one."""
    if not root.has_property("RU"):
        return None
    text = _text(root, root.get_raw("RU"), 40).replace("\\", "")
    return " ".join("".join(ch if ch.isprintable() else " " for ch in text).split()) or None


def sgf_rules_name(text: str | None) -> str | None:
    """foogo's name of the rules an SGF RU text names, spelled as check_rules reads them ("chinese" for
    "Chinese", "tromp-taylor" for "Tromp Taylor" or "TT"), None for rules foogo lacks (Japanese, AGA) or none."""
    from .game import check_rules  # (game builds on this module: imported when called)

    try:
        return check_rules(text) if text else None
    except ValueError:
        return None


def _handicap(root, size: int) -> int:
    """The root's HA (0 without one); SgfError naming it for a malformed one or one beyond a board's points."""
    try:
        handicap = whole_number(root.get_raw("HA")[:4400].decode("latin-1")) if root.has_property("HA") else 0
    except ValueError:
        raise SgfError(f"corrupt SGF: HA[{_raw(root, 'HA')}] is not a number") from None
    if not 0 <= handicap < size * size:
        named = f"HA[{handicap}]" if abs(handicap) < 10**9 else f"an HA of {len(str(abs(handicap)))} digits"
        raise SgfError(f"unsupported SGF: handicap {named} is not 0..{size * size - 1}")
    return handicap


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("foogo")
    except Exception:  # not installed: running from the source tree
        return "0.1.0"
