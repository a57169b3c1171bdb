# The pile of cards on the reader: after a power cut (or a reader reset) every tag on it wakes
# up; the sense layer reads them all, tells the game "this was the pile" once, and takes the
# card laid on top for a new card. Seeded random piles; then through the whole simulated table.
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


def test_a_pile_at_power_up_is_one_read_and_the_card_on_top_is_new():
    # named to run first (mpy_runner runs a module's tests in name order): a board powers up
    # with an empty heap, and after this module's whole-table tests the 32-bit ESP32 heap was
    # left in pieces (its 704-byte table found no room with 8 KB free)
    r0 = rng(30)
    for size in (1, 2, 3, 10, 30, 52):
        # each a fresh power-up, as a board's: the last one's reader and tags are gone before
        # this one's are made (alive beside them, they fragmented the 32-bit ESP32 heap until
        # the reader's 704-byte table found no room, with 39 KB free in pieces)
        pile_at_power_up(random_uids(r0, size + 1))


def pile_at_power_up(uids):
    import gc

    gc.collect()  # a board powers up with an empty heap: the last one's garbage goes first
    size = len(uids) - 1
    pile, top = uids[:size], uids[size]
    registry = dict(("%s" % "".join("%02X" % b for b in u), "c%d" % k) for k, u in enumerate(uids))
    chip, r, clock, cards = power_up(pile, registry)
    got = reads(cards, r, clock, 1200)
    assert [g[0] for g in got] == ["pile"], (size, got[:3])
    hexes = sorted(h for _, h in got[0][1])
    assert hexes == sorted("".join("%02X" % b for b in u) for u in pile)
    assert sorted(c for c, _ in got[0][1]) == sorted("c%d" % k for k in range(size))
    assert not cards.stocktaking
    chip.lay(Tag(top))  # a card laid on top
    got = reads(cards, r, clock, 40)
    assert got == [("card", "c%d" % size, "".join("%02X" % b for b in top))], got
    assert r.errors == 0


def test_empty_reader_at_power_up_tells_an_empty_pile():
    # said all the same: the game then knows every read from now on is a card laid (a card of
    # its strays laid again right after power-up is a card, not the pile: games/base.py)
    chip, r, clock, cards = power_up([])
    assert reads(cards, r, clock, 100) == [("pile", [], None)]
    assert not cards.stocktaking


def test_a_reader_reset_mid_game_does_not_replay_the_pile():
    r0 = rng(31)
    for trial in range(5):
        uids = random_uids(r0, 8)
        chip, r, clock, cards = power_up(uids[:5])
        assert [g[0] for g in reads(cards, r, clock, 400)] == ["pile"]
        chip.lay(Tag(uids[5]))
        assert [g[2] for g in reads(cards, r, clock, 40)] == ["".join("%02X" % b for b in uids[5])]
        chip.hang()  # the chip stops answering: the driver resets it, the field drops
        got = reads(cards, r, clock, 30)
        chip.lay(Tag(uids[6]))  # laid while the reader restarts and takes stock again
        got += reads(cards, r, clock, 600)
        chip.lay(Tag(uids[7]))  # and one after
        got += reads(cards, r, clock, 60)
        assert r.resets == 1
        assert [g[0] for g in got] == ["card", "card"], got
        assert [g[2] for g in got] == ["".join("%02X" % b for b in u) for u in uids[6:8]]


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


def test_issue_reproducer_three_card_pile_after_a_reset_then_a_new_card():
    # 2-10 with every pawn in camp: no move, discarded (T17); the turn passes each time
    evs = run(HEAD + "card 5H\ncard 6H\ncard 7C\nreset\nwait 500\ncard 8D\nsend selftest\n")
    piles = of(evs, "pile")
    assert len(piles) == 1 and sorted(piles[0]["cards"]) == ["5H", "6H", "7C"]
    assert [e["card"] for e in of(evs, "card")] == ["5H", "6H", "7C", "8D"]
    (report,) = of(evs, "selftest")
    assert report["reader"] == "ok" and report["reader_errors"] == 0
    assert of(evs, "error") == []


def test_pile_after_reset_random_piles_through_the_table():
    # random piles of 2-10 discards, a reset, then new cards: each read once, none lost
    r0 = rng(77)
    ranks = ("2", "3", "4", "5", "6", "8", "9", "10")
    suits = "HDCS"
    for trial in range(3):
        deck = [r + s for r in ranks for s in suits]
        picked = []
        while len(picked) < 2 + r0.below(9) + 2:
            c = deck[r0.below(len(deck))]
            if c not in picked:
                picked.append(c)
        pile, after = picked[:-2], picked[-2:]
        script = HEAD + "".join("card %s\n" % c for c in pile) + "reset\nwait 300\n"
        script += "".join("card %s\n" % c for c in after)
        evs = run(script)
        assert sorted(of(evs, "pile")[0]["cards"]) == sorted(pile)
        assert [e["card"] for e in of(evs, "card")] == pile + after
        assert kinds(evs).count("discard") == len(picked)
