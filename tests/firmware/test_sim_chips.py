# The chip models (sim/chips/, one module per chip) against what their datasheets say, driven
# register by register or pin by pin as the datasheets describe, not through the drivers: the
# models must stand on their own for the driver tests to mean anything.
from readers import Clock, rng

from sim.chips.drv5032 import HallSwitches
from sim.chips.hc165 import ChainSPI, HC165Chain
from sim.chips.mfrc522 import MFRC522Chip
from sim.chips.ntag213 import CT, HLTA, REQA, SEL, WUPA, Tag, crc_a
from sim.chips.spi import SPIBus

# --- ISO/IEC 14443-3 tags ---------------------------------------------------------------


def frame_crc(data):
    c = crc_a(data, len(data))
    return bytes(data) + bytes((c & 0xFF, c >> 8))


def select_frame(level, cl):
    return frame_crc(bytes((SEL[level], 0x70)) + cl)


def hlta():
    return frame_crc(bytes((HLTA, 0)))


def test_crc_a_annex_b_examples():
    assert crc_a(bytes(2), 2) == 0x1EA0  # sent A0 1E
    assert crc_a(b"\x12\x34", 2) == 0xCF26  # ISO/IEC 14443-3 Annex B: 26 CF
    assert crc_a(b"\x50\x00", 2) == 0xCD57


def test_ntag_cascade_levels_and_bcc():
    t = Tag(bytes.fromhex("04A319884BAB80"))
    assert t.atqa == b"\x44\x00" and t.sak == 0  # NTAG 9.4
    assert t.levels[0] == bytes((CT, 0x04, 0xA3, 0x19, CT ^ 0x04 ^ 0xA3 ^ 0x19))
    assert t.levels[1] == bytes((0x88, 0x4B, 0xAB, 0x80, 0x88 ^ 0x4B ^ 0xAB ^ 0x80))


def walk(t):
    """REQA, both levels' SELECT, HLTA: one tag read as a reader would."""
    assert t.hear(bytes((REQA,)), 7)[0] == t.atqa
    for level, cl in enumerate(t.levels):
        sak = t.hear(select_frame(level, cl), 72)[0]
        assert sak[1:] == frame_crc(sak[:1])[1:]
    return t.hear(hlta(), 32)


def test_ntag_states_reqa_wupa_halt_and_field():
    t = Tag(bytes.fromhex("04A3192261AB80"))
    assert t.hear(bytes((REQA,)), 7) is None  # no field, no power [14443-3 6.3.1]
    t.power(True)
    assert walk(t) is None and t.state == 4  # HALT after HLTA, no answer
    assert t.hear(bytes((REQA,)), 7) is None  # REQA does not wake a halted tag
    assert t.hear(bytes((WUPA,)), 7)[0] == t.atqa  # WUPA does [NTAG 8.4.6]
    # READY*: an error sends it back to HALT, not IDLE [14443-3 6.3.6]
    assert t.hear(b"\x30\x00", 16) is None and t.state == 4
    t.power(False)
    t.power(True)  # field off then on: power-on reset, IDLE [NTAG 8.4.1]
    assert t.state == 1 and t.hear(bytes((REQA,)), 7)[0] == t.atqa


def test_ntag_select_of_another_uid_sends_it_back_to_idle():
    t = Tag(bytes.fromhex("04A3192261AB80"))
    t.power(True)
    t.hear(bytes((REQA,)), 7)
    other = bytes((CT, 0x04, 0xA3, 0x18, CT ^ 0x04 ^ 0xA3 ^ 0x18))
    assert t.hear(select_frame(0, other), 72) is None and t.state == 1  # [NTAG 8.4.2]
    t.hear(bytes((REQA,)), 7)
    bad = bytearray(select_frame(0, t.levels[0]))
    bad[8] ^= 1  # CRC damaged
    assert t.hear(bytes(bad), 72) is None and t.state == 1


def test_ntag_anticollision_answers_the_rest_of_its_bits_if_the_known_ones_match():
    t = Tag(bytes.fromhex("04A3192261AB80"))
    t.power(True)
    t.hear(bytes((REQA,)), 7)
    data, nbits, align = t.hear(bytes((0x93, 0x20)), 16)
    assert (data, nbits, align) == (t.levels[0], 40, 0)
    # 11 bits known: CT (8 bits) + 3 bits of 04h (100b): NVB 0x33, the answer starts at bit 3
    data, nbits, align = t.hear(bytes((0x93, 0x33, CT, 0x04)), 27)
    assert nbits == 29 and align == 3 and data[0] == 0x04 & 0xF8
    assert t.hear(bytes((0x93, 0x33, CT, 0x05)), 27) is None and t.state == 2  # silent, READY


# --- the MFRC522 driven by its registers ---------------------------------------------------


class Regs:
    """Register access as MFRC522 section 8.1.2 describes it, for these tests."""

    def __init__(self, chip, baudrate=4000000, mode=0):
        self.chip = chip
        self.bus = SPIBus(baudrate, mode >> 1, mode & 1, (chip,))

    def w(self, reg, *values):
        self.chip.nss.value(0)
        self.bus.write(bytes(((reg << 1) & 0x7E,)) + bytes(values))
        self.chip.nss.value(1)

    def r(self, reg):
        rx = bytearray(2)
        self.chip.nss.value(0)
        self.bus.write_readinto(bytes((((reg << 1) & 0x7E) | 0x80, 0)), rx)
        self.chip.nss.value(1)
        return rx[1]

    def transceive(self, data, framing=0, clock=None, wait_us=5000):
        self.w(0x01, 0x00)
        self.w(0x04, 0x7F)
        self.w(0x0A, 0x80)
        self.w(0x09, *data)
        self.w(0x0D, framing)  # the bit count first, StartSend clear [9.3.1.14]
        self.w(0x01, 0x0C)
        self.w(0x0D, 0x80 | framing)
        clock.us += wait_us
        irq = self.r(0x04)
        n = self.r(0x0A)
        return irq, bytes(self.r(0x09) for _ in range(n))


def chip_with(*uids, **kw):
    clock = Clock()
    chip = MFRC522Chip(clock.now_us, **kw)
    regs = Regs(chip)
    regs.w(0x2A, 0x80)  # TAuto
    regs.w(0x2B, 0xA9)  # 40 kHz
    regs.w(0x2C, 0x00)
    regs.w(0x2D, 99)  # 2.5 ms
    regs.w(0x14, 0x83)  # antenna on
    tags = [chip.lay(Tag(u), 10 * k) for k, u in enumerate(uids)]  # apart: each answers
    return chip, regs, clock, tags


def test_reset_values_version_and_powerdown_while_starting():
    clock = Clock()
    chip = MFRC522Chip(clock.now_us, startup_us=3000)
    regs = Regs(chip)
    assert regs.r(0x37) == 0x92 and regs.r(0x11) == 0x3F and regs.r(0x14) == 0x80
    regs.w(0x01, 0x0F)  # SoftReset [10.3.1.10]
    assert regs.r(0x01) & 0x10  # PowerDown reads 1 while the oscillator starts [9.3.1.2]
    regs.w(0x2A, 0x80)  # too early: lost, and recorded
    assert chip.violations and regs.r(0x2A) == 0
    clock.us += 3200  # the SPI accesses took time too
    assert not regs.r(0x01) & 0x10


def test_timer_ends_an_unanswered_exchange_at_its_period():
    chip, regs, clock, _ = chip_with()
    regs.transceive(bytes((REQA,)), 7, clock, wait_us=0)
    clock.us += 2300
    assert not regs.r(0x04) & 0x01
    clock.us += 600  # 2.5 ms after the end of the 7-bit frame (~85 us on the air)
    assert regs.r(0x04) & 0x01


def test_no_timer_means_an_unanswered_exchange_never_ends():
    clock = Clock()
    chip = MFRC522Chip(clock.now_us)
    regs = Regs(chip)
    regs.w(0x14, 0x83)
    irq, _ = regs.transceive(bytes((REQA,)), 7, clock, wait_us=10**6)
    assert not irq & 0x21  # TAuto 0: no TimerIRq, no RxIRq


def test_antenna_off_means_no_tag_is_powered():
    chip, regs, clock, (t,) = chip_with(bytes.fromhex("04A3192261AB80"))
    assert t.state == 1
    regs.w(0x14, 0x80)
    assert t.state == 0
    irq, data = regs.transceive(bytes((REQA,)), 7, clock)
    assert irq & 0x01 and not irq & 0x20 and data == b""


def test_reqa_answer_lands_in_the_fifo():
    chip, regs, clock, _ = chip_with(bytes.fromhex("04A3192261AB80"))
    irq, data = regs.transceive(bytes((REQA,)), 7, clock)
    assert irq & 0x20 and not irq & 0x02 and data == b"\x44\x00"


def test_collision_position_and_values_after_collision():
    a = bytes.fromhex("04A3192261AB80")
    b = bytes.fromhex("04A3182261AB80")  # differs from a at bit 24 of level 1 (uid2 bit 0)
    chip, regs, clock, _ = chip_with(a, b)
    regs.w(0x0E, 0x00)  # ValuesAfterColl 0
    regs.transceive(bytes((REQA,)), 7, clock)
    irq, data = regs.transceive(bytes((0x93, 0x20)), 0, clock)
    assert irq & 0x22 == 0x22 and regs.r(0x06) & 0x08  # RxIRq, ErrIRq, CollErr
    coll = regs.r(0x0E)
    assert not coll & 0x20 and coll & 0x1F == 25  # the 25th bit, counted from 1
    assert data[:3] == bytes((CT, 0x04, 0xA3)) and data[3] & 0xFE == 0 and data[4] == 0
    # ask again with 25 bits known (bit 24 = 1: tag a): only a answers, from bit 25 on,
    # stored from bit 1 of the FIFO's first byte (RxAlign 1)
    irq, data = regs.transceive(bytes((0x93, 0x51, CT, 0x04, 0xA3, 0x01)), 0x11, clock)
    assert irq & 0x22 == 0x20
    assert data == bytes((0x19 & 0xFE, CT ^ 0x04 ^ 0xA3 ^ 0x19))


def test_collision_position_counts_the_rx_align_offset():
    # known 11 bits; the first bit received (12th of the level) collides: CollPos = 3 + 1
    a = bytes.fromhex("04A3192261AB80")
    b = bytes.fromhex("0CA3192261AB80")  # uid0 04h vs 0Ch: bit 3 of the level's 2nd byte
    chip, regs, clock, _ = chip_with(a, b)
    regs.w(0x0E, 0x00)
    regs.transceive(bytes((REQA,)), 7, clock)
    irq, data = regs.transceive(bytes((0x93, 0x33, CT, 0x04)), 0x33, clock)
    assert irq & 0x02 and regs.r(0x0E) & 0x1F == 4


def test_a_frame_goes_on_startsend_in_transceive_not_on_any_write():
    # [10.3.1.8] Transceive sends only once StartSend is set [9.3.1.14]; the frame's bit
    # count is what BitFramingReg holds then
    chip, regs, clock, (t,) = chip_with(bytes.fromhex("04A3192261AB80"))
    regs.w(0x01, 0x00)
    regs.w(0x0A, 0x80)
    regs.w(0x09, REQA)
    regs.w(0x0D, 0x07)
    assert chip.exchanges == 0  # StartSend with no Transceive: nothing
    regs.w(0x01, 0x0C)
    assert chip.exchanges == 0  # Transceive, StartSend clear: waiting
    regs.w(0x0D, 0x87)
    assert chip.exchanges == 1 and t.state == 2  # sent as 7 bits: the tag woke (READY)
    regs.w(0x0D, 0x87)  # StartSend written again while set: no second frame
    assert chip.exchanges == 1 and chip.violations == []


def test_transceive_with_startsend_left_set_is_a_violation_and_cuts_the_frame():
    # the old driver's order: Transceive written while the last frame's StartSend and bit
    # count (7, REQA's) were still in BitFramingReg
    chip, regs, clock, (t,) = chip_with(bytes.fromhex("04A3192261AB80"))
    regs.transceive(bytes((REQA,)), 7, clock)  # in order: the ATQA comes, the tag is READY
    assert t.state == 2 and chip.violations == []
    regs.w(0x01, 0x00)
    regs.w(0x04, 0x7F)
    regs.w(0x0A, 0x80)
    regs.w(0x09, 0x93, 0x20)  # ANTICOLLISION, 16 bits...
    regs.w(0x01, 0x0C)  # ...but StartSend is still set: it goes now, as 15 bits
    assert chip.exchanges == 2
    assert any("StartSend still set" in v for v in chip.violations), chip.violations
    assert any("last frame's bit count" in v for v in chip.violations), chip.violations
    regs.w(0x0D, 0x80)  # the bit count set too late: no new frame
    clock.us += 5000
    assert chip.exchanges == 2 and not regs.r(0x04) & 0x20  # no answer: the tag took an error
    assert t.state == 1  # READY -> IDLE [14443-3 6.3.3]


def test_transceive_given_up_before_startsend_is_a_violation():
    chip, regs, clock, _ = chip_with(bytes.fromhex("04A3192261AB80"))
    regs.w(0x09, REQA)
    regs.w(0x0D, 0x07)
    regs.w(0x01, 0x0C)
    regs.w(0x01, 0x00)  # Idle: the Transceive never sent its frame
    assert chip.exchanges == 0
    assert any("before StartSend" in v for v in chip.violations), chip.violations


def test_receiver_gain_reset_value_and_table():
    chip, regs, clock, _ = chip_with()
    assert regs.r(0x26) == 0x48 and chip.rx_gain_db() == 33  # reset [9.3.3.6]
    regs.w(0x26, 0x78)
    assert chip.rx_gain_db() == 48
    regs.w(0x01, 0x0F)  # SoftReset: back to 33 dB
    clock.us += 2000
    assert chip.rx_gain_db() == 33


def test_two_stickers_aligned_detune_and_neither_answers():
    # [ntag213.py STACK]: stacked precisely, 0 reads in 20, not even two; apart, each answers
    # and they collide as single tags do
    a, b = bytes.fromhex("04A3192261AB80"), bytes.fromhex("04B7C10E22F390")
    for dx, dy in ((0, 0), (1, 1), (3, -3), (4, 0)):  # within ALIGNED_MM (5) of each other
        chip, regs, clock, (ta,) = chip_with(a)
        tb = chip.lay(Tag(b), dx, dy)
        assert ta.state == 0 and tb.state == 0, (dx, dy)  # detuned: unpowered
        irq, data = regs.transceive(bytes((WUPA,)), 7, clock)
        assert not irq & 0x20 and data == b"", (dx, dy)  # nobody answers
    for dx, dy in ((5, 0), (0, -7), (20, 15)):
        chip, regs, clock, (ta,) = chip_with(a)
        tb = chip.lay(Tag(b), dx, dy)
        assert ta.state == 1 and tb.state == 1
        regs.transceive(bytes((WUPA,)), 7, clock)
        irq, data = regs.transceive(bytes((0x93, 0x20)), 0, clock)
        assert irq & 0x22 == 0x22 and regs.r(0x06) & 0x08, (dx, dy)  # both answer: CollErr


def test_a_sticker_left_alone_again_powers_up_fresh():
    a, b = bytes.fromhex("04A3192261AB80"), bytes.fromhex("04B7C10E22F390")
    chip, regs, clock, (ta,) = chip_with(a)
    regs.transceive(bytes((REQA,)), 7, clock)
    regs.transceive(bytes((0x93, 0x20)), 0, clock)
    ta.b[0] = 4  # as if read and halted
    tb = chip.lay(Tag(b))  # laid on top of it, aligned: both lose their power
    assert ta.state == 0 and tb.state == 0
    chip.lift(b)  # the top one taken off: the one under it powers up, its HALT forgotten
    assert ta.state == 1
    irq, data = regs.transceive(bytes((REQA,)), 7, clock)
    assert irq & 0x20 and data == b"\x44\x00"
    tb = chip.lay(Tag(b))
    chip.lift(a)  # or the one under it slid out: the top one answers
    assert tb.state == 1 and chip.tags == [tb]


def test_a_pile_of_aligned_stickers_answers_nothing_and_its_top_card_neither():
    # the table before its card spot: every card laid on the last, all over the antenna
    chip, regs, clock, _ = chip_with()
    r0 = rng(5)
    for k in range(52):
        u = bytes([4] + [r0.below(256) for _ in range(6)])
        chip.lay(Tag(u), r0.below(3) - 1, r0.below(3) - 1)  # each within a mm of the spot
        if k:
            irq, _ = regs.transceive(bytes((WUPA,)), 7, clock)
            assert not irq & 0x20, k
    assert all(t.state == 0 for t in chip.tags)


def test_crc_coprocessor():
    chip, regs, clock, _ = chip_with()
    regs.w(0x11, 0x3D)  # CRC preset 6363h [9.3.2.2]
    regs.w(0x0A, 0x80)
    regs.w(0x09, 0x12, 0x34)
    regs.w(0x01, 0x03)  # CalcCRC [10.3.1.4]
    assert regs.r(0x05) & 0x04  # CRCIRq
    assert (regs.r(0x22), regs.r(0x21)) == (0x26, 0xCF)


def test_fifo_holds_64_bytes_then_overflows():
    chip, regs, clock, _ = chip_with()
    regs.w(0x09, *range(64))
    assert regs.r(0x0A) == 64 and not regs.r(0x06) & 0x10
    regs.w(0x09, 1)
    assert regs.r(0x06) & 0x10  # BufferOvfl [9.3.1.7]
    regs.w(0x0A, 0x80)
    assert regs.r(0x0A) == 0 and not regs.r(0x06) & 0x10


def test_spi_mode_and_clock_the_mfrc522_accepts():
    clock = Clock()
    chip = MFRC522Chip(clock.now_us)
    assert Regs(chip, 4000000, 0).r(0x37) == 0x92
    assert Regs(chip, 4000000, 3).r(0x37) == 0x92
    chip2 = MFRC522Chip(clock.now_us)
    Regs(chip2, 4000000, 1).r(0x37)
    Regs(chip2, 20000000, 0).r(0x37)
    assert len(chip2.violations) == 2


def test_two_bits_flipped_in_a_byte_pass_parity_and_noise_is_seeded():
    def run(seed):
        chip, regs, clock, _ = chip_with(bytes.fromhex("04A3192261AB80"), noise=1.0, seed=seed)
        out = []
        for _ in range(30):
            regs.transceive(bytes((REQA,)), 7, clock)
            irq, data = regs.transceive(bytes((0x93, 0x20)), 0, clock)
            out.append((irq, regs.r(0x06), data))
            regs.transceive(bytes((REQA,)), 7, clock)  # READY -> error -> IDLE, ready again
        return out

    a = run(3)
    assert a == run(3)  # reproducible
    kinds = set()
    for irq, err, data in a:
        if not irq & 0x20:
            kinds.add("lost")
        elif err & 0x02:
            kinds.add("parity")
        else:
            kinds.add("silent")  # bytes damaged, parity fine: only the BCC can tell
            assert data[4] != data[0] ^ data[1] ^ data[2] ^ data[3]
    assert kinds == {"lost", "parity", "silent"}


# --- 74HC165 -------------------------------------------------------------------------------


def test_hc165_parallel_load_is_asynchronous_and_clock_inhibit_clocks_too():
    levels = bytearray((0b10110001,))
    hc = HC165Chain(1, lambda: levels)
    hc.sh_ld.value(0)
    levels[0] = 0b01000000  # SH/LD still low: the register follows its inputs
    hc.sh_ld.value(1)
    assert hc.bit(0) == 0 and hc.bit(1) == 1  # QH = input H first, then G
    hc.clock(0, hc.t_ns + 1000)
    hc.clk_inh.value(1)  # a low CLK and a rising CLK INH: one shift [HC165 TI description]
    assert hc._shifts == 1 and hc.sample(hc.t_ns + 1000) == 1  # G now at QH


def test_hc165_ser_fills_the_chain_from_the_last_register():
    for ser in (0, 1):
        hc = HC165Chain(2, lambda: bytearray((0xA5, 0x3C)), ser=ser)
        spi = ChainSPI(hc, 1000000, 1, 0)
        hc.sh_ld.value(0)
        hc.sh_ld.value(1)
        assert spi.read(4) == bytearray((0xA5, 0x3C, 0xFF * ser, 0xFF * ser))


def test_hc165_bytewise_path_agrees_with_clocking_bit_by_bit():
    r = rng(165)
    for trial in range(40):
        n = 1 + r.below(14)
        levels = bytearray(r.below(256) for _ in range(n))
        for mode in (1, 2):
            for extra in (0, 1, 3):
                got = []
                ser = r.below(2) if extra == 3 else 0
                for bitwise in (True, False):
                    hc = HC165Chain(n, lambda: levels, ser=ser)
                    spi = ChainSPI(hc, 1000000, mode >> 1, mode & 1, bitwise)
                    hc.sh_ld.value(0)
                    hc.sh_ld.value(1)
                    got.append((spi.read(n + extra), hc._shifts, hc.violations))
                assert got[0][0] == got[1][0] and got[0][1] == got[1][1], (mode, n, extra)


def test_hc165_timing_limits_from_table_7():
    from sim.chips.hc165 import hc165_ns

    assert hc165_ns("tpd", 2.0) == 205 and hc165_ns("tpd", 4.5) == 41
    assert 110 <= hc165_ns("tpd", 3.3) <= 125  # interpolated, conservative
    hc = HC165Chain(13, lambda: bytearray(13))
    ChainSPI(hc, 20000000, 1, 0)  # 25 ns half period: under tW of the clock at 3.3 V
    assert any("tW" in v for v in hc.violations)


# --- DRV5032 -------------------------------------------------------------------------------


def test_drv5032_output_low_over_a_magnet_and_only_at_its_samples():
    s = HallSwitches(8, "DRV5032FB", now=0, seed=4)
    assert s.period == 200  # 5 Hz [DRV5032 Device Comparison]
    assert s.levels(0)[0] == 0xFF  # no magnet: every output HIGH
    phase = s.phase[3]
    t = phase + 1  # just after sensor 3 sampled
    s.set(3, 1, t)
    assert s.levels(t + 198)[0] >> 3 & 1 == 1  # not sampled yet: still HIGH
    assert s.levels(t + 199)[0] >> 3 & 1 == 0  # sampled: LOW over the magnet
    # lifted and set back between two samples: the sensor never sees it
    s.set(3, 0, t + 250)
    assert s.levels(t + 260)[0] >> 3 & 1 == 0
    s.set(3, 1, t + 300)
    assert all(s.levels(t + k)[0] >> 3 & 1 == 0 for k in range(300, 800, 7))


def test_drv5033_follows_at_once_and_floats_without_its_pull_up():
    s = HallSwitches(16, "DRV5033FA", now=0)
    assert s.period == 0 and s.levels(0) == b"\xff\xff"
    s.set(9, 1, 7)
    assert s.levels(7)[1] == 0xFD  # LOW the moment the magnet is there
    s.set(9, 0, 8)
    assert s.levels(8)[1] == 0xFF
    # open-drain: without the board's pull-ups a released output is not a level
    bare = HallSwitches(64, "DRV5033FA", now=0, pullups=False)
    reads = set(bytes(bare.levels(t)) for t in range(5))
    assert len(reads) > 1


def test_drv5032_variants_and_phases():
    assert HallSwitches(4, "DRV5032FA").period == 50  # 20 Hz
    assert HallSwitches(4, "DRV5032DG").period == 12  # 80 Hz
    s = HallSwitches(104, "DRV5032FB", seed=9)
    assert len(set(s.phase)) > 50  # each sensor's own oscillator
    try:
        HallSwitches(4, "DRV5033")
    except ValueError as e:
        assert "not a modelled Hall switch" in str(e)
    else:
        raise AssertionError("unknown part accepted")
