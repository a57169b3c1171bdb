# The status display: a 1.3 in 128x64 OLED module with a Sino Wealth SH1106 controller on
# I2C (sim/chips/__init__.py; hardware/parts.py names the part).
#   [SH1106]  SH1106 data sheet V2.6: "I2C-bus Interface" (the slave address 0111 10 SA0, then
#             control bytes: Co (bit 7) = 0, the rest of the transfer is data (D/C, bit 6 =
#             1) or commands (D/C = 0); Co = 1, one byte follows, then another control byte),
#             "Commands" 1-18 (below, each by its number), "Display Data RAM" (132 columns x 8
#             pages of 8 rows; a byte is a column of 8 rows, bit 0 the top; the column
#             address increments after each data byte, the page does not)
#   [MOD]     the 1.3 in modules: the 128-column glass shows RAM columns 2..129 (hence the
#             drivers' offset 2), the right way up with segment remap (A1) and COM scan
#             reversed (C8) as mounted on the module
# Modelled: the address and control bytes, every command the SH1106 knows (1-18) with its
# parameter byte where it has one, page addressing, the RAM, display on/off (AE/AF), the
# DC-DC converter (AD 8B before AF lights the glass on these modules), contrast, the picture
# the glass shows (`glass`). Recorded as violations: a byte that is no command, data past the
# RAM's last column, the glass lit with the DC-DC off, and a picture the module would show
# mirrored (A0 or C0). Not expressed: the panel's analog side (brightness by contrast, the
# 100 ms the DC-DC takes to rise, burn-in), reads (the driver never reads), the SSD1306's
# horizontal and vertical addressing (a 0x20 is not an SH1106 command: a violation here).
from micropython import const

_COLS = const(132)  # [SH1106] RAM columns
_GLASS = const(2)  # [MOD] the glass's first column
# commands with a parameter byte: [SH1106] 5 contrast 0x81, 9 multiplex 0xA8, 10 DC-DC 0xAD,
# 14 display offset 0xD3, 15 clock 0xD5, 16 pre-charge 0xD9, 17 COM pads 0xDA, 18 VCOM 0xDB
_TWO = (0x81, 0xA8, 0xAD, 0xD3, 0xD5, 0xD9, 0xDA, 0xDB)


class SH1106:
    def __init__(self, addr):
        self.addr = addr
        # the RAM a page at a time (8 x 132 bytes: no 1 KB in one piece needed of the heap a
        # whole simulated table leaves at the chip's size)
        self.ram = [bytearray(_COLS) for _ in range(8)]
        self.page = 0
        self.col = 0
        self.on = False  # [SH1106] 11: AE off, AF on
        self.dcdc = False  # [SH1106] 10: AD then 8B on (8A off)
        self.contrast = 0x80  # [SH1106] 5: reset value
        self.remap = False  # [SH1106] 6: A0 / A1
        self.scan_down = False  # [SH1106] 13: C0 / C8
        self.writes = 0  # transfers received
        self.violations = []
        self._param = None  # a command awaiting its parameter byte

    def violation(self, why):
        if len(self.violations) < 8:
            self.violations.append(why)

    def power_cut(self):
        """Power gone and back: the controller at its reset state; the RAM undefined (here:
        cleared, in place: a test's heap has no second 1 KB to spare), the glass off."""
        for page in self.ram:
            for i in range(_COLS):
                page[i] = 0
        self.page = self.col = 0
        self.on = self.dcdc = self.remap = self.scan_down = False
        self.contrast = 0x80
        self._param = None

    def write(self, data):
        """One I2C transaction (the bytes after the address)."""
        self.writes += 1
        i = 0
        n = len(data)
        while i < n:
            ctl = data[i]
            i += 1
            if ctl & 0x3F:
                self.violation("control byte 0x%02x: bits 5-0 must be 0" % ctl)
            last = ctl & 0x80 == 0  # Co = 0: every byte after this one is of its kind
            end = n if last else min(i + 1, n)
            if ctl & 0x40:
                self._data(data, i, end)
            else:
                for k in range(i, end):
                    self._command(data[k])
            i = end

    def _data(self, data, i, end):
        page = self.ram[self.page]
        for k in range(i, end):
            if self.col >= _COLS:
                self.violation("display data past column 131 on page %d" % self.page)
                return
            page[self.col] = data[k]
            self.col += 1

    def _command(self, b):
        if self._param is not None:
            cmd = self._param
            self._param = None
            if cmd == 0x81:
                self.contrast = b
            elif cmd == 0xAD:
                self.dcdc = b == 0x8B
            return
        if b in _TWO:
            self._param = b
        elif b < 0x10:  # 1: lower column address
            self.col = (self.col & 0xF0) | b
        elif b < 0x20:  # 2: higher column address
            self.col = (self.col & 0x0F) | (b & 0x0F) << 4
        elif 0x30 <= b <= 0x33 or 0x40 <= b <= 0x7F:  # 3: pump voltage; 4: start line
            pass
        elif b in (0xA0, 0xA1):  # 6: segment remap
            self.remap = b == 0xA1
        elif b in (0xA4, 0xA5, 0xA6, 0xA7, 0xE0, 0xE3, 0xEE):  # 7, 8; read-modify-write, nop
            pass
        elif b in (0xAE, 0xAF):  # 11: display off / on
            self.on = b == 0xAF
            if self.on:
                if not self.dcdc:
                    self.violation("display on with the DC-DC converter off: the glass stays dark")
                if not (self.remap and self.scan_down):
                    self.violation(
                        "segment remap A1 and COM scan C8 not set: the picture is mirrored"
                    )
        elif 0xB0 <= b <= 0xB7:  # 12: page address
            self.page = b & 7
        elif b in (0xC0, 0xC8):  # 13: COM output scan direction
            self.scan_down = b == 0xC8
        else:
            self.violation("0x%02x is not an SH1106 command" % b)

    def lit(self, x, y):
        """Whether the glass's pixel at column x (0-127), row y (0-63) is lit."""
        if not (self.on and self.dcdc):
            return False
        return bool(self.ram[y >> 3][_GLASS + x] >> (y & 7) & 1)

    def glass_page(self, p):
        """Page p of the glass (128 bytes: a view of the RAM, nothing copied); None when the
        glass is dark (off, or its DC-DC off)."""
        if not (self.on and self.dcdc):
            return None
        return memoryview(self.ram[p])[_GLASS : _GLASS + 128]

    def glass(self):
        """The glass as 8 pages of 128 bytes (what it shows; all dark when off)."""
        out = bytearray(1024)
        if self.on and self.dcdc:
            for p in range(8):
                out[p * 128 : p * 128 + 128] = memoryview(self.ram[p])[_GLASS : _GLASS + 128]
        return out
