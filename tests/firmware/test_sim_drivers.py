# The drivers (hal/) against the chip models (sim/chips/, written from the datasheets): the
# 74HC165 chain per SPI mode, the sensors' polarity, the MFRC522 reading every tag in its field
# (bit frame anticollision, cascade levels by position, SAK CRC), its reset and recovery.
# Seeded random UIDs and piles besides the listed cases.
from check import raises
from readers import SCAN_US, lay, poll, random_uid, random_uids, read_all, reader, ready, rng

from hal import hwmap
from hal.inputs import Inputs
from hal.mfrc522 import ReaderError, crc_a
from hal.shiftin import ShiftChain
from sim.chips import Pin
from sim.chips.drv5032 import HallSwitches
from sim.chips.hc165 import ChainSPI, HC165Chain
from sim.chips.ntag213 import Tag

# --- the sensor chain ---------------------------------------------------------------------


def chain_of(levels, mode=2, baudrate=1000000, active_low=True, nregs=13, vcc=3.3):
    """A ShiftChain reading `levels` (electrical, bit i = input i) through the model."""
    hc = HC165Chain(nregs, lambda: levels, vcc)
    spi = ChainSPI(hc, baudrate, mode >> 1, mode & 1)
    return hc, ShiftChain(spi, hc.sh_ld, nregs, active_low)


def active(frame):
    return [i for i in range(len(frame) * 8) if frame[i >> 3] >> (i & 7) & 1]


FITTED = hwmap.sensor_part("hardware")["part"]


def test_chain_reads_bit_i_as_register_i_div_8_input_i_mod_8_magnet_is_1():
    sensors = HallSwitches(104, FITTED)
    for i in (0, 7, 8, 57, 103):
        sensors.set(i, 1, 0)
    levels = sensors.levels(1000)  # every sensor has sampled by then
    hc, chain = chain_of(levels)
    assert active(chain.read()) == [0, 7, 8, 57, 103]
    assert chain.intact and hc.violations == []


def test_chain_polarity_comes_from_the_hardware_data():
    # an empty board: every DRV5032 output HIGH. Read as active-high (the old error) it is a
    # board full of pawns; as sensors.json says (active-low) it is empty
    empty = HallSwitches(104, FITTED).levels(0)
    assert len(active(chain_of(empty, active_low=False)[1].read())) == 104
    assert active(chain_of(empty, active_low=True)[1].read()) == []
    assert hwmap.sensor_part("hardware")["active_low"] is True


def test_chain_every_spi_mode_against_the_model():
    r = rng(11)
    for trial in range(20):
        levels = bytearray(r.below(256) for _ in range(13))
        want = bytearray(b ^ 0xFF for b in levels)
        for mode in (0, 1, 2, 3):
            hc, chain = chain_of(levels, mode)
            got = chain.read()
            if mode == 2:
                # clock idle high, sample on the falling edge, the chip shifts on the rising
                # one: every bit read half a period after it settled
                assert got == want and chain.intact and hc.violations == []
            elif mode == 1:
                # the first rising edge shifts before the first sample: input H of register
                # 0 is lost and every bit is one place off
                assert hc.violations == []
                lost = (int.from_bytes(levels, "big") << 1) & ((1 << 104) - 1)
                shifted = bytearray((lost >> (8 * (12 - k))) & 0xFF ^ 0xFF for k in range(13))
                assert got == shifted
            else:
                # modes 0 and 3 sample at the very edge that shifts: the datasheet gives no
                # minimum delay, so each bit is undefined
                assert any("within tpd" in v for v in hc.violations)


def test_chain_clock_over_the_datasheet_limit_is_caught():
    levels = bytearray(13)
    hc, chain = chain_of(levels, 2, baudrate=5000000)  # 100 ns half period < tpd at 3.3 V
    chain.read()
    assert any("within tpd" in v for v in hc.violations)
    hc, chain = chain_of(levels, 2, baudrate=1000000)
    chain.read()
    assert hc.violations == []


def test_chain_at_5_volts_overdrives_the_esp32():
    hc, chain = chain_of(bytearray(13), vcc=5.0)
    assert any("overdrives" in v for v in hc.violations)


def test_every_pin_map_drives_the_chain_and_reader_as_their_datasheets_allow():
    from sim.chips.mfrc522 import MFRC522Chip

    for name in ("pinmap.json", "pinmap-esp32s3.json"):
        pins = hwmap.load("hardware", name)
        c = pins["shift_chain"]
        levels = bytearray(range(13))
        hc = HC165Chain(13, lambda: levels, c["vcc"])
        spi = ChainSPI(hc, c["baudrate"], c["polarity"], c["phase"])
        frame = ShiftChain(spi, hc.sh_ld, 13).read()
        assert frame == bytearray(b ^ 0xFF for b in levels) and hc.violations == [], name
        assert "mosi" not in c, name  # the chain's bus claims no MOSI pin
        r = pins["reader"]
        chip = MFRC522Chip(lambda: 0)
        assert chip.spi_fault(r["baudrate"], r["polarity"] << 1 | r["phase"]) is None, name


def test_chain_tail_byte_tells_a_chain_from_a_floating_miso():
    hc, chain = chain_of(bytearray(13))
    chain.read()
    assert chain.intact

    class Floating:  # MISO with nothing driving it, pulled high
        def readinto(self, buf):
            for i in range(len(buf)):
                buf[i] = 0xFF

    chain = ShiftChain(Floating(), Pin(1), 13)
    assert active(chain.read()) == [] and not chain.intact
    # a chain a register longer than the map (an empty board: its inputs read HIGH)
    hc = HC165Chain(14, lambda: bytearray(b"\xff" * 14))
    chain = ShiftChain(ChainSPI(hc, 1000000, 1, 0), hc.sh_ld, 13)
    chain.read()
    assert not chain.intact
    # two registers short: the SER zeros come early, its last 16 sensors read as magnets
    hc = HC165Chain(11, lambda: bytearray(b"\xff" * 11))
    chain = ShiftChain(ChainSPI(hc, 1000000, 1, 0), hc.sh_ld, 13)
    assert active(chain.read()) == list(range(88, 104))


def test_chain_latches_at_the_load_not_during_the_read():
    levels = bytearray(b"\xff" * 13)
    hc, chain = chain_of(levels)
    chain.read()
    levels[5] = 0x00  # after the load: seen at the next read only
    assert chain.frame[5] == 0
    assert chain.read()[5] == 0xFF


def test_chain_reuses_its_frame():
    hc, chain = chain_of(bytearray(13))
    assert chain.read() is chain.read()


def test_inputs_are_active_low():
    pins = {"undo": Pin(1), "new": Pin(0), "pause": Pin(1)}
    inp = Inputs(("undo", "new", "pause"), pins)
    assert inp.read()[0] == 0b010
    assert inp.names() == ("undo", "new", "pause")


# --- the MFRC522 ----------------------------------------------------------------------------


def test_crc_a_matches_iso14443_example():
    # ISO/IEC 14443-3 annex B: CRC_A of 0x00 0x00 is 0xA0 0x1E
    assert crc_a(bytes(2), 2) == (0xA0, 0x1E)
    # HLTA frame 50 00 -> 57 CD (as sent by every reader)
    assert crc_a(b"\x50\x00", 2) == (0x57, 0xCD)


def test_init_waits_for_the_chip_before_configuring_it():
    # the chip takes 40 ms to come out of reset: written earlier, the set-up would be lost
    # (no timer: no search would ever end) [MFRC522 9.3.1.2 PowerDown]
    for rst in (True, False):
        chip, r, clock = reader(rst=rst, startup_us=40000)
        assert r.init() == 0x92
        assert chip.violations == [], chip.violations
        assert clock.us >= 40000
        assert read_all(r, clock, 100) == [] and r.errors == 0 and r.quiet >= 3


def test_no_reader_is_a_clear_error_and_a_reader_that_comes_back_is_used():
    chip, r, clock = reader()
    chip.answer = False
    e = raises(ReaderError, r.init)
    assert "no MFRC522" in str(e) and not r.ok
    chip.answer = True
    chip.lay(Tag(bytes.fromhex("04A3192261AB80")))
    assert read_all(r, clock, 1000) == [bytes.fromhex("04A3192261AB80")]
    assert r.ok


def test_reads_a_7_byte_ntag_uid_and_halts_it():
    chip, r, clock = ready()
    (tag,) = lay(chip, [bytes.fromhex("04A3192261AB80")])
    assert read_all(r, clock) == [bytes.fromhex("04A3192261AB80")]
    assert tag.state == 4  # HALT
    assert read_all(r, clock) == []  # halted: a card resting on the reader is read once
    chip.lift()
    lay(chip, [bytes.fromhex("04A3192261AB80")])  # laid again: powered up fresh, read again
    assert read_all(r, clock) == [bytes.fromhex("04A3192261AB80")]
    assert r.errors == 0 and chip.violations == []


def test_reads_4_7_and_10_byte_uids():
    r0 = rng(4)
    for size in (4, 7, 10):
        for _ in range(10):
            chip, r, clock = ready()
            uid = random_uid(r0, size)
            lay(chip, [uid])
            assert read_all(r, clock) == [uid], (size, uid)


def test_cascade_tag_value_at_every_position_of_the_uid():
    # 88h is the cascade tag only in first position of a non-final level; as a UID byte
    # anywhere it is data [14443-3 6.5.4]. The UID first.
    chip, r, clock = ready()
    lay(chip, [bytes.fromhex("04A319884BAB80")])
    assert read_all(r, clock) == [bytes.fromhex("04A319884BAB80")]
    r0 = rng(88)
    for size in (4, 7, 10):
        for pos in range(size):
            for _ in range(4):
                uid = bytearray(random_uid(r0, size))
                uid[pos] = 0x88
                uid = bytes(uid)
                chip, r, clock = ready()
                lay(chip, [uid])
                assert read_all(r, clock) == [uid], (size, pos, uid)
    # and several of them at once, 88h in the same places: collisions around it
    for pos in range(7):
        chip, r, clock = ready()
        uids = []
        for u in random_uids(r0, 5):
            u = bytearray(u)
            u[pos] = 0x88
            uids.append(bytes(u))
        lay(chip, uids)
        assert sorted(read_all(r, clock)) == sorted(uids), pos


def check_all_read_once(uids, seed=0, **kw):
    chip, r, clock = ready(**kw)
    tags = lay(chip, uids)
    got = read_all(r, clock, 20000)
    assert sorted(got) == sorted(uids), (len(got), len(uids))
    assert all(t.state == 4 for t in tags)  # every one halted
    assert read_all(r, clock) == []  # and silent after
    assert chip.violations == [], chip.violations
    return r


def test_two_tags_at_once_are_both_read():
    check_all_read_once([bytes.fromhex("04A3192261AB80"), bytes.fromhex("04A3192261AB81")])
    check_all_read_once([bytes.fromhex("04000000000000"), bytes.fromhex("04FFFFFFFFFFFF")])
    r0 = rng(2)
    for _ in range(30):
        r = check_all_read_once(random_uids(r0, 2))
    assert r.collisions >= 1


def test_ten_tags_at_once_are_all_read():
    r0 = rng(10)
    for _ in range(10):
        check_all_read_once(random_uids(r0, 10))
    # ten sharing their first cascade level: collisions only at level 2
    uids = [bytes.fromhex("04A319") + bytes((k, 0x11 * k, 3, k ^ 0x5A)) for k in range(10)]
    check_all_read_once(uids)
    # and mixed sizes: single, double, triple UIDs together (different ATQAs collide too)
    check_all_read_once(random_uids(r0, 3, 4) + random_uids(r0, 4, 7) + random_uids(r0, 3, 10))


def test_fifty_two_tags_apart_in_the_field_are_read_once_each():
    # the anticollision at a deck's scale, the tags laid apart (readers.lay): where they lie
    # is not the field's (a pile of them would detune: test_sim_chips), the bit frame's is
    r0 = rng(52)
    for _ in range(3):
        r = check_all_read_once(random_uids(r0, 52))
    assert r.errors == 0


def test_a_pile_of_aligned_cards_reads_none_but_the_first_laid_alone():
    chip, r, clock = ready()
    uids = random_uids(rng(53), 5)
    lay(chip, uids[:1], 0)
    assert read_all(r, clock) == uids[:1]
    for k in range(1, 5):
        lay(chip, uids[k : k + 1], 0)  # laid on the pile, aligned with the cards under it
        assert read_all(r, clock) == [], k
    chip.lift(uids[4])
    chip.lift(uids[3])
    chip.lift(uids[2])
    chip.lift(uids[1])  # all but the first taken off: it powers up again, read again
    assert read_all(r, clock) == uids[:1]


def test_a_tag_leaving_mid_exchange_is_not_reported_and_the_rest_are():
    # the tag goes after 1..11 polls of its read: after REQA, in the anticollision loop,
    # after the first SELECT, before HLTA
    r0 = rng(7)
    for leave_after in range(1, 12):
        chip, r, clock = ready()
        uids = random_uids(r0, 3)
        lay(chip, uids)
        got = []
        for k in range(leave_after):
            uid = poll(r, clock)
            if uid is not None:
                got.append(uid)
        gone = chip.tags[0].uid
        chip.lift(gone)
        got += read_all(r, clock, 2000)
        # the tag that left may have been read before it went, never after nor twice
        rest = [u for u in uids if u != gone]
        assert sorted(u for u in got if u != gone) == sorted(rest), leave_after
        assert got.count(gone) <= 1


def test_noise_never_yields_a_wrong_uid():
    # damaged answers (parity errors, two bits flipped in a byte, lost frames): BCC and the
    # SAK's CRC_A must catch what parity cannot; every UID reported is one in the field
    r0 = rng(99)
    errors = 0
    for trial in range(12):
        chip, r, clock = ready(noise=0.15, seed=trial + 1)
        uids = random_uids(r0, 6)
        lay(chip, uids)
        got = read_all(r, clock, 20000, quiet=4)
        assert all(u in uids for u in got), got
        assert sorted(set(got)) == sorted(uids)
        errors += r.errors
    assert errors > 0  # the noise did reach the driver


def test_sak_with_a_bad_crc_is_refused():
    chip, r, clock = ready()
    (tag,) = lay(chip, [bytes.fromhex("04A3192261AB80")])
    real_hear = tag.hear
    damaged = []

    def hear(frame, nbits):  # the final SAK arrives with its CRC damaged (two bits)
        ans = real_hear(frame, nbits)
        if ans and nbits == 72 and frame[0] == 0x95 and not damaged:
            damaged.append(1)
            data = bytearray(ans[0])
            data[1] ^= 0x03
            return bytes(data), ans[1], ans[2]
        return ans

    tag.hear = hear
    got = read_all(r, clock, 2000)
    assert damaged and r.errors >= 1
    # refused, then read properly once the tag is asked again (it went back to IDLE)
    assert got == [bytes.fromhex("04A3192261AB80")]


def test_a_chip_that_hangs_is_reset_and_reads_again():
    chip, r, clock = ready()
    chip.hang()
    lay(chip, [bytes.fromhex("04A3192261AB80")])
    got = read_all(r, clock, 500)
    assert r.resets == 1 and got == [bytes.fromhex("04A3192261AB80")]
    assert chip.violations == []


def test_the_driver_waits_in_time_whatever_the_poll_rate():
    # A scan pass can come early (the simulator) or late (a collection): the driver's give-up,
    # wake and retry waits are milliseconds of its clock, not counts of polls. Polled every
    # 0.02..7 ms at random (seeded; runs of quick passes included), a working chip is never
    # given up on nor reset.
    for seed in range(4):
        chip, r, clock = ready()
        g = rng(seed)
        uids = random_uids(g, 6)
        lay(chip, uids)
        got = []
        for _ in range(6000):
            clock.us += 20 + g.below(200) if g.below(3) else 100 + g.below(7000)
            uid = r.poll()
            if uid is not None:
                got.append(uid)
            if len(got) == len(uids) and not r.busy() and r.quiet >= 3:
                break
        assert sorted(got) == sorted(uids), seed
        assert r.resets == 0 and r.ok, (seed, r.errors, r.resets)


def test_a_hung_chip_is_given_up_after_its_time_not_after_a_count_of_quick_polls():
    chip, r, clock = ready()
    chip.hang()
    lay(chip, [bytes.fromhex("04A3192261AB80")])
    for _ in range(300):  # 30 ms of polls every 0.1 ms: under the 50 ms give-up
        clock.us += 100
        r.poll()
    assert r.resets == 0
    got = read_all(r, clock, 500)
    assert r.resets == 1 and got == [bytes.fromhex("04A3192261AB80")]


def test_a_chip_that_browned_out_is_noticed_and_set_up_again():
    chip, r, clock = ready()
    chip.brownout()  # registers back to reset values: antenna off, timer off
    lay(chip, [bytes.fromhex("04A3192261AB80")])
    got = read_all(r, clock, 500)
    assert r.resets == 1 and got == [bytes.fromhex("04A3192261AB80")]


def test_no_card_is_a_timeout_not_an_error():
    chip, r, clock = ready()
    for _ in range(50):
        assert poll(r, clock) is None
    assert r.errors == 0 and r.quiet > 10


def test_poll_never_waits_for_the_air():
    # each poll: one result read and the next exchange started, a short burst of SPI
    chip, r, clock = ready()
    lay(chip, random_uids(rng(3), 4))
    spi = r._spi
    calls = [0]
    real = spi._xfer

    def counting(tx, rx):
        calls[0] += 1
        real(tx, rx)

    spi._xfer = counting
    for _ in range(300):
        before = calls[0]
        clock.us += SCAN_US
        r.poll()
        assert calls[0] - before <= 24
