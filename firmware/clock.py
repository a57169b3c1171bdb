# Time is injected (ARCHITECTURE.md): the table loop asks a clock, so the simulator can run a
# game faster than real time and tests can step it exactly.
import time

from micropython import const


class BoardClock:
    """The real clock: milliseconds since boot, wrapping as MicroPython's ticks do."""

    def ticks_ms(self):
        return time.ticks_ms()

    def since(self, t):
        return time.ticks_diff(time.ticks_ms(), t)

    def sleep_ms(self, ms):
        time.sleep_ms(ms)


class VirtualClock:
    """Simulated time: sleep_ms advances it at once (or in real time when `realtime`)."""

    def __init__(self, realtime=False):
        self.now = 0
        self.realtime = realtime

    def ticks_ms(self):
        return self.now

    def since(self, t):
        return self.now - t

    def sleep_ms(self, ms):
        if self.realtime:
            time.sleep_ms(ms)
        self.now += ms


TICKS_MAX = const(0x3FFFFFFF)  # MicroPython's ticks_ms wraps at 2**30 on the ESP32


def elapsed(now, then):
    """ms from `then` to `now` for either clock, across a ticks wrap (both < 2**30 apart).
    Stays a small int on the ESP32: no allocation in the scan loop."""
    return (now - then) & TICKS_MAX
