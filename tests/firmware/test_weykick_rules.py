# Weykick scoring rules (../shared/specs/weykick.md): W3, W4, W5, W7 on the pure core.
from check import raises

from games.weykick.rules import Match, Series, SettingsError, parse_mode


def match(**settings):
    return Match(parse_mode(settings))


def test_W3_ball_in_goal_A_is_a_point_for_B():
    m = match()
    assert m.goal("A") == "B"
    assert m.score == {"A": 0, "B": 1}


def test_W4_first_to_n():
    m = match(mode="first-to:3")
    for _ in range(3):
        m.goal("B")
    assert m.over and m.winner == "A"
    assert m.goal("B") is None  # no goal counts after the end


def test_W4_win_by_two():
    m = match(**{"mode": "first-to:3", "win-by": 2})
    for into in "BABAB":  # A 3 - B 2: not by two
        m.goal(into)
    assert not m.over
    m.goal("B")  # 4-2
    assert m.over and m.winner == "A"


def test_W4_timed_with_halves_and_break():
    m = match(**{"mode": "timed:2", "halves": 2, "break": 30})
    assert m.advance(60000) == ["half"]
    assert m.advance(10000) == []  # the break: the match clock stands
    assert m.clock_ms == 60000
    assert m.advance(20000) == ["resume"]
    m.goal("A")
    assert m.advance(60000) == ["end"]
    assert m.over and m.winner == "B" and m.clock_ms == 120000


def test_W4_timed_tie_is_a_draw_or_golden_goal():
    m = match(mode="timed:1")
    assert m.advance(60000) == ["end"] and m.over and m.winner is None
    g = match(**{"mode": "timed:1", "golden-goal": "on"})
    assert g.advance(60000) == ["golden"] and not g.over
    g.advance(5000)
    g.goal("B")
    assert g.over and g.winner == "A"


def test_W4_best_of_three_series():
    s = Series(parse_mode({"mode": "first-to:1", "best-of": 3}))
    s.match.goal("B")  # A wins match 1
    assert s.finish()  # the series goes on
    s.match.goal("A")  # B wins match 2
    assert s.standing() == {"A": 1, "B": 1}
    assert s.finish()
    s.match.goal("B")
    assert not s.finish() and s.decided() == "A"


def test_W5_undo_reopens_a_match_its_goal_ended():
    m = match(mode="first-to:2")
    m.goal("B")
    m.goal("B")
    assert m.over
    assert m.undo() == "A"
    assert not m.over and m.score == {"A": 1, "B": 0}
    assert match().undo() is None


def test_W5_pause_stops_the_clock():
    m = match(mode="timed:5")
    m.advance(1000)
    m.paused = True
    m.advance(5000)
    assert m.clock_ms == 1000


def test_W7_variant_is_recorded_and_checked():
    assert parse_mode({"variant": "hockey"})["variant"] == "hockey"
    raises(SettingsError, parse_mode, {"variant": "tennis"})


def test_bad_settings_say_what_is_wrong():
    for bad in (
        {"mode": "first-to:0"},
        {"mode": "sudden"},
        {"best-of": 2},
        {"halves": 3},
        {"golden-goal": "maybe"},
        {"win-by": "two"},
    ):
        e = raises(SettingsError, parse_mode, bad)
        assert str(e)
