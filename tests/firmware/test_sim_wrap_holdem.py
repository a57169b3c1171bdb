# Hold'em across the board's tick counter wrap (issue 34; wrapkit.py says how): a hand with
# resets, the card spot looked at again at power-up, heartbeats.
from wrapkit import across, counted

HOLDEM = "table holdem seats=3 stacks=100 blinds=1/2 button=1\npace 100\nsend hand\n"


def test_holdem_a_hand_with_resets_and_the_pile_across_the_wrap():
    said = {}
    across(
        "holdem",
        HOLDEM + "send call 1\nsend call 2\nsend check 3\ncard AS\ncard KD\nreset\ncard 7C\n"
        "send check 2\nsend bet 3 10\nsend call 1\nsend fold 2\ncard 2H\nsend check 3\n"
        "send check 1\ncard 9S\nsend check 3\nsend check 1\ncard AH\ncard AD\nreset\n"
        "card QS\ncard QH\nwait 1500\n",
        6,
        look=counted(said),
    )
    assert said["hand_end"] == 1 and said["resumed"] == 2
