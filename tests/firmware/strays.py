# Cards found on the pile at power-up (issue 15; adversarial round 4: F0, F0b, F0e, F1, F6):
# a card is played after a power cut if and only if it was laid while the power was off, and
# the game resumes as it was. Seeded random sessions of the three card games (Weykick has no
# cards: nothing lies on its reader), each with what puts cards on the pile that the game
# does not count: an `undo`, a `new` game (of the same kind or a deck switch), cards refused
# (a second card, a card between hands, a French card at Pocha), tags laid to be enrolled or
# refused as a tag; then a power cut, with 0-2 cards laid while the board is off. Each session
# is played twice: with the cut, and without it, the same cards laid with the board on. What
# follows (every numbered event of the game, and its final snapshot) must be the same.
# The sessions and the check, shared by test_sim_strays_*.py: one game a module, so that
# each runs on a heap of its own, as a board plays one game.
from check import scratch

from clock import VirtualClock
from sim.run import Capture, Sim
from sim.script import read

SCRATCH = scratch("strays")
TRIALS = 8  # sessions of each game (seeded: the same each run)
ACE = "04CDC16FF80FC6"  # the AS of hardware/tags.json: a French card at a Pocha table
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
            self.physical.power_cut()  # the field drops: the tags are laid with no reader on
            for c in self.outage:
                self.physical.lay_card(c)
        Sim.act(self, line, verb, args)


class _Tail(Capture):
    """What a host would log, from the first marker snapshot on (a whole session's frames
    do not fit beside the simulator at an ESP32's heap): the frames go to a file as they
    come (kept on the heap, their pieces fragmented it until a later power-up could not read
    its save), decoded once the board is gone (decoding in write, short of heap, lost
    frames)."""

    def __init__(self, path):
        Capture.__init__(self)
        self.up = False  # nothing kept before the first marker
        self._greeting = False
        self.path = path
        self.out = open(path, "wb")

    def _pieces(self):
        with open(self.path, "rb") as f:
            while True:
                piece = f.read(256)
                if not piece:
                    return
                yield piece

    def events(self):
        self.out.close()
        self.frames = self._pieces()
        return Capture.events(self)

    def write(self, data):
        if data.find(b'"hello"') >= 0:
            self._greeting = True  # a boot says hello, then its snapshot: no marker
        elif data.find(b'"snapshot"') >= 0:
            if self._greeting:
                self._greeting = False
                return
            self.up = True
        if self.up and data.find(b'"heartbeat"') < 0:
            self.out.write(data)

    def tail(self):
        """(the numbered game events between the two markers, the last marker snapshot);
        what says the board failed (an exception, short of memory)."""
        marks = []
        failed = []
        segment = before = None
        for ev in self.events():
            kind = ev["type"]
            if kind == "snapshot":
                marks.append(_plain(ev))
                before, segment = segment, []
            elif (
                kind == "error"
                and ev.get("what") == "firmware"
                or (kind == "answer" and "memory" in str(ev.get("why")))
            ):
                failed.append(ev)
            elif "seq" in ev and kind not in ("pile", "resumed", "hello"):
                segment.append(_plain(ev))
        assert failed == [], failed
        assert len(marks) == 2, marks  # the scripts' two markers, and no other
        return before, marks[-1]


def play(lines, outage, name):
    """The numbered game events between the last two snapshots, and the last snapshot."""
    import gc

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
    t = _Tail(state + ".frames")
    _Cut.outage = outage or ()
    _Cut(settings, path, VirtualClock(), t, "00000000", "hardware", None, state).run()
    gc.collect()  # the simulated board is gone: room to decode what it said
    got = t.tail()
    t = None
    gc.collect()
    return got


_VOLATILE = ("seq", "boot", "at", "t", "settle", "id")


def _plain(e):
    """An event without what depends on the boot, time or numbering."""
    return dict((k, v) for k, v in e.items() if k not in _VOLATILE)


def differential(lines, outage, suffix, label):
    """The session with a cut (outage cards laid while off) against the same without it."""
    # (a wait before each marker: the events of what came before are out before it)
    cut = lines + ["wait 300", "send snapshot", "wait 300", "reset", "wait 1500"] + suffix
    cut += ["wait 2000", "send snapshot", "wait 300"]
    ga, sa = play(cut, outage, "cut")
    # cards laid during the outage are found together: the board plays them in the order
    # read, which no one can tell from the order laid. Without the cut they are laid so.
    names = [c.split(":")[-1] for c in outage]
    read = [e["card"].split(":")[-1] for e in ga if e["type"] == "card"]
    order = [c for c in read if c in names] + [c for c in names if c not in read]
    on = lines + ["wait 300", "send snapshot", "wait 300"] + ["card " + c for c in order] + suffix
    on += ["wait 2000", "send snapshot", "wait 300"]
    gb, sb = play(on, None, "on")
    assert ga == gb, (label, outage, ga, gb)
    assert sa == sb, (label, sa, sb)
    return len([e for e in ga if e["type"] == "card"])


def shuffled(rng, cards):
    deck = list(cards)
    for i in range(len(deck) - 1, 0, -1):  # Fisher-Yates, seeded
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def _uid(rng):
    return "05%012X" % (rng.next() * 4096 + rng.below(4096))  # no tags.json tag starts 05


def enrol_noise(rng, deck, out, spanish=False):
    """A tag laid to be enrolled (F1), or a card of the deck refused as the tag then the
    wait cancelled (F0c): both lie on the pile."""
    name = ("es:" if spanish else "") + deck.pop()
    if rng.below(2):
        out += ["send enrol card=" + name, "tag " + _uid(rng), "wait 300"]
    else:  # a card of the deck laid while the tag is awaited
        out += ["send enrol card=" + name, "card " + deck.pop(), "wait 300", "send enrol cancel"]
