"""GTP analysis: GoGui's analysis menu, lz-analyze and kata-analyze in Leela Zero's and KataGo's
formats (parsed as those documents describe them), their options and refusals, streaming until the
next line, and the genmove_analyze commands; with the search double and with the real search."""

import re
import threading
import time

import numpy as np
import pytest
from gtp_double import (
    body,
    check_kata,
    check_lz,
    make_engine,
    ok,
    send,
    serve_lines,
    warming_engine,
    well_framed,
)

from foogo.geometry import BLACK, WHITE


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
    text, _ = serve_lines(make_engine(), ["1 lz-analyze 1", "2 name"], timeout=10,
                          wait_for=lambda out: out.count("\ninfo move") >= 3)  # serve_lines: the thread ended
    head, rest = text.split("\n", 1)
    assert head == "=1"
    stream, after = rest.split("\n\n", 1)
    assert all(line.startswith("info move ") for line in stream.split("\n"))
    assert len(stream.split("\n")) >= 3
    assert after == "=2 foogo\n\n"


def test_real_search_lz_analyze_streams(real_engine_factory):
    text, _ = serve_lines(real_engine_factory(seed=3), ["lz-analyze b 5", "1 name"],
                          wait_for=lambda out: out.count("\ninfo move") >= 2)
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


def test_genmove_analyze_reports_a_pass_that_already_wins(real_engine_factory):
    engine = real_engine_factory(seed=3)
    for line in ("boardsize 3", "komi 0.5", "play b B2", "play w pass"):
        ok(engine, line)
    lines = engine.execute("kata-genmove_analyze b 10").split("\n")
    assert lines[-3:] == ["play pass", "", ""], lines
    infos, _ = check_kata(lines[1], size=3)  # was no info line: the early pass ran no playout
    assert [f["move"] for f in infos] == ["pass"] and int(infos[0]["visits"]) == 0
    assert float(infos[0]["winrate"]) == 1.0 and float(infos[0]["scoreLead"]) == 8.5  # 9 points less komi
    assert engine.last_result.stopped == "passed"
    ok(engine, "play b B1")  # the same in Leela Zero's format
    ok(engine, "play w pass")
    lz = engine.execute("lz-genmove_analyze b 10").split("\n")
    assert lz[-3:] == ["play pass", "", ""] and check_lz(lz[1])[0]["move"] == "pass"


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


def test_an_analysis_with_a_long_interval_ends_when_the_next_line_arrives(real_engine_factory):
    # each report waited out a sleep of the whole interval: `lz-analyze 2000` answered the next line 20 s late
    engine = real_engine_factory(seed=5)
    assert engine._ready_unless(threading.Event())  # kernels loaded: the analysis searches, and is stopped
    text, seconds = serve_lines(engine, ["1 lz-analyze b 2000", "2 name", "3 quit"], wait_for="=1\n", then=1.0)
    assert text.startswith("=1\n") and text.endswith("\n\n=2 foogo\n\n=3\n\n") and seconds < 5.0, (text, seconds)


@pytest.mark.parametrize("command", ["lz-genmove_analyze", "kata-genmove_analyze"])
def test_a_genmove_with_analysis_ends_with_its_search_whatever_the_interval(real_engine_factory, command):
    engine = real_engine_factory(seed=6, playouts=300)
    start = time.perf_counter()
    response = engine.execute(f"1 {command} b 3000")  # 30 s between reports; the search takes far less
    assert time.perf_counter() - start < 5.0 and well_framed(response), response
    lines = response.split("\n")
    assert lines[0] == "=1" and lines[1].startswith("info move ") and lines[-3].startswith("play ")


def test_a_genmove_with_analysis_that_fails_once_streaming_sends_one_response(monkeypatch):
    engine = make_engine(script=["E5"])

    def failing(*args, **kwargs):
        raise RuntimeError("a bug inside the search")

    monkeypatch.setattr(engine, "_genmove", failing)
    text, _ = serve_lines(engine, ["1 lz-genmove_analyze b 10", "2 name"], wait_for="\n\n")
    assert text == "=1\n\n=2 foogo\n\n", text  # not "=1", then "?1 internal error": two answers to one command
    assert "genmove failed after its response began" in engine.log.getvalue()
    assert engine.game.to_move == BLACK  # nothing played


def test_the_visits_board_with_no_legal_point_is_empty_not_an_error():
    engine = make_engine()
    for line in ("boardsize 2", "play b A1", "play b A2", "play b B1", "play w pass"):
        ok(engine, line)
    response = engine.execute("foogo-visits")  # black to move: B2 would be suicide
    assert response.startswith("=") and response.split() == ["=", "0.000", "0.000", "0.000", "0.000"], response
