# Weykick at the table (W1-W7): table scripts through the firmware, goal sensors debounced,
# each goal counted once.
from simcheck import kinds, of, run

HEAD = "table weykick mode=first-to:10 variant=football\n"


def goals(evs):
    return [(g["goal"], g["score"]["A"], g["score"]["B"]) for g in of(evs, "goal")]


def test_W2_goal_counts_once_and_W6_says_how_long_the_ball_was_seen():
    evs = run(HEAD + "ball A\nwait 2000\nclear A\nwait 500\n")
    assert goals(evs) == [("A", 0, 1)]
    g = of(evs, "goal")[0]
    assert g["side"] == "B" and g["match"] == 1 and "match_ms" in g and g["seen_ms"] >= 20
    (c,) = of(evs, "cleared")
    assert 2000 <= c["seen_ms"] <= 2300


def test_W2_blip_shorter_than_debounce_never_counts():
    evs = run(HEAD + "glitch A 8\nwait 300\nglitch B 15\nwait 300\n")
    assert goals(evs) == []


def test_W2_rattling_and_bouncing_out_and_back_count_once():
    rattle = "".join("glitch A %d\nwait 60\n" % ms for ms in (30, 40, 25, 50))
    evs = run(
        HEAD
        + "pace 40\nball A\nwait 200\n"
        + rattle
        + "clear A\nwait 150\nball A\nwait 1000\nclear A\nwait 600\n"
    )
    assert goals(evs) == [("A", 0, 1)]


def test_W2_ball_left_in_the_goal_counts_once():
    evs = run(HEAD + "ball B\nwait 10000\n")
    assert goals(evs) == [("B", 1, 0)]


def test_W2_real_second_goal_soon_after_counts():
    evs = run(
        HEAD + "pace 50\nball A\nwait 300\nclear A\nwait 500\nball A\nwait 300\nclear A\nwait 500\n"
    )
    assert goals(evs) == [("A", 0, 1), ("A", 0, 2)]  # 850 ms apart: a blind 1-3 s timer loses it


def test_W4_first_to_ends_the_match():
    script = (
        "table weykick mode=first-to:2\npace 100\n" + "ball B\nwait 200\nclear B\nwait 700\n" * 3
    )
    evs = run(script)
    assert goals(evs) == [("B", 1, 0), ("B", 2, 0)]
    (end,) = of(evs, "match_end")
    assert end["winner"] == "A" and end["score"] == {"A": 2, "B": 0} and end["series_over"]
    assert of(evs, "error")[0]["what"] == "match-over"


def test_W4_timed_match_ends_on_the_clock():
    evs = run("table weykick mode=timed:1\nball A\nwait 300\nclear A\nwait 61000\n")
    (end,) = of(evs, "match_end")
    assert end["winner"] == "B" and 59000 < end["duration_ms"] <= 60000


def test_W5_undo_button_and_new_match_and_pause():
    evs = run(
        HEAD + "ball A\nwait 300\nclear A\nwait 700\nbutton undo\nwait 300\n"
        "button pause\nwait 300\nbutton pause\nwait 300\nbutton new\nwait 300\n"
    )
    assert kinds(evs) == ["goal", "cleared", "undo", "pause", "resume", "game"]
    assert of(evs, "undo")[0]["score"] == {"A": 0, "B": 0}


def test_W7_hockey_scores_the_same_way():
    evs = run("table weykick mode=first-to:1 variant=hockey\nball A\nwait 500\n")
    assert of(evs, "match_end")[0]["variant"] == "hockey"


def test_one_firmware_switches_game_by_host_command():
    evs = run(
        "table tock players=4\nsend new weykick mode=first-to:3\nwait 200\nball A\nwait 500\n"
    )
    (g,) = of(evs, "game")
    assert g["game"] == "weykick"
    assert goals(evs) == [("A", 0, 1)]


def test_weykick_match_resumes_after_a_reset():
    evs = run(HEAD + "ball A\nwait 500\nclear A\nwait 800\nreset\nwait 300\nball B\nwait 500\n")
    (r,) = of(evs, "resumed")
    assert r["score"] == {"A": 0, "B": 1}
    assert goals(evs) == [("A", 0, 1), ("B", 1, 1)]
