"""bench/blind_shares.py: the blind points read off an owner_blind report's diagrams, and its positions' spelling."""

import pytest
from bench_loader import load

bs = load("blind_shares")

REPORT = """\
== /tmp/g/job-16/game-0001.sgf: foogo w, B+R, turned at its move 21
move 36 (foogo's 18): foogo 0.57, Pachi ?, ownership gap +6.4 points; blind regions: died 5 (G6 H4 ...), territory 4
 9  +  +  X  +  +  +  +  +  +
 8  +  O  X  O  +  O  +  +  +
 7  +  X  O  X  O  +  O  O  +
 6  +  +  +  X  O  O  x  x  +
 5  +  +  +  X  X  O  O  x  *
 4  +  X  +  X  O  O  X  o  +
 3  + (X) +  X  O  +  X  X  *
 2  +  +  O  +  O  +  X  +  *
 1  +  +  +  +  +  +  +  *  *
    A  B  C  D  E  F  G  H  J
move 38 (foogo's 19): foogo 0.45, Pachi ?, ownership gap +5.0 points; blind regions: none
== /tmp/g/job-35/game-0001.sgf: foogo b, W+R, turned at its move 24
move 45 (foogo's 23): foogo 0.50, Pachi 0.32, ownership gap +6.7 points; blind regions: territory 1 (A9)
 9 (*) +  +  +  +  +  +  +  +
 8  +  +  +  +  +  +  +  +  +
 7  +  +  +  +  +  +  +  +  +
 6  +  +  +  +  +  +  +  +  +
 5  +  +  +  +  +  +  +  +  +
 4  +  +  +  +  +  +  +  +  +
 3  +  +  +  +  +  +  +  +  +
 2  +  +  +  +  +  +  +  +  +
 1  +  +  +  +  +  +  +  +  +
    A  B  C  D  E  F  G  H  J
"""


def test_blind_points_are_the_lower_case_stones_and_stars_of_each_diagram():
    found = bs.blind_points(REPORT)
    assert set(found) == {("job-16", 36), ("job-35", 45)}  # move 38 had none
    colour, points = found[("job-16", 36)]
    assert colour == "w"
    assert points == {"G6", "H6", "H5", "H4", "J5", "H1", "J1", "J2", "J3"}  # the report's 5 died and 4 territory
    assert found[("job-35", 45)] == ("b", {"A9"})  # a starred last move counts too


def test_positions_are_spelled_job_colon_move():
    assert bs.position_list("job-38:58, job-6:54") == [("job-38", 58), ("job-6", 54)]
    assert len(bs.position_list(bs.SIX)) == 6
    for bad in ("job-38", "38:58", "job-x:1", "job-3:-1", ""):
        with pytest.raises(ValueError):
            bs.position_list(bad)


def test_a_position_without_a_diagram_is_refused_before_any_search(tmp_path, capsys):
    report = tmp_path / "report.txt"
    report.write_text(REPORT)
    with pytest.raises(SystemExit) as stop:
        bs.main([str(report), str(tmp_path), "--positions", "job-16:38"])
    assert stop.value.code == 2
    assert "no diagram of blind points" in capsys.readouterr().err
