"""GTP time management: the time manager's allocation under absolute, Canadian and Japanese
clocks, time_settings, kgs-time_settings and time_left, and what genmove takes from them."""

import time

import pytest
from gtp_double import (
    make_engine,
    ok,
)

from foogo.geometry import BLACK, WHITE
from foogo.gtp import TimeManager


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


def test_real_search_genmove_under_time_left_returns_inside_its_budget(real_engine_factory):
    engine = real_engine_factory(seconds=30, seed=2)  # the clock, not --time, must decide
    ok(engine, "time_settings 0 1 1")  # Canadian: 1 s for every stone
    for color in "bw":
        ok(engine, f"time_left {color} 1 1")
        start = time.perf_counter()
        engine.execute(f"genmove {color}")
        assert time.perf_counter() - start < 1.0


def test_a_byo_yomi_period_too_small_to_divide_by_still_lets_the_engine_move():
    engine = make_engine(script=["E5", "C3"])
    ok(engine, "kgs-time_settings byoyomi 0 5e-324 1")  # seconds // 5e-324 is inf: int() of it failed
    assert ok(engine, "genmove b") == "E5"
    engine.time.spend(WHITE, 0.5)  # past the period: a period lost, not an OverflowError
    assert ok(engine, "genmove w") == "C3"
