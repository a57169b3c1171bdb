# The simulated table (never deployed: firmware/manifest.py leaves sim/ out). What its parts
# share is here, as sim/chips/__init__.py holds what every chip model shares: the simulated
# time, on which the chip models, the script's waits and the board's tick counter run.
# (Few names at module level: each is a slot in the package's dictionary, on the heap of
# the simulated table the tests measure against an ESP32's.)
from clock import TICKS_MAX, ticks_diff


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
            import time

            time.sleep_ms(ms)  # type: ignore[attr-defined, unused-ignore]  # CPython's has none
        self.now += ms
