# The card spot (issue 31): one card's outline over the reader's antenna. Each card is laid
# there, read, then moved off; two cards in the outline lie aligned and neither answers (the
# tag model, sim/chips/ntag213.py), two laid askew both answer and are said at once (an
# `error`, "what": "card-spot"), and nothing is played until one lies there alone. The
# table-script actions: `card X` (laid, read, moved off), `leave X` (left lying), `take X`
# (moved off), `stack X` (laid on the one lying there), `pair X Y` (two laid askew at once).
from readers import rng
from simcheck import kinds, of, run

TOCK = "table tock players=4 rules=classic\n"
SPOT = "card-spot"


def played(evs):
    return [e["card"] for e in of(evs, "card")]


def test_a_card_left_lying_then_one_stacked_on_it_each_is_played_once():
    # 5H left lying; 6H laid on it (aligned: neither answers) until 5H is slid out
    evs = run(TOCK + "leave 5H\nstack 6H\ncard 7C\n")
    assert played(evs) == ["5H", "6H", "7C"]
    assert kinds(evs).count("discard") == 3 and of(evs, "error") == []


def test_a_card_laid_on_one_left_lying_is_not_read_while_both_lie_there():
    # `card` on a card left lying: the two detune, the player moves the new one off unread
    evs = run(TOCK + "leave 5H\ncard 6H\ntake 5H\ncard 6H\n")
    assert played(evs) == ["5H", "6H"]


def test_two_cards_laid_askew_at_once_are_said_and_the_one_left_is_played():
    evs = run(TOCK + "pair 7C 8D\ncard 8D\n")
    (e,) = [e for e in of(evs, "error") if e["what"] == SPOT]
    assert e["cards"] == ["7C", "8D"] and "7C and 8D" in e["why"]
    assert played(evs) == ["7C", "8D"]
    assert kinds(evs).index("error") < kinds(evs).index("card")  # said before either plays


def test_a_card_lying_on_the_spot_through_a_power_cut_is_not_played_again():
    evs = run(TOCK + "card 5H\nleave 6H\nreset\nwait 500\ntake 6H\ncard 7C\n")
    assert played(evs) == ["5H", "6H", "7C"]
    assert [p["cards"] for p in of(evs, "pile")] == [["6H"]]


def test_seeded_spot_actions_lose_no_card_and_play_none_twice():
    # seeded runs of discards (every pawn in camp: 2-10 have no move, T17): each card laid
    # by one of the spot's actions, a power cut now and then with a card lying there
    r0 = rng(31)
    deck = [r + s for r in ("2", "3", "4", "5", "6", "8", "9", "10") for s in "HDCS"]
    for trial in range(3):
        cards = []
        while len(cards) < 10:
            c = deck[r0.below(len(deck))]
            if c not in cards:
                cards.append(c)
        lines = []
        lying = None
        k = 0
        while k < len(cards):
            c = cards[k]
            pick = r0.below(5)
            if lying is not None and pick < 2:
                lines.append("stack " + c)  # on the card lying there
                lying = None
            elif pick == 2 and k + 1 < len(cards):
                if lying is not None:
                    lines.append("take " + lying)
                    lying = None
                lines += ["pair %s %s" % (c, cards[k + 1]), "card " + cards[k + 1]]
                k += 1
            elif pick == 3:
                if lying is not None:
                    lines.append("take " + lying)
                lines.append("leave " + c)
                lying = c
                if r0.below(2):
                    lines += ["reset", "wait 400"]
            else:
                if lying is not None:
                    lines.append("take " + lying)
                    lying = None
                lines.append("card " + c)
            k += 1
        evs = run(TOCK + "\n".join(lines) + "\n")
        assert played(evs) == cards, (trial, lines, played(evs))
        assert kinds(evs).count("discard") == len(cards), trial
        assert [e for e in of(evs, "error") if e["what"] != SPOT] == [], trial
        assert len(of(evs, "error")) == sum(1 for x in lines if x.startswith("pair")), trial
        # let go before the next trial: alive through its resets, this trial's events left
        # the 32-bit build at 111,936 B no 1 KB piece for the restarted link's decoder
        evs = lines = None


def test_the_spot_actions_are_checked():
    from sim.script import ScriptError, parse

    for bad, why in (
        ("pair 7C", "pair takes 2 arguments"),
        ("stack 7Z", "unknown card"),
        ("leave", "leave takes 1 argument"),
    ):
        try:
            parse(TOCK + bad + "\n")
        except ScriptError as e:
            assert e.line == 2 and why in e.why, e.why
        else:
            raise AssertionError(bad)
    try:
        parse("table weykick\ntake 7C\n")
    except ScriptError as e:
        assert "action of" in e.why, e.why
    else:
        raise AssertionError("take at weykick")
