# Per-sensor debounce: raw frames in, settled occupancy and edges (lift / place) out.
#
# The sensors are digital Hall switches (DRV5032: push-pull, built-in hysteresis, 20 Hz-
# 5 kHz sampling depending on the variant), so there is no contact bounce; what flickers is a
# magnet at the edge of a sensor's range (a pawn slid past, a pawn set down off-centre) and
# electrical noise on a 104-input chain. A change counts only once the raw bit has held its
# new value for DEBOUNCE_MS without interruption: a flicker shorter than that never becomes
# an edge. 20 ms is 4 scans at 200 Hz, ten times the longest glitch the scenario spec shows
# (3 ms), and short next to a hand: setting a pawn down takes 100 ms or more.
#
# peterhinch's sw_array idea, byte-wise: XOR a byte of the frame with the settled byte, and
# only look at bits when it is non-zero. Nothing is allocated per scan: the settled frame, the
# per-sensor start times and the edge buffer are preallocated.
from array import array

from micropython import const

from clock import elapsed

DEBOUNCE_MS = const(20)


class Debouncer:
    def __init__(self, nbits, debounce_ms=DEBOUNCE_MS):
        nbytes = (nbits + 7) // 8
        self.nbits = nbits
        self.debounce_ms = debounce_ms
        self.stable = bytearray(nbytes)  # settled state, bit i = sensor i
        self._pending = bytearray(nbytes)  # bits whose raw value differs, timer running
        self._since = array("i", [0] * nbits)  # when each pending difference began
        self.edges = bytearray(nbits)  # sensors that changed in the last update()
        self.levels = bytearray(nbits)  # and their new settled level
        self.started = array("i", [0] * nbits)  # and when their raw change began
        self.primed = False

    def prime(self, frame, now):
        """Take the first frame as settled (power-up: the board is what it is). Every sensor
        that sees a magnet is an edge, so the layers above learn the board as it stands; its
        change began now, when it was first read (not at tick 0: the counter may read
        anything at power-up, after a soft reset or a wrap)."""
        n = 0
        for b in range(len(self.stable)):
            self.stable[b] = frame[b]
            self._pending[b] = 0
            for j in range(8):
                if frame[b] >> j & 1 and b * 8 + j < self.nbits:
                    self.edges[n] = b * 8 + j
                    self.levels[n] = 1
                    self.started[n] = now
                    n += 1
        self.primed = True
        return n

    def update(self, frame, now):
        """One raw frame at time `now` (ms). Returns how many edges settled; they are in
        edges[:n] (sensor index) and levels[:n] (1 = magnet present)."""
        if not self.primed:
            return self.prime(frame, now)
        stable = self.stable
        pending = self._pending
        since = self._since
        n = 0
        for b in range(len(stable)):
            diff = frame[b] ^ stable[b]
            pend = pending[b]
            if not (diff | pend):
                continue
            # back to the settled value before the time was up: a glitch, forgotten
            pend &= diff
            started = diff & ~pend
            if started:
                for j in range(8):
                    if started >> j & 1:
                        since[b * 8 + j] = now
                pend |= started
            for j in range(8):
                if pend >> j & 1 and elapsed(now, since[b * 8 + j]) >= self.debounce_ms:
                    bit = 1 << j
                    stable[b] ^= bit
                    pend &= ~bit
                    self.edges[n] = b * 8 + j
                    self.levels[n] = stable[b] >> j & 1
                    self.started[n] = since[b * 8 + j]
                    n += 1
            pending[b] = pend
        return n

    def busy(self):
        """Whether some sensor is still changing (a difference not yet settled)."""
        for p in self._pending:
            if p:
                return True
        return False

    def level(self, i):
        return self.stable[i >> 3] >> (i & 7) & 1
