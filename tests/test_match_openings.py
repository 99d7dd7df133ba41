"""A match's opening (match_openings.py): an SGF opening played on the referee and both engines before
the first genmove, refused when it cannot start a game, and kept off the clock."""

import pytest
from match_double import GNUGO_CMD, needs_gnugo, play_match
from sgfmill import sgf


@needs_gnugo
def test_an_opening_is_played_on_the_referee_and_both_engines_before_the_first_genmove(tmp_path):
    opening = tmp_path / "opening.sgf"
    opening.write_text("(;GM[1]SZ[5]KM[0];B[cc]C[a comment];W[bb];B[dd];W[];B[bd])")  # a pass inside
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", GNUGO_CMD, "--white", GNUGO_CMD + " --seed 7", "--games", "2",
                         "--size", "5", "--komi", "3.5", "--alternate", "--opening", str(opening),
                         "--opening-moves", "4", "--sgf-dir", str(sgf_dir))
    assert code == 0 and s["void"] == 0 and s["illegal_moves"] == s["crashes"] == 0
    for path in sorted(sgf_dir.glob("game-*.sgf")):
        nodes = sgf.Sgf_game.from_bytes(path.read_bytes()).get_main_sequence()[1:]
        moves = [node.get_move() for node in nodes]
        assert moves[:4] == [("b", (2, 2)), ("w", (3, 1)), ("b", (1, 3)), ("w", None)]
        assert len(moves) > 4 and moves[4][0] == "b"  # black moves after the opening's white pass
        assert nodes[3].get("C").startswith("the opening's last move (4 moves)") or len(moves) == 4
        assert [c for c, _ in moves] == ["b", "w"] * (len(moves) // 2) + ["b"] * (len(moves) % 2)


@pytest.mark.parametrize("text, argv, message", [
    ("(;SZ[9];B[cc];W[dd])", ["--opening-moves", "1"], "a 9x9 game, not 5x5"),
    ("(;SZ[5]AB[aa];B[cc];W[dd])", ["--opening-moves", "1"], "setup stones"),
    ("(;SZ[5];B[cc];W[dd])", ["--opening-moves", "3"], "has 2 moves, fewer than --opening-moves 3"),
    ("(;SZ[5];B[cc];W[];B[])", ["--opening-moves", "3"], "two passes in a row"),
    ("(;SZ[5];B[cc]", ["--opening-moves", "1"], "corrupt SGF"),
    ("(;SZ[5];B[cc];W[dd])", ["--opening-moves", "0"], "--opening-moves must be from 1 to 74"),
    ("(;SZ[5];B[cc];W[dd])", ["--opening-moves", "2", "--max-moves", "2"], "--opening-moves must be from 1 to 1"),
    # illegal moves: the games were played and each was void (the README says refused before anything starts)
    ("(;SZ[5];B[cc];W[cc])", ["--opening-moves", "2"], "node 2: W C3 is on a stone"),
    ("(;SZ[5];B[ba];W[ee];B[ab];W[aa])", ["--opening-moves", "4"], "node 4: W A5 is a suicide"),
    ("(;SZ[5];B[bc];W[cc];B[ad];W[bd];B[be];W[dd];B[ea];W[ce];B[cd];W[bd])", ["--opening-moves", "10"],
     "node 10: W B2 retakes a ko at once"),
    ("(;SZ[5];B[bc];W[cc];B[ad];W[bd];B[be];W[dd];B[ea];W[ce];B[cd];W[ee];B[aa];W[bd])", ["--opening-moves", "12"],
     None),  # the same ko taken back after a move elsewhere each: legal
    ("(;SZ[5];B[cc];W[zz])", ["--opening-moves", "2"], "node 2: a move off the 5x5 board or malformed"),
])
def test_an_opening_that_cannot_start_a_game_is_refused_before_anything_starts(tmp_path, fake, capsys, text, argv,
                                                                               message):
    opening = tmp_path / "opening.sgf"
    opening.write_text(text)
    if message is None:  # a legal opening: the loader takes it
        from foogo.match_openings import load_opening
        assert len(load_opening(str(opening), int(argv[1]), 5, 75)) == int(argv[1])
        return
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake(), "--size", "5", "--referee", "none",
                         "--opening", str(opening), *argv, "--sgf-dir", str(tmp_path / "sgf"))
    assert code == 2 and s is None
    assert message in capsys.readouterr().err
    assert not (tmp_path / "sgf").exists()  # refused before the SGF directory is made


def test_an_opening_must_be_a_regular_file_of_bounded_size_and_its_move_count_needs_it(tmp_path, fake, capsys):
    from foogo.match_openings import OPENING_MAX_BYTES
    for path, argv, message in [
            (tmp_path / "missing.sgf", [], "cannot read it"),
            (tmp_path, [], "not a regular file"),  # a directory
            (None, ["--opening-moves", "3"], "--opening-moves needs --opening")]:
        code, _ = play_match(tmp_path, "--black", fake(), "--white", fake(), "--referee", "none",
                             *(["--opening", str(path)] if path else []), *argv)
        assert code == 2 and message in capsys.readouterr().err
    huge = tmp_path / "huge.sgf"
    huge.write_bytes(b"(;SZ[9]C[" + b"x" * OPENING_MAX_BYTES + b"];B[cc])")
    code, _ = play_match(tmp_path, "--black", fake(), "--white", fake(), "--referee", "none", "--opening", str(huge))
    assert code == 2 and "over the opening size limit" in capsys.readouterr().err


def test_an_openings_moves_are_on_no_clock_and_the_times_after_it_follow_the_moves(tmp_path, fake):
    opening = tmp_path / "opening.sgf"
    opening.write_text("(;SZ[5];B[cc];W[dd])")
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", fake("--moves", "B2", "--score", "B+1"),
                         "--white", fake("--score", "B+1"), "--games", "1", "--size", "5", "--referee", "none",
                         "--time-settings", "2m", "--opening", str(opening), "--opening-moves", "2",
                         "--sgf-dir", str(sgf_dir))
    assert code == 0 and s["per_game"][0]["result"] == "B+1"
    nodes = sgf.Sgf_game.from_bytes((sgf_dir / "game-0001.sgf").read_bytes()).get_main_sequence()[1:]
    assert [n.get_move() for n in nodes[:3]] == [("b", (2, 2)), ("w", (1, 3)), ("b", (1, 1))]
    assert not any(n.has_property("BL") or n.has_property("WL") for n in nodes[:2])
    assert nodes[1].get("C") == "the opening's last move (2 moves)"
    assert nodes[2].has_property("BL") and 119 < nodes[2].get("BL") <= 120  # black's first genmove: its time left
    assert all(n.has_property("WL" if n.get_move()[0] == "w" else "BL") for n in nodes[2:])
