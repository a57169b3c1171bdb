# The pile of cards on the reader, as the table had it before its card spot: every card laid
# on the last, none moved off. Stickers stacked aligned detune each other and do not answer
# (sim/chips/ntag213.py: 0 reads in 20 for a stack of two, measured), so such a pile loses
# every card after the first; on the spot (each card read, then moved off) none is lost.
# Through the reader alone, then the whole simulated table.
from readers import lay, random_uids, ready, rng
from simcheck import kinds, of, run

from sense.cards import CardReads
from sim.chips.ntag213 import Tag


def reads(cards, r, clock, polls):
    out = []
    for _ in range(polls):
        clock.us += 5000
        got = cards.poll(clock.us // 1000)
        if got:
            out.append(got)
    return out


def power_up(uids, registry=None):
    chip, r, clock = ready()
    lay(chip, uids)
    # lying there when the power came: the init's field-on powered them
    return chip, r, clock, CardReads(r, registry if registry is not None else {})


def test_cards_piled_on_the_reader_are_lost_from_the_second():
    r0 = rng(30)
    for size in (2, 3, 10):
        uids = random_uids(r0, size)
        chip, r, clock, cards = power_up([])
        reads(cards, r, clock, 40)
        got = []
        for u in uids:  # each laid on the last, in the same place
            chip.lay(Tag(u), r0.below(3) - 1, r0.below(3) - 1)
            got += reads(cards, r, clock, 60)
        assert [g[2] for g in got] == ["".join("%02X" % b for b in uids[0])], (size, got)


def test_an_empty_spot_at_power_up_tells_nothing_and_the_next_card_is_a_card_laid():
    # the look at the spot ends with nothing told (issue 31: the game needs no "none there"
    # any more: a read in the look is told as "pile", any later one as a card laid)
    chip, r, clock, cards = power_up([])
    assert reads(cards, r, clock, 100) == []
    assert not cards.stocktaking
    uid = random_uids(rng(6), 1)[0]
    chip.lay(Tag(uid))
    assert [g[0] for g in reads(cards, r, clock, 40)] == ["card"]


def test_the_card_lying_on_the_spot_at_power_up_is_told_as_found_there():
    # once, as "pile" (the game tells it from a card laid: games/cards.py), never enrolled;
    # the next card laid is a card, and an awaited enrolment takes it
    for seed in range(4):
        lying, laid = random_uids(rng(seed), 2)
        h = "".join("%02X" % b for b in lying)
        chip, r, clock, cards = power_up([lying], {h: "7H"})
        cards.enrol_as = "QS"
        assert reads(cards, r, clock, 100) == [("pile", "7H", h)], seed
        chip.lift(lying)
        chip.lay(Tag(laid))
        (got,) = reads(cards, r, clock, 40)
        assert got[0] == "enrol" and got[1] == "QS", (seed, got)


def test_after_a_reset_of_the_chip_the_card_last_read_is_not_read_again():
    # mid-game the chip stops answering and is reset: its field comes on again and the card
    # lying on the spot wakes. The card last told is dropped; one laid meanwhile is a card.
    for seed in range(4):
        first, second = random_uids(rng(10 + seed), 2)
        chip, r, clock, cards = power_up([])
        reads(cards, r, clock, 40)
        chip.lay(Tag(first))
        assert [g[0] for g in reads(cards, r, clock, 40)] == ["card"]
        clock.us += 2000000  # two seconds on, past the re-read filter's time
        chip.brownout()  # the chip resets itself; the driver notices and sets it up again
        assert reads(cards, r, clock, 400) == [] and r.resets == 1, seed
        chip.lift(first)
        chip.lay(Tag(second))
        chip.brownout()  # laid while the chip was down: read in the look that follows
        got = reads(cards, r, clock, 400)
        assert [(g[0], g[2]) for g in got] == [("card", "".join("%02X" % b for b in second))]


def test_a_card_lifted_and_laid_again_is_read_again():
    chip, r, clock, cards = power_up([])
    reads(cards, r, clock, 40)
    uid = random_uids(rng(5), 1)[0]
    chip.lay(Tag(uid))
    assert len(reads(cards, r, clock, 40)) == 1
    chip.lift(uid)
    clock.us += 1000000  # a person's second later
    chip.lay(Tag(uid))
    assert len(reads(cards, r, clock, 40)) == 1


HEAD = "table tock players=4 rules=classic\n"


def test_issue_reproducer_three_cards_a_reset_then_a_new_card_piled_and_on_the_spot():
    # 2-10 with every pawn in camp: no move, discarded (T17); the turn passes each time.
    # Piled on the reader, the second card on the first detunes both: nothing after the
    # first is read, before the reset or after it (the pile lies there still).
    script = HEAD + "card 5H\ncard 6H\ncard 7C\nreset\nwait 500\ncard 8D\nsend selftest\n"
    evs = run(script, piled=True)
    assert [e["card"] for e in of(evs, "card")] == ["5H"]
    # on the spot, each card read then moved off: every one read once, nothing on the
    # reader when the power comes back
    evs = run(script)
    assert of(evs, "pile") == []
    assert [e["card"] for e in of(evs, "card")] == ["5H", "6H", "7C", "8D"]
    (report,) = of(evs, "selftest")
    assert report["reader"] == "ok" and report["reader_errors"] == 0
    assert of(evs, "error") == []


def _cards_and_discards(evs):
    return [e["card"] for e in of(evs, "card")], kinds(evs).count("discard")


def test_random_discards_and_a_reset_on_the_spot_each_read_once():
    # random runs of 2-10 discards, a reset, then new cards: each read once, none lost.
    # (The deck is made once, and only what is checked is kept of a run's events: the test's
    # own objects, made between a simulated board's allocations, would split the heap it
    # shares with the board and its resets; a board's reset empties its heap.)
    r0 = rng(77)
    ranks = ("2", "3", "4", "5", "6", "8", "9", "10")
    deck = [r + s for r in ranks for s in "HDCS"]
    for trial in range(3):
        picked = []
        while len(picked) < 2 + r0.below(9) + 2:
            c = deck[r0.below(len(deck))]
            if c not in picked:
                picked.append(c)
        before, after = picked[:-2], picked[-2:]
        script = HEAD + "".join("card %s\n" % c for c in before) + "reset\nwait 300\n"
        script += "".join("card %s\n" % c for c in after)
        assert _cards_and_discards(run(script)) == (picked, len(picked))
        # the same, piled: the first card alone is read
        assert _cards_and_discards(run(script, piled=True))[0] == picked[:1]
