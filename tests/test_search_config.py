"""A search's configuration (search_config.py): the values SearchConfig refuses, and the default
expansion threshold and self-atari rate."""

import pytest

from foogo import Board
from foogo import search as search_module
from foogo import tree as tk
from foogo.search import ConfigError, Search, SearchConfig


def test_rejects_bad_configuration():
    with pytest.raises(ValueError, match="policy"):
        SearchConfig(policy="heavy-metal")
    with pytest.raises(ValueError, match="playouts"):
        SearchConfig(playouts=0)
    with pytest.raises(ValueError, match="threads"):
        SearchConfig(threads=0)
    with pytest.raises(ValueError, match="threads"):
        SearchConfig(threads=1_000_000)
    for seconds in (float("inf"), 1e300, float("nan")):
        with pytest.raises(ValueError, match="seconds"):
            SearchConfig(seconds=seconds)
    for field, value in (("equiv", 0.0), ("prior", -1.0), ("uct", float("nan")), ("expand_threshold", 0.5),
                         ("prior", 1e7), ("equiv", 1e40)):  # past float32's visit counts: the search passed at once
        with pytest.raises(ValueError, match=field):
            SearchConfig(**{field: value})
    SearchConfig(prior=1e6, equiv=1e12)  # the bounds themselves
    with pytest.raises(ValueError, match="playouts must be from 1 to 1e\\+12"):
        SearchConfig(playouts=10**27)
    with pytest.raises(ValueError, match="memory_mb must be at most this machine's memory"):
        SearchConfig(memory_mb=10**9)  # a petabyte: more than any machine this runs on
    for threshold in (1.0, 2.0, -0.1, float("nan")):  # 1 or more resigned every move
        with pytest.raises(ValueError, match="resign_threshold must be a win rate in \\[0, 1\\)"):
            SearchConfig(resign_threshold=threshold)
    for field, value in (("late_nakade", -0.1), ("crit_min_visits", -1), ("memory_mb", 0),
                         ("self_atari_rate", 1.5), ("self_atari_rate", -0.1), ("self_atari_rate", float("nan"))):
        with pytest.raises(ConfigError) as refused:  # the field named apart, for a command line's own names
            SearchConfig(**{field: value})
        assert refused.value.field == field and str(refused.value) == f"{field} {refused.value.rule}"


def test_the_default_expansion_threshold_is_3_for_heavy_searches_up_to_9x9_else_8():
    assert search_module.default_expand_threshold(9, "heavy") == 3.0
    assert search_module.default_expand_threshold(5, "heavy-nakade") == 3.0
    assert search_module.default_expand_threshold(9, "light") == 8.0
    assert search_module.default_expand_threshold(13, "heavy") == 8.0
    assert search_module.default_expand_threshold(19, "light") == 8.0
    search = Search(SearchConfig(policy="heavy"))
    assert search._params(Board(9), 7.0)[tk.P_EXPAND] == 3.0
    assert search._params(Board(19), 7.0)[tk.P_EXPAND] == 8.0
    given = Search(SearchConfig(policy="heavy", expand_threshold=12.0))
    assert given._params(Board(9), 7.0)[tk.P_EXPAND] == 12.0
    assert given.expand_threshold(9) == 12.0


def test_the_search_s_playouts_redraw_six_big_self_ataris_in_ten_up_to_9x9_and_every_one_above():
    assert search_module.default_self_atari_rate(9) == 0.6
    assert search_module.default_self_atari_rate(5) == 0.6
    assert search_module.default_self_atari_rate(13) == 1.0
    assert search_module.default_self_atari_rate(19) == 1.0
    search = Search(SearchConfig(policy="heavy"))
    assert search._params(Board(9), 7.0)[tk.P_REJECT] == 600  # what the tree's playouts read (tree._play_out)
    assert search._params(Board(13), 7.0)[tk.P_REJECT] == 1000
    given = Search(SearchConfig(policy="heavy", self_atari_rate=0.25))
    assert given._params(Board(19), 7.0)[tk.P_REJECT] == 250
    assert given.self_atari_rate(9) == 0.25
