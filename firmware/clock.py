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
# the firmware does not use its ticks (the simulator's clock, sim.VirtualClock, wraps as an
# ESP32's does; it is the simulator's, so no board holds it).
import time

from micropython import const

TICKS_MAX = const(0x3FFFFFFF)  # the ESP32's ticks_ms() reads 0 .. TICKS_MAX, then 0 again


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


def elapsed(now, then):
    """ms from `then` to `now` for either clock, across a ticks wrap: both tick values (0 ..
    TICKS_MAX), `then` at most TICKS_MAX ms before `now` (a later `then` reads as nearly
    12.4 days ago). Stays a small int on the ESP32: no allocation in the scan loop."""
    return (now - then) & TICKS_MAX


def ticks_diff(a, b):
    """Signed ms from tick `b` to tick `a`, as time.ticks_diff on the ESP32, for either clock:
    -2**29 .. 2**29 - 1 (a deadline that may be ahead: outputs.py's). Small ints throughout
    on a 32-bit build."""
    d = (a - b) & TICKS_MAX
    return d if d < 0x20000000 else d - TICKS_MAX - 1  # (2**29: its range is -2**29 ..)
