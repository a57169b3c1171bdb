# The LED chain: WS2812B LEDs in cascade, and the stand-in for MicroPython's neopixel module
# that drives it (sim/chips/__init__.py).
#   [WS2812B]  Worldsemi WS2812B datasheet (V5): "Data transfer time" (T0H 0.4 us, T1H 0.8 us,
#              T0L 0.85 us, T1L 0.45 us, each +-150 ns; RES, the reset/latch, low above
#              50 us; the V5 part asks 280 us), "Composition of 24bit data" (G7..G0, R7..R0,
#              B7..B0, high bit first), "Data transmission method" (each LED keeps the first
#              24 bits it receives and reshapes the rest out of DOUT to the next; after a RES
#              every LED shows what it kept)
#   [MP-BS]    MicroPython machine.bitstream(pin, encoding, timing, buf): encoding 0 sends
#              each bit of buf as a high then a low time, timing = (high ns of a 0, low ns of
#              a 0, high ns of a 1, low ns of a 1); neopixel.NeoPixel.write() is
#              bitstream(pin, 0, timing, buf) with (400, 850, 800, 450) at 800 kHz, buf 3
#              bytes a LED in the ORDER it was made with (GRB)
# Modelled: the frame each LED shows after a write (a write is followed by the line held low
# for the RES time: the next write comes a pass later), LEDs past the data keeping their last
# colour, data past the chain's end lost out of the last DOUT, a data line stuck (nothing
# reaches the chain), a power cut (every LED dark), and the current drawn by what is shown
# (ma_channel a channel at full, ma_idle a LED, from the pin map). Recorded as violations: a
# timing outside the datasheet's tolerance, a frame not a whole number of LEDs, and a write
# begun before the last one's reset time had passed. Not expressed: the line's signal
# integrity, the LEDs' PWM and colour accuracy, a LED failing in the chain (all after it go
# dark on a real chain), the supply's voltage drop along the chain.
from micropython import const

_TOL_NS = const(150)  # [WS2812B] each time +-150 ns
_TIMES = (400, 850, 800, 450)  # [WS2812B] T0H, T0L, T1H, T1L (ns), in bitstream's order
_RES_US = const(50)  # [WS2812B] RES: the line low this long latches the frame


class LedChainChip:
    """n WS2812B in cascade: `frame`, 3 bytes a LED as received (G, R, B), what each shows."""

    def __init__(self, n, clock_us, ma_channel=20, ma_idle=1):
        self.n = n
        self.frame = bytearray(3 * n)
        self._clock_us = clock_us  # the world's time in us
        self.stuck = False  # the data line stuck (a cut wire, a dead buffer): nothing arrives
        self.writes = 0  # frames latched
        self.violations = []  # what the datasheet forbids, as text (the last few)
        self._busy_until = None  # the end of the last write plus its reset time, in us
        self.ma_channel = ma_channel
        self.ma_idle = ma_idle
        self.ma_peak = 0  # the most current the shown frames drew, mA

    def violation(self, why):
        if len(self.violations) < 8:
            self.violations.append(why)

    def bitstream(self, pin, encoding, timing, buf):
        """[MP-BS] machine.bitstream on the chain's data pin."""
        if encoding != 0:
            self.violation("bitstream encoding %r: only 0 (high-low pairs) exists" % encoding)
            return
        for t, want in zip(timing, _TIMES):
            if abs(t - want) > _TOL_NS:
                self.violation(
                    "bit timing %r outside the datasheet's %r +-150 ns" % (timing, _TIMES)
                )
                return
        now = self._clock_us()
        if self._busy_until is not None and now < self._busy_until:
            self.violation("a write within the last one's reset time: the frames run together")
        # each bit takes its high and low time: a 0 1.25 us, a 1 1.25 us at these times
        self._busy_until = now + len(buf) * 10 + _RES_US
        if self.stuck:
            return
        if len(buf) % 3:
            self.violation("%d bytes: not a whole number of LEDs (24 bits each)" % len(buf))
        kept = min(len(buf) // 3, self.n) * 3  # LEDs past the data keep their colour
        self.frame[:kept] = buf[:kept]  # data past the chain's end leaves the last DOUT
        self.writes += 1
        ma = self.current()
        if ma > self.ma_peak:
            self.ma_peak = ma

    def current(self):
        """mA the chain draws showing its frame."""
        return sum(self.frame) * self.ma_channel // 255 + self.ma_idle * self.n

    def power_cut(self):
        for i in range(len(self.frame)):
            self.frame[i] = 0
        self._busy_until = None

    def rgb(self, i):
        """(r, g, b) LED i shows."""
        f = self.frame
        return f[3 * i + 1], f[3 * i], f[3 * i + 2]


class NeoPixel:
    """The stand-in for MicroPython's neopixel.NeoPixel on the chain's model: its buffer and
    write() as the module's own ([MP-BS]); what the firmware's driver (hal/leds.py) uses."""

    ORDER = (1, 0, 2, 3)
    timing = (400, 850, 800, 450)

    def __init__(self, pin, n, chip):
        self.pin = pin
        self.n = n
        self.bpp = 3
        self.buf = bytearray(3 * n)
        self._chip = chip

    def write(self):
        self._chip.bitstream(self.pin, 0, self.timing, self.buf)
