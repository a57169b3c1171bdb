# Stand-ins for the board's chips, at the bus level, so the real drivers (hal/) run in the
# simulator and in tests: a 74HC165 chain behind an SPI bus, an MFRC522 with NFC tags in
# its field, pins. Simulated, not measured: they follow the datasheets' protocol, not the
# chips' analog behaviour. Never deployed.


class Pin:
    """A Pin-like object: value() reads, value(v) writes and calls on_change."""

    def __init__(self, value=1, on_change=None):
        self._v = value
        self.on_change = on_change

    def value(self, v=None):
        if v is None:
            return self._v
        old = self._v
        self._v = 1 if v else 0
        if self.on_change and old != self._v:
            self.on_change(self._v)
        return None


class ShiftChainBus:
    """74HC165 chain: the latch's low level loads `inputs()` (a bytearray, bit i = sensor i),
    then readinto shifts it out MSB first per register (hardware/wiring.md)."""

    def __init__(self, inputs):
        self._inputs = inputs
        self._loaded = bytearray(0)
        self.latch = Pin(1, self._on_latch)
        self.reads = 0

    def _on_latch(self, v):
        if v == 0:
            self._loaded = bytearray(self._inputs())

    def readinto(self, buf):
        self.reads += 1
        n = len(buf)
        src = self._loaded
        for i in range(n):
            buf[i] = src[i] if i < len(src) else 0


# --- MFRC522 ---------------------------------------------------------------------------

_IDLE = 0
_READY = 1
_ACTIVE = 2
_HALT = 3


class Tag:
    """An ISO 14443A tag with a 4- or 7-byte UID, as it answers the reader."""

    def __init__(self, uid):
        self.uid = bytes(uid)
        self.state = _IDLE
        self.level = 0

    def cascade(self, level):
        """The 4 bytes a tag sends at a cascade level (with the cascade tag 0x88 if more)."""
        if len(self.uid) == 4:
            return self.uid
        if level == 0:
            return bytes((0x88,)) + self.uid[:3]
        return self.uid[3:7]

    def levels(self):
        return 1 if len(self.uid) == 4 else 2


def _crc(data):
    from hal.mfrc522 import crc_a

    return bytes(crc_a(data, len(data)))


class MFRC522Bus:
    """The chip behind SPI + CS: registers, FIFO, Transceive, timer, and the tags in its
    field. `latency`: how many ComIrqReg reads an exchange takes (the air time seen by a
    polling driver). `answer=False`: no chip on the bus (MISO reads 0). `record`: keeps
    every register access in `traffic` as ("w" | "r", register, value)."""

    def __init__(self, latency=2, answer=True, record=False, version=0x92):
        self.cs = Pin(1, self._on_cs)
        self.regs = bytearray(64)
        self.regs[0x37] = version
        self.fifo = bytearray()
        self.tags = []
        self.latency = latency
        self.answer = answer
        self.record = record
        self.traffic = []
        self._pending = None  # (response bytes or None, reads left)
        self._selected = False

    # what the simulator does with cards

    def lay(self, uid):
        """A tag enters the field (powered up fresh: IDLE)."""
        self.tags.append(Tag(uid))

    def lift(self, uid=None):
        """A tag leaves the field (all tags if uid is None)."""
        self.tags = [t for t in self.tags if uid is not None and t.uid != bytes(uid)]

    def power_cycle(self):
        """The reader's field goes down and up: every tag in it wakes up fresh (IDLE)."""
        for t in self.tags:
            t.state = _IDLE

    # SPI side

    def _on_cs(self, v):
        self._selected = v == 0

    def write(self, buf):
        if self._selected and not buf[0] & 0x80:
            self._wreg((buf[0] >> 1) & 0x3F, buf[1])

    def write_readinto(self, tx, rx):
        rx[0] = 0
        if not self.answer:
            rx[1] = 0
            return
        if self._selected and tx[0] & 0x80:
            rx[1] = self._rreg((tx[0] >> 1) & 0x3F)

    def readinto(self, buf):
        for i in range(len(buf)):
            buf[i] = 0

    def _rreg(self, reg):
        if reg == 0x09:  # FIFODataReg
            v = 0
            if self.fifo:
                v = self.fifo[0]
                self.fifo = self.fifo[1:]
        elif reg == 0x0A:
            v = len(self.fifo)
        elif reg == 0x04:  # ComIrqReg: the exchange completes after `latency` reads
            if self._pending is not None:
                resp, left = self._pending
                if left > 0:
                    self._pending = (resp, left - 1)
                else:
                    self._pending = None
                    if resp is None:
                        self.regs[0x04] |= 0x01  # TimerIRq: nobody answered
                    else:
                        self.fifo = bytearray(resp)
                        self.regs[0x04] |= 0x30  # RxIRq | IdleIRq
            v = self.regs[0x04]
        else:
            v = self.regs[reg]
        if self.record:
            self.traffic.append(("r", reg, v))
        return v

    def _wreg(self, reg, v):
        if self.record:
            self.traffic.append(("w", reg, v))
        if reg == 0x01 and v == 0x0F:  # SoftReset
            version = self.regs[0x37]
            self.regs = bytearray(64)
            self.regs[0x37] = version
            self.fifo = bytearray()
            return
        if reg == 0x04:  # ComIrqReg: bit 7 set sets, clear clears the bits given
            if v & 0x80:
                self.regs[0x04] |= v & 0x7F
            else:
                self.regs[0x04] &= ~v & 0xFF
            return
        if reg == 0x09:
            self.fifo.append(v)
            return
        if reg == 0x0A:
            if v & 0x80:
                self.fifo = bytearray()
            return
        self.regs[reg] = v
        if reg == 0x0D and v & 0x80 and self.regs[0x01] == 0x0C:  # StartSend in Transceive
            self._pending = (self._air(bytes(self.fifo), v & 0x07), self.latency)
            self.fifo = bytearray()

    def _air(self, frame, bits):
        """The PICC side of ISO 14443-3: what the tags answer (None: silence)."""
        if bits == 7 and frame == b"\x26":  # REQA wakes IDLE tags only
            for t in self.tags:
                if t.state == _IDLE:
                    t.state = _READY
                    t.level = 0
                    return b"\x44\x00" if len(t.uid) == 7 else b"\x04\x00"
            return None
        ready = [t for t in self.tags if t.state in (_READY, _ACTIVE)]
        if not ready:
            return None
        t = ready[0]
        if frame[:1] == b"\x50":  # HLTA
            t.state = _HALT
            return None
        if len(frame) == 2 and frame[1] == 0x20:  # anticollision
            level = (0x93, 0x95, 0x97).index(frame[0])
            cl = t.cascade(level)
            return cl + bytes((cl[0] ^ cl[1] ^ cl[2] ^ cl[3],))
        if len(frame) == 9 and frame[1] == 0x70:  # select
            level = (0x93, 0x95, 0x97).index(frame[0])
            if frame[2:6] != t.cascade(level) or _crc(frame[:7]) != frame[7:9]:
                return None
            more = level + 1 < t.levels()
            t.state = _READY if more else _ACTIVE
            sak = bytes((0x04 if more else 0x00,))
            return sak + _crc(sak)
        return None
