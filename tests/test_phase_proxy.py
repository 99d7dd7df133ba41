"""bench/phase_proxy.py: two copies of an engine, the first playing a game's first M moves."""

import subprocess
import sys
from pathlib import Path

import pytest

PROXY = Path(__file__).resolve().parent.parent / "bench" / "phase_proxy.py"

# A GTP engine that plays the first free point of a 3x3 board's A1..C3 order and logs every command it gets
# (to the file named by its first argument), so a test can see which copy played which move.
FAKE = r'''
import sys
log = open(sys.argv[1], "a")
taken = set()
for line in sys.stdin:
    words = line.split()
    log.write(" ".join(words) + "\n"); log.flush()
    if not words:
        continue
    name = words[0]
    if name == "clear_board":
        taken.clear()
    if name == "play":
        if words[2] == "XX":
            print("? illegal move\n", flush=True); continue
        taken.add(words[2])
    if name == "genmove":
        move = next(v for v in ("A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3") if v not in taken)
        taken.add(move)
        print(f"= {move}\n", flush=True); continue
    if name == "name":
        print("= fake " + sys.argv[1].rsplit("/", 1)[-1] + "\n", flush=True); continue
    print("=\n", flush=True)
    if name == "quit":
        break
'''


def run(tmp_path, commands, switch_at=2, late_args=("early.log:late.log",), switch_back=None):
    fake = tmp_path / "fake.py"
    fake.write_text(FAKE)
    argv = [sys.executable, str(PROXY), "--switch-at", str(switch_at)]
    if switch_back is not None:
        argv += ["--switch-back", str(switch_back)]
    for item in late_args:
        argv += ["--late-arg", item]
    argv += ["--", sys.executable, str(fake), "early.log"]
    done = subprocess.run(argv, input="".join(c + "\n" for c in commands), capture_output=True, text=True,
                          cwd=tmp_path, timeout=60)
    early = (tmp_path / "early.log").read_text().splitlines() if (tmp_path / "early.log").exists() else []
    late = (tmp_path / "late.log").read_text().splitlines() if (tmp_path / "late.log").exists() else []
    return done, early, late


def test_the_early_copy_plays_the_first_moves_and_both_hold_the_game(tmp_path):
    done, early, late = run(tmp_path, ["boardsize 3", "clear_board", "1 genmove b", "play w B1", "genmove b",
                                       "genmove w", "quit"], switch_at=2)
    assert done.returncode == 0, done.stderr
    responses = [r for r in done.stdout.split("\n\n") if r.strip()]
    assert responses == ["=", "=", "=1 A1", "=", "= C1", "= A2", "="]
    # moves 1-2 (A1 generated, B1 played) were the early copy's; move 3 (C1) the late one's, then A2 also
    assert early.count("genmove b") == 1 and "play b C1" in early and "play w A2" in early
    assert late.count("genmove b") == 1 and late.count("genmove w") == 1 and "play b A1" in late
    assert "play w B1" in early and "play w B1" in late
    assert "move 1 by the early engine" in done.stderr and "move 3 by the late engine" in done.stderr


def test_switch_back_gives_the_late_copy_a_window_of_moves(tmp_path):
    done, early, late = run(tmp_path, ["clear_board", "genmove b", "genmove w", "genmove b", "genmove w",
                                       "genmove b", "quit"], switch_at=1, switch_back=3)
    assert done.returncode == 0, done.stderr
    responses = [r for r in done.stdout.split("\n\n") if r.strip()]
    assert responses == ["=", "= A1", "= B1", "= C1", "= A2", "= B2", "="]  # both copies hold the same game
    assert early.count("genmove b") == 2 and early.count("genmove w") == 1  # moves 1, 4 and 5
    assert late.count("genmove w") == 1 and late.count("genmove b") == 1  # moves 2 and 3
    for n, who in ((1, "early"), (2, "late"), (3, "late"), (4, "early"), (5, "early")):
        assert f"move {n} by the {who} engine" in done.stderr


def test_clear_board_starts_the_count_again(tmp_path):
    done, early, late = run(tmp_path, ["clear_board", "play b A1", "play w B1", "clear_board", "genmove b",
                                       "quit"], switch_at=2)
    assert "genmove b" in early and "genmove b" not in late
    assert "move 1 by the early engine" in done.stderr


def test_an_error_of_either_copy_is_the_answer(tmp_path):
    done, _, _ = run(tmp_path, ["play b XX", "name", "quit"])
    responses = [r for r in done.stdout.split("\n\n") if r.strip()]
    assert responses[0].startswith("? illegal move")
    assert responses[1] == "= fake early.log"  # the early copy's answer


def test_a_replacement_that_the_command_lacks_is_refused(tmp_path):
    done, early, late = run(tmp_path, ["quit"], late_args=("=40000:=10000",))
    assert done.returncode != 0 and "is not an argument of the command" in done.stderr
    assert early == [] and late == []


@pytest.mark.parametrize("bad", [["--switch-at", "-1"], ["--switch-at", "2", "--late-arg", "nocolon"],
                                 ["--switch-at", "2", "--switch-back", "2"], ["--switch-at", "2", "--switch-back", "x"],
                                 ["--switch-at", "2", "--switch-back", "10001"]])
def test_bad_options_are_refused(bad):
    done = subprocess.run([sys.executable, str(PROXY), *bad, "--", "true"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 2 and "phase_proxy" not in done.stdout
