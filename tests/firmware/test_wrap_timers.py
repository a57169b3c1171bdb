# Every timer of the board that compares tick readings, with the counter starting at seeded
# points within seconds of its wrap (issue 34): each must fire after the same elapsed time
# as from a counter at 0, checked against a model in true (never wrapping) time. The games'
# own timers (debounce as the games see it, Tock's settle and illegal time, Weykick's
# lockout, stuck time and match clock) are played through the
# whole simulated table in test_sim_wrap_*; here are the parts a table script cannot time
# to the ms: the debounce itself, the store's save cadence, the link's heartbeat, the
# table's error reports and its loop's period, the watchdog's stable time, and Sense's
# sampling window (the card reader's times: test_sim_wrap_reader).
from check import Rand, scratch

from clock import TICKS_MAX
from sense.debounce import Debouncer
from sim import VirtualClock

SEEDS = (1, 2, 3, 4, 5, 6)


def wrapping(seed):
    """A start within 5 s before the wrap, and one at its last ms (wraps at the first)."""
    return (-Rand(seed).int(1, 5000)) & TICKS_MAX


def starts():
    return [0, TICKS_MAX] + [wrapping(s) for s in SEEDS]


# --- the debounce (sense/debounce.py) against a model ------------------------------------


class DebounceModel:
    """A bit's new level counts once it has held debounce_ms without a break; the first
    frame is the board as it stands, each magnet an edge begun then. True time."""

    def __init__(self, n, ms):
        self.n = n
        self.ms = ms
        self.stable = None
        self.since = [None] * n

    def update(self, bits, t):
        if self.stable is None:
            self.stable = list(bits)
            return [(i, 1, t) for i in range(self.n) if bits[i]]
        out = []
        for i in range(self.n):
            if bits[i] == self.stable[i]:
                self.since[i] = None
                continue
            if self.since[i] is None:
                self.since[i] = t
            if t - self.since[i] >= self.ms:
                self.stable[i] = bits[i]
                out.append((i, bits[i], self.since[i]))
                self.since[i] = None
        return out


def _debounced(start, seed, model=None, n=12, ms=20):
    """The edges of a seeded random frame sequence: (true time, bit, level, true time its
    change began), from the Debouncer (or from the `model`, a DebounceModel)."""
    r = Rand(seed)
    deb = Debouncer(n, ms)
    bits = [r.below(2) for _ in range(n)]
    frame = bytearray((n + 7) // 8)
    t = r.int(0, 3000)  # the first scan: a while after the counter's start
    got = []
    for _ in range(500):
        if model:
            for i, level, began in model.update(bits, t):
                got.append((t, i, level, began))
        else:
            for i in range(n):
                frame[i >> 3] = frame[i >> 3] & ~(1 << (i & 7)) | bits[i] << (i & 7)
            now = (start + t) & TICKS_MAX
            for k in range(deb.update(frame, now)):
                began = (deb.started[k] - start) & TICKS_MAX  # back to true time
                got.append((t, deb.edges[k], deb.levels[k], began))
        # hands: a pawn set down or lifted now and then, flickers at a sensor's edge often
        if r.below(4) == 0:
            i = r.below(n)
            bits[i] ^= 1
        t += r.int(1, 9) if r.below(30) else r.int(10, 400)
    return got


def test_the_debounce_settles_each_change_after_the_same_time_across_the_wrap():
    for seed in SEEDS:
        ref = _debounced(0, seed, DebounceModel(12, 20))
        assert len(ref) > 40
        for start in [0] + starts():
            got = _debounced(start, seed)
            assert got == ref, (seed, start, [(a, b) for a, b in zip(got, ref) if a != b][:3])
            got = None


def test_the_debounces_first_frame_began_when_it_was_read():
    # the board as found at power-up: each magnet's change began at that scan (Weykick's
    # goals take it for when the ball went in), not at tick 0
    for start in starts():
        deb = Debouncer(8, 20)
        now = (start + 1234) & TICKS_MAX
        assert deb.update(bytearray(b"\x05"), now) == 2
        assert deb.started[0] == deb.started[1] == now, (start, deb.started[0], now)


# --- the store's save cadence (store.py) ---------------------------------------------------


def _saves(start, seed, folder):
    """When a game changing at random saves (the table's rule: urgent, or store.due), true
    time."""
    from store import Store

    r = Rand(seed)
    store = Store(folder)
    t = r.int(0, 2000)
    out = []
    for _ in range(150):
        now = (start + t) & TICKS_MAX
        if r.below(3) and store.due(now):  # a change, not urgent: at most every 250 ms
            assert store.save({"game": None, "n": t}, now)
            out.append(t)
        t += r.int(1, 120)
    return out


def test_the_store_saves_at_the_same_cadence_across_the_wrap():
    folder = scratch("wrap-store")
    for seed in SEEDS[:3]:
        ref = _saves(0, seed, folder)
        assert len(ref) > 20
        assert all(b - a >= 250 for a, b in zip(ref, ref[1:]))
        for start in starts():
            assert _saves(start, seed, folder) == ref, (seed, start)


# --- the link's heartbeat (link/link.py) ----------------------------------------------------


def _beats(start, seed):
    import json

    from link import frame
    from link.link import HEARTBEAT_MS, Link
    from link.ring import Ring

    r = Rand(seed)
    clock = VirtualClock(start=start)
    clock.sleep_ms(r.int(0, 3000))
    wire = bytearray()
    link = Link(wire.extend, "b", ring=Ring(256, 4))
    for _ in range(3000):  # passes of 1-12 ms, a stall of up to 0.9 s now and then
        link.tick(clock)
        clock.sleep_ms(r.int(1, 12) if r.below(50) else r.int(100, 900))
    ups = [json.loads(p)["up"] for p in frame.Decoder().feed(bytes(wire))]
    out = [(u - start) & TICKS_MAX for u in ups]  # back to true time
    assert all(b - a >= HEARTBEAT_MS for a, b in zip(out, out[1:]))
    return out


def test_the_heartbeat_keeps_its_period_across_the_wrap():
    for seed in SEEDS[:3]:
        ref = _beats(0, seed)
        assert len(ref) > 20
        for start in starts():
            assert _beats(start, seed) == ref, (seed, start)


# --- the table: its error reports, and its loop's period (table.py) -------------------------


class _Wire:
    def __init__(self):
        self.out = bytearray()

    def write(self, data):
        self.out.extend(data)

    def read(self):
        return b""

    def table_mode(self):
        pass

    def repl_mode(self):
        pass


def _reports(start, seed):
    """A game whose step fails at random passes: when the table reports it (at most once a
    second, with how many went unsaid), true time."""
    import json

    from games.base import Game
    from link import frame
    from link.link import Link
    from link.ring import Ring
    from table import Table

    r = Rand(seed)

    class Failing(Game):
        def step(self, now, settled=True):
            if r.below(3) == 0:
                raise ValueError("a bug")

    clock = VirtualClock(start=start)
    clock.sleep_ms(r.int(0, 3000))
    wire = _Wire()
    link = Link(wire.write, "b", ring=Ring(2048, 16))
    table = Table(wire, clock, link, Failing(link.emit))
    out = []
    for _ in range(400):
        table.step()
        clock.sleep_ms(r.int(1, 40))
        for p in frame.Decoder().feed(bytes(wire.out)):
            ev = json.loads(p)
            if ev["type"] == "error":
                out.append((clock.now, ev.get("repeats", 0)))
        wire.out = bytearray()
    return out, table.failures


def test_the_tables_error_reports_keep_their_rate_across_the_wrap():
    for seed in SEEDS[:3]:
        ref, failures = _reports(0, seed)
        assert len(ref) > 3 and failures > len(ref)
        for start in starts():
            assert _reports(start, seed) == (ref, failures), (seed, start)


def _passes(start, works):
    """When each pass of Table.run starts (true time), pass i taking works[i] ms."""
    from link.link import Link
    from link.ring import Ring
    from table import Table

    clock = VirtualClock(start=start)
    wire = _Wire()
    table = Table(wire, clock, Link(wire.write, "b", ring=Ring(256, 4)))
    starts_ = []
    step = table.step

    def timed():
        starts_.append(clock.now)
        step()
        clock.now += works[len(starts_) - 1]
        if len(starts_) == len(works):
            table.running = False

    table.step = timed
    table.run()
    return starts_


def test_the_loop_keeps_its_period_across_the_wrap():
    # a pass every SCAN_MS start to start; an overrun followed at once; a long stall starts
    # the period afresh (tests/firmware/test_loop.py), the counter wrapping meanwhile
    from table import SCAN_MS

    r = Rand(7)
    works = [r.int(0, 4) if r.below(8) else r.int(5, 40) for _ in range(300)]
    ref = _passes(0, works)
    due = 0
    for i in range(1, len(works)):  # the model, in true time
        end = ref[i - 1] + works[i - 1]
        due += SCAN_MS
        if end > due + SCAN_MS:
            due = end  # a long stall: afresh
        assert ref[i] == max(end, due), (i, ref[i - 1 : i + 1], works[i - 1])
    for start in starts():
        assert _passes(start, works) == ref, start


# --- the watchdog's stable time (safemode.py) -------------------------------------------------


def test_the_watchdog_counts_its_stable_time_across_the_wrap():
    # after 60 s of a running table the count of watchdog resets starts again from zero.
    # safemode.Watchdog reads time.ticks_ms and time.ticks_diff itself: here its counter is
    # one that wraps as the ESP32's, and its diff MicroPython's own where this interpreter
    # wraps there too (the 32-bit build), else sim.ticks_diff standing in for it
    import sys
    import time

    import safemode

    from sim import ticks_diff

    if sys.implementation.name != "micropython":
        return  # CPython has no time.ticks_*
    diff = time.ticks_diff if time.ticks_add(0, -1) == TICKS_MAX else ticks_diff

    class Wdt:
        def feed(self):
            pass

    for start in starts():
        clock = VirtualClock(start=start)
        dog = safemode.Watchdog(Wdt())
        dog._ticks = clock.ticks_ms
        dog._diff = diff
        dog._started = clock.ticks_ms()
        removed = []
        was = safemode._remove
        safemode._remove = removed.append
        try:
            while not removed:
                dog.feed()
                clock.sleep_ms(5)
                assert clock.now <= 60005, start
        finally:
            safemode._remove = was
        assert clock.now == 60005, (start, clock.now)


# --- Sense: the sensors' sampling window (sense/scan.py) -------------------------------------


def _busy(start, seed):
    """A chain of 8 sensors read every pass: when Sense says the board is busy (a change not
    settled, or one younger than the sensors' sampling period), true time."""
    from hal.hwmap import Hardware
    from sense.scan import Sense

    r = Rand(seed)

    class Chain:
        intact = True

        def __init__(self):
            self.frame = bytearray(1)

        def read(self):
            return self.frame

    class Heard:
        def __init__(self):
            self.edges = []

        def on_sensor(self, bit, level, now):
            self.edges.append((clock.now, bit, level))

    chain = Chain()
    sense = Sense(Hardware(chain=chain, names=["S%d" % i for i in range(8)], sample_ms=200))
    game = Heard()
    clock = VirtualClock(start=start)
    clock.sleep_ms(r.int(0, 3000))
    out = []  # when busy() changes
    busy = False
    for _ in range(1500):
        sense.step(clock.ticks_ms(), game)
        if sense.busy() != busy:
            busy = not busy
            out.append(clock.now)
        if r.below(40) == 0:
            chain.frame[0] ^= 1 << r.below(8)
        clock.sleep_ms(5)
    return out, game.edges


def test_the_sampling_window_lasts_as_long_across_the_wrap():
    for seed in SEEDS[:3]:
        ref = _busy(0, seed)
        assert len(ref[0]) > 10 and len(ref[1]) > 10
        for start in starts():
            assert _busy(start, seed) == ref, (seed, start)
