"""bench/owner_blind.py: the board's vertex order, blind regions and their kinds, GNU Go's outcome, Pachi's JSON."""

import shutil
import sys
import textwrap

import pytest
from bench_loader import load
from sgfmill import sgf

ob = load("owner_blind")


def board(rows: str) -> dict[str, str]:
    """vertex -> "b" or "w" from a diagram, its top row the board's last (X black, O white, . empty)."""
    lines = textwrap.dedent(rows).split()
    size = len(lines)
    return {f"{'ABCDEFGHJ'[col]}{size - r}": {"X": "b", "O": "w"}[ch]
            for r, line in enumerate(lines) for col, ch in enumerate(line) if ch in "XO"}


def test_vertices_run_along_row_1_first_as_pachi_lists_points():
    assert ob.vertices(3) == ["A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3"]
    assert ob.vertices(9)[8] == "J1" and ob.vertices(9)[9] == "A2"


def test_turn_index_is_where_the_estimate_stayed_below_behind():
    assert ob.turn_index([0.5, 0.6, 0.4, 0.5, 0.3, 0.2]) == 4
    assert ob.turn_index([0.5, 0.6]) == 2
    assert ob.turn_index([0.3, 0.2]) == 0


def test_blind_regions_are_the_opponents_points_foogo_counted_its_own_by_gap_more_than_pachi():
    stones = board("""
        XX...
        XX...
        .....
        ...OO
        ...O.
    """)
    everything = ob.vertices(5)
    white_won = {v: "w" for v in everything}
    foogo = {v: 0.9 for v in everything}  # P(black owns): foogo, black, sure of every point
    pachi = {v: 0.55 for v in everything}  # Pachi 0.35 less: above the gap everywhere
    regions = ob.blind_regions(5, stones, "b", foogo, pachi, white_won)
    assert len(regions) == 1 and len(regions[0]["points"]) == 25
    assert regions[0]["kind"] == "died" and regions[0]["mine"] == 4 and regions[0]["theirs"] == 3
    # Pachi within the gap of foogo on the top half: only rows 1-2 stay blind, which hold white's stones alone
    pachi_half = {v: (0.55 if int(v[1:]) <= 2 else 0.65) for v in everything}
    regions = ob.blind_regions(5, stones, "b", foogo, pachi_half, white_won)
    assert [(r["kind"], len(r["points"])) for r in regions] == [("lived", 10)]
    assert ob.blind_regions(5, stones, "b", foogo, pachi_half, white_won, gap=0.2)[0]["kind"] == "died"
    # the outcome not white's: no blind point; as white, foogo's own is 1 - P(black owns)
    assert ob.blind_regions(5, stones, "b", foogo, pachi, {v: "" for v in everything}) == []
    black_won = {v: "b" for v in everything}
    assert len(ob.blind_regions(5, stones, "w", pachi, foogo, black_won)[0]["points"]) == 25
    # empty points only: territory; two separate regions, largest first
    owner = {v: ("w" if v in ("C3", "A1", "B1") else "b") for v in everything}
    regions = ob.blind_regions(5, stones, "b", foogo, pachi, owner)
    assert [(r["kind"], r["points"]) for r in regions] == [("territory", ["A1", "B1"]), ("territory", ["C3"])]


def test_ownership_gap_counts_points_from_foogos_side():
    foogo = {"A1": 0.9, "B1": 0.5}
    pachi = {"A1": 0.4, "B1": 0.5}
    assert ob.ownership_gap(dict(mine="b", foogo=foogo, pachi=pachi)) == pytest.approx(0.5)
    assert ob.ownership_gap(dict(mine="w", foogo=foogo, pachi=pachi)) == pytest.approx(-0.5)


def test_diagram_marks_blind_stones_in_lower_case_and_blind_empty_points():
    stones = board("""
        X..
        .O.
        ...
    """)
    shown = ob.diagram(3, stones, {"A3", "C1"}, "B2")
    assert shown.splitlines() == [" 3  x  +  + ", " 2  + (O) + ", " 1  +  +  * ", "    A  B  C "]


@pytest.mark.skipif(shutil.which("/usr/games/gnugo") is None, reason="GNU Go is not installed")
def test_outcome_takes_gnu_gos_dead_stones_off_and_fills_one_coloured_regions():
    # black walls column C, white column D; white's stone at A3 inside black's area is dead
    moves = "".join(f";{c}[{m}]" for c, m in [("B", "ca"), ("W", "da"), ("B", "cb"), ("W", "db"), ("B", "cc"),
                                                 ("W", "dc"), ("B", "cd"), ("W", "dd"), ("B", "ce"), ("W", "de"),
                                                 ("B", ""), ("W", "ac")])
    game = sgf.Sgf_game.from_bytes(f"(;GM[1]FF[4]SZ[5]KM[0]{moves})".encode())
    owner = ob.outcome("/usr/games/gnugo", game, 5, 0.0)
    assert owner["A3"] == "b" and owner["B1"] == "b" and owner["C5"] == "b"
    assert owner["D1"] == "w" and owner["E5"] == "w"


LINES = [[{"E5": [0.625, 400]}, {"D4": [0.4, 90]}], [{"C3": [0.5, 100]}]]


@pytest.mark.parametrize("choice, lines, value", [("C3", LINES, 0.5),
                                                  ("pass", LINES, 0.625),  # pass heads no line: the first's
                                                  ("pass", [], None)])  # no line at all
def test_pachi_view_reads_the_final_json_line_and_the_chosen_moves_value(tmp_path, choice, lines, value):
    territory = list(range(0, 810, 10))  # 81 points, A1 first
    final = {"move": {"playouts": 600, "choice": choice, "can": lines,
                      "boards": {"colors": [0] * 81, "territory": territory}}}
    stand_in = tmp_path / "pachi"
    stand_in.write_text(f"""#!{sys.executable}
import json, sys
for line in sys.stdin:
    if line.startswith("genmove"):
        sys.stderr.write('{{"frame": {{"playouts": 100}}}}\\n' + json.dumps({final!r}) + "\\n")
        print("= E5\\n", flush=True)
    else:
        print("= \\n", flush=True)
""")
    stand_in.chmod(0o755)
    game = sgf.Sgf_game.from_bytes(b"(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc])")
    read, owned = ob.pachi_view(str(stand_in), game, 3, 9, 7.0, "b", 600, 1)
    assert read == value
    assert owned["A1"] == 0.0 and owned["B1"] == 0.01 and owned["A2"] == 0.09 and owned["J9"] == 0.8


def test_pachi_view_refuses_a_run_without_its_final_line(tmp_path):
    stand_in = tmp_path / "pachi"
    stand_in.write_text(f"#!{sys.executable}\nimport sys\nfor line in sys.stdin:\n    print('= \\n', flush=True)\n")
    stand_in.chmod(0o755)
    game = sgf.Sgf_game.from_bytes(b"(;GM[1]FF[4]SZ[9]KM[7])")
    with pytest.raises(RuntimeError, match="no final JSON line"):
        ob.pachi_view(str(stand_in), game, 1, 9, 7.0, "b", 600, 1)


def test_diagram_blind_reads_back_the_blind_points_a_diagram_draws():
    stones = board("""
        XX...
        XO...
        .....
        ...OO
        ...O.
    """)
    blind = {"A5", "B4", "C3", "E1"}  # a black stone, a white one, two empty points
    rows = ob.diagram(5, stones, blind, "B4").splitlines()[:5]
    assert ob.diagram_blind(rows, 5) == blind
