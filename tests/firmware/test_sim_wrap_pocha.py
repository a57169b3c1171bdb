# Pocha across the board's tick counter wrap (issue 34; wrapkit.py says how): hands with
# resets, the card spot looked at again at power-up, heartbeats.
from wrapkit import across, counted

POCHA = "table pocha players=3 deck=40 schedule=short dealer=1\npace 150\n"


def test_pocha_hands_with_resets_and_the_pile_across_the_wrap():
    said = {}
    across(
        "pocha",
        POCHA + "card 5O\nsend bid 2 0\nsend bid 3 0\nsend bid 1 0\ncard 4C\nreset\n"
        "card 1C\ncard 3E\nwait 1200\ncard 4E\nsend bid 3 0\nsend bid 1 0\nsend bid 2 0\n"
        "card 6C\ncard 7O\nreset\ncard 5B\ncard 12C\ncard 3O\ncard 7C\nwait 1500\n",
        7,
        look=counted(said),
    )
    assert said["hand_end"] == 2 and said["resumed"] == 2
