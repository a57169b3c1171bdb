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
