# Weykick across the board's tick counter wrap (issue 34; wrapkit.py says how): goals in
# their lockout, a ball lying in a goal through a reset and the stuck time, a timed match's
# clock, halves, break and pause.
from wrapkit import across, counted

WEYKICK = "table weykick mode=first-to:10\n"


def test_weykick_goals_in_their_lockout_across_the_wrap():
    rattle = "".join("glitch A %d\nwait 60\n" % ms for ms in (30, 40, 25, 50))
    said = {}
    across(
        "lockout",
        WEYKICK + "pace 40\nball A\nwait 200\n" + rattle + "clear A\nwait 150\nball A\n"
        "wait 1000\nclear A\nwait 500\nball A\nwait 300\nclear A\nwait 350\nball A\nwait 300\n"
        "clear A\nwait 800\nball B\nwait 100\nball A\nwait 300\nclear B\nclear A\nwait 900\n",
        3,
        look=counted(said),
    )
    assert said["ignored:lockout"] == said["ignored:both-goals"] == 1 and said["goal"] == 4


def test_weykick_a_ball_lying_in_a_goal_through_a_reset_across_the_wrap():
    # the ball stays in through the power cut: the same ball (spent), not a goal, said
    # stuck only once it has been seen in for 30 s
    said = {}
    across(
        "stuck",
        WEYKICK + "pace 0\nball B\nwait 1000\nreset\nwait 3000\nclear B\nwait 1000\n"
        "ball A\nwait 500\nclear A\nwait 1000\nball A\nreset\nwait 31000\nclear A\nwait 900\n",
        4,
        look=counted(said),
    )
    assert said["ignored:stuck"] == 1 and said["goal"] == 3


def test_weykick_a_timed_match_its_halves_break_and_pause_across_the_wrap():
    said = {}
    across(
        "timed",
        "table weykick mode=timed:1 halves=2 break=5\npace 100\nball A\nwait 300\nclear A\n"
        "wait 2000\nbutton pause\nwait 3000\nbutton pause\nwait 27000\nball B\nwait 300\n"
        "clear B\nwait 7000\nball B\nwait 300\nclear B\nwait 30000\n",
        5,
        look=counted(said),
    )
    assert said["half"] == said["second_half"] == said["match_end"] == 1 and said["goal"] == 3
