"""CPython stand-in for MicroPython's `framebuf` module: the part the firmware uses (what the
table shows, firmware/outputs.py, and the simulator's look at its displays, sim/look.py) so
they run unchanged in the host tools and in pytest. Formats MONO_VLSB and GS8; fill,
fill_rect, pixel, text and blit (with a key and a palette), as MicroPython's
extmod/modframebuf.c does them. text() draws MicroPython's own 8x8 font, read once from the
`micropython` command beside this Python (the PyPI package's): the glyphs are that build's."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

MONO_VLSB = 0
GS8 = 6

_font: dict[int, bytes] | None = None


def _glyphs() -> dict[int, bytes]:
    global _font
    if _font is None:
        here = os.path.join(os.path.dirname(sys.executable), "micropython")
        exe = here if os.path.exists(here) else shutil.which("micropython")
        if exe is None:
            raise RuntimeError("framebuf stand-in: the micropython command is needed for its font")
        code = (
            "import framebuf\nb=bytearray(8)\nf=framebuf.FrameBuffer(b,8,8,framebuf.MONO_VLSB)\n"
            "for c in range(32,128):\n f.fill(0)\n f.text(chr(c),0,0,1)\n print(b.hex())\n"
        )
        out = subprocess.run([exe, "-c", code], capture_output=True, text=True, check=True)
        rows = out.stdout.split()
        _font = {32 + i: bytes.fromhex(h) for i, h in enumerate(rows)}
    return _font


class FrameBuffer:
    def __init__(self, buf, width: int, height: int, fmt: int, stride: int | None = None):
        if fmt not in (MONO_VLSB, GS8):
            raise ValueError("invalid format")
        self.buf = memoryview(buf).cast("B")
        self.width = width
        self.height = height
        self.format = fmt
        self.stride = width if stride is None else stride

    def _set(self, x: int, y: int, c: int) -> None:
        if self.format == GS8:
            self.buf[y * self.stride + x] = c & 0xFF
        else:
            i = (y >> 3) * self.stride + x
            bit = 1 << (y & 7)
            self.buf[i] = (self.buf[i] | bit) if c else (self.buf[i] & ~bit & 0xFF)

    def _get(self, x: int, y: int) -> int:
        if self.format == GS8:
            return self.buf[y * self.stride + x]
        return self.buf[(y >> 3) * self.stride + x] >> (y & 7) & 1

    def pixel(self, x: int, y: int, c: int | None = None):
        if not (0 <= x < self.width and 0 <= y < self.height):
            return None
        if c is None:
            return self._get(x, y)
        self._set(x, y, c)
        return None

    def fill(self, c: int) -> None:
        self.fill_rect(0, 0, self.width, self.height, c)

    def fill_rect(self, x: int, y: int, w: int, h: int, c: int) -> None:
        x0, y0 = max(0, x), max(0, y)
        x1, y1 = min(self.width, x + w), min(self.height, y + h)
        for yy in range(y0, y1):
            for xx in range(x0, x1):
                self._set(xx, yy, c)

    def text(self, s: str, x: int, y: int, c: int = 1) -> None:
        font = _glyphs()
        for ch in s:
            glyph = font.get(ord(ch), font[127])
            for col in range(8):
                bits = glyph[col]
                for row in range(8):
                    if bits >> row & 1:
                        self.pixel(x + col, y + row, c)
            x += 8

    def blit(self, src: FrameBuffer, x: int, y: int, key: int = -1, palette=None) -> None:
        for sy in range(src.height):
            for sx in range(src.width):
                dx, dy = x + sx, y + sy
                if not (0 <= dx < self.width and 0 <= dy < self.height):
                    continue
                c = src._get(sx, sy)
                if c == key:
                    continue
                if palette is not None:
                    c = palette._get(c, 0)
                self._set(dx, dy, c)
