"""Pluggable playout policies: a numba function with policy.py's seam drives run_playouts, foogo
bench and the search, and is checked: a point it may not take is an error, never a corrupt board."""

import argparse
import json
import pathlib
import sys

import numpy as np
import pytest
from numba import njit

from foogo import BLACK, WHITE, Board, Search, SearchConfig, run_playouts
from foogo import board_kernels as bk
from foogo.bench import configure_parser, run
from foogo.policy import PASS
from foogo.random_stream import random_below

ROOT = pathlib.Path(__file__).resolve().parent.parent


def parser():
    p = argparse.ArgumentParser()
    configure_parser(p)
    return p


@njit
def lowest_playable(s, z, color, rng, table):
    """The lowest empty point `color` may take under the playout rule: no randomness at all."""
    ko = bk.ko_point_for(s, color)
    for p in range(s[bk.M_P]):
        if bk.color_at(s, bk.stride(s), p) == bk.EMPTY and p != ko and bk.is_playable(s, p, color):
            return p
    return PASS


@njit
def always_pass(s, z, color, rng, table):
    return PASS


@njit
def occupied(s, z, color, rng, table):
    """Breaks the rule: the first stone on the board, else the centre."""
    for p in range(s[bk.M_P]):
        if bk.color_at(s, bk.stride(s), p) == bk.BLACK:
            return p
    return (s[bk.M_W] + 1) * (s[bk.M_SIZE] // 2 + 1)


def test_a_custom_policy_is_the_one_that_plays():
    board = Board(7)
    mine = run_playouts(board, 200, seed=1, policy=lowest_playable)
    light = run_playouts(board, 200, seed=1, policy="light")
    # its rule: no randomness, so every playout is the same game; light's differ
    assert len(set(mine.scores.tolist())) == 1 and len(set(mine.moves.tolist())) == 1
    assert len(set(light.scores.tolist())) > 5
    board.play(BLACK, "D4")
    passing = run_playouts(board, 50, seed=2, policy=always_pass)
    assert (passing.moves == 0).all() and (passing.scores == 49).all()  # D4 owns the whole board


def _passing_policy():
    """A new policy function each call, as a user writes one after another in a session."""
    @njit
    def policy(s, z, color, rng, table):
        return PASS
    return policy


def test_a_policy_made_after_another_was_dropped_still_plays():
    # numba cached the kernels it compiled for each policy under a key that holds the policy itself;
    # once a dropped policy was collected, the next policy's save failed: "underlying object has vanished"
    import gc

    board = Board(5)
    for _ in range(3):
        result = run_playouts(board, 2, seed=1, policy=_passing_policy())
        assert (result.moves == 0).all()
        gc.collect()


def test_a_policy_that_breaks_the_rule_is_an_error():
    board = Board(5)
    board.play(BLACK, "C3")
    with pytest.raises(ValueError, match="may not take"):
        run_playouts(board, 3, policy=occupied)
    board.check_consistency()


def test_a_policy_with_the_wrong_arguments_is_named_before_anything_compiles():
    from foogo.policy import choose_light

    @njit
    def three(s, z, color):
        return PASS

    for policy in (choose_light, three, "foogo.policy:choose_light"):
        with pytest.raises(ValueError, match=r"takes \(s, z, color, rng, table\); .* takes \(s, z, c"):
            run_playouts(Board(5), 3, policy=policy)
        with pytest.raises(ValueError, match="takes"):
            SearchConfig(policy=policy)
    with pytest.raises(ValueError, match="numba function"):
        run_playouts(Board(5), 3, policy=lambda s, z, color, rng, table: PASS)


@njit
def half_point(s, z, color, rng, table):
    return 1.5


def test_a_policy_that_does_not_answer_a_point_is_one_line_not_a_page_of_compiler_output():
    for attempt in (lambda: run_playouts(Board(5), 3, policy=half_point),
                lambda: Search(SearchConfig(playouts=20, policy=half_point)).genmove(Board(5), BLACK, 0.5)):
        with pytest.raises(ValueError, match="half_point does not compile as one .*float64") as refused:
            attempt()
        assert "\n" not in str(refused.value) and "\x1b" not in str(refused.value)


@njit
def searched(s, z, color, rng, table):
    """The one policy these tests search with (a custom policy's search kernel compiles for each policy, in
    each worker: the tests that search with it share a worker and one compilation): lowest_playable on 7x7;
    on 6x6 it breaks the rule as occupied does; on 5x5 it first draws numbers for some 2 ms."""
    if s[bk.M_SIZE] == 6:
        return occupied(s, z, color, rng, table)
    if s[bk.M_SIZE] == 5:
        total = 0
        for _ in range(200_000):
            total += random_below(rng, 7)
        if total < 0:
            return PASS
    return lowest_playable(s, z, color, rng, table)


SEARCHES = pytest.mark.xdist_group("custom-policy-search")  # pyproject's --dist loadgroup: one worker


@SEARCHES
def test_bench_and_search_take_a_custom_policy(monkeypatch, capsys):
    # as the `foogo` script runs it from the repository's root: the current directory not on sys.path
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", ".", str(ROOT))])
    for name in ("examples", "examples.capture_first"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    args = parser().parse_args(["--size", "7", "--playouts", "300", "--repeats", "1", "--json", "--policy",
                                "examples.capture_first:capture_first"])
    assert run(args) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["policy"] == "examples.capture_first:capture_first" and report["playouts"] == 300
    bad = parser().parse_args(["--policy", "examples.nowhere:nothing"])
    assert run(bad) == 2
    board = Board(7)
    result = Search(SearchConfig(playouts=300, seed=1, policy=searched)).genmove(board, BLACK, 0.5)
    assert result.vertex in [board.geometry.name(int(p)) for p in board.geometry.points] + ["pass"]
    # each policy its own search kernel (the test searched with two policies once): built, not compiled, here
    from foogo.tree import custom_iterations
    assert custom_iterations(occupied) is not custom_iterations(searched) is custom_iterations(searched)
    broken = Board(6)
    broken.play(BLACK, "C3")
    with pytest.raises(ValueError, match="the playout policy searched chose a point it may not take"):
        Search(SearchConfig(playouts=50, policy=searched)).genmove(broken, WHITE, 0.5)
    broken.check_consistency()


def test_the_example_policy_changes_the_games(monkeypatch):
    monkeypatch.syspath_prepend(str(ROOT))
    from examples.capture_first import capture_first
    board = Board(9)
    light = run_playouts(board, 2000, seed=3, policy="light")
    greedy = run_playouts(board, 2000, seed=3, policy=capture_first)
    # the same random streams, another policy: other games (captures come sooner)
    assert not np.array_equal(greedy.scores, light.scores)
    assert np.mean(greedy.moves) != np.mean(light.moves)


@njit
def unsigned_lowest(s, z, color, rng, table):
    p = lowest_playable(s, z, color, rng, table)
    return np.uint64(p) if p >= 0 else np.uint64(0)


@njit
def always_raises(s, z, color, rng, table):
    raise ValueError("my policy broke")


def test_a_policy_answering_an_unsigned_point_or_nothing_is_one_line():
    # an unsigned point, unified with PASS, typed as a float that the batch kernel failed on: 76 lines of numba;
    # a policy that raises on every path was said to answer the wrong type
    for policy, message in ((unsigned_lowest, "unsigned_lowest answers uint64, where a point is a signed integer"),
                            (always_raises, "always_raises answers nothing: it returns None, or raises on every")):
        with pytest.raises(ValueError, match=message) as refused:
            run_playouts(Board(5), 3, policy=policy)
        assert "\n" not in str(refused.value)
        with pytest.raises(ValueError, match=message):
            Search(SearchConfig(playouts=20, policy=policy)).genmove(Board(5), BLACK, 0.5)


def test_errors_name_the_policy_and_what_a_policy_may_be():
    with pytest.raises(ValueError, match="the playout policy occupied chose a point it may not take"):
        board = Board(5)
        board.play(BLACK, "C3")
        run_playouts(board, 3, policy=occupied)  # it said CPUDispatcher(<function occupied at 0x...>)
    with pytest.raises(ValueError, match="available: light, .*, or 'module:function' naming a custom policy"):
        run_playouts(Board(5), 3, policy="tests.policies.mine")
    from foogo.playout import play_out
    with pytest.raises(ValueError, match="play_out takes a built-in policy's name .* not lowest_playable"):
        play_out(Board(5), policy=lowest_playable)
    from foogo.search_config import ConfigError
    with pytest.raises(ConfigError, match="policy is wrong: unknown playout policy") as refused:
        SearchConfig(policy="bogus")
    assert refused.value.field == "policy"


@SEARCHES
def test_a_timed_search_with_a_slow_policy_keeps_its_budget():
    # its batches were 655 iterations on 5x5 whatever the policy: a 0.5-s search of a 3-ms policy took 84 s
    search = Search(SearchConfig(seconds=0.3, seed=1, policy=searched))  # some 2 ms a move on 5x5
    search.genmove(Board(5), BLACK, 0.5)  # compiles the policy's kernels unless another test did
    result = search.genmove(Board(5), BLACK, 0.5)
    assert result.playouts >= 1 and result.seconds < 1.5, result


@njit
def raises_its_own(s, z, color, rng, table):
    """The policy's own bugs: a ValueError on 5x5, a ZeroDivisionError on other boards (one function: one kernel
    to compile for both)."""
    if s[bk.M_SIZE] == 5:
        raise ValueError("my own bug")
    if s[bk.M_SIZE] > 0:
        raise ZeroDivisionError("the policy's own bug")
    return PASS


@pytest.mark.parametrize("size, error", [("5", "ValueError: my own bug"),
                                         ("7", "ZeroDivisionError: the policy's own bug")])
def test_bench_names_a_custom_policys_own_error_in_a_line(capsys, size, error):
    args = parser().parse_args(["--size", size, "--playouts", "10", "--repeats", "1", "--policy",
                                f"{__name__}:raises_its_own"])
    assert run(args) == 1  # was a 23-line traceback; a ValueError was printed as if it were foogo's
    assert capsys.readouterr().err.strip().splitlines()[-1] == (
        f"foogo bench: the playout policy {__name__}:raises_its_own failed: {error}")


def test_long_policy_names_are_echoed_in_part():
    from foogo.playout import play_out
    for call in (lambda: play_out(Board(5), policy="x:" + "y" * 100_000),
                 lambda: SearchConfig(policy="x" * 100_000), lambda: SearchConfig(policy="x:" + "y" * 100_000),
                 lambda: SearchConfig(policy=list(range(100_000)))):
        with pytest.raises(ValueError) as error:
            call()
        assert len(str(error.value)) < 400, len(str(error.value))  # 100,134 to 688,988 characters
