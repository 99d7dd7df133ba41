"""What a search returns (search_result.py): a SearchResult prints as one line in GTP names."""

from foogo import WHITE


def test_a_search_result_prints_as_one_line_in_gtp_names():
    from foogo.geometry import RESIGN, geometry
    from foogo.search_result import SearchResult

    g = geometry(9)
    pv = [g.parse(v) for v in ("E5", "C3", "G7", "C7", "G3", "E3", "E7", "C5", "G5")]
    result = SearchResult(move=pv[0], winrate=0.5125, playouts=30500, seconds=0.5, pv=pv,
                          visits={p: 10 for p in pv[:3]}, color=WHITE, stopped="budget", size=9)
    assert repr(result) == ("SearchResult(white E5, win rate 0.512, 30500 playouts in 0.50 s, "
                            "pv E5 C3 G7 C7 G3 E3 E7 C5 ..., 3 root moves, stopped: budget)")
    assert "\n" not in repr(result) and "ownership" not in repr(result)
    assert repr(SearchResult(move=RESIGN, winrate=0.01, playouts=9, seconds=0.0)).startswith(
        "SearchResult(black resign, win rate 0.010, 9 playouts in 0.00 s, pv 0 moves")
    assert "point 42" in repr(SearchResult(move=42, winrate=0.5, playouts=1, seconds=0.0))
