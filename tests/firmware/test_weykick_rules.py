# Weykick scoring rules (docs/rules/weykick.md, docs/weykick.md): W3, W4, W5, W7 on the pure
# core.
from check import Rand, raises

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
    assert m.advance(20000) == ["second_half"]
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
    assert not s.over() and s.next() == "next"  # the series goes on
    s.match.goal("A")  # B wins match 2
    assert s.standing() == {"A": 1, "B": 1}
    assert s.next() == "next"
    s.match.goal("B")
    assert s.over() and s.winner() == "A"
    assert s.next() == "series" and s.match.number == 1 and s.wins == {"A": 0, "B": 0}


def test_W4_a_series_is_at_most_n_matches_draws_count_for_no_one():
    rules = parse_mode({"mode": "timed:1", "best-of": 3})
    s = Series(rules)
    for n in (1, 2):
        s.match.advance(60000)  # 0-0: a draw
        assert s.match.over and s.match.winner is None and not s.over()
        assert s.next() == "next" and s.match.number == n + 1
    s.match.advance(60000)
    assert s.over() and s.winner() is None  # three draws: a drawn series, no match 4
    s = Series(rules)
    s.match.goal("B")
    s.match.advance(60000)  # A wins
    s.next()
    s.match.advance(60000)  # draw
    s.next()
    s.match.advance(60000)  # draw: A 1-0 after three matches
    assert s.over() and s.winner() == "A"


def test_W5_new_mid_series_plays_the_match_again_and_keeps_the_standing():
    s = Series(parse_mode({"mode": "first-to:1", "best-of": 3}))
    s.match.goal("B")
    s.next()
    s.match.goal("A")
    s.next()  # 1-1, match 3
    assert s.match.number == 3
    assert s.next() == "again"  # abandoned before its end: match 3 from 0-0
    assert s.match.number == 3 and s.standing() == {"A": 1, "B": 1}


def test_W5_undo_reopens_a_match_its_goal_ended():
    m = match(mode="first-to:2")
    m.goal("B")
    m.goal("B")
    assert m.over
    assert m.undo() == "A"
    assert not m.over and m.score == {"A": 1, "B": 0}
    assert match().undo() is None


def test_W5_undo_after_the_clock_decides_again_on_the_corrected_score():
    for golden in ("on", "off"):
        m = match(**{"mode": "timed:1", "golden-goal": golden})
        m.goal("A")  # B leads 0-1
        assert m.advance(60000) == ["end"] and m.winner == "B"
        assert m.undo() == "B"
        if golden == "on":  # 0-0 at full time: golden goal again
            assert not m.over and m.golden
        else:  # 0-0 at full time: a draw
            assert m.over and m.winner is None
    m = match(**{"mode": "timed:1", "golden-goal": "on"})
    m.goal("A")
    m.goal("B")  # 1-1
    assert m.advance(61000) == ["golden"] and m.clock_ms == 61000
    assert m.undo() == "A"  # the equaliser taken back: 0-1 at full time, B wins
    assert m.over and m.winner == "B" and not m.golden


def test_W4_time_cut_into_any_steps_comes_out_the_same():
    """Seeded: a loop that stalls (one long step across the half, the break, the end) keeps
    each stretch of time where it belongs."""
    rng = Rand(22)
    for _ in range(300):
        settings = {"mode": "timed:%d" % (1 + rng.below(4)), "golden-goal": rng.pick(("on", "off"))}
        if rng.below(10) < 7:
            settings["halves"] = 2
            settings["break"] = rng.pick((0, 5, 30))
        total = rng.below(300001)
        one = match(**settings)
        one_said = one.advance(total)
        cut = match(**settings)
        said = []
        left = total
        while left:
            ms = min(left, rng.pick((1, 5, 17, 999, 40000, 200000)))
            said += cut.advance(ms)
            left -= ms
        assert said == one_said, (settings, total, said, one_said)
        assert (cut.clock_ms, cut.break_left, cut.half, cut.over, cut.golden) == (
            one.clock_ms,
            one.break_left,
            one.half,
            one.over,
            one.golden,
        )
        # and the single step against the arithmetic: clock = time less the break
        m = one.rules
        length = m["target"] * 60000
        brk = m["break_s"] * 1000 if m["halves"] == 2 else 0
        half = length // 2 if m["halves"] == 2 else length
        expect = total if total <= half else half if total <= half + brk else total - brk
        if m["golden_goal"] is False:
            expect = min(expect, length)
        assert one.clock_ms == expect, (settings, total, one.clock_ms, expect)


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
        {"win-by": 5},
        {"best-of": 7},
        {"players": 9},
        {"win_by": 2},
        {"mode": "timed:5", "win-by": 2},  # W4: win-by is first-to's
        {"golden-goal": "on"},  # and golden goal, halves, a break are timed matches'
        {"mode": "timed:5", "break": 60},  # a break needs two halves
        {"players": 3, "side-a": "Ana,Luis", "side-b": "Marc,Pol"},
        {"players": 4, "side-a": "Ana,Luis,Marc,Pol"},  # W1: three a side at most
        {"players": 2, "side-a": "Ana", "side-b": "Ana"},
    ):
        e = raises(SettingsError, parse_mode, bad)
        assert str(e)


def test_W1_teams_and_players_are_settings():
    r = parse_mode({"players": 6, "side-a": "Ana,Luis,Eva", "side-b": "Marc,Pol,Jo"})
    assert r["target"] == 10
    from games.settings import check

    assert check("weykick", {"players": 3, "side-a": "Ana,Luis"})["players"] == 3
    assert check("weykick", {})["players"] == 2
