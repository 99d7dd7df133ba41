"""Game and its SGF as a review from Python found them (2026-12-06): each test fails without its fix. Bad
input is one line naming it and changes nothing; what to_sgf writes, load_sgf reads back."""

import itertools
import tracemalloc

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from foogo import Game, game_sgf
from foogo.game import GameError, SgfError


def state(game):
    return (game.state_key(), dict(game._seen), game.handicap, game.komi, game.rules)


def test_a_setup_after_a_handicap_has_no_handicap():
    game = Game(9)
    game.fixed_handicap(4)
    game.setup(["E5"], ["D4"], to_move="b")
    assert game.handicap == 0 and "HA[" not in game.to_sgf()  # HA[4] was written beside AB[ee]AW[df]


def white_to_move_on_an_empty_board():
    game = Game(9)
    game.setup(to_move="w")
    return game


@pytest.mark.parametrize("make", [
    white_to_move_on_an_empty_board,  # PL was written with setup stones only: reloaded, black was to move
    lambda: Game(9, komi=1e-7),  # written as KM[0]
    lambda: Game(9, komi=1 / 3),
])
def test_to_sgf_and_load_sgf_round_trip(make):
    game = make()
    again = Game(9, komi=3)
    again.load_sgf_bytes(game.to_sgf())
    assert again.to_move == game.to_move and again.komi == game.komi and again.state_key() == game.state_key()


def test_the_rules_of_ru_are_read_so_a_tromp_taylor_suicide_reloads():
    game = Game(5, rules="tt")
    game.setup(["A1"], ["A2", "B2", "C1"])
    game.play("b", "B1")  # a two-stone suicide: legal under Tromp-Taylor only
    again = Game(5)
    again.load_sgf_bytes(game.to_sgf())  # was "SGF move 1 (B B1) is illegal: ... suicide"
    assert again.rules == "tromp-taylor" and again.state_key() == game.state_key()
    kept = Game(9, rules="tt")
    kept.load_sgf_bytes(b"(;SZ[9]RU[Japanese];B[ee])")  # rules foogo lacks: the game's own are kept
    assert kept.rules == "tromp-taylor"
    forced = Game(5)  # rules given win over the file's (foogo gtp's --rules): the suicide is illegal there
    with pytest.raises(SgfError, match="suicide"):
        forced.load_sgf_bytes(game.to_sgf(), rules="chinese")
    assert forced.rules == "chinese" and forced.history == []


@pytest.mark.parametrize("data, message", [
    (b"(;GM[2]SZ[9];B[ee])", r"^unsupported SGF: GM\[2\] is not Go$"),
    (b"(;FF[99]SZ[9];B[ee])", r"^unsupported SGF: FF\[99\] is not an SGF format 1..4$"),
    (b"(;SZ[9]KM[inf])", r"^corrupt SGF: KM\[inf\] is not a finite number$"),
    (b"(;SZ[9]HA[abc])", r"^corrupt SGF: HA\[abc\] is not a number$"),  # it was read as no handicap
    (b"(;SZ[9]AB[aa]AW[aa])", r"the setup names A9 in both AB and AW"),  # white's stone was kept
    (b"(;SZ[9];B[e])", r"^corrupt SGF node 1: B\[e\] holds a point off the board"),  # "not enough values to unpack"
    (b"(;SZ[9];AB[ee][zz])", r"^corrupt SGF node 1: AB\[ee\]\[zz\] holds a point off the board"),
])
def test_an_sgf_that_is_not_a_go_game_or_says_a_thing_twice_is_refused(data, message):
    game = Game(9)
    game.play("b", "C3")
    before = state(game)
    with pytest.raises(SgfError, match=message):
        game.load_sgf_bytes(data)
    assert state(game) == before


def test_an_unknown_character_set_does_not_refuse_the_game():
    game = Game(9)
    game.load_sgf_bytes(b"(;SZ[9]CA[klingon]C[qapla];B[ee])")  # "corrupt SGF: unknown encoding: klingon"
    assert len(game.history) == 1


def test_bad_arguments_are_one_line_naming_them_and_change_nothing(tmp_path):
    game = Game(9)
    game.play("b", "E5")
    before = state(game)
    refused = [
        (lambda: game.undo(0), GameError, "the moves to undo must be 1 or more"),  # "only 1 played"
        (lambda: game.setup("A1"), TypeError, "setup stones are a list of points, not 'A1'"),  # read letter by letter
        (lambda: game.setup(None), TypeError, "setup stones are a list of points, not None"),
        (lambda: game.final_score(playouts="10"), TypeError, "playouts must be a whole number"),
        (lambda: game.final_score(playouts=0), ValueError, "playouts must be from 1"),  # no dead stones, silently
        (lambda: game.dead_stones(seed="a"), TypeError, "seed must be a whole number"),
        (lambda: game.load_sgf(None), TypeError, "an SGF path is a str or a path"),
        (lambda: game.load_sgf("a\0b"), SgfError, "cannot read 'a\\x00b': embedded null byte"),
        (lambda: game.load_sgf(tmp_path / "x.sgf", max_bytes=-1), SgfError, "size limit must be 0 or more"),
        (lambda: game.undo(10**5000), GameError, "an integer of 5001 digits"),  # Python's own 4300-digit error
        (lambda: game.play("x" * 100_000, "A1"), ValueError, "got 'xxx"),
        (lambda: Game(10**5000), ValueError, "an integer of 5001 digits"),
        (lambda: Game(9, rules="j" * 100_000), ValueError, "unknown rules 'jjj"),
        (lambda: game.load_sgf("x" * 100_000), SgfError, "cannot read 'xxx"),
    ]
    for call, kind, text in refused:
        with pytest.raises(kind) as error:
            call()
        assert text in str(error.value) and len(str(error.value)) < 200, str(error.value)[:300]
        assert "\n" not in str(error.value)
        assert state(game) == before


def test_set_free_handicap_reads_no_more_than_a_board_of_vertices():
    game = Game(9)
    with pytest.raises(ValueError, match="bad vertex list"):
        game.set_free_handicap(itertools.repeat("A1"))  # an endless iterable never ended
    assert game.is_empty() and game.handicap == 0


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet="();[]\\ab", max_size=8), st.text(alphabet="();[]\\ab", max_size=60), st.integers(1, 6))
def test_structure_counted_a_chunk_at_a_time_is_the_whole_count(junk, text, chunk):
    data = junk.encode() + b"(;" + text.encode()  # what comes before the first "(;" is skipped, as sgfmill does
    start = game_sgf._START.search(data).start()
    structure = game_sgf._VALUE.sub(b"", data[start:])  # the whole at once, as before
    whole = (structure.count(b";"), structure.count(b"("))
    old, game_sgf._STRUCTURE_CHUNK = game_sgf._STRUCTURE_CHUNK, chunk
    try:
        assert game_sgf._structure_counts(data, start) == whole
    finally:
        game_sgf._STRUCTURE_CHUNK = old


def test_counting_an_sgfs_nodes_takes_little_memory():
    # the values' removal, whole, built a piece for each gap: 214 MB for these 4 MB
    data = b"(;SZ[9]" + b";B[]" * 1_000_000 + b")"
    tracemalloc.start()
    try:
        with pytest.raises(SgfError, match="1000001 nodes"):
            Game(9).load_sgf_bytes(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 20 * 1024 * 1024, peak


def test_the_reviews_of_the_day_s_change(tmp_path):
    path = tmp_path / "big.sgf"
    path.write_bytes(b"(;SZ[9];B[ee];W[cc])")
    with pytest.raises(SgfError) as error:
        Game(9).load_sgf(path, max_bytes=5)
    assert str(error.value).startswith(f"'{path}' is 20 bytes, over the SGF size limit of 5")  # "cannot read ..."
    game = Game(9)
    with pytest.raises(ValueError, match="unknown rules 'go'"):  # "unsupported SGF", after reading the file
        game.load_sgf_bytes(b"(;SZ[9])", rules="go")
    with pytest.raises(SgfError, match="move limit must be 0 or more, got -1"):
        game.load_sgf_bytes(b"(;SZ[9];B[ee])", max_moves=-1)
    with pytest.raises(SgfError, match="an integer of 5001 digits"):
        game.load_sgf_bytes(b"(;SZ[9])", move_number=-10**5000)
    for bad in (lambda: Game(9, rules=10**5000), lambda: game.set_free_handicap(10**5000)):
        with pytest.raises((ValueError, TypeError), match="an integer of 5001 digits"):
            bad()
    for text in ("(;SZ[9]KM[1_0])", "(;SZ[9]HA[1_0])"):  # Python's float() and int() read "1_0" as 10
        with pytest.raises(SgfError, match="is not a"):
            game.load_sgf_bytes(text)
    assert game.history == [] and game.komi == 7.0


@pytest.mark.parametrize("ru, kept, rules", [
    (b"RU[Japanese]", "Japanese", "chinese"),  # rules foogo lacks: played under the game's, and the file's kept
    (b"RU[ chinese ]", "chinese", "chinese"),
    (b"RU[Tromp Taylor]", "Tromp Taylor", "tromp-taylor"),  # spelled as check_rules reads them
    (b"RU[TT]", "TT", "tromp-taylor"),
    (b"RU[AGA\\]\nrules\x1b[31m]", "AGA] rules [31m", "chinese"),  # one line, nothing a terminal acts on
    (b"RU[ ]", None, "chinese"),
    (b"", None, "chinese"),
    ("CA[UTF-8]RU[中国规则]".encode(), "中国规则", "chinese"),  # read in the file's own encoding (CA)
    ("CA[Shift_JIS]RU[日本ルール]".encode("shift_jis"), "日本ルール", "chinese"),
    ("RU[Japonés]".encode("latin-1"), "Japonés", "chinese"),  # without a CA, ISO-8859-1 (SGF's default)
    (("CA[UTF-8]RU[" + "é" * 45 + "]").encode(), "é" * 40, "chinese"),  # 40 characters, not 40 bytes
])
def test_the_files_ru_is_kept_so_that_rules_foogo_lacks_can_be_told(ru, kept, rules):
    game = Game(9)
    game.load_sgf_bytes(b"(;SZ[9]" + ru + b";B[ee])")
    assert game.rules == rules and game.sgf_rules == kept
    assert (game_sgf.sgf_rules_name(game.sgf_rules) or "chinese") == rules  # what the game plays under
    game.clear()
    assert game.sgf_rules is None and Game(9).sgf_rules is None


@pytest.mark.parametrize("engine_rules, ru, note", [
    ("chinese", "Japanese", "RU[Japanese]; foogo plays it under chinese rules"),
    ("tt", "Chinese", "RU[Chinese]; foogo plays it under tromp-taylor rules"),  # foogo's rules, not the engine's
    ("chinese", "Chinese", None),
    ("tt", "Tromp-Taylor", None),
    ("tromp-taylor", "tt", None),
    ("chinese", "", None),
])
def test_foogo_gtp_says_when_it_plays_a_file_under_rules_other_than_its_ru(tmp_path, engine_rules, ru, note):
    from gtp_double import make_engine

    path = tmp_path / "game.sgf"
    path.write_text(f"(;SZ[9]{'RU[' + ru + ']' if ru else ''};B[ee])")
    engine = make_engine(rules=engine_rules)
    assert engine.execute(f"loadsgf {path}") == "= white\n\n"
    said = [line for line in engine.log.getvalue().splitlines() if line.startswith("loadsgf:")]
    assert said == ([f"loadsgf: the file's rules are {note} (--rules)"] if note else []), said
