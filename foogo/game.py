"""Game: a board plus history, rules, positional superko, undo, handicap, scoring and SGF.

The rules layer above `Board`. A `Game` owns the current `Board`, the moves
played since its base position (the empty board, or a handicap / SGF setup),
the Zobrist hashes of every position since then, komi and the ruleset:

* ``chinese``       suicide illegal, positional superko, area scoring;
* ``tromp-taylor``  multi-stone suicide legal, positional superko, area scoring.

Positional superko: a move (not a pass) is illegal if the stones it leaves on
the board repeat any earlier position of the game, whoever is to move.

Dead stones for `final_score` / `final_status_list` are estimated from the
mean ownership of uniform playouts from the final stones (half of them with
each side moving first): a string the opponent owns at the end of more
playouts than its owner does is dead (see `statuses`). On GNU Go's own
finished 9x9 games this agrees with GNU Go's final_score. Handicap stones
carry no automatic compensation; the controller sets komi.

It is not a search, a GTP parser or a player: it never chooses moves except
for free handicap placement, and it imports nothing above `playout`.
"""

from __future__ import annotations

import array
import functools
import os
import stat

import numpy as np
from sgfmill import sgf

from .board import Board, IllegalMove, MoveResult, board_from_ascii
from .geometry import BLACK, COLOR_NAMES, EMPTY, PASS, WHITE, Geometry, check_size, geometry, opponent, parse_color
from .numbers import check_komi
from .playout import ownership

RULES = ("chinese", "tromp-taylor")
SGF_RULES = {"chinese": "Chinese", "tromp-taylor": "Tromp-Taylor"}

SCORE_PLAYOUTS = 400  # playouts behind a dead-stone estimate
SGF_MAX_BYTES = 1024 * 1024  # load_sgf's default limits (foogo gtp --sgf-max-bytes, --sgf-max-moves)
SGF_MAX_MOVES = 10_000
SNAPSHOT_EVERY = 256  # the history keeps a board every this many moves; undo replays from the last one
DEAD_THRESHOLD = 0.0  # a string is dead if the opponent's mean ownership of it is above this
SEKI_BAND = 0.1  # strings sharing a liberty, both with |mean ownership| below this, are in seki


class GameError(ValueError):
    """A request the game state cannot honour (nothing to undo, board not empty, bad handicap)."""


class SgfError(ValueError):
    """An SGF file that cannot be read, parsed or replayed; the game is left unchanged."""


def check_rules(rules: str) -> str:
    """The ruleset name normalised ("chinese" or "tromp-taylor"); ValueError for any other."""
    name = str(rules).strip().lower().replace("_", "-")
    if name in ("tromp-taylor", "tromptaylor", "tt"):
        name = "tromp-taylor"
    if name not in RULES:
        raise ValueError(f"unknown rules {rules!r}: expected one of {', '.join(RULES)}")
    return name


# ---------------------------------------------------------------- handicap tables

def max_fixed_handicap(size: int) -> int:
    """The most stones `fixed_handicap` places on a size x size board (0: none), as GNU Go does."""
    size = check_size(size)
    if size < 7:
        return 0
    if size == 7 or size % 2 == 0:
        return 4
    return 9


@functools.lru_cache(maxsize=None)
def fixed_handicap_points(size: int, stones: int) -> tuple[int, ...]:
    """Padded points of the GTP fixed handicap placement (GNU Go's choice of points and layout).

    Corner points on the 3-3 line below 12x12 and on the 4-4 line from 12x12 up; sides and
    centre only on odd sizes. ValueError if that number of stones has no fixed placement."""
    size = check_size(size)
    if not 2 <= stones <= max_fixed_handicap(size):
        raise ValueError(f"no fixed placement of {stones} handicap stones on {size}x{size}")
    g = geometry(size)
    low = 2 if size <= 11 else 3
    high = size - 1 - low
    mid = size // 2

    def at(row, col):
        return g.point(row, col)

    corners = [at(high, high), at(low, low), at(high, low), at(low, high)]  # UR, LL, UL, LR
    centre = [at(mid, mid)]
    sides_lr = [at(mid, low), at(mid, high)]
    sides_tb = [at(high, mid), at(low, mid)]
    layouts = {
        2: corners[:2],
        3: corners[:3],
        4: corners,
        5: corners + centre,
        6: corners + sides_lr,
        7: corners + sides_lr + centre,
        8: corners + sides_lr + sides_tb,
        9: corners + sides_lr + sides_tb + centre,
    }
    return tuple(layouts[stones])


def free_handicap_points(size: int, stones: int) -> list[int]:
    """Padded points for `stones` free handicap stones: the fixed layout where one exists, then
    one by one the point farthest (king's moves) from those chosen, off the first two lines
    while there is room there."""
    size = check_size(size)
    if not 2 <= stones < size * size:
        raise ValueError(f"cannot place {stones} handicap stones on {size}x{size}")
    g = geometry(size)
    base = min(stones, max_fixed_handicap(size))
    chosen = list(fixed_handicap_points(size, base)) if base >= 2 else [g.point(size // 2, size // 2)]
    rows, cols = np.divmod(np.arange(size * size), size)
    inner = (rows >= 2) & (rows < size - 2) & (cols >= 2) & (cols < size - 2)
    taken = np.zeros(size * size, dtype=bool)
    dist = np.full(size * size, 10**6)

    def take(p):
        i = int(g.bit_of[p])
        taken[i] = True
        r, c = divmod(i, size)
        np.minimum(dist, np.maximum(abs(rows - r), abs(cols - c)), out=dist)

    for p in chosen:
        take(p)
    while len(chosen) < stones:
        pool = ~taken & inner if (~taken & inner).any() else ~taken
        i = int(np.argmax(np.where(pool, dist, -1)))  # ties: the first in A1..row order
        chosen.append(int(g.points[i]))
        take(chosen[-1])
    return chosen


# ---------------------------------------------------------------- strings

def board_strings(board: Board) -> list[tuple[int, list[int], set[int]]]:
    """Every string on the board as (colour, padded stone points, padded liberty points), by flood fill."""
    g = board.geometry
    colors = {int(p): board.color_at(int(p)) for p in g.points}
    seen: set[int] = set()
    out = []
    for p, c in colors.items():
        if c == EMPTY or p in seen:
            continue
        stones, libs, stack = [], set(), [p]
        seen.add(p)
        while stack:
            q = stack.pop()
            stones.append(q)
            for d in g.neighbours:
                n = q + int(d)
                cn = colors.get(n)
                if cn is None:
                    continue
                if cn == EMPTY:
                    libs.add(n)
                elif cn == c and n not in seen:
                    seen.add(n)
                    stack.append(n)
        out.append((c, sorted(stones), libs))
    return out


def _diagram(size: int, stones: dict[int, int], g: Geometry) -> str:
    rows = []
    for row in range(size - 1, -1, -1):
        rows.append("".join(".XO"[stones.get(g.point(row, col), EMPTY)] for col in range(size)))
    return "\n".join(rows)


# ---------------------------------------------------------------- the game

class Game:
    """A game of Go: the current Board, the moves since the base position, komi and rules."""

    def __init__(self, size: int = 9, komi: float = 7.0, rules: str = "chinese"):
        """An empty size x size game; ValueError for a bad size, komi or ruleset."""
        self.rules = check_rules(rules)
        self.komi = check_komi(komi)
        self._reset(Board(size, allow_suicide=self.rules == "tromp-taylor"))
        self.handicap = 0

    @classmethod
    def from_ascii(cls, text: str, komi: float = 7.0, rules: str = "chinese", to_move=BLACK) -> "Game":
        """A game whose base position is a diagram (board_from_ascii's format), `to_move` to play."""
        board = board_from_ascii(text, to_move=to_move)
        game = cls(board.size, komi, rules)
        g = board.geometry
        game.setup([p for p in g.points if board.color_at(int(p)) == BLACK],
                   [p for p in g.points if board.color_at(int(p)) == WHITE], to_move=to_move)
        return game

    def _reset(self, base: Board) -> None:
        """Make `base` the base position: no history, superko memory of that position only."""
        self.board = base
        self.base = base.copy()
        self.history: list[tuple[int, int]] = []
        # memory in proportion to the moves, not a board per move: the hash after each move, and
        # the board after every SNAPSHOT_EVERY-th move (snapshots[k]: after k * SNAPSHOT_EVERY moves;
        # never mutated, so copies of the game share them)
        self._hashes = array.array("Q")  # 8 bytes a move
        self._snapshots: list[Board] = [self.base]
        self._seen: dict[int, int] = {base.hash: 1}  # hash -> times it occurs in the game
        self._score_cache: tuple[tuple, np.ndarray] | None = None  # (position key, ownership)

    # ------------------------------------------------------------ state

    @property
    def size(self) -> int:
        """The board size."""
        return self.board.size

    @property
    def geometry(self) -> Geometry:
        """The board geometry."""
        return self.board.geometry

    @property
    def to_move(self) -> int:
        """BLACK or WHITE: the opponent of the last mover (colours out of turn are allowed)."""
        return self.board.to_move

    def _repr_svg_(self) -> str:
        """The position as an SVG picture (Jupyter shows it): its board with the last move and ko point."""
        return self.board._repr_svg_()

    def copy(self) -> "Game":
        """An independent copy (snapshot boards are shared: they are never mutated)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.board = self.board.copy()
        other.history = list(self.history)
        other._hashes = array.array("Q", self._hashes)
        other._snapshots = list(self._snapshots)
        other._seen = dict(self._seen)
        return other

    def checkpoint(self) -> tuple:
        """A token from which `rollback` puts this game back as it is now, whatever is done to it
        in between through its methods. Costs the same for any length of game: plays only
        append to the history and superko memory, and every other change (undo, setup, load,
        clear) builds new ones instead of editing them in place."""
        return (dict(self.__dict__), self.board.copy(), len(self.history))

    def rollback(self, token: tuple) -> None:
        """Put the game back as it was when `checkpoint` gave `token`."""
        saved, board, n = token
        self.__dict__.clear()
        self.__dict__.update(saved)
        _forget(self._seen, self._hashes[n:])  # positions played since, in the lists the checkpoint kept
        del self.history[n:]
        del self._hashes[n:]
        del self._snapshots[n // SNAPSHOT_EVERY + 1:]
        self.board = board

    def state_key(self) -> tuple:
        """A value equal for equal game states (size, komi, rules, stones, side to move, history, handicap)."""
        return (self.size, self.komi, self.rules, self.board.hash, self.board.to_move,
                self.board.ko_point, tuple(self.history), self.base.hash, self.handicap)

    def clear(self) -> None:
        """Back to an empty board of the same size, komi and rules."""
        self._reset(Board(self.size, allow_suicide=self.rules == "tromp-taylor"))
        self.handicap = 0

    def set_komi(self, komi: float) -> None:
        """Set komi (a finite number, at most numbers.MAX_KOMI either way); ValueError otherwise."""
        self.komi = check_komi(komi)
        self._score_cache = None

    # ------------------------------------------------------------ moves

    def play(self, color, vertex) -> MoveResult:
        """Play `vertex` ("D4", "pass" or a padded point) for `color`, in turn or not.

        IllegalMove (reason "occupied", "off board", "ko", "suicide" or "superko") or ValueError
        (malformed input) leave the game unchanged."""
        c = parse_color(color)
        after = self.board.copy()
        result = after.play(c, vertex)
        if result.point != PASS and after.hash in self._seen:
            name = self.geometry.name(result.point)
            raise IllegalMove("superko", f"illegal move {name} for {COLOR_NAMES[c]}: superko (repeats a position)")
        self.board = after
        self.history.append(_move(self.geometry.npoints, c, result.point))  # a shared tuple: 8 bytes a move
        self._hashes.append(after.hash)
        if len(self.history) % SNAPSHOT_EVERY == 0:
            self._snapshots.append(after.copy())
        self._seen[after.hash] = self._seen.get(after.hash, 0) + 1
        self._score_cache = None
        return result

    def is_legal(self, color, vertex) -> bool:
        """True if `color` may play `vertex` now under the game's rules (superko included); False off board."""
        c = parse_color(color)
        if not self.board.is_legal(c, vertex):
            return False
        p = self.geometry.parse(vertex)
        return p == PASS or not self._repeats(c, p)

    def legal_moves(self, color) -> list[str]:
        """GTP names of the points where `color` may play under the game's rules (superko included),
        A1 first, row by row; passing is always legal and not listed."""
        name = self.geometry.name
        return [name(p) for p in self.legal_points(color)]

    def legal_points(self, color) -> list[int]:
        """Padded points (no PASS) where `color` may play under the game's rules, in A1..row order."""
        c = parse_color(color)
        board = self.board
        return [int(p) for p in self.geometry.points if board.is_legal(c, int(p)) and not self._repeats(c, int(p))]

    def _repeats(self, c: int, p: int) -> bool:
        """True if the board-legal move c at p would repeat an earlier position."""
        g = self.geometry
        opp = opponent(c)
        if all(self.board.color_at(p + int(d)) != opp for d in g.neighbours
               if g.onboard[p + int(d)]):
            # Nothing can be captured: the new hash is the old one plus this stone.
            return (self.board.hash ^ int(g.zobrist[c * g.npoints + p])) in self._seen
        after = self.board.copy()
        after.play(c, p)
        return after.hash in self._seen

    def undo(self, moves: int = 1) -> None:
        """Take back the last `moves` moves (passes included); GameError if there are fewer."""
        if moves < 1 or moves > len(self.history):
            raise GameError("cannot undo: no move to take back" if not self.history
                            else f"cannot undo {moves} moves: only {len(self.history)} played")
        # new lists and a new dict, not edits in place (see checkpoint)
        n = len(self.history) - moves
        seen = dict(self._seen)
        _forget(seen, self._hashes[n:])
        self._seen = seen
        self.history = self.history[:n]
        self._hashes = self._hashes[:n]
        k = n // SNAPSHOT_EVERY
        self._snapshots = self._snapshots[:k + 1]
        board = self._snapshots[k].copy()
        for c, p in self.history[k * SNAPSHOT_EVERY:]:
            board.play(c, p)
        self.board = board
        self._score_cache = None

    def last_passes(self) -> int:
        """Consecutive passes at the end of the history."""
        n = 0
        for _, p in reversed(self.history):
            if p != PASS:
                break
            n += 1
        return n

    # ------------------------------------------------------------ setup and handicap

    def is_empty(self) -> bool:
        """True if no stone is on the board."""
        return not (self.board.stones(BLACK).any() or self.board.stones(WHITE).any())

    def setup(self, black=(), white=(), to_move=None) -> None:
        """Replace the position by these stones (vertices or padded points) as a new base position:
        the history and superko memory restart there. ValueError (game unchanged) if a string
        would have no liberty or a point is given twice."""
        g = self.geometry
        stones: dict[int, int] = {}
        for color, points in ((BLACK, black), (WHITE, white)):
            for v in points:
                p = g.parse(v)
                if p == PASS or p in stones:
                    raise ValueError(f"bad setup point {v!r}: pass or given twice")
                stones[p] = color
        if to_move is None:
            to_move = WHITE if stones and not any(c == WHITE for c in stones.values()) else BLACK
        board = board_from_ascii(_diagram(self.size, stones, g), to_move=parse_color(to_move),
                                 allow_suicide=self.rules == "tromp-taylor")
        self._reset(board)

    def _place_handicap(self, points: list[int]) -> list[str]:
        if not self.is_empty():
            raise GameError("board not empty")
        self.setup(black=points, to_move=WHITE)
        self.handicap = len(points)
        return [self.geometry.name(p) for p in points]

    def fixed_handicap(self, stones: int) -> list[str]:
        """Place GTP's fixed handicap on an empty board; returns the vertices. GameError if the board
        is not empty, ValueError if that number has no fixed placement."""
        if not self.is_empty():
            raise GameError("board not empty")
        return self._place_handicap(list(fixed_handicap_points(self.size, stones)))

    def place_free_handicap(self, stones: int) -> list[str]:
        """Place `stones` (2..size*size-1) handicap stones where the engine likes; returns the vertices."""
        if not self.is_empty():
            raise GameError("board not empty")
        return self._place_handicap(free_handicap_points(self.size, stones))

    def set_free_handicap(self, vertices) -> None:
        """Place handicap stones at the given vertices (at least 2, distinct, not pass, not all points)."""
        if not self.is_empty():
            raise GameError("board not empty")
        points = [self.geometry.parse(v) for v in vertices]
        if len(points) < 2 or len(set(points)) != len(points) or PASS in points \
                or len(points) >= self.size * self.size:
            raise ValueError("bad vertex list: need 2 or more distinct points, no pass, not the whole board")
        self._place_handicap(points)

    # ------------------------------------------------------------ scoring

    def _ownership(self, playouts: int, seed: int) -> np.ndarray:
        key = (self.board.hash, self.board.to_move, self.board.ko_point, playouts, seed)
        if self._score_cache is None or self._score_cache[0] != key:
            # Half the playouts with each side moving first, so that the side to move (arbitrary
            # after two passes) does not tilt the estimate; the same stones with no pass counted,
            # since playouts end at two passes.
            diagram = _diagram(self.size, self._stones(), self.geometry)
            first = playouts // 2
            total = np.zeros(self.size * self.size)
            for color, count in ((BLACK, first), (WHITE, playouts - first)):
                board = board_from_ascii(diagram, to_move=color, allow_suicide=self.board.allow_suicide)
                total += count * ownership(board, playouts=count, seed=seed + color)
            self._score_cache = (key, total / max(1, playouts))
        return self._score_cache[1]

    def statuses(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[tuple[str, int, list[int]]]:
        """Each string as (status, colour, padded points), status "alive", "dead" or "seki", estimated
        from the string's mean playout ownership m (+1: its owner's, -1: the opponent's):
        seki if |m| < SEKI_BAND and it shares a liberty with an opponent string that also has
        |m| < SEKI_BAND (in seki either side may be captured first in a random playout);
        otherwise dead if m < -DEAD_THRESHOLD, alive if not."""
        g = self.geometry
        own = self._ownership(playouts, seed)
        strings = board_strings(self.board)
        means = [sum(own[g.bit_of[p]] for p in pts) / len(pts) * (1 if c == BLACK else -1)
                 for c, pts, _ in strings]
        owner_of = {p: i for i, (_, pts, _) in enumerate(strings) for p in pts}
        out = []
        for i, (c, pts, libs) in enumerate(strings):
            neighbours = {owner_of[lib + int(d)] for lib in libs for d in g.neighbours
                          if owner_of.get(lib + int(d), i) != i and strings[owner_of[lib + int(d)]][0] != c}
            if abs(means[i]) < SEKI_BAND and any(abs(means[j]) < SEKI_BAND for j in neighbours):
                status = "seki"
            elif means[i] < -DEAD_THRESHOLD:
                status = "dead"
            else:
                status = "alive"
            out.append((status, c, pts))
        return out

    def dead_stones(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[int]:
        """Padded points of the stones judged dead."""
        return sorted(p for status, _, pts in self.statuses(playouts, seed) if status == "dead" for p in pts)

    def final_status_list(self, status: str, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> list[list[str]]:
        """The strings with `status` ("alive", "dead" or "seki") as lists of GTP vertices; ValueError otherwise."""
        if status not in ("alive", "dead", "seki"):
            raise ValueError(f"unknown status {status!r}: expected alive, dead or seki")
        g = self.geometry
        return [[g.name(p) for p in pts] for s, _, pts in self.statuses(playouts, seed) if s == status]

    def score(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> float:
        """Black minus white area after removing dead stones, minus komi."""
        dead = set(self.dead_stones(playouts, seed))
        stones = {p: c for p, c in self._stones().items() if p not in dead}
        return board_from_ascii(_diagram(self.size, stones, self.geometry), allow_suicide=True).area_score(self.komi)

    def _stones(self) -> dict[int, int]:
        """Padded point -> colour of every stone on the board."""
        board = self.board
        return {int(p): c for p in self.geometry.points if (c := board.color_at(int(p))) != EMPTY}

    def final_score(self, playouts: int = SCORE_PLAYOUTS, seed: int = 0) -> str:
        """The result as GTP writes it: "B+3.5", "W+0.5" or "0"."""
        return format_score(self.score(playouts, seed))

    # ------------------------------------------------------------ SGF

    def to_sgf(self) -> str:
        """The game as SGF text (FF[4]): size, komi, rules, handicap, setup stones and every move."""
        g = self.geometry
        game = sgf.Sgf_game(self.size)
        root = game.get_root()
        root.set("KM", self.komi)
        root.set("RU", SGF_RULES[self.rules])
        root.set("AP", ("foogo", _version()))
        if self.handicap:
            root.set("HA", self.handicap)
        black = [g.row_col(int(p)) for p in g.points if self.base.color_at(int(p)) == BLACK]
        white = [g.row_col(int(p)) for p in g.points if self.base.color_at(int(p)) == WHITE]
        if black or white:
            root.set_setup_stones(black, white)
            root.set("PL", "b" if self.base.to_move == BLACK else "w")
        node = root
        for color, p in self.history:  # new_child on the last node: extend_main_sequence walks the line
            node = node.new_child()
            node.set_move("b" if color == BLACK else "w", None if p == PASS else g.row_col(p))
        text = game.serialise().decode("utf-8")
        return "\n".join(line for line in text.splitlines() if line.strip())

    def load_sgf(self, path: str, move_number: int | None = None, max_bytes: int = SGF_MAX_BYTES,
                 max_moves: int = SGF_MAX_MOVES) -> None:
        """Replace this game by the main line of an SGF file, stopping before move `move_number`
        (1-based; None: all moves). Keeps the rules; takes size and komi from the file.
        Reads regular files only (never waits on a pipe or a device), of at most max_bytes, with
        at most max_moves nodes in the main line; nothing is read before the file is checked.
        SgfError, with the game unchanged, for a file that cannot be read, is over a limit (the
        message names it), or cannot be parsed or replayed."""
        try:
            # O_NONBLOCK: opening a FIFO must not wait for a writer; fstat then tells what it is
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        except OSError as error:
            raise SgfError(f"cannot read {path}: {error.strerror or error}") from None
        try:
            info = os.fstat(fd)
            if not stat.S_ISREG(info.st_mode):
                raise SgfError(f"cannot read {path}: not a regular file")
            if info.st_size > max_bytes:
                raise SgfError(f"{path} is {info.st_size} bytes, over the SGF size limit of {max_bytes}")
            with os.fdopen(fd, "rb", closefd=False) as f:
                data = f.read(max_bytes + 1)
        except OSError as error:
            raise SgfError(f"cannot read {path}: {error.strerror or error}") from None
        finally:
            os.close(fd)
        if len(data) > max_bytes:  # it grew since fstat
            raise SgfError(f"{path} is over the SGF size limit of {max_bytes} bytes")
        self.load_sgf_bytes(data, move_number, max_moves)

    def load_sgf_bytes(self, data: bytes, move_number: int | None = None, max_moves: int = SGF_MAX_MOVES) -> None:
        """As load_sgf, from the file's bytes (the size limit is the caller's)."""
        if move_number is not None and move_number < 1:
            raise SgfError(f"move number must be 1 or more, got {move_number}")
        try:
            game = sgf.Sgf_game.from_bytes(data)
            size = game.get_size()
            komi = game.get_komi()
            nodes = game.get_main_sequence()
        except ValueError as error:
            raise SgfError(f"corrupt SGF: {error}") from None
        if len(nodes) - 1 > max_moves:
            raise SgfError(f"the main line has {len(nodes) - 1} nodes after the root, over the SGF move "
                           f"limit of {max_moves}")
        try:
            new = Game(size, komi, self.rules)
        except ValueError as error:
            raise SgfError(f"unsupported SGF: {error}") from None
        root = nodes[0]
        try:
            if root.has_property("HA"):
                new.handicap = max(0, int(root.get("HA")))
        except ValueError:
            pass
        played = 0
        g = new.geometry
        for number, node in enumerate(nodes):
            try:
                black, white, empty = node.get_setup_stones()
                color, move = node.get_move()
                to_play = node.get("PL") if node.has_property("PL") else None
            except ValueError as error:
                raise SgfError(f"corrupt SGF node {number}: {error}") from None
            if black or white or empty or to_play:
                stones = {int(p): new.board.color_at(int(p)) for p in g.points}
                for rc_set, c in ((black, BLACK), (white, WHITE), (empty, EMPTY)):
                    for row, col in rc_set:
                        stones[g.point(row, col)] = c
                try:
                    new.setup([p for p, c in stones.items() if c == BLACK],
                              [p for p, c in stones.items() if c == WHITE],
                              to_move=to_play)
                except ValueError as error:
                    raise SgfError(f"bad setup in SGF node {number}: {error}") from None
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
        self.__dict__.update(new.__dict__)


def _forget(seen: dict[int, int], hashes) -> None:
    """Take one occurrence of each of `hashes` out of the superko memory `seen`."""
    for h in hashes:
        seen[h] -= 1
        if not seen[h]:
            del seen[h]


@functools.lru_cache(maxsize=None)
def _moves(npoints: int) -> tuple:
    """The (colour, point) tuples of a geometry, built once: [c][p + 1] for p in PASS, 0..npoints-1."""
    return tuple(tuple((c, p) for p in range(PASS, npoints)) for c in (0, BLACK, WHITE))


def _move(npoints: int, c: int, p: int) -> tuple:
    """The shared (c, p) tuple: a game's history holds references, not a new tuple per move."""
    return _moves(npoints)[c][p + 1]


def format_score(score: float) -> str:
    """GTP's form of a black-minus-white score: "B+3.5", "W+0.5" or "0"."""
    if abs(score) < 1e-9:
        return "0"
    return f"{'B' if score > 0 else 'W'}+{abs(score):.1f}"


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("foogo")
    except Exception:  # not installed: running from the source tree
        return "0.1.0"
