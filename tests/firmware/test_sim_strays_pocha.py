# Pocha's cards on the pile at power-up (adversarial round 4: F0b, F6's deck switch): see
# strays.py.
from strays import ACE, FRENCH, POCHA, SPANISH, TRIALS, differential, enrol_noise, shuffled

from sim.chips import Rng

# --- Pocha: 3 players, the first hand (one card each); from a Tock game sometimes (the
# deck switch: F6), a game before it, French cards and enrolments on the pile ----------------


def _pocha_session(rng):
    french = shuffled(rng, FRENCH)
    deck = shuffled(rng, SPANISH)
    if rng.below(2):
        lines = ["table tock players=2 rules=classic"]
        for _ in range(1 + rng.below(3)):
            lines.extend(["card " + [c for c in french if c[0] not in "AK"][0], "wait 200"])
            french.remove(lines[-2][5:])
        lines.extend(["send " + POCHA, "wait 300"])
    else:
        lines = ["table pocha players=3 deck=40 schedule=short dealer=1"]
    k = rng.below(4)
    if k == 0:
        lines.extend(["tag " + ACE, "wait 200"])  # a French card: refused
    elif k == 1:
        enrol_noise(rng, deck, lines, spanish=True)
    elif k == 2:  # a whole hand, then a new game: its pile stays (F0b)
        lines.extend(["card " + deck.pop(), "send bid 2 1", "send bid 3 0", "send bid 1 0"])
        lines.extend("card " + deck.pop() for _ in range(3))
        lines.extend(["wait 300", "send " + POCHA, "wait 300"])
    # the hand: the turned card, the bids, three plays; the cut somewhere in it
    steps = [["card " + deck.pop()], ["send bid 2 1", "send bid 3 0", "send bid 1 0"]]
    steps += [["card " + deck.pop()] for _ in range(3)]
    at = rng.below(len(steps) + 1)
    outage = []
    if at < len(steps) and steps[at][0].startswith("card") and rng.below(2):
        outage = ["es:" + steps[at][0][5:]]  # laid while the power was off
        steps[at] = []
    for s in steps[:at]:
        lines.extend(s)
    suffix = [x for s in steps[at:] for x in s] + ["wait 300"]
    return lines, outage, suffix


def test_pocha_cards_on_the_pile_at_power_up():
    rng = Rng(1503)
    for trial in range(TRIALS):
        lines, outage, suffix = _pocha_session(rng)
        differential(lines, outage, suffix, "pocha %d" % trial)
