"""Pictures: the SVG of a position parsed back (stones, coordinates, last move, ko point, ownership,
search values), and PNG output."""

import os
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from foogo import BLACK, WHITE, Board, board_from_ascii, render
from foogo.game import Game
from foogo.search import SearchResult

SVG = "{http://www.w3.org/2000/svg}"


def parse(svg):
    root = ET.fromstring(svg)
    assert root.tag == SVG + "svg"
    return root


def by_class(root, css):
    return [e for e in root.iter() if e.get("class") == css]


def test_stones_and_coordinates_are_where_the_board_says():
    board = board_from_ascii("""
        . . . . .
        . X O . .
        . . X . .
        . . . . .
        . . . . .
    """)
    root = parse(board._repr_svg_())
    assert {e.get("data-vertex") for e in by_class(root, "stone black")} == {"B4", "C3"}
    assert {e.get("data-vertex") for e in by_class(root, "stone white")} == {"C4"}
    coords = [e.text for e in by_class(root, "coord")]
    assert sorted(set(coords)) == sorted(["A", "B", "C", "D", "E", "1", "2", "3", "4", "5"])
    assert all(coords.count(c) == 2 for c in set(coords))  # on both sides
    # geometry: B4 is left of C4 and above C3
    centre = {e.get("data-vertex"): (float(e.get("cx")), float(e.get("cy"))) for e in root.iter(SVG + "circle")
              if e.get("data-vertex")}
    assert centre["B4"][0] < centre["C4"][0] and centre["B4"][1] == centre["C4"][1]
    assert centre["C3"][1] > centre["C4"][1] and centre["C3"][0] == centre["C4"][0]
    assert not by_class(root, "last") and not by_class(root, "ko")


def test_columns_skip_i_on_a_big_board():
    root = parse(render.board_svg(Board(19)))
    letters = {e.text for e in by_class(root, "coord") if e.text.isalpha()}
    assert "I" not in letters and "T" in letters and len(letters) == 19
    assert len(by_class(root, "star")) == 9


def test_last_move_and_ko_point_are_marked():
    game = Game.from_ascii("""
        . X O . .
        X O . O .
        . X O . .
        . . . . .
        . . . . .
    """, komi=0.5)
    game.play(BLACK, "C4")  # captures B4: white may not take back at B4 at once
    root = parse(game._repr_svg_())
    assert [e.get("data-vertex") for e in by_class(root, "last")] == ["C4"]
    assert [e.get("data-vertex") for e in by_class(root, "ko")] == ["B4"]
    assert "B4" not in {e.get("data-vertex") for e in by_class(root, "stone white")}


def test_ownership_shades_points_by_their_owner():
    board = Board(3)
    own = np.array([1.0, 0.5, 0.0, 0.0, 0.0, 0.0, -1.0, -0.02, 0.0])  # A1, B1 black; A3 white; C3 nearly none
    root = parse(render.board_svg(board, ownership=own))
    shades = {e.get("data-vertex"): (e.get("fill"), float(e.get("opacity", 1))) for e in by_class(root, "owner")}
    assert set(shades) == {"A1", "B1", "A3"}
    assert shades["A1"][0] == shades["B1"][0] == "#000" and shades["A3"][0] == "#fff"
    assert shades["A1"][1] > shades["B1"][1]


def test_a_search_map_writes_visits_and_win_rates_on_the_moves_tried():
    board = Board(5)
    g = board.geometry
    d4, c3 = g.parse("D4"), g.parse("C3")
    result = SearchResult(move=c3, winrate=0.55, playouts=30, seconds=0.1, visits={c3: 20, d4: 10},
                          winrates={c3: 0.55, d4: 0.4}, ownership=np.zeros(25), color=WHITE)
    visits = {e.get("data-vertex"): e.text for e in by_class(parse(render.search_svg(board, result)), "value")}
    assert visits == {"C3": "20", "D4": "10"}
    rates = {e.get("data-vertex"): e.text for e in
             by_class(parse(render.search_svg(board, result, "winrate")), "value")}
    assert rates == {"C3": "55", "D4": "40"}
    with pytest.raises(ValueError):
        render.search_values(board, result, "ownership")


def test_save_writes_svg_and_png(tmp_path):
    board = board_from_ascii("""
        . . .
        . X .
        . . O
    """)
    render.save(tmp_path / "b.svg", board)
    root = parse((tmp_path / "b.svg").read_text())
    assert len(by_class(root, "stone black")) == 1
    render.save(tmp_path / "b.png", board, ownership=np.linspace(-1, 1, 9))
    data = (tmp_path / "b.png").read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 500
    with pytest.raises(ValueError):
        render.save(tmp_path / "b.gif", board)


def test_a_game_is_drawn_as_its_current_position(tmp_path):
    game = Game(9)
    game.play("b", "E5")
    game.play("w", "C3")
    render.save(tmp_path / "g.svg", game)
    root = parse((tmp_path / "g.svg").read_text())
    assert [s.get("data-vertex") for s in by_class(root, "stone black")] == ["E5"]
    assert [s.get("data-vertex") for s in by_class(root, "stone white")] == ["C3"]


@pytest.mark.parametrize("ownership", [np.zeros(3), np.zeros(1000), [float("nan")] * 81, "x"])
def test_ownership_that_is_not_the_boards_finite_numbers_is_refused(ownership):
    with pytest.raises(ValueError, match="ownership must be"):
        render.board_svg(Board(9), ownership=ownership)
    assert render.board_svg(Board(9), ownership=np.zeros((9, 9))).startswith("<svg")  # a 9 x 9 array reads too


def test_values_take_any_case_and_refuse_what_is_no_point():
    svg = render.board_svg(Board(9), values={"e5": 7})
    assert 'data-vertex="E5"' in svg
    for bad in ("I5", "pass", "Z9"):
        with pytest.raises(ValueError):
            render.board_svg(Board(9), values={bad: 1})


def test_save_leaves_an_earlier_file_whole_on_bad_input_and_checks_dpi(tmp_path):
    import sys

    keep = tmp_path / "keep.svg"
    keep.write_text("earlier")
    with pytest.raises(ValueError):
        render.save(keep, Board(9), ownership=np.zeros(3))  # the file was opened, then emptied, first
    assert keep.read_text() == "earlier" and [p.name for p in tmp_path.iterdir()] == ["keep.svg"]
    for dpi in (0, 10**6, "100", 2.5):
        with pytest.raises(ValueError, match="dpi must be"):
            render.save(tmp_path / "x.png", Board(9), dpi=dpi)
    render.save(tmp_path / "x.png", Board(9), dpi=50)
    assert (tmp_path / "x.png").read_bytes()[:4] == b"\x89PNG"
    fifo = tmp_path / "x.svg"
    os.mkfifo(fifo)  # opened to write, it would wait for a reader for ever
    with pytest.raises(OSError, match="not a regular file"):
        render.save(fifo, Board(9))
    assert "matplotlib.pyplot" not in sys.modules or not sys.modules["matplotlib.pyplot"].get_fignums()
