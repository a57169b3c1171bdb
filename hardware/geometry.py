"""Where every square of a Tock board is, from the names in sensors.json: the drilling
template, the wiring picture and the wire lengths all come from here.

The track is the rim of a 19 x 19 grid of 30 mm cells (4 x 19 - 4 = 72 squares). Colour C owns
18 squares of the rim, C1 at a corner, in seat order R, G, B, Y counter-clockwise seen from
above. C16 (home entry) has its home row CH1..CH4 going inward; C's camp is a 2 x 2 block
beside its start square C18. The colours are the same drawing turned by 90 degrees."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLOURS = "RGBY"
PITCH = 30.0  # mm between square centres (a 20-22 mm pawn base, and room for fingers)
CELLS = 19  # the track's rim spans 19 cells
BOARD = 600.0  # mm, square board
MARGIN = (BOARD - (CELLS - 1) * PITCH) / 2  # board edge to the outer squares' centres
SQUARE = 24.0  # mm, the printed square
CARD = (70.0, 100.0)  # mm, a card's place: 63 x 88 French cards, 61 x 95 Spanish ones, and room
READER_BOARD = (40.0, 60.0)  # mm, the RC522 module's PCB (antenna on it)

# R's squares in grid cells (x right, y up, (0, 0) the bottom-left corner cell).
_LOCAL = {
    **{f"{i}": (i - 1, 0) for i in range(1, 19)},
    **{f"H{j}": (15, j) for j in range(1, 5)},
    "C1": (16, 2),
    "C2": (17, 2),
    "C3": (16, 3),
    "C4": (17, 3),
}


def _turn(cell, times):
    x, y = cell
    for _ in range(times):
        x, y = CELLS - 1 - y, x  # 90 degrees counter-clockwise about the centre cell
    return x, y


def cells() -> dict[str, tuple[int, int]]:
    """Every square name -> grid cell."""
    out = {}
    for k, colour in enumerate(COLOURS):
        for suffix, cell in _LOCAL.items():
            out[colour + suffix] = _turn(cell, k)
    assert len(set(out.values())) == len(out), "two squares on one cell"
    return out


def mm(cell) -> tuple[float, float]:
    """Cell -> (x, y) in mm from the board's bottom-left corner."""
    return MARGIN + cell[0] * PITCH, MARGIN + cell[1] * PITCH


# The middle of the board: the draw pile, the card spot (the reader under it: one card's outline,
# a shallow recess where each card is laid, read, then moved off) and, beside the spot and out
# of the reader's field, the discard pile (the cards moved off: Tock's discards; Hold'em's row
# and Pocha's trick are laid by the players in front of them).
CENTRE = BOARD / 2
SPOT = (CENTRE + 48.0, CENTRE)
DRAW = (CENTRE - 48.0, CENTRE)
PILE_GAP = 25.0  # mm between the spot's outline and the discard pile's
DISCARD = (SPOT[0], SPOT[1] - CARD[1] - PILE_GAP)
ESP32_AT = (CENTRE, CENTRE - 95.0)  # under the board, a short reach to the reader
# Each square's LED sits at its corner, outside a 21 mm pawn base, under a 5 mm window.
LED_OFFSET = (9.5, 9.5)
LED_WINDOW_MM = 5.0  # the hole through the top, filled with a clear acrylic rod
SPOT_LED = (SPOT[0], SPOT[1] + CARD[1] / 2 + 8.0)  # beside the card spot's outline
# At the table's ends (a Weykick table's goals; each end's display; the buttons on one side).
GOALS_AT = {"A": (CENTRE, 0.0), "B": (CENTRE, BOARD)}
DISPLAYS_AT = {"A": (CENTRE + 60.0, 0.0), "B": (CENTRE - 60.0, BOARD)}
BUTTONS_AT = (CENTRE - 120.0, 0.0)
LED_GROUP = 27  # LEDs fed from each power injection point (4 groups for 107 LEDs)


def load_sensors(folder: Path = HERE) -> dict:
    return json.loads((folder / "sensors.json").read_text())


@dataclass
class Layout:
    squares: dict[str, tuple[float, float]]  # name -> mm
    bits: list[str]  # chain bit -> name (sensors.json)
    registers: list[tuple[float, float]]  # register k -> where its carrier sits (mm)

    @property
    def chain_points(self) -> list[tuple[float, float]]:
        """The route of the chain's clock, load and data lines: ESP32, register 0, 1, ..."""
        return [ESP32_AT] + self.registers

    def bus_length(self) -> float:
        """mm of cable from the ESP32 through every register, run along x then y."""
        pts = self.chain_points
        return sum(_manhattan(a, b) for a, b in zip(pts, pts[1:]))

    def leds(self) -> list[tuple[float, float]]:
        """Where each LED of the chain sits: under bit i's square, the card spot, the goals."""
        dx, dy = LED_OFFSET
        pts = [(self.squares[n][0] + dx, self.squares[n][1] + dy) for n in self.bits]
        return pts + [SPOT_LED] + [GOALS_AT[s] for s in "AB"]

    def sensor_leads_mm(self) -> float:
        """Each sensor's wire to its register's carrier, run along x then y (one conductor)."""
        return sum(_manhattan(self.squares[n], self.registers[i // 8])
                   for i, n in enumerate(self.bits))  # fmt: skip

    def led_links_mm(self) -> float:
        """The LED chain, LED to LED from the main board (one conductor)."""
        pts = [ESP32_AT] + self.leds()
        return sum(_manhattan(a, b) for a, b in zip(pts, pts[1:]))

    def injection_mm(self) -> list[float]:
        """The main board to each power injection point (the first LED of each group)."""
        pts = self.leds()
        return [_manhattan(ESP32_AT, pts[i]) for i in range(0, len(pts), LED_GROUP)]

    def group_links_mm(self) -> list[float]:
        """Each injection group's own LED-to-LED run."""
        pts = self.leds()
        out = []
        for i in range(0, len(pts), LED_GROUP):
            g = pts[i : i + LED_GROUP]
            out.append(sum(_manhattan(a, b) for a, b in zip(g, g[1:])))
        return out

    def longest_lead(self) -> tuple[float, str]:
        """The longest sensor wire (square to its register), mm, and its square."""
        best = (0.0, "")
        for i, name in enumerate(self.bits):
            d = _manhattan(self.squares[name], self.registers[i // 8])
            best = max(best, (d, name))
        return best


def _manhattan(a, b) -> float:
    return abs(a[0] - b[0]) + abs(a[1] - b[1])


@dataclass(frozen=True)
class Run:
    what: str
    conductors: int
    metres: float  # one conductor's length
    wire: str


def runs(lay: Layout) -> list[Run]:
    """Every wire of the table, its length from where the parts sit (Manhattan routes along
    the board's x and y; no slack: the BOM adds it)."""
    m = 1000.0
    to = lambda p: _manhattan(ESP32_AT, p) / m  # noqa: E731
    return [
        Run("sensor leads (VCC, GND, OUT), each square to its register's carrier", 3,
            lay.sensor_leads_mm() / m, "hook-up"),
        Run("the LED chain (5 V, GND, data), LED to LED from the main board", 3,
            lay.led_links_mm() / m, "hook-up"),
        Run("LED power injection (5 V, GND), the main board to each group's first LED", 2,
            sum(lay.injection_mm()) / m, "power"),
        Run("goal sensors (5 V, GND, OUT)", 3, sum(to(p) for p in GOALS_AT.values()), "hook-up"),
        Run("displays (GND, 3V3, SCL, SDA)", 4, sum(to(p) for p in DISPLAYS_AT.values()),
            "hook-up"),
        Run("buttons (3 inputs, GND)", 4, to(BUTTONS_AT), "hook-up"),
        Run("the reader (8 pins)", 8, to(SPOT), "hook-up"),
        Run("the chain's flat cable, ESP32 to register 12", 1, lay.bus_length() / m, "flat"),
    ]  # fmt: skip


def layout(sensors: dict | None = None) -> Layout:
    sensors = sensors or load_sensors()
    grid = cells()
    bits = sensors["bits"]
    unknown = [b for b in bits if b not in grid]
    if unknown:
        raise ValueError(f"sensors.json names squares the board does not have: {unknown}")
    squares = {n: mm(c) for n, c in grid.items()}
    regs = []
    for k in range(sensors["registers"]):
        group = [squares[n] for n in bits[8 * k : 8 * k + 8]]
        # each register's carrier sits at the middle of its eight squares
        regs.append(
            (
                round(sum(p[0] for p in group) / len(group), 1),
                round(sum(p[1] for p in group) / len(group), 1),
            )
        )
    return Layout(squares, bits, regs)


# --- SVG ----------------------------------------------------------------------------------

_FILL = {"R": "#f4c7c3", "G": "#c9e7c4", "B": "#c6d8f2", "Y": "#f8eeb0"}


def _svg(body: list[str], title: str) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{BOARD:g}mm" height="{BOARD:g}mm" '
        f'viewBox="0 0 {BOARD:g} {BOARD:g}" font-family="sans-serif">\n<title>{title}</title>\n'
    )
    return head + "\n".join(body) + "\n</svg>\n"


def _y(y: float) -> float:
    return round(BOARD - y, 2)  # SVG's y grows downwards


def _box(centre, size, style: str) -> str:
    """A rectangle centred on a board point (mm, y up)."""
    (cx, cy), (w, h) = centre, size
    return f'<rect x="{cx - w / 2:g}" y="{_y(cy) - h / 2:g}" width="{w:g}" height="{h:g}" {style}/>'


def template_svg(lay: Layout) -> str:
    """The drilling and placement template, 1:1 in mm: print at 100 % (tiled), tape it on
    the board's underside mirrored or on the top as is, and centre-punch each cross."""
    b = [f'<rect x="0.5" y="0.5" width="{BOARD - 1:g}" height="{BOARD - 1:g}" '
         'fill="none" stroke="black" stroke-width="1"/>']  # fmt: skip
    bit_of = {n: i for i, n in enumerate(lay.bits)}
    for name, (x, y) in sorted(lay.squares.items()):
        h = SQUARE / 2
        b.append(
            f'<rect x="{x - h:g}" y="{_y(y) - h:g}" width="{SQUARE:g}" height="{SQUARE:g}" '
            f'fill="{_FILL[name[0]]}" stroke="black" stroke-width="0.3"/>'
        )
        b.append(
            f'<path d="M{x - 3:g} {_y(y):g}h6M{x:g} {_y(y) - 3:g}v6" '
            'stroke="black" stroke-width="0.25"/>'
        )
        b.append(
            f'<text x="{x:g}" y="{_y(y) - 6:g}" font-size="4" text-anchor="middle">{name}</text>'
        )
        b.append(
            f'<text x="{x:g}" y="{_y(y) + 9:g}" font-size="3" text-anchor="middle">'
            f"bit {bit_of.get(name, '-')}</text>"
        )
    places = ((DRAW, "draw pile"), (SPOT, "card spot: reader below"), (DISCARD, "discard pile"))
    for (cx, cy), label in places:
        b.append(
            _box((cx, cy), CARD, 'fill="none" stroke="black" stroke-dasharray="3 2" '
                 'stroke-width="0.4"')
        )  # fmt: skip
        b.append(
            f'<text x="{cx:g}" y="{_y(cy):g}" font-size="5" text-anchor="middle">{label}</text>'
        )
    b.append(_box(SPOT, READER_BOARD, 'fill="none" stroke="grey" stroke-width="0.4"'))
    # each LED's window (the goals' LEDs sit in a Weykick table's goals, not on this top)
    for x, y in lay.leds()[: len(lay.bits) + 1]:
        b.append(
            f'<circle cx="{x:g}" cy="{_y(y):g}" r="{LED_WINDOW_MM / 2:g}" fill="white" '
            'stroke="black" stroke-width="0.25"/>'
        )
        b.append(
            f'<path d="M{x - 1.5:g} {_y(y):g}h3M{x:g} {_y(y) - 1.5:g}v3" '
            'stroke="black" stroke-width="0.2"/>'
        )
    # a scale bar: a print at the wrong scale shows at once
    b.append(f'<path d="M20 {BOARD - 12:g}h100" stroke="black" stroke-width="1"/>')
    b.append(f'<text x="70" y="{BOARD - 15:g}" font-size="5" text-anchor="middle">'
             "100 mm: measure before drilling</text>")  # fmt: skip
    b.append(
        f'<text x="{CENTRE:g}" y="{CENTRE - 75:g}" font-size="5" text-anchor="middle">'
        f"Plateau Tock board {BOARD:g} x {BOARD:g} mm, pitch {PITCH:g} mm, seen from above</text>"
    )
    b.append(
        f'<text x="{CENTRE:g}" y="{CENTRE - 68:g}" font-size="4" text-anchor="middle">'
        f"crosses: a sensor (centre punch); circles: an LED window, {LED_WINDOW_MM:g} mm "
        "through</text>"
    )
    return _svg(b, "Plateau drilling and placement template (1:1, mm)")


_REG_COLOURS = [
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
    "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#843c39",
]  # fmt: skip


def wiring_svg(lay: Layout) -> str:
    """The wiring seen from below... drawn from above like the template: each square's wire
    to its register, the chain from the ESP32 through registers 0..12, the reader."""
    b = [f'<rect x="0.5" y="0.5" width="{BOARD - 1:g}" height="{BOARD - 1:g}" '
         'fill="white" stroke="black"/>']  # fmt: skip
    for i, name in enumerate(lay.bits):
        k = i // 8
        (x, y), (rx, ry) = lay.squares[name], lay.registers[k]
        col = _REG_COLOURS[k % len(_REG_COLOURS)]
        b.append(
            f'<path d="M{x:g} {_y(y):g}L{rx:g} {_y(y):g}L{rx:g} {_y(ry):g}" fill="none" '
            f'stroke="{col}" stroke-width="0.8" opacity="0.7"/>'
        )
        b.append(f'<circle cx="{x:g}" cy="{_y(y):g}" r="5" fill="{col}"/>')
        b.append(
            f'<text x="{x:g}" y="{_y(y) + 1.5:g}" font-size="4" fill="white" '
            f'text-anchor="middle">{i}</text>'
        )
    leds = [ESP32_AT] + lay.leds()
    b.append(
        '<path d="M' + "L".join(f"{x:g} {_y(y):g}" for x, y in leds) + '" fill="none" '
        'stroke="#c0392b" stroke-width="0.6" stroke-dasharray="2 2"/>'
    )
    for i in range(0, len(leds) - 1, LED_GROUP):
        x, y = leds[i + 1]
        b.append(f'<circle cx="{x:g}" cy="{_y(y):g}" r="4" fill="none" stroke="#c0392b"/>')
    pts = lay.chain_points
    path = "M" + "L".join(f"{p[0]:g} {_y(p[1]):g}" for p in pts)
    b.append(
        f'<path d="{path}" fill="none" stroke="black" stroke-width="2" stroke-dasharray="6 3"/>'
    )
    for k, (rx, ry) in enumerate(lay.registers):
        col = _REG_COLOURS[k % len(_REG_COLOURS)]
        b.append(
            f'<rect x="{rx - 11:g}" y="{_y(ry) - 6:g}" width="22" height="12" fill="{col}" '
            'stroke="black"/>'
        )
        b.append(
            f'<text x="{rx:g}" y="{_y(ry) + 2:g}" font-size="6" fill="white" '
            f'text-anchor="middle">U{k + 1}</text>'
        )
    ex, ey = ESP32_AT
    b.append(f'<rect x="{ex - 28:g}" y="{_y(ey) - 14:g}" width="56" height="28" fill="#333"/>')
    b.append(f'<text x="{ex:g}" y="{_y(ey) + 2:g}" font-size="7" fill="white" '
             'text-anchor="middle">ESP32</text>')  # fmt: skip
    dx, dy = SPOT
    b.append(_box(SPOT, READER_BOARD, 'fill="#ddd" stroke="black"'))
    b.append(f'<text x="{dx:g}" y="{_y(dy):g}" font-size="6" text-anchor="middle">RC522</text>')
    b.append(f'<path d="M{ex:g} {_y(ey):g}L{dx:g} {_y(ey):g}L{dx:g} {_y(dy):g}" '
             'stroke="#555" stroke-width="1.5" fill="none"/>')  # fmt: skip
    b.append(
        f'<text x="{CENTRE:g}" y="20" font-size="8" text-anchor="middle">Sensor chain: bit '
        "numbers on the squares, registers 0..12 (U1..U13), dashed: clock/load/data route "
        f"({lay.bus_length() / 1000:.2f} m)</text>"
    )
    b.append(
        f'<text x="{CENTRE:g}" y="31" font-size="6" text-anchor="middle" fill="#c0392b">red '
        f"dots: the LED chain in order (LED i under bit i, then the card spot, the goals); "
        f"circles: power injection every {LED_GROUP} LEDs</text>"
    )
    return _svg(b, "Plateau wiring: sensors to registers, the chain, the reader")
