# Cards found on the pile at power-up (issue 15; adversarial round 4: F0, F0b, F0e, F1, F6):
# a card is played after a power cut if and only if it was laid while the power was off, and
# the game resumes as it was. Seeded random sessions of the three card games (Weykick has no
# cards: nothing lies on its reader), each with what puts cards on the pile that the game
# does not count: an `undo`, a `new` game (of the same kind or a deck switch), cards refused
# (a second card, a card between hands, a French card at Pocha), tags laid to be enrolled or
# refused as a tag; then a power cut, with 0-2 cards laid while the board is off. Each session
# is played twice: with the cut, and without it, the same cards laid with the board on. What
# follows (every numbered event of the game, and its final snapshot) must be the same.
import json

from check import scratch
from clock import VirtualClock
from sim.chips import Rng
from sim.run import Capture, Sim
from sim.script import read

SCRATCH = scratch("strays")
TRIALS = 8  # sessions of each game (seeded: the same each run)
with open("hardware/tags.json") as _f:
    _TAGS = json.load(_f)["tags"]
UID = dict((c, u) for u, c in _TAGS.items())  # card -> its tag in hardware/tags.json
del _TAGS
FRENCH = [r + s for s in "SHDC" for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10")]
FRENCH += [r + s for s in "SHDC" for r in ("J", "Q", "K")]
SPANISH = [str(r) + s for s in "OCEB" for r in (1, 2, 3, 4, 5, 6, 7, 10, 11, 12)]
CUT = "cut"  # the script line of the power cut (the outage cards are laid in it)
POCHA = "new pocha players=3 deck=40 schedule=short dealer=1"


class _Cut(Sim):
    """The simulator, with cards laid on the reader while the power is off."""

    outage = ()

    def act(self, line, verb, args):
        if verb == "reset" and self.outage:
            self.board.power_cut()  # the field drops: the tags are laid with no reader on
            for c in self.outage:
                self.board.lay_card(c)
        Sim.act(self, line, verb, args)


def _play(lines, outage, name):
    path = SCRATCH + "/" + name + ".table"
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")
    state = SCRATCH + "/" + name
    try:
        import os

        for f in os.listdir(state):
            os.remove(state + "/" + f)
    except OSError:
        pass
    with open(path) as f:
        settings = read(f)
    t = Capture()
    _Cut.outage = outage
    _Cut(settings, path, VirtualClock(), t, "00000000", "hardware", None, state).run()
    return [e for e in t.events() if e["type"] != "heartbeat"]


_VOLATILE = ("seq", "boot", "at", "t", "settle", "id")


def _plain(e):
    """An event without what depends on the boot, time or numbering."""
    return dict((k, v) for k, v in e.items() if k not in _VOLATILE)


def _after(evs):
    """The numbered events after the marker snapshot (the cut's own `pile`/`resumed` and
    the link's messages aside), and the last snapshot."""
    snaps = [i for i, e in enumerate(evs) if e["type"] == "snapshot"]
    tail = evs[snaps[-2] + 1 : snaps[-1]]
    game = [_plain(e) for e in tail if "seq" in e and e["type"] not in ("pile", "resumed")]
    return game, _plain(evs[snaps[-1]])


def _differential(lines, outage, suffix, label):
    """The session with a cut (outage cards laid while off) against the same without it."""
    cut = lines + ["send snapshot", "wait 300", "reset", "wait 1500"] + suffix
    cut += ["wait 500", "send snapshot", "wait 300"]
    a = _play(cut, outage, "cut")
    ga, sa = _after(a)
    # cards laid during the outage are found together: the board plays them in the order
    # read, which no one can tell from the order laid. Without the cut they are laid so.
    names = [c.split(":")[-1] for c in outage]
    read = [e["card"].split(":")[-1] for e in ga if e["type"] == "card"]
    order = [c for c in read if c in names] + [c for c in names if c not in read]
    on = lines + ["send snapshot", "wait 300"] + ["card " + c for c in order] + suffix
    on += ["wait 500", "send snapshot", "wait 300"]
    b = _play(on, (), "on")
    gb, sb = _after(b)
    assert ga == gb, (label, outage, ga, gb)
    assert sa == sb, (label, sa, sb)
    assert [e for e in a if e["type"] == "error" and e.get("what") == "firmware"] == []
    return len([e for e in ga if e["type"] == "card"])


def _deck(rng, cards):
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates, seeded
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _uid(rng):
    return "05%012X" % (rng.next() * 4096 + rng.below(4096))  # no tags.json tag starts 05


def _enrol_noise(rng, deck, out, spanish=False):
    """A tag laid to be enrolled (F1), or a card of the deck refused as the tag then the
    wait cancelled (F0c): both lie on the pile."""
    card = deck.pop()
    name = ("es:" if spanish else "") + card
    if rng.below(2):
        out += ["send enrol card=" + name, "tag " + _uid(rng), "wait 300"]
    else:
        out += ["send enrol card=" + name, "tag " + UID[name if spanish else deck.pop()]]
        out += ["wait 300", "send enrol cancel"]


# --- Tock: 2 players, every pawn in camp between turns, so a card other than an A or a K is
# discarded (T17) and the turn passes; an A or a K exits a pawn, and is undone ----------------


def _tock_session(rng):
    deck = _deck(rng, FRENCH)
    plain = [c for c in deck if c[0] not in "AK"]
    exits = [c for c in deck if c[0] in "AK"]
    turn = ["R"]
    lines = ["table tock players=2 rules=classic"]

    def exit_undone(refused=False):
        c = exits.pop()
        t = turn[0]
        lines.extend(["card " + c, "wait 200"])
        if refused:  # a second card, refused (F0e)
            lines.extend(["card " + plain.pop(), "wait 200"])
        lines.extend(["move %sC1 %s18" % (t, t), "wait 600", "send undo"])
        lines.extend(["move %s18 %sC1" % (t, t), "wait 2500"])  # put back: F0's second form

    for _ in range(3 + rng.below(8)):
        k = rng.below(10)
        if k < 4:
            lines.extend(["card " + plain.pop(), "wait 200"])
            turn[0] = "G" if turn[0] == "R" else "R"
        elif k < 6:
            exit_undone(refused=k == 5)
        elif k == 6:
            _enrol_noise(rng, plain, lines)
        elif k == 7:
            lines.extend(["send new tock players=2 rules=classic", "wait 300"])  # F0b
            if rng.below(2):
                lines.append("gather")  # the deck gathered for the new game (or not yet)
            turn[0] = "R"
        else:
            lines.extend(["card " + plain.pop(), "wait 200"])
            turn[0] = "G" if turn[0] == "R" else "R"
    outage = [plain.pop() for _ in range(rng.below(3))]
    return lines, outage, ["card " + plain.pop(), "wait 300"]


def test_tock_cards_on_the_pile_at_power_up():
    rng = Rng(1501)
    played = 0
    for trial in range(TRIALS):
        lines, outage, suffix = _tock_session(rng)
        played += _differential(lines, outage, suffix, "tock %d" % trial)
    assert played >= TRIALS  # the suffix's card at least, each time


# --- Hold'em: 2 seats; hands folded on the flop; the cut comes with 0-3 flop cards laid -------


def _hand_start(button):
    first, other = button, "2" if button == "1" else "1"
    return ["send hand", "send call " + first, "send check " + other]


def _holdem_session(rng):
    # the board cards are gathered to be shuffled before the next hand's flop (when: at any
    # point from the end of the hand to its first card; a card refused meanwhile may lie
    # under the new flop, or be gathered too); not before a cut that comes first (F0b)
    deck = _deck(rng, FRENCH)
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
            _enrol_noise(rng, deck, lines)
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
        _differential(lines, outage, suffix, "holdem %d" % trial)


# --- Pocha: 3 players, the first hand (one card each); from a Tock game sometimes (the
# deck switch: F6), a game before it, French cards and enrolments on the pile ----------------


def _pocha_session(rng):
    french = _deck(rng, FRENCH)
    deck = _deck(rng, SPANISH)
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
        lines.extend(["tag " + UID[french.pop()], "wait 200"])  # a French card: refused
    elif k == 1:
        _enrol_noise(rng, deck, lines, spanish=True)
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
        _differential(lines, outage, suffix, "pocha %d" % trial)


def test_undo_then_a_cut_before_the_pawn_is_put_back():
    # F0's first form: the card taken back lies on the pile; after the cut no card is played
    # and the pawn still out is to be put back, as without the cut
    lines = ["table tock players=2 rules=classic", "card AS", "move RC1 R18", "wait 600"]
    lines += ["send undo", "wait 300", "reset", "wait 1500", "move R18 RC1", "wait 2500"]
    lines += ["card 5D", "wait 300"]
    evs = _play(lines, (), "undo")
    assert [e["card"] for e in evs if e["type"] == "card"] == ["AS", "5D"], evs
    (resumed,) = [e for e in evs if e["type"] == "resumed"]
    assert resumed["card"] is None and resumed["position"]["turn"] == "R"
    assert [e["seat"] for e in evs if e["type"] == "card"] == ["R", "R"]
    assert [e for e in evs if e["type"] == "move"][1:] == []  # the undone move not made again
