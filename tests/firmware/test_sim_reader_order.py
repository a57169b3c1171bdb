# The MFRC522 driver's exchange in the datasheet's order, against the strict chip model: the
# bit count, Transceive, then StartSend (MFRC522 10.3.1.8, 9.3.1.14), as the reference drivers
# do it (miguelbalboa/rfid, wendlers/micropython-mfrc522), and the receiver's gain. The order
# the driver had before is played here too: the model must refuse it.
from readers import lay, random_uids, read_all, ready, rng


def test_the_driver_frames_in_the_datasheets_order_and_sets_the_gain():
    # [10.3.1.8, 9.3.1.14]: the bit count, Transceive, then StartSend; the strict model
    # records any other order. RxGain 48 dB [9.3.3.6], set again after every chip reset.
    chip, r, clock = ready()
    assert chip.rx_gain_db() == 48
    r0 = rng(31)
    for _ in range(5):
        lay(chip, random_uids(r0, 3))
        assert len(read_all(r, clock, 5000)) == 3
        chip.lift()
    chip.hang()
    lay(chip, [bytes.fromhex("04A3192261AB80")])
    assert read_all(r, clock, 500) == [bytes.fromhex("04A3192261AB80")] and r.resets == 1
    assert chip.rx_gain_db() == 48
    assert chip.violations == [], chip.violations


def _old_order(r):
    """The driver as it was: Transceive written before StartSend, with BitFramingReg still
    holding the last frame's bit count (and StartSend)."""

    def transceive(n, framing=0):
        buf = r._buf
        r._write(0x01, 0x00)
        r._write(0x04, 0x7F)
        r._write(0x0A, 0x80)
        for i in range(n):
            r._write(0x09, buf[i])
        r._write(0x01, 0x0C)
        r._write(0x0D, 0x80 | framing)
        r._since = r._ticks_ms()

    r._transceive = transceive


def test_the_old_order_reads_no_card_in_the_strict_model():
    chip, r, clock = ready()
    _old_order(r)
    lay(chip, [bytes.fromhex("04A3192261AB80")])
    assert read_all(r, clock, 400) == []  # ANTICOLLISION left as 15 bits: never answered
    assert any("StartSend still set" in v for v in chip.violations), chip.violations
