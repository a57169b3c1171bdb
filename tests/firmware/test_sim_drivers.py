# Drivers against fake buses (firmware/sim/chips.py): the 74HC165 chain's bit order, and the
# MFRC522's register traffic, 4- and 7-byte UIDs, halting, no card, no reader.
from check import raises

from hal.inputs import Inputs
from hal.mfrc522 import MFRC522, ReaderError, crc_a
from hal.shiftin import ShiftChain
from sim.chips import MFRC522Bus, Pin, ShiftChainBus


def test_shift_chain_reads_bit_i_as_register_i_div_8_input_i_mod_8():
    state = bytearray(13)
    state[0] = 0b00000001  # sensor 0: register 0, input A
    state[12] = 0b10000000  # sensor 103: register 12, input H
    bus = ShiftChainBus(lambda: state)
    chain = ShiftChain(bus, bus.latch, 13)
    frame = chain.read()
    assert frame[0] == 1 and frame[12] == 0x80
    assert [i for i in range(104) if frame[i >> 3] >> (i & 7) & 1] == [0, 103]


def test_shift_chain_latches_at_the_load_not_during_the_read():
    state = bytearray(13)
    bus = ShiftChainBus(lambda: state)
    chain = ShiftChain(bus, bus.latch, 13)
    chain.read()
    state[5] = 0xFF  # changes after the load are not seen until the next read
    assert chain.frame[5] == 0
    assert chain.read()[5] == 0xFF


def test_shift_chain_reuses_its_frame():
    bus = ShiftChainBus(lambda: bytearray(13))
    chain = ShiftChain(bus, bus.latch, 13)
    assert chain.read() is chain.read()


def test_inputs_are_active_low():
    pins = {"undo": Pin(1), "new": Pin(0), "pause": Pin(1)}
    inp = Inputs(("undo", "new", "pause"), pins)
    assert inp.read()[0] == 0b010
    assert inp.names() == ("undo", "new", "pause")


def test_crc_a_matches_iso14443_example():
    # ISO/IEC 14443-3 annex B: CRC_A of 0x00 0x00 is 0xA0 0x1E
    assert crc_a(bytes(2), 2) == (0xA0, 0x1E)
    # HLTA frame 50 00 -> 57 CD (as sent by every reader)
    assert crc_a(b"\x50\x00", 2) == (0x57, 0xCD)


def reader(**kw):
    bus = MFRC522Bus(**kw)
    r = MFRC522(bus, bus.cs)
    return bus, r


def read_uid(r, polls=200):
    for _ in range(polls):
        uid = r.poll()
        if uid is not None:
            return uid
    return None


def test_mfrc522_init_register_traffic():
    bus, r = reader(record=True)
    assert r.init() == 0x92
    writes = [(reg, v) for kind, reg, v in bus.traffic if kind == "w"]
    assert writes[0] == (0x01, 0x0F)  # SoftReset first
    assert (0x2A, 0x80) in writes and (0x2B, 0xA9) in writes  # timer: TAuto, 40 kHz
    assert (0x2C, 0x03) in writes and (0x2D, 0xE8) in writes  # reload 1000: 25 ms
    assert (0x15, 0x40) in writes and (0x11, 0x3D) in writes  # 100 % ASK, CRC 6363
    assert writes[-1] == (0x14, 0x03)  # antenna on last


def test_mfrc522_reads_a_7_byte_ntag_uid_and_halts_it():
    bus, r = reader()
    r.init()
    bus.lay(bytes.fromhex("04A3192261AB80"))
    assert read_uid(r) == bytes.fromhex("04A3192261AB80")
    assert read_uid(r) is None  # halted: a card resting on the reader is read once
    bus.lift()
    bus.lay(bytes.fromhex("04A3192261AB80"))  # laid again: a new read
    assert read_uid(r) == bytes.fromhex("04A3192261AB80")


def test_mfrc522_reads_a_4_byte_uid():
    bus, r = reader()
    r.init()
    bus.lay(bytes.fromhex("DEADBEEF"))
    assert read_uid(r) == bytes.fromhex("DEADBEEF")


def test_mfrc522_poll_never_waits_for_the_air():
    bus, r = reader(latency=5, record=True)
    r.init()
    bus.lay(bytes.fromhex("04A3192261AB80"))
    bus.traffic = []
    polls = 0
    uid = None
    while uid is None and polls < 500:
        before = len(bus.traffic)
        uid = r.poll()
        polls += 1
        # at most one result read plus the next exchange started: a short burst of SPI
        assert len(bus.traffic) - before <= 30
    # one poll starts REQA; then REQA, 2 x (anticollision + select) and HLTA each take
    # 5 polls in the air and 1 that reads the answer and starts the next exchange
    assert uid is not None and polls == 1 + 6 * 6


def test_mfrc522_no_card_is_a_timeout_not_an_error():
    bus, r = reader()
    r.init()
    assert read_uid(r, 50) is None
    assert r.errors == 0


def test_mfrc522_no_reader_is_a_clear_error():
    bus, r = reader(answer=False)
    e = raises(ReaderError, r.init)
    assert "no MFRC522" in str(e)
    assert not r.ok


def test_mfrc522_chip_that_never_ends_an_exchange_is_reset():
    bus, r = reader(latency=10**6)
    r.init()
    bus.lay(bytes.fromhex("04A3192261AB80"))
    assert read_uid(r, 100) is None
    assert r.errors >= 1  # gave up and started over, without blocking
