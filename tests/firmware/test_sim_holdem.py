# Texas Hold'em at the table (H8, H9): bets from the host, cards from the reader, a whole
# hand through the firmware, and what the table refuses.
from simcheck import of, run

HEAD = "table holdem seats=3 stacks=100 blinds=1/2 button=1\npace 100\nsend hand\n"


def answers(evs):
    return [(a["ok"], a.get("why", "")) for a in evs if a["type"] == "answer"]


def test_H9_a_whole_hand_to_showdown():
    evs = run(
        HEAD + "send call 1\nsend call 2\nsend check 3\n"
        "card AS\ncard KD\ncard 7C\n"
        "send check 2\nsend bet 3 10\nsend call 1\nsend fold 2\n"
        "card 2H\nsend check 3\nsend check 1\ncard 9S\nsend check 3\nsend check 1\n"
        "card AH\ncard AD\ncard QS\ncard QH\nwait 300\n"
    )
    assert all(ok for ok, _ in answers(evs)), answers(evs)
    (start,) = of(evs, "hand_start")
    assert start["blinds"] == {"2": 1, "3": 2} and start["to_act"] == "1"
    shows = [e["seat"] for e in of(evs, "show")]
    assert shows == ["3", "1"]  # from the left of the button, seats still in
    hands = {e["seat"]: e["category"] for e in of(evs, "hand")}
    assert hands == {"3": "three of a kind", "1": "pair"}
    (end,) = of(evs, "hand_end")
    assert end["stacks"] == {"1": 88, "2": 98, "3": 114}


def test_H8_refusals_change_nothing():
    evs = run(HEAD + "send call 2\nsend raise 1 3\nsend raise 1 500\ncard AS\nwait 100\n")
    got = answers(evs)
    assert got[0] == (True, "")  # hand
    assert not got[1][0] and "seat 1's turn" in got[1][1]
    assert not got[2][0] and "to 4" in got[2][1]
    assert not got[3][0] and "cannot put in" in got[3][1]
    (err,) = of(evs, "error")
    assert "betting is not over" in err["why"]  # no flop before the pre-flop betting ends


def test_H5_everyone_folds_and_the_last_seat_takes_the_pot():
    evs = run(HEAD + "send fold 1\nsend fold 2\nwait 100\n")
    (end,) = of(evs, "hand_end")
    assert end["stacks"] == {"1": 100, "2": 99, "3": 101}
    assert of(evs, "show") == []


def test_H9_a_pot_won_by_folds_reports_the_winners_whole_share():
    evs = run(HEAD + "send fold 1\nsend fold 2\nwait 100\n")
    (pot,) = of(evs, "pot")
    # the big blind's uncalled 1 went back to it (H6): the pot is 1 + 1, all seat 3's
    assert pot["amount"] == 2 and pot["winners"] == ["3"] and pot["shares"] == {"3": 2}


def test_H4_heads_up_button_all_in_for_its_small_blind_big_blind_not_asked():
    evs = run(
        "table holdem seats=2 stacks=1,100 blinds=1/2 button=1\npace 100\nsend hand\n"
        "send check 2\ncard AS\ncard KD\ncard 7C\ncard 2H\ncard 9S\n"
        "card QS\ncard QH\ncard AH\ncard AD\nwait 300\n"  # seat 2 shows first
    )
    (start,) = of(evs, "hand_start")
    assert start["to_act"] is None  # nothing to decide: the cards are turned
    assert not answers(evs)[1][0]  # the check is refused: it is nobody's turn
    (end,) = of(evs, "hand_end")
    assert end["stacks"] == {"1": 2, "2": 99}  # seat 1's aces win 1 + 1; the uncalled 1 back


def test_H1_stacks_seat_by_seat_in_a_script_and_at_new():
    evs = run(
        HEAD + "send fold 1\nsend fold 2\nsend new holdem seats=3 stacks=100,80,250\n"
        "send hand\nwait 100\n"
    )
    assert all(ok for ok, _ in answers(evs)), answers(evs)
    (game,) = of(evs, "game")
    assert game["stacks"] == {"1": 100, "2": 80, "3": 250}
    start = of(evs, "hand_start")[-1]
    assert start["stacks"] == {"1": 100, "2": 79, "3": 248}  # blinds from 2 and 3


def test_H8_card_read_twice_is_refused():
    evs = run(HEAD + "send call 1\nsend call 2\nsend check 3\ncard AS\nwait 700\ncard AS\n")
    assert any("already read" in e["why"] for e in of(evs, "error"))


def test_H1_first_button_by_high_card_at_the_table_with_a_redraw():
    evs = run(
        "table holdem seats=3 stacks=100 blinds=1/2\npace 100\nsend draw\n"
        "card KS\ncard 4D\ncard KH\nwait 700\ncard 9C\ncard JD\nsend hand\nwait 100\n"
    )
    draws = of(evs, "draw")
    assert draws[1]["seats"] == ["1", "3"]  # two kings: 1 and 3 draw again
    assert of(evs, "button")[0]["seat"] == "3"
    assert of(evs, "hand_start")[0]["button"] == "3"


RIVER = (
    "send call 1\nsend call 2\nsend check 3\ncard AS\ncard KD\ncard 7C\n"
    "send check 2\nsend check 3\nsend check 1\ncard 2H\n"
    "send check 2\nsend check 3\nsend check 1\ncard 9S\n"
    "send check 2\nsend check 3\nsend check 1\n"
)


def test_H4_a_seat_may_fold_rather_than_show_its_cards():
    evs = run(HEAD + RIVER + "card AH\nsend fold 2\ncard QS\ncard QH\ncard 3C\ncard 4D\nwait 300\n")
    assert all(ok for ok, _ in answers(evs)), answers(evs)
    shows = [e["seat"] for e in of(evs, "show")]
    assert shows == ["2", "3", "1"]  # seat 2 gave up after one card: seat 3 shows next
    hands = {e["seat"]: e["category"] for e in of(evs, "hand")}
    assert sorted(hands) == ["1", "3"]
    (end,) = of(evs, "hand_end")
    assert sum(end["stacks"].values()) == 300 and end["stacks"]["2"] == 98
    # the last seat but one folds at the showdown: the last takes the pot, unshown (H5)
    evs = end = None  # (the first table's events go before the second plays: the chip's heap)
    evs = run(HEAD + RIVER + "send fold 2\nsend fold 3\nsend hand\nwait 300\n")
    assert all(ok for ok, _ in answers(evs)), answers(evs)
    (end,) = of(evs, "hand_end")
    assert end["stacks"] == {"1": 104, "2": 98, "3": 98} and of(evs, "hand") == []


def test_H9_an_action_is_reported_on_the_street_it_was_taken_on():
    evs = run(HEAD + RIVER + "wait 100\n")
    streets = [(e["seat"], e["street"]) for e in of(evs, "action")]
    want = [("1", "pre-flop"), ("2", "pre-flop"), ("3", "pre-flop")]
    for street in ("flop", "turn", "river"):
        want += [("2", street), ("3", street), ("1", street)]
    assert streets == want


def test_H2_stacks_short_of_the_big_blind_are_all_in_and_the_cards_are_turned():
    evs = run(
        "table holdem seats=3 stacks=1 blinds=1/2 button=1\npace 100\nsend hand\n"
        "send call 1\ncard AS\ncard KD\ncard 7C\ncard 2H\ncard 9S\n"
        "card QS\ncard QH\ncard 3C\ncard 4D\ncard AH\ncard AD\nwait 300\n"
    )
    assert all(ok for ok, _ in answers(evs)), answers(evs)
    (start,) = of(evs, "hand_start")
    assert start["blinds"] == {"2": 1, "3": 1} and start["to_act"] == "1"  # 1 to call, not 2
    (end,) = of(evs, "hand_end")
    assert end["stacks"] == {"1": 3, "2": 0, "3": 0}  # seat 1's aces (it shows last)


def test_buttons_do_nothing_at_a_holdem_table_and_say_so():
    # a Hold'em table is run from the host (bets) and the reader (cards): its buttons are no
    # action, which the table says rather than nothing
    evs = run(HEAD + "button undo\nwait 300\nbutton new\nwait 300\nsend fold 1\nwait 100\n")
    errs = [e["button"] for e in of(evs, "error") if e["what"] == "button"]
    assert errs == ["undo", "new"], evs
    assert answers(evs)[-1] == (True, "")  # the hand went on as it was


def test_H2_blinds_change_between_hands_keeping_stacks_and_button():
    # A club's blind clock: `send blinds 2/4` between hands; `new holdem blinds=2/4` would
    # start a new game (stacks back to 100, the button back to seat 1).
    for reset in ("", "reset\nwait 1500\n"):
        evs = run(
            HEAD + "send fold 1\nsend blinds 2/4\nsend fold 2\nwait 100\n"
            "send blinds 3/5\nsend blinds 2/4\n" + reset + "send hand\nwait 100\n"
        )
        got = answers(evs)
        assert got[2][0] is False and "not over" in got[2][1], got  # mid-hand: refused
        assert got[4][0] is False and "twice the small" in got[4][1], got  # H2
        assert got[5] == got[6] == (True, ""), got
        (blinds,) = of(evs, "blinds")
        assert blinds["blinds"] == "2/4" and blinds["big_bet"] == 8
        first, second = of(evs, "hand_start")
        end = of(evs, "hand_end")[0]["stacks"]
        assert end == {"1": 100, "2": 99, "3": 101}
        assert second["button"] == "2"  # moved on (H1), not back to the first
        assert second["blinds"] == {"3": 2, "1": 4}  # the new blinds, left of the button
        assert sum(second["stacks"].values()) + 6 == sum(end.values())
        assert of(evs, "game") == []


def test_H4_no_action_on_a_street_before_its_community_cards_are_laid():
    # ADV5-4: a check on a flop with no flop, a bet on a turn nobody had seen. Seeded random
    # sessions of the tracker: cards laid, seats acting (in turn and out of it) and resets
    # (the game saved and read back) in any order. A street's round (all but a fold: H4,
    # folding is allowed at any time) is played once its cards are laid, after its `street`.
    import json

    from check import Rand

    from games.holdem.tracker import HoldemGame

    rnd = Rand(4)
    ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
    streets = ("pre-flop", "flop", "turn", "river")
    bets = refusals = 0  # actions taken after the flop; refusals for cards not laid
    for n in range(150):
        k = rnd.int(2, 5)
        out = []
        structure = rnd.choice(["no-limit", "pot-limit", "fixed-limit"])
        settings = {"seats": k, "stacks": rnd.int(3, 60), "structure": structure}
        g = HoldemGame(out.append, (), settings)
        assert g.command({"cmd": "hand"}) is None
        deck = [r + s for r in ranks for s in "SHDC"]
        board, announced = 0, 0  # cards laid; the last street announced
        for _ in range(60):
            h = g.hand
            if h.over:
                break
            r = rnd.below(10)
            if r < 3 and deck:  # the dealer lays a card
                g.on_card(deck.pop(rnd.below(len(deck))), "u", 0)
            elif r == 3:  # a reset: the whole game saved, then read back
                state = json.loads(json.dumps(g.state()))
                g = HoldemGame(out.append, (), settings)
                g.restore(state)
            else:
                seat = h.to_act if rnd.below(4) else rnd.choice(h.seats)
                action = rnd.choice(["check", "call", "call", "bet", "raise", "fold", "allin"])
                step = h.step() if structure == "fixed-limit" else h.min_raise
                street = h.street
                said = g.command({"cmd": action, "seat": seat or "1", "amount": h.current + step})
                if said is None and action != "fold":
                    assert board >= (0, 3, 4, 5)[street], (n, streets[street], board, action)
                    assert announced >= street, (n, streets[street], announced)
                    bets += street > 0
                elif said and "community cards laid; lay them first (H4)" in said:
                    refusals += 1
            for e in out:
                if e["type"] == "card" and "board" in e:
                    board = len(e["board"])
                elif e["type"] == "street":
                    announced = streets.index(e["street"])
            del out[:]
    assert bets > 50 and refusals > 50, (bets, refusals)
