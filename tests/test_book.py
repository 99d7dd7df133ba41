"""The opening book: symmetric lookup, what it refuses to answer, damaged files, the shipped book,
and `foogo gtp`'s use of it (with the scripted search double of gtp_double.py)."""

import argparse
import io
import json
import os

import pytest
from gtp_double import ScriptedSearch, body, ok

from foogo import book as bk_
from foogo.board import Board, board_from_ascii
from foogo.geometry import BLACK, WHITE
from foogo.gtp import GtpEngine, configure_parser


def one_entry_book(tmp_path, moves, color, reply, komi=7.0, size=9):
    """A book file with one position (moves played on an empty board, color to move) answered by reply."""
    board = Board(size)
    for c, v in moves:
        board.play(c, v)
    k, frame = bk_.key(board, color)
    g = board.geometry
    row, col = bk_.transform(size, frame, *g.row_col(g.parse(reply)))
    data = {"format": 1, "size": size, "komi": komi, "playouts": 1000, "source": "test",
            "entries": {k: {"move": g.name(g.point(row, col)), "winrate": 0.55, "visits": 0.5}}}
    path = tmp_path / "book.json"
    path.write_text(json.dumps(data))
    return str(path)


def test_symmetries_are_a_group_of_eight_distinct_maps():
    n = 9
    images = set()
    for k in range(bk_.SYMMETRIES):
        image = tuple(bk_.transform(n, k, r, c) for r in range(n) for c in range(n))
        assert sorted(image) == [(r, c) for r in range(n) for c in range(n)]  # a permutation
        assert all(bk_.inverse(n, k, *bk_.transform(n, k, r, c)) == (r, c) for r in range(n) for c in range(n))
        images.add(image)
    assert len(images) == 8


def test_every_rotation_and_reflection_of_a_position_gets_the_mirrored_answer(tmp_path):
    # the book knows black F6, white to move: answer D4 (the point diagonally across the centre)
    book = bk_.load_book(one_entry_book(tmp_path, [(BLACK, "F6")], WHITE, "D4"))
    answers = {}
    for first in ("F6", "D6", "F4", "D4"):  # the four images of F6
        board = Board(9)
        board.play(BLACK, first)
        p = book.move(board, WHITE, 7.0)
        answers[first] = board.geometry.name(p)
    assert answers == {"F6": "D4", "D6": "F4", "F4": "D6", "D4": "F6"}


def test_the_book_answers_only_its_size_komi_side_and_positions_without_captures(tmp_path):
    book = bk_.load_book(one_entry_book(tmp_path, [], BLACK, "E5"))
    assert book.vertex(Board(9), "b", 7.0) == "E5"
    assert book.move(Board(9), BLACK, 6.5) is None  # another komi
    assert book.move(Board(9), WHITE, 7.0) is None  # the other side to move
    assert book.move(Board(13), BLACK, 7.0) is None  # another size
    board = Board(9)
    for c, v in [(BLACK, "A2"), (WHITE, "A1"), (BLACK, "B1")]:  # black captures A1: the board is empty of white
        board.play(c, v)
    assert board.captures(BLACK) == 1
    assert book.move(board, WHITE, 7.0) is None


@pytest.mark.parametrize("damage", [
    b"not json", b"[]", b'{"format": 2}', b'{"format": 1, "size": 30, "komi": 7, "playouts": 1, "entries": {}}',
    b'{"format": 1, "size": 9, "komi": "x", "playouts": 1, "entries": {}}',
    b'{"format": 1, "size": 9, "komi": 7, "playouts": 1, "entries": {"bad": {"move": "E5"}}}',
    b'{"format": 1, "size": 9, "komi": 7, "playouts": 1, "entries": {"' + b"." * 81 + b'X": {"move": "Z9",'
    b' "winrate": 0.5, "visits": 0.5}}}',
    b'{"format": 1, "size": 9, "komi": 7, "playouts": 1, "entries": {"' + b"X" + b"." * 80 + b'O": {"move": "A1",'
    b' "winrate": 0.5, "visits": 0.5}}}',  # a move on a stone
    b'{"format": 1, "size": 9, "komi": 7, "playouts": 1, "entries": {"' + b"." * 81 + b'X": {"move": "E5",'
    b' "winrate": NaN, "visits": 0.5}}}',
    b" " * (bk_.MAX_BOOK_BYTES + 1),
    b'{"format": 1, "size": 1' + b"0" * 400 + b'}',  # past a float's range: math.isfinite raised OverflowError
    b'{"format": 1, "size": 9, "komi": 7, "playouts": 1' + b"0" * 400 + b', "entries": {}}',
    b'{"format": 1, "size": 1' + b"0" * 5000 + b'}',  # past Python's 4,300 digits: json.loads' own ValueError
])
def test_a_damaged_book_is_a_clear_error(damage):
    with pytest.raises(ValueError, match="book"):
        bk_.parse_book(damage)


def test_the_shipped_book_reads_and_opens_on_a_legal_point():
    import foogo

    assert foogo.book is bk_  # the README's `foogo.book.load_book()` after `import foogo`
    book = bk_.load_book()
    assert book.size == 9 and book.komi == 7.0 and book.playouts >= 100_000
    assert book.vertex(Board(9), BLACK, 7.0) == "E5"
    # every position the book holds, set up from its key (rows from A1 up, then the side to move), is answered
    # by a legal move
    for line in book.entries:
        board = board_from_ascii("\n".join(line[row * 9:row * 9 + 9] for row in reversed(range(9))))
        color = BLACK if line[81] == "X" else WHITE
        move = book.move(board, color, 7.0)
        assert move is not None and board.is_legal(color, board.geometry.name(move)), line
    assert len(book.entries) >= 100  # the positions of several moves of the commonest openings, not one move


def book_engine(path, script=()):
    holder = {}

    def factory(options):
        holder["search"] = ScriptedSearch(options, script)
        return holder["search"]

    engine = GtpEngine(search_factory=factory, log=io.StringIO(), book=path)
    engine.holder = holder
    return engine


def test_gtp_genmove_plays_the_book_move_without_searching_and_says_so(tmp_path):
    engine = book_engine(one_entry_book(tmp_path, [(BLACK, "F6")], WHITE, "D4"), script=["C3"])
    ok(engine, "play b D4")  # an image of F6
    assert body(engine.execute("reg_genmove w")) == "F6"
    assert body(engine.execute("genmove w")) == "F6"
    assert "search" not in engine.holder  # no search was built
    assert "opening book" in engine.log.getvalue()
    assert body(engine.execute("genmove b")) == "C3"  # out of the book: the search answers


def test_the_book_foogo_gtp_checks_at_start_is_the_one_its_genmove_plays(tmp_path, monkeypatch):
    reads = []
    real = bk_.load_book
    monkeypatch.setattr(bk_, "load_book", lambda path: reads.append(path) or real(path))
    engine = book_engine(one_entry_book(tmp_path, [], BLACK, "E5"), script=["C3"])
    book = engine.open_book()  # what `foogo gtp` does at start: a bad book is refused there
    assert engine.open_book() is book and body(engine.execute("genmove b")) == "E5"
    assert len(reads) == 1  # read once (it was parsed again at the first genmove)
    assert book_engine(None).open_book() is None
    # and `foogo gtp` itself: the shipped book checked at start, then its first move (E5), one read
    from foogo.gtp.command import run

    reads.clear()
    monkeypatch.setattr("sys.stdin", io.StringIO("genmove b\nquit\n"))
    assert run(configure_parser(argparse.ArgumentParser()).parse_args(["--no-warm-up"])) == 0
    assert reads == [bk_.BOOK_PATH]


def test_gtp_without_a_book_or_with_a_bad_one_searches(tmp_path):
    engine = book_engine(None, script=["C3"])
    assert body(engine.execute("genmove b")) == "C3"
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    engine = book_engine(str(bad), script=["C3", "C4"])
    assert body(engine.execute("genmove b")) == "C3"
    assert body(engine.execute("genmove w")) == "C4"
    assert engine.log.getvalue().count("not used") == 1  # logged once


def test_gtp_book_is_not_used_under_another_komi(tmp_path):
    engine = book_engine(one_entry_book(tmp_path, [], BLACK, "E5"), script=["C3"])
    ok(engine, "komi 0.5")
    assert body(engine.execute("genmove b")) == "C3"
    # the user hears why, once for each other setting (it was silent: a 19x19 game just never used the book)
    assert engine.log.getvalue().count("is for 9x9, komi 7: not used on 9x9, komi 0.5") == 1


def test_gtp_book_for_another_size_is_logged_once_per_setting(tmp_path):
    engine = book_engine(one_entry_book(tmp_path, [], BLACK, "C7"), script=["C3", "D4", "E5", "F6"])
    ok(engine, "boardsize 13")
    assert body(engine.execute("genmove b")) == "C3"
    assert body(engine.execute("genmove w")) == "D4"
    ok(engine, "boardsize 9")
    ok(engine, "clear_board")
    assert body(engine.execute("genmove b")) == "C7"  # back on the book's setting: the book answers
    log = engine.log.getvalue()
    assert log.count("not used on 13x13, komi 7") == 1, log


def test_foogo_gtp_plays_the_shipped_book_unless_told_not_to():
    parser = configure_parser(argparse.ArgumentParser())
    assert parser.parse_args([]).book == bk_.BOOK_PATH  # on by default since the stack's confirming block
    assert parser.parse_args(["--no-book"]).no_book
    assert parser.parse_args(["--book"]).book == bk_.BOOK_PATH
    assert parser.parse_args(["--book", "mine.json"]).book == "mine.json"
    assert parser.parse_args(["--book", "--no-book"]).no_book


def test_a_book_nested_too_deeply_or_not_a_regular_file_is_a_clear_error(tmp_path):
    with pytest.raises(ValueError, match="nested too deeply"):  # a RecursionError failed every genmove
        bk_.parse_book(b"[" * 100_000 + b"]" * 100_000)
    fifo = tmp_path / "book.fifo"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="not a regular file"):  # opening it waited for a writer for ever
        bk_.load_book(str(fifo))


@pytest.mark.parametrize("content", [None, b"{", b'{"format": 1, "size": 1' + b"0" * 400 + b'}'])
def test_foogo_gtp_refuses_a_bad_book_at_start(tmp_path, capsys, content):
    from foogo.gtp.command import run

    path = tmp_path / "book.json"
    if content is not None:
        path.write_bytes(content)
    args = configure_parser(argparse.ArgumentParser()).parse_args(["--book", str(path), "--no-warm-up"])
    assert run(args) == 2
    err = capsys.readouterr().err
    assert err.startswith("foogo gtp: ") and "Traceback" not in err, err
