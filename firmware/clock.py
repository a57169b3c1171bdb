# Time is injected (ARCHITECTURE.md): the table loop asks a clock, so the simulator can run a
# game faster than real time and tests can step it exactly.
#
# The board's clock is MicroPython's time.ticks_ms(): milliseconds since boot, masked to
# TICKS_PERIOD, which is the port's small-int range (py/mpconfig.h, MICROPY_PY_TIME_TICKS_PERIOD
# = MP_SMALL_INT_POSITIVE_MASK + 1). The ESP32 port keeps that default: 31-bit small ints, so
# ticks_ms() wraps to 0 every 2**30 ms, 12.4 days of uptime (its mp_hal_ticks_ms is
# esp_timer_get_time() / 1000 as a uint32, a multiple of that period, so the count runs on
# smoothly across the mask). A soft reset does not restart it. So a tick value is only ever
# compared with another through elapsed() (or ticks_diff() where it may lie ahead), never
# with < or -, and never kept across a reset. The 64-bit unix port wraps at 2**62 instead:
# the firmware does not use its ticks (the simulator's VirtualClock wraps as an ESP32 does).
import time

from micropython import const

TICKS_MAX = const(0x3FFFFFFF)  # the ESP32's ticks_ms() reads 0 .. TICKS_MAX, then 0 again
_HALF = const(0x20000000)  # ticks_diff's range: -_HALF .. _HALF - 1


class BoardClock:
    """The real clock: milliseconds since boot, wrapping as MicroPython's ticks do. elapsed()
    needs the port's ticks period to be a multiple of TICKS_MAX + 1 (the ESP32's is that,
    the 64-bit unix port's 2**62): on a port that wraps sooner the table does not start."""

    def __init__(self):
        top = time.ticks_add(0, -1)
        if top & TICKS_MAX != TICKS_MAX:
            raise ValueError("ticks_ms() wraps at %d here, not a multiple of 2**30" % (top + 1))

    def ticks_ms(self):
        return time.ticks_ms()

    def since(self, t):
        return time.ticks_diff(time.ticks_ms(), t)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)


class VirtualClock:
    """Simulated time: sleep_ms advances it at once (or in real time when `realtime`).

    `now` is the simulated world's time, ms since the simulation began: the chip models and
    the script's waits run on it, and it never wraps. ticks_ms() is what the board's counter
    reads meanwhile: `start` at the beginning (0 by default, a board just powered up), and
    wrapping at TICKS_MAX as an ESP32's does, so a game can be played across the wrap
    (`sim.run --ticks-start`)."""

    def __init__(self, realtime=False, start=0):
        self.now = 0
        self.realtime = realtime
        self.start = start & TICKS_MAX
        self._left = TICKS_MAX - self.start  # ms from the start to the counter's last value

    def ticks_ms(self):
        # (start + now) & TICKS_MAX, without the sum that would not be a small int on a
        # 32-bit build (an allocation at every call once past the wrap)
        past = self.now - self._left
        if past <= 0:
            return self.start + self.now
        return (past - 1) & TICKS_MAX

    def since(self, t):
        return ticks_diff(self.ticks_ms(), t)

    def sleep_ms(self, ms):
        if self.realtime:
            time.sleep_ms(ms)
        self.now += ms


def elapsed(now, then):
    """ms from `then` to `now` for either clock, across a ticks wrap: both tick values (0 ..
    TICKS_MAX), `then` at most TICKS_MAX ms before `now` (a later `then` reads as nearly
    12.4 days ago). Stays a small int on the ESP32: no allocation in the scan loop."""
    return (now - then) & TICKS_MAX


def ticks_diff(a, b):
    """Signed ms from tick `b` to tick `a`, as time.ticks_diff on the ESP32: -2**29 ..
    2**29 - 1 (for a deadline that may be ahead). Small ints throughout on a 32-bit build."""
    d = (a - b) & TICKS_MAX
    return d if d < _HALF else d - TICKS_MAX - 1
