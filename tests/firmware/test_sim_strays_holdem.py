# Hold'em's cards on the pile at power-up (adversarial round 4: F0b's phantom flop): see
# strays.py.
from strays import FRENCH, TRIALS, differential, enrol_noise, shuffled

from sim.chips import Rng

# --- Hold'em: 2 seats; hands folded on the flop; the cut comes with 0-3 flop cards laid -------


def _hand_start(button):
    first, other = button, "2" if button == "1" else "1"
    return ["send hand", "send call " + first, "send check " + other]


def _holdem_session(rng):
    # the board cards are gathered to be shuffled before the next hand's flop (when: at any
    # point from the end of the hand to its first card; a card refused meanwhile may lie
    # under the new flop, or be gathered too); not before a cut that comes first (F0b)
    deck = shuffled(rng, FRENCH)
    new = "new holdem seats=2 stacks=100 blinds=1/2 button=1"
    lines = ["table holdem seats=2 stacks=100 blinds=1/2 button=1"]
    button = "1"
    for hand in range(1 + rng.below(3)):
        start = _hand_start(button)
        if hand:
            start.insert(rng.below(len(start) + 1), "gather")
        lines.extend(start)
        lines.extend("card " + deck.pop() for _ in range(3))
        other = "2" if button == "1" else "1"
        lines.extend(["send bet %s 10" % other, "send fold " + button, "wait 200"])
        button = other
        k = rng.below(6)
        if k == 0:
            lines.extend(["card " + deck.pop(), "wait 200"])  # no hand under way: refused
        elif k == 1:
            lines.extend(["send " + new, "wait 200"])  # a rebuy: F0b
            button = "1"
        elif k == 2:
            enrol_noise(rng, deck, lines)
    if rng.below(3) == 0:
        lines.extend(["send " + new, "wait 200"])  # a rebuy just before the hand: F0b
        button = "1"
    start = _hand_start(button)
    before = rng.below(3)
    outage = [deck.pop() for _ in range(rng.below(3 - before))]
    if before or outage or rng.below(3) == 0:  # gathered (else the cut finds the last hand's)
        start.insert(rng.below(len(start) + 1), "gather")
    lines.extend(start)
    lines.extend("card " + deck.pop() for _ in range(before))
    rest = ["card " + deck.pop() for _ in range(3 - before - len(outage))]
    if "gather" not in start:
        rest.insert(0, "gather")
    return lines, outage, rest + ["wait 300"]


def test_holdem_cards_on_the_pile_at_power_up():
    rng = Rng(1502)
    for trial in range(TRIALS):
        lines, outage, suffix = _holdem_session(rng)
        differential(lines, outage, suffix, "holdem %d" % trial)
