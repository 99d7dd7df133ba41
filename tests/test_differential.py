"""foogo against sgfmill: long random move sequences compared position by position.

sgfmill's Board (a well-kept, plain Python board) plays the same moves: it captures,
allows self-capture (a suicided string is removed) and reports the simple-ko point, but
enforces no rule. Legality comes from the `rules` fixture (tests/conftest.py), so after
every move we compare, against code that shares nothing with foogo: the stones of each
colour, the stones each move removed, the capture counts, the ko point, the area score,
legality (with the reason of an illegal move, and the board unchanged after it), the
Zobrist hash (equal exactly when the positions are equal), foogo's own consistency check
and, on sampled moves, the playable and eye sets.
"""

import random

import pytest
import sgfmill.boards
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foogo import BLACK, WHITE, Board, IllegalMove


class Duel:
    """One foogo Board and one sgfmill Board, moved together and compared after every move."""

    def __init__(self, size, rules, allow_suicide, sets_every=1):
        self.size, self.rules, self.allow_suicide = size, rules, allow_suicide
        self.board = Board(size, allow_suicide=allow_suicide)
        self.ref = sgfmill.boards.Board(size)
        self.color = BLACK
        self.ko = None  # (row, col) the side to move may not retake
        self.captures = {BLACK: 0, WHITE: 0}
        self.hashes = {}  # position -> hash, and hash -> position
        self.moves = 0
        self.sets_every = sets_every
        self.last_captured = []
        self.events = {"capture": 0, "multi": 0, "suicide": 0, "ko": 0, "ko refused": 0, "snapback": 0,
                       "pass": 0, "illegal": 0}

    @property
    def grid(self):
        return self.ref.board

    def empties(self):
        return [(r, c) for r in range(self.size) for c in range(self.size) if self.grid[r][c] is None]

    def reason(self, point):
        return self.rules.illegal_reason(self.grid, *point, self.rules.SGF[self.color], self.ko, self.allow_suicide)

    def legal_moves(self):
        return [p for p in self.empties() if self.reason(p) is None]

    def random_legal(self, rnd):
        """A move drawn uniformly from the legal ones (by rejection), or None if there is none."""
        candidates = self.empties()
        while candidates:
            point = candidates.pop(rnd.randrange(len(candidates)))
            if self.reason(point) is None:
                return point
        return None

    def snapshot(self):
        b = self.board
        return (b.hash, b.stones(BLACK), b.stones(WHITE), b.to_move, b.ko_point, b.captures(BLACK),
                b.captures(WHITE), b.playable(BLACK), b.playable(WHITE), b.passes)

    def try_illegal(self, point):
        """Play a move the reference calls illegal: IllegalMove with the same reason, nothing changed."""
        reason = self.reason(point) if self.grid[point[0]][point[1]] is None else "occupied"
        assert reason is not None
        before = self.snapshot()
        name = self.rules.name(*point)
        assert not self.board.is_legal(self.color, name)
        with pytest.raises(IllegalMove) as error:
            self.board.play(self.color, name)
        assert error.value.reason == reason
        assert self.snapshot() == before
        self.events["illegal"] += 1
        self.events["ko refused"] += reason == "ko"

    def play(self, point):
        """Play `point` (row, col) or a pass (None) on both boards, then compare everything."""
        name = "pass" if point is None else self.rules.name(*point)
        if point is None:
            result = self.board.play(self.color, name)
            self.ko = None
            self.last_captured = []
            self.events["pass"] += 1
        else:
            assert self.board.is_legal(self.color, name), f"{name} is legal"
            occupied = {(r, c) for r in range(self.size) for c in range(self.size) if self.grid[r][c]}
            ko = self.ref.play(*point, self.rules.SGF[self.color])
            removed = sorted(self.rules.name(r, c) for r, c in occupied if self.grid[r][c] is None)
            result = self.board.play(self.color, name)
            if self.grid[point[0]][point[1]] is None:  # self-capture: only a string, never a lone stone
                assert self.allow_suicide and removed
                assert sorted(result.suicided) == sorted(removed + [name])
                assert result.captured == []
                self.captures[3 - self.color] += len(removed) + 1
                self.events["suicide"] += 1
            else:
                assert sorted(result.captured) == removed
                assert result.suicided == []
                self.captures[self.color] += len(removed)
                if removed:
                    self.events["capture"] += 1
                    self.events["multi"] += len(removed) > 1
                    self.events["snapback"] += len(removed) > 1 and self.last_captured == [name]
            self.last_captured = removed
            self.ko = ko
            self.events["ko"] += ko is not None
        self.color = 3 - self.color
        self.moves += 1
        self.compare()
        return result

    def compare(self):
        b, rules, grid = self.board, self.rules, self.grid
        assert b.to_move == self.color
        assert b.stones(BLACK) == rules.stones(grid, "b")
        assert b.stones(WHITE) == rules.stones(grid, "w")
        assert b.captures(BLACK) == self.captures[BLACK]
        assert b.captures(WHITE) == self.captures[WHITE]
        assert b.ko_point == (None if self.ko is None else rules.name(*self.ko))
        key = tuple(tuple(row) for row in grid)
        assert self.hashes.setdefault(key, b.hash) == b.hash
        assert self.hashes.setdefault(b.hash, key) == key
        b.check_consistency()
        if self.moves % self.sets_every == 0:
            assert b.area_score() == self.ref.area_score()
            for colour, sgf in ((BLACK, "b"), (WHITE, "w")):
                assert b.playable(colour) == rules.playable(grid, sgf)
                assert b.eyes(colour) == rules.eyes(grid, sgf)

    def check_legality_everywhere(self):
        """is_legal agrees with the reference on every point (and off the board)."""
        for r in range(self.size):
            for c in range(self.size):
                expected = self.grid[r][c] is None and self.reason((r, c)) is None
                assert self.board.is_legal(self.color, self.rules.name(r, c)) == expected


def random_game(duel, rnd, length, full_legality):
    """Random legal moves (with a few passes and illegal attempts) for `length` moves."""
    for _ in range(length):
        if full_legality:
            duel.check_legality_everywhere()
        if duel.ko is not None and rnd.random() < 0.5:  # the immediate retake
            duel.try_illegal(duel.ko)
        elif rnd.random() < 0.1:  # another illegal attempt, if there is one to make
            illegal = [p for p in duel.empties() if duel.reason(p) is not None]
            stones = [(r, c) for r in range(duel.size) for c in range(duel.size) if duel.grid[r][c]]
            pool = illegal or stones
            if pool:
                duel.try_illegal(rnd.choice(pool))
        point = duel.random_legal(rnd) if rnd.random() >= 0.03 else None
        duel.play(point)


def length_for(size):
    return min(3 * size * size, 500)


@pytest.mark.parametrize("size", range(2, 20))
def test_random_games_match_sgfmill(size, rules):
    rnd = random.Random(1000 + size)
    games = 4 if size <= 9 else 1
    total = {}
    for game in range(games):
        duel = Duel(size, rules, allow_suicide=game % 2 == 0, sets_every=1 if size <= 9 else 25)
        random_game(duel, rnd, length_for(size), full_legality=size <= 7)
        for key, value in duel.events.items():
            total[key] = total.get(key, 0) + value
    assert total["capture"] and total["multi"] and total["pass"] and total["illegal"]
    if size >= 3:
        assert total["suicide"]
    if 3 <= size <= 9:  # four games each; on larger boards see the aggregate test below
        assert total["ko"]


@pytest.mark.slow
@pytest.mark.parametrize("size", range(2, 20))
def test_many_random_games_match_sgfmill(size, rules):
    rnd = random.Random(5000 + size)
    for game in range(40 if size <= 9 else 8):
        duel = Duel(size, rules, allow_suicide=game % 2 == 0, sets_every=1 if size <= 9 else 10)
        random_game(duel, rnd, 3 * size * size, full_legality=size <= 9)


def test_random_games_on_small_boards_include_snapbacks_kos_and_suicides(rules):
    total = {}
    for game in range(40):
        size = 3 + game % 4
        duel = Duel(size, rules, allow_suicide=game % 2 == 0)
        random_game(duel, random.Random(game), 3 * size * size, full_legality=False)
        for key, value in duel.events.items():
            total[key] = total.get(key, 0) + value
    assert total["snapback"] >= 3
    assert total["ko"] >= 3 and total["ko refused"] >= 1
    assert total["suicide"] >= 3


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(size=st.integers(2, 19), allow_suicide=st.booleans(),
       choices=st.lists(st.integers(0, 2**20), min_size=20, max_size=400))
def test_hypothesis_sequences_match_sgfmill(rules, size, allow_suicide, choices):
    """Each choice x picks a move: x % 40 == 0 a pass, x % 40 == 1 an illegal attempt,
    otherwise the first legal point at or after empty point number x // 40."""
    duel = Duel(size, rules, allow_suicide, sets_every=1 if size <= 9 else 20)
    for x in choices:
        empties = duel.empties()
        if x % 40 == 0:
            duel.play(None)
            continue
        if x % 40 == 1:
            illegal = [p for p in empties if duel.reason(p) is not None]
            stones = [(r, c) for r in range(size) for c in range(size) if duel.grid[r][c]]
            pool = illegal or stones
            if pool:
                duel.try_illegal(pool[(x // 40) % len(pool)])
            continue
        start = (x // 40) % max(len(empties), 1)
        legal = next((p for p in empties[start:] + empties[:start] if duel.reason(p) is None), None)
        duel.play(legal)
