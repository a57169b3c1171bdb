# The card reader's times with the board's tick counter starting at seeded points within
# seconds of its wrap (issue 34): the driver's waits for the chip (hal/mfrc522.py) and the
# table's search cadence and re-read time (sense/cards.py), on the simulator's chip model
# (whose time is the world's, which never wraps): each read reaches the table at the same
# time as from a counter at 0.
from check import Rand

from clock import TICKS_MAX
from sim import VirtualClock

SEEDS = (1, 2)


def starts():
    """Counters at 0, at their last ms, and within 5 s before the wrap (seeded)."""
    return [0, TICKS_MAX] + [(-Rand(s).int(1, 5000)) & TICKS_MAX for s in (11, 12, 13, 14)]


def _reads(start, seed):
    """Tags laid on the simulated reader at random times, the driver polled every 5 ms as
    the scan loop polls it: when each read reaches the table (true time), and what."""
    from hal.mfrc522 import MFRC522
    from sense.cards import CardReads
    from sim.chips.mfrc522 import MFRC522Chip
    from sim.chips.spi import SPIBus

    r = Rand(seed)
    clock = VirtualClock(start=start)
    chip = MFRC522Chip(lambda: clock.now * 1000)
    bus = SPIBus(4000000, 0, 0, (chip,))
    reader = MFRC522(bus, chip.nss, chip.nrstpd, clock.sleep_ms, clock.ticks_ms)
    clock.sleep_ms(r.int(0, 3000))
    reader.init()
    uids = [bytes([4, 0xA0 + i, 0x19, 0x22, 0x61, 0xAB, 0x80]) for i in range(4)]
    registry = {}
    for i in range(len(uids)):
        registry["".join("%02X" % b for b in uids[i])] = "%dH" % (i + 2)
    cards = CardReads(reader, registry)
    out = []
    for _ in range(900):
        got = cards.poll(clock.ticks_ms())
        if got:
            out.append((clock.now, got[0], got[1]))
        k = r.below(120)
        if k < 3:  # a card laid on the pile, or lifted and laid again (a re-read)
            chip.lift(uids[k])
            chip.lay(uids[k])
        elif k == 3:
            chip.lift()  # the pile gathered
        clock.sleep_ms(5)
    return out, reader.resets, reader.errors


def test_the_card_reads_keep_their_times_across_the_wrap():
    for seed in SEEDS:
        ref = _reads(0, seed)
        assert len(ref[0]) > 3
        for start in starts():
            assert _reads(start, seed) == ref, (seed, start)
