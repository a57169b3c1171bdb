# Models of the board's chips for the simulator and the driver tests, written from the parts'
# datasheets and ISO/IEC 14443-3, not from what the drivers expect: the real drivers (hal/)
# run against them, and where a driver and a datasheet part, the datasheet decides.
# Simulated, not measured: they follow the datasheets' logic and timing tables, not the chips'
# analog behaviour (field strength, signal integrity). Never deployed.
#
# Sources, cited as [name section] beside each behaviour:
#   [DRV5032]  TI DRV5032 datasheet, SLVSDC7E (1 Features, 3 Description, Device Comparison)
#   [DRV5033]  TI DRV5033 datasheet (Description: omnipolar, open-drain, pull-up required)
#   [HC165]    NXP 74HC165 product data sheet rev. 03 (section 11, Table 7 dynamic
#              characteristics) and TI SN74HC165 (SCLS116) description and function table
#   [MFRC522]  NXP MFRC522 product data sheet rev. 3.9 (sections 8, 9, 10)
#   [NTAG]     NXP NTAG213/215/216 product data sheet rev. 3.2 (8.4 state machine, 8.5 UID,
#              9.4 ATQA and SAK)
#   [14443-3]  ISO/IEC 14443-3:2001 Type A (6.2 frames, timing and CRC_A, 6.3 PICC states,
#              6.4 command set and the anticollision loop, Annex B CRC_A)
# Heap-light on purpose: whole games run under MicroPython at an ESP32 heap with these models.
from array import array

from micropython import const


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


class Rng:
    """A small seeded generator (31-bit LCG): the models' undefined values and injected noise
    are reproducible from a seed."""

    def __init__(self, seed=1):
        self.s = (seed * 2654435761 + 1) & 0x7FFFFFFF

    def next(self):
        self.s = (self.s * 1103515245 + 12345) & 0x7FFFFFFF
        return self.s >> 8

    def below(self, n):
        return self.next() % n


# --- Hall switches: DRV5032 (sampled) and DRV5033 (continuous) ---------------------------

# part -> (samples a second, 0: continuous; open-drain output).
# [DRV5032 Device Comparison]: each variant's sampling rate and output type; the output
# updates only at a sample. [DRV5033 Description]: chopper-stabilised, not duty-cycled: the
# output follows the field within its propagation delay (microseconds, below a scan);
# open-drain, an external pull-up required.
HALL_PARTS = {
    "DRV5032FA": (20, False),
    "DRV5032FB": (5, False),
    "DRV5032FC": (20, True),
    "DRV5032FD": (20, False),
    "DRV5032AJ": (20, True),
    "DRV5032ZE": (20, True),
    "DRV5032DU": (20, False),
    "DRV5032DG": (80, False),
    "DRV5033FA": (0, True),
    "DRV5033AJ": (0, True),
}


class HallSwitches:
    """n Hall switches of one part. `set(i, present, now)` is the physical truth (a magnet's
    flux over sensor i above B_OP or not); `levels(now)` the electrical outputs, bit i = 1
    for HIGH.

    [DRV5032 3 Description] [DRV5033 Description]: above B_OP the output goes LOW (every
    variant: active-low); below B_RP it drives HIGH (push-pull) or releases (open-drain: HIGH
    only through a pull-up, floating without one). [DRV5032 1 Features, 3 Description]: a
    DRV5032's internal oscillator samples the field at 5, 20 or 80 Hz and the output changes
    only at a sample; between samples it holds. Each sensor runs its own oscillator, so their
    sampling instants are spread (seeded phases here). A DRV5033 follows at once."""

    def __init__(self, n, part="DRV5033FA", now=0, seed=1, pullups=True):
        if part not in HALL_PARTS:
            raise ValueError(
                "%s is not a modelled Hall switch (one of %s)" % (part, sorted(HALL_PARTS))
            )
        hz, self.open_drain = HALL_PARTS[part]
        self.n = n
        self.part = part
        self.period = 1000 // hz if hz else 0  # ms between samples (0: continuous)
        self.pullups = pullups  # the board's pull-ups on every output (open-drain parts)
        nbytes = (n + 7) // 8
        self.field = bytearray(nbytes)  # bit i: flux above B_OP at sensor i (the truth)
        self.out = bytearray(b"\xff" * nbytes)  # bit i: output HIGH (no magnet seen)
        rng = Rng(seed)
        self._rng = rng
        period = max(self.period, 1)
        self.phase = array("H", [rng.below(period) for _ in range(n)] if self.period else [])
        self._at = array("i", [now] * n if self.period else [])  # sensor i last brought up to date
        self._pending = []  # sensors whose output may lag their field

    def _update(self, i, now):
        if self.period:
            last_sample = now - (now - self.phase[i]) % self.period
            if last_sample <= self._at[i]:
                return  # no sample since the last look: the output holds
            self._at[i] = now
        b = i >> 3
        bit = 1 << (i & 7)
        if self.field[b] & bit:
            self.out[b] &= ~bit  # LOW: magnet
        else:
            self.out[b] |= bit

    def set(self, i, present, now):
        if self.period:
            self._update(i, now)  # samples before now saw the old field
        b = i >> 3
        bit = 1 << (i & 7)
        if present:
            self.field[b] |= bit
        else:
            self.field[b] &= ~bit
        if not self.period:
            self._update(i, now)
        elif i not in self._pending:
            self._pending.append(i)

    def present(self, i):
        return self.field[i >> 3] >> (i & 7) & 1

    def levels(self, now):
        """The outputs at `now` (bit i = 1: HIGH). Not a copy: read it before the next call."""
        pending = self._pending
        k = 0
        while k < len(pending):
            i = pending[k]
            self._update(i, now)
            if (self.out[i >> 3] >> (i & 7) & 1) != (self.field[i >> 3] >> (i & 7) & 1):
                pending.pop(k)  # output agrees with the field (HIGH = none): settled
            else:
                k += 1
        if self.open_drain and not self.pullups:
            # released outputs float: undefined, read as noise
            out = bytearray(self.out)
            for b in range(len(out)):
                out[b] &= ~self.out[b] | self._rng.below(256)
            return out
        return self.out

    def power_up(self, now):
        """Power returns: each sensor's output is valid after its power-on time (microseconds,
        far below a scan) and shows the field from then on."""
        for b in range(len(self.field)):
            self.out[b] = ~self.field[b] & 0xFF
        for i in range(len(self._at)):
            self._at[i] = now
        self._pending = []


# --- 74HC165 chain on an SPI master -----------------------------------------------------------

# [HC165 11 Table 7], -40..85 C columns, at VCC = 2.0 V and 4.5 V (ns): the datasheet gives no
# other supply; between them the model interpolates linearly, which overstates the delays
# (CMOS delay falls faster than linearly with VCC): a conservative reading.
_HC165_NS = {
    "tpd": (205, 41),  # CP -> Q7 (and PL -> Q7) propagation delay, max
    "tw_cp": (100, 20),  # CP pulse width HIGH or LOW, min
    "tw_pl": (100, 20),  # PL (SH/LD) pulse width LOW, min
    "trec": (125, 25),  # recovery time PL -> CP, min
}
_ONES = b"\x01" * 16  # the chain's SER record, all high or all low
_ZEROS = bytes(16)
PIN_WRITE_NS = 1000  # a latch pin write from MicroPython on an ESP32: microseconds (assumed floor)


def hc165_ns(name, vcc):
    lo, hi = _HC165_NS[name]
    if vcc >= 4.5:
        return hi
    return int(lo + (hi - lo) * (vcc - 2.0) / 2.5)


class HC165Chain:
    """n 74HC165 registers in a chain: register 0's QH drives MISO, register k's QH drives
    register k-1's SER, the last register's SER is `ser` (GND in the wiring). `inputs()` gives
    the parallel inputs' levels, bit i = register i // 8, input i % 8 (A = 0 .. H = 7).

    [HC165 TI description, function table]: while SH/LD is low the parallel inputs are loaded,
    asynchronously, whatever the clock; with SH/LD high, each low-to-high transition of the
    internal clock (CLK or CLK INH: "their functions are interchangeable", a gated OR) shifts
    every register one stage towards QH, SER entering at A. QH shows H first.
    [HC165 11 Table 7]: QH changes up to tpd after the clock edge; the clock needs tW high and
    low, SH/LD tW low, and trec from SH/LD high to the next clock edge.
    A bit sampled while QH may still be changing is undefined (random here) and recorded."""

    def __init__(self, n, inputs, vcc=3.3, ser=0, seed=3):
        self.n = n
        self.inputs = inputs
        self.vcc = vcc
        self.tpd = hc165_ns("tpd", vcc)
        self._tw_pl = hc165_ns("tw_pl", vcc)
        self._trec = hc165_ns("trec", vcc)
        self.sh_ld = Pin(1, self._on_shld)
        self.clk_inh = Pin(0, self._on_inh)
        self.ser = Pin(ser)
        self.clk = 0  # CLK level, driven by the SPI master
        self._loaded = bytearray(n)  # what the registers held at the load, register 0 first
        self._shifts = 0  # clock edges since then
        self._fill = bytearray(16)  # SER levels shifted in (bits past the chain), bounded
        self.t_ns = 0  # the chain's own time: pin writes and SPI clocks advance it
        self._qh_changed = -(10**9)  # when QH last started to change
        self._shld_fell = 0
        self._shld_rose = -(10**9)
        self.violations = []
        self._rng = Rng(seed)
        if vcc < 2.0 or vcc > 6.0:
            self._violate("VCC %.1f V outside the 74HC165's 2-6 V" % vcc)
        if vcc > 3.6:
            # QH swings to VCC: an ESP32 input is not 5 V tolerant (VDD + 0.3 V at most)
            self._violate("QH at %.1f V overdrives the ESP32's 3.3 V MISO input" % vcc)

    def _violate(self, why):
        if len(self.violations) < 20 and why not in self.violations:
            self.violations.append(why)

    def _on_shld(self, v):
        self.t_ns += PIN_WRITE_NS
        if v == 0:
            # loading: the registers follow their inputs until SH/LD rises; nothing reads
            # them meanwhile but sample(), which loads first
            self._shld_fell = self.t_ns
            self._shifts = 0
            self._qh_changed = self.t_ns  # PL -> QH: tpd as for the clock
        else:
            if self.t_ns - self._shld_fell < self._tw_pl:
                self._violate("SH/LD low shorter than tW")
            self._load()  # the inputs as they stand when the load ends
            self._shld_rose = self.t_ns

    def _load(self):
        src = self.inputs()
        if len(src) == self.n:
            self._loaded[:] = src
        else:
            for r in range(self.n):
                self._loaded[r] = src[r] if r < len(src) else 0
        self._shifts = 0
        self._qh_changed = self.t_ns

    def _on_inh(self, v):
        self.t_ns += PIN_WRITE_NS
        if v and not self.clk:
            self._rise()  # a low CLK and a rising CLK INH clock the chain too

    def clock(self, level, t_ns):
        """The SPI master drives CLK to `level` at t_ns."""
        self.t_ns = t_ns
        if level and not self.clk and not self.clk_inh.value():
            self._rise()
        self.clk = level

    def _rise(self):
        if not self.sh_ld.value():
            return  # loading: the parallel inputs win
        if self.t_ns - self._shld_rose < self._trec:
            self._violate("clock edge within trec of SH/LD rising")
        s = self._shifts
        if s < len(self._fill):
            self._fill[s] = self.ser.value()
        self._shifts = s + 1
        self._qh_changed = self.t_ns

    def bit(self, p):
        """Stream bit p: what QH shows after p shifts since the load."""
        nbits = self.n * 8
        if p < nbits:
            return self._loaded[p >> 3] >> (7 - (p & 7)) & 1
        p -= nbits
        return self._fill[p] if p < len(self._fill) else self.ser.value()

    def sample(self, t_ns):
        """MISO as the master samples it at t_ns."""
        if not self.sh_ld.value():
            self._load()  # loading: QH shows input H of register 0 as it is now
        if 0 <= t_ns - self._qh_changed < self.tpd:
            self._violate("MISO sampled within tpd (%d ns) of QH changing" % self.tpd)
            return self._rng.below(2)
        return self.bit(self._shifts)


class ChainSPI:
    """The ESP32's SPI master (machine.SPI-like) wired to a 74HC165 chain: SCK to every CLK,
    MISO from register 0's QH, no MOSI. Clocks bit by bit, MSB first, per the SPI mode: CPOL is
    the clock's idle level; CPHA 0 samples on the first edge of each bit, CPHA 1 on the second.
    `bitwise=False` lets whole bytes be taken at once where that gives the same bits as
    clocking them one by one (a safe mode and clock, byte-aligned): the simulator scans 200
    times a second and cannot afford 112 clock edges in Python each time; the tests check that
    both paths agree."""

    def __init__(self, chain, baudrate, polarity=0, phase=0, bitwise=True):
        self.chain = chain
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.bitwise = bitwise
        self.half_ns = 500000000 // baudrate
        self._mode = polarity << 1 | phase
        # whole bytes at once only where each bit is sampled half a period after it settled
        self._safe = self._mode in (1, 2) and self.half_ns >= chain.tpd
        self.reads = 0
        # the chain's cable out at the main board: nothing drives MISO, its pull-up reads 1
        self.unplugged = False
        if self.half_ns < hc165_ns("tw_cp", chain.vcc):
            chain._violate("SCK half period %d ns below the clock's tW" % self.half_ns)
        chain.clock(polarity, chain.t_ns)  # the idle level, from SPI init on

    def readinto(self, buf, write=0):
        self.reads += 1
        if self.unplugged:
            for k in range(len(buf)):
                buf[k] = 0xFF
            return
        chain = self.chain
        if not self.bitwise and self._bytewise(buf):
            return
        t = chain.t_ns + PIN_WRITE_NS  # the transfer starts after the last pin write
        half = self.half_ns
        lead = 1 - self.polarity
        for k in range(len(buf)):
            v = 0
            for _ in range(8):
                chain.clock(lead, t)
                if not self.phase:
                    v = (v << 1) | chain.sample(t)
                t += half
                chain.clock(self.polarity, t)
                if self.phase:
                    v = (v << 1) | chain.sample(t)
                t += half
            buf[k] = v
        chain.t_ns = t

    def _bytewise(self, buf):
        """Modes 1 and 2 sample half a period after the rising edge that shifts; at a clock
        whose half period covers tpd, bit j of the transfer is stream bit (shifts + j), shifted
        by one in mode 1 (its first edge shifts before the first sample). Returns False where
        that does not hold (the bit-by-bit path then decides)."""
        chain = self.chain
        mode = self._mode
        if not self._safe or chain.clk_inh.value() or not chain.sh_ld.value():
            return False
        shifts = chain._shifts
        start = shifts + (1 if mode == 1 else 0)
        n = len(buf)
        t0 = chain.t_ns + PIN_WRITE_NS
        if (t0 if mode == 1 else t0 + self.half_ns) - chain._shld_rose < chain._trec:
            return False
        ser = chain.ser.value()  # what SER holds while these edges shift it in
        fill = chain._fill
        if shifts == 0:  # the usual case: a transfer right after the load
            fill[:] = _ONES if ser else _ZEROS
        else:
            for s in range(shifts, min(shifts + 8 * n, len(fill))):
                fill[s] = ser
        nbits = chain.n * 8
        fillbyte = 0xFF if ser else 0x00
        loaded = chain._loaded
        if start == 0 and n >= chain.n:  # mode 2 after the load: the chain, then SER
            buf[: chain.n] = loaded
            for k in range(chain.n, n):
                buf[k] = fillbyte
            n = 0
        for k in range(n):
            p = start + 8 * k
            if not p & 7 and p + 8 <= nbits:
                buf[k] = loaded[p >> 3]
            elif p >= nbits and shifts <= p - nbits:
                buf[k] = fillbyte  # past the chain: SER, as shifted in during this transfer
            else:
                v = 0
                for j in range(8):
                    v = (v << 1) | chain.bit(p + j)
                buf[k] = v
        n = len(buf)
        chain._shifts = shifts + 8 * n
        chain.t_ns = t0 + 16 * n * self.half_ns
        chain._qh_changed = chain.t_ns - self.half_ns * (1 if mode == 2 else 2)  # last rise
        chain.clk = self.polarity
        return True

    def read(self, n, write=0):
        buf = bytearray(n)
        self.readinto(buf, write)
        return buf


# --- SPI for slaves with a chip select (the MFRC522) ------------------------------------------


class SPIBus:
    """machine.SPI-like, byte level, for SPI slaves that sit behind a chip select (`nss` Pin,
    active low) and implement exchange(tx, rx). The mode and clock are checked against what the
    slave accepts; outside it the bytes read are undefined (random) and the slave records why."""

    def __init__(self, baudrate, polarity=0, phase=0, devices=()):
        self.baudrate = baudrate
        self.polarity = polarity
        self.phase = phase
        self.devices = list(devices)
        self._why = [d.spi_fault(baudrate, polarity << 1 | phase) for d in self.devices]
        self._rng = Rng(5)

    def _xfer(self, tx, rx):
        for k in range(len(self.devices)):
            d = self.devices[k]
            if d.nss.value() == 0:
                break
        else:
            if rx is not None:
                for i in range(len(rx)):
                    rx[i] = 0xFF  # MISO released by every slave: pulled high, or floating
            return
        why = self._why[k]
        d.exchange(tx, rx, len(tx) * 8 * 1000000 // self.baudrate)
        if why:
            d.violate(why)
            if rx is not None:
                for i in range(len(rx)):
                    rx[i] = self._rng.below(256)

    def write(self, buf):
        self._xfer(buf, None)

    def write_readinto(self, tx, rx):
        self._xfer(tx, rx)

    def readinto(self, buf, write=0):
        self._xfer(bytes([write]) * len(buf), buf)

    def read(self, n, write=0):
        buf = bytearray(n)
        self.readinto(buf, write)
        return buf


# --- ISO/IEC 14443-3 Type A tags (NTAG213) -----------------------------------------------------

_OFF = const(0)  # [14443-3 6.3.1] POWER-OFF: no field
_IDLE = const(1)  # [14443-3 6.3.2] [NTAG 8.4.1]
_READY = const(2)  # [14443-3 6.3.3] [NTAG 8.4.2/8.4.3] READY1/READY2: level = which cascade level
_ACTIVE = const(3)  # [14443-3 6.3.4] [NTAG 8.4.4]
_HALT = const(4)  # [14443-3 6.3.5] [NTAG 8.4.6]
STATE_NAMES = ("POWER-OFF", "IDLE", "READY", "ACTIVE", "HALT")

REQA = 0x26  # [14443-3 6.4.1] short frame, 7 bits
WUPA = 0x52  # [14443-3 6.4.2] short frame, 7 bits
HLTA = 0x50  # [14443-3 6.4.4] 50 00 + CRC_A
SEL = (0x93, 0x95, 0x97)  # [14443-3 6.4.3.2] cascade levels 1-3
CT = 0x88  # [14443-3 6.4.4 / 6.5.4] the cascade tag: first byte of every level but the last


def crc_a(data, n, preset=0x6363):
    """[14443-3 Annex B] CRC_A: x^16 + x^12 + x^5 + 1, bits LSB first, preset 6363h, no final
    XOR; sent low byte first. Bit by bit, written apart from the driver's on purpose."""
    crc = preset
    for i in range(n):
        crc ^= data[i]
        for _ in range(8):
            crc = (crc >> 1) ^ 0x8408 if crc & 1 else crc >> 1
    return crc


class Tag:
    """An ISO/IEC 14443-3 Type A tag with a 4-, 7- or 10-byte UID, as it answers a reader.
    NTAG213 stickers: 7 bytes, ATQA 0044h, SAK 00h [NTAG 9.4]. A deck of them lies in the
    simulated field, so a tag is one bytearray: state, cascade level, from HALT, SAK, UID
    size, the UID, then each cascade level's 4 bytes and BCC."""

    def __init__(self, uid, sak=None):
        uid = bytes(uid)
        n = len(uid)
        if n not in (4, 7, 10):
            raise ValueError("a UID has 4, 7 or 10 bytes [14443-3 6.5.4]")
        # [14443-3 6.5.4], [NTAG 8.5]: the UID split by cascade level, CT first at every level
        # but the last, each level's 4 bytes followed by BCC (their XOR)
        if n == 4:
            parts = uid
        elif n == 7:
            parts = bytes((CT,)) + uid[:3] + uid[3:]
        else:
            parts = bytes((CT,)) + uid[:3] + bytes((CT,)) + uid[3:6] + uid[6:]
        b = bytearray(5 + n + len(parts) // 4 * 5)
        b[3] = (0x00 if n == 7 else 0x08) if sak is None else sak
        b[4] = n
        b[5 : 5 + n] = uid
        o = 5 + n
        for k in range(len(parts) // 4):
            p = parts[4 * k : 4 * k + 4]
            b[o : o + 4] = p
            b[o + 4] = p[0] ^ p[1] ^ p[2] ^ p[3]
            o += 5
        self.b = b

    @property
    def uid(self):
        return bytes(self.b[5 : 5 + self.b[4]])

    @property
    def state(self):
        return self.b[0]

    @property
    def sak(self):
        return self.b[3]

    @property
    def atqa(self):
        # [14443-3 6.5.2 ATQA]: bits 8-7 give the UID size (00 single, 01 double, 10 triple);
        # bit 3 set: bit frame anticollision. [NTAG 9.4]: 44h 00h, sent low byte first.
        n = self.b[4]
        return b"\x04\x00" if n == 4 else b"\x44\x00" if n == 7 else b"\x84\x00"

    @property
    def levels(self):
        b = self.b
        o = 5 + b[4]
        return [bytes(b[o + 5 * k : o + 5 * k + 5]) for k in range((len(b) - o) // 5)]

    def power(self, on):
        """[14443-3 6.3.1]: out of the field the tag is off; in it, power-on reset: IDLE."""
        b = self.b
        b[0] = _IDLE if on else _OFF
        b[1] = 0
        b[2] = 0  # READY*/ACTIVE* [14443-3 6.3.6/6.3.7]: set when woken from HALT

    def _error(self):
        # [NTAG 8.4.2-8.4.4]: "any other data received ... is interpreted as an error and
        # depending on its previous state NTAG21x returns to the IDLE or HALT state"
        self.b[0] = _HALT if self.b[2] else _IDLE
        self.b[1] = 0

    def hear(self, frame, nbits):
        """The PCD sent `nbits` bits of `frame`. Returns the answer (bytes, nbits, align: the
        answer's first bit is bit `align` of its first byte) or None (silent)."""
        b = self.b
        state = b[0]
        if state == _OFF:
            return None
        if nbits == 7:  # a short frame [14443-3 6.2.3.1]
            cmd = frame[0] & 0x7F
            if cmd == REQA and state == _IDLE or cmd == WUPA and state in (_IDLE, _HALT):
                # [NTAG 8.4.1/8.4.6]: REQA wakes IDLE tags, WUPA also HALTed ones
                b[2] = 1 if state == _HALT else 0
                b[0] = _READY
                b[1] = 0
                return self.atqa, 16, 0
            if state in (_READY, _ACTIVE):
                self._error()
            return None  # [NTAG 8.4.1]: IDLE ignores the rest; [NTAG 8.4.6]: HALT too
        if state in (_IDLE, _HALT):
            return None
        if state == _ACTIVE:
            if (
                nbits == 32
                and frame[0] == HLTA
                and frame[1] == 0
                and crc_a(frame, 2) == frame[2] | frame[3] << 8
            ):
                b[0] = _HALT  # [NTAG 8.4.4]: HLTA -> HALT, no answer
                b[1] = 0
                b[2] = 1
                return None
            self._error()
            return None
        # READY at cascade level b[1]
        level = b[1]
        if nbits < 16 or frame[0] != SEL[level]:
            self._error()
            return None
        cl = 5 + b[4] + 5 * level  # where this level's 5 bytes are in b
        nvb = frame[1]
        if nvb == 0x70:  # SELECT [14443-3 6.4.3]
            ok = nbits == 72 and crc_a(frame, 7) == frame[7] | frame[8] << 8
            for j in range(5):
                ok = ok and frame[2 + j] == b[cl + j]
            if not ok:
                self._error()  # [NTAG 8.4.2]: not its UID, or a bad frame
                return None
            if cl + 5 < len(b):
                b[1] = level + 1  # [NTAG 8.4.2]: READY1 -> READY2, SAK with the cascade bit
                sak = 0x04
            else:
                b[0] = _ACTIVE
                sak = b[3]
            c = crc_a(bytes((sak,)), 1)
            return bytes((sak, c & 0xFF, c >> 8)), 24, 0
        # ANTICOLLISION [14443-3 6.4.3.1, 6.4.3.3]: NVB = bytes sent (upper) and bits (lower)
        nb = nvb >> 4
        nl = nvb & 0x0F
        known = (nb - 2) * 8 + nl
        if nb < 2 or nl > 7 or known > 32 or nbits != nb * 8 + nl:
            self._error()
            return None
        full = known >> 3
        for j in range(full):
            if frame[2 + j] != b[cl + j]:
                return None  # not its UID: silent, still READY [14443-3 6.4.3.1]
        part = known & 7
        if part and (frame[2 + full] ^ b[cl + full]) & ((1 << part) - 1):
            return None
        ans = bytearray(b[cl + full : cl + 5])
        ans[0] &= ~((1 << part) - 1) & 0xFF
        return bytes(ans), 40 - known, part


# --- MFRC522 --------------------------------------------------------------------------------

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
            for t in self.tags:
                t.power(True)
            self._field = True
        elif not on:
            self._field_off()

    # --- what the simulator does with tags ---------------------------------------------

    def lay(self, tag):
        """A tag enters the field (Tag or UID bytes); powered at once if the field is on."""
        if not isinstance(tag, Tag):
            tag = Tag(tag)
        tag.power(self._field)
        self.tags.append(tag)
        return tag

    def lift(self, uid=None):
        """A tag leaves the field (every tag if uid is None)."""
        if uid is None:
            self.tags = []
        else:
            uid = bytes(uid)
            self.tags = [t for t in self.tags if t.uid != uid]

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
        regs[reg] = v
        if reg == _TX_CONTROL:
            self._set_field()
        elif reg == _BIT_FRAMING and v & 0x80 and regs[_COMMAND] & 0x0F == _TRANSCEIVE:
            self._transmit()

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
            wakes = _IDLE if short == REQA else _HALT if short == WUPA else -1
            answers = []
            for tag in self.tags:
                s = tag.b[0]
                if s == _READY or s == _ACTIVE or s == _IDLE and wakes >= 0 or s == wakes:
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
