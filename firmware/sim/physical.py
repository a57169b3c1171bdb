# The physical table, simulated: what is true of the wood and the pieces (which sensors see a
# magnet, which tags lie on the reader, which buttons are down, a ball in a goal), behind the
# real drivers, through the chip models of sim/chips/ wired as hardware/pinmap.json says (SPI
# modes and clocks included) and the same hardware maps the board loads. Never deployed.
import gc

from hal import hwmap
from hal.buzzer import Buzzer
from hal.hwmap import Hardware
from hal.inputs import Inputs
from hal.leds import LedChain
from hal.mfrc522 import MFRC522, ReaderError
from hal.oled import Oled
from hal.rail import SensorRail
from hal.shiftin import ShiftChain
from sim.chips import Pin, Rng
from sim.chips.drv5032 import HallSwitches
from sim.chips.hc165 import ChainSPI, HC165Chain
from sim.chips.i2c import I2CBus
from sim.chips.ledc import BuzzerPWM
from sim.chips.mfrc522 import MFRC522Chip
from sim.chips.rail import RailADC, SupplyRail
from sim.chips.sh1106 import SH1106
from sim.chips.spi import SPIBus
from sim.chips.ws2812 import LedChainChip, NeoPixel

BUTTON_MS = 120  # how long a simulated press holds the button down
# The card spot: one card's outline, a shallow recess over the reader's antenna. A card laid
# in it has its sticker within _PLAY_MM of the spot's centre (every card carries its sticker
# at the same place); once read it is moved off to the discard pile, the trick or the board
# row beside the spot, out of the reader's field. Two cards in the outline at once lie
# aligned: their stickers detune each other (sim/chips/ntag213.py) and neither answers.
_PLAY_MM = 1


def _bus(p):
    """(baudrate, polarity, phase): an SPI bus as the pin map gives it."""
    return p["baudrate"], p.get("polarity", 0), p.get("phase", 0)


class PhysicalTable:
    """The table's physical side: magnets over sensors, tags on the reader, buttons down, a
    ball in a goal, on the chip models; boot() gives the firmware its Hardware on them.
    It outlives every boot of the simulated board (and a kill -9: sim/world.py)."""

    # Two times: the world's (clock.now, never wrapping: the chips, the hands, the glitches)
    # and the board's counter (clock.ticks_ms(), which wraps: only the firmware reads it).
    def __init__(self, hw_dir, clock):
        self.clock = clock
        names = hwmap.sensor_names(hw_dir)
        self.names = names  # chain bit -> sensor name (looked up by name in sensor())
        nbytes = (len(names) + 7) // 8
        self.nbytes = nbytes
        self.part = hwmap.sensor_part(hw_dir)
        # only what the models need of the pin map, then the parse collected before the
        # models are made: left between them, its pieces split the heap of a test that plays
        # many tables in one process (a later boot's 1 KB failed with 23 KB free, at the
        # chip's heap, once the pin map grew by the LEDs', displays' and buzzer's keys)
        pins = hwmap.load(hw_dir, "pinmap.json")
        c, r = _bus(pins["shift_chain"]), _bus(pins["reader"])
        vcc = pins["shift_chain"].get("vcc", 3.3)
        # the sensors' supply, through the divider to the ADC pin (sim/chips/rail.py)
        rail = pins.get("sensor_rail")
        self._rail_map = rail and (rail["ratio"], rail["min_volts"], rail.get("volts", 5.0))
        # what the table shows (issue 29): the LED chain, the displays on their bus, the
        # buzzer's PWM (hal/board.py's _outputs builds the same drivers on the real parts)
        self.leds_map = pins.get("leds")
        shown = pins.get("display")
        self._display = shown and (shown["freq"], [shown["addr"][e] for e in sorted(shown["addr"])])
        self._buzzer_hz = pins.get("buzzer", {}).get("hz")
        pins = None
        gc.collect()
        now = clock.now
        # the Hall sensors: outputs LOW over a magnet, updated at their own sampling period
        self.sensors = HallSwitches(len(names), self.part["part"], now)
        self._glitch = bytearray(nbytes)  # bits read inverted on the wire (noise) ...
        self._glitch_until = {}  # ... until these times (bit -> ms)
        self.chain = HC165Chain(nbytes, self._raw, vcc)
        self.chain_spi = ChainSPI(self.chain, c[0], c[1], c[2], bitwise=False)
        self.reader_chip = MFRC522Chip(lambda: clock.now * 1000)
        self.reader_spi = SPIBus(r[0], r[1], r[2], (self.reader_chip,))
        self.rail = None  # type: SupplyRail | None
        self.rail_adc = None
        if self._rail_map:
            self.rail = SupplyRail(int(self._rail_map[2] * 1000 + 0.5))
            self.rail_adc = RailADC(self.rail, self._rail_map[0])
        self.led_chip = None  # type: LedChainChip | None
        if self.leds_map:
            m = self.leds_map
            self.led_chip = LedChainChip(
                m["count"], lambda: clock.now * 1000, m.get("ma_channel", 20), m.get("ma_idle", 1)
            )
        # the LED chain's neopixel object and the displays' page buffer, made once: a board's
        # are new at each power-up, with everything else; made again at each simulated
        # reset they would split the heap a table restarts on (the old boot's objects gone
        # around them), which the board's does not have to share with the simulator
        self._np = self.led_chip and NeoPixel(Pin(0), self.leds_map["count"], self.led_chip)
        self._page = bytearray(128)
        self.i2c = None  # type: I2CBus | None
        self.displays = []  # type: list  # the SH1106 models, A's end then B's
        if self._display:
            self.i2c = I2CBus(self._display[0])
            for addr in self._display[1]:
                chip = SH1106(addr)
                self.i2c.devices[addr] = chip
                self.displays.append(chip)
        self.buzzer_pwm = None  # type: BuzzerPWM | None
        if self._buzzer_hz:
            self.buzzer_pwm = BuzzerPWM(lambda: clock.now, self._buzzer_hz)
        self.button_pins = {"undo": Pin(1), "new": Pin(1), "pause": Pin(1)}
        self.goal_pins = {"A": Pin(1), "B": Pin(1)}
        self._release = {}  # button -> time to let go
        self._unglitch = {}  # goal -> time its glitch ends
        self.ball = {"A": 0, "B": 0}  # the truth: the ball in the goal (the pin may glitch)
        # UID hex -> card (the firmware's, handed to it at boot): a card's tags are looked up
        # in it when the card is laid, not kept in a second table (heap: see lay_card)
        self.registry = hwmap.registry(hw_dir)
        self._jokers = 0  # jokers laid: a deck's two jokers are two tags, laid in turn
        self._rng = Rng(31)  # where in the spot's outline each card lands
        # the table as it was before the card spot: every card laid on the last, on the
        # reader, none moved off (tests show the reader cannot read such a pile)
        self.piled = False
        self.hardware = None  # type: Hardware | None

    def boot(self):
        """The firmware starts: new drivers (the board's RAM is new), set up as hal/board.py
        sets up the real ones; the chips and what lies on them are as they are."""
        reader = MFRC522(
            self.reader_spi,
            self.reader_chip.nss,
            self.reader_chip.nrstpd,
            self.clock.sleep_ms,
            self.clock.ticks_ms,
        )
        try:
            reader.init()
        except ReaderError:
            pass  # poll() keeps trying; selftest says so
        leds = None
        if self.led_chip:
            leds = LedChain(self._np, self.leds_map)
        watch = None
        if self.rail_adc:
            ratio, low, volts = self._rail_map
            watch = SensorRail(self.rail_adc, ratio, low, volts)
        self.hardware = Hardware(
            chain=ShiftChain(
                self.chain_spi, self.chain.sh_ld, self.nbytes, self.part["active_low"]
            ),
            reader=reader,
            buttons=Inputs(("undo", "new", "pause"), self.button_pins),
            goals=Inputs(("A", "B"), self.goal_pins),
            names=self.names,
            registry=self.registry,
            sample_ms=self.part["sample_ms"],
            rail=watch,
            leds=leds,
            displays=self._oleds(),
            buzzer=Buzzer(self.buzzer_pwm) if self.buzzer_pwm else None,
        )
        return self.hardware

    def _oleds(self):
        """The displays' drivers, as hal/board.py makes them (one page buffer for both)."""
        return tuple(Oled(self.i2c, d.addr, True, self._page) for d in self.displays)

    def power_cut(self):
        """The power goes and comes back: the reader's field drops (every tag on it wakes up
        again), the sensors restart and sample what is over them."""
        self.reader_chip.power_cut()
        self.sensors.power_up(self.clock.now)
        if self.led_chip:
            self.led_chip.power_cut()
        for d in self.displays:
            d.power_cut()

    def _raw(self):
        now = self.clock.now
        for bit in list(self._glitch_until):
            if now >= self._glitch_until[bit]:
                self._glitch[bit >> 3] &= ~(1 << (bit & 7))
                del self._glitch_until[bit]
        out = self.sensors.levels(now)
        if self._glitch_until:
            out = bytearray(out)
            for b in range(len(out)):
                out[b] ^= self._glitch[b]
        return out

    def tick(self):
        now = self.clock.now
        for name in list(self._unglitch):
            if now >= self._unglitch[name]:
                del self._unglitch[name]
                self._goal_pin(name)  # the truth again, whatever the ball did meanwhile
        for name in list(self._release):
            if now >= self._release[name]:
                self.button_pins[name].value(1)
                del self._release[name]

    # physical actions

    def sensor(self, name):
        """A sensor's chain bit, by its name (KeyError: no such sensor). Looked up in the
        sensor map's list: a dict of 104 names would take a board's worth of heap."""
        try:
            return self.names.index(name)
        except ValueError:
            raise KeyError(name)

    def level(self, name):
        return self.sensors.present(self.sensor(name))

    def set(self, name, level):
        self.sensors.set(self.sensor(name), level, self.clock.now)

    def unplug_chain(self, out=True):
        """The sensor chain's cable pulled out (out=False: put back). A board's pull-up on
        MISO then reads every bit HIGH, the check byte included."""
        self.chain_spi.unplugged = out

    def glitch(self, name, ms):
        if name in self.goal_pins:  # a goal sensor reads the opposite for `ms`
            self._unglitch[name] = self.clock.now + ms
            self._goal_pin(name)
            return
        i = self.sensor(name)
        self._glitch[i >> 3] |= 1 << (i & 7)
        self._glitch_until[i] = self.clock.now + ms

    def uid_on_spot(self, card):
        """The UID (hex) of a tag of `card` lying on the spot, or None."""
        registry = self.registry
        for uid in self.on_spot():
            if registry.get(uid) == card:
                return uid
        return None

    def lay_card(self, card, x=None, y=None):
        """The card is laid on the card spot (its tag enters the reader's field): (the UID
        laid, hex; False when that card lay there already: laid again after a kill, it is
        the same card lying there, left as it lies)."""
        registry = self.registry  # its tags (two jokers: "X"), in the registry's order
        uids = [uid for uid in registry if registry[uid] == card]
        if not uids:
            raise ValueError("no tag for card %s in hardware/tags.json" % card)
        uid = uids[0]
        if card == "X":  # the deck's jokers are two tags: each laid in turn
            if self._jokers and uids[(self._jokers - 1) % len(uids)] in self.on_spot():
                return uids[(self._jokers - 1) % len(uids)], False  # the last one, lying
            uid = uids[self._jokers % len(uids)]
            self._jokers += 1
        return uid, self.lay_tag(uid, x, y)

    def lay_tag(self, uid_hex, x=None, y=None):
        """The tag is laid on the card spot, in its outline (or at x, y mm from its centre):
        True; False when it lies in the field already (left as it lies: a line done again
        after a kill lays the same card)."""
        if uid_hex in self.on_spot():
            return False
        uid = bytes.fromhex(uid_hex)
        if x is None:
            x = self._rng.below(2 * _PLAY_MM + 1) - _PLAY_MM
            y = self._rng.below(2 * _PLAY_MM + 1) - _PLAY_MM
        self.reader_chip.lay(uid, x, y)
        return True

    def take_off(self, uid_hex):
        """The card is moved off the spot (to the discard pile, the trick or the row beside
        it, out of the reader's field)."""
        self.reader_chip.lift(bytes.fromhex(uid_hex))

    def on_spot(self):
        """The tags lying in the reader's field (UID hex), the first laid first."""
        return ["".join("%02X" % b for b in t.uid) for t in self.reader_chip.tags]

    def press(self, button):
        self.button_pins[button].value(0)
        self._release[button] = self.clock.now + BUTTON_MS

    def goal(self, name, level):
        self.ball[name] = 1 if level else 0
        self._goal_pin(name)

    def _goal_pin(self, name):
        """A goal's pin (active low): the ball in or not, the opposite while it glitches;
        HIGH (released, on its pull-up) while the sensors' supply is off."""
        seen = self.ball[name] ^ (1 if name in self._unglitch else 0)
        self.goal_pins[name].value(0 if seen and self.sensors.powered else 1)

    def set_rail(self, mv):
        """The sensors' supply at `mv` (0: the adapter unplugged or F1 tripped; the nominal
        5000: back): the Hall sensors under the squares and in the goals stop below their
        VCC minimum (their outputs float HIGH on the pull-ups) and start over when it is
        back; the ADC pin follows through the divider (sim/chips/rail.py). None: nominal."""
        if mv is None:
            mv = self.rail.nominal_mv if self.rail else 5000
        if self.rail is not None:
            self.rail.mv = mv
        self.sensors.supply(mv, self.clock.now)
        for name in self.goal_pins:
            self._goal_pin(name)

    def gather(self):
        """Every card is taken off the table to be shuffled and dealt again (the spot's too)."""
        self.reader_chip.lift()

    # the physical table as it stands, for a simulator restarted after kill -9 (sim/world.py)

    def write_physical(self, f):
        """The table as JSON into the open file `f`, a piece at a time (the simulator's
        heap is tight: a deck's pile in one string would not fit)."""
        f.write(
            '{"jokers":%d,"rail":%d,"goals":[%d,%d],"magnets":['
            % (
                self._jokers,
                self.rail.mv if self.rail else 5000,
                1 - self.ball["A"],
                1 - self.ball["B"],
            )  # as pins: 0 = in
        )
        sep = ""
        for i in range(len(self.names)):
            if self.sensors.present(i):
                f.write("%s%d" % (sep, i))
                sep = ","
        f.write('],"tags":[')
        sep = ""
        for t in self.reader_chip.tags:  # each [UID, x, y]: where it lies says whom it detunes
            f.write(sep + '["')
            for b in t.uid:
                f.write("%02X" % b)
            f.write('",%d,%d]' % (t.x, t.y))
            sep = ","
        f.write("]}")

    def set_physical(self, d):
        now = self.clock.now
        for i in d["magnets"]:
            self.sensors.set(i, 1, now)
        self.sensors.power_up(now)  # the sensors start over what lies on them
        for t in d["tags"]:  # the first laid first, where each lay
            self.reader_chip.lay(bytes.fromhex(t[0]), t[1], t[2])
        self._jokers = d.get("jokers", 0)
        self.set_rail(d.get("rail", 5000))
        self.goal("A", not d["goals"][0])
        self.goal("B", not d["goals"][1])

    def set_position(self, pos):
        """Magnets where a Tock position has pawns: track, home, and the rest in camp."""
        from games.tock.rules import CAMP_SLOT, CELLS, COLOURS, square_name

        for i in range(len(self.names)):
            if self.sensors.present(i):
                self.sensors.set(i, 0, self.clock.now)
        for s in range(CELLS):
            if pos.cells[s]:
                self.set(square_name(s), 1)
        for c in pos.colours():
            for k in range(pos.camp(c)):
                self.set(CAMP_SLOT % (COLOURS[c], k + 1), 1)
