"""bench/make_book.py --from-games: the positions games reach, counted up to symmetry, to a pass or capture."""

import subprocess
import sys

import pytest
from bench_loader import BENCH, load

from foogo import book as bk
from foogo.board import Board
from foogo.geometry import BLACK, WHITE


def sgf(moves, size=9, extra=""):
    """An SGF game of `moves` (GTP vertices, black first; "pass" for a pass) on a size x size board."""
    letters = "abcdefghjklmnopqrstuvwxyz"
    nodes = []
    for i, vertex in enumerate(moves):
        color = "B" if i % 2 == 0 else "W"
        if vertex == "pass":
            nodes.append(f";{color}[]")
        else:
            col = "abcdefghjklmnopqrstuvwxyz".index(vertex[0].lower())
            row = size - int(vertex[1:])
            nodes.append(f";{color}[{letters[col] if col < 8 else chr(97 + col)}{chr(97 + row)}]")
    return f"(;FF[4]GM[1]SZ[{size}]KM[7]{extra}" + "".join(nodes) + ")"


def key(moves, color):
    board = Board(9)
    for i, vertex in enumerate(moves):
        board.play(BLACK if i % 2 == 0 else WHITE, vertex)
    return bk.key(board, color)[0]


def test_positions_are_counted_once_a_game_up_to_symmetry_and_end_at_a_pass_or_capture(tmp_path):
    mb = load("make_book")
    (tmp_path / "a.sgf").write_text(sgf(["E5", "C3", "G7", "pass", "D4"]))
    (tmp_path / "b.sgf").write_text(sgf(["E5", "G7", "C3", "D4"]))  # C3/G7 mirrored: the same positions
    # black captures white's A1 with B1 at move 4 (A2 B2 first); the positions after the capture are not counted
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "c.sgf").write_text(sgf(["A2", "A1", "B2", "C5", "B1", "D5"]))
    (tmp_path / "d.sgf").write_text(sgf(["E5"], extra="HA[2]AB[cc][gg]"))  # handicap: skipped
    (tmp_path / "e.sgf").write_text("(;FF[4]SZ[9];B[zz")  # broken: counted as unreadable
    (tmp_path / "f.sgf").write_text(sgf(["C3"], size=13))  # another size: skipped
    paths = mb.sgf_paths(tmp_path)
    assert [p.name for p in paths] == ["a.sgf", "b.sgf", "d.sgf", "e.sgf", "f.sgf", "c.sgf"]
    counts, first, skipped = mb.game_positions(paths, 9, depth=10)
    assert skipped == 1
    assert counts[key([], BLACK)] == 3
    assert counts[key(["E5"], WHITE)] == 2
    assert counts[key(["E5", "C3"], BLACK)] == 2  # G7 in b.sgf is C3's image
    assert counts[key(["E5", "C3", "G7"], WHITE)] == 2
    assert key(["E5", "C3", "G7", "D4"], WHITE) not in counts  # a.sgf passed there; b.sgf's last move ends it
    assert counts[key(["A2", "A1", "B2", "C5"], BLACK)] == 1  # the position before the capture
    assert len(counts) == 4 + 4  # a.sgf and b.sgf reach the same four; c.sgf four more before its capture
    assert first[key(["E5", "C3"], BLACK)] == ([(BLACK, "E5"), (WHITE, "C3")], BLACK)
    assert mb.frequent_positions(counts, first, 2, 10) == [key([], BLACK), key(["E5"], WHITE),
                                                           key(["E5", "C3"], BLACK), key(["E5", "C3", "G7"], WHITE)]
    assert mb.frequent_positions(counts, first, 1, 1) == [key([], BLACK)]
    shallow, _, _ = mb.game_positions(paths, 9, depth=1)
    assert shallow == {key([], BLACK): 3}


def test_player_keeps_the_positions_whose_side_to_move_it_plays(tmp_path):
    mb = load("make_book")
    (tmp_path / "a.sgf").write_text(sgf(["E5", "C3", "G7"], extra="PB[foogo 0.1]PW[Pachi]"))
    (tmp_path / "b.sgf").write_text(sgf(["E5", "G7", "C3"], extra="PB[Pachi]PW[FOOGO]"))
    (tmp_path / "c.sgf").write_text(sgf(["E5", "C3"], extra="PB[GNU Go]PW[Pachi]"))  # no foogo: nothing
    paths = mb.sgf_paths(tmp_path)
    counts, first, skipped = mb.game_positions(paths, 9, depth=10, player="Foogo")
    assert skipped == 0
    # a.sgf: foogo black, before moves 1 and 3; b.sgf: foogo white, before move 2 (a game's last move ends it)
    assert counts == {key([], BLACK): 1, key(["E5", "C3"], BLACK): 1, key(["E5"], WHITE): 1}
    assert first[key(["E5"], WHITE)] == ([(BLACK, "E5")], WHITE)
    every, _, _ = mb.game_positions(paths, 9, depth=10)
    assert every[key([], BLACK)] == 3 and every[key(["E5"], WHITE)] == 3


def test_a_book_from_games_is_written_and_extended(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    for i in range(3):
        (games / f"{i}.sgf").write_text(sgf(["E5", "C3", "G7"]))

    def make(out, depth=2, playouts=200, extend=None):
        argv = [sys.executable, str(BENCH / "make_book.py"), "--from-games", str(games), "--depth", str(depth),
                "--min-games", "3", "--playouts", str(playouts), "--seeds", "1", "--jobs", "1", "--out", str(out)]
        argv += ["--extend", str(extend)] if extend else []
        return subprocess.run(argv, capture_output=True, text=True, timeout=600)

    first = make(tmp_path / "one.json")
    assert first.returncode == 0, first.stderr
    one = bk.load_book(str(tmp_path / "one.json"))
    assert set(one.entries) == {key([], BLACK), key(["E5"], WHITE)}
    second = make(tmp_path / "two.json", depth=3, extend=tmp_path / "one.json")
    assert second.returncode == 0, second.stderr
    assert "3 reached by 3 games or more, 3 kept (--max-positions), 1 not in the book yet" in second.stdout
    two = bk.load_book(str(tmp_path / "two.json"))
    assert set(two.entries) == set(one.entries) | {key(["E5", "C3"], BLACK)}
    assert all(two.entries[k] == e for k, e in one.entries.items())  # kept, not searched again
    other = make(tmp_path / "three.json", playouts=300, extend=tmp_path / "one.json")
    assert other.returncode == 2 and "its size, komi and playouts" in other.stderr
    assert not (tmp_path / "three.json").exists()


def test_bad_from_games_options_are_refused(tmp_path, monkeypatch, capsys):
    make_book = load("make_book")  # its main in this process: five interpreters' start-up was 6 s of the suite
    for extra, message in ((["--from-games", str(tmp_path / "none")], "no such file or directory"),
                           (["--from-games", str(tmp_path)], "no .sgf file there"),
                           (["--from-games", str(tmp_path), "--depth", "41"], "--depth must be from 1 to 40"),
                           (["--extend", str(tmp_path / "x.json")], "--extend goes with --from-games"),
                           (["--player", "foogo"], "--player goes with --from-games")):
        monkeypatch.setattr(sys, "argv", ["make_book.py", *extra, "--out", str(tmp_path / "o")])
        with pytest.raises(SystemExit) as exited:
            make_book.main()
        assert exited.value.code == 2 and message in capsys.readouterr().err, extra
        assert not (tmp_path / "o").exists()


def test_book_coverage_counts_the_positions_a_book_answers_and_out_of_sample(tmp_path):
    games = tmp_path / "games"
    games.mkdir()
    for i, moves in enumerate((["E5", "C3", "G7"], ["E5", "G7", "C3"], ["E5", "C3", "D4"], ["D5", "E5", "F5"])):
        names = "PB[foogo]PW[Pachi]" if i < 3 else "PB[Pachi]PW[foogo]"
        (games / f"{i}.sgf").write_text(sgf(moves, extra=names))
    book = tmp_path / "book.json"  # answers the empty board only
    book.write_text('{"format": 1, "size": 9, "komi": 7, "playouts": 10, "source": "", "entries": {"'
                    + key([], BLACK) + '": {"move": "E5", "winrate": 0.5, "visits": 1}}}')
    done = subprocess.run([sys.executable, str(BENCH / "book_coverage.py"), "--games", str(games), "--player",
                           "foogo", "--book", str(book), "--min-games", "1", "2"],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # foogo black in games 0-2 before moves 1 and 3 (E5 C3 twice: G7 is C3's image), white in game 3 before move 2
    assert lines[0] == "4 files (0 unreadable): 1.75 of foogo's positions before move 20 a game, 3 distinct"
    assert lines[1].endswith("(1 positions): 0.75 a game")  # the empty board in games 0-2
    # even games 0 and 2 reach the empty board and E5 C3; odd games 1 (both) and 3 (neither)
    assert lines[2] == "  a book of the positions 1+ of the even games reach (2): 1.00 a game of the odd ones"
    assert lines[3] == "  a book of the positions 2+ of the even games reach (2): 1.00 a game of the odd ones"
    bad = subprocess.run([sys.executable, str(BENCH / "book_coverage.py"), "--games", str(games), "--depth", "0"],
                         capture_output=True, text=True, timeout=120)
    assert bad.returncode == 2 and "--depth must be from 1 to 40" in bad.stderr
