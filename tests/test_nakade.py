"""The nakade exception to the heavy playouts' self-atari rule (policy "heavy-nakade"): which
sacrifices kill, from ASCII boards in GTP coordinates, every small eye shape, and the corner of a
game lost to Pachi."""

import numpy as np
import pytest

from foogo import BLACK, WHITE, board_from_ascii, run_playouts
from foogo import board_kernels as bk
from foogo import features as fe
from foogo import gamma_table as gt
from foogo import nakade as nk
from foogo import patterns as pa
from foogo import policy_heavy as ph
from foogo import random_stream as rs
from foogo import tactics as ta
from foogo.search import Search, SearchConfig

# white's string and black's three stones D5 E5 E6 share their last two liberties, D6 and F6:
# black D6 makes a square four in atari, and white's only eye after capturing it is dead
CORNER = """
    . X O . X .
    . X O X X O
    . X O O O O
    . X X X X X
    . . . . . .
    . . . . . .
"""


def verdict(text, vertex, color=BLACK):
    board = board_from_ascii(text)
    s, _ = board._state()
    p = board.geometry.parse(vertex)
    return bool(ta.big_self_atari(s, p, color)), bool(nk.nakade(s, p, color))


def test_a_square_four_sacrifice_is_a_nakade_and_the_zigzag_is_not():
    assert verdict(CORNER, "D6") == (True, True)
    assert verdict(CORNER, "F6") == (True, False)  # white takes D6 and lives with two eyes


def test_no_nakade_when_the_opponent_has_another_liberty():
    # F3 open: white is not in atari after D6, so the four stones would die for nothing
    assert verdict(CORNER.replace(". X X X X X\n", ". X X X X .\n", 1), "D6") == (True, False)


def test_no_nakade_when_the_capture_opens_a_way_out():
    # the same corner one column wider: white's capture at F7 would touch the empty G7
    wider = """
        . X O . X . .
        . X O X X O X
        . X O O O O X
        . X X X X X X
        . . . . . . .
        . . . . . . .
        . . . . . . .
    """
    assert verdict(wider, "D7") == (True, False)
    assert verdict(wider.replace(". X O . X . .", ". X O . X . X", 1), "D7") == (True, False)  # G7 black, not in S
    assert verdict(wider.replace(". X O . X . .", ". X O . X . O", 1), "D7") == (True, True)  # G7 white, in atari
    # G7 white with a liberty of its own at G6: the capture at F7 joins it, with G6
    joined = wider.replace(". X O . X . .", ". X O . X . O", 1).replace(". X O X X O X", ". X O X X O .", 1)
    assert verdict(joined, "D7") == (True, False)


def test_no_nakade_for_the_opponent_filling_its_own_eye_space():
    # white D6 or F6 gives away white's string of eight stones: never a nakade
    assert verdict(CORNER, "D6", WHITE) == (True, False)
    assert verdict(CORNER, "F6", WHITE) == (True, False)


def test_the_nakade_draw_plays_the_nakade_and_never_the_zigzag():
    board = board_from_ascii(CORNER)
    s, z = board._state()
    found = set()
    for seed in range(300):
        r = np.zeros(1, dtype=np.uint64)
        rs.seed_rng(r, seed, 0)
        found.add(board.geometry.name(int(ph.uniform_move(s, z, BLACK, r, True))))
    assert "D6" in found and "F6" not in found
    for seed in range(100):  # the default heavy policy gives no stones away
        r = np.zeros(1, dtype=np.uint64)
        rs.seed_rng(r, seed, 0)
        assert board.geometry.name(int(ph.uniform_move(s, z, BLACK, r))) not in ("D6", "F6")


# every free polyomino of 2..6 cells, and the ones that die when the attacker plays next
DEAD = {
    ((0, 0), (0, 1), (1, 0), (1, 1)),  # square four
    ((0, 0), (0, 1), (0, 2), (1, 1)),  # pyramid four
    ((0, 0), (0, 1), (1, 0), (1, 1), (2, 0)),  # bulky five
    ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1)),  # crossed five
    ((0, 1), (1, 0), (1, 1), (1, 2), (2, 1), (2, 2)),  # rabbity six
}


def canonical(cells):
    """The shape's name under the 8 symmetries and translation: its least normalised cell tuple."""
    forms = []
    for flip in (False, True):
        for turn in range(4):
            out = []
            for r, c in cells:
                if flip:
                    r, c = c, r
                for _ in range(turn):
                    r, c = c, -r
                out.append((r, c))
            r0 = min(r for r, _ in out)
            c0 = min(c for _, c in out)
            forms.append(tuple(sorted((r - r0, c - c0) for r, c in out)))
    return min(forms)


def polyominoes(n):
    shapes = {((0, 0),)}
    for _ in range(n - 1):
        shapes = {canonical(set(cells) | {(r + dr, c + dc)})
                  for cells in shapes for r, c in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                  if (r + dr, c + dc) not in cells}
    return shapes


@pytest.mark.parametrize("size, count", [(2, 1), (3, 2), (4, 5), (5, 12), (6, 35)])
def test_the_dead_shapes_are_told_apart_from_every_other_polyomino(size, count):
    shapes = polyominoes(size)
    assert len(shapes) == count
    dead = {canonical(cells) for cells in DEAD}
    for cells in shapes:
        degrees = [sum((r + dr, c + dc) in cells for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1)))
                   for r, c in cells]
        expected = size <= 3 or cells in dead
        assert nk.dead_shape(size, sum(degrees) // 2, max(degrees)) == expected, cells


# the game against Pachi kept as bench/results/corner-sacrifice-4x-027ba8d-job1-game3.sgf, before its
# move 73: white's string and black's G8 H8 H9 share G9 and J9; black G9 makes a square four and wins
PACHI_GAME = """
    X . X . X O . X .
    . X X X X O X X O
    X . X O O O O O O
    X X X X O X O X O
    X O X X X X X X X
    X O O X X O X . X
    X O . O O O O X X
    O O O O O . O O O
    . O O . . . O O O
"""


def test_the_heavy_playouts_read_the_corner_of_the_game_lost_to_pachi():
    assert verdict(PACHI_GAME, "G9") == (True, True)
    assert verdict(PACHI_GAME, "J9") == (True, False)
    # with the default heavy policy black wins none of the heavy playouts here (light playouts: 84%)
    assert (run_playouts(board_from_ascii(PACHI_GAME), 400, seed=1, policy="heavy").scores > 7).sum() == 0
    result = run_playouts(board_from_ascii(PACHI_GAME), 400, seed=1, policy="heavy-nakade")
    assert (result.scores > 7).mean() > 0.3


def neighbours(board, q):
    """The on-board orthogonal neighbours of padded point q, as padded points."""
    g, n = board.geometry, board.size
    r, k = g.row_col(q)
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    return [g.point(r + dr, k + dk) for dr, dk in steps if 0 <= r + dr < n and 0 <= k + dk < n]


def slow_nakade(board, p, c):
    """nakade recomputed on a copy of the board after the move, by flood fills over GTP points."""
    g = board.geometry
    after = board.copy()
    if not after.is_legal(c, g.name(p)):  # a suicide: no liberty left, no nakade
        return False
    after.play(c, g.name(p))

    def around(q):
        return neighbours(board, q)

    def string(q):
        color, todo, seen = after.color_at(g.name(q)), [q], {q}
        while todo:
            for x in around(todo.pop()):
                if x not in seen and after.color_at(g.name(x)) == color:
                    seen.add(x)
                    todo.append(x)
        return seen

    def liberties(stones):
        return {x for q in stones for x in around(q) if after.color_at(g.name(x)) == 0}

    S = string(p)
    libs = liberties(S)
    if not 2 <= len(S) <= 6 or len(libs) != 1:
        return False
    (L,) = libs
    other = {x for q in S for x in around(q) if after.color_at(g.name(x)) == 3 - c}
    if any(liberties(string(x)) != {L} for x in other):
        return False
    if any(after.color_at(g.name(x)) == 0 or (after.color_at(g.name(x)) == c and x not in S) for x in around(L)):
        return False
    if any(after.color_at(g.name(x)) == 3 - c and liberties(string(x)) != {L} for x in around(L)):
        return False
    return len(S) <= 3 or canonical({g.row_col(q) for q in S}) in {canonical(cells) for cells in DEAD}


def test_nakade_agrees_with_a_slow_recomputation_on_playout_positions():
    # positions 0.9 to 1.2 board-areas deep into light playouts, where self-ataris abound: every
    # big self-atari of either colour, nakade or not, against slow_nakade's flood fills (nakades are
    # rare there: about one big self-atari in 300)
    from test_policy import midgame
    checked = found = 0
    for size in (5, 7):
        for depth in (0.9, 1.0, 1.2):
            for seed in range(100):
                board = midgame(size, int(size * size * depth), seed)
                s, _ = board._state()
                for p in (int(q) for q in board.geometry.points):
                    for c in (BLACK, WHITE):
                        if board.color_at(board.geometry.name(p)) == 0 and ta.big_self_atari(s, p, c):
                            fast = bool(nk.nakade(s, p, c))
                            assert fast == slow_nakade(board, p, c), (str(board), board.geometry.name(p), c)
                            checked += 1
                            found += fast
    assert checked > 1000 and found >= 3


def test_the_search_prior_rates_a_nakade_by_its_own_gamma_with_the_heavy_policies_only():
    board = board_from_ascii(PACHI_GAME)
    s, _ = board._state()
    P, w = int(s[bk.M_P]), int(s[bk.M_W])
    g9, j9 = board.geometry.parse("G9"), board.geometry.parse("J9")
    assert fe.tactics(s, P, w, g9, BLACK, False) == fe.T_SELF2
    assert fe.tactics(s, P, w, g9, BLACK, True) == fe.T_NAKADE
    assert fe.tactics(s, P, w, j9, BLACK, True) == fe.T_SELF2  # the self-atari that does not kill
    # the fit gave the class a gamma of its own, far above a big self-atari's (bench/learn_gammas.py)
    moves, feats = fe.candidates(board, BLACK)
    assert feats[list(moves).index(g9), fe.G_TACTICS] == fe.T_NAKADE
    assert fe.candidates(board, BLACK, sacrifices=False)[1][list(moves).index(g9), fe.G_TACTICS] == fe.T_SELF2
    tactics_gammas = gt.GROUP_GAMMAS[fe.OFFSETS[fe.G_TACTICS]:fe.OFFSETS[fe.G_TACTICS] + fe.GROUP_SIZES[fe.G_TACTICS]]
    assert tactics_gammas[fe.T_NAKADE] > 10 * tactics_gammas[fe.T_SELF2]
    heavy_gamma, light_gamma = (gt.move_gammas(board, BLACK, [g9], sacrifices=flag)[0] for flag in (True, False))
    assert heavy_gamma == pytest.approx(light_gamma * tactics_gammas[fe.T_NAKADE] / tactics_gammas[fe.T_SELF2])
    shares = {}
    for policy in ("light", "heavy", "heavy-nakade"):
        search = Search(SearchConfig(threads=1, seed=3, playouts=200, policy=policy, resign_threshold=None))
        search.genmove(board, BLACK, 7.0)
        shares[policy] = search._root_knowledge()[0][g9]
    # the heavy playouts avoid giving the stones away, so their tree's prior rates the kill; light
    # playouts play it at random, and their prior keeps the rating its gammas were fitted with
    assert shares["heavy"] > 2 * shares["light"]
    assert shares["heavy-nakade"] == shares["heavy"]


# the four-times-budget control game kept as bench/results/semeai-nakade-4x-927d709-control-game3.sgf,
# after black's D9 (its move 63 in this line): white's big group and black's H7 H8 J8 share J7 and J9,
# and white has no other liberty; black J7 makes a square four in atari, which white's capture at J9
# leaves as its only eye space: white is dead (GNU Go says so), where the default heavy playouts read
# a seki. foogo, white there, estimated 0.93 before it lost the game.
SEMEAI_GAME = """
    . . . X O O O O .
    X . X X X O O X X
    . X O X O O O X .
    X X O X X X O O O
    O X O . X X O X O
    O O . O X X O X X
    . . O X X X X X .
    O O O O X . X . .
    . . O . O O O . .
"""


def test_the_heavy_nakade_playouts_read_the_square_four_of_the_four_times_budget_game():
    assert verdict(SEMEAI_GAME, "J7") == (True, True)
    assert verdict(SEMEAI_GAME, "J9") == (True, False)  # a zigzag four: white's two eyes
    board = board_from_ascii(SEMEAI_GAME, to_move=WHITE)  # as in the game
    heavy = (run_playouts(board, 400, seed=1, policy="heavy").scores > 7).mean()
    nakade = (run_playouts(board, 400, seed=1, policy="heavy-nakade").scores > 7).mean()
    assert heavy < 0.1 and nakade > 0.3


# white's corner with an eye space of three, A5 B5 A4: black's vital point is A5
BENT_THREE = """
    . . O X .
    . . O X .
    O O X X .
    X X X . .
    . . . . .
"""


def vital(text, last, color=BLACK):
    board = board_from_ascii(text)
    s, _ = board._state()
    p = int(nk.vital_point(s, color, board.geometry.parse(last)))
    return "pass" if p == bk.PASS else board.geometry.name(p)


def test_the_vital_point_of_each_dead_eye_space_beside_the_last_move():
    bent = """
        . . O X .
        . O O X .
        O O X X .
        X X X . .
        . . . . .
    """
    assert vital(bent, "B4") == "A5"
    assert vital(bent, "C5") == "pass"  # beside black's D5: neither a capture inside nor a move in it
    assert vital(bent, "C4") == "pass"  # no empty point beside C4
    straight = """
        . . . O X
        O O O O X
        O O O O X
        X X X X X
        . . . . .
    """
    assert vital(straight, "B4") == "B5"
    assert vital(straight, "D5") == "pass"  # beside black's E5
    assert vital(BENT_THREE, "C4") == "pass"  # A5 B5 A4 B4: a square four, dead without a move
    pyramid = """
        . . . O X
        O . O O X
        O O O O X
        X X X X X
        . . . . .
    """
    assert vital(pyramid, "C4") == "B5"  # A5 B5 C5 B4: B5 touches the three others
    rabbity = """
        O O O O O O O
        O O O O O O O
        O O O . . O O
        O O . . . O O
        O O O . O O O
        O O O O O O O
        O O O O O O O
    """
    assert vital(rabbity, "E6") == "D4"  # a cross around D4 and E5 between two arms: six points
    assert vital(rabbity, "B4") == "D4"  # from the arm C4 the flood finds E5 last, beside two points before it
    assert vital(rabbity.replace("O O O . O O O", "O O . . O O O", 1), "E6") == "pass"  # C3 empty too: seven


def test_no_vital_point_in_an_open_or_own_or_large_eye_space():
    touching = """
        . X O X .
        . O O X .
        O O X X .
        X X X . .
        . . . . .
    """
    assert vital(touching, "B4") == "pass"  # A4 A5 reach black's B5
    room = """
        . . O . .
        . O O X .
        O O X X .
        X X X . .
        . . . . .
    """
    assert vital(room, "B4") == "pass"  # white's string has D5 besides its eye space: not the whole of it
    own = """
        . . O X .
        . O O X .
        O O X X .
        X X X . .
        . . . . .
    """
    assert vital(own, "B4", WHITE) == "pass"  # white's own eye space
    big = """
        . . . . O X
        . . . . O X
        O O O O O X
        X X X X X X
        . . . . . .
        . . . . . .
    """
    assert vital(big, "E5") == "pass"  # eight points: not a small eye


def slow_vital_point(board, last, c):
    """vital_point by its contract, recomputed with flood fills over GTP points: the gate at the last
    move, then each empty region beside it."""
    g = board.geometry

    def around(q):
        return neighbours(board, q)

    def color(q):
        return board.color_at(g.name(q))

    def flood(q, same):
        todo, seen = [q], {q}
        while todo:
            for x in around(todo.pop()):
                if x not in seen and same(x):
                    seen.add(x)
                    todo.append(x)
        return seen

    if any(color(x) == c for x in around(last)) or sum(color(x) == 0 for x in around(last)) > 2:
        return "pass"
    for q in around(last):
        if color(q) != 0:
            continue
        region = flood(q, lambda x: color(x) == 0)
        if not 3 <= len(region) <= 6 or any(color(x) == c for e in region for x in around(e)):
            continue
        cells = {g.row_col(e) for e in region}
        if len(region) > 3 and canonical(cells) not in {canonical(d) for d in DEAD}:
            continue
        degree = {e: sum(x in region for x in around(e)) for e in region}
        top = max(degree.values())
        if list(degree.values()).count(top) > 1:
            continue
        strings = [flood(x, lambda y: color(y) == 3 - c) for e in region for x in around(e) if color(x) == 3 - c]
        if all(x in region for stones in strings for q in stones for x in around(q) if color(x) == 0):
            return g.name(max(degree, key=degree.get))
    return "pass"


def planted_eye_spaces(count, seed):
    """`count` boards of 5-7 lines, each mostly stones of one colour (white and black in turn) around one
    planted small empty shape (a dead eye space or a live one), with a few other empty points and stones
    of the other colour: where vital points are. Diagrams with a string without liberties are drawn again."""
    import random
    rnd = random.Random(seed)
    shapes = [((0, 0), (0, 1), (0, 2)), ((0, 0), (0, 1), (1, 1)), ((0, 0), (0, 1)), ((0, 0), (0, 1), (0, 2), (0, 3)),
              ((0, 0), (0, 1), (1, 1), (1, 2))] + sorted(DEAD)
    boards = []
    while len(boards) < count:
        n = rnd.choice((5, 6, 7))
        wall, other = ("O", "X") if len(boards) % 2 == 0 else ("X", "O")
        grid = [[wall if rnd.random() < 0.85 else rnd.choice("." + other) for _ in range(n)] for _ in range(n)]
        r0, c0 = rnd.randrange(n - 2), rnd.randrange(n - 2)
        for r, c in rnd.choice(shapes):
            if r0 + r < n and c0 + c < n:
                grid[r0 + r][c0 + c] = "."
        try:
            boards.append(board_from_ascii("\n".join(" ".join(row) for row in grid)))
        except ValueError:
            continue
    return boards


def test_the_vital_point_agrees_with_a_slow_recomputation():
    # every point as the last move, for both colours, in positions 0.9 to 1.2 board-areas deep into
    # light playouts and on boards with a planted eye space, against slow_vital_point: the gates before
    # vital_point's flood (the last move's string's pseudo-liberties, the one region beside it, its
    # first point's neighbours) rule out only what could not be a vital point
    from test_policy import midgame
    boards = [midgame(size, int(size * size * depth), seed)
              for size in (5, 7) for depth in (0.9, 1.2) for seed in range(20)] + planted_eye_spaces(250, 1)
    checked = 0
    found = {BLACK: 0, WHITE: 0}  # vital points found for each colour, beside a stone of the other's
    for board in boards:
        s, _ = board._state()
        for p in (int(q) for q in board.geometry.points):
            for c in (BLACK, WHITE):
                fast = int(nk.vital_point(s, c, p))
                fast = "pass" if fast == bk.PASS else board.geometry.name(fast)
                assert fast == slow_vital_point(board, p, c), (str(board), board.geometry.name(p), c)
                checked += 1
                found[c] += fast != "pass" and board.color_at(board.geometry.name(p)) == 3 - c
    assert checked > 20000 and min(found.values()) >= 15


def test_the_heavy_nakade_playouts_answer_at_the_vital_point_and_the_heavy_ones_need_not():
    board = board_from_ascii(BENT_THREE)
    board.play(WHITE, "B4")  # white's last move leaves it the bent three A5 B5 A4
    s, z = board._state()
    picks = {"heavy-nakade": set(), "heavy": set(), "without (b')": set()}
    policies = (("heavy-nakade", True, True), ("heavy", False, True), ("without (b')", True, False))
    for name, sacrifices, vital in policies:
        for seed in range(50):
            r = np.zeros(1, dtype=np.uint64)
            rs.seed_rng(r, seed, 0)
            picks[name].add(board.geometry.name(int(ph.choose_heavy(s, z, BLACK, r, pa.PATTERN_TABLE, sacrifices,
                                                                     vital=vital))))
    assert ph.VITAL_POINT and picks["heavy-nakade"] == {"A5"}
    assert len(picks["heavy"]) > 3
    assert len(picks["without (b')"]) > 3  # VITAL_POINT off: heavy-nakade's playouts no longer answer there
