# What a player at the simulated table sees (issue 29), read off the chip models, not off the
# firmware: each LED's colour as the chain's model latched it (sim/chips/ws2812.py) and each
# display's glass as the SH1106 model shows it (sim/chips/sh1106.py), read back into text: a
# line of 8x8 characters matched against the display font's glyphs (MicroPython's framebuf
# font, rendered here), the big score read by its digits' segments. For the tests (what the
# lights and displays show against the rules), `plateau sim --lights` and its pictures.
# Never deployed.
import framebuf

_glyphs = None  # type: dict | None  # character -> its 8 column bytes in the framebuf font, made once


def _font():
    global _glyphs
    if _glyphs is None:
        buf = bytearray(8)
        fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
        _glyphs = {}
        for c in range(32, 127):
            fb.fill(0)
            fb.text(chr(c), 0, 0, 1)
            _glyphs[bytes(buf)] = chr(c)
    return _glyphs


def line_of(page):
    """The text on one page (128 column bytes) written as 8x8 characters at any column that
    is a multiple of 4 (the firmware centres its lines); None when it is no such text."""
    glyphs = _font()
    lit = [x for x in range(128) if page[x]]
    if not lit:
        return ""
    for x0 in range(lit[0] - lit[0] % 4, max(-1, lit[0] - 8), -4):
        out = []
        x = x0
        while x < 128 and x <= lit[-1]:
            cell = (
                bytes(page[x : x + 8]) if x + 8 <= 128 else bytes(page[x:]) + bytes(8 - (128 - x))
            )
            ch = glyphs.get(cell)
            if ch is None:
                break
            out.append(ch)
            x += 8
        else:
            return "".join(out).strip()
    return None


# a 7-segment digit's segments (a-g) sampled at these points of its 18 x 30 cell, from the
# cell's left column and the area's top row (+1)
_POINTS = ((9, 3), (16, 8), (16, 23), (9, 28), (1, 23), (1, 8), (9, 16))
_DIGITS = {0x3F: "0", 0x06: "1", 0x5B: "2", 0x4F: "3", 0x66: "4", 0x6D: "5", 0x7D: "6"}
_DIGITS.update({0x07: "7", 0x7F: "8", 0x6F: "9"})


def big_of(pages):
    """The big text across the top 32 rows of a glass (its pages 0-3: 128 bytes each), or
    None."""

    def lit(x, y):
        return pages[y >> 3][x] >> (y & 7) & 1

    cols = [x for x in range(128) if pages[0][x] or pages[1][x] or pages[2][x] or pages[3][x]]
    if not cols:
        return None
    groups = []  # runs of lit columns
    start = prev = cols[0]
    for x in cols[1:]:
        if x != prev + 1:
            groups.append((start, prev))
            start = x
        prev = x
    groups.append((start, prev))
    out = []
    for a, b in groups:
        rows = [y for y in range(32) if any(lit(x, y) for x in range(a, b + 1))]
        if b - a >= 10:  # a digit's whole cell
            segs = 0
            for s in range(7):
                dx, dy = _POINTS[s]
                if lit(a + dx, dy):
                    segs |= 1 << s
            ch = _DIGITS.get(segs)
            if ch is None:
                return None
            out.append(ch)
        elif rows and rows[-1] - rows[0] > 20 and rows[-1] - rows[0] == len(rows) - 1:
            out.append("1")  # segments b and c alone: a narrow digit
        elif len(rows) == 4:
            out.append("-")
        elif len(rows) == 8:
            out.append(":")
        else:
            return None
    return "".join(out)


def screen(chip):
    """(big text or None, [lines]) an SH1106 model's glass shows (read in place: no copy of
    its RAM, which a test at the chip's heap has no room for)."""
    pages = [chip.glass_page(p) for p in range(8)]
    if pages[0] is None:
        return None, []
    big = big_of(pages)
    first = 4 if big is not None else 0
    lines = []
    for p in range(first, 8):
        text = line_of(pages[p])
        lines.append("?" if text is None else text)
    while lines and lines[-1] == "":
        lines.pop()
    return big, lines


def leds(chip):
    """Each LED's (r, g, b) as the chain's model shows it."""
    return [chip.rgb(i) for i in range(chip.n)]
