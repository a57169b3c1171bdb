# Power cuts at every point around every card on the card spot (issue 31): the hands of
# test_sim_cuts's Hold'em and Pocha sessions, and of Tock discards, played with the spot's
# other actions at seeded places (a card left lying and the next stacked on it, two laid
# askew at once, a card moved off late), then cut at each point after a card is laid (before
# the reader reads it: the card lies there at power-up, laid while the power was off; between
# its read and its flash write: the game on flash is from before it; after: it is the tag last
# read, not played again) and at seeded random points, two cuts in a row among them. Every
# play reaches the host exactly once and in order, as without the cuts (tests/firmware/cuts.py;
# the whole games through `plateau sim`: tests/host/test_spot_adversary.py). Runs under pytest
# and MicroPython (where the heap has room: test_sim_cuts's ROOM).
from check import Rand
from test_sim_cuts import HOLDEM, HOLDEM_PLAYS, POCHA, POCHA_PLAYS, check_cuts

SPOT = ("card", "leave", "stack", "pair")
TOCK_PLAYS = {"card": ("card", "seat"), "discard": ("card", "seat")}


def on_the_spot(text, rng):
    """`text` with its `card` lines played the spot's other ways at seeded places, each kind
    at least once; a card left lying is gathered with the rest at a `gather`."""
    lines = text.split("\n")
    cards = [i for i in range(len(lines)) if lines[i].startswith("card ")]
    out = []
    lying = None
    kinds = {"leave": 0, "pair": 0, "late": 0}
    for n in range(len(cards)):
        i = cards[n]
        start = cards[n - 1] + 1 if n else 0
        for line in lines[start:i]:
            if line.startswith("gather"):
                lying = None
            out.append(line)
        card = lines[i].split(" ")[1]
        nxt = lines[cards[n + 1]].split(" ")[1] if n + 1 < len(cards) else None
        if lying is not None:
            if rng.below(2):
                out.append("stack " + card)
                lying = None
                continue
            out.append("take " + lying)
            kinds["late"] += 1
            lying = None
        pick = rng.below(6) if n > 2 else n  # the first three: each kind once
        if pick == 0 and n + 1 < len(cards):
            out.append("leave " + card)
            lying = card
            kinds["leave"] += 1
        elif pick == 1 and nxt is not None and nxt != card:
            out.append("pair %s %s" % (card, nxt))
            kinds["pair"] += 1
        else:
            out.append("card " + card)
    out += lines[cards[-1] + 1 :]
    assert kinds["leave"] and kinds["pair"], kinds
    return "\n".join(out)


def tock_discards(rng):
    """Tock with every pawn in camp: ten cards of 2-10 (no move: each discarded, T17)."""
    deck = [r + s for r in ("2", "3", "4", "5", "6", "8", "9", "10") for s in "HDCS"]
    cards = []
    while len(cards) < 10:
        c = deck[rng.below(len(deck))]
        if c not in cards:
            cards.append(c)
    return "table tock players=4 rules=classic\n" + "".join("card %s\n" % c for c in cards)


def test_tock_cards_on_the_spot_survive_cuts_at_every_point():
    rng = Rand(3101)
    check_cuts(on_the_spot(tock_discards(rng), rng), TOCK_PLAYS, rng, laid=SPOT)


def test_holdem_cards_on_the_spot_survive_cuts_at_every_point_H8_H9():
    rng = Rand(3102)
    check_cuts(on_the_spot(HOLDEM, rng), HOLDEM_PLAYS, rng, laid=SPOT)


def test_pocha_cards_on_the_spot_survive_cuts_at_every_point_K9():
    rng = Rand(3103)
    check_cuts(on_the_spot(POCHA, rng), POCHA_PLAYS, rng, laid=SPOT)
