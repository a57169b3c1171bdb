# Texas Hold'em betting (docs/rules/holdem.md): H1-H6 and H8 on the pure core.
from check import Rand, raises

from games.holdem.betting import Hand, Refused, first_button, next_button
from games.holdem.hands import card

SEATS = ["1", "2", "3", "4"]


def hand(stacks=None, button="1", **kw):
    st = {s: 100 for s in SEATS} if stacks is None else stacks
    # seats in table order (MicroPython dicts keep no order)
    return Hand([s for s in SEATS if s in st], st, button, **kw)


def state(h):
    return (
        dict(h.stack),
        dict(h.bet),
        dict(h.contrib),
        list(h.folded),
        h.to_act,
        h.current,
        h.min_raise,
        h.street,
    )


def refused(h, seat, action, amount=0, words=""):
    before = state(h)
    e = raises(Refused, h.act, seat, action, amount)
    assert words in str(e), str(e)
    assert state(h) == before  # H8: a refusal changes nothing


def test_H1_first_button_by_high_card_and_redraw_on_a_tie():
    assert first_button({"1": card("9S"), "2": card("KD"), "3": card("4C")}) == ("2", None)
    assert first_button({"1": card("KS"), "2": card("KD"), "3": card("4C")}) == (None, ["1", "2"])


def test_H1_button_moves_left_skipping_seats_without_chips():
    assert next_button(SEATS, {"1": 5, "2": 0, "3": 9, "4": 1}, "1") == "3"


def test_H2_blinds_and_first_to_act():
    h = hand()
    assert h.bet["2"] == 1 and h.bet["3"] == 2 and h.to_act == "4"


def test_H2_heads_up_button_posts_small_blind_and_acts_first():
    h = Hand(["1", "2"], {"1": 100, "2": 100}, "1")
    assert h.bet == {"1": 1, "2": 2} and h.to_act == "1"
    h.act("1", "call")
    h.act("2", "check")
    assert h.street == 1 and h.to_act == "2"  # after the flop the big blind acts first


def test_H2_short_blind_is_all_in_and_others_call_the_full_big_blind():
    h = hand({"1": 100, "2": 100, "3": 1, "4": 100})
    assert h.bet["3"] == 1 and h.stack["3"] == 0
    h.act("4", "call")
    assert h.bet["4"] == 2


def test_H3_pot_limit_raise_at_most_the_pot_after_calling():
    h = hand(structure="pot-limit")
    # pot 3 (blinds) + 2 to call = 5: seat 4 may raise to 2 + 5 = 7
    refused(h, "4", "raise", 8, "pot limit: at most to 7")
    h.act("4", "raise", 7)
    assert h.bet["4"] == 7


def test_H3_fixed_limit_sizes_and_cap():
    h = hand(
        {s: 500 for s in SEATS}, structure="fixed-limit", small_blind=1, big_blind=2, big_bet=10
    )
    refused(h, "4", "raise", 5, "bets and raises are of 2")
    h.act("4", "raise", 4)
    h.act("1", "raise", 6)
    h.act("2", "raise", 8)  # the blind + 3 raises: capped
    refused(h, "3", "raise", 10, "capped")


def test_H4_minimum_raise_and_big_blind_option():
    h = hand()
    refused(h, "4", "raise", 3, "to 4")
    h.act("4", "call")
    h.act("1", "call")
    h.act("2", "call")
    assert h.to_act == "3"  # the big blind has the option
    h.act("3", "raise", 8)  # a raise of 6: the next must be at least 6 more
    refused(h, "4", "raise", 13, "to 14")


def test_H4_check_only_while_nobody_has_bet():
    h = hand()
    refused(h, "4", "check", 0, "2 to call")


def test_H4_short_all_in_does_not_reopen_the_betting():
    h = hand({"1": 100, "2": 100, "3": 100, "4": 130})
    h.act("4", "raise", 100)  # raise of 98
    h.act("1", "fold")
    h.act("2", "fold")
    h.act("3", "call")
    # (no one left to raise: a new scene) seat 4 bet 100; now a short all-in above it
    h2 = hand({"1": 100, "2": 100, "3": 100, "4": 150})
    h2.act("4", "raise", 100)
    h2.act("1", "allin")  # to 100: just a call
    h2.act("2", "fold")
    h2.act("3", "fold")
    assert h2.street == 1 or h2.to_act is None
    h3 = hand({"1": 120, "2": 200, "3": 200, "4": 200})
    h3.act("4", "raise", 100)  # full raise of 98
    h3.act("1", "allin")  # 120: short by 78
    h3.act("2", "fold")
    h3.act("3", "call")
    refused(h3, "4", "raise", 180, "no full raise since seat 4 acted")
    h3.act("4", "call")
    assert h3.street == 1


def test_H4_raise_refused_when_every_other_seat_is_all_in():
    h = Hand(["1", "2"], {"1": 50, "2": 100}, "1")
    h.act("1", "allin")  # to 50
    refused(h, "2", "raise", 100, "all in: call or fold")
    h.act("2", "call")
    assert h.showdown_due() and h.stack["2"] == 50


def test_H4_all_in_seats_left_cards_run_out_without_betting():
    h = Hand(["1", "2"], {"1": 50, "2": 10}, "1")
    h.act("1", "raise", 10)
    h.act("2", "call")  # 10: seat 2 all in
    assert h.showdown_due()


def test_H5_everyone_folds_to_one_seat():
    h = hand()
    for s in ("4", "1", "2"):
        h.act(s, "fold")
    assert h.over and h.stack["3"] == 101  # its blind back and the small blind


def test_H6_three_way_all_in_with_different_stacks():
    h = hand({"1": 300, "2": 50, "3": 120, "4": 400}, button="1")
    h.act("4", "allin")
    h.act("1", "allin")
    h.act("2", "allin")
    h.act("3", "allin")
    assert h.showdown_due()
    assert h.pots() == [(200, ["1", "2", "3", "4"]), (210, ["1", "3", "4"]), (360, ["1", "4"])]
    assert h.stack["4"] == 100  # its uncalled 100 came back
    board = [card(c) for c in "2S 7D 9C JH KD".split()]
    hole = {
        "1": [card("AS"), card("AD")],
        "2": [card("KS"), card("KH")],
        "3": [card("QS"), card("QH")],
        "4": [card("3C"), card("4C")],
    }
    settled, _ = h.showdown(hole, board)
    assert [w for _, _, w, _ in settled] == [["2"], ["1"], ["1"]]
    assert h.stack == {"1": 570, "2": 200, "3": 0, "4": 100}
    assert sum(h.stack.values()) == 870


def test_H8_out_of_turn_above_stack_and_unknown_actions_are_refused():
    h = hand()
    refused(h, "1", "call", 0, "seat 4's turn")
    refused(h, "4", "raise", 500, "cannot put in")
    refused(h, "4", "dance", 0, "unknown action")
    raises(Refused, Hand, ["1"], {"1": 10}, "1")


def test_H4_no_pointless_check_when_every_other_seat_is_all_in():
    # heads-up, the button all in for its small blind of 1: the big blind owes nothing and
    # cannot raise (nobody could call): it is not asked to act, the cards are turned
    h = Hand(["1", "2"], {"1": 1, "2": 100}, "1")
    assert h.to_act is None and h.showdown_due()
    assert h.contrib == {"1": 1, "2": 1} and h.stack["2"] == 99  # the uncalled 1 back (H6)


def test_H2_short_big_blind_and_one_seat_left_with_chips_calls_what_was_posted():
    # both blinds all in for 1: only the button has chips; nobody could call a full big
    # blind, so it calls the 1 posted, or folds; raising is refused (H4)
    h = Hand(["1", "2", "3"], {"1": 100, "2": 1, "3": 1}, "1")
    assert h.to_act == "1" and h.current == 1
    refused(h, "1", "raise", 5, "all in: call or fold")
    h.act("1", "call")
    assert h.contrib == {"1": 1, "2": 1, "3": 1} and h.showdown_due()
    # heads-up, the big blind short: the button's small blind already matches it
    h = Hand(["1", "2"], {"1": 50, "2": 1}, "1")
    assert h.showdown_due() and h.contrib == {"1": 1, "2": 1}


def choose(h, rnd):
    """A random action for the seat to act; (action, amount) that the rules allow."""
    s = h.to_act
    owe = h.current - h.bet[s]
    r = rnd.int(0, 9)
    if r == 0:
        return "fold", 0
    if r == 1:
        return "allin", 0
    if r < 5 and h.raise_refused(s) is None:
        top = h.bet[s] + h.stack[s]
        low = h.current + h.min_raise
        if h.structure == "fixed-limit":
            low = h.current + h.step()
        if low <= top:
            to = rnd.int(low, min(top, low + 3 * h.bb))
            if h.structure == "pot-limit":
                to = min(to, 2 * h.current + sum(h.contrib.values()) - h.bet[s])
            if to >= low:
                return "raise", to
    return ("call" if owe > 0 else "check"), 0


def test_H2_H4_H6_random_hands_never_ask_a_seat_with_nothing_to_decide():
    # Seeded random hands, short stacks and short blinds included, every structure: each
    # seat asked to act owes chips or may raise; chips are never made or lost; the hand
    # ends in a showdown or a fold win.
    rnd = Rand(16)
    asked = 0
    for n in range(400):
        k = rnd.int(2, 6)
        seats = [str(i + 1) for i in range(k)]
        stacks = dict((s, rnd.choice([1, 2, 3, 5, 9, 20, 60])) for s in seats)
        structure = rnd.choice(["no-limit", "pot-limit", "fixed-limit"])
        h = Hand(seats, stacks, rnd.choice(seats), structure)
        total = sum(stacks.values())
        while h.to_act is not None and not h.over:
            s = h.to_act
            owe = h.current - h.bet[s]
            assert owe > 0 or h.raise_refused(s) is None, (n, s, h.log)
            action, amount = choose(h, rnd)
            try:
                h.act(s, action, amount)
            except Refused:  # a raise over a cap or a limit: the seat calls instead
                h.act(s, "call" if owe > 0 else "check")
            asked += 1
            paid = sum(h.contrib.values()) if not h.over else 0  # a fold win is paid
            assert sum(h.stack.values()) + paid == total, (n, h.log)
        assert h.over or h.showdown_due(), (n, h.log)
        # H6: no chips left uncalled in front of one seat
        top = sorted(h.contrib.values())
        assert len(top) < 2 or h.over or top[-1] == top[-2], (n, h.contrib)
    assert asked > 1000


def test_H4_a_seat_may_fold_at_the_showdown_and_when_all_in():
    h = hand()
    for s in ("4", "1", "2", "3"):  # everyone calls, then checks down to the river
        h.act(s, "call" if s != "3" else "check")
    for _ in range(3):
        for s in ("2", "3", "4", "1"):
            h.act(s, "check")
    assert h.showdown_due()
    refused(h, "2", "check", words="nobody is to act: the betting is over; a seat may only fold")
    refused(h, "9", "fold")  # not a seat in the hand
    for s in ("2", "3"):
        h.act(s, "fold")  # it gives up its hand rather than show it
        assert h.showdown_due() and s in h.folded
    h.act("4", "fold")
    assert h.over and h.result == [(8, ["1"], ["1"], {"1": 8})]  # H5: the last seat in
    assert h.stack["1"] == 106
    # all in, with betting still going on among the others: the all-in seat may fold
    h = hand({"1": 100, "2": 100, "3": 100, "4": 10})
    h.act("4", "allin")
    refused(h, "2", "fold", words="seat 1's turn")  # a seat still to bet folds in turn
    h.act("4", "fold")
    h.act("1", "fold")
    h.act("2", "fold")
    assert h.over and h.stack["3"] == 100 + 1 + 10  # seat 4's 10 and seat 2's small blind
