# clock.py's tick arithmetic against a reference model of the ESP32's counter (issue 34):
# true time t (ms since boot, never wrapping) reads as t mod 2**30. elapsed() must give back
# every span under 2**30 ms, ticks_diff() every signed span under 2**29 ms, whatever t; on an
# interpreter whose ticks wrap as the ESP32's do (the 32-bit build), both must agree with
# MicroPython's own time.ticks_diff; VirtualClock must read the counter the model reads, from
# any start. Seeded: the same numbers under MicroPython and CPython.
import sys

from check import Rand

from clock import TICKS_MAX, BoardClock, elapsed
from sim import VirtualClock, ticks_diff

PERIOD = TICKS_MAX + 1  # 2**30 (not a small int on a 32-bit build: only the tests use it)
HALF = PERIOD // 2


def ticks(t):
    """The model: what the ESP32's ticks_ms() reads t ms after boot."""
    return t % PERIOD


def spans(r, n):
    """Spans to test: the edges of both functions' ranges, and random ones of every size."""
    out = [0, 1, 2, 5, 20, 90, 1000, HALF - 1, HALF, HALF + 1, TICKS_MAX - 1, TICKS_MAX]
    for _ in range(n):
        out.append(r.next() % (1 << r.int(1, 30)))
    return out


def times(r, n):
    """True times: around the first wraps (within seconds of them), and anywhere."""
    out = [0, 1, TICKS_MAX, PERIOD, PERIOD + 1, 3 * PERIOD - 1]
    for _ in range(n):
        k = r.int(0, 3)
        out.append(max(0, k * PERIOD + r.int(-5000, 5000)))
        out.append(r.next() % (4 * PERIOD))
    return out


def test_elapsed_gives_back_every_span_under_the_period_across_the_wrap():
    r = Rand(1)
    for t in times(r, 60):
        for d in spans(r, 30):
            assert 0 <= d < PERIOD
            got = elapsed(ticks(t + d), ticks(t))
            assert got == d, (t, d, got)


def test_ticks_diff_gives_back_every_signed_span_under_half_the_period():
    r = Rand(2)
    for t in times(r, 60):
        for d in spans(r, 30):
            if d < HALF:
                assert ticks_diff(ticks(t + d), ticks(t)) == d, (t, d)
            if 0 < d <= HALF:
                assert ticks_diff(ticks(t), ticks(t + d)) == -d, (t, d)  # a deadline ahead
    assert ticks_diff(HALF, 0) == -HALF  # as MicroPython's: half the period is behind


def test_elapsed_takes_a_time_before_zero_as_the_counter_would_read_it():
    # games/weykick/tracker.py puts a goal's last spend _LOCKOUT_MS before the first look
    for now in (0, 1, 599, 600, 5000):
        assert elapsed(now, now - 600) == 600
        assert elapsed(now, (now - 600) % PERIOD) == 600


def test_the_ticks_period_is_the_esp32s_on_a_build_with_its_small_ints():
    import time

    if sys.implementation.name != "micropython":
        return  # CPython has no time.ticks_*
    top = time.ticks_add(0, -1)  # MicroPython's documented way to find its TICKS_MAX
    if sys.maxsize == 0x7FFFFFFF:  # a 32-bit build: 31-bit small ints, as on an ESP32
        assert top == TICKS_MAX
    else:  # the 64-bit PyPI build wraps at 2**62: the firmware never uses its ticks
        assert top > TICKS_MAX


def test_the_board_clock_refuses_a_port_whose_ticks_wrap_sooner():
    import clock

    if sys.implementation.name != "micropython":
        return  # CPython has no time.ticks_*
    t0 = BoardClock().ticks_ms()  # this port's: 2**30 (32-bit build) or 2**62 (64-bit)
    assert 0 <= BoardClock().since(t0) < 1000

    class Sooner:  # a port whose ticks wrap at 2**29 (as CircuitPython's do)
        def ticks_add(self, t, d):
            return (t + d) % (1 << 29)

    real = clock.time
    clock.time = Sooner()
    try:
        e = None
        try:
            BoardClock()
        except ValueError as err:
            e = err
        assert e is not None and "536870912" in str(e), e
    finally:
        clock.time = real


def test_ticks_diff_and_elapsed_agree_with_micropythons_where_it_wraps_as_the_esp32():
    import time

    if sys.implementation.name != "micropython" or time.ticks_add(0, -1) != TICKS_MAX:
        print("  (this interpreter's ticks do not wrap at 2**30: the model alone is the check)")
        return
    r = Rand(3)
    values = [0, 1, HALF - 1, HALF, HALF + 1, TICKS_MAX - 1, TICKS_MAX]
    values += [r.next() % PERIOD for _ in range(300)]
    for a in values:
        for b in values[:40]:
            want = time.ticks_diff(a, b)
            assert ticks_diff(a, b) == want, (a, b)
            assert elapsed(a, b) == want % PERIOD, (a, b)
    for a in values[:60]:
        for d in (0, 1, 5, 800, HALF - 1, -1, -5, -HALF + 1):
            assert elapsed(time.ticks_add(a, d), a) == d % PERIOD


def test_the_virtual_clock_reads_the_counter_the_model_reads_from_any_start():
    r = Rand(4)
    for start in [0, 1, TICKS_MAX, TICKS_MAX - 4] + [(-r.int(1, 9000)) % PERIOD for _ in range(8)]:
        clock = VirtualClock(start=start)
        last = clock.ticks_ms()
        assert last == start
        for _ in range(400):
            clock.sleep_ms(r.int(0, 40) if r.below(20) else r.int(0, 5000))
            now = clock.ticks_ms()
            assert now == ticks(start + clock.now), (start, clock.now, now)
            assert 0 <= now <= TICKS_MAX
            assert clock.since(last) == ticks_diff(now, last) >= 0
            last = now
    assert VirtualClock(start=-5000).ticks_ms() == PERIOD - 5000  # 5 s before the wrap


def test_the_clock_arithmetic_allocates_nothing_across_the_wrap():
    # the scan loop calls these every 5 ms pass: on a 32-bit build a sum past 2**30 would be
    # a long int, an allocation each time (the 64-bit build never would: checked there too)
    try:
        from micropython import heap_lock, heap_unlock
    except ImportError:
        return  # CPython: no heap to lock
    clock = VirtualClock(start=TICKS_MAX - 2)
    got = []
    for _ in range(8):
        got.append(0)
    heap_lock()
    try:
        for i in range(8):
            clock.now = i * 3000  # (small ints: the clock's own time has not allocated)
            t = clock.ticks_ms()
            got[i] = elapsed(t, TICKS_MAX - 2) + ticks_diff(t, TICKS_MAX) + clock.since(1)
    finally:
        heap_unlock()
    assert got[0] == 0 - 2 + ticks_diff(TICKS_MAX - 2, 1)
