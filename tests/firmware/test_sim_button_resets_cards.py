# The buttons held through a reset at a Tock and a Hold'em table (test_sim_button_resets.py
# says what is checked): Tock's undo and new act, its pause and every button at a card table
# are refused with an `error`, which must not come twice either. A module of its own: after
# Tock's rules are loaded, the 64-bit build's 320 KB has no room left for Weykick's tables.
from check import Rand
from test_sim_button_resets import check


def test_tock_and_holdem_buttons_held_through_a_reset_answer_once():
    check("table tock players=2 rules=classic\n", Rand(7120), 8)
    check("table holdem seats=2\n", Rand(7121), 8)
