# What an idle scan pass allocates (issue 14): the real Table.step (link read, sensing,
# game, store, what the table shows) on the simulated board, nothing changing, 1,000
# passes; the bytes the firmware allocated, the chips' stand-ins (sim/chips/: Python models
# of the SPI buses and pins, where a board has machine.SPI and machine.Pin in C) and
# heartbeat passes counted apart. Run by tests/host/test_chip.py (asserts the firmware's
# share is 0) and imported by tests/bench/loop_mpy.py (make bench prints it). MicroPython
# only.
#   micropython -X heapsize=111936 -m idlealloc HWDIR      (stdin: a pipe nobody writes to)
import gc
import sys
import time

from link.ring import Ring

RING = Ring()  # the board's ring, taken first as main.py does

from games import make_game  # noqa: E402
from link.link import Link  # noqa: E402
from link.stdio import StdioTransport  # noqa: E402
from sense.scan import Sense  # noqa: E402
from sim import VirtualClock  # noqa: E402
from sim.chips import Pin  # noqa: E402
from sim.chips.hc165 import ChainSPI  # noqa: E402
from sim.chips.spi import SPIBus  # noqa: E402
from sim.physical import PhysicalTable  # noqa: E402
from table import SCAN_MS, Table  # noqa: E402

PASSES = 1000
# What the chips' stand-ins (sim/chips/: Python models of the SPI buses and pins, where a
# board has machine.SPI and machine.Pin in C) cost inside a pass: bytes or microseconds,
# counted apart so that the firmware's own share can be told.
STANDIN = [0, 0, 0]  # what is counted, bytes (1) or microseconds (0), calls


def standin(cls, name, arity):
    """Wraps a stand-in method to count what it costs (fixed arity: *args would allocate a
    tuple per call)."""
    f = getattr(cls, name)
    if arity == 1:

        def w(self, a=None):
            c0 = gc.mem_alloc() if STANDIN[1] else time.ticks_us()
            r = f(self) if a is None and name == "value" else f(self, a)
            STANDIN[0] += (gc.mem_alloc() if STANDIN[1] else time.ticks_us()) - c0
            STANDIN[2] += 1
            return r

    else:

        def w(self, a, b):
            c0 = gc.mem_alloc() if STANDIN[1] else time.ticks_us()
            r = f(self, a, b)
            STANDIN[0] += (gc.mem_alloc() if STANDIN[1] else time.ticks_us()) - c0
            STANDIN[2] += 1
            return r

    setattr(cls, name, w)


PLAIN_VALUE = Pin.value
for cls, name, arity in (
    (Pin, "value", 1),
    (ChainSPI, "readinto", 1),
    (SPIBus, "write", 1),
    (SPIBus, "readinto", 1),
    (SPIBus, "write_readinto", 2),
):
    standin(cls, name, arity)


class Sink:
    """Where the link's frames go: nowhere (the bench's stdout is for its figures)."""

    def write(self, data):
        pass


def table(clock, hw_dir):
    RING.clear()  # a new boot: the link numbers from 1 again
    physical = PhysicalTable(hw_dir, clock)
    physical.boot()  # the drivers, as at power-up
    transport = StdioTransport()  # the real one: stdin is a pipe with nothing in it
    link = Link(Sink().write, "b0a4d000", ring=RING)
    # what the table shows (outputs.py), as power.power_up builds it: its LEDs, displays and
    # buzzer drawn between events, nothing while nothing changes
    from outputs import Outputs

    shows = Outputs(physical.hardware)
    emit = shows.tap(link.emit)
    game = make_game("tock", emit, physical.hardware.names, {})
    physical.set_position(game.pos)
    t = Table(transport, clock, link, game, Sense(physical.hardware), None)
    t.outputs = shows
    t.emit = emit
    return t, physical


def idle_alloc(hw_dir):
    """1,000 idle passes of Table.step (5 ms of table time each): the bytes each
    allocated, the stand-ins' share apart, passes that sent a heartbeat apart."""
    clock = VirtualClock()
    t, board = table(clock, hw_dir)
    for _ in range(200):  # settle: the sensors read, the reader searched
        board.tick()
        t.step()
        clock.sleep_ms(SCAN_MS)
    total = own = beats = beat_bytes = 0
    STANDIN[1] = 1
    for _ in range(PASSES):
        sent = t.link.sent
        STANDIN[0] = 0
        gc.collect()  # a fresh heap: no collection can fall inside the pass
        a0 = gc.mem_alloc()
        t.step()
        used = gc.mem_alloc() - a0
        clock.sleep_ms(SCAN_MS)
        total += used
        mine = used - STANDIN[0]
        if t.link.sent != sent:
            beats += 1
            beat_bytes += mine
        else:
            own += mine
    STANDIN[1] = 0
    return total, own, beats, beat_bytes


if __name__ == "__main__":
    total, own, beats, beat_bytes = idle_alloc(sys.argv[1])
    print(
        '{"passes": %d, "firmware": %d, "heartbeats": %d, "heartbeat_bytes": %d, '
        '"standins": %d}' % (PASSES, own, beats, beat_bytes, total - own - beat_bytes)
    )
