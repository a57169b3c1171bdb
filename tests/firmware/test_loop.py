# The table loop's period (issue 14): a pass every SCAN_MS start to start, whatever a pass
# takes; an overrun followed at once by the next pass, a long stall by a fresh period, never
# a burst. On a simulated clock whose time a pass's work moves on: nothing here depends on
# this machine's speed.
from check import Wire

from link.link import Link
from link.ring import Ring
from table import SCAN_MS, Table

RING = Ring(1024, 16)  # the link's ring, small: these passes send heartbeats only


class WorkClock:
    """A clock that moves only when slept on, or when a pass works (`work` ms)."""

    def __init__(self):
        self.now = 0

    def ticks_ms(self):
        return self.now

    def since(self, t):
        return self.now - t

    def sleep_ms(self, ms):
        assert ms > 0
        self.now += ms


def starts_of(works):
    """When each pass started, each pass taking works[i] ms."""
    clock = WorkClock()
    wire = Wire()  # the transport: reads nothing, keeps what the board writes
    wire.read = lambda: b""
    wire.table_mode = wire.repl_mode = lambda: None
    RING.clear()
    table = Table(wire, clock, Link(wire.write, "0000", ring=RING))
    starts = []
    step = table.step

    def timed():
        starts.append(clock.now)
        step()
        clock.now += works[len(starts) - 1]
        if len(starts) == len(works):
            table.running = False

    table.step = timed
    table.run()
    return starts


def test_a_pass_every_5_ms_start_to_start_whatever_it_takes():
    works = [0, 1, 3, 4, 2, 0, 1, 4, 3, 1]
    assert starts_of(works) == [SCAN_MS * i for i in range(len(works))]


def test_an_overrun_is_followed_at_once_then_the_period_holds():
    # the third pass takes 7 ms: the fourth starts when it ends, the fifth is on time again
    assert starts_of([1, 1, 7, 1, 1, 1]) == [0, 5, 10, 17, 20, 25]


def test_a_long_stall_starts_the_period_afresh_without_a_burst():
    # 30 ms lost (a flash write, a collection): no run of passes to catch up
    starts = starts_of([1, 30, 1, 1, 1])
    assert starts == [0, 5, 35, 40, 45]
    gaps = [starts[i + 1] - starts[i] for i in range(len(starts) - 1)]
    assert min(gaps) == SCAN_MS
