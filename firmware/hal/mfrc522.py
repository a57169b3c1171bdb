# MFRC522 (NXP, 13.56 MHz ISO 14443A) on SPI: reads the UID of every tag in its field, one
# after another, and halts each, without ever blocking the scan loop.
#
# Each poll() does at most one short SPI exchange with the chip and returns: a tag exchange is
# started, and its result read on the next poll. The chip's own timer ends an exchange nobody
# answers (2.5 ms), so a poll never waits for the air.
#
# Reading every tag in the field (ISO/IEC 14443-3:2001 6.4.3.1, the bit frame anticollision):
# REQA wakes every tag that is not halted; they all answer the anticollision command with their
# UID at once, and where their bits differ the chip reports the first collision (CollReg). The
# driver keeps the bits before it, chooses 1 for the collided bit, and asks again with those
# bits: tags whose UID does not start so stay silent, until one tag is left. SELECT takes it to
# the next cascade level or completes its UID; HLTA puts it to sleep, and REQA starts over with
# the rest. Tags laid apart in the field are thus read one by one, each once.
#
# Cascade by position (14443-3 6.5.4): at every level but the last the first byte is the
# cascade tag 88h, known from the SAK's cascade bit, never from the byte's value (a UID byte
# may be 88h). The SAK's CRC_A is checked. A chip that stops answering is reset.
# Register names and values: MFRC522 datasheet rev 3.9, sections 8-10.
from micropython import const

from clock import elapsed

_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_RF_CFG = const(0x26)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

_CMD_IDLE = const(0x00)
_CMD_TRANSCEIVE = const(0x0C)
_CMD_SOFT_RESET = const(0x0F)
_POWER_DOWN = const(0x10)  # CommandReg: reads 1 until the chip is up after a reset (9.3.1.2)

_START_SEND = const(0x80)  # BitFramingReg: the frame in the FIFO goes on the air (9.3.1.14)
# RFCfgReg's RxGain bits (6-4) and 111b, 48 dB (9.3.3.6, table 98): the reset value is 100b,
# 33 dB, the receiver's gain for a card flat on the antenna; a sticker read through the
# spot's floor answers weaker, and 48 dB is what the reference driver offers as its maximum
# (miguelbalboa/rfid PCD_SetAntennaGain, RxGain_max). Not measured on this table's antenna.
_RX_GAIN = const(0x70)

_IRQ_RX = const(0x20)
_IRQ_IDLE = const(0x10)
_IRQ_ERR = const(0x02)
_IRQ_TIMER = const(0x01)

_ERR_COLL = const(0x08)
_ERR_OTHER = const(0x17)  # buffer overflow, CRC, parity, protocol
_COLL_POS_NOT_VALID = const(0x20)

_REQA = const(0x26)
_WUPA = const(0x52)  # 14443-3 6.4.2: wakes halted tags too (HALT -> READY*)
_HLTA = const(0x50)
_SEL = (0x93, 0x95, 0x97)  # anticollision / select, cascade levels 1-3
_CASCADE_TAG = const(0x88)
_SAK_MORE = const(0x04)  # SAK: the UID is not complete, next cascade level

VERSIONS = (0x88, 0x90, 0x91, 0x92, 0x12, 0xB2)  # MFRC522 v0/v1/v2 and common clones

# states
_OFF = const(0)  # the chip does not answer: a reset is tried again now and then
_WAKE = const(1)  # reset given, waiting for PowerDown to read 0
_IDLE = const(2)
_REQ = const(3)
_ANTICOLL = const(4)
_SELECT = const(5)
_HALT = const(6)

_WAKE_MS = const(150)  # the reference driver's longest wait for PowerDown after a reset
# The waits below are in milliseconds of the clock, not in polls: the scan loop's period is
# 5 ms on a board, but a pass can run late (a collection) or, in the simulator, early; a
# count of polls then gave up on an exchange the chip had not had time to end.
_GIVE_UP_MS = const(50)  # an exchange the chip never ends (its timer ends each in 2.5 ms)
_RETRY_MS = const(1000)  # a chip that does not answer: try a reset again

# results of an exchange
_SILENT = const(-1)
_GARBLED = const(-2)
_COLLIDED = const(-3)


class ReaderError(Exception):
    pass


def crc_a(data, n):
    """ISO/IEC 14443-3 CRC_A over data[:n], as two bytes (low, high)."""
    crc = 0x6363
    for i in range(n):
        b = (data[i] ^ crc) & 0xFF
        b = (b ^ (b << 4)) & 0xFF
        crc = (crc >> 8) ^ (b << 8) ^ (b << 3) ^ (b >> 4)
    return crc & 0xFF, (crc >> 8) & 0xFF


class MFRC522:
    def __init__(self, spi, cs, rst=None, sleep_ms=None, ticks_ms=None):
        self._spi = spi
        self._cs = cs
        self._rst = rst
        if sleep_ms is None or ticks_ms is None:
            import time

            sleep_ms = sleep_ms or time.sleep_ms
            ticks_ms = ticks_ms or time.ticks_ms
        self._sleep_ms = sleep_ms
        self._ticks_ms = ticks_ms
        self._tx = bytearray(2)
        self._rx = bytearray(2)
        self._buf = bytearray(10)  # a frame to or from a tag: at most 9 bytes
        self._cl = bytearray(5)  # the cascade level being resolved: 4 UID bytes (or CT + 3), BCC
        self._known = 0  # bits of _cl known so far (0..32)
        self._uid = bytearray(10)
        self._uid_len = 0
        self._level = 0
        self._state = _OFF
        self._since = self._ticks_ms()
        self.errors = 0  # exchanges that failed (noise, a tag gone mid-read, bad CRC or BCC)
        self.collisions = 0  # bit collisions resolved (several tags answering at once)
        self.resets = 0  # chip resets after it stopped answering
        self.power_ups = 0  # times the field came on: every tag in it just powered up (IDLE)
        # REQAs in a row that no tag answered (every tag in the field halted). A caller waits
        # for three before it takes the field for read: an ATQA lost on the way leaves the tags
        # READY, and the next REQA only sends them back to IDLE without an answer (14443-3
        # 6.3.3: any other command), so two silences can hide a tag (sense/cards.py)
        self.quiet = 0
        # the next search sends WUPA, not REQA: the tags lying halted in the field answer
        # and are read again (sense/cards.py: which cards lie on the card spot)
        self.wake = False
        self.ok = False
        cs.value(1)

    # --- registers ---------------------------------------------------------------------

    def _write(self, reg, value):
        self._tx[0] = (reg << 1) & 0x7E
        self._tx[1] = value
        self._cs.value(0)
        self._spi.write(self._tx)
        self._cs.value(1)

    def _read(self, reg):
        self._tx[0] = ((reg << 1) & 0x7E) | 0x80
        self._tx[1] = 0
        self._cs.value(0)
        self._spi.write_readinto(self._tx, self._rx)
        self._cs.value(1)
        return self._rx[1]

    # --- reset and set-up ------------------------------------------------------------

    def init(self):
        """Reset and configure the chip, waiting for it (at boot: up to _WAKE_MS). Returns the
        version; ReaderError when no MFRC522 answers (poll() keeps trying to reset it)."""
        self._reset()
        for _ in range(_WAKE_MS):
            if not self._read(_COMMAND) & _POWER_DOWN:
                break
            self._sleep_ms(1)
        version = self._read(_VERSION)
        if version not in VERSIONS:
            self._off()
            raise ReaderError("no MFRC522 answers on SPI (VersionReg = 0x%02x)" % version)
        self._configure()
        return version

    def _reset(self):
        """A hard reset through NRSTPD when wired (a chip stuck on SPI still takes it), else
        SoftReset. Either puts every register back to its reset value and turns the antenna
        off: every tag in the field loses power (MFRC522 8.6.1, 10.3.1.10)."""
        if self._rst is not None:
            self._rst.value(0)  # NRSTPD low >= 100 ns (8.8.1): a pin write takes longer
            self._rst.value(1)
        else:
            self._write(_COMMAND, _CMD_SOFT_RESET)
        self._state = _WAKE
        self._since = self._ticks_ms()

    def _configure(self):
        # timer: TAuto, prescaler 0xA9 -> 40 kHz (13.56 MHz / (2 * 169 + 1)), reload 99:
        # 2.5 ms from the end of each transmission. Every answer of ISO 14443-3's commands
        # starts within 0.1 ms (FDT, 6.2.1.1) and HLTA's silence counts after 1 ms (6.4.4).
        self._write(_T_MODE, 0x80)
        self._write(_T_PRESCALER, 0xA9)
        self._write(_T_RELOAD_H, 0x00)
        self._write(_T_RELOAD_L, 99)
        self._write(_TX_ASK, 0x40)  # 100 % ASK modulation (ISO 14443A)
        self._write(_MODE, 0x3D)  # CRC preset 0x6363
        self._write(_COLL, 0x00)  # ValuesAfterColl 0: bits after a collision read 0 (9.3.1.15)
        self._write(_RF_CFG, (self._read(_RF_CFG) & ~_RX_GAIN & 0xFF) | _RX_GAIN)  # 48 dB
        self._write(_TX_CONTROL, self._read(_TX_CONTROL) | 0x03)  # antenna on
        self.power_ups += 1
        self.quiet = 0
        self.ok = True
        self._state = _IDLE

    def _waited(self):
        """Milliseconds since the last reset, exchange or give-up."""
        return elapsed(self._ticks_ms(), self._since)

    def _off(self):
        self.ok = False
        self._state = _OFF
        self._since = self._ticks_ms()

    def _restart(self):
        """The chip stopped answering as it should: reset it (the field goes off with it)."""
        self.resets += 1
        self._reset()

    # --- the exchange, one step per poll -------------------------------------------

    def _transceive(self, n, framing=0):
        """Sends self._buf[:n]; framing = RxAlign << 4 | TxLastBits (BitFramingReg).
        In the order of the datasheet (10.3.1.8: Transceive sends only once StartSend is
        set, 9.3.1.14) and of the reference drivers (miguelbalboa/rfid
        PCD_CommunicateWithPICC; wendlers/micropython-mfrc522 writes the bit count before
        the command too): this frame's bit count with StartSend clear, then Transceive,
        then StartSend. Written the other way round, Transceive met the last frame's
        StartSend still set and its bit count (7 after REQA): the frame left at once, cut."""
        buf = self._buf
        self._write(_COMMAND, _CMD_IDLE)
        self._write(_COM_IRQ, 0x7F)  # clear every interrupt request
        self._write(_FIFO_LEVEL, 0x80)  # flush the FIFO
        for i in range(n):
            self._write(_FIFO_DATA, buf[i])
        self._write(_BIT_FRAMING, framing)  # this frame's bits, StartSend 0
        self._write(_COMMAND, _CMD_TRANSCEIVE)
        self._write(_BIT_FRAMING, _START_SEND | framing)
        self._since = self._ticks_ms()

    def _result(self):
        """None while the exchange runs; _SILENT (nobody answered), _GARBLED, _COLLIDED (the
        received bits are in self._buf, the collision's CollPos in self._collpos), or the
        number of bytes received into self._buf."""
        irq = self._read(_COM_IRQ)
        if not irq & (_IRQ_RX | _IRQ_TIMER | _IRQ_ERR):
            # Transceive never ends by itself (10.3.1.8): IdleIRq here means the chip dropped
            # the command (it reset itself); no IRQ at all for long means it hangs
            if irq & _IRQ_IDLE or self._waited() >= _GIVE_UP_MS:
                self.errors += 1
                self._restart()
            return None
        if not irq & _IRQ_RX:
            return _SILENT if irq & _IRQ_TIMER else _GARBLED
        err = self._read(_ERROR)
        if err & _ERR_OTHER:
            self.errors += 1
            return _GARBLED
        n = self._read(_FIFO_LEVEL)
        if n > len(self._buf):
            self.errors += 1
            return _GARBLED
        for i in range(n):
            self._buf[i] = self._read(_FIFO_DATA)
        if err & _ERR_COLL:
            coll = self._read(_COLL)
            if coll & _COLL_POS_NOT_VALID:
                self.errors += 1
                return _GARBLED
            self._collpos = (coll & 0x1F) or 32
            self._got = n
            return _COLLIDED
        return n

    _collpos = 0
    _got = 0

    def busy(self):
        """Whether a tag is being read (poll() will go on with it) or the chip is starting."""
        return self._state != _IDLE and self._state != _OFF

    def poll(self):
        """Advance by one step. Returns a UID (bytes) when a tag has just been read and
        halted, else None."""
        state = self._state
        if state == _OFF:
            if self._waited() >= _RETRY_MS:
                self._restart()
            return None
        if state == _WAKE:
            if self._read(_COMMAND) & _POWER_DOWN:
                if self._waited() >= _WAKE_MS:
                    self._off()
                return None
            if self._read(_VERSION) not in VERSIONS:
                self._off()
                return None
            self._configure()
            return None
        buf = self._buf
        if state == _IDLE:
            buf[0] = _WUPA if self.wake else _REQA  # a short frame: 7 bits
            self.wake = False
            self._transceive(1, 7)
            self._state = _REQ
            return None
        n = self._result()
        if n is None:
            return None
        if state == _HALT:
            # ISO 14443-3 6.4.4: no answer within 1 ms is the HLTA's success; any answer
            # means it failed. The UID was complete either way; a tag that did not halt is
            # read again and CardReads drops the repeat.
            self._state = _IDLE
            if n != _SILENT:
                self.errors += 1
            return bytes(self._uid[: self._uid_len])
        if state == _REQ:
            if n == _SILENT:
                self.quiet += 1
                self._state = _IDLE
                return None
            self.quiet = 0
            if n == _GARBLED:
                self._state = _IDLE
                return None
            # an ATQA, or several that collided (tags of different kinds): a tag is there
            self._level = 0
            self._uid_len = 0
            self._anticoll(0)
            return None
        if n == _SILENT or n == _GARBLED:
            if n == _SILENT:
                self.errors += 1  # the tag left mid-read
            self._state = _IDLE
            return None
        if state == _ANTICOLL:
            self._anticoll_result(n)
        elif state == _SELECT:
            self._select_result(n)
        return None

    def _anticoll(self, known):
        """ANTICOLLISION at the current level with the first `known` bits of self._cl: NVB
        says how many bytes and bits are sent (14443-3 6.4.3.3); the tags answer the rest,
        their first bit stored at bit `known % 8` of the FIFO's first byte (RxAlign)."""
        self._known = known
        buf = self._buf
        buf[0] = _SEL[self._level]
        full = known >> 3
        part = known & 7
        buf[1] = ((2 + full) << 4) | part
        n = full + (1 if part else 0)
        for i in range(n):
            buf[2 + i] = self._cl[i]
        self._transceive(2 + n, part << 4 | part)
        self._state = _ANTICOLL

    def _merge(self, got):
        """Puts the received bytes (self._buf[:got]) into self._cl after the known bits."""
        known = self._known
        first = known >> 3
        keep = (1 << (known & 7)) - 1  # the known bits of the first byte
        cl = self._cl
        buf = self._buf
        for i in range(got):
            j = first + i
            if j > 4:
                break
            cl[j] = (cl[j] & keep) | (buf[i] & ~keep & 0xFF) if i == 0 else buf[i]

    def _anticoll_result(self, n):
        known = self._known
        if n == _COLLIDED:
            self._merge(self._got)
            # CollPos counts the FIFO's bits from 1 (the RxAlign offset included, MFRC522
            # 9.3.1.15): bit c of the cascade level, from 0, collided
            c = (known >> 3) * 8 + self._collpos - 1
            if c < known or c >= 32:
                self.errors += 1  # a position that cannot be: start over
                self._state = _IDLE
                return
            self.collisions += 1
            # the bits before c are valid; choose 1 for bit c (14443-3 6.4.3.1 step 7) and
            # ask again: only tags with a 1 there answer
            self._cl[c >> 3] = (self._cl[c >> 3] & ((1 << (c & 7)) - 1)) | (1 << (c & 7))
            if c + 1 < 32:
                self._anticoll(c + 1)
                return
            cl = self._cl  # the whole UID part is known: the BCC follows from it
            cl[4] = cl[0] ^ cl[1] ^ cl[2] ^ cl[3]
            self._select()
            return
        if n != 5 - (known >> 3):
            self.errors += 1
            self._state = _IDLE
            return
        self._merge(n)
        cl = self._cl
        if cl[0] ^ cl[1] ^ cl[2] ^ cl[3] != cl[4]:
            self.errors += 1  # bad BCC: noise
            self._state = _IDLE
            return
        self._select()

    def _select(self):
        buf = self._buf
        buf[0] = _SEL[self._level]
        buf[1] = 0x70
        for i in range(5):
            buf[2 + i] = self._cl[i]
        buf[7], buf[8] = crc_a(buf, 7)
        self._transceive(9)
        self._state = _SELECT

    def _select_result(self, n):
        buf = self._buf
        if n != 3 or crc_a(buf, 1) != (buf[1], buf[2]):
            self.errors += 1  # SAK damaged (14443-3 6.4.3.4: SAK is sent with CRC_A)
            self._state = _IDLE
            return
        cl = self._cl
        if buf[0] & _SAK_MORE:
            # not the last level: this level's first byte is the cascade tag (by position)
            if cl[0] != _CASCADE_TAG or self._level >= 2:
                self.errors += 1
                self._state = _IDLE
                return
            for i in range(1, 4):
                self._uid[self._uid_len] = cl[i]
                self._uid_len += 1
            self._level += 1
            self._anticoll(0)
            return
        for i in range(4):
            self._uid[self._uid_len] = cl[i]
            self._uid_len += 1
        buf[0] = _HLTA
        buf[1] = 0x00
        buf[2], buf[3] = crc_a(buf, 2)
        self._transceive(4)
        self._state = _HALT
