# The 74HC165 parallel-in shift-register chain the Hall switches feed, and the SPI master
# that clocks it (sim/chips/__init__.py).
#   [HC165]  NXP 74HC165 product data sheet rev. 03 (section 11, Table 7 dynamic
#            characteristics) and TI SN74HC165 (SCLS116) description and function table
# Not expressed: signal integrity on a long chain (edges, reflections, crosstalk), setup and
# hold at the inputs beyond the datasheet's table, a supply below 2.0 V.
from sim.chips import Pin, Rng

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
