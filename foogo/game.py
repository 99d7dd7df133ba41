"""Game: a board plus history, rules, positional superko, undo, handicap, scoring and SGF.

The rules layer above `Board`. A `Game` owns the current `Board`, the moves
played since its base position (the empty board, or a handicap / SGF setup),
and the setups an SGF file makes between its moves, the Zobrist hashes of
every position since then, komi and the ruleset:

* ``chinese``       suicide illegal, positional superko, area scoring;
* ``tromp-taylor``  multi-stone suicide legal, positional superko, area scoring.

Positional superko: a move (not a pass) is illegal if the stones it leaves on
the board repeat any earlier position of the game, whoever is to move. A
setup between moves (an SGF file's) starts that memory afresh, as a base
position does: it is an edit of the position, not a move of the game.

This module holds the moves, history, undo and setup; a Game's other jobs live
beside it, one module each, and Game inherits them: scoring and dead stones
(game_score.GameScoring), SGF (game_sgf.SgfRecord), and where handicap stones
go (game_handicap). Their public names are importable from here too.
Handicap stones carry no automatic compensation; the controller sets komi.

It is not a search, a GTP parser or a player: it never chooses moves except
for free handicap placement, and it imports nothing above `playout`.
"""

from __future__ import annotations

import array
import functools
import itertools

from .board import Board, IllegalMove, MoveResult, board_from_ascii
from .game_handicap import fixed_handicap_points, free_handicap_points, max_fixed_handicap
from .game_score import (
    DEAD_THRESHOLD,
    SCORE_PLAYOUTS,
    SEKI_SHARE,
    GameScoring,
    board_strings,
    diagram,
    format_score,
)
from .game_sgf import SGF_MAX_BYTES, SGF_MAX_MOVES, SGF_MAX_SETUPS, SGF_RULES, SgfError, SgfRecord, sgf_rules_name
from .geometry import BLACK, COLOR_NAMES, EMPTY, PASS, WHITE, Geometry, opponent, parse_color
from .numbers import check_komi, shown, whole_value

__all__ = [  # the game's names, and those of the modules it is made of (see above)
    "DEAD_THRESHOLD", "RULES", "SCORE_PLAYOUTS", "SEKI_SHARE", "SGF_MAX_BYTES", "SGF_MAX_MOVES", "SGF_MAX_SETUPS",
    "SGF_RULES", "SNAPSHOT_EVERY", "Game", "GameError", "SgfError", "board_strings", "check_rules",
    "fixed_handicap_points", "format_score", "free_handicap_points", "max_fixed_handicap", "sgf_rules_name",
]

RULES = ("chinese", "tromp-taylor")
SNAPSHOT_EVERY = 256  # the history keeps a board every this many moves; undo replays from the last one


class GameError(ValueError):
    """A request the game state cannot honour (nothing to undo, board not empty, bad handicap)."""


def check_rules(rules: str) -> str:
    """The ruleset name normalised ("chinese" or "tromp-taylor"); ValueError for any other."""
    if not isinstance(rules, str):
        raise ValueError(f"unknown rules {shown(rules)}: expected one of {', '.join(RULES)}")
    name = "-".join(rules.strip().lower().replace("_", " ").replace("-", " ").split())
    if name in ("tromp-taylor", "tromptaylor", "tt"):
        name = "tromp-taylor"
    if name not in RULES:
        raise ValueError(f"unknown rules {shown(rules)}: expected one of {', '.join(RULES)}")
    return name


# ---------------------------------------------------------------- the game

class Game(GameScoring, SgfRecord):
    """A game of Go: the current Board, the moves since the base position, komi and rules."""

    def __init__(self, size: int = 9, komi: float = 7.0, rules: str = "chinese"):
        """An empty size x size game; ValueError for a bad size, komi or ruleset."""
        self.rules = check_rules(rules)
        self.komi = check_komi(komi)
        self._reset(Board(size, allow_suicide=self.rules == "tromp-taylor"))
        self.handicap = 0
        self.sgf_rules: str | None = None  # the RU of the SGF file last loaded (load_sgf), None after clear

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
        # (colour, point) for each move since the base, and (EMPTY, k) for a setup between moves (an SGF
        # node's AB / AW / AE / PL after moves): the position then is _setups[k], a board never mutated
        self.history: list[tuple[int, int]] = []
        self._setups: list[Board] = []
        # memory in proportion to the moves, not a board per move: the hash after each move, and
        # the board after every SNAPSHOT_EVERY-th move (snapshots[k]: after k * SNAPSHOT_EVERY moves;
        # never mutated, so copies of the game share them)
        self._hashes = array.array("Q")  # 8 bytes a move
        self._snapshots: list[Board] = [self.base]
        self._seen: dict[int, int] = {base.hash: 1}  # hash -> times it occurs in the game
        self._score_cache: tuple[tuple, list[tuple[str, int, list[int]]]] | None = None  # (position key, statuses)

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

    def __repr__(self) -> str:
        return (f"Game(size={self.size}, komi={self.komi:g}, rules={self.rules}, moves={self.move_count()}, "
                f"to_move={'black' if self.to_move == BLACK else 'white'})")

    def __str__(self) -> str:
        """The position as str(Board) draws it, under the game's one-line summary."""
        return f"{self!r}\n{self.board}"

    def copy(self) -> "Game":
        """An independent copy (snapshot boards are shared: they are never mutated)."""
        other = Game.__new__(Game)
        other.__dict__.update(self.__dict__)
        other.board = self.board.copy()
        other.history = list(self.history)
        other._setups = list(self._setups)
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
        history = tuple((c, (self._setups[p].hash, self._setups[p].to_move) if c == EMPTY else p)
                        for c, p in self.history)
        return (self.size, self.komi, self.rules, self.board.hash, self.board.to_move,
                self.board.ko_point, history, self.base.hash, self.base.to_move, self.handicap)

    def clear(self) -> None:
        """Back to an empty board of the same size, komi and rules."""
        self._reset(Board(self.size, allow_suicide=self.rules == "tromp-taylor"))
        self.handicap = 0
        self.sgf_rules = None

    def set_komi(self, komi: float) -> None:
        """Set komi (a finite number, or a string or bool that float() reads as one, as GTP's `komi 6.5` arrives; at
        most numbers.MAX_KOMI either way); ValueError otherwise."""
        self.komi = check_komi(komi)
        self._score_cache = None

    # ------------------------------------------------------------ moves

    def play(self, color, vertex) -> MoveResult:
        """Play `vertex` ("D4", "pass", (row, col) from A1, or a padded point: see Board.play) for `color`, in
        turn or not.

        IllegalMove (reason "occupied", "off board", "ko", "suicide" or "superko") or ValueError
        (malformed input) leave the game unchanged."""
        c = parse_color(color)
        after = self.board.copy()
        result = after.play(c, vertex)
        if result.point != PASS and after.hash in self._seen:
            name = self.geometry.name(result.point)
            raise IllegalMove("superko", f"illegal move {name} for {COLOR_NAMES[c]}: superko (repeats a position)")
        self._record(after, _move(self.geometry.npoints, c, result.point))  # a shared tuple: 8 bytes a move
        return result

    def _record(self, after: Board, entry: tuple[int, int]) -> None:
        """Make `after` the position, reached by the history entry `entry` (a move or a setup)."""
        self.board = after
        self.history.append(entry)
        self._hashes.append(after.hash)
        if len(self.history) % SNAPSHOT_EVERY == 0:
            self._snapshots.append(after.copy())
        self._seen[after.hash] = self._seen.get(after.hash, 0) + 1
        self._score_cache = None

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

    def recent_positions(self, count: int) -> list[tuple[int, int]]:
        """(Zobrist hash, empty points) of the last `count` positions before the current one, oldest
        first: what a search needs to keep its tree's moves from repeating them (positional superko;
        Search.genmove's history). Replays at most SNAPSHOT_EVERY + count moves."""
        count = whole_value("position count", count)
        first = max(0, len(self.history) - max(0, count))
        setup = self._last_setup(len(self.history), first)
        if setup >= 0:  # superko's memory starts at a setup: no position before it
            first = setup + 1
        board = self._board_after(first)
        positions = []
        for c, p in self.history[first:]:
            positions.append((board.hash, board.empty_points))
            board = self._replay(board, c, p)
        return positions

    def undo(self, moves: int = 1) -> None:
        """Take back the last `moves` moves (passes included; an SGF setup between moves counts as
        one); GameError if there are fewer, TypeError if `moves` is not a whole number."""
        moves = whole_value("moves to undo", moves)
        if moves < 1:
            raise GameError(f"cannot undo {shown(moves)} moves: the moves to undo must be 1 or more")
        if moves > len(self.history):
            raise GameError("cannot undo: no move to take back" if not self.history
                            else f"cannot undo {shown(moves)} moves: only {len(self.history)} played")
        # new lists and a new dict, not edits in place (see checkpoint)
        n = len(self.history) - moves
        undone = sum(1 for c, _ in self.history[n:] if c == EMPTY)  # the last setups' entries
        if undone:  # setups taken back: the memory before them again, and no board kept for them
            self._setups = self._setups[:len(self._setups) - undone]
            self._seen = self._superko_memory(n)
        else:
            seen = dict(self._seen)
            _forget(seen, self._hashes[n:])
            self._seen = seen
        self.history = self.history[:n]
        self._hashes = self._hashes[:n]
        self._snapshots = self._snapshots[:n // SNAPSHOT_EVERY + 1]
        self.board = self._board_after(n)
        self._score_cache = None

    def _board_after(self, n: int) -> Board:
        """A new board holding the position after the first n moves of the history, replayed from the
        last snapshot at or before it (at most SNAPSHOT_EVERY - 1 moves)."""
        k = n // SNAPSHOT_EVERY
        board = self._snapshots[k].copy()
        for c, p in self.history[k * SNAPSHOT_EVERY:n]:
            board = self._replay(board, c, p)
        return board

    def _last_setup(self, n: int, since: int = 0) -> int:
        """The index of the last setup among history entries since..n-1, or -1 if there is none (a
        scan of those entries only when the game has setups)."""
        if self._setups:
            for i in range(n - 1, since - 1, -1):
                if self.history[i][0] == EMPTY:
                    return i
        return -1

    def move_count(self) -> int:
        """The moves played since the base position (passes included, setups between moves not)."""
        return len(self.history) - len(self._setups)

    def _superko_memory(self, n: int) -> dict[int, int]:
        """The positions superko remembers after the first n history entries, counted afresh: those
        since the last setup among them (the setup's own included), or since the base position."""
        i = self._last_setup(n)
        seen: dict[int, int] = {} if i >= 0 else {self.base.hash: 1}
        for h in self._hashes[max(i, 0):n]:
            seen[h] = seen.get(h, 0) + 1
        return seen

    def _replay(self, board: Board, c: int, p: int) -> Board:
        """The board after history entry (c, p) from `board`: the move played on it, or a copy of the
        setup's position."""
        if c == EMPTY:
            return self._setups[p].copy()
        board.play(c, p)
        return board

    def last_passes(self) -> int:
        """Consecutive passes at the end of the history (a setup between moves ends them)."""
        n = 0
        for c, p in reversed(self.history):
            if c == EMPTY or p != PASS:
                break
            n += 1
        return n

    # ------------------------------------------------------------ setup and handicap

    def is_empty(self) -> bool:
        """True if no stone is on the board."""
        return not (self.board.stones(BLACK).any() or self.board.stones(WHITE).any())

    def setup(self, black=(), white=(), to_move=None) -> None:
        """Replace the position by these stones (vertices or padded points) as a new base position:
        the history and superko memory restart there, with no handicap (fixed_handicap and the free
        handicap commands set one). ValueError (game unchanged) if a string would have no liberty or a point
        is given twice; TypeError for stones that are not a list of points (a single vertex string, None)."""
        position = self._position(black, white, to_move)
        self._reset(position)
        self.handicap = 0  # a setup of stones is no handicap: to_sgf wrote the old HA beside them

    def _position(self, black, white, to_move) -> Board:
        """The board holding these stones (setup's arguments), `to_move` to play (None: white if
        there are only black stones, else black); ValueError as setup's."""
        g = self.geometry
        stones: dict[int, int] = {}
        for color, points in ((BLACK, black), (WHITE, white)):
            if isinstance(points, (str, bytes)) or not hasattr(points, "__iter__"):
                raise TypeError(f"setup stones are a list of points, not {shown(points)}")
            for v in points:
                p = g.parse(v)
                if p == PASS or p in stones:
                    raise ValueError(f"bad setup point {v!r}: pass or given twice")
                stones[p] = color
        if to_move is None:
            to_move = WHITE if stones and not any(c == WHITE for c in stones.values()) else BLACK
        return board_from_ascii(diagram(self.size, stones, g), to_move=parse_color(to_move),
                                allow_suicide=self.rules == "tromp-taylor")

    def _setup_between_moves(self, black, white, to_move=None) -> None:
        """As setup, but the position becomes a step of the history (an SGF setup node after moves):
        undo takes it back to the position before it, and to_sgf writes it where it was. Superko's
        memory starts afresh there (module docstring). to_move None: the side to move before it (a
        game goes on). ValueError, game unchanged, as setup's."""
        after = self._position(black, white, self.to_move if to_move is None else to_move)
        # a new memory (the positions before the setup count again once it is undone: _superko_memory),
        # and a new hash array and setup list where a move appends in place: a rollback forgets the
        # positions played since its checkpoint from the memory it kept, which holds none after a setup
        self._seen = {}
        self._hashes = array.array("Q", self._hashes)
        self._setups = self._setups + [after.copy()]
        self._record(after, (EMPTY, len(self._setups) - 1))

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
        """Place `stones` (2..size*size-1) handicap stones where the engine likes; returns the vertices. GameError
        if the board is not empty, ValueError for another count."""
        if not self.is_empty():
            raise GameError("board not empty")
        return self._place_handicap(free_handicap_points(self.size, stones))

    def set_free_handicap(self, vertices) -> None:
        """Place handicap stones at the given vertices (at least 2, distinct, not pass, not all points): a
        list or other iterable of vertices, not one string (TypeError). GameError if the board is not empty,
        ValueError for a vertex list like that (OffBoardError, a ValueError, for a vertex off the board)."""
        if not self.is_empty():
            raise GameError("board not empty")
        if isinstance(vertices, (str, bytes)) or not hasattr(vertices, "__iter__"):
            raise TypeError(f"handicap vertices must be a list of vertices such as ['D4', 'F6'], got {shown(vertices)}")
        # at most a board's points are read: more are refused below, and an endless iterable never ended
        points = [self.geometry.parse(v) for v in itertools.islice(vertices, self.size * self.size)]
        if len(points) < 2 or len(set(points)) != len(points) or PASS in points \
                or len(points) >= self.size * self.size:
            raise ValueError("bad vertex list: need 2 or more distinct points, no pass, not the whole board")
        self._place_handicap(points)


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

