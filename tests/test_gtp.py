"""GTP conformance: framing, ids, preprocessing, every error word, state unchanged after errors,
colours out of turn, undo, handicap, showboard, scoring, SGF, options, and a hypothesis fuzz test.
Move generation uses a scripted search double (gtp_double.py), so these tests do not depend on the
search's strength or speed. Analysis, clocks and serving over pipes have files of their own."""

import argparse
import io
import os
import re
import subprocess
import sys
import threading
import time

import pytest
from gtp_double import (
    body,
    make_engine,
    ok,
    state,
    well_framed,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foogo.geometry import BLACK, EMPTY, WHITE
from foogo.gtp import MAX_LINE, configure_parser, main, preprocess


def test_success_and_failure_framing_with_ids():
    engine = make_engine()
    assert engine.execute("1 name") == "=1 foogo\n\n"
    assert engine.execute("name") == "= foogo\n\n"
    assert engine.execute("5 frobnicate") == "?5 unknown command\n\n"
    assert engine.execute("12 clear_board") == "=12\n\n"
    assert engine.execute("protocol_version") == "= 2\n\n"


def test_preprocessing_drops_controls_comments_and_tabs():
    engine = make_engine()
    assert engine.execute("3\tna\x01me # what is your name") == "=3 foogo\n\n"
    assert engine.execute("name\r\n") == "= foogo\n\n"
    assert engine.execute("   # only a comment") is None
    assert engine.execute("") is None
    assert engine.execute("\x02\x03") is None
    assert preprocess("\tplay\tb d4  #x") == "play b d4"


def test_malformed_lines_get_an_error():
    engine = make_engine()
    assert engine.execute("42") == "?42 syntax error: id without a command\n\n"
    assert engine.execute(b"na\xffme\n").startswith("? syntax error")
    assert engine.execute(b"7 na\xffme\n").startswith("?7 syntax error")
    long_line = "8 play b " + "A" * MAX_LINE
    assert engine.execute(long_line).startswith("?8 syntax error")


def test_multiline_responses_have_no_empty_line():
    engine = make_engine()
    for command in ["list_commands", "showboard", "gogui-analyze_commands", "foogo-ownership", "printsgf"]:
        response = engine.execute(command)
        assert well_framed(response), command


def test_known_command_and_list_commands_agree():
    engine = make_engine()
    listed = engine.execute("list_commands")[2:-2].split("\n")
    required = ["protocol_version", "name", "version", "known_command", "list_commands", "quit", "boardsize",
                "clear_board", "komi", "play", "genmove", "undo", "showboard", "final_score",
                "final_status_list", "time_settings", "time_left", "kgs-time_settings", "kgs-genmove_cleanup",
                "fixed_handicap", "place_free_handicap", "set_free_handicap", "loadsgf", "printsgf",
                "reg_genmove", "is_legal", "all_legal", "list_stones", "gogui-analyze_commands", "lz-analyze"]
    assert set(required) <= set(listed)
    for command in listed:
        assert engine.execute(f"known_command {command}") == "= true\n\n"
    assert engine.execute("known_command foo") == "= false\n\n"


def test_error_words_are_exact():
    engine = make_engine()
    assert engine.execute("foo").startswith("? unknown command")
    assert engine.execute("boardsize 26").startswith("? unacceptable size")
    assert engine.execute("boardsize 1").startswith("? unacceptable size")
    assert engine.execute("boardsize nine").startswith("? syntax error")
    assert engine.execute("komi a").startswith("? syntax error")
    assert engine.execute("play b").startswith("? syntax error")
    assert engine.execute("play red D4").startswith("? syntax error")
    assert engine.execute("play b 4D").startswith("? syntax error")
    assert engine.execute("play b Z19").startswith("? illegal move")
    assert engine.execute("play b D10").startswith("? illegal move")
    assert engine.execute("undo").startswith("? cannot undo")
    assert engine.execute("loadsgf /nonexistent/game.sgf").startswith("? cannot load file")
    ok(engine, "play b D4")
    assert engine.execute("play w D4").startswith("? illegal move")
    assert engine.execute("final_status_list dying").startswith("? syntax error")


def test_cannot_score_when_scoring_fails(monkeypatch):
    engine = make_engine()

    def broken(*args, **kwargs):
        raise RuntimeError("no playouts today")

    monkeypatch.setattr("foogo.game_score.owner_shares", broken)
    assert engine.execute("final_score").startswith("? cannot score")
    assert engine.execute("final_status_list dead").startswith("? cannot score")


def test_a_bug_in_a_handler_is_an_internal_error_not_a_crash(monkeypatch):
    engine = make_engine()
    ok(engine, "play b D4")
    before = state(engine)

    def boom(args):
        engine.game.play(WHITE, "E5")  # half-done work must be rolled back
        raise KeyError("bug")

    engine.commands["showboard"] = boom
    response = engine.execute("9 showboard")
    assert response.startswith("?9 internal error: KeyError")
    assert well_framed(response)
    assert state(engine) == before
    assert "Traceback" in engine.log.getvalue()


@pytest.mark.parametrize("word", ["1_000", "6_5", "\u0667.5", "\uff17", "infinity", "nan", "0x10", "7.5.", "--7", ".",
                                  "1e"])
def test_komi_is_an_ascii_decimal_number(word):
    engine = make_engine()
    assert engine.execute(f"komi {word}").startswith("? syntax error"), word
    assert engine.game.komi == 7.0


def test_a_long_run_of_digits_is_refused_at_once():
    # the number pattern split a run of digits every way before failing: 8,000 digits and an "x" took 2.3 s
    engine = make_engine()
    start = time.process_time()
    for word in ("1" * 8000 + "x", "1" * 4000 + "." + "1" * 4000 + "x", "1" * 4000 + "e" + "1" * 4000 + "x"):
        assert engine.execute(f"komi {word}").startswith("? syntax error")
    assert time.process_time() - start < 0.5 and engine.game.komi == 7.0


@pytest.mark.parametrize("word, value", [("6.5", 6.5), ("+7", 7.0), ("-0", 0.0), (".5", 0.5), ("7.", 7.0),
                                         ("1e2", 100.0)])
def test_komi_reads_decimal_spellings(word, value):
    engine = make_engine()
    ok(engine, f"komi {word}")
    assert engine.game.komi == value


def test_state_is_unchanged_after_each_error():
    engine = make_engine()
    for line in ["play b D4", "play w E5", "komi 6.5"]:
        ok(engine, line)
    before = state(engine)
    for line in ["play b D4", "play b Z1", "play x A1", "boardsize 0", "boardsize 99", "komi inf", "komi 1e308", "komi",
                 "fixed_handicap 4", "place_free_handicap 3", "set_free_handicap A1 A1", "set_free_handicap",
                 "loadsgf /nonexistent", "time_settings -1 0 0", "time_left b x 0", "kgs-time_settings foo",
                 "kgs-time_settings byoyomi 1 2", "genmove", "genmove purple", "reg_genmove", "is_legal b",
                 "all_legal", "list_stones", "final_status_list", "lz-analyze blue", "undo 2",
                 "known_command", "protocol_version 3"]:
        response = engine.execute(line)
        assert response.startswith("?"), line
        assert state(engine) == before, line


def test_colours_are_honoured_out_of_turn():
    engine = make_engine()
    ok(engine, "play w D4")
    ok(engine, "play w E5")
    assert engine.execute("list_stones white") == "= D4 E5\n\n"
    assert engine.execute("list_stones black") == "= \n\n" or engine.execute("list_stones black") == "=\n\n"
    assert body(engine.execute("genmove w")) == "A1"
    assert engine.holder["search"].calls[-1]["color"] == WHITE
    assert engine.execute("list_stones w") == "= A1 D4 E5\n\n"


def test_genmove_plays_the_search_move_and_passes_legal_moves():
    engine = make_engine(script=["E5", "pass", "resign"])
    assert body(engine.execute("genmove b")) == "E5"
    call = engine.holder["search"].calls[-1]
    assert engine.game.geometry.parse("E5") in call["legal"] and len(call["legal"]) == 81
    assert call["komi"] == 7.0 and call["time_budget"] is None
    assert body(engine.execute("genmove w")) == "pass"
    assert body(engine.execute("genmove b")) == "resign"
    assert len(engine.game.history) == 2  # resign does not change the board
    assert "playouts" in engine.log.getvalue() and "win rate" in engine.log.getvalue()


def test_genmove_passes_when_the_search_answers_an_illegal_move():
    engine = make_engine(script=["E5"])
    ok(engine, "play w E5")
    assert body(engine.execute("genmove b")) == "pass"


def test_genmove_never_offers_a_superko_repeat():
    engine = make_engine()
    ok(engine, "boardsize 4")
    for line in ["play b B4", "play b A3", "play b B2", "play w C4", "play w B3", "play w D3", "play w C2",
                 "play b C3", "play w pass", "play b pass"]:
        ok(engine, line)
    assert engine.execute("is_legal w B3") == "= 0\n\n"
    assert "B3" not in body(engine.execute("all_legal w")).split()
    engine.execute("genmove w")
    assert engine.game.geometry.parse("B3") not in engine.holder["search"].calls[-1]["legal"]


def test_reg_genmove_does_not_change_the_state():
    engine = make_engine(script=["C3"])
    before = state(engine)
    assert body(engine.execute("reg_genmove b")) == "C3"
    assert state(engine) == before


def test_searches_for_moves_not_played_commit_nothing():
    # reg_genmove and foogo-visits stepped the game's dynamic komi and playout bank as a genmove does
    engine = make_engine()
    for command in ("reg_genmove b", "foogo-visits", "genmove b"):
        assert engine.execute(command).startswith("="), command
    assert [call["commit"] for call in engine.holder["search"].calls] == [False, False, True]


def test_undo_takes_back_moves_one_at_a_time():
    engine = make_engine()
    ok(engine, "play b D4")
    start = state(engine)
    ok(engine, "play w E5")
    ok(engine, "play w pass")
    ok(engine, "undo")
    ok(engine, "undo")
    assert state(engine) == start
    ok(engine, "undo")
    assert engine.execute("undo").startswith("? cannot undo")


def test_is_legal_all_legal_and_list_stones():
    engine = make_engine()
    ok(engine, "boardsize 3")
    ok(engine, "play b B2")
    assert engine.execute("is_legal w B2") == "= 0\n\n"
    assert engine.execute("is_legal w A1") == "= 1\n\n"
    assert engine.execute("is_legal w J9") == "= 0\n\n"
    assert body(engine.execute("all_legal w")).split() == ["A1", "B1", "C1", "A2", "C2", "A3", "B3", "C3"]
    assert engine.execute("list_stones b") == "= B2\n\n"


def test_boardsize_and_clear_board_empty_the_board_and_keep_komi():
    engine = make_engine()
    ok(engine, "komi 0.5")
    ok(engine, "play b D4")
    ok(engine, "boardsize 13")
    assert engine.game.size == 13 and engine.game.komi == 0.5 and engine.game.is_empty()
    ok(engine, "play b D4")
    ok(engine, "clear_board")
    assert engine.game.size == 13 and engine.game.is_empty() and engine.game.history == []


GNUGO_SHOWBOARD = """=
   A B C D E F G H J
 9 . . . . . . . . . 9
 8 . . . . . . . . . 8
 7 . . + . . . + . . 7
 6 . . . . . . . . . 6
 5 . . . . O . . . . 5
 4 . . . . . . . . . 4
 3 . . + . . . + . . 3
 2 X . . . . . . . . 2     WHITE (O) has captured 0 stones
 1 . X . . . . . . . 1     BLACK (X) has captured 1 stones
   A B C D E F G H J

"""


def test_showboard_matches_gnugo_layout():
    engine = make_engine()
    for line in ["play b A2", "play w A1", "play b B1", "play w E5"]:
        ok(engine, line)
    response = engine.execute("showboard")
    assert [line.rstrip() for line in response.split("\n")] == [line.rstrip() for line in GNUGO_SHOWBOARD.split("\n")]


def test_showboard_star_points_on_19x19_follow_gnugo():
    engine = make_engine()
    ok(engine, "boardsize 19")
    rows = engine.execute("showboard").split("\n")
    assert rows[5].startswith("16 . . . + . . . . . + . . . . . + . . . 16")
    assert rows[11].endswith("10     BLACK (X) has captured 0 stones")


FINISHED = [
    "play b B7", "play b D7", "play b A6", "play b B6", "play b C6", "play b D6", "play b D5",
    "play b A4", "play b B4", "play b C4", "play b D4", "play b D3", "play b A2", "play b B2", "play b C2",
    "play b D2", "play b B1", "play b D1", "play b F2",
    "play w E7", "play w E6", "play w F6", "play w G6", "play w E5", "play w E4", "play w F4", "play w G4",
    "play w B3", "play w E3", "play w G3", "play w E2", "play w G2", "play w E1", "play w G1",
]


def test_final_score_and_status_lists_on_a_finished_game():
    engine = make_engine()
    ok(engine, "boardsize 7")
    ok(engine, "komi 0.5")
    for line in FINISHED:
        ok(engine, line)
    assert engine.execute("final_score") == "= B+6.5\n\n"
    assert engine.execute("final_status_list dead") == "= F2\nB3\n\n"
    assert engine.execute("final_status_list seki") in ("= \n\n", "=\n\n")
    alive = engine.execute("final_status_list alive")
    assert well_framed(alive) and len(alive.strip().split("\n")) == 2


def test_kgs_genmove_cleanup_captures_dead_stones_instead_of_passing():
    engine = make_engine(script=["pass", "pass"])
    ok(engine, "boardsize 7")
    for line in FINISHED:
        ok(engine, line)
    move = body(engine.execute("kgs-genmove_cleanup w"))
    assert move in ("F3", "F1")  # a liberty of the dead black stone at F2
    assert body(engine.execute("genmove b")) == "pass"  # plain genmove keeps the search's pass


def test_genmove_tells_the_search_the_handicap_and_the_moves_since_it():
    engine = make_engine()
    ok(engine, "fixed_handicap 3")
    ok(engine, "genmove w")
    ok(engine, "play b D4")
    ok(engine, "genmove w")
    calls = engine.holder["search"].calls
    assert [(c["handicap"], c["moves"]) for c in calls] == [(3, 0), (3, 2)]


def test_fixed_handicap_answers_the_vertices_and_white_moves_next():
    engine = make_engine()
    assert body(engine.execute("fixed_handicap 5")).split() == ["G7", "C3", "C7", "G3", "E5"]
    assert engine.game.to_move == WHITE
    assert engine.execute("fixed_handicap 2").startswith("? board not empty")


@pytest.mark.parametrize("line", ["fixed_handicap 1", "fixed_handicap 10", "place_free_handicap 1",
                                  "place_free_handicap 81"])
def test_handicap_refuses_an_invalid_number_of_stones(line):
    engine = make_engine()
    assert engine.execute(line).startswith("? invalid number of stones")
    assert engine.game.is_empty()


def test_place_and_set_free_handicap():
    engine = make_engine()
    vertices = body(engine.execute("place_free_handicap 3")).split()
    assert len(set(vertices)) == 3
    ok(engine, "clear_board")
    ok(engine, "set_free_handicap D4 E5 f6")
    assert engine.execute("list_stones b") == "= D4 E5 F6\n\n"
    ok(engine, "clear_board")
    assert engine.execute("set_free_handicap D4 D4").startswith("? bad vertex list")
    assert engine.execute("set_free_handicap D4").startswith("? bad vertex list")
    assert engine.execute("set_free_handicap D4 Q16").startswith("? syntax error")
    assert engine.game.is_empty()


def test_printsgf_and_loadsgf_round_trip(tmp_path):
    engine = make_engine()
    for line in ["komi 0.5", "fixed_handicap 2", "play w E5", "play b D4", "play w pass", "play b C4"]:
        ok(engine, line)
    path = tmp_path / "game.sgf"
    ok(engine, f"printsgf {path}")
    assert engine.execute("printsgf")[2:-2] == path.read_text().strip()
    before = engine.game.state_key()
    other = make_engine()
    assert other.execute(f"loadsgf {path}") == "= white\n\n"
    assert other.game.state_key() == before
    assert other.execute(f"loadsgf {path} 3") == "= white\n\n"  # before move 3: W E5, B D4 played
    assert len(other.game.history) == 2


def test_loadsgf_keeps_the_moves_before_a_setup_for_undo_and_printsgf(tmp_path):
    path = tmp_path / "edited.sgf"
    path.write_bytes(b"(;SZ[9]KM[7];B[ee];W[cc];AB[gg]AE[cc]PL[W];W[dd])")
    engine = make_engine()
    assert engine.execute(f"loadsgf {path}") == "= black\n\n"
    ok(engine, "undo")  # W D6
    ok(engine, "undo")  # the setup: C7 is white again, G3 empty, and black to move as before it
    assert engine.game.board.color_at("C7") == WHITE and engine.game.board.color_at("G3") == EMPTY
    assert engine.game.to_move == BLACK and engine.execute("undo") == "=\n\n"
    assert engine.game.board.color_at("C7") == EMPTY and engine.game.board.color_at("E5") == BLACK
    again = make_engine()
    again.execute(f"loadsgf {path}")
    assert ";W[cc];AB[gg]AE[cc]PL[W];W[dd]" in again.execute("printsgf").replace("\n", "")


def test_loadsgf_of_a_corrupt_file_keeps_the_game(tmp_path):
    engine = make_engine()
    ok(engine, "play b D4")
    before = state(engine)
    path = tmp_path / "bad.sgf"
    path.write_bytes(b"(;SZ[9];B[ee];W[ee])")
    assert engine.execute(f"loadsgf {path}").startswith("? cannot load file")
    path.write_bytes(b"\x00\x01garbage")
    assert engine.execute(f"loadsgf {path}").startswith("? cannot load file")
    assert state(engine) == before


def test_a_failure_that_echoes_a_files_bytes_is_one_printable_line(tmp_path):
    # the SGF's own bytes reach the reply: a "\r" or an escape there broke a client that reads line by line
    engine = make_engine()
    ok(engine, "play b D4")
    before = state(engine)
    path = tmp_path / "bad.sgf"
    for data, echoed in ((b"(;GM[x\r\ry]SZ[9];B[ee])", "GM[x y]"),
                         (b"(;SZ[9]PL[x\r\ry\x1b[2Jz\x07])", "PL[x y [2Jz ]")):
        path.write_bytes(data)
        response = engine.execute(f"loadsgf {path}")
        line = response.removesuffix("\n\n")
        assert line.startswith("? cannot load file") and echoed in line, response
        assert line.isprintable(), response
    assert state(engine) == before


def test_loadsgf_refuses_what_is_not_a_regular_file_without_reading_it(tmp_path):
    engine = make_engine()
    ok(engine, "play b D4")
    before = state(engine)
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)  # nobody writes to it: reading would wait for ever
    for path in (fifo, tmp_path, "/dev/zero", "/dev/stdin"):
        response = engine.execute(f"loadsgf {path}")
        assert response.startswith("? cannot load file") and "not a regular file" in response, response
    assert state(engine) == before


def test_a_failure_reply_is_cut_to_max_failure_characters():
    from foogo.gtp.protocol import MAX_FAILURE, frame

    reply = frame(False, "7", "word " * 10_000)
    assert reply.startswith("?7 word word") and reply.endswith("...\n\n") and len(reply) == len("?7 ") + MAX_FAILURE + 2
    assert frame(False, None, "short") == "? short\n\n"
    assert frame(True, None, "x" * 5000) == "= " + "x" * 5000 + "\n\n"  # a success (showboard, printsgf) whole


def test_printsgf_refuses_what_is_not_a_regular_file_without_waiting(tmp_path):

    engine = make_engine()
    ok(engine, "play b D4")
    before = state(engine)
    fifo = tmp_path / "game.fifo"
    os.mkfifo(fifo)  # nobody reads it: opened to write, it waited for ever
    for path in (fifo, tmp_path, "/dev/null"):
        replies = []
        line = f"printsgf {path}"
        worker = threading.Thread(target=lambda out=replies, line=line: out.append(engine.execute(line)), daemon=True)
        worker.start()
        worker.join(30)
        assert replies == ["? cannot save file: not a regular file\n\n"], (path, replies)
    assert state(engine) == before and os.stat("/dev/null").st_size == 0


def test_loadsgf_limits_name_themselves_and_are_options(tmp_path):
    big = tmp_path / "big.sgf"
    big.write_bytes(b"(;SZ[9]" + b";B[];W[]" * 20_000 + b")")  # 160 KB, 40,000 passes
    engine = make_engine(sgf_max_bytes=100_000)
    before = state(engine)
    response = engine.execute(f"loadsgf {big}")
    assert "over the SGF size limit of 100000" in response and state(engine) == before
    engine = make_engine(sgf_max_moves=1000)
    response = engine.execute(f"loadsgf {big}")
    assert "40000 nodes after the root, over the SGF move limit of 1000" in response
    small = tmp_path / "small.sgf"
    small.write_bytes(b"(;SZ[9]" + b";B[];W[]" * 400 + b")")
    assert engine.execute(f"loadsgf {small}") == "= black\n\n"
    assert len(engine.game.history) == 800


def test_loadsgf_reads_in_chunks_under_any_size_limit(tmp_path, monkeypatch):
    # one read of the whole limit allocated it first: --sgf-max-bytes 2**63 failed every loadsgf (OverflowError)
    import foogo.game_sgf as game_sgf

    monkeypatch.setattr(game_sgf, "_READ_CHUNK", 1000)  # the 3.2 KB file below in four reads
    small = tmp_path / "small.sgf"
    small.write_bytes(b"(;SZ[9]" + b";B[];W[]" * 400 + b")")
    engine = make_engine(sgf_max_bytes=2**63)
    assert engine.execute(f"loadsgf {small}") == "= black\n\n" and len(engine.game.history) == 800
    engine = make_engine(sgf_max_bytes=2000)
    before = state(engine)
    assert "over the SGF size limit of 2000" in engine.execute(f"loadsgf {small}") and state(engine) == before
    with pytest.raises(TypeError, match="size limit"):
        engine.game.load_sgf(str(small), max_bytes=1e6)


def test_gtp_command_line_takes_the_limits():
    args = configure_parser(argparse.ArgumentParser()).parse_args(
        ["--sgf-max-bytes", "5000", "--sgf-max-moves", "7", "--memory", "100"])
    assert (args.sgf_max_bytes, args.sgf_max_moves, args.memory) == (5000, 7, 100)
    assert configure_parser(argparse.ArgumentParser()).parse_args([]).memory is None  # by board size


def test_gtp_plays_its_strongest_setting_by_default(monkeypatch):
    # heavy playouts and every core: a GUI user who types `foogo gtp --time 5` gets foogo's best
    monkeypatch.setattr("os.sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    args = configure_parser(argparse.ArgumentParser()).parse_args([])
    assert (args.policy, args.threads) == ("heavy", 3)
    args = configure_parser(argparse.ArgumentParser()).parse_args(["--policy", "light", "--threads", "1"])
    assert (args.policy, args.threads) == ("light", 1)


def test_command_line_options_reach_the_engine(monkeypatch, capsys):
    import argparse
    parser = configure_parser(argparse.ArgumentParser())
    args = parser.parse_args(["--rules", "tromp-taylor", "--playouts", "500", "--threads", "2", "--seed", "3",
                              "--no-resign"])
    assert (args.rules, args.playouts, args.threads, args.seed, args.no_resign) == ("tromp-taylor", 500, 2, 3, True)
    monkeypatch.setattr("sys.stdin", io.StringIO("name\nquit\n"))
    assert main(["--time", "1.5"]) == 0
    assert capsys.readouterr().out == "= foogo\n\n=\n\n"


def test_engine_options_become_the_search_config():
    engine = make_engine(rules="tromp-taylor", playouts=200, threads=2, seed=5, resign=False, memory_mb=64)
    engine.execute("genmove b")
    options = engine.holder["search"].options
    assert options == dict(playouts=200, seconds=None, threads=2, policy="light", seed=5, resign_threshold=None,
                           memory_mb=64)
    assert engine.game.rules == "tromp-taylor"


def test_tuning_options_reach_the_search_config_and_bad_ones_are_refused(monkeypatch, capsys):
    import foogo.gtp.command as command
    seen = {}

    class Recorder(command.GtpEngine):
        def __init__(self, **kwargs):
            seen.update(kwargs["tuning"])
            super().__init__(**kwargs)

    monkeypatch.setattr(command, "GtpEngine", Recorder)
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["--no-warm-up", "--expand", "16", "--prior", "30", "--equiv", "3000", "--uct", "0.2",
                 "--parallel", "tree", "--crit", "1.1", "--crit-min", "500", "--score-weight", "0.02",
                 "--late-nakade", "0.75", "--self-atari-rate", "1"]) == 0
    assert seen == dict(expand_threshold=16.0, prior=30.0, equiv=3000.0, uct=0.2, parallel="tree", crit=1.1,
                        crit_min_visits=500, score_weight=0.02, late_nakade=0.75, self_atari_rate=1.0)
    engine = make_engine(tuning=seen)
    engine.execute("genmove b")
    assert engine.holder["search"].options["equiv"] == 3000.0
    capsys.readouterr()
    for flags in (["--equiv", "0"], ["--prior", "-1"], ["--crit", "-0.5"]):
        assert main(["--no-warm-up", *flags]) == 2
        assert f"{flags[0]} must be a finite number" in capsys.readouterr().err
    for flags in (["--uct", "nan"], ["--equiv", "inf"], ["--prior", "1_0"], ["--crit-min", "\u0665"]):
        assert main(["--no-warm-up", *flags]) == 2  # argparse reads numbers as ASCII decimals only
        assert f"argument {flags[0]}: '{flags[1]}' is not a" in capsys.readouterr().err
    assert main(["--no-warm-up", "--crit-min", "-1"]) == 2
    assert "--crit-min must be a finite number >= 0, got -1" in capsys.readouterr().err
    for weight in ("-0.01", "0.5"):
        assert main(["--no-warm-up", "--score-weight", weight]) == 2
        assert "--score-weight must be a number in [0, 0.5)" in capsys.readouterr().err
    for share in ("-0.1", "1.5"):
        assert main(["--no-warm-up", "--late-nakade", share]) == 2
        assert "--late-nakade must be a share of the board's points in [0, 1]" in capsys.readouterr().err
        assert main(["--no-warm-up", "--self-atari-rate", share]) == 2
        assert f"--self-atari-rate must be a share in [0, 1], got {float(share)}" in capsys.readouterr().err


def test_thread_counts_and_move_times_without_end_are_refused(capsys):
    for flags, message in ((["--threads", "1000000"], "--threads must be from 1 to 256"),
                           (["--time", "inf"], "argument --time: 'inf' is not a number"),
                           (["--time", "1e300"], "--time must be positive seconds"), (["--time", "nan"], "--time"),
                           (["--seed", str(2**64)], "--seed must be from -2**63"),  # it played as seed 0 did
                           (["--threads", "9" * 4000], "got an integer of 4000 digits"),  # not echoed whole
                           (["--prior", "1e7"], "--prior must be at most 1e+06")):
        assert main(["--no-warm-up", *flags]) == 2
        assert message in capsys.readouterr().err


def test_playout_counts_and_memory_without_end_are_refused(capsys, monkeypatch):
    """--playouts past MAX_PLAYOUTS searched until killed, and --memory past the machine's memory was a MemoryError
    traceback at the first genmove: both are refused in one line before the engine starts, by SearchConfig's
    own check in the command line's names."""
    import foogo.search_config as search_config
    monkeypatch.setattr(search_config, "machine_memory_mb", lambda: 1000.0)
    for flags, message in ((["--playouts", "1" + "0" * 27], "--playouts must be from 1 to 1e+12"),
                           (["--playouts", "0"], "--playouts must be from 1"),
                           (["--memory", "1001"], "--memory must be at most this machine's memory, 1000 MB, "
                                                  "got 1001"),
                           (["--memory", "15"], "--memory must be at least 16 (MB), got 15"),
                           (["--threads", "0"], "--threads must be from 1 to 256, got 0"),
                           (["--resign-threshold", "2"], "--resign-threshold must be")):
        assert main(["--no-warm-up", *flags]) == 2
        assert message in capsys.readouterr().err
    monkeypatch.setattr("sys.stdin", io.StringIO("quit\n"))
    assert main(["--no-warm-up", "--memory", "1000", "--playouts", str(10**12)]) == 0


CORPUS = [
    "play b D4", "play w E5", "play black pass", "genmove w", "undo", "boardsize 5", "boardsize 9",
    "clear_board", "komi 6.5", "fixed_handicap 2", "place_free_handicap 3", "set_free_handicap A1 B2",
    "is_legal b C3", "all_legal w", "list_stones b", "showboard", "time_settings 10 5 1", "time_left b 5 1",
    "kgs-time_settings byoyomi 10 5 3", "known_command play", "final_status_list dead", "reg_genmove b",
    "10 play b A1", "loadsgf /nonexistent.sgf 3", "lz-analyze b 1", "name", "version", "printsgf",
]


ALPHABET = "abcdefghjklmnopqrstuvwxyzABCDEFGHJKLMNOPQRSTUVWXYZ0123456789 \t#-+._/=\x00\x01\x7f\u00e9\ufffd"


@st.composite
def command_lines(draw):
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.text(ALPHABET, max_size=40))
    line = draw(st.sampled_from(CORPUS))
    if kind == 1:  # mutate: replace, insert or delete characters
        for _ in range(draw(st.integers(1, 4))):
            i = draw(st.integers(0, len(line)))
            op = draw(st.integers(0, 2))
            c = draw(st.sampled_from(ALPHABET))
            line = line[:i] + c + line[i + 1:] if op == 0 else line[:i] + c + line[i:] if op == 1 \
                else line[:i] + line[i + 1:]
        return line
    if kind == 2:  # shuffle the words
        return " ".join(draw(st.permutations(line.split())))
    return draw(st.binary(max_size=30))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(command_lines(), min_size=1, max_size=12))
def test_fuzzed_lines_get_framed_answers_and_errors_change_nothing(lines):
    engine = make_engine()
    for line in lines:
        text = preprocess(line if isinstance(line, str) else line.decode("utf-8", "ignore")) or ""
        if "printsgf" in text.split()[:2] and len(text.split()) > 1:
            continue  # printsgf FILE would write into the working directory
        before = state(engine)
        response = engine.execute(line)
        if response is None:
            assert preprocess(line if isinstance(line, str) else line.decode("utf-8", "replace")) is None
            assert state(engine) == before
            continue
        assert well_framed(response), (line, response)
        if response.startswith("?"):
            assert not response.startswith("? internal error"), (line, response)
            assert state(engine) == before, (line, response)


def test_no_resign_turns_a_resignation_into_a_pass():
    engine = make_engine(script=["resign"], resign=False)
    assert body(engine.execute("genmove b")) == "pass"


def test_real_search_genmove_plays_a_legal_move_and_reports(real_engine_factory):
    engine = real_engine_factory(playouts=300, seed=1)
    legal = set(body(engine.execute("all_legal b")).split())
    move = body(engine.execute("genmove b"))
    assert move in legal
    assert engine.execute("list_stones b") == f"= {move}\n\n"
    report = engine.log.getvalue().splitlines()[-1]
    assert "playouts" in report and "/s" in report and "win rate" in report and "pv" in report
    assert re.search(r"/s, CPU \d+\.\d\d s", report)  # the process's CPU time: bench/match_review.py reads it


@pytest.mark.parametrize("threads, parallel, iterations", [(1, "root", "run_iterations"),
                                                         (2, "tree", "run_shared_iterations")])
def test_the_warm_up_loads_every_kernel_a_game_runs_including_tree_reuse(threads, parallel, iterations):
    # in a fresh process, so that no other test has loaded them first; threads sharing one tree run a
    # kernel of their own
    code = (f"from foogo.gtp.command import warm_up; from foogo import tree; warm_up('light', {threads}, "
            f"'{parallel}'); print(len(tree.prune.signatures), len(tree.{iterations}.signatures), "
            "len(tree.expand.signatures))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=600, check=True)
    assert [int(n) >= 1 for n in out.stdout.split()] == [True, True, True]


NO_COMPILE_SESSION = """
import os, sys, tempfile
from numba.core.registry import CPUDispatcher
from foogo.gtp.command import warm_up
from foogo.gtp.engine import GtpEngine
warm_up("heavy", 2)  # as `foogo gtp --threads 2` warms up for the engine below (shared roots: their exchange)

def signatures():
    return {f"{name}.{attr}": len(obj.signatures) for name, module in list(sys.modules.items())
            if name.startswith("foogo") for attr, obj in vars(module).items() if isinstance(obj, CPUDispatcher)}

before = signatures()
sgf = os.path.join(tempfile.mkdtemp(), "game.sgf")
with open(sgf, "w") as handle:
    handle.write("(;GM[1]FF[4]SZ[9]KM[7];B[ee];W[cc];B[gc])")
engine = GtpEngine(playouts=200, threads=2, seed=1)
for line in ["boardsize 9", "clear_board", "komi 7", "play b E5", "genmove w", "genmove b", "undo", "showboard",
             "is_legal b A1", "all_legal w", "final_score", "final_status_list dead", "foogo-ownership",
             "foogo-visits", "loadsgf " + sgf, "genmove w", "printsgf", "kgs-genmove_cleanup b", "boardsize 13",
             "clear_board", "fixed_handicap 4", "genmove w", "place_free_handicap 2", "boardsize 19", "clear_board",
             "genmove b", "final_score", "time_settings 10 5 1", "genmove w", "reg_genmove b", "boardsize 9",
             "clear_board", "set_free_handicap E5 C3", "genmove w"]:
    engine.execute(line)
after = signatures()
print(sorted(name for name, count in after.items() if count > before.get(name, 0)))
"""


def test_nothing_compiles_after_the_warm_up_in_a_whole_session():
    # a fresh process: every kernel a GTP session runs (moves, searches on three sizes with tree reuse,
    # scoring, dead stones, SGF, handicap, cleanup) must have been compiled or loaded by the warm-up, or
    # its first use compiles inside a move; the warm-up once left final_score's area count out
    out = subprocess.run([sys.executable, "-c", NO_COMPILE_SESSION], capture_output=True, text=True, timeout=900,
                         check=True)
    assert out.stdout.strip().splitlines()[-1] == "[]", out.stdout


def test_loadsgf_counts_an_sgfs_nodes_before_sgfmill_builds_them(tmp_path):
    engine = make_engine()
    before = state(engine)
    nodes = tmp_path / "nodes.sgf"
    nodes.write_bytes(b"(;SZ[9]" + b";" * 500_000 + b")")  # within the size limit: 500,001 empty nodes
    nested = tmp_path / "nested.sgf"
    nested.write_bytes(b"(;" * 200_000)
    opened = tmp_path / "opened.sgf"  # values never closed: counting them must not scan to the end from each "["
    opened.write_bytes(b"(;" + b"[" * 1_000_000)
    junk = tmp_path / "junk.sgf"  # sgfmill skips what precedes "(;": a "[" there must not hide the nodes after it
    junk.write_bytes(b"[(;" + b";" * 500_000 + b"C[x])")
    for path, message in ((nodes, "500001 nodes in 1 variations"), (nested, "200000 nodes in 200000 variations"),
                          (opened, "corrupt SGF"), (junk, "500001 nodes in 1 variations")):
        start = time.process_time()
        response = engine.execute(f"loadsgf {path}")
        assert response.startswith("? cannot load file") and message in response, response
        assert time.process_time() - start < 2.0 and state(engine) == before  # not sgfmill's 11 s a MiB
    comment = tmp_path / "comment.sgf"  # what a property value holds is text: its ";" and "(" are no nodes
    comment.write_bytes(b"(;SZ[9]C[" + b";(" * 200_000 + b"\\]];B[ee];W[cc])")
    assert engine.execute(f"loadsgf {comment}").startswith("=") and engine.game.board.color_at("C7") == WHITE


def test_fixed_handicap_on_a_board_too_small_says_it_has_none():
    engine = make_engine()
    engine.execute("boardsize 6")
    assert engine.execute("fixed_handicap 2") == \
        "? invalid number of stones: fixed placement takes none (boards of 7x7 and up have it) on 6x6\n\n"
    engine.execute("boardsize 9")
    assert "takes 2 to 9 on 9x9" in engine.execute("fixed_handicap 10")


def test_loadsgf_plays_under_the_engines_rules_not_the_files(tmp_path):
    # Game.load_sgf takes a file's RU; an engine keeps its --rules (GTP has no command to set them), and a
    # file whose moves those rules forbid is refused as before
    engine = make_engine()
    path = tmp_path / "tt.sgf"
    path.write_bytes(b"(;SZ[9]RU[Tromp-Taylor];B[ee])")
    assert engine.execute(f"loadsgf {path}") == "= white\n\n"
    assert engine.game.rules == "chinese"
    path.write_bytes(b"(;SZ[5]RU[Tromp-Taylor]AB[ae]AW[ad][bd][ce];B[be])")  # B2: a two-stone suicide
    assert engine.execute(f"loadsgf {path}").startswith("? cannot load file: SGF move 1 (B B1) is illegal")
