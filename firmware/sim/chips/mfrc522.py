# The card reader (sim/chips/__init__.py): NXP MFRC522 behind SPI, with the tags in its field.
#   [MFRC522]  NXP MFRC522 product data sheet rev. 3.9 (sections 8, 9, 10)
#   [14443-3]  ISO/IEC 14443-3:2001 Type A (6.1 bit rate, 6.2 frames and timing)
# What it models and does not: MFRC522Chip's own description.
from micropython import const

from sim.chips import Pin, Rng
from sim.chips.ntag213 import ACTIVE, HALT, IDLE, READY, REQA, WUPA, Tag, coupled, crc_a

# registers [MFRC522 9.2]
_COMMAND = const(0x01)
_COM_IRQ = const(0x04)
_DIV_IRQ = const(0x05)
_ERROR = const(0x06)
_FIFO_DATA = const(0x09)
_FIFO_LEVEL = const(0x0A)
_CONTROL = const(0x0C)
_BIT_FRAMING = const(0x0D)
_COLL = const(0x0E)
_MODE = const(0x11)
_TX_MODE = const(0x12)
_RX_MODE = const(0x13)
_TX_CONTROL = const(0x14)
_CRC_H = const(0x21)
_CRC_L = const(0x22)
_RF_CFG = const(0x26)
_T_MODE = const(0x2A)
_T_PRESCALER = const(0x2B)
_T_RELOAD_H = const(0x2C)
_T_RELOAD_L = const(0x2D)
_VERSION = const(0x37)
# reset values [MFRC522 9.2/9.3]: registers not named here reset to 00h
_RESET = bytearray(64)  # every register's reset value, by address
for _reg, _value in (
    (0x01, 0x20),
    (0x02, 0x80),
    (0x04, 0x14),
    (0x07, 0x21),
    (0x0B, 0x08),
    (0x0C, 0x10),
    (0x0E, 0xA0),
    (0x11, 0x3F),
    (0x14, 0x80),
    (0x16, 0x10),
    (0x17, 0x84),
    (0x18, 0x84),
    (0x19, 0x4D),
    (0x1C, 0x62),
    (0x1F, 0xEB),
    (0x21, 0xFF),
    (0x22, 0xFF),
    (0x24, 0x26),
    (0x26, 0x48),
    (0x27, 0x88),
    (0x28, 0x20),
    (0x29, 0x20),
):
    _RESET[_reg] = _value
# commands [MFRC522 10.3]
_IDLE_CMD = const(0x0)
_CALC_CRC = const(0x3)
_NO_CMD_CHANGE = const(0x7)
_TRANSCEIVE = const(0xC)
_SOFT_RESET = const(0xF)
# ComIrqReg bits [MFRC522 9.3.1.5]
_TX_IRQ = const(0x40)
_RX_IRQ = const(0x20)
_IDLE_IRQ = const(0x10)
_ERR_IRQ = const(0x02)
_TIMER_IRQ = const(0x01)
_START_SEND = const(0x80)  # BitFramingReg [9.3.1.14]
# RFCfgReg RxGain, bits 6-4 [9.3.3.6, table 98]: the receiver's gain in dB
RX_GAIN_DB = (18, 23, 18, 23, 33, 38, 43, 48)
# ErrorReg bits [MFRC522 9.3.1.7]
_BUFFER_OVFL = const(0x10)
_COLL_ERR = const(0x08)
_PARITY_ERR = const(0x02)

BIT_US_X100 = 944  # [14443-3 6.1] 106 kbit/s: one bit is 128/fc = 9.44 us
FDT_US = 91  # [14443-3 6.2.1.1] frame delay time n = 9: 1236/fc after the PCD's last bit
FIFO_SIZE = 64  # [MFRC522 8.3]


def _air_us(nbits):
    """Time on the air of a frame of nbits data bits: a parity bit per byte, start and end."""
    return (nbits + nbits // 8 + 2) * BIT_US_X100 // 100


class MFRC522Chip:
    """The NXP MFRC522 behind SPI (NSS `nss`, reset/power-down `nrstpd`) with the tags in its
    field (`tags`). Time comes from now_us(), plus what the SPI accesses themselves take, so a
    driver polling it sees exchanges end as on the air.

    Modelled: the SPI address byte and multi-byte access [8.1.2]; the FIFO, 64 bytes, flush and
    overflow [8.3, 9.3.1.10-11]; ComIrqReg/DivIrqReg with their Set bit [9.3.1.5-6]; ErrorReg
    [9.3.1.7]; BitFramingReg StartSend, RxAlign, TxLastBits [9.3.1.14]; ControlReg RxLastBits
    and the timer start/stop bits [9.3.1.13]; CollReg ValuesAfterColl, CollPosNotValid, CollPos
    [9.3.1.15]; the timer: TAuto, prescaler, reload, started at the end of a transmission and
    stopped by the 5th bit received [8.5, 9.3.3.10-11]; the antenna switch, whose field powers
    the tags [9.3.2.5]; CRC coprocessor, CalcCRC with ModeReg's preset [9.3.2.2, 10.3.1.4]; the
    Idle, CalcCRC, Transceive and SoftReset commands [10.3.1]; SoftReset and NRSTPD putting
    every register back to its reset value, with PowerDown read as 1 until the oscillator
    runs [9.3.1.2, 8.6.1, 8.8]; VersionReg [9.3.4.8].
    Not modelled (recorded as a violation if a driver uses them): Transmit/Receive/Mem/
    MFAuthent/RandomID commands, the chip's own CRC on send and receive (TxCRCEn/RxCRCEn).

    The one reading the datasheet leaves open: CollPos counts the bits of the received frame
    as the FIFO stores them, so the RxAlign offset is included (bit 1 = bit 0 of the first FIFO
    byte) [9.3.1.15 "bit position of the first detected collision in a received frame"].

    Strict about the order of an exchange [10.3.1.8 Transceive: "each transmit process must
    be started by setting the BitFramingReg register's StartSend bit to logic 1"; 9.3.1.14]:
    a frame goes on the air when Transceive is the command and StartSend is set, whichever
    came second, not on any register write. StartSend is kept as written: the datasheet says
    it starts a transmission, not that it clears itself, and the reference drivers clear it
    themselves (miguelbalboa/rfid writes BitFramingReg before every command, wendlers'
    micropython-mfrc522 clears the bit after every exchange). Recorded as violations: a
    Transceive written while StartSend is still set (its frame leaves at once, with
    whatever bit count BitFramingReg held), a frame sent with BitFramingReg not written for
    it (the last frame's bit count), and a Transceive given up before StartSend (nothing
    was sent). RFCfgReg's receiver gain is kept and reported (rx_gain_db); the field's
    strength and the receiver's sensitivity are not modelled, so no range depends on it.

    Faults to inject: `hang()` (commands never end until a reset), `brownout()` (every
    register back to its reset value, silently), `answer = False` (no chip: MISO stays low),
    `noise` (the chance that a tag's answer reaches the chip damaged: a parity error, two bits
    flipped in a byte, or lost)."""

    def __init__(self, now_us, version=0x92, startup_us=1000, noise=0.0, seed=7, spi_us=15):
        self._now_us = now_us
        self.version = version
        self.startup_us = startup_us
        self.noise = noise
        self.spi_us = spi_us  # each SPI access: a MicroPython call on an ESP32 (assumed)
        self._rng = Rng(seed)
        self.nss = Pin(1)
        self.nrstpd = Pin(1, self._on_nrstpd)
        self.tags = []
        self.violations = []
        self.answer = True
        self._hung = False
        self._t = 0
        self.regs = bytearray(64)
        self._fifo = bytearray(FIFO_SIZE)  # preallocated: the model churns no heap per access
        self._fr = 0  # FIFO read index
        self._fn = 0  # FIFO write index (level = _fn - _fr)
        self._field = False
        self._crc = None  # CalcCRC running: the CRC so far
        self._ex = None  # the exchange on the air: see _transmit
        self._armed = False  # Transceive written, its frame not sent yet (StartSend awaited)
        self._framed = False  # BitFramingReg written since the last frame went
        self._ready_at = 0
        self.exchanges = 0
        self._reset()
        self._ready_at = 0  # powered with the board: already running

    # --- time, power and faults ----------------------------------------------------

    def now(self):
        t = self._now_us()
        if t > self._t:
            self._t = t
        return self._t

    def violate(self, why):
        if len(self.violations) < 20 and why not in self.violations:
            self.violations.append(why)

    def _reset(self):
        """[MFRC522 10.3.1.10, 8.6.1]: every register to its reset value; the FIFO kept
        (SoftReset) but the command and the exchange gone; the antenna off (TxControlReg
        80h), so every tag loses power; PowerDown reads 1 until the oscillator is up [8.8]."""
        regs = self.regs
        for i in range(64):
            regs[i] = _RESET[i]
        regs[_VERSION] = self.version
        self._ex = None
        self._crc = None
        self._hung = False
        self._armed = False
        self._framed = False
        self._set_field()
        self._ready_at = self.now() + self.startup_us

    def _starting(self):
        return self.now() < self._ready_at

    def _on_nrstpd(self, v):
        # [8.6.1]: NRSTPD low = hard power-down (everything off); its rising edge resets
        self._powered = bool(v)
        if v:
            self._flush()
            self._reset()
        else:
            self._field_off()

    _powered = True

    def power_cut(self):
        """The board's power goes and comes back: a hard reset, FIFO lost."""
        self._flush()
        self._powered = True
        self._reset()

    def rx_gain_db(self):
        """The receiver's gain RFCfgReg sets [9.3.3.6]."""
        return RX_GAIN_DB[(self.regs[_RF_CFG] >> 4) & 0x07]

    def hang(self):
        self._hung = True

    def brownout(self):
        """Supply dip: the chip resets itself, the driver is not told."""
        self._flush()
        self._reset()
        self._ready_at = self.now()

    def _field_off(self):
        if self._field:
            for t in self.tags:
                t.power(False)
        self._field = False

    def _set_field(self):
        on = self._powered and not self.regs[_COMMAND] & 0x10 and self.regs[_TX_CONTROL] & 0x03
        if on and not self._field:
            self._field = True
            for t in self.tags:
                t.power(False)
            self._couple()
        elif not on:
            self._field_off()

    def _couple(self):
        """Powers the tags the field can power: a tag lying within ALIGNED_MM of another
        detunes with it and stays off [ntag213.py: STACK, COIL]; one that no longer does
        powers up fresh (IDLE), one that now does loses its state."""
        tags = self.tags
        for t in tags:
            detuned = False
            for u in tags:
                if u is not t and coupled(t, u):
                    detuned = True
                    break
            on = self._field and not detuned
            if on != (t.state != 0):
                t.power(on)

    # --- what the simulator does with tags ---------------------------------------------

    def lay(self, tag, x=0, y=0):
        """A tag enters the field (Tag or UID bytes), its sticker at (x, y) mm from the card
        spot's centre; powered at once if the field is on and no other sticker lies within
        ALIGNED_MM of it (those it couples with lose their power too)."""
        if not isinstance(tag, Tag):
            tag = Tag(tag)
        tag.x = x
        tag.y = y
        tag.power(False)
        self.tags.append(tag)
        self._couple()
        return tag

    def lift(self, uid=None):
        """A tag leaves the field (every tag if uid is None); one it detuned powers up."""
        for t in self.tags:
            if uid is None or t.uid == bytes(uid):
                t.power(False)  # out of the field
        if uid is None:
            self.tags = []
        else:
            uid = bytes(uid)
            self.tags = [t for t in self.tags if t.uid != uid]
        self._couple()

    # --- SPI [MFRC522 8.1.2] -----------------------------------------------------

    def spi_fault(self, baudrate, mode):
        # [8.1.2]: data on MOSI and MISO stable on the rising edge of SCK, changed on the
        # falling one (SPI modes 0 and 3), MSB first, up to 10 Mbit/s
        if mode not in (0, 3):
            return "SPI mode %d: the MFRC522 samples on the rising edge (modes 0, 3)" % mode
        if baudrate > 10000000:
            return "SPI at %d Hz: the MFRC522 allows 10 MHz" % baudrate
        return None

    def exchange(self, tx, rx, wire_us=0):
        self._t = self.now() + self.spi_us + wire_us
        if not self._powered or not self.answer:
            if rx is not None:
                for i in range(len(rx)):
                    rx[i] = 0
            return
        a = tx[0]
        if a & 0x01:
            self.violate("SPI address byte with bit 0 set [8.1.2.3]")
        if a & 0x80:  # read [8.1.2.1]: each byte sent names the next register to read
            if rx is not None:
                rx[0] = 0
            for i in range(1, len(tx)):
                v = self._read((tx[i - 1] >> 1) & 0x3F)
                if rx is not None:
                    rx[i] = v
                if tx[i] and not tx[i] & 0x80:
                    self.violate("a write address inside a read [8.1.2.1]")
            return
        reg = (a >> 1) & 0x3F  # write [8.1.2.2]: every data byte to the same register
        if rx is not None:
            for i in range(len(rx)):
                rx[i] = 0
        for i in range(1, len(tx)):
            self._write(reg, tx[i])

    # --- registers ---------------------------------------------------------------------

    def _read(self, reg):
        self._advance()
        regs = self.regs
        if reg == _COMMAND:
            v = regs[_COMMAND]
            return v | 0x10 if self._starting() else v  # PowerDown 1 until ready [9.3.1.2]
        if self._starting():
            return _RESET[reg] if reg != _VERSION else self.version
        if reg == _FIFO_DATA:
            if self._fr >= self._fn:
                return 0
            self._fr += 1
            return self._fifo[self._fr - 1]
        if reg == _FIFO_LEVEL:
            return self._fn - self._fr
        return regs[reg]

    def _write(self, reg, v):
        if self._starting():
            self.violate("register %02Xh written while PowerDown still reads 1 [9.3.1.2]" % reg)
            return
        self._advance()
        regs = self.regs
        if reg == _COMMAND:
            cmd = v & 0x0F
            if cmd == _SOFT_RESET:
                self._reset()
                return
            if self._armed and cmd != _NO_CMD_CHANGE:
                self._armed = False
                self.violate("Transceive ended before StartSend: its frame never went [10.3.1.8]")
            was_down = regs[_COMMAND] & 0x10
            regs[_COMMAND] = (v & 0x30) | (regs[_COMMAND] & 0x0F if cmd == _NO_CMD_CHANGE else cmd)
            if was_down and not v & 0x10:  # leaving soft power-down: the oscillator restarts
                self._ready_at = self.now() + self.startup_us
            if v & 0x10:  # soft power-down [8.6.2]: the transmitter stops with it
                self._ex = None
            elif cmd == _IDLE_CMD:
                self._ex = None  # stops any command [10.3.1.1]; IdleIRq not set by the host
                self._crc = None
            elif cmd == _CALC_CRC:
                self._crc = self._crc_preset()
                self._crc_feed()
            elif cmd == _TRANSCEIVE:
                self._ex = None
                self._armed = True
                if regs[_BIT_FRAMING] & _START_SEND:
                    self.violate(
                        "Transceive written with StartSend still set: the frame left at once, "
                        "with the bit count BitFramingReg held [9.3.1.14, 10.3.1.8]"
                    )
                    self._transmit()
            elif cmd != _NO_CMD_CHANGE:
                self.violate("command %Xh is not modelled" % cmd)
            self._set_field()
            return
        if reg in (_COM_IRQ, _DIV_IRQ):  # [9.3.1.5-6]: bit 7 says set or clear the marked bits
            if v & 0x80:
                regs[reg] |= v & 0x7F
            else:
                regs[reg] &= ~v & 0xFF
            return
        if reg == _ERROR or reg == _VERSION:
            return  # read-only
        if reg == _FIFO_DATA:
            self._push(v)
            if self._crc is not None:
                self._crc_feed()
            return
        if reg == _FIFO_LEVEL:
            if v & 0x80:  # FlushBuffer [9.3.1.11]
                self._flush()
                regs[_ERROR] &= ~_BUFFER_OVFL & 0xFF
            return
        if reg == _CONTROL:
            # TStopNow / TStartNow [9.3.1.13]; RxLastBits read-only
            if v & 0x80 and self._ex:
                self._ex[5] = None
            return
        if reg == _COLL:
            regs[_COLL] = (v & 0x80) | (regs[_COLL] & 0x7F)  # only ValuesAfterColl is RW
            return
        if reg in (_TX_MODE, _RX_MODE) and v & 0x80:
            self.violate("the chip's own CRC (TxCRCEn/RxCRCEn) is not modelled")
        if reg == _BIT_FRAMING:
            # a frame starts as StartSend is set in Transceive [10.3.1.8]; the bit count is
            # this frame's from here on
            start = v & _START_SEND and not regs[reg] & _START_SEND
            regs[reg] = v
            self._framed = True
            if start and regs[_COMMAND] & 0x0F == _TRANSCEIVE:
                self._transmit()
            return
        regs[reg] = v
        if reg == _TX_CONTROL:
            self._set_field()

    # --- FIFO [MFRC522 8.3] ---------------------------------------------------------

    def _flush(self):
        self._fr = self._fn = 0

    def _push(self, v):
        if self._fn - self._fr >= FIFO_SIZE:
            self.regs[_ERROR] |= _BUFFER_OVFL  # [9.3.1.7]: written to a full FIFO
            return False
        if self._fn == FIFO_SIZE:  # room at the front: move what is unread there
            n = self._fn - self._fr
            self._fifo[:n] = self._fifo[self._fr : self._fn]
            self._fr, self._fn = 0, n
        self._fifo[self._fn] = v
        self._fn += 1
        return True

    # --- CRC coprocessor [MFRC522 10.3.1.4] ------------------------------------------

    def _crc_preset(self):
        return (0x0000, 0x6363, 0xA671, 0xFFFF)[self.regs[_MODE] & 0x03]  # [9.3.2.2]

    def _crc_feed(self):
        # the FIFO's bytes go to the coprocessor as they come; CRCIRq when all are processed
        crc = crc_a(self._fifo[self._fr : self._fn], self._fn - self._fr, self._crc)
        self._crc = crc
        self._flush()
        self.regs[_CRC_H] = crc >> 8
        self.regs[_CRC_L] = crc & 0xFF
        self.regs[_DIV_IRQ] |= 0x04

    # --- the air ---------------------------------------------------------------------

    def _timer_us(self):
        # [8.5]: f_timer = 13.56 MHz / (2 * TPrescaler + 1); period = (TReload + 1) / f_timer
        regs = self.regs
        presc = (regs[_T_MODE] & 0x0F) << 8 | regs[_T_PRESCALER]
        reload = regs[_T_RELOAD_H] << 8 | regs[_T_RELOAD_L]
        return (reload + 1) * (2 * presc + 1) * 100 // 1356

    def _transmit(self):
        """StartSend in Transceive [10.3.1.8]: the FIFO goes on the air (TxLastBits bits of its
        last byte), the tags in the field answer, the receiver takes it into the FIFO."""
        regs = self.regs
        self.exchanges += 1
        if not self._framed:
            self.violate(
                "a frame sent with the last frame's bit count: BitFramingReg not written for it "
                "[9.3.1.14 TxLastBits]"
            )
        self._armed = False
        self._framed = False
        data = bytes(self._fifo[self._fr : self._fn])
        self._flush()
        last = regs[_BIT_FRAMING] & 0x07
        nbits = len(data) * 8 - (8 - last if last else 0)
        regs[_ERROR] &= _BUFFER_OVFL  # error flags cleared as the receiver starts [9.3.1.7]
        now = self.now()
        tx_end = now + _air_us(nbits)
        answer = None
        if self._field and nbits > 0:
            # a deck lies in the field, mostly halted: the tags' own rule for what they ignore
            # (HALT all but WUPA, IDLE all but REQA/WUPA [NTAG 8.4.1, 8.4.6]) spares the calls
            short = data[0] & 0x7F if nbits == 7 else 0
            wakes = IDLE if short == REQA else HALT if short == WUPA else -1
            answers = []
            for tag in self.tags:
                s = tag.b[0]
                if s == READY or s == ACTIVE or s == IDLE and wakes >= 0 or s == wakes:
                    answers.append(tag.hear(data, nbits))
            answer = self._superpose(answers)
        timer_end = tx_end + self._timer_us() if regs[_T_MODE] & 0x80 else None  # TAuto
        if self._hung:
            self._ex = None
            return
        if answer is not None:
            rx_start = tx_end + FDT_US
            if timer_end is not None and timer_end < rx_start + 5 * BIT_US_X100 // 100:
                pass  # the timer ran out before the answer's 5th bit [9.3.3.10]: it fires
            else:
                timer_end = None  # stopped by the 5th bit received
            done = rx_start + _air_us(answer[1])
        else:
            done = None
        # [tx_end, rx done or None, answer, RcvOff at the start, ..., timer end or None]
        self._ex = [tx_end, done, answer, regs[_COMMAND] & 0x20, 0, timer_end]

    def _superpose(self, answers):
        """Every answering tag modulates at once: equal bits read clean, the first differing
        bit is a collision [14443-3 6.4.3.1]. Returns (data, nbits, align, collision bit
        index or -1, error flags) or None for silence."""
        got = [a for a in answers if a is not None]
        if not got:
            return None
        data, nbits, align = got[0]
        data = bytearray(data)
        coll = -1
        if len(got) > 1:
            lo = bytearray(data)
            for d, n, al in got[1:]:
                if n != nbits or al != align:
                    nbits = min(nbits, n)
                for j in range(min(len(data), len(d))):
                    data[j] |= d[j]
                    lo[j] &= d[j]
            for i in range(nbits):
                p = align + i
                if (data[p >> 3] ^ lo[p >> 3]) >> (p & 7) & 1:
                    coll = i
                    break
        err = 0
        if coll < 0 and self.noise and self._rng.below(1000000) < int(self.noise * 1000000):
            kind = self._rng.below(3)
            if kind == 0:
                return None  # lost on the way
            p = align + self._rng.below(nbits)
            data[p >> 3] ^= 1 << (p & 7)
            if kind == 1:
                err = _PARITY_ERR  # one bit flipped: the byte's parity catches it
            else:
                q = (p & ~7) + (p + 1 + self._rng.below(7)) % 8  # a second bit, same byte
                if q < align + nbits:
                    data[q >> 3] ^= 1 << (q & 7)  # even count: parity passes, CRC/BCC must catch
        return bytes(data), nbits, align, coll, err

    def _advance(self):
        """Apply what the air has done by now to the registers."""
        ex = self._ex
        if ex is None:
            return
        now = self.now()
        regs = self.regs
        if now >= ex[0] and not ex[4]:
            regs[_COM_IRQ] |= _TX_IRQ
            ex[4] = 1
        if ex[5] is not None and now >= ex[5]:
            regs[_COM_IRQ] |= _TIMER_IRQ
            ex[5] = None
        if ex[1] is not None and now >= ex[1]:
            if not ex[3]:  # RcvOff: the receiver's analog part is off [9.3.1.2]
                self._receive(ex[2])
            ex[1] = None
        if ex[1] is None and ex[5] is None and ex[4]:
            self._ex = None  # Transceive stays active, listening [10.3.1.8]: nothing more comes

    def _receive(self, answer):
        data, nbits, align, coll, err = answer
        regs = self.regs
        rx_align = (regs[_BIT_FRAMING] >> 4) & 0x07
        # [9.3.1.14] RxAlign: the first bit received is stored at that bit position of the
        # first FIFO byte; the rest follow
        total = rx_align + nbits
        out = bytearray((total + 7) // 8)
        for i in range(nbits):
            p = align + i
            if data[p >> 3] >> (p & 7) & 1:
                q = rx_align + i
                out[q >> 3] |= 1 << (q & 7)
        regs[_COLL] = (regs[_COLL] & 0x80) | 0x20  # CollPosNotValid until a collision says
        if coll >= 0:
            err |= _COLL_ERR
            q = rx_align + coll
            if not regs[_COLL] & 0x80:  # ValuesAfterColl 0: bits after it cleared [9.3.1.15]
                for k in range(q + 1, total):
                    out[k >> 3] &= ~(1 << (k & 7))
            if self._rng.below(2):  # the collided bit's own value: not specified
                out[q >> 3] ^= 1 << (q & 7)
            if q < 32:
                regs[_COLL] = (regs[_COLL] & 0x80) | ((q + 1) & 0x1F)  # 0 means the 32nd bit
        for b in out:
            if not self._push(b):
                err |= _BUFFER_OVFL
                break
        regs[_CONTROL] = (regs[_CONTROL] & 0xF8) | (total & 7)  # RxLastBits [9.3.1.13]
        regs[_ERROR] |= err
        regs[_COM_IRQ] |= _RX_IRQ | (_ERR_IRQ if err else 0)
