# What the table shows, timed (issue 29), on the interpreter closest to the chip (run by make
# bench): whole games played through the simulated table (its lights, displays and buzzer on,
# hints on), each pass of Table.step timed and named by what it did. Left out of a pass's
# time, as they are not the firmware's: the chips' Python stand-ins (the chain's and the
# reader's SPI, the pins, the LED chain's bitstream, the I2C bus: C calls on a board) with
# what their counting wrappers cost, and the table's garbage collection (timed on the chip's
# heap by chip_mpy: here the heap is 512k); the buses' time on the wire is added from the
# bytes they were given (the LED chain: 30 us a LED at 800 kHz and the 50 us latch; I2C at
# the pin map's clock, 9 bits a byte). What is left is the firmware's own bytecode,
# estimated for an ESP32 by the reference workload (esp32_mpy). Printed: the busiest pass of
# each kind (the game's: a rules check or a card read with its event and save, where the
# output stage draws nothing; the sensors settling; the game asked what to show; a piece of
# Tock's hints; an LED frame written; a half page of a display sent; nothing drawn), the
# busiest pass the output stage worked in, and how long after a card's event its hints
# were lit (passes of 5 ms).
#   micropython -X heapsize=512k -m outputs_mpy HWDIR GAME.table...
from esp32_mpy import HERE, SLOW, esp32, reference  # isort: skip  (calibrates first)

import gc  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

sys.modules.pop("pystone_lowmem", None)
gc.collect()

import idlealloc  # noqa: E402  (its wrappers count the SPI stand-ins' time)
from idlealloc import STANDIN  # noqa: E402

import sim.run as run  # noqa: E402
import table as table_module  # noqa: E402
from sim import VirtualClock  # noqa: E402
from sim.chips.i2c import I2CBus  # noqa: E402
from sim.chips.ws2812 import LedChainChip  # noqa: E402
from sim.script import read  # noqa: E402

WIRE = [0]  # us the buses took on the wire in this pass (added to its time)
FREQ = [400000]


def quick_bitstream(self, pin, encoding, timing, buf):
    t0 = time.ticks_us()
    n = len(buf) // 3
    kept = min(n, self.n) * 3
    self.frame[:kept] = buf[:kept]
    self.writes += 1
    WIRE[0] += n * 30 + 50  # [WS2812B] 24 bits of 1.25 us a LED, then the latch
    STANDIN[0] += time.ticks_diff(time.ticks_us(), t0)


def quick_write(self, addr, buf, stop=True):
    t0 = time.ticks_us()
    dev = self._device(addr)
    dev.write(bytes(buf))
    WIRE[0] += (len(buf) + 1) * 9 * 1000000 // FREQ[0]
    STANDIN[0] += time.ticks_diff(time.ticks_us(), t0)


def quick_writev(self, addr, vector, stop=True):
    t0 = time.ticks_us()
    dev = self._device(addr)
    n = 0
    data = b"".join(bytes(b) for b in vector)
    dev.write(data)
    n = len(data)
    WIRE[0] += (n + 1) * 9 * 1000000 // FREQ[0]
    STANDIN[0] += time.ticks_diff(time.ticks_us(), t0)


LedChainChip.bitstream = quick_bitstream
I2CBus.writeto = quick_write
I2CBus.writevto = quick_writev


class Worst:
    """The busiest passes of each kind. A loaded machine stops a process at any time, so one
    run's slowest passes are partly this machine's: the game is played again (the simulated
    table is deterministic: the same passes in the same order) and each of the first run's
    _KEEP slowest passes of a kind is taken at its fastest over the runs."""

    def __init__(self):
        self.kinds = {}  # kind -> [[pass index, firmware us, wire us], ...], slowest first
        self.again = None  # pass index -> [kind, us]: the passes timed again
        self.hist = {}  # kind -> passes by firmware us (the last: that or more), first run

    def add(self, i, kind, own, wire):
        if self.again is not None:
            seen = self.again.get(i)
            if seen is not None and own < seen[1]:
                seen[1] = own
            return
        hist = self.hist.get(kind)
        if hist is None:
            hist = self.hist[kind] = [0] * 400
        hist[min(own, 399)] += 1
        top = self.kinds.setdefault(kind, [])
        if len(top) < _KEEP or own + wire > top[-1][1] + top[-1][2]:
            top.append([i, own, wire])
            top.sort(key=lambda x: -(x[1] + x[2]))
            del top[_KEEP:]

    def rerun(self):
        if self.again is None:
            self.again = {}
            for kind, top in self.kinds.items():
                for entry in top:
                    self.again[entry[0]] = [kind, entry[1]]

    def median(self, kind):
        """The kind's median pass, firmware us (first run), and how many passes."""
        hist = self.hist[kind]
        n = sum(hist)
        seen = 0
        for us in range(len(hist)):
            seen += hist[us]
            if 2 * seen >= n:
                return us, n
        return len(hist), n

    def worst(self, kind):
        """(firmware us, wire us) of the kind's busiest pass, each at its fastest."""
        best = None
        for i, own, wire in self.kinds[kind]:
            if self.again is not None:
                own = self.again[i][1]
            if best is None or own + wire > best[0] + best[1]:
                best = (own, wire)
        return best


_KEEP = 8
_RUNS = 3


def _wrapper_us():
    """What idlealloc's counting wrapper adds to a stand-in's call, over the call itself
    (subtracted: a board calls the C method straight)."""

    class Nothing:
        def value(self, a=None):
            return a

    plain = Nothing()
    plain_value = plain.value
    best = [1 << 30, 1 << 30]
    counted = STANDIN[:]
    idlealloc.standin(Nothing, "value", 1)
    for _ in range(5):
        for k, f in enumerate((plain_value, Nothing().value)):
            t0 = time.ticks_us()
            for i in range(1000):
                f(i)
            best[k] = min(best[k], time.ticks_diff(time.ticks_us(), t0))
    STANDIN[:] = counted
    return max(0, best[1] - best[0]) / 1000


WRAPPER_US = _wrapper_us()


class Collector:
    """The table's gc, timed: a collection is the table's, between the game's pass and the
    next (chip_mpy times it at the chip's heap); its time is left out of the pass here."""

    def __init__(self):
        self.us = 0
        self.runs = 0

    def collect(self):
        t0 = time.ticks_us()
        gc.collect()
        self.us += time.ticks_diff(time.ticks_us(), t0)
        self.runs += 1

    def __getattr__(self, name):
        return getattr(gc, name)


GAME = "the game's pass (a check or a card: event, save)"
READ = "the game read the board (no event)"
SETTLED = "the sensors settled (a collection follows)"
REDRAW = "the game asked what to show"
COMPOSE = "the table's part of the show added"
PIECE = "a piece of Tock's hints"
FRAME = "an LED frame made"
WRITE = "an LED frame written"
PAGE = "half a display page sent"
IDLE = "nothing drawn"
KINDS = (GAME, READ, SETTLED, REDRAW, COMPOSE, PIECE, FRAME, WRITE, PAGE, IDLE)
DRAWING = KINDS[3:]  # the passes the output stage works in


def play(path, hw_dir, worst, delays):
    with open(path) as f:
        settings = read(f)
    sim = run.Sim(
        settings, path, VirtualClock(), run.Capture("outputs.out"), "b0a4d000", hw_dir, None, None
    )
    table = sim.table
    out = table.outputs
    ph = sim.physical
    FREQ[0] = ph.i2c.freq if ph.i2c else 400000
    collector = Collector()
    table_module.gc = collector
    step = table.step
    game = table.game
    card_at = [None]  # the world's ms of the last card event, until its hints are lit
    n = [0]  # passes so far
    did = [None]  # what the output stage did in this pass
    heard = [False]  # an event in this pass

    def probe(name, kind):  # (the first of the output stage's pieces a pass names it)
        f = getattr(out, name)

        def w(*a):
            if did[0] is None:
                did[0] = kind
            return f(*a)

        setattr(out, name, w)

    probe("_redraw", REDRAW)
    probe("_compose", COMPOSE)
    probe("_make_frame", FRAME)
    probe("_one_page", PAGE)
    probe("_second_half", PAGE)

    def timed():
        jobbed = out._job is not None
        did[0] = None
        heard[0] = False
        STANDIN[0] = STANDIN[2] = 0
        WIRE[0] = 0
        gc_us, gc_runs = collector.us, collector.runs
        writes = ph.led_chip.writes if ph.led_chip else 0
        g = table.game
        reads = getattr(g, "dirty", False)
        t0 = time.ticks_us()
        step()
        us = time.ticks_diff(time.ticks_us(), t0) - STANDIN[0] - int(STANDIN[2] * WRAPPER_US)
        us -= collector.us - gc_us
        kind = did[0]
        if heard[0]:
            kind = GAME
        elif collector.runs != gc_runs:
            kind = SETTLED
        elif reads and not getattr(g, "dirty", False):
            kind = READ
        elif kind is None and ph.led_chip and ph.led_chip.writes != writes:
            kind = WRITE
        elif kind is None:
            kind = PIECE if jobbed else IDLE  # (a job waits for no bus)
        n[0] += 1
        worst.add(n[0], kind, us, WIRE[0])
        if card_at[0] is not None and kind == WRITE and out._job is None and not out._ask:
            if delays is not None:  # the frame with the card's hints is out
                delays.append(sim.clock.now - card_at[0])
            card_at[0] = None

    table.step = timed
    listened = out.heard

    hints = game.about()["game"] == "tock"  # (the game that lights a card's hints)

    def listen(ev):
        heard[0] = True
        if ev["type"] == "card" and hints:
            card_at[0] = sim.clock.now
        listened(ev)

    out.heard = listen
    gc.collect()
    try:
        sim.run()
    finally:
        table_module.gc = gc
    return game.about()["game"]


def main(hw_dir, paths):
    print(reference())
    print("(the stand-ins' counting wrapper: %.2f us a call, left out with them)" % WRAPPER_US)
    for path in paths:
        worst = Worst()
        delays = []
        for k in range(_RUNS):
            gc.collect()
            name = play(path, hw_dir, worst, delays if k == 0 else None)
            worst.rerun()
        print("%s: the busiest pass of each kind (firmware, then the buses' wire time):" % name)
        busiest = None
        for kind in KINDS:
            if kind not in worst.kinds:
                continue
            own, wire = worst.worst(kind)
            if kind in DRAWING and (busiest is None or _ms(own, wire) > _ms(*busiest[1:])):
                busiest = (kind, own, wire)
            median, passes = worst.median(kind)
            print("  %-48s %s" % (kind, _said(own, wire)))
            print("  %-48s median %d us here (%s), %d passes" % ("", median, esp32(median), passes))
        if busiest:
            print(
                "  the busiest pass the output stage worked in: %s, %s"
                % (busiest[0], _said(busiest[1], busiest[2]))
            )
        if delays:
            delays.sort()
            print(
                "  a card's hints lit after (simulated time, passes of 5 ms, the hints worked "
                "out a piece a pass): median %d ms, worst %d ms, %d cards"
                % (delays[len(delays) // 2], delays[-1], len(delays))
            )


def _ms(own, wire):
    """The upper ESP32 estimate of a pass, ms (here, when no reference: us)."""
    return own * SLOW[1] / 1000 + wire / 1000 if HERE else own + wire


def _said(own, wire):
    if HERE:
        lo, hi = own * SLOW[0] / 1000 + wire / 1000, own * SLOW[1] / 1000 + wire / 1000
        return "%5d us here (%s) + %.1f ms on the wire: %.1f-%.1f ms in all" % (
            own,
            esp32(own),
            wire / 1000,
            lo,
            hi,
        )
    return "%5d us here + %.1f ms on the wire" % (own, wire / 1000)


main(sys.argv[1], sys.argv[2:])
