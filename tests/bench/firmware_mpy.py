# Firmware costs under micropython with the ESP32 heap (run by `make bench`): scan-and-
# debounce per frame, the Tock check per card kind, link encoding per event.
#   make bench runs it, compiled, from build/bench (-m firmware_mpy)
# calibrated first, on a heap the firmware's modules do not yet take
from esp32_mpy import HERE, SLOW, esp32, reference  # isort: skip

import gc  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

sys.modules.pop("pystone_lowmem", None)
gc.collect()

from link.ring import Ring  # noqa: E402

# a small ring for the link figures, taken while the heap is whole: what an event costs does
# not depend on the ring's size, and a 16 KB one does not fit beside this benchmark's modules
RING = Ring(4096, 64)

from games.tock.rules import Card, Position  # noqa: E402
from games.tock.tracker import TockGame  # noqa: E402
from link.link import Link  # noqa: E402
from sense.debounce import Debouncer  # noqa: E402


def per_call(fn, n):
    """us a call: the best of 5 batches (this machine's other work left out)."""
    best = 1 << 30
    k = max(1, n // 5)
    for _ in range(5):
        gc.collect()
        t0 = time.ticks_us()
        for i in range(k):
            fn(i)
        best = min(best, time.ticks_diff(time.ticks_us(), t0))
    return best / k


def bench_scan():
    names = ["R%d" % (i + 1) for i in range(104)]
    events = []
    game = TockGame(events.append, names)
    deb = Debouncer(104)
    frame = bytearray(13)
    deb.update(frame, 0)

    def idle(i):
        for k in range(deb.update(frame, i * 5)):
            game.on_sensor(deb.edges[k], deb.levels[k], i * 5)

    moving = [bytearray(13) for _ in range(4)]
    moving[1][2] = 0x10  # a pawn lands
    moving[2][2] = 0x30  # and another, while a third flickers
    moving[3][5] = 0x01

    def active(i):
        f = moving[(i // 6) % 4]
        for k in range(deb.update(f, i * 5)):
            game.on_sensor(deb.edges[k], deb.levels[k], i * 5)

    return per_call(idle, 5000), per_call(active, 5000)


CASES = (
    ("A exit", "AS", {"R": ["R5"]}, {"R": ["R5", "R18"]}),
    ("2 forward", "2S", {"R": ["R5", "G3"]}, {"R": ["R7", "G3"]}),
    ("4 backward", "4S", {"R": ["R5", "G3"]}, {"R": ["R1", "G3"]}),
    ("Q forward 12", "QS", {"R": ["R5", "G3"]}, {"R": ["R5", "G15"]}),
    ("K exit", "KS", {"R": ["R5", "G3"]}, {"R": ["R5", "G3", "R18"]}),
    (
        "J swap",
        "JS",
        {"R": ["R5", "G3"], "G": ["G9", "B2"], "B": ["Y4"]},
        {"R": ["R5", "G9"], "G": ["G3", "B2"], "B": ["Y4"]},
    ),
    ("7 split in 2", "7S", {"R": ["R5", "G3"]}, {"R": ["R8", "G7"]}),
)


def pos(pawns):
    full = {}
    for c in "RGBY":
        sq = list(pawns.get(c, []))
        full[c] = sq + ["camp"] * (4 - len(sq))
    return Position.from_dict({"players": 4, "turn": "R", "pawns": full})


def bench_check():
    out = []
    for name, card, before, after in CASES:
        b = pos(before)
        a = pos(after)
        c = Card(card)
        assert b.check(c, a)
        out.append(
            (name, per_call(lambda i: b.check(c, a), 50), per_call(lambda i: b.has_move(c), 50))
        )
    return out


def bench_holdem():
    from games.holdem.hands import card, evaluate

    hands = [
        [card(c) for c in h.split()]
        for h in (
            "AS KS QS JS 10S 2D 3C",
            "AS 2D 3C 4H 5S KD KC",
            "2S 2D 2C 5H 5S 9D 9C",
            "7H 7D KS QC 2D 3C 9H",
            "7H 8D KS QC 2D 3C 10H",
            "2H 7H 9H JH KH AD 3C",
        )
    ]
    return per_call(lambda i: evaluate(hands[i % 6]), 3000)


def bench_link():
    """One move event sent: JSON, numbered, kept in the ring, framed (CRC-32, COBS). The
    frame alone, and the bytes one event allocates."""
    from link import frame

    sizes = []

    def write(data):
        sizes.append(len(data))
        del sizes[:-1]

    link = Link(write, "5ee0c0de", ring=RING)
    ev = {
        "type": "move",
        "card": "7S",
        "seat": "R",
        "kind": "seven",
        "steps": [["R5", "R8"], ["G3", "G7"]],
        "t": 123456,
        "settle": 120,
    }

    def emit(i):
        link.emit(ev)

    t = per_call(emit, 500)
    payload = b'{"boot":"5ee0c0de","seq":12,"type":"move","card":"7S","seat":"R","kind":"se'
    payload += b'ven","steps":[["R5","R8"],["G3","G7"]],"t":123456,"settle":120}'
    tf = per_call(lambda i: frame.encode(payload), 500)
    gc.collect()
    a0 = gc.mem_alloc()
    link.emit(ev)
    used = gc.mem_alloc() - a0
    return t, tf, sizes[0], used


gc.collect()
free0 = gc.mem_free()
print(reference())
idle, active = bench_scan()
print(
    "scan: debounce + tracker, 104 sensors: %.0f us/frame idle (%s), %.0f us/frame with "
    "pawns moving (%s)" % (idle, esp32(idle), active, esp32(active))
)
if HERE:
    print(
        "  at 200 scans/s (5 ms each) an ESP32 would spend %.0f-%.0f %% of its time scanning;"
        " the scan work alone would allow %.0f-%.0f scans/s with pawns moving"
        % (
            idle * SLOW[0] / 50,
            idle * SLOW[1] / 50,
            1e6 / (active * SLOW[1]),
            1e6 / (active * SLOW[0]),
        )
    )
for name, t, tm in bench_check():
    print("check %-14s %6.0f us (%s)  has_move %5.0f us" % (name, t, esp32(t), tm))
t = bench_holdem()
print("holdem: best five of seven, one hand %.0f us (%s)" % (t, esp32(t)))
t, tf, size, used = bench_link()
print(
    "link: one move event (JSON, number, ring, frame) %.0f us (%s), of which the frame "
    "(CRC-32 and COBS, by blocks) %.0f us; %d bytes on the wire, %d B allocated; the rest is "
    "json.dumps and the header, in C or one string each" % (t, esp32(t), tf, size, used)
)
gc.collect()


def bench_chain():
    """The sensor chain as hardware/pinmap.json clocks it: bits on the wire per scan, and
    the driver's own cost (latch pulse, read, polarity) on a bus that returns at once."""
    import json

    from hal.shiftin import ShiftChain

    class Still:
        def readinto(self, buf):
            pass

        def value(self, v=None):
            pass

    with open("../../hardware/pinmap.json") as f:
        c = json.load(f)["shift_chain"]
    chain = ShiftChain(Still(), Still(), 13)
    wire = 14 * 8 * 1000000 // c["baudrate"]  # 13 registers and the check byte
    own = per_call(lambda i: chain.read(), 2000)
    mode = c["polarity"] << 1 | c["phase"]
    return mode, c["baudrate"], wire, own


mode, baud, wire, own = bench_chain()
print(
    "chain: 13 x 74HC165 + check byte, SPI mode %d at %d kHz: %d us on the wire + driver %.0f us "
    "here (%s) per scan" % (mode, baud // 1000, wire, own, esp32(own))
)
print("heap: %d B free at start of the benchmarks" % free0)
