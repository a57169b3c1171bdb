# Tock after a detour through Holdem takes the board as it stands (ADV5-2): switches.py.
from switches import tock_after


def test_tock_after_holdem_takes_the_board_as_it_stands():
    tock_after("holdem")
