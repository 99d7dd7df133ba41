"""Shared by the core tests: the card's rules restated in plain Python, as the `rules` fixture.

`Rules` works on sgfmill's grid (``grid[row][col]`` is "b", "w" or None, row 0 at the
bottom, as in GTP) and shares no code with foogo, so a test can hold foogo's incremental
state against a second, independent opinion: GTP names, strings and liberties, eye-like
points, eyes, playable sets and board-level legality.
"""

from __future__ import annotations

import functools
import string
import sys
import time

import pytest
from bitarray import bitarray

from foogo import BLACK, WHITE


def pytest_configure(config):
    """In the controller of a run with several workers (pyproject's -n 2), before they start: compile
    every kernel once, the parts side by side (foogo compile), so that the workers load them from the
    cache instead of each compiling all of them on a cold cache (CI's, or its bounds-checked stage's,
    which compiles for minutes). With a warm cache this only loads them, a few seconds."""
    workers = getattr(config.option, "numprocesses", None)
    if hasattr(config, "workerinput") or not isinstance(workers, int) or workers < 2 or config.option.collectonly:
        return
    from foogo.compile_kernels import compile_all

    start = time.perf_counter()
    # one process a core (compile_all's default; on two cores the shared tree's part follows the search's in
    # its process, which has compiled most of its helpers); a part that fails (its error is on stderr) or a
    # process that takes over 30 minutes leaves its kernels to the tests
    if compile_all(timeout=1800) != 0:
        print("conftest: compiling the kernels ahead failed; the tests compile them as they go", file=sys.stderr)
    elif time.perf_counter() - start > 10:
        print(f"conftest: kernels compiled ahead in {time.perf_counter() - start:.0f} s", file=sys.stderr)


class Rules:
    """Go on a plain grid, written from the design card's definitions (see foogo issue 2)."""

    COLUMNS = [letter for letter in string.ascii_uppercase if letter != "I"]
    SGF = {BLACK: "b", WHITE: "w"}
    OTHER = {"b": "w", "w": "b"}

    @staticmethod
    def name(row: int, col: int) -> str:
        """GTP name of (row, col), both 0-based, row 0 at the bottom."""
        return f"{Rules.COLUMNS[col]}{row + 1}"

    @staticmethod
    def point(name: str) -> tuple[int, int]:
        """(row, col) of a GTP name."""
        return int(name[1:]) - 1, Rules.COLUMNS.index(name[0].upper())

    @staticmethod
    def bits(size: int, points) -> bitarray:
        """The public bit layout: bit row * size + col set for each (row, col) or GTP name."""
        result = bitarray(size * size, endian="little")
        result.setall(0)
        for point in points:
            row, col = Rules.point(point) if isinstance(point, str) else point
            result[row * size + col] = 1
        return result

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def neighbours(size: int, row: int, col: int) -> tuple[tuple[int, int], ...]:
        return tuple((r, c) for r, c in ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
                     if 0 <= r < size and 0 <= c < size)

    @staticmethod
    @functools.lru_cache(maxsize=None)
    def diagonals(size: int, row: int, col: int) -> tuple[tuple[int, int], ...]:
        return tuple((r, c) for r, c in ((row - 1, col - 1), (row - 1, col + 1), (row + 1, col - 1),
                                         (row + 1, col + 1)) if 0 <= r < size and 0 <= c < size)

    @staticmethod
    def string(grid, row: int, col: int) -> tuple[set, set]:
        """(stones, liberties) of the string through the stone at (row, col), by flood fill."""
        size = len(grid)
        colour = grid[row][col]
        stones, liberties, todo = {(row, col)}, set(), [(row, col)]
        while todo:
            for r, c in Rules.neighbours(size, *todo.pop()):
                if grid[r][c] is None:
                    liberties.add((r, c))
                elif grid[r][c] == colour and (r, c) not in stones:
                    stones.add((r, c))
                    todo.append((r, c))
        return stones, liberties

    @staticmethod
    def liberty_counts(grid) -> dict:
        """{(row, col): liberties of its string} for every stone, one flood fill per string."""
        counts = {}
        size = len(grid)
        for row in range(size):
            for col in range(size):
                if grid[row][col] is not None and (row, col) not in counts:
                    stones, liberties = Rules.string(grid, row, col)
                    counts.update(dict.fromkeys(stones, len(liberties)))
        return counts

    @staticmethod
    def eye_like(grid, row: int, col: int, colour: str) -> bool:
        """Empty, and every on-board neighbour a `colour` stone."""
        return grid[row][col] is None and all(grid[r][c] == colour for r, c in Rules.neighbours(len(grid), row, col))

    @staticmethod
    def real_eye(grid, row: int, col: int, colour: str) -> bool:
        """Eye-like for colour, with at most one opponent diagonal (none on the edge or in a corner)."""
        if not Rules.eye_like(grid, row, col, colour):
            return False
        diagonals = Rules.diagonals(len(grid), row, col)
        enemies = sum(grid[r][c] == Rules.OTHER[colour] for r, c in diagonals)
        return enemies <= (1 if len(diagonals) == 4 else 0)

    @staticmethod
    def captures_at(grid, row: int, col: int, colour: str, liberties=None) -> bool:
        """A `colour` stone at (row, col) would take the last liberty of an adjacent opponent string.

        `liberties`, if given, is liberty_counts(grid)."""
        other = Rules.OTHER[colour]
        for r, c in Rules.neighbours(len(grid), row, col):
            if grid[r][c] == other:
                count = liberties[r, c] if liberties is not None else len(Rules.string(grid, r, c)[1])
                if count == 1:
                    return True
        return False

    @staticmethod
    def is_playable(grid, row: int, col: int, colour: str, liberties=None) -> bool:
        """The card's playable(colour) at one point (the ko point not removed)."""
        if grid[row][col] is not None or Rules.real_eye(grid, row, col, colour):
            return False
        if Rules.eye_like(grid, row, col, Rules.OTHER[colour]):
            return Rules.captures_at(grid, row, col, colour, liberties)
        return True

    @staticmethod
    def playable(grid, colour: str) -> bitarray:
        size = len(grid)
        liberties = Rules.liberty_counts(grid)
        return Rules.bits(size, [(r, c) for r in range(size) for c in range(size)
                                 if Rules.is_playable(grid, r, c, colour, liberties)])

    @staticmethod
    def eyes(grid, colour: str) -> bitarray:
        size = len(grid)
        return Rules.bits(size, [(r, c) for r in range(size) for c in range(size)
                                 if Rules.real_eye(grid, r, c, colour)])

    @staticmethod
    def stones(grid, colour: str) -> bitarray:
        size = len(grid)
        return Rules.bits(size, [(r, c) for r in range(size) for c in range(size) if grid[r][c] == colour])

    @staticmethod
    def illegal_reason(grid, row: int, col: int, colour: str, ko, allow_suicide: bool):
        """None if the move is legal under foogo's board rules, else "occupied", "ko" or "suicide".

        `ko` is the (row, col) this colour may not take back now, or None."""
        if grid[row][col] is not None:
            return "occupied"
        if ko == (row, col):
            return "ko"
        size = len(grid)
        friend = False
        for r, c in Rules.neighbours(size, row, col):
            if grid[r][c] is None:
                return None
            liberties = len(Rules.string(grid, r, c)[1])
            if grid[r][c] == colour:
                friend = True
                if liberties >= 2:
                    return None
            elif liberties == 1:
                return None
        return None if friend and allow_suicide else "suicide"


@pytest.fixture(scope="session")
def rules():
    """The plain-Python rules above (a fixture, so test modules need not import conftest)."""
    return Rules


@pytest.fixture(scope="session")
def warm_search():
    """warm_search(config) -> a fresh Search(config) whose kernels are compiled (or loaded): a timed
    search counts compilation inside its budget, minutes on a fresh cache with bounds checks on (as
    CI's second stage runs), so a test of a timed search's clock warms its kernels first, untimed."""
    import dataclasses

    from foogo import Board
    from foogo.search import Search

    def warmed(config):
        untimed = dataclasses.replace(config, seconds=None, playouts=64, resign_threshold=None)
        board = Board(5)
        Search(untimed).genmove(board, BLACK, 0.5)
        return Search(config)

    return warmed


@pytest.fixture
def small_game_dirs(tmp_path):
    """(train, test): two directories of short 9x9 games for the prior's learning scripts, two games (14 moves)
    in train and one (5 moves) in test."""
    train, test = tmp_path / "train", tmp_path / "test"
    train.mkdir()
    test.mkdir()
    (train / "a.sgf").write_text("(;GM[1]FF[4]SZ[9];B[ee];W[cc];B[gc];W[gg];B[cg];W[dc];B[fd])")
    (train / "b.sgf").write_text("(;GM[1]FF[4]SZ[9];B[dd];W[ff];B[fd];W[df];B[ed];W[ec];B[fc])")
    (test / "c.sgf").write_text("(;GM[1]FF[4]SZ[9];B[ee];W[de];B[ed];W[cd];B[dc])")
    return train, test


@pytest.fixture(scope="module")
def real_engine_factory():
    """GtpEngine(**kwargs) on the real search, its kernels compiled first, outside any test's clock (the
    GTP tests that need the real search: test_gtp*.py)."""
    import io

    pytest.importorskip("foogo.search")
    from foogo.gtp import GtpEngine

    warm = GtpEngine(log=io.StringIO(), playouts=50)
    assert warm.execute("reg_genmove b").startswith("=")  # compile the kernels outside any clock

    def make(**kwargs):
        return GtpEngine(log=io.StringIO(), **kwargs)

    return make


@pytest.fixture
def fake(tmp_path):
    """Return a function building a fake engine's command line from its options (the fake GTP engine of
    match_double.py, shared by the match tests and the GTP client's: test_match*.py, test_gtp_client.py)."""
    import shlex

    from match_double import FAKE_ENGINE

    script = tmp_path / "fake_engine.py"
    script.write_text(FAKE_ENGINE)

    def command(*options: str) -> str:
        return shlex.join([sys.executable, str(script), *options])

    return command
