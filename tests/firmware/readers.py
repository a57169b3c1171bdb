# The MFRC522 driver against the chip model, on a clock the test drives: a poll every 5 ms, as
# the table's scan loop polls it. Shared by the reader tests (pytest and MicroPython alike).
from hal.mfrc522 import MFRC522
from sim.chips import Rng
from sim.chips.mfrc522 import MFRC522Chip
from sim.chips.ntag213 import Tag
from sim.chips.spi import SPIBus

SCAN_US = 5000


class Clock:
    def __init__(self):
        self.us = 0

    def now_us(self):
        return self.us

    def ticks_ms(self):
        return self.us // 1000

    def sleep_ms(self, ms):
        self.us += ms * 1000


def reader(rst=True, baudrate=4000000, mode=0, **kw):
    """(chip model, driver, clock); the driver not yet initialised."""
    clock = Clock()
    chip = MFRC522Chip(clock.now_us, **kw)
    bus = SPIBus(baudrate, mode >> 1, mode & 1, (chip,))
    r = MFRC522(bus, chip.nss, chip.nrstpd if rst else None, clock.sleep_ms, clock.ticks_ms)
    return chip, r, clock


def ready(**kw):
    chip, r, clock = reader(**kw)
    r.init()
    return chip, r, clock


def poll(r, clock):
    clock.us += SCAN_US
    return r.poll()


def read_all(r, clock, polls=5000, quiet=3):
    """Every UID the driver reports until `quiet` searches in a row find nothing awake."""
    uids = []
    for _ in range(polls):
        uid = poll(r, clock)
        if uid is not None:
            uids.append(uid)
        if not r.busy() and r.quiet >= quiet:
            break
    return uids


def random_uid(rng, size=7, nxp=True):
    uid = bytearray(rng.below(256) for _ in range(size))
    if size == 7 and nxp:
        uid[0] = 0x04  # NXP's manufacturer code: every NTAG213 starts so [NTAG 8.5]
    if size == 4 and uid[0] == 0x88:
        uid[0] = 0x08  # 14443-3 6.5.4: a single-size UID's uid0 is never the cascade tag
    return bytes(uid)


def random_uids(rng, n, size=7):
    out = []
    while len(out) < n:
        u = random_uid(rng, size)
        if u not in out:
            out.append(u)
    return out


def lay(chip, uids, apart=8):
    """The tags laid in the field, `apart` mm from each other (a row, splayed: farther than
    sim/chips/ntag213.py's ALIGNED_MM, they answer; 0: all on one spot, a pile)."""
    return [chip.lay(Tag(u), k * apart) for k, u in enumerate(uids)]


def rng(seed):
    return Rng(seed)
