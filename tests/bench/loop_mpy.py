# The table loop's own costs, on the interpreter closest to the chip (run by make bench):
# what an idle scan pass allocates (the real Table.step: link, sensing, game, store), the
# loop's period start to start and its jitter (the real Table.run on the real clock), and
# the time one pass takes.
#   micropython -X heapsize=111936 -m loop_mpy HWDIR     (stdin: a pipe nobody writes to)
from esp32_mpy import HERE, SLOW, esp32, reference  # isort: skip  (calibrates first)

import gc  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from array import array  # noqa: E402

sys.modules.pop("pystone_lowmem", None)
gc.collect()

from idlealloc import PASSES, idle_alloc, table  # noqa: E402

from clock import BoardClock  # noqa: E402
from table import SCAN_MS  # noqa: E402


class Quick:
    """The chain's SPI bus and latch pin as a board has them: calls into C that take a few
    microseconds (machine.SPI.readinto, machine.Pin.value), not Python models. It reads
    the simulated board's sensors as they stand (one copy, done in C)."""

    def __init__(self, board):
        self.raw = bytearray(board._raw()) + bytearray(1)  # the registers, then SER's byte

    def readinto(self, buf):
        buf[:] = self.raw

    def value(self, v=None):
        return 1


def back_to_back(hw_dir):
    """us a pass takes run back to back (no sleep between): the interpreter's cost of it."""
    from sim import VirtualClock

    clock = VirtualClock()
    t, board = table(clock, hw_dir)
    chain = board.hardware.chain
    chain._spi = chain._latch = Quick(board)
    best = 1 << 30
    for _ in range(10):
        gc.collect()
        t0 = time.ticks_us()
        for _ in range(100):
            t.step()
            clock.sleep_ms(SCAN_MS)
        best = min(best, time.ticks_diff(time.ticks_us(), t0))
    return best / 100


class RealClock(BoardClock):
    """The board's clock, with the world's time the simulated chips read (sim.VirtualClock's
    `now`): the real milliseconds here."""

    @property
    def now(self):
        return time.ticks_ms()


def period(hw_dir):
    """Table.run on the real clock for 1,000 passes: when each pass started."""
    clock = RealClock()
    t, board = table(clock, hw_dir)
    chain = board.hardware.chain
    chain._spi = chain._latch = Quick(board)  # the reader keeps its model (polled every 40 ms)
    starts = array("i", [0] * PASSES)
    work = array("i", [0] * PASSES)
    n = [0]
    step = t.step

    def timed():
        i = n[0]
        t0 = time.ticks_us()
        starts[i] = t0
        step()
        work[i] = time.ticks_diff(time.ticks_us(), t0)
        n[0] = i + 1
        if n[0] == PASSES:
            t.running = False

    t.step = timed
    gc.collect()
    t.run()
    t = timed = step = None  # the figures need the heap now
    del board
    gc.collect()
    for i in range(PASSES - 1):
        starts[i] = time.ticks_diff(starts[i + 1], starts[i])
    periods = sorted(starts[: PASSES - 1])
    jitter = sorted(abs(p - SCAN_MS * 1000) for p in periods)
    return periods, jitter, sorted(work)


def main(hw_dir):
    print(reference())
    total, own, beats, beat_bytes = idle_alloc(hw_dir)
    print(
        "idle scan pass (Table.step: link read, 104 sensors, reader, game, store; Tock, "
        "nothing changing), %d passes: %d B allocated by the firmware in the %d passes "
        "without a heartbeat (%d B a pass); %d heartbeats (one every 800 ms) took %d B "
        "(%d B each); the chips' Python stand-ins %d B more in all (machine.SPI on a board)"
        % (
            PASSES,
            own,
            PASSES - beats,
            own // max(1, PASSES - beats),
            beats,
            beat_bytes,
            beat_bytes // max(1, beats),
            total - own - beat_bytes,
        )
    )
    gc.collect()
    periods, jitter, work = period(hw_dir)
    n = len(periods)
    mean = sum(periods) / n
    print(
        "loop period, start to start, %d passes of Table.run on the real clock (target %d "
        "ms): mean %.3f ms, min %.3f, max %.3f; jitter |period - %d ms|: median %d us, 99th "
        "percentile %d us, worst %d us (this machine's scheduler, not an ESP32's)"
        % (
            n,
            SCAN_MS,
            mean / 1000,
            periods[0] / 1000,
            periods[-1] / 1000,
            SCAN_MS,
            jitter[n // 2],
            jitter[n * 99 // 100],
            jitter[-1],
        )
    )
    med = work[len(work) // 2]
    gc.collect()
    warm = back_to_back(hw_dir)
    print(
        "one pass's work (the chain's bus and latch as quick as C, the reader's model kept): "
        "%.0f us back to back here (%s); in the loop above, woken from each sleep, median "
        "%d us, 99th percentile %d us (this machine resumes slower from a sleep)"
        % (warm, esp32(warm), med, work[len(work) * 99 // 100])
    )
    if HERE:
        print(
            "  on an ESP32 a pass would take an estimated %.0f-%.0f %% of the 5 ms period"
            % (warm * SLOW[0] / 50, warm * SLOW[1] / 50)
        )


main(sys.argv[1])
