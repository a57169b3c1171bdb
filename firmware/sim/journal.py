# What the chaos harness (`plateau chaos`) needs of the simulator, loaded only when asked for
# (sim.run --journal, --speed): the simulated table's heap is tight. Never deployed.
import time

from link.link import Link
from sim import VirtualClock


class PacedClock(VirtualClock):
    """Table time running `speed` times faster than real time and never ahead of it (on a
    loaded machine it falls behind, it never jumps): the chaos harness needs a known ratio
    between the table's time and the host's real-time timeouts."""

    def __init__(self, speed, start=0):
        super().__init__(start=start)
        self.speed = speed
        self._t0 = time.ticks_ms()

    def sleep_ms(self, ms):
        self.now += ms
        ahead = self.now / self.speed - time.ticks_diff(time.ticks_ms(), self._t0)
        if ahead >= 1:
            time.sleep_ms(int(ahead))


class JournalLink(Link):
    """The link, writing down what the firmware emitted: ground truth for the chaos harness,
    which compares it with what the host logged. One JSON line each, flushed at once:
    every numbered event as sent; {"boot", "held_from"} when the ring drops events older
    than held_from; {"boot", "gap": [from, to]} for every gap the board tells; and at the
    end of the script {"boot", "end": newest seq, "t": table ms} (Sim.run)."""

    journal = None  # an open file

    def emit(self, ev):
        first = self.ring.first
        seq = Link.emit(self, ev)
        j = self.journal
        if j:
            body = bytes(self.ring.get(seq)).decode()
            j.write('{"boot":"%s","seq":%d,%s\n' % (self.boot, seq, body))
            if self.ring.first != first:
                j.write('{"boot":"%s","held_from":%d}\n' % (self.boot, self.ring.first))
            j.flush()
        return seq

    def tell(self, ev):
        Link.tell(self, ev)
        j = self.journal
        if j and ev.get("type") == "gap":
            j.write('{"boot":"%s","gap":[%d,%d]}\n' % (self.boot, ev["from"], ev["to"]))
            j.flush()
