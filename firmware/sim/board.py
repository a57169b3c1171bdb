# The simulated table: physical truth (which sensors see a magnet, which tags lie on the
# reader, which buttons are down) behind the real drivers, through the bus stand-ins of
# sim/chips.py and the same hardware maps the board loads. Never deployed.
from hal.inputs import Inputs
from hal.mfrc522 import MFRC522
from hal.shiftin import ShiftChain
from sense import hwmap
from sense.scan import Board
from sim.chips import MFRC522Bus, Pin, ShiftChainBus

BUTTON_MS = 120  # how long a simulated press holds the button down
PILE = 4  # cards of the discard pile kept in the simulated reader's field


class SimBoard:
    def __init__(self, hw_dir, clock):
        self.clock = clock
        names = hwmap.sensor_names(hw_dir)
        self.index = {}
        for i in range(len(names)):
            self.index[names[i]] = i
        nbytes = (len(names) + 7) // 8
        self.truth = bytearray(nbytes)  # bit i: a magnet over sensor i
        self._glitch = bytearray(nbytes)  # bits read inverted (noise) ...
        self._glitch_until = {}  # ... until these times (bit -> ms)
        chain_bus = ShiftChainBus(self._raw)
        reader_bus = MFRC522Bus(latency=1)
        self.reader_bus = reader_bus
        reader = MFRC522(reader_bus, reader_bus.cs)
        reader.init()
        self.button_pins = {"undo": Pin(1), "new": Pin(1), "pause": Pin(1)}
        self.goal_pins = {"A": Pin(1), "B": Pin(1)}
        self._release = {}  # button -> time to let go
        self._unglitch = {}  # goal -> time its glitch ends
        registry = hwmap.registry(hw_dir)
        self.uids = {}  # type: dict[str, list[str]]  # card -> UIDs (two jokers: "X")
        for uid in registry:
            self.uids.setdefault(registry[uid], []).append(uid)
        self._laid = []
        self.deck = 52  # cards in a deck (the simulator sets 54 with jokers)
        self._dealt = 0
        self.board = Board(
            chain=ShiftChain(chain_bus, chain_bus.latch, nbytes),
            reader=reader,
            buttons=Inputs(("undo", "new", "pause"), self.button_pins),
            goals=Inputs(("A", "B"), self.goal_pins),
            names=names,
            registry=registry,
        )

    def _raw(self):
        now = self.clock.ticks_ms()
        for bit in list(self._glitch_until):
            if now >= self._glitch_until[bit]:
                self._glitch[bit >> 3] &= ~(1 << (bit & 7))
                del self._glitch_until[bit]
        out = bytearray(len(self.truth))
        for b in range(len(out)):
            out[b] = self.truth[b] ^ self._glitch[b]
        return out

    def tick(self):
        now = self.clock.ticks_ms()
        for name in list(self._unglitch):
            if now >= self._unglitch[name]:
                pin = self.goal_pins[name]
                pin.value(1 - pin.value())
                del self._unglitch[name]
        for name in list(self._release):
            if now >= self._release[name]:
                self.button_pins[name].value(1)
                del self._release[name]

    # physical actions

    def sensor(self, name):
        return self.index[name]

    def level(self, name):
        i = self.index[name]
        return self.truth[i >> 3] >> (i & 7) & 1

    def set(self, name, level):
        i = self.index[name]
        if level:
            self.truth[i >> 3] |= 1 << (i & 7)
        else:
            self.truth[i >> 3] &= ~(1 << (i & 7))

    def glitch(self, name, ms):
        if name in self.goal_pins:  # a goal sensor reads the opposite for `ms`
            pin = self.goal_pins[name]
            pin.value(1 - pin.value())
            self._unglitch[name] = self.clock.ticks_ms() + ms
            return
        i = self.index[name]
        self._glitch[i >> 3] |= 1 << (i & 7)
        self._glitch_until[i] = self.clock.ticks_ms() + ms

    def lay_card(self, card):
        """The card's tag enters the reader's field (on top of the discard pile). When a
        whole deck has been laid, the pile is taken away to be shuffled first."""
        self._dealt += 1
        if self._dealt > self.deck:
            self._dealt = 1
            self.reader_bus.lift()
            self._laid = []
        uids = self.uids.get(card)
        if not uids:
            raise ValueError("no tag for card %s in hardware/tags.json" % card)
        uid = uids[0]
        if card == "X" and uid in self._laid and len(uids) > 1:
            uid = uids[1]  # the second joker
        self.lay_tag(uid)

    def lay_tag(self, uid_hex):
        """The tag goes on top of the pile. The simulated field holds the top PILE cards
        (halted, silent); older ones are dropped to keep the simulator's heap bounded."""
        uid = bytes.fromhex(uid_hex)
        self._laid.append(uid_hex)
        del self._laid[:-PILE]
        self.reader_bus.lift(uid)
        self.reader_bus.lay(uid)
        del self.reader_bus.tags[:-PILE]

    def press(self, button):
        self.button_pins[button].value(0)
        self._release[button] = self.clock.ticks_ms() + BUTTON_MS

    def goal(self, name, level):
        self.goal_pins[name].value(0 if level else 1)

    def set_position(self, pos):
        """Magnets where a Tock position has pawns: track, home, and the rest in camp."""
        from games.tock.rules import CELLS, COLOURS, square_name

        for b in range(len(self.truth)):
            self.truth[b] = 0
        for s in range(CELLS):
            if pos.cells[s]:
                self.set(square_name(s), 1)
        for c in pos.colours():
            for k in range(pos.camp(c)):
                self.set("%sC%d" % (COLOURS[c], k + 1), 1)
