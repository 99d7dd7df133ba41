"""GTP conformance: framing, ids, preprocessing, every error word, state unchanged after errors,
colours out of turn, undo, handicap, SGF round trip, analysis streaming, time management, and a
hypothesis fuzz test. Move generation uses a scripted search double, so these tests do not
depend on the search's strength or speed."""

import argparse
import io
import os
import re
import subprocess
import sys
import threading
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from foogo.geometry import BLACK, EMPTY, PASS, RESIGN, WHITE
from foogo.gtp import MAX_LINE, GtpEngine, TimeManager, configure_parser, main, preprocess, serve
from foogo.gtp.protocol import _Inbox
from foogo.search import SearchResult

# ---------------------------------------------------------------- a search double


class ScriptedSearch:
    """Plays the scripted moves (GTP names, "pass" or "resign") in order, then the first legal move."""

    def __init__(self, options, script=()):
        self.options = options
        self.script = list(script)
        self.calls = []
        self.new_games = 0

    def _result(self, board, color, legal):
        g = board.geometry
        if self.script:
            word = self.script.pop(0)
            move = RESIGN if word == "resign" else g.parse(word)
        else:
            move = legal[0] if legal else PASS
        others = [p for p in legal if p != move][:2]
        unvisited = [p for p in legal if p != move and p not in others][:2]  # root moves the search never tried
        visits = {p: 10 - i for i, p in enumerate([move] + others) if p >= 0}
        n = board.size
        return SearchResult(move=move, winrate=0.6, playouts=100, seconds=0.01,
                            pv=[move] + others[:1] if move >= 0 else [], visits=visits,
                            winrates={p: 0.6 - 0.1 * i for i, p in enumerate(visits)},
                            ownership=np.linspace(-1.0, 1.0, n * n), color=color,
                            priors={**{p: 0.5 ** (i + 1) for i, p in enumerate(visits)},
                                    **{p: 0.01 / (i + 1) for i, p in enumerate(unvisited)}},
                            scores={p: (2.5 - i, 10.0) for i, p in enumerate(visits)})

    def genmove(self, board, color, komi, legal_moves, time_budget=None, stop=None, progress=None, interval=0.5,
                history=(), handicap=0, moves=0, time_limit=None, commit=True):
        self.calls.append(dict(board=board, color=color, komi=komi, legal=list(legal_moves),
                               time_budget=time_budget, history=list(history), handicap=handicap, moves=moves,
                               time_limit=time_limit, commit=commit))
        result = self._result(board, color, legal_moves)
        if progress is not None:
            progress(result)
        return result

    def analyze(self, board, color, komi, legal_moves, stop, progress, interval, history=()):
        result = self._result(board, color, legal_moves)
        while not stop.is_set():
            progress(result)
            stop.wait(interval)
        return result

    def new_game(self):
        self.new_games += 1


def make_engine(script=(), **kwargs):
    holder = {}

    def factory(options):
        holder["search"] = ScriptedSearch(options, script)
        return holder["search"]

    engine = GtpEngine(search_factory=factory, log=io.StringIO(), **kwargs)
    engine.holder = holder
    return engine


def send(engine, *lines):
    """The responses to lines (skipped lines give None)."""
    return [engine.execute(line) for line in lines]


def ok(engine, line):
    response = engine.execute(line)
    assert response.startswith("="), f"{line!r} -> {response!r}"
    return response[1:].split(" ", 1)[-1].rstrip("\n") if response.startswith("= ") else response[1:].rstrip("\n")


def error(engine, line):
    response = engine.execute(line)
    assert response.startswith("?"), f"{line!r} -> {response!r}"
    return response


def body(response):
    """The text of a one-line '= text' response."""
    assert response.startswith("=") and response.endswith("\n\n")
    return response.rstrip("\n")[1:].lstrip("0123456789").strip()


def state(engine):
    return engine.game.state_key(), repr(engine.time)


FRAME = re.compile(r"^[=?][0-9]*( [^\n]*)?(\n[^\n]+)*\n\n$", re.S)


def well_framed(response):
    return bool(FRAME.match(response)) and "\n\n" not in response[:-2]


# ---------------------------------------------------------------- framing and preprocessing

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


# ---------------------------------------------------------------- error words

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


# ---------------------------------------------------------------- moves, colours, undo

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


# ---------------------------------------------------------------- showboard and scoring

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


# ---------------------------------------------------------------- handicap

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


# ---------------------------------------------------------------- SGF

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
    for data, echoed in ((b"(;CA[x\r\ry]SZ[9];B[ee])", "unknown encoding: x y"),
                         (b"(;SZ[9]PL[x\r\ry\x1b[2Jz\x07])", "PL[x y [2Jz ]")):
        path.write_bytes(data)
        response = engine.execute(f"loadsgf {path}")
        line = response.removesuffix("\n\n")
        assert line.startswith("? cannot load file") and echoed in line, response
        assert line.isprintable(), response
    assert state(engine) == before


def test_serve_escapes_what_its_stdout_cannot_encode():
    # on a cp1252 or ASCII stdout (Windows, a C locale) an echoed word raised UnicodeEncodeError, a ValueError,
    # which serve read as a closed stdout: the engine quit unanswered
    for encoding in ("cp1252", "ascii"):
        raw = io.BytesIO()
        out = io.TextIOWrapper(raw, encoding=encoding, newline="\n")
        serve(make_engine(), io.StringIO("1 play b \u70b9\n2 name\n"), out)
        out.flush()
        responses = raw.getvalue().decode(encoding).split("\n\n")
        assert responses[0] == "?1 syntax error: invalid vertex '\\u70b9'"
        assert responses[1:] == ["=2 foogo", ""]


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
    import threading

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


# ---------------------------------------------------------------- analysis

def test_gogui_analyze_commands_and_their_handlers():
    engine = make_engine()
    lines = body(engine.execute("gogui-analyze_commands")).split("\n")
    assert "dboard/Ownership/foogo-ownership" in lines and "dboard/Visits/foogo-visits" in lines
    for line in lines:
        kind, label, command = line.split("/", 2)
        response = engine.execute(command)
        assert response.startswith("=") and well_framed(response), line
    ok(engine, "play b E5")
    rows = engine.execute("foogo-ownership")[2:-2].split("\n")
    assert len(rows) == 9 and all(len(row.split()) == 9 for row in rows)
    assert all(-1 <= float(v) <= 1 for row in rows for v in row.split())
    visits = engine.execute("foogo-visits")[2:-2].split("\n")
    # shares of the most visited move's (GoGui cuts a dboard's values to [-1, 1]: raw counts were all 1)
    assert visits[8].split()[:4] == ["1.000", "0.900", "0.800", "0.000"]  # the double's A1, B1, C1 for white


def test_lz_analyze_without_a_stream_answers_one_snapshot():
    engine = make_engine()
    response = engine.execute("3 lz-analyze b 10")
    assert response.startswith("=3\ninfo move A1 visits 10 winrate 6000 prior 5000 lcb ")
    assert response.endswith("\n\n") and well_framed(response)


# Parsers written from the published formats (KataGo's docs/GTP_Extensions.md, which documents
# Leela Zero's lz-analyze line too), not from foogo's output. A report is one line of `info`
# sections (and, for kata-analyze with `ownership true`, one `ownership` section); a section is
# key-value pairs in any order, `pv` taking every token up to the next section.

VERTEX = re.compile(r"(pass|resign|[A-HJ-Z]([1-9]|1[0-9]|2[0-5]))$")


def parse_report(line, size=9):
    """The sections of one analysis line: [(kind, {key: value or [tokens]})]; AssertionError if malformed."""
    tokens = line.split()
    sections = []
    i = 0
    while i < len(tokens):
        kind = tokens[i]
        assert kind in ("info", "ownership"), f"a section starts with info or ownership, got {kind!r}"
        i += 1
        if kind == "ownership":
            values = [float(v) for v in tokens[i:i + size * size]]
            assert len(values) == size * size and all(-1 <= v <= 1 for v in values)
            sections.append(("ownership", values))
            i += size * size
            continue
        fields = {}
        while i < len(tokens) and tokens[i] not in ("info", "ownership"):
            key = tokens[i]
            if key == "pv":
                j = i + 1
                while j < len(tokens) and tokens[j] not in ("info", "ownership"):
                    j += 1
                fields["pv"] = tokens[i + 1:j]
                assert all(VERTEX.match(v) for v in fields["pv"])
                i = j
            else:
                fields[key] = tokens[i + 1]
                i += 2
        assert VERTEX.match(fields["move"]) and int(fields["visits"]) >= 0
        sections.append(("info", fields))
    return sections


def check_lz(line, size=9):
    """Leela Zero's fields: winrate, prior and lcb integers in [0, 10000], order 0, 1, 2, ..."""
    infos = [f for kind, f in parse_report(line, size) if kind == "info"]
    for order, f in enumerate(infos):
        for key in ("winrate", "prior", "lcb"):
            assert re.fullmatch(r"\d+", f[key]) and 0 <= int(f[key]) <= 10000, (key, f[key])
        assert int(f["order"]) == order
    return infos


def check_kata(line, size=9):
    """KataGo's fields: winrate, prior, lcb floats in [0, 1], scores in points, order 0, 1, 2, ..."""
    sections = parse_report(line, size)
    infos = [f for kind, f in sections if kind == "info"]
    for order, f in enumerate(infos):
        for key in ("winrate", "prior", "lcb"):
            assert 0 <= float(f[key]) <= 1, (key, f[key])
        for key in ("scoreMean", "scoreLead", "scoreStdev"):
            float(f[key])
        assert float(f["scoreStdev"]) >= 0 and int(f["order"]) == order
    ownership = [values for kind, values in sections if kind == "ownership"]
    return infos, ownership[0] if ownership else None


def test_lz_analyze_follows_leela_zeros_format():
    engine = make_engine()
    infos = check_lz(engine.execute("lz-analyze b 10").split("\n")[1])
    assert [f["move"] for f in infos] == ["A1", "B1", "C1"]
    assert [int(f["winrate"]) for f in infos] == [6000, 5000, 4000]
    assert [int(f["prior"]) for f in infos] == [5000, 2500, 1250]
    assert all(int(f["lcb"]) < int(f["winrate"]) for f in infos)  # a lower bound, 10 visits: well below
    assert infos[0]["pv"] == ["A1", "B1"]


def test_maxmoves_keeps_the_most_visited_moves_and_minmoves_adds_unvisited_ones_as_katago():
    engine = make_engine()
    infos = check_lz(engine.execute("lz-analyze b 10 maxmoves 2").split("\n")[1])
    assert [f["move"] for f in infos] == ["A1", "B1"]
    infos = check_lz(engine.execute("lz-analyze b interval 10 minmoves 5 maxmoves 1").split("\n")[1])
    assert [f["move"] for f in infos] == ["A1"]
    # minmoves 5: the double's three visited moves, then its two unvisited root moves by prior, with visits 0,
    # the root's win rate (visit-weighted: (10 * 0.6 + 9 * 0.5 + 8 * 0.4) / 27) and the move alone as pv
    infos, _ = check_kata(body(engine.execute("kata-analyze b 10 minmoves 5")))
    assert [f["move"] for f in infos] == ["A1", "B1", "C1", "D1", "E1"]
    assert [int(f["visits"]) for f in infos] == [10, 9, 8, 0, 0]
    assert [float(f["winrate"]) for f in infos[3:]] == [round(13.7 / 27, 6)] * 2
    assert [float(f["lcb"]) for f in infos[3:]] == [0.0, 0.0] and infos[3]["pv"] == ["D1"]
    assert float(infos[3]["prior"]) > float(infos[4]["prior"]) > 0
    assert len(check_lz(body(engine.execute("lz-analyze b 10 minmoves 2")))) == 3  # never fewer than visited
    assert engine.execute("lz-analyze b 10 maxmoves 0").startswith("? syntax error: maxmoves")
    assert engine.execute("lz-analyze b 10 minmoves -1").startswith("? syntax error: minmoves")


@pytest.mark.parametrize("line, message", [
    ("kata-analyze avoid b D4 1 10", "'avoid' is not supported"),  # was "invalid color 'avoid'"
    ("kata-analyze b 10 pvVisits true", "unexpected analysis argument 'pvVisits'"),
    ("lz-analyze b 10 ownership true", "ownership is kata-analyze's"),  # was accepted and never shown
])
def test_analysis_options_foogo_lacks_are_refused_by_name(line, message):
    engine = make_engine()
    response = engine.execute(line)
    assert response.startswith("? syntax error") and message in response, response
    assert engine.game.to_move == BLACK
    assert engine.execute("boardsize 99999999999") == "? unacceptable size\n\n"  # a GTP integer, too large


@pytest.mark.parametrize("color, sign", [("b", 1), ("w", -1)])
def test_kata_analyze_follows_katagos_format_from_the_movers_side(color, sign):
    engine = make_engine()
    response = engine.execute(f"kata-analyze {color} 10 ownership true")
    assert well_framed(response) and response.count("\n") == 3
    infos, ownership = check_kata(response.split("\n")[1])
    assert [float(f["winrate"]) for f in infos] == [0.6, 0.5, 0.4]
    # the double's black margins are 2.5, 1.5, 0.5: the lead is the mover's
    assert [float(f["scoreLead"]) for f in infos] == [sign * 2.5, sign * 1.5, sign * 0.5]
    assert float(infos[0]["scoreStdev"]) == 10.0
    # row-major from the top left (A9): the double's ownership rises from A1 (-1) to J9 (+1) row by row
    expected = np.linspace(-1.0, 1.0, 81).reshape(9, 9)[::-1].ravel() * sign
    assert np.allclose(ownership, expected, atol=1e-4)
    assert check_kata(body(engine.execute("kata-analyze b 10")))[1] is None  # no ownership unless asked


@pytest.mark.parametrize("command, check", [("lz-genmove_analyze", check_lz), ("kata-genmove_analyze", check_kata)])
def test_genmove_analyze_reports_then_plays(command, check):
    engine = make_engine(script=["E5"])
    response = engine.execute(f"4 {command} b 10")
    lines = response.split("\n")
    assert lines[0] == "=4" and response.endswith("\nplay E5\n\n")
    assert all(check(line) for line in lines[1:-3])  # the info lines between
    assert engine.game.board.color_at("E5") == BLACK and engine.game.to_move == WHITE
    bad = engine.execute(f"{command} b 10 ownership maybe")
    assert bad.startswith("? syntax error") and engine.game.to_move == WHITE


def test_gogui_lists_the_analysis_commands():
    engine = make_engine()
    listed = body(engine.execute("list_commands")).split("\n")
    assert {"lz-analyze", "kata-analyze", "lz-genmove_analyze", "kata-genmove_analyze"} <= set(listed)


def test_lz_analyze_streams_until_the_next_line_arrives():
    engine = make_engine()
    read_fd, write_fd = os.pipe()
    stdin = os.fdopen(read_fd, "rb")
    out = io.StringIO()
    writer = os.fdopen(write_fd, "wb", buffering=0)
    thread = threading.Thread(target=serve, args=(engine, stdin, out), daemon=True)
    thread.start()
    writer.write(b"1 lz-analyze 1\n")
    deadline = time.time() + 10
    while out.getvalue().count("\ninfo move") < 3 and time.time() < deadline:
        time.sleep(0.01)
    writer.write(b"2 name\n")
    writer.close()
    thread.join(10)
    assert not thread.is_alive()
    text = out.getvalue()
    head, rest = text.split("\n", 1)
    assert head == "=1"
    stream, after = rest.split("\n\n", 1)
    assert all(line.startswith("info move ") for line in stream.split("\n"))
    assert len(stream.split("\n")) >= 3
    assert after == "=2 foogo\n\n"


# ---------------------------------------------------------------- serving

def test_serve_answers_until_quit():
    engine = make_engine()
    out = io.StringIO()
    assert serve(engine, io.StringIO("1 name\n\n# comment\n2 quit\n3 name\n"), out) == 0
    assert out.getvalue() == "=1 foogo\n\n=2\n\n"


def test_serve_stops_at_end_of_input_and_survives_binary_and_long_lines():
    engine = make_engine()
    out = io.StringIO()
    data = b"name\n\xff\xfe\x00binary\n" + b"x" * (3 * MAX_LINE) + b"\n1 version\n"
    serve(engine, io.BytesIO(data), out)
    responses = out.getvalue().split("\n\n")[:-1]
    assert responses[0] == "= foogo"
    assert responses[1].startswith("? syntax error")
    assert responses[2].startswith("? syntax error")
    assert responses[3].startswith("=1 ")
    assert len(responses) == 4


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
                 "--late-nakade", "0.75"]) == 0
    assert seen == dict(expand_threshold=16.0, prior=30.0, equiv=3000.0, uct=0.2, parallel="tree", crit=1.1,
                        crit_min_visits=500, score_weight=0.02, late_nakade=0.75)
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


# ---------------------------------------------------------------- time management

def test_time_manager_has_no_budget_without_limits():
    tm = TimeManager()
    assert tm.budget(BLACK, 81) is None
    tm.set_gtp(60, 10, 0)  # byo-yomi time with 0 stones: no limit
    assert tm.budget(BLACK, 81) is None


def test_absolute_time_spreads_the_main_time():
    tm = TimeManager()
    tm.set_absolute(300)
    assert tm.budget(BLACK, 81) == pytest.approx((300 - 0.3) / 27)  # a move still to come for 3 empty points
    assert tm.budget(BLACK, 45) == pytest.approx((300 - 0.3) / 15)
    assert tm.budget(BLACK, 10) == pytest.approx((300 - 0.3) / 10)  # never more than a tenth of it
    tm.time_left(BLACK, 0.2, 0)
    assert tm.budget(BLACK, 60) == TimeManager.MIN_BUDGET


def test_japanese_byoyomi_uses_most_of_a_period():
    tm = TimeManager()
    tm.set_japanese(0, 10, 5)
    assert tm.budget(WHITE, 81) == pytest.approx(0.8 * 10 - 0.3)
    tm.set_japanese(60, 10, 5)
    assert tm.budget(WHITE, 81) == pytest.approx((60 - 0.3) / 27 + 0.8 * 10 - 0.3)
    tm.time_left(WHITE, 7, 3)  # in byo-yomi, 7 s left in the period, 3 periods
    assert tm.budget(WHITE, 81) == pytest.approx(0.8 * 7 - 0.3)


@pytest.mark.parametrize("periods, seconds", [(0, 30), (5, 0)])
def test_japanese_byoyomi_without_a_period_is_sudden_death(periods, seconds):
    # KGS's "byoyomi 4 2 0": main time and no period after it; budgeted with a period's share on top (1.33 s
    # with 1 s left), foogo used 4.32 s of its 4 over five moves and lost on time
    engine = make_engine()
    ok(engine, f"kgs-time_settings byoyomi 4 {seconds} {periods}")
    assert engine.time.system == "absolute" and engine.time.budget(BLACK, 81) == pytest.approx((4 - 0.3) / 27)
    ok(engine, "time_left b 3 0")
    assert engine.time.budget(BLACK, 81) == pytest.approx((3 - 0.3) / 27)
    ok(engine, f"kgs-time_settings byoyomi 0 {seconds} {periods}")
    assert engine.time.system == "none"


def test_canadian_byoyomi_divides_the_period_by_the_stones_left():
    tm = TimeManager()
    tm.set_canadian(0, 100, 25)
    assert tm.budget(BLACK, 81) == pytest.approx(0.8 * 100 / 25 - 0.3)
    tm.time_left(BLACK, 30, 3)
    assert tm.budget(BLACK, 81) == pytest.approx(0.8 * 30 / 3 - 0.3)


def test_spending_time_moves_into_byoyomi():
    tm = TimeManager()
    tm.set_canadian(5, 30, 5)
    tm.spend(BLACK, 6)  # 1 s into the first period, one stone played
    clock = tm.clocks[BLACK]
    assert clock.in_byo and clock.period_left == pytest.approx(29) and clock.stones_left == 4
    tm.set_japanese(1, 10, 3)
    tm.spend(WHITE, 1.5)
    assert tm.clocks[WHITE].in_byo and tm.clocks[WHITE].periods_left == 3
    tm.spend(WHITE, 12)  # overran a period
    assert tm.clocks[WHITE].periods_left == 2


def test_allocations_never_exceed_the_time_left():
    for main_time, byo, stones in [(0, 5, 1), (10, 5, 1), (0, 60, 25), (1, 1, 1), (600, 30, 10)]:
        tm = TimeManager()
        tm.set_canadian(main_time, byo, stones)
        for empty in (0, 20, 81, 361):
            budget = tm.budget(BLACK, empty)
            assert 0 < budget <= max(TimeManager.MIN_BUDGET, main_time + 0.8 * byo / stones)


def test_genmove_gets_its_budget_from_the_clock():
    engine = make_engine(script=["E5", "D4"])
    ok(engine, "time_settings 0 10 1")
    engine.execute("genmove b")
    assert engine.holder["search"].calls[-1]["time_budget"] == pytest.approx(0.8 * 10 - 0.3)
    ok(engine, "kgs-time_settings byoyomi 0 5 3")
    ok(engine, "time_left w 4 2")
    engine.execute("genmove w")
    assert engine.holder["search"].calls[-1]["time_budget"] == pytest.approx(0.8 * 4 - 0.3)


def test_a_close_move_may_take_twice_its_budget_in_main_time_and_never_more_than_a_quarter_of_it():
    tm = TimeManager()
    assert tm.limit(BLACK, 81) is None  # no clock, no limit (a --time budget is strict)
    tm.set_absolute(300)
    budget = tm.budget(BLACK, 81)
    assert tm.limit(BLACK, 81) == pytest.approx(TimeManager.EXTEND * budget)
    tm.time_left(BLACK, 20, 0)
    assert tm.limit(BLACK, 10) == pytest.approx(TimeManager.EXTEND * (20 - 0.3) / 10)
    tm.time_left(BLACK, 0.4, 0)  # a quarter of what is left is below the least budget: the limit is the budget
    assert tm.limit(BLACK, 10) == tm.budget(BLACK, 10) == TimeManager.MIN_BUDGET
    tm.set_canadian(20, 10, 5)  # main time's budget includes a stone's share of a period ...
    tm.time_left(BLACK, 8, 0)  # ... so with 8 s of main time left, a quarter of it is less than two budgets
    assert tm.budget(BLACK, 81) < tm.limit(BLACK, 81) == pytest.approx(0.25 * (8 - 0.3))
    tm.set_canadian(0, 10, 1)  # one stone a period: nothing to save for, the limit is the budget
    assert tm.limit(BLACK, 81) == tm.budget(BLACK, 81)
    tm.set_japanese(0, 10, 5)  # nor is a Japanese period's time saved for later
    assert tm.limit(BLACK, 81) == tm.budget(BLACK, 81)
    tm.set_canadian(0, 100, 25)  # 25 stones in 100 s: a close stone may take two budgets ...
    assert tm.limit(BLACK, 81) == pytest.approx(TimeManager.EXTEND * tm.budget(BLACK, 81))
    tm.time_left(BLACK, 10, 5)  # ... but leaves the period's other stones the least budget and the margin
    assert tm.budget(BLACK, 81) < tm.limit(BLACK, 81) <= 0.8 * 10 - 0.3 - 4 * (TimeManager.MIN_BUDGET + 0.3)


def test_genmove_gives_the_search_the_clock_s_limit():
    engine = make_engine(script=["E5", "D4"])
    engine.execute("genmove b")
    assert engine.holder["search"].calls[-1]["time_limit"] is None
    ok(engine, "time_settings 300 0 0")
    engine.execute("genmove w")
    call = engine.holder["search"].calls[-1]
    assert call["time_limit"] == pytest.approx(TimeManager.EXTEND * call["time_budget"])


def test_genmove_gives_the_search_the_game_s_recent_positions():
    engine = make_engine(script=["E5", "D4", "C3"])
    ok(engine, "play b E5")
    empty = engine.game.recent_positions(1)[0]
    ok(engine, "play w pass")
    expected = engine.game.recent_positions(8)
    engine.execute("genmove b")
    assert engine.holder["search"].calls[-1]["history"] == expected
    assert len(expected) == 2 and expected[0] == empty and empty[1] == 81


def test_a_clock_of_years_still_ends_each_move_within_the_cap():
    engine = make_engine(script=["E5", "D4", "C3"])
    for command in ("time_settings 999999999999 1 1", "time_settings 0 1e300 1", "time_left b 1e300 0"):
        ok(engine, command)
        engine.execute("genmove b")
        assert engine.holder["search"].calls[-1]["time_budget"] == TimeManager.MAX_BUDGET
    ok(engine, "time_settings 600 30 10")  # an ordinary clock is not capped
    engine.execute("genmove w")
    assert engine.holder["search"].calls[-1]["time_budget"] < 60


def test_kgs_time_settings_systems():
    engine = make_engine()
    ok(engine, "kgs-time_settings none")
    assert engine.time.system == "none"
    ok(engine, "kgs-time_settings absolute 300")
    assert engine.time.system == "absolute"
    ok(engine, "kgs-time_settings byoyomi 300 30 5")
    assert (engine.time.system, engine.time.periods) == ("japanese", 5)
    ok(engine, "kgs-time_settings canadian 300 300 25")
    assert (engine.time.system, engine.time.byo_stones) == ("canadian", 25)


# ---------------------------------------------------------------- fuzz

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


# ---------------------------------------------------------------- with the real search


@pytest.fixture(scope="module")
def real_engine_factory():
    pytest.importorskip("foogo.search")
    warm = GtpEngine(log=io.StringIO(), playouts=50)
    assert warm.execute("reg_genmove b").startswith("=")  # compile the kernels outside any clock

    def make(**kwargs):
        return GtpEngine(log=io.StringIO(), **kwargs)

    return make


def test_real_search_genmove_plays_a_legal_move_and_reports(real_engine_factory):
    engine = real_engine_factory(playouts=300, seed=1)
    legal = set(body(engine.execute("all_legal b")).split())
    move = body(engine.execute("genmove b"))
    assert move in legal
    assert engine.execute("list_stones b") == f"= {move}\n\n"
    report = engine.log.getvalue().splitlines()[-1]
    assert "playouts" in report and "/s" in report and "win rate" in report and "pv" in report
    assert re.search(r"/s, CPU \d+\.\d\d s", report)  # the process's CPU time: bench/match_review.py reads it


def test_real_search_genmove_under_time_left_returns_inside_its_budget(real_engine_factory):
    engine = real_engine_factory(seconds=30, seed=2)  # the clock, not --time, must decide
    ok(engine, "time_settings 0 1 1")  # Canadian: 1 s for every stone
    for color in "bw":
        ok(engine, f"time_left {color} 1 1")
        start = time.perf_counter()
        engine.execute(f"genmove {color}")
        assert time.perf_counter() - start < 1.0


def test_real_search_lz_analyze_streams(real_engine_factory):
    engine = real_engine_factory(seed=3)
    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    writer = os.fdopen(write_fd, "wb", buffering=0)
    thread = threading.Thread(target=serve, args=(engine, os.fdopen(read_fd, "rb"), out), daemon=True)
    thread.start()
    writer.write(b"lz-analyze b 5\n")
    deadline = time.time() + 20
    while out.getvalue().count("\ninfo move") < 2 and time.time() < deadline:
        time.sleep(0.01)
    writer.write(b"1 name\n")
    writer.close()
    thread.join(20)
    text = out.getvalue()
    assert text.startswith("=\ninfo move ") and text.endswith("\n\n=1 foogo\n\n")
    infos = check_lz(text.split("\n")[1])
    assert infos and int(infos[0]["visits"]) >= max(int(f["visits"]) for f in infos)
    assert sum(int(f["prior"]) for f in infos) <= 10000 + len(infos)  # shares of one prior, rounded


def test_real_search_analysis_of_a_colour_with_only_pass_reports_pass(real_engine_factory):
    engine = real_engine_factory(seed=5)
    for line in ("boardsize 2", "play b A1", "play b B2"):
        ok(engine, line)
    assert body(engine.execute("all_legal w")) == ""  # A2 and B1 are suicides for white: pass alone is legal
    infos, ownership = check_kata(body(engine.execute("kata-analyze w 10 ownership true")), size=2)
    assert [f["move"] for f in infos] == ["pass"] and int(infos[0]["visits"]) > 0  # was no info line at all
    assert ownership is not None and len(ownership) == 4
    lines = engine.execute("kata-genmove_analyze w 10").split("\n")  # the same for a move played (a review)
    assert lines[-3:] == ["play pass", "", ""] and check_kata(lines[1], size=2)[0][0]["move"] == "pass"
    assert engine.game.to_move == BLACK


def test_real_search_kata_analyze_reports_scores_and_ownership(real_engine_factory):
    engine = real_engine_factory(seed=4)
    ok(engine, "play b E5")
    response = engine.execute("kata-analyze w 10 ownership true")  # one snapshot: no input stream
    infos, ownership = check_kata(response.split("\n")[1])
    assert infos and ownership is not None
    # white to move after black's centre stone: black owns the centre, so white sees it negative
    assert ownership[4 * 9 + 4] < 0
    assert all(abs(float(f["scoreLead"])) <= 81 + 7 for f in infos)
    logged = engine.log.getvalue().splitlines()[-1]  # the analysis, once it ended
    assert re.fullmatch(r"kata-analyze white: \d+ playouts in \d+\.\d\d s \(\d+/s\)", logged)


def test_serve_reads_a_pipe_and_cuts_long_lines():
    engine = make_engine()
    read_fd, write_fd = os.pipe()
    data = b"1 name\n" + b"2 " + b"y" * (5 * MAX_LINE) + b"\n3 version\n4 name"  # last line unterminated
    writer = threading.Thread(target=lambda: (os.write(write_fd, data), os.close(write_fd)))
    writer.start()
    out = io.StringIO()
    with os.fdopen(read_fd, "rb") as stdin:
        serve(engine, stdin, out)
    writer.join()
    responses = out.getvalue().split("\n\n")[:-1]
    assert responses[0] == "=1 foogo"
    assert responses[1].startswith("?2 syntax error")
    assert responses[2].startswith("=3 ")
    assert responses[3] == "=4 foogo"


FRAMING_INPUT = [  # (line, answered?): the spec's white space is space and HT only (GTP 2, 2.2-2.3)
    ("\u00a0", True), ("\u3000", True), ("\u2028", True), ("\u0085", True), ("1 \u00a0name", True),
    ("# " + "c" * (3 * MAX_LINE), False), (" " * (3 * MAX_LINE), False),
    ("\t" * (2 * MAX_LINE) + "# late comment", False), (" " * (2 * MAX_LINE) + "5 name", True),
    ("# caf\xe9 in Latin-1", False), ("2 name # caf\xe9", True),
]


def _framing_bytes(text):
    return text.encode("utf-8") if "caf" not in text else text.encode("latin-1")


@pytest.mark.parametrize("reader", ["pipe", "stream"])
def test_every_line_but_blank_and_comment_lines_gets_exactly_one_answer(reader):
    engine = make_engine()
    data = b"".join(_framing_bytes(line) + b"\n" for line, _ in FRAMING_INPUT) + b"9 name\n"
    out = io.StringIO()
    if reader == "pipe":
        read_fd, write_fd = os.pipe()
        writer = threading.Thread(target=lambda: (os.write(write_fd, data), os.close(write_fd)))
        writer.start()
        with os.fdopen(read_fd, "rb") as stdin:
            serve(engine, stdin, out)
        writer.join()
    else:
        serve(engine, io.BytesIO(data), out)
    responses = out.getvalue().split("\n\n")[:-1]
    assert len(responses) == sum(answered for _, answered in FRAMING_INPUT) + 1, responses
    assert all(well_framed(r + "\n\n") for r in responses)
    assert responses[:4] == ["? unknown command"] * 4
    assert responses[4] == "?1 unknown command"  # id 1, command "\u00a0name"
    assert responses[-3] == "=5 foogo"  # a long blank run before a command says nothing
    assert responses[-2] == "=2 foogo" and responses[-1] == "=9 foogo"


def test_a_line_of_unicode_spaces_is_a_command():
    engine = make_engine()
    for space in ("\u00a0", "\u3000", "\u2028", "\u0085", "\u200b"):
        assert engine.execute(space) == "? unknown command\n\n"
    assert engine.execute("1\u00a0name") == "? unknown command\n\n"  # no id: "1\u00a0name" is one word


def test_a_comment_is_never_decoded_or_measured():
    engine = make_engine()
    assert engine.execute(b"# \xff\xfe not UTF-8\n") is None
    assert engine.execute("#" + "x" * (4 * MAX_LINE)) is None
    assert engine.execute(b"3 name # \xff\n") == "=3 foogo\n\n"


def test_the_engine_process_exits_cleanly_on_quit_with_stdin_still_open():
    import subprocess
    import sys
    proc = subprocess.Popen([sys.executable, "-m", "foogo", "gtp", "--playouts", "50"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdin.write(b"1 name\n2 quit\n")
    proc.stdin.flush()
    try:
        proc.wait(timeout=60)  # stdin stays open: the engine must leave on quit alone
        out, err = proc.stdout.read(), proc.stderr.read()
    finally:
        proc.stdin.close()
        proc.kill()
    assert out == b"=1 foogo\n\n=2\n\n"
    assert proc.returncode == 0, err
    assert b"Fatal" not in err


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


def warming_engine(monkeypatch):
    """An engine (scripted to answer E5) whose background warm-up has started and holds until the
    returned Event is set: (engine, release)."""
    from foogo.gtp import command
    started, release = threading.Event(), threading.Event()

    def slow_warm_up(policy, threads=1, parallel="root"):
        started.set()
        release.wait(30)

    monkeypatch.setattr(command, "warm_up", slow_warm_up)
    engine = make_engine(script=["E5"])
    engine.kernels_ready = command.start_warm_up("heavy")
    assert started.wait(10)
    return engine, release


def test_the_protocol_answers_while_the_kernels_warm_up_and_the_search_waits(monkeypatch):
    engine, release = warming_engine(monkeypatch)
    assert send(engine, "name", "protocol_version", "play b D4") == ["= foogo\n\n", "= 2\n\n", "=\n\n"]
    answers = []
    thread = threading.Thread(target=lambda: answers.append(engine.execute("genmove w")))
    thread.start()
    thread.join(0.5)
    assert thread.is_alive() and not answers  # genmove waits for the kernels
    release.set()
    thread.join(10)
    assert answers == ["= E5\n\n"]


def test_an_analysis_sent_while_the_kernels_load_ends_when_the_next_command_arrives(monkeypatch):
    # Lizzie sends lz-analyze and then play: the play must not wait for the kernels behind the analysis
    engine, release = warming_engine(monkeypatch)
    interrupt, streamed, answers = threading.Event(), [], []
    thread = threading.Thread(target=lambda: answers.append(
        engine.execute("lz-analyze b 10", stream=streamed.append, interrupt=interrupt)))
    thread.start()
    thread.join(0.3)
    assert thread.is_alive()  # the analysis waits for the kernels ...
    interrupt.set()
    thread.join(2)
    try:
        assert not thread.is_alive()  # ... until the next command arrives, not until they are loaded
        assert "".join(streamed) + "".join(answers) == "=\n\n" and "search" not in engine.holder
        assert send(engine, "play b D4") == ["=\n\n"]
    finally:
        release.set()
        thread.join(10)


class _GatedEvent(threading.Event):
    """An Event whose set() from a thread named "gated" waits at `gate` first: the moment, between
    a line's put and its set, that once let the line's late set stop the next command's analysis."""

    def __init__(self, gate):
        super().__init__()
        self.gate = gate

    def set(self):
        if threading.current_thread().name == "gated":
            self.gate.wait(5)
        super().set()


def test_a_taken_line_leaves_no_late_arrival_behind():
    inbox = _Inbox(4)
    gate = threading.Event()
    inbox.arrived = _GatedEvent(gate)
    producer = threading.Thread(target=inbox.put, args=("1 name\n",), name="gated")
    producer.start()
    taken = []
    taker = threading.Thread(target=lambda: taken.append(inbox.take()))
    taker.start()
    time.sleep(0.1)  # the taker has the line by now (and waits for the handover)
    gate.set()
    producer.join(5)
    taker.join(5)
    assert taken == ["1 name\n"]
    assert not inbox.arrived.is_set()  # nothing waits: an analysis begun now streams
    inbox.put("2 name\n")
    assert inbox.arrived.is_set()


def test_the_input_read_ahead_is_bounded():
    inbox = _Inbox(2)
    producer = threading.Thread(target=lambda: [inbox.put(k) for k in range(3)])
    producer.start()
    producer.join(0.2)
    assert producer.is_alive()  # the third line waits for room
    assert inbox.take() == 0
    producer.join(5)
    assert not producer.is_alive()
    assert [inbox.take(), inbox.take()] == [1, 2]


def test_a_full_read_ahead_never_keeps_the_taker_out():
    # a put that waited for room held the handover lock: the next take then waited for it for ever
    inbox = _Inbox(2)
    producer = threading.Thread(target=lambda: [inbox.put(k) for k in range(50)], daemon=True)
    producer.start()
    taken = []
    taker = threading.Thread(target=lambda: taken.extend(inbox.take() for _ in range(50)), daemon=True)
    taker.start()
    taker.join(10)
    assert taken == list(range(50))


def test_many_lines_sent_at_once_are_all_answered_in_order():
    # a GUI or a script that sends without waiting (foogo gtp < file): 65 lines at once hung the engine
    lines = [f"{i} name" for i in range(1, 301)] + ["301 quit"]
    out, _ = _serve_lines(make_engine(), lines, wait_for="=1 ")
    answers = out.split("\n\n")[:-1]
    assert answers == [f"={i} foogo" for i in range(1, 301)] + ["=301"]


@pytest.mark.parametrize("pieces", [
    [b"1 name #" + b"z" * 9000 + b"\n2 version\n"],  # one read
    [b"1 name #", b"z" * 9000, b"\n2 version\n"],  # the comment's end in a later read
    [b"1 name #" + b"z" * 70000, b"z" * 100, b"\n2 version\n"],  # longer than a read
])
def test_a_long_comment_after_a_command_is_cut_however_the_input_splits_it(pieces):
    for reader in ("pipe", "stream"):
        engine = make_engine()
        out = io.StringIO()
        if reader == "pipe":
            read_fd, write_fd = os.pipe()

            def write_pieces(fd):
                for piece in pieces:
                    os.write(fd, piece)
                    time.sleep(0.05)  # each piece in a read of its own
                os.close(fd)
            writer = threading.Thread(target=write_pieces, args=(write_fd,))
            writer.start()
            with os.fdopen(read_fd, "rb") as stdin:
                serve(engine, stdin, out)
            writer.join()
        else:
            serve(engine, io.BytesIO(b"".join(pieces)), out)
        assert out.getvalue().split("\n\n")[:-1] == ["=1 foogo", "=2 " + engine.execute("version")[2:-2]], reader


# ---------------------------------------------------------------- found by a review (2026-12-02)

def _serve_lines(engine, lines, wait_for="=", timeout=20.0, then=0.0):
    """Serve `engine` over a pipe: send the first line, wait until `wait_for` shows in the output and `then`
    seconds more, send the rest; -> (the output, seconds from sending the rest to the end of serving)."""
    read_fd, write_fd = os.pipe()
    out = io.StringIO()
    writer = os.fdopen(write_fd, "wb", buffering=0)
    thread = threading.Thread(target=serve, args=(engine, os.fdopen(read_fd, "rb"), out), daemon=True)
    thread.start()
    writer.write(lines[0].encode() + b"\n")
    deadline = time.time() + timeout
    while wait_for not in out.getvalue() and time.time() < deadline:
        time.sleep(0.01)
    time.sleep(then)
    start = time.perf_counter()
    writer.write("".join(line + "\n" for line in lines[1:]).encode())
    writer.close()
    thread.join(timeout)
    assert not thread.is_alive()
    return out.getvalue(), time.perf_counter() - start


def test_an_analysis_with_a_long_interval_ends_when_the_next_line_arrives(real_engine_factory):
    # each report waited out a sleep of the whole interval: `lz-analyze 2000` answered the next line 20 s late
    engine = real_engine_factory(seed=5)
    assert engine._ready_unless(threading.Event())  # kernels loaded: the analysis searches, and is stopped
    text, seconds = _serve_lines(engine, ["1 lz-analyze b 2000", "2 name", "3 quit"], wait_for="=1\n", then=1.0)
    assert text.startswith("=1\n") and text.endswith("\n\n=2 foogo\n\n=3\n\n") and seconds < 5.0, (text, seconds)


@pytest.mark.parametrize("command", ["lz-genmove_analyze", "kata-genmove_analyze"])
def test_a_genmove_with_analysis_ends_with_its_search_whatever_the_interval(real_engine_factory, command):
    engine = real_engine_factory(seed=6, playouts=300)
    start = time.perf_counter()
    response = engine.execute(f"1 {command} b 3000")  # 30 s between reports; the search takes far less
    assert time.perf_counter() - start < 5.0 and well_framed(response), response
    lines = response.split("\n")
    assert lines[0] == "=1" and lines[1].startswith("info move ") and lines[-3].startswith("play ")


def test_a_byo_yomi_period_too_small_to_divide_by_still_lets_the_engine_move():
    engine = make_engine(script=["E5", "C3"])
    ok(engine, "kgs-time_settings byoyomi 0 5e-324 1")  # seconds // 5e-324 is inf: int() of it failed
    assert ok(engine, "genmove b") == "E5"
    engine.time.spend(WHITE, 0.5)  # past the period: a period lost, not an OverflowError
    assert ok(engine, "genmove w") == "C3"


def test_a_genmove_with_analysis_that_fails_once_streaming_sends_one_response(monkeypatch):
    engine = make_engine(script=["E5"])

    def failing(*args, **kwargs):
        raise RuntimeError("a bug inside the search")

    monkeypatch.setattr(engine, "_genmove", failing)
    text, _ = _serve_lines(engine, ["1 lz-genmove_analyze b 10", "2 name"], wait_for="\n\n")
    assert text == "=1\n\n=2 foogo\n\n", text  # not "=1", then "?1 internal error": two answers to one command
    assert "genmove failed after its response began" in engine.log.getvalue()
    assert engine.game.to_move == BLACK  # nothing played


def test_the_visits_board_with_no_legal_point_is_empty_not_an_error():
    engine = make_engine()
    for line in ("boardsize 2", "play b A1", "play b A2", "play b B1", "play w pass"):
        ok(engine, line)
    response = engine.execute("foogo-visits")  # black to move: B2 would be suicide
    assert response.startswith("=") and response.split() == ["=", "0.000", "0.000", "0.000", "0.000"], response


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
