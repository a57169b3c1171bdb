# Pocha at the table (K2-K10): a card on the reader is played by the seat in turn, bids come
# from the host; live refusals and flags; the after-the-hand check.
from simcheck import of, run

HEAD = "table pocha players=3 deck=40 schedule=short dealer=1\npace 150\n"


def answers(evs):
    return [(a["ok"], a.get("why", "")) for a in evs if a["type"] == "answer"]


def test_K5_bids_in_turn_and_the_dealers_restriction():
    evs = run(
        HEAD + "card 5O\nsend bid 1 0\nsend bid 2 2\nsend bid 2 1\nsend bid 3 0\n"
        "send bid 1 1\nwait 100\n"
    )
    got = answers(evs)
    assert not got[0][0] and "seat 2 bids now" in got[0][1]
    assert not got[1][0] and "0 to 1" in got[1][1]
    assert got[2] == (True, "") and got[3] == (True, "")
    assert got[4] == (True, "")  # one-card hand: the dealer is not restricted
    assert [b["bid"] for b in of(evs, "bid")] == [1, 0, 1]


def test_K2_the_first_dealer_drawn_at_the_table_a_tie_draws_again():
    evs = run(
        "table pocha players=3 deck=40 schedule=short\npace 150\nsend bid 2 0\nsend draw\n"
        "card 3O\ncard 1C\ncard 1E\ncard 12B\ncard 7O\nsend bid 3 0\n"
        "wait 300\ngather\ncard 5O\nsend bid 3 1\nsend bid 1 0\nsend bid 2 1\nwait 100\n"
    )
    got = answers(evs)
    assert got[1] == (True, "") and got[2][0] is False  # no bidding during the draw
    draws = of(evs, "draw")
    assert draws[0]["seats"] == ["1", "2", "3"] and draws[1]["seats"] == ["2", "3"]
    (dealer,) = of(evs, "dealer")
    assert dealer["seat"] == "2"  # 12B beats 7O in the second round
    starts = of(evs, "hand_start")
    assert starts[-1]["dealer"] == "2" and starts[-1]["hand"] == 1
    assert of(evs, "trump")[0]["bidder"] == "3"  # the seat after the dealer bids first
    assert [b["seat"] for b in of(evs, "bid")] == ["3", "1", "2"]
    late = run(HEAD + "card 5O\nsend draw\nwait 100\n")
    assert "before the first hand" in answers(late)[0][1]


def test_K2_new_with_one_setting_keeps_the_others():
    # a 3-player short game; `new dealer=2` changes the dealer only (not 4 players, not
    # the default schedule): a one-card hand of 3 seats, dealt by 2
    evs = run(
        HEAD + "card 5O\nsend new dealer=2\ncard 6O\nsend bid 3 0\nsend bid 1 0\n"
        "send bid 2 0\ncard 4C\ncard 1C\ncard 3E\nwait 500\n"
    )
    assert all(ok for ok, _ in answers(evs)), answers(evs)
    starts = of(evs, "hand_start")
    assert starts[1]["dealer"] == "2" and starts[1]["cards"] == 1 and starts[1]["hand"] == 1
    assert starts[2]["dealer"] == "3" and starts[2]["hand"] == 2  # the deal passes on (K2)
    (end,) = of(evs, "hand_end")
    assert sorted(end["totals"]) == ["1", "2", "3"]


def test_K7_K8_a_one_card_hand_scored():
    evs = run(
        HEAD + "card 5O\nsend bid 2 1\nsend bid 3 0\nsend bid 1 0\n"
        "card 4C\ncard 1C\ncard 3E\nwait 500\n"
    )
    (t,) = of(evs, "trick")
    assert t["winner"] == "3"  # copas led, no oros (trump) played: the as de copas wins
    end = of(evs, "hand_end")[0]
    assert end["taken"] == {"1": 0, "2": 0, "3": 1}
    assert end["scores"] == {"1": 10, "2": -5, "3": -5}


def test_K9_card_not_in_deck_and_played_twice_refused():
    evs = run(
        HEAD + "card 5O\nsend bid 2 0\nsend bid 3 0\nsend bid 1 0\n"
        "card 8O\ncard 2C\ncard 5O\nwait 100\n"
    )
    whys = [e["why"] for e in of(evs, "error")]
    assert any("not in this 36-card deck" in w for w in whys)  # 8O: 40-card deck
    assert any("2C is not in this" in w for w in whys)  # the 2s are out for 3 players
    assert any("turned card" in w for w in whys)  # 5O was turned: nobody holds it


def test_K9_renege_flagged_at_once_and_K6_breaks_reported_after_the_hand():
    # hand 2 (two cards, seat 2 deals, trump espadas: 4E turned). Trick 1: seat 3 leads 6C,
    # seat 2 throws 5B (no copas, it says); trick 2: seat 2 plays 7C: a renege
    evs = run(
        HEAD + "card 5O\nsend bid 2 0\nsend bid 3 0\nsend bid 1 0\n"
        "card 4C\ncard 1C\ncard 3E\nwait 1200\ncard 4E\n"
        "send bid 3 0\nsend bid 1 0\nsend bid 2 0\n"
        "card 6C\ncard 7O\ncard 5B\ncard 12C\ncard 3O\ncard 7C\nwait 500\n"
    )
    reneges = [e for e in of(evs, "illegal") if e["what"] == "renege"]
    assert [(e["seat"], e["card"]) for e in reneges] == [("2", "7C")]
    k6 = [e for e in of(evs, "illegal") if e["what"] == "K6"]
    assert [(e["trick"], e["seat"], e["card"]) for e in k6] == [(1, "2", "5B")]
    assert "7C" in k6[0]["legal"]


def test_K8_tie_break_hands_are_numbered_on():
    # the last scheduled hand ends with first place tied: one-card tie-break hands follow,
    # each with the next number (a tie that lasts gives hands 3, 4, 5 ..., never 3 again).
    # Seats 1 and 2 stay tied on top: each bids 0 and takes nothing; seat 3 takes every trick.
    from games.pocha.tracker import PochaGame

    out = []
    g = PochaGame(out.append, (), {"players": 3, "schedule": "full"})  # 3 hands of 12
    g.hand_no = 2  # the last one (one card each is enough to end it)
    g._deal()
    g.n = 1
    g.totals = {"1": 20, "2": 20, "3": 0}
    numbers = []
    for k in range(3):
        g.on_card("es:5O", "", 0)  # the turned card: oros are trumps
        order = [g.bidder, g._after(g.bidder), g._after(g._after(g.bidder))]
        for s in order:
            assert g.command({"cmd": "bid", "seat": s, "amount": 0}) is None
        low = ["4C", "6C"]
        for s in order:
            g.on_card("es:" + ("7C" if s == "3" else low.pop()), "", 0)
        numbers.append([e for e in out if e["type"] == "hand_end"][-1]["hand"])
    starts = [e["hand"] for e in out if e["type"] == "hand_start"]
    assert numbers == [3, 4, 5], numbers
    assert starts == [4, 5, 6] and g.tiebreak


def test_buttons_do_nothing_at_a_pocha_table_and_say_so():
    evs = run(HEAD + "button undo\nwait 300\nbutton pause\nwait 300\n")
    errs = [e["button"] for e in of(evs, "error") if e["what"] == "button"]
    assert errs == ["undo", "pause"], evs


def test_a_card_name_both_decks_share_is_of_the_deck_in_play():
    # F6 (adversarial round 4): after `send new pocha` a script's `4C` is the 4 of copas (the
    # checker said so, the simulator laid the French 4 of clubs' tag); after `send new tock`,
    # the 4 of clubs
    evs = run(
        "table tock players=2 rules=classic\ncard AS\nmove RC1 R18\nwait 300\n"
        "send new pocha players=3 deck=40 schedule=short dealer=1\ncard 5O\nsend bid 2 1\n"
        "send bid 3 0\nsend bid 1 0\ncard 4C\ncard 1C\ncard 3E\nwait 500\n"
        "send new tock players=2\ncard 4C\nwait 300\n"
    )
    assert [e["card"] for e in of(evs, "card")] == ["AS", "4C", "1C", "3E", "4C"], evs
    assert [e["cards"] for e in of(evs, "trick")] == [["4C", "1C", "3E"]]
    assert of(evs, "error") == []
