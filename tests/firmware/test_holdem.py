# Texas Hold'em showdowns and pots (docs/rules/holdem.md): H6 and H7 on the pure core.
from check import Rand, raises

from games.holdem.hands import (
    FLUSH,
    FULL_HOUSE,
    HIGH_CARD,
    PAIR,
    STRAIGHT,
    STRAIGHT_FLUSH,
    TWO_PAIR,
    HandError,
    card,
    evaluate,
    name,
)
from games.holdem.pots import build, round_from, settle, uncalled


def ev(text):
    return evaluate([card(c) for c in text.split()])


def test_H7_categories_in_order():
    hands = [
        "AS KS QS JS 10S 2D 3C",
        "9H 9D 9S 9C 2D 3C 4H",
        "9H 9D 9S 4C 4D 2C 3H",
        "2H 7H 9H JH KH AD 3C",
        "10H JD QS KC AD 2C 3H",
        "7H 7D 7S KC 2D 3C 9H",
        "7H 7D KS KC 2D 3C 9H",
        "7H 7D KS QC 2D 3C 9H",
        "7H 8D KS QC 2D 3C 10H",
    ]
    values = [ev(h)[0] for h in hands]
    assert values == sorted(values, reverse=True)
    assert [v[0] for v in values] == [8, 7, 6, 5, 4, 3, 2, 1, 0]


def test_H7_wheel_is_the_lowest_straight_and_no_wrap_around():
    wheel, best = ev("AS 2D 3C 4H 5S KD 9C")
    assert wheel == (STRAIGHT, 5) and [name(c) for c in best] == ["5S", "4H", "3C", "2D", "AS"]
    assert ev("2S 3D 4C 5H 6S KD 9C")[0] > wheel
    assert ev("QS KD AC 2H 3S 8D 9C")[0][0] == HIGH_CARD  # Q-K-A-2-3 is no straight
    assert ev("AH 2H 3H 4H 5H KD 9C")[0] == (STRAIGHT_FLUSH, 5)


def test_H7_kickers_decide_and_equal_fives_tie():
    assert ev("AS AD KC 9H 7S 3D 2C")[0] > ev("AS AD QC JH 9S 3D 2C")[0]
    a = ev("AS KD QC JH 9S 3D 2C")[0]
    b = ev("AH KS QD JC 9H 4D 2S")[0]
    assert a == b  # the sixth and seventh cards do not count
    assert ev("KS KD 5C 5H 9S 9D 2C")[0] == (TWO_PAIR, 13, 9, 5)  # three pairs: best two


def test_H7_flush_uses_its_best_five():
    v, best = ev("2H 5H 9H JH KH AH 3C")
    assert v == (FLUSH, 14, 13, 11, 9, 5) and len(best) == 5


def test_H7_full_house_from_two_trips():
    assert ev("9H 9D 9S 4C 4D 4S 2H")[0] == (FULL_HOUSE, 9, 4)


def test_H6_side_pots_three_way_all_in_with_different_stacks():
    contrib = {"1": 100, "2": 250, "3": 400}  # 1 and 2 all in, 3 covered them
    back = uncalled(contrib, set())
    assert back == ("3", 150)
    contrib["3"] -= 150
    assert build(contrib, set()) == [(300, ["1", "2", "3"]), (300, ["2", "3"])]


def test_H6_folded_chips_stay_as_dead_money():
    pots = build({"1": 50, "2": 50, "3": 30, "4": 10}, {"4"})
    assert pots == [(100, ["1", "2", "3"]), (40, ["1", "2"])]
    assert sum(a for a, _ in pots) == 140


def test_H6_uncalled_bet_is_returned():
    assert uncalled({"1": 100, "2": 60}, set()) == ("1", 40)
    assert uncalled({"1": 60, "2": 60}, set()) is None


def test_H7_split_pot_odd_chip_goes_left_of_the_button():
    board = [card(c) for c in "2S 3D 4C 9H KD".split()]
    hands = {
        "1": [card("AH"), card("5D")],
        "2": [card("AC"), card("5S")],
        "3": [card("KS"), card("KH")],
    }
    pots, values = settle([(101, ["1", "2", "3"])], hands, board, ["2", "3", "1"])
    amount, eligible, winners, shares = pots[0]
    assert winners == ["2", "1"]  # in order from the left of the button
    assert shares == {"2": 51, "1": 50}
    assert values["3"][0][0] == 3  # trips lose to the wheel


def test_H7_best_hand_wins_each_pot_on_its_own():
    board = [card(c) for c in "AS KS QS 7D 2C".split()]
    hands = {
        "1": [card("JS"), card("10S")],
        "2": [card("AH"), card("AD")],
        "3": [card("7C"), card("7H")],
    }
    pots, _ = settle([(90, ["1", "2", "3"]), (100, ["2", "3"])], hands, board, ["1", "2", "3"])
    assert pots[0][2] == ["1"]  # the royal flush takes the main pot
    assert pots[1][2] == ["2"]  # aces take the side pot 1 could not reach


def test_H8_bad_cards_are_refused():
    for bad in ("X", "1H", "AZ", ""):
        raises(HandError, card, bad)
    assert ev("AS AD 2C 3H 4S 9D 8C")[0][0] == PAIR


def test_H6_H7_H9_random_pots_and_shares_the_same_under_every_interpreter():
    # Seeded random contributions (folded seats included, up to 10 seats so that "10" sorts
    # after "9") and random hands: every pot lists its seats in seat order, its winners
    # from the left of the button, its odd chips one each in that order; the chips add up.
    # Each list is determined by the rule alone, so CPython and MicroPython report alike.
    rnd = Rand(9)
    deck = [(r, s) for r in range(2, 15) for s in range(4)]
    odd = 0
    for _ in range(300):
        n = rnd.int(2, 10)
        seats = [str(i + 1) for i in range(n)]
        contrib = dict((s, rnd.choice([1, 2, 5, 7, 20, 33])) for s in seats)
        folded = [s for s in seats if rnd.int(0, 3) == 0][: n - 1]
        back = uncalled(contrib, folded)
        if back:
            contrib[back[0]] -= back[1]
        button = rnd.choice(seats)
        order = round_from(seats, button)
        cards = list(deck)
        rnd.shuffle(cards)
        hands = dict((s, cards[2 * k : 2 * k + 2]) for k, s in enumerate(seats))
        live = [s for s in order if s not in folded]
        pots, _ = settle(build(contrib, folded), hands, cards[-5:], live)
        assert sum(a for a, _, _, _ in pots) == sum(contrib.values())
        for amount, eligible, winners, shares in pots:
            assert eligible == [s for s in seats if s in eligible]  # seat order
            assert winners == [s for s in order if s in winners]  # from the button's left
            share, left = divmod(amount, len(winners))
            for k in range(len(winners)):
                assert shares[winners[k]] == share + (1 if k < left else 0)
            odd += left > 0
    assert odd > 5
    assert round_from(["3", "10", "1"], "2") == ["3", "10", "1"]
    assert round_from(["3", "10", "1"], "10") == ["1", "3", "10"]
