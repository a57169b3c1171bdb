"""What a Tock table lights, as the host knows it from the events: the board's own show()
(firmware/games/tock/show.py) fed with the position the host follows, the card laid, the
last move and an `illegal` not yet corrected. What only the board sees is left out: a pawn in
a player's hand (so the host shows the pawns a card can move, not where a lifted one may go)
and the moment a highlight ends (the last move's squares stay lit until the next event).
For the live view and the club's table page."""

from __future__ import annotations

from plateau.fw.games.base import BLINK, DIM, WHITE, Show
from plateau.fw.games.tock.rules import Card, Position, sensor_cell
from plateau.fw.games.tock.show import show
from plateau.fw.games.tock.tracker import TockGame
from plateau.games.tock.checker import CORE

# colour codes (games/base.py) in words, as the pages and the live view say them
NAMES = {1: "red", 2: "green", 3: "blue", 4: "yellow", WHITE: "white", DIM: "dim"}


class _Seen:
    """The part of a TockGame that show() reads, from what the events say."""

    cell_leds = TockGame.cell_leds
    reach_buf = TockGame.reach_buf
    _leds = None
    _buf = None

    def __init__(self, names, pos: Position, card: str | None, moved: bool, fix: str):
        self._bit_cell = bytearray(sensor_cell(n) for n in names)
        self.pos = pos
        self.card = Card(card) if card else None
        self.moved_at = 0 if moved else None  # (lit at "now" 0: until the next event)
        self.fix = fix
        self.owed = bool(fix)
        self.camp = bytearray(16)  # a colour's pawns in camp in its first slots
        for c in range(4):
            for k in range(pos.camp(c) if c in pos.colours() else 0):
                self.camp[4 * c + k] = 1

    def lifted(self):
        return None


def lights(
    names, pos: Position, card: str | None, moved: bool, fix: str = "", hints: int = 1
) -> dict[str, str]:
    """Square name -> the colour it is lit ("white", "red", "red blinking"...): what the
    table's LEDs show for this position. `names`: the sensors' names in chain order (a LED
    a sensor); `hints` as the table's setting (1: the pawns a card moves)."""
    seen = _Seen(names, pos, card, moved, fix)
    with CORE:  # (the rules core's 7 works in buffers of its module: a thread at a time)
        while True:
            out = Show(len(names))
            out.hints = hints
            show(seen, out, 0)
            if out.job is None:
                break
            while not out.job.step(1 << 20):  # (the board: a piece a pass; here at once)
                pass
    lit = {}
    for i, code in enumerate(out.lights):
        if code:
            word = NAMES.get(code & ~BLINK, "lit")
            lit[names[i]] = word + (" blinking" if code & BLINK else "")
    return lit


def said(lit: dict[str, str]) -> str:
    """The lights in words, grouped by colour: 'white R18 G5; red blinking R9'."""
    groups: dict[str, list[str]] = {}
    for square, colour in lit.items():
        groups.setdefault(colour, []).append(square)
    order = ["white", "red blinking", "red", "green", "blue", "yellow", "dim"]
    parts = []
    for colour in sorted(groups, key=lambda c: (order.index(c) if c in order else 99, c)):
        parts.append(f"{colour} {' '.join(groups[colour])}")
    return "; ".join(parts)
