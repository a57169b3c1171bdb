# MFRC522 (NXP, 13.56 MHz ISO 14443A) on SPI: finds the tag laid on the reader and reads its
# UID, 4 or 7 bytes (NTAG213 stickers have 7), without ever blocking the scan loop.
#
# Each poll() does at most one short SPI exchange with the chip and returns: a tag exchange
# (REQA, anticollision, select per cascade level, halt) is started, then its completion is
# checked on the next polls. The chip's own timer ends an exchange that gets no answer (no
# tag), so a poll never waits for the air. Register names and values: MFRC522 datasheet
# (NXP MFRC522 rev 3.9), section 9; PICC commands: ISO/IEC 14443-3.
#
# Every tag read is halted (HLTA): a halted tag stays silent until it leaves the field, so a
# card resting on the reader is read once, and laid again it is read again.
from micropython import const

_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_CONTROL = const(0x14)
_TX_ASK = const(0x15)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)

_CMD_IDLE = const(0x00)
_CMD_TRANSCEIVE = const(0x0C)
_CMD_SOFT_RESET = const(0x0F)

_IRQ_RX = const(0x20)
_IRQ_IDLE = const(0x10)
_IRQ_ERR = const(0x02)
_IRQ_TIMER = const(0x01)

_REQA = const(0x26)
_SEL = (0x93, 0x95, 0x97)  # anticollision / select, cascade levels 1-3
_CASCADE_TAG = const(0x88)

VERSIONS = (0x88, 0x90, 0x91, 0x92, 0x12, 0xB2)  # MFRC522 v0/v1/v2 and common clones

# states of the tag exchange
_IDLE = const(0)
_REQ = const(1)
_ANTICOLL = const(2)
_SELECT = const(3)
_HALT = const(4)

GIVE_UP_POLLS = const(40)  # an exchange the chip never ends (it should in 25 ms): reset


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
    def __init__(self, spi, cs, rst=None):
        self._spi = spi
        self._cs = cs
        self._rst = rst
        self._tx = bytearray(2)
        self._rx = bytearray(2)
        self._buf = bytearray(10)  # a tag frame: at most 9 bytes + spare
        self._uid = bytearray(10)
        self._uid_len = 0
        self._level = 0
        self._state = _IDLE
        self._waited = 0
        self.errors = 0  # exchanges that failed (noise, collisions, lost tags)
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

    def init(self):
        """Reset and configure the chip; ReaderError when no MFRC522 answers."""
        if self._rst is not None:
            self._rst.value(1)
        self._write(_COMMAND, _CMD_SOFT_RESET)
        version = self._read(_VERSION)
        if version not in VERSIONS:
            self.ok = False
            raise ReaderError("no MFRC522 answers on SPI (VersionReg = 0x%02x)" % version)
        # timer: prescaler 0xA9 -> 40 kHz tick (13.56 MHz / (2 * 169 + 1)), reload 1000:
        # 25 ms, started automatically at the end of each transmission (TAuto)
        self._write(_T_MODE, 0x80)
        self._write(_T_PRESCALER, 0xA9)
        self._write(_T_RELOAD_H, 0x03)
        self._write(_T_RELOAD_L, 0xE8)
        self._write(_TX_ASK, 0x40)  # 100 % ASK modulation (ISO 14443A)
        self._write(_MODE, 0x3D)  # CRC preset 0x6363
        self._write(_TX_CONTROL, self._read(_TX_CONTROL) | 0x03)  # antenna on
        self.ok = True
        return version

    # --- the exchange, one step per poll -------------------------------------------

    def _transceive(self, data, n, bits=0):
        self._write(_COMMAND, _CMD_IDLE)
        self._write(_COM_IRQ, 0x7F)  # clear every interrupt request
        self._write(_FIFO_LEVEL, 0x80)  # flush the FIFO
        for i in range(n):
            self._write(_FIFO_DATA, data[i])
        self._write(_COMMAND, _CMD_TRANSCEIVE)
        self._write(_BIT_FRAMING, 0x80 | bits)  # StartSend
        self._waited = 0

    def _result(self):
        """None while the exchange runs; -1 when it failed or nobody answered; else the
        number of bytes received (in self._buf)."""
        irq = self._read(_COM_IRQ)
        if not irq & (_IRQ_RX | _IRQ_IDLE | _IRQ_TIMER | _IRQ_ERR):
            self._waited += 1
            if self._waited < GIVE_UP_POLLS:
                return None
            self.errors += 1  # the chip never ended it: start over
            return -1
        self._write(_BIT_FRAMING, 0)
        if irq & _IRQ_TIMER and not irq & _IRQ_RX:
            return -1  # no tag answered
        if self._read(_ERROR) & 0x1B:  # buffer overflow, collision, parity, protocol
            self.errors += 1
            return -1
        n = self._read(_FIFO_LEVEL)
        if n > len(self._buf):
            self.errors += 1
            return -1
        for i in range(n):
            self._buf[i] = self._read(_FIFO_DATA)
        return n

    def busy(self):
        """Whether an exchange with a tag is under way (poll() will continue it)."""
        return self._state != _IDLE

    def poll(self):
        """Advance the tag exchange by one step. Returns a new UID (bytes) when a tag has
        just been read and halted, else None."""
        buf = self._buf
        state = self._state
        if state == _IDLE:
            buf[0] = _REQA
            self._write(_COLL, 0x80)  # keep received bits after a collision clear
            self._transceive(buf, 1, 7)  # REQA is a short frame: 7 bits
            self._state = _REQ
            return None
        n = self._result()
        if n is None:
            return None
        if state == _HALT:  # a halted tag does not answer: the timeout is the success
            self._state = _IDLE
            return bytes(self._uid[: self._uid_len])
        if n < 0:
            self._state = _IDLE
            return None
        if state == _REQ:
            if n != 2:
                self._state = _IDLE
                return None
            self._level = 0
            self._uid_len = 0
            self._anticoll()
        elif state == _ANTICOLL:
            if n != 5 or buf[0] ^ buf[1] ^ buf[2] ^ buf[3] != buf[4]:
                self.errors += 1  # bad BCC: noise or two tags answering
                self._state = _IDLE
                return None
            self._select()
        elif state == _SELECT:
            if n != 3:
                self._state = _IDLE
                return None
            if buf[0] & 0x04:  # SAK: UID not complete, next cascade level
                self._level += 1
                if self._level > 2:
                    self._state = _IDLE
                    return None
                self._anticoll()
            else:
                self._halt()
        return None

    def _anticoll(self):
        buf = self._buf
        buf[0] = _SEL[self._level]
        buf[1] = 0x20
        self._transceive(buf, 2)
        self._state = _ANTICOLL

    def _select(self):
        buf = self._buf
        # buf[0:5] holds the 4 UID bytes (or cascade tag + 3) and BCC from anticollision
        start = 1 if buf[0] == _CASCADE_TAG else 0
        for i in range(start, 4):
            self._uid[self._uid_len] = buf[i]
            self._uid_len += 1
        for i in range(4, -1, -1):
            buf[i + 2] = buf[i]
        buf[0] = _SEL[self._level]
        buf[1] = 0x70
        buf[7], buf[8] = crc_a(buf, 7)
        self._transceive(buf, 9)
        self._state = _SELECT

    def _halt(self):
        buf = self._buf
        buf[0] = 0x50
        buf[1] = 0x00
        buf[2], buf[3] = crc_a(buf, 2)
        self._transceive(buf, 4)
        self._state = _HALT
