"""Tests for foogo.match, the match runner: a series of games (GNU Go against GNU Go, colours
alternated) and their SGF files, the players named apart, and a match stopped by an SGF it cannot write."""

from match_double import GNUGO_CMD, engine, needs_gnugo, play_match
from sgfmill import sgf


@needs_gnugo
def test_gnugo_against_gnugo_alternating_writes_loadable_sgfs(tmp_path):
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", GNUGO_CMD, "--white", GNUGO_CMD + " --seed 7",
                         "--games", "2", "--size", "5", "--komi", "3.5", "--alternate",
                         "--sgf-dir", str(sgf_dir))
    assert code == 0
    assert s["games"] == 2 and len(s["per_game"]) == 2
    a, b = engine(s, "A"), engine(s, "B")
    assert a["label"] != b["label"]  # same name and version, still told apart
    assert a["games_as_black"] == a["games_as_white"] == 1
    assert b["games_as_black"] == b["games_as_white"] == 1
    assert a["wins"] + b["wins"] + s["draws"] + s["void"] == 2
    assert a["wins"] == a["wins_as_black"] + a["wins_as_white"]
    assert s["illegal_moves"] == s["timeouts"] == s["crashes"] == 0
    assert [g["black"] for g in s["per_game"]] == [a["label"], b["label"]]
    assert a["mean_seconds_per_move"] > 0
    files = sorted(sgf_dir.glob("game-*.sgf"))
    assert [f.name for f in files] == ["game-0001.sgf", "game-0002.sgf"]
    for path, g in zip(files, s["per_game"]):
        game = sgf.Sgf_game.from_bytes(path.read_bytes())
        root = game.get_root()
        assert game.get_size() == 5
        assert game.get_komi() == 3.5
        assert root.get("RU") == "Chinese"
        assert (root.get("PB"), root.get("PW")) == (g["black"], g["white"])  # "GNU Go 3.8 (A)" and "(B)"
        assert root.get("RE") == g["result"]
        moves = [node.get_move() for node in game.get_main_sequence()[1:]]
        assert len(moves) == g["moves"] > 0
        assert [colour for colour, _ in moves] == ["b", "w"] * (len(moves) // 2) + ["b"] * (len(moves) % 2)
        winner = g["result"][0]
        assert g["winner"] == (g["black"] if winner == "B" else g["white"])


def test_sgf_names_the_players_apart(tmp_path, fake):
    sgf_dir = tmp_path / "sgf"
    code, s = play_match(tmp_path, "--black", fake(), "--white", fake(), "--games", "2", "--size", "5",
                         "--alternate", "--referee", "none", "--sgf-dir", str(sgf_dir), "--black-name", "Alice")
    assert code == 0
    names = set()
    for path in sorted(sgf_dir.glob("game-*.sgf")):
        root = sgf.Sgf_game.from_bytes(path.read_bytes()).get_root()
        assert root.get("PB") != root.get("PW")
        names |= {root.get("PB"), root.get("PW")}
    assert "Alice" in names and engine(s, "A")["label"] == "Alice"


def test_an_sgf_that_cannot_be_written_stops_the_match_and_keeps_its_summary(tmp_path, fake, capsys):
    sgf_dir = tmp_path / "sgf"
    (sgf_dir / "game-0002.sgf").mkdir(parents=True)  # a directory where the second game's file goes
    code, summary = play_match(tmp_path, "--black", fake("--score", "W+2.5"), "--white", fake("--score", "W+2.5"),
                               "--games", "3", "--size", "5", "--referee", "none", "--sgf-dir", str(sgf_dir),
                               "--overwrite")
    err = capsys.readouterr().err
    assert code == 1 and "cannot write" in err and "game-0002.sgf" in err and "Traceback" not in err, err
    assert summary is not None and len(summary["per_game"]) == 2 and (sgf_dir / "game-0001.sgf").is_file()
