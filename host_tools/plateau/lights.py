"""What the players at a simulated table see: its LEDs and its two displays, as the simulator
read them off the chip models (firmware/sim/run.py `--looks`: a JSON line each time the table
finished drawing a change), drawn in the terminal (`plateau sim --lights`) or as SVG pictures
(`plateau sim --pictures DIR`) for the docs and bug reports."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from plateau.games.tock.live import RING, SIDE


@dataclass
class Look:
    seq: int  # the last numbered event when it was drawn
    t: int  # the simulated world's time, ms
    leds: list[tuple[int, int, int]]  # each LED's colour, in chain order
    displays: list[bytes]  # each display's glass: 8 pages of 128 bytes, bit 0 the top row
    tone: int  # the buzzer's frequency sounding then, Hz (0: quiet)
    magnets: str = ""  # "1" where a sensor has a pawn over it, chain order
    blink: str = ""  # "1" where the LED blinks (drawn in its lit half), chain order

    def blinks(self, i: int) -> bool:
        return i < len(self.blink) and self.blink[i] == "1"

    @classmethod
    def parse(cls, line: str) -> Look:
        d = json.loads(line)
        raw = bytes.fromhex(d["leds"])
        leds = [(raw[i], raw[i + 1], raw[i + 2]) for i in range(0, len(raw), 3)]
        glass = [bytes.fromhex(g) for g in d["displays"]]
        return cls(
            d["seq"], d["t"], leds, glass, d["tone"], d.get("magnets", ""), d.get("blink", "")
        )

    def lit(self, display: int, x: int, y: int) -> bool:
        return bool(self.displays[display][(y >> 3) * 128 + x] >> (y & 7) & 1)


class Looks:
    """New looks as the simulator appends them to its file (complete lines only)."""

    def __init__(self, path: Path):
        self.path = path
        self._at = 0
        self._part = ""

    def new(self) -> list[Look]:
        try:
            with open(self.path, encoding="utf-8") as f:
                f.seek(self._at)
                text = f.read()
                self._at = f.tell()
        except FileNotFoundError:
            return []
        text = self._part + text
        lines = text.split("\n")
        self._part = lines.pop()
        return [Look.parse(line) for line in lines if line.strip()]


def _dot(rgb: tuple[int, int, int], colour: bool, pawn: bool = False, blink=False) -> str:
    """A LED: · dark, ● lit (in its colour on a terminal); o and ◉ with a pawn over it; ✱ a
    blinking one, drawn in its lit half."""
    if rgb == (0, 0, 0):
        return "o" if pawn else "·"
    mark = "✱" if blink else "◉" if pawn else "●"
    if not colour:
        return mark
    r, g, b = (min(255, v * 3) for v in rgb)  # (dimmed LEDs brightened for a screen)
    return f"\x1b[38;2;{r};{g};{b}m{mark}\x1b[0m"


def _braille(look: Look, display: int) -> list[str]:
    """A display's 128 x 64 pixels in braille characters, 2 x 4 pixels each: 64 x 16."""
    bits = (  # (column, row, dot) for the 8 dots of a braille cell
        (0, 0, 0x01),
        (0, 1, 0x02),
        (0, 2, 0x04),
        (1, 0, 0x08),
        (1, 1, 0x10),
        (1, 2, 0x20),
        (0, 3, 0x40),
        (1, 3, 0x80),
    )
    rows = []
    for cy in range(16):
        row = []
        for cx in range(64):
            code = 0
            for dx, dy, bit in bits:
                if look.lit(display, 2 * cx + dx, 4 * cy + dy):
                    code |= bit
            row.append(chr(0x2800 + code))
        rows.append("".join(row))
    return rows


def terminal(look: Look, names: list[str], colour: bool = True) -> list[str]:
    """The board's LEDs where their squares are (Tock's ring, as the live view draws it),
    the camps', the card spot's and the goals', then both displays side by side."""
    grid = [[" "] * (SIDE + 2) for _ in range(SIDE + 2)]
    camps: dict[str, list[str]] = {}
    for i, name in enumerate(names):
        if i >= len(look.leds):
            break
        pawn = i < len(look.magnets) and look.magnets[i] == "1"
        if name in RING:
            r, c = RING[name]
            grid[r][c] = _dot(look.leds[i], colour, pawn, look.blinks(i))
        elif len(name) == 3 and name[1] == "C":
            camps.setdefault(name[0], []).append(_dot(look.leds[i], colour, pawn, look.blinks(i)))
    lines = ["   " + " ".join(row) for row in grid]
    extra = [f"{c} camp {''.join(d)}" for c, d in camps.items()]
    rest = look.leds[len(names) :]
    if rest:
        n = len(names)
        extra.append("spot " + _dot(rest[0], colour, blink=look.blinks(n)))
        goals = (_dot(x, colour, blink=look.blinks(n + 1 + k)) for k, x in enumerate(rest[1:3]))
        extra.append("goals " + " ".join(goals))
    lines.append("   " + "   ".join(extra) + (f"   buzzer {look.tone} Hz" if look.tone else ""))
    pics = [_braille(look, d) for d in range(len(look.displays))]
    if pics:
        lines.append("   " + "  ".join(f"display {'AB'[d]}".ljust(66) for d in range(len(pics))))
        for k in range(16):
            lines.append("   " + "  ".join("|" + p[k] + "|" for p in pics))
    return lines


_CELL = 24  # px a grid cell in the picture
_PIXEL = 2  # px a display pixel


def svg(look: Look, names: list[str], title: str = "") -> str:
    """A picture of what the table shows: the board's squares (a circle each, filled with
    its LED's colour, dark when off), the camps', the spot's and the goals' LEDs, and both
    displays pixel by pixel."""
    board = (SIDE + 2) * _CELL
    disp_w, disp_h = 128 * _PIXEL, 64 * _PIXEL
    height = board + 40 + disp_h + 20
    width = max(board, 2 * disp_w + 60)
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11">',
        f"<title>{_escape(title)}</title>",
        f'<rect width="{width}" height="{height}" fill="#2b2116"/>',
        f'<rect x="4" y="4" width="{board - 8}" height="{board - 8}" rx="8" fill="#c8a878"/>',
    ]

    def led(x: float, y: float, rgb: tuple[int, int, int], label: str, pawn=False, blink=False):
        r, g, b = (min(255, v * 3) for v in rgb)  # (dimmed LEDs brightened for a screen)
        fill = f"#{r:02x}{g:02x}{b:02x}" if any(rgb) else "#4a3b2a"
        if blink:  # a dashed ring: the light blinks (drawn in its lit half)
            label += " (blinking)"
            out.append(
                f'<circle cx="{x:g}" cy="{y:g}" r="{_CELL * 0.48:g}" fill="none" '
                f'stroke="{fill}" stroke-width="2" stroke-dasharray="3 2"/>'
            )
        out.append(
            f'<circle cx="{x:g}" cy="{y:g}" r="{_CELL * 0.38:g}" fill="{fill}" '
            f'stroke="#1b140d" stroke-width="1"><title>{_escape(label)}</title></circle>'
        )
        if pawn:  # a pawn standing on the square: a disc over its light
            out.append(
                f'<circle cx="{x:g}" cy="{y:g}" r="{_CELL * 0.22:g}" fill="#f2ece0" '
                'stroke="#1b140d" stroke-width="1.5" fill-opacity="0.85"/>'
            )

    camps: dict[str, int] = {}
    corner = {"R": (1, 2), "G": (2, SIDE - 1), "B": (SIDE - 1, SIDE - 2), "Y": (SIDE - 2, 1)}
    for i, name in enumerate(names):
        if i >= len(look.leds):
            break
        if name in RING:
            r, c = RING[name]
        elif len(name) == 3 and name[1] == "C" and name[0] in corner:
            k = camps.setdefault(name[0], 0)
            camps[name[0]] = k + 1
            r0, c0 = corner[name[0]]
            r, c = r0 + k // 2, c0 + k % 2
        else:
            continue
        pawn = i < len(look.magnets) and look.magnets[i] == "1"
        led((c + 0.5) * _CELL, (r + 0.5) * _CELL, look.leds[i], name, pawn, look.blinks(i))
    rest = look.leds[len(names) :]
    mid = board / 2
    if rest:
        n = len(names)
        led(mid + 2 * _CELL, mid, rest[0], "card spot", blink=look.blinks(n))
        out.append(
            f'<text x="{mid + 2 * _CELL:g}" y="{mid + _CELL:g}" text-anchor="middle">spot</text>'
        )
        for k, rgb in enumerate(rest[1:3]):
            y = _CELL * 1.5 if k == 0 else board - _CELL * 1.5
            led(mid, y, rgb, "goal " + "AB"[k], blink=look.blinks(n + 1 + k))
    top = board + 30
    for d in range(len(look.displays)):
        x0 = 20 + d * (disp_w + 20)
        out.append(f'<text x="{x0}" y="{top - 6}" fill="#ddd">display {"AB"[d]}</text>')
        frame = f'width="{disp_w + 4}" height="{disp_h + 4}" fill="#000"'
        out.append(f'<rect x="{x0 - 2}" y="{top - 2}" {frame}/>')
        for y in range(64):
            x = 0
            while x < 128:
                if look.lit(d, x, y):
                    start = x
                    while x < 128 and look.lit(d, x, y):
                        x += 1
                    out.append(
                        f'<rect x="{x0 + start * _PIXEL}" y="{top + y * _PIXEL}" '
                        f'width="{(x - start) * _PIXEL}" height="{_PIXEL}" fill="#9fd8ff"/>'
                    )
                else:
                    x += 1
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
