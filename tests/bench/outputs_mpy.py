# What the table shows, timed (issue 29), on the interpreter closest to the chip (run by make
# bench): whole games played through the simulated table (its lights, displays and buzzer on,
# hints on), each pass of Table.step timed. The chips' Python stand-ins (the chain's and the
# reader's SPI, the LED chain's bitstream, the I2C bus: C calls on a board) are left out of
# each pass's time and their time on the wire is added from the bytes they were given (the
# LED chain: 30 us a LED at 800 kHz and the 50 us latch; I2C at the pin map's clock, 9 bits
# a byte); what is left is the firmware's own bytecode, estimated for an ESP32 by the
# reference workload (esp32_mpy). Printed: the busiest pass of each kind (a rules check read,
# the game asked what to show with the hints, an LED frame written, a display page sent) and
# how long after a card's event its hints were lit (passes of 5 ms, the hints' own time).
#   micropython -X heapsize=512k -m outputs_mpy HWDIR GAME.table...
from esp32_mpy import HERE, SLOW, esp32, reference  # isort: skip  (calibrates first)

import gc  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

sys.modules.pop("pystone_lowmem", None)
gc.collect()

from idlealloc import STANDIN  # noqa: E402  (its wrappers count the SPI stand-ins' time)

import sim.run as run  # noqa: E402
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

    def add(self, i, kind, own, wire):
        if self.again is not None:
            seen = self.again.get(i)
            if seen is not None and own < seen[1]:
                seen[1] = own
            return
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
    step = table.step
    game = table.game
    card_at = [None]  # the world's ms of the last card event, until its hints are lit
    n = [0]  # passes so far

    def timed():
        g = table.game
        redraws, writes = out.redraws, ph.led_chip.writes
        i2c = ph.i2c.bytes if ph.i2c else 0
        reads = getattr(g, "dirty", False)
        STANDIN[0] = 0
        WIRE[0] = 0
        t0 = time.ticks_us()
        step()
        us = time.ticks_diff(time.ticks_us(), t0) - STANDIN[0]
        kind = "nothing drawn, no board read"
        if out.redraws != redraws:
            kind = "the game asked what to show"
            if getattr(g, "card", None) is not None and g.about()["game"] == "tock":
                kind = "Tock's hints for the card laid"
        elif ph.led_chip.writes != writes:
            kind = "an LED frame written"
        elif ph.i2c and ph.i2c.bytes != i2c:
            kind = "a display page sent"
        elif reads and not getattr(g, "dirty", False):
            kind = "a rules check (the board read)"
        n[0] += 1
        worst.add(n[0], kind, us, WIRE[0])
        if card_at[0] is not None and out.idle():
            if delays is not None:
                delays.append(sim.clock.now - card_at[0])
            card_at[0] = None

    table.step = timed
    heard = out.heard

    def listen(ev):
        if ev["type"] == "card":
            card_at[0] = sim.clock.now
        heard(ev)

    out.heard = listen
    gc.collect()
    sim.run()
    return game.about()["game"]


def main(hw_dir, paths):
    print(reference())
    for path in paths:
        worst = Worst()
        delays = []
        for k in range(_RUNS):
            gc.collect()
            name = play(path, hw_dir, worst, delays if k == 0 else None)
            worst.rerun()
        print("%s: the busiest pass of each kind (firmware, then the buses' wire time):" % name)
        for kind in sorted(worst.kinds):
            own, wire = worst.worst(kind)
            if HERE:
                lo, hi = own * SLOW[0] / 1000 + wire / 1000, own * SLOW[1] / 1000 + wire / 1000
                print(
                    "  %-34s %5d us here (%s) + %.1f ms on the wire: %.1f-%.1f ms in all"
                    % (kind, own, esp32(own), wire / 1000, lo, hi)
                )
            else:
                print("  %-34s %5d us here + %.1f ms on the wire" % (kind, own, wire / 1000))
        if delays:
            delays.sort()
            print(
                "  a card's hints lit after (simulated time, passes of 5 ms; the hints' own "
                "time on an ESP32 is the hints bench's): median %d ms, worst %d ms, %d cards"
                % (delays[len(delays) // 2], delays[-1], len(delays))
            )


main(sys.argv[1], sys.argv[2:])
