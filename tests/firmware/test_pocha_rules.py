# Pocha rules (docs/rules/pocha.md): K1-K9 on the pure core.
from check import Rand, raises

from games.pocha.rules import (
    PochaError,
    bid_refused,
    card,
    check_hand,
    deck,
    first_dealer,
    legal,
    name,
    ranking,
    schedule,
    score,
    winning,
)


def cards(text):
    return [card(c) for c in text.split()]


def names(cs):
    return sorted(name(c) for c in cs)


def test_K1_deck_sizes_and_the_2s_removed_for_3_and_6_players():
    assert len(deck(40, 4)) == 40 and len(deck(40, 3)) == 36 and len(deck(40, 6)) == 36
    assert len(deck(48, 3)) == 48 and (2, "O") not in deck(40, 3)
    for size, players in ((40, 7), (48, 5), (52, 4)):
        raises(PochaError, deck, size, players)


def test_K1b_notation():
    assert card("1O") == (1, "O") and card("12B") == (12, "B") and name((10, "E")) == "10E"
    for bad in ("13O", "0C", "1X", "", "AS"):
        raises(PochaError, card, bad)


def test_K3_schedules():
    assert schedule(40, 4) == list(range(1, 10)) + [10] * 4 + list(range(9, 0, -1))
    assert len(schedule(40, 4)) == 22
    assert schedule(40, 5, "short") == [1, 2, 3, 4, 5, 6, 7, 8]
    assert schedule(48, 6, "full") == [8] * 6


def test_K5_bids_and_the_dealers_restriction():
    assert bid_refused(3, 2, [], False) is not None
    assert "dealer" in bid_refused(1, 3, [1, 1], True)  # 1 + 1 + 1 = 3 tricks: refused
    assert bid_refused(0, 3, [1, 1], True) is None
    assert bid_refused(1, 1, [0, 0], True) is None  # one-card hands: no restriction


def test_K6_follow_and_beat_the_led_suit():
    hand = cards("4O 12O 5C")
    assert names(legal(hand, cards("11O"), "E")) == ["12O"]  # must beat the caballo
    assert names(legal(hand, cards("1O"), "E")) == ["12O", "4O"]  # cannot beat the as


def test_K6_led_suit_already_trumped_any_card_of_the_suit():
    hand = cards("4O 12O 5C")
    assert names(legal(hand, cards("10O 2E"), "E")) == ["12O", "4O"]


def test_K6_void_must_overtrump_if_it_can():
    hand = cards("4E 12E 5C")
    assert names(legal(hand, cards("10O"), "E")) == ["12E", "4E"]  # any trump
    assert names(legal(hand, cards("10O 11E"), "E")) == ["12E"]  # must beat the caballo
    assert names(legal(hand, cards("10O 1E"), "E")) == ["12E", "4E", "5C"]  # cannot: any


def test_K6_trump_led_must_beat_the_best_trump():
    assert names(legal(cards("4E 12E 5C"), cards("11E"), "E")) == ["12E"]


def test_K7_trick_winner():
    assert winning(cards("4O 1O 3C"), "E") == 1  # the as of the led suit
    assert winning(cards("4O 1O 2E"), "E") == 2  # a trump
    assert winning(cards("4O 3O 1C"), "E") == 1  # another suit never wins


def test_K8_scores():
    assert score(2, 2) == 20 and score(0, 0) == 10 and score(3, 1) == -10 and score(0, 2) == -10


def test_K9_after_the_hand_finds_each_broken_play():
    hands = {"1": cards("4O 5E"), "2": cards("12O 2C")}
    tricks = [
        ("1", [("1", card("4O")), ("2", card("2C"))]),  # 2 held oros: must follow
        ("1", [("1", card("5E")), ("2", card("12O"))]),
    ]
    found = check_hand(hands, tricks, "B")
    assert [(n, s, name(c), names(ok)) for n, s, c, ok in found] == [(1, "2", "2C", ["12O"])]


def test_K10_ranking_equal_totals_share_a_place_in_seat_order():
    # seeded random totals from a few values (many ties): highest first; equal totals share
    # a place and are listed in seat order; the order is this one under every interpreter
    rnd = Rand(10)
    ties = 0
    for _ in range(500):
        n = rnd.choice([3, 4, 5, 6, 8])
        seats = [str(i + 1) for i in range(n)]
        totals = dict((s, rnd.choice([-20, -5, 0, 15, 40])) for s in seats)
        got = ranking(seats, totals)
        assert sorted(s for s, _, _ in got) == sorted(seats)
        for k in range(len(got)):
            s, total, place = got[k]
            assert total == totals[s]
            assert place == 1 + len([t for t in seats if totals[t] > total])
            if k:
                before = got[k - 1]
                assert before[1] > total or before[1] == total and int(before[0]) < int(s)
                ties += before[1] == total
    assert ties > 300
    assert ranking(["1", "2", "3"], {"1": 5, "2": 20, "3": 5}) == [
        ("2", 20, 1),
        ("1", 5, 2),
        ("3", 5, 2),
    ]


def test_K2_first_dealer_by_the_highest_card_ties_draw_again():
    seats = ["1", "2", "3"]
    # the as beats the 3, the 3 the rey (K1's order), whatever the suits
    assert first_dealer({"1": card("3O"), "2": card("1B"), "3": card("12C")}, seats) == ("2", None)
    tied = first_dealer({"1": card("1O"), "2": card("7B"), "3": card("1C")}, seats)
    assert tied == (None, ["1", "3"])
