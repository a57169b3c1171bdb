# A 128x64 monochrome OLED on I2C (issue 29): an SSD1306, or an SH1106 (the same commands
# for what is used here, its RAM 132 columns wide with the glass from column 2). Handed its
# bus (machine.I2C) and address by hal/board.py.
#
# The display is written half a page at a time (8 rows of pixels, 64 bytes), never whole:
# a frame is 1 KB, 25 ms on a 400 kHz bus, five times the table's pass; a page is 3 ms, a
# half 1.5 ms (the table sends one a pass, and only a page that changed: outputs.py). Page
# addressing (SSD1306 datasheet 10.1.3, the only mode of the SH1106): the page by
# 0xB0 | page, the column by 0x00 | low nibble and 0x10 | high nibble, then the data
# auto-increments along the page (datasheet 10.1.1-10.1.2, 10.1.13). A control byte
# precedes each write (8.1.5.2: 0x00 commands follow, 0x40 display data follows).
# micropython-lib's ssd1306 driver sends the whole frame from a 1 KB framebuffer in one
# call: it would hold the pass 25 ms, hence this small driver.
from micropython import const

_CMD = const(0x00)  # control byte: Co = 0, D/C# = 0: the bytes after it are commands
# Power-up (datasheet 10.1, and its application note's initialisation flow): display off;
# page addressing; start line 0; segment remap and COM scan reversed (the glass the right
# way up); multiplex 64; offset 0; COM pins alternative; clock; pre-charge; VCOMH; contrast;
# RAM shown; not inverted; charge pump on (SSD1306: 0x8D 0x14; the SH1106's DC-DC 0xAD
# 0x8B instead, and no addressing-mode command, 0x20 being none of its own); display on.
_SSD1306 = (
    b"\x00\xae\x20\x02\x40\xa1\xa8\x3f\xc8\xd3\x00\xda\x12\xd5\x80\xd9\xf1\xdb\x30\x81\xcf"
    b"\xa4\xa6\x8d\x14\xaf"
)
_SH1106 = (
    b"\x00\xae\x40\xa1\xa8\x3f\xc8\xd3\x00\xda\x12\xd5\x80\xd9\xf1\xdb\x30\x81\xcf\xa4\xa6"
    b"\xad\x8b\xaf"
)
_DATA = b"\x40"  # control byte: the bytes after it are display data


class Oled:
    width = 128
    pages = 8

    def __init__(self, i2c, addr, sh1106=False, buf=None):
        self._i2c = i2c
        self.addr = addr
        self._sh1106 = sh1106
        self._col = 2 if sh1106 else 0  # the glass's first column in the RAM
        # one page: byte x is column x, bit 0 the top row (displays drawn one page at a time
        # may share it: hal/board.py)
        self.buf = buf if buf is not None else bytearray(128)
        # the page's writes, made once (writevto): its left half, its right half, whole
        mv = memoryview(self.buf)
        self._vec = ((_DATA, mv[:64]), (_DATA, mv[64:]), (_DATA, self.buf))
        self._cmd = bytearray(4)  # control byte and up to three command bytes

    def init(self):
        """Set the controller up and turn the glass on (OSError: no answer on the bus)."""
        self._i2c.writeto(self.addr, _SH1106 if self._sh1106 else _SSD1306)

    def send(self, page, half=2):
        """self.buf to that page of the display: its left half (0: columns 0-63), its right
        half (1) or whole (2). A half is 1.5 ms on the wire at 400 kHz (OSError: no answer)."""
        col = self._col + (64 if half == 1 else 0)
        c = self._cmd
        c[0] = _CMD
        c[1] = 0xB0 | page
        c[2] = col & 0x0F
        c[3] = 0x10 | col >> 4
        self._i2c.writeto(self.addr, c)
        self._i2c.writevto(self.addr, self._vec[half])

    def contrast(self, level):
        """0-255 (datasheet 10.1.7: 0x81, then the level)."""
        c = self._cmd
        c[0] = _CMD
        c[1] = 0x81
        c[2] = level
        self._i2c.writeto(self.addr, memoryview(c)[:3])
