"""One game of a match (match_game.py): illegal moves, timeouts and crashes lost, the score agreed,
void or disputed, the move cap, and an engine's first genmove given the startup timeout."""

from match_double import GNUGO_CMD, engine, needs_gnugo, play_match

from foogo.match_results import format_table


@needs_gnugo
def test_illegal_move_is_a_loss_of_the_engine_that_played_it(tmp_path, fake):
    # The fake plays A1 and then A1 again, which the referee rejects.
    code, s = play_match(tmp_path, "--black", fake("--moves", "A1,A1"), "--white", GNUGO_CMD,
                         "--games", "2", "--size", "5", "--alternate")
    assert code == 0
    assert [g["result"] for g in s["per_game"]] == ["W+Illegal", "B+Illegal"]
    assert all(g["winner"] == engine(s, "B")["label"] for g in s["per_game"])
    assert all("referee" in g["detail"] for g in s["per_game"])
    assert engine(s, "A")["illegal_moves"] == 2 and engine(s, "B")["illegal_moves"] == 0
    assert engine(s, "B")["wins"] == 2 and s["illegal_moves"] == 2


@needs_gnugo
def test_off_board_move_is_illegal(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", "H8"), "--white", GNUGO_CMD,
                         "--games", "1", "--size", "5")
    assert s["per_game"][0]["result"] == "W+Illegal"
    assert engine(s, "A")["illegal_moves"] == 1


def test_move_the_opponent_rejects_is_a_loss_of_the_mover_without_referee(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", "C3"), "--white", fake("--reject-play"),
                         "--games", "1", "--size", "5", "--referee", "none")
    assert code == 0
    g = s["per_game"][0]
    assert g["result"] == "W+Illegal" and "opponent" in g["detail"]
    assert engine(s, "A")["illegal_moves"] == 1


@needs_gnugo
def test_hanging_engine_loses_on_time_and_is_restarted(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--hang-at", "2"), "--white", GNUGO_CMD,
                         "--games", "2", "--size", "5", "--alternate", "--timeout", "1")
    assert code == 0
    assert [g["result"] for g in s["per_game"]] == ["W+Time", "B+Time"]
    assert engine(s, "A")["timeouts"] == 2 and engine(s, "B")["timeouts"] == 0
    assert engine(s, "B")["wins"] == 2 and s["timeouts"] == 2


@needs_gnugo
def test_crashing_engine_loses_by_forfeit_and_is_restarted(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", GNUGO_CMD, "--white", fake("--crash-at", "1"),
                         "--games", "2", "--size", "5", "--alternate")
    assert code == 0
    assert [g["result"] for g in s["per_game"]] == ["B+Forfeit", "W+Forfeit"]
    assert all(g["reason"] == "crash" for g in s["per_game"])
    assert "segmentation fault" in s["per_game"][0]["detail"]
    assert engine(s, "B")["crashes"] == 2 and engine(s, "A")["crashes"] == 0
    assert engine(s, "A")["wins"] == 2 and s["crashes"] == 2


def test_engine_crashing_on_the_opponents_move_loses(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", "C3", "--score", "B+1"),
                         "--white", fake("--crash-on-play"),
                         "--games", "1", "--size", "5", "--referee", "none")
    assert s["per_game"][0]["result"] == "B+Forfeit"
    assert engine(s, "B")["crashes"] == 1 and engine(s, "A")["wins"] == 1


def test_without_referee_the_engines_agreed_score_counts(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--score", "W+2.5"), "--white", fake("--score", "W+2.5"),
                         "--games", "1", "--size", "5", "--referee", "none")
    assert s["per_game"][0]["result"] == "W+2.5" and s["per_game"][0]["moves"] == 2
    assert engine(s, "B")["wins"] == 1


def test_without_referee_disagreeing_scores_make_the_game_void(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--score", "B+1"), "--white", fake("--score", "W+1"),
                         "--games", "1", "--size", "5", "--referee", "none")
    assert s["per_game"][0]["result"] == "?" and s["void"] == 1
    assert engine(s, "A")["wins"] == engine(s, "B")["wins"] == 0
    assert engine(s, "A")["win_rate"] is None


def test_a_referees_score_both_engines_count_otherwise_stands_and_is_reported_disputed(tmp_path, fake, capsys):
    # GNU Go, the usual referee, scores some eyeless sekis as dead: both players then count another winner
    code, s = play_match(tmp_path, "--black", fake("--score", "W+2"), "--white", fake("--score", "W+2.5"),
                         "--games", "2", "--size", "5", "--referee", fake("--score", "B+20"), "--alternate")
    assert code == 0
    assert [g["result"] for g in s["per_game"]] == ["B+20", "B+20"]  # the referee's result stands
    assert s["disputed"] == 2 and all(g["disputed"] for g in s["per_game"])
    a, b = engine(s, "A")["label"], engine(s, "B")["label"]
    assert s["per_game"][0]["engine_scores"] == {a: "W+2", b: "W+2.5"}
    assert "disputed: both engines count otherwise" in s["per_game"][0]["detail"]
    assert "Disputed: 2 scored game(s)" in format_table(s)


def test_a_referees_score_is_not_disputed_when_an_engine_agrees_or_gives_no_count(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--score", "B+1"), "--white", fake(),  # no final_score
                         "--games", "1", "--size", "5", "--referee", fake("--score", "B+3"))
    g = s["per_game"][0]
    assert g["result"] == "B+3" and not g["disputed"] and s["disputed"] == 0
    assert g["engine_scores"] == {engine(s, "A")["label"]: "B+1", engine(s, "B")["label"]: None}
    assert "Disputed" not in format_table(s)
    code, s = play_match(tmp_path, "--black", fake("--score", "W+1"), "--white", fake("--score", "B+0.5"),
                         "--games", "1", "--size", "5", "--referee", fake("--score", "B+3"))
    assert s["disputed"] == 0  # the engines disagree with each other


def test_an_engine_that_never_answers_final_score_is_not_on_trial_and_plays_the_next_game(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--hang-on-score"), "--white", fake("--score", "W+1"),
                         "--games", "2", "--size", "5", "--referee", fake("--score", "W+1"), "--timeout", "3",
                         "--startup-timeout", "60")
    assert code == 0 and s["games"] == 2 and s["void"] == 0 and s["timeouts"] == 0
    assert [g["result"] for g in s["per_game"]] == ["W+1", "W+1"]
    assert all(g["engine_scores"][engine(s, "A")["label"]] is None for g in s["per_game"])


def test_max_moves_stops_and_scores_the_game(tmp_path, fake):
    code, s = play_match(tmp_path, "--black", fake("--moves", "A1,B1,C1", "--score", "B+9"),
                         "--white", fake("--moves", "A2,B2,C2", "--score", "B+9"),
                         "--games", "1", "--size", "5", "--referee", "none", "--max-moves", "3")
    g = s["per_game"][0]
    assert g["moves"] == 3 and g["result"] == "B+9" and "max-moves" in g["detail"]


def test_an_engines_first_genmove_after_it_starts_may_take_the_startup_timeout(tmp_path, fake):
    # foogo gtp answers `name` at once and compiles its search before its first move (about 1.5 minutes
    # after an install): with the default startup timeout that first move is lost on time, and so is the
    # first move of the engine restarted after it
    argv = ("--black", fake("--think-first", "2", "--moves", "A1,B1", "--score", "B+1"),
            "--white", fake("--moves", "A2,B2", "--score", "B+1"), "--games", "2", "--size", "5",
            "--referee", "none", "--timeout", "1")
    code, s = play_match(tmp_path, *argv)
    assert s["timeouts"] == 2 and [g["result"] for g in s["per_game"]] == ["W+Time", "W+Time"]
    code, s = play_match(tmp_path, *argv, "--startup-timeout", "10")
    assert code == 0 and s["timeouts"] == 0 and [g["result"] for g in s["per_game"]] == ["B+1", "B+1"]
