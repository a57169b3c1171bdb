"""Tock in the live view: its board drawn after each move, as the table's ring of 72 squares
(or a colour's 18 squares a line), each event checked with the rules core."""

from __future__ import annotations

import re

from plateau.games import Mismatch
from plateau.games.tock.checker import TockChecker
from plateau.view import say


class Live:
    """Tock in the live view: each event checked with the rules core (a line `!!` says why
    one does not follow) and the board drawn after every move (`draw`: "ring", "rows" or
    "none"), the squares an `illegal` names marked."""

    def __init__(self, draw: str) -> None:
        self.draw_as = draw
        self.checker = TockChecker()
        self.marks: set[str] = set()  # squares the last `illegal` named
        self.fix = ""  # the `fix` of an `illegal` not yet corrected
        self.legend = True  # said once, under the first board drawn

    def show(self, ev: dict) -> None:
        try:
            self.checker.feed(ev)
        except Mismatch as e:
            say(f"      !! {e}", flush=True)
            return
        kind = ev.get("type")
        if kind == "illegal":
            self.fix = str(ev.get("fix", ""))
            self.marks = set(SQUARE.findall(self.fix))
        elif kind in ("move", "undo", "game", "corrected", "resumed"):
            self.marks = set()
            self.fix = ""
        if kind in ("move", "undo", "game", "win", "illegal"):
            self.draw()
        if kind in ("card", "move", "undo", "game", "win", "illegal", "corrected", "discard"):
            self.lights()

    def lights(self) -> None:
        """The table's lights in words, as the board's own show() has them for what the
        events say (games/tock/lights.py): the pawns the card laid can move, the squares to
        put right, whose turn; not where a pawn in a hand may go (the board alone sees it)."""
        c = self.checker
        pos = c.pos
        if self.draw_as == "none" or pos is None:
            return
        from plateau import HARDWARE
        from plateau.games.tock.lights import lights, said

        if not hasattr(self, "_names"):
            import json

            self._names = json.loads((HARDWARE / "sensors.json").read_text())["bits"]
        try:
            lit = lights(self._names, pos, c.card, c.last_move is not None, self.fix)
        except ValueError as e:  # a card or position the log got wrong (the checker says so)
            say(f"      lights: not drawn ({e})", flush=True)
            return
        say(f"      lights: {said(lit)}", flush=True)

    def draw(self) -> None:
        if self.draw_as == "rows":
            for line in self.checker.rows().split("\n"):
                say(line, flush=True)
        elif self.draw_as == "ring":
            for line in ring(self.checker, self.marks):
                say(line, flush=True)
            if self.legend and self.checker.pos is not None:
                for line in LEGEND.split("\n"):
                    say("   " + line, flush=True)
                self.legend = False


SQUARE = re.compile(r"\b([RGBY](?:H[1-4]|C[1-4]|1[0-8]|[1-9]))\b")
SIDE = 18


def _ring_cells() -> dict[str, tuple[int, int]]:
    """Square name -> (row, column) on a 20 x 20 grid: the track round the edge in the
    order of play (R along the top, G down the right, B along the bottom, Y up the left),
    each home going inward from its colour's 16."""
    at: dict[str, tuple[int, int]] = {}
    for k in range(1, SIDE + 1):
        at[f"R{k}"] = (0, k)
        at[f"G{k}"] = (k, SIDE + 1)
        at[f"B{k}"] = (SIDE + 1, SIDE + 1 - k)
        at[f"Y{k}"] = (SIDE + 1 - k, 0)
    for j in range(1, 5):
        at[f"RH{j}"] = (j, 16)
        at[f"GH{j}"] = (16, SIDE + 1 - j)
        at[f"BH{j}"] = (SIDE + 1 - j, 3)
        at[f"YH{j}"] = (3, j)
    return at


RING = _ring_cells()
LEGEND = (
    "R G B Y a pawn, r g b y the pawn(s) of the last move, ! a square to put right,\n"
    "   . track (R1 top left, play goes clockwise; C18 is C's start, C16 its way home), o home"
)


def ring(checker, marks: set[str] | frozenset = frozenset()) -> list[str]:
    """The Tock board drawn as the table is: the ring of 72 squares, the homes inside, the
    camps, whose turn, the last move; `marks` (squares an `illegal` named) shown as !."""
    from plateau.fw.games.tock.rules import COLOURS, TRACK

    pos = checker.pos
    if pos is None:
        return ["(no game yet)"]
    moved = set()
    if checker.last_move:
        moved = {s for step in checker.last_move["steps"] for s in step}
    grid = [[" "] * (SIDE + 2) for _ in range(SIDE + 2)]
    for name, (r, c) in RING.items():
        col = "RGBY".index(name[0])
        if "H" in name:
            v = pos.cells[TRACK + 4 * col + int(name[2]) - 1]
            empty = "o"
        else:
            v = pos.cells[col * SIDE + int(name[1:]) - 1]
            empty = "."
        mark = COLOURS[v - 1] if v else empty
        if name in moved and v:
            mark = mark.lower()
        if name in marks:
            mark = "!"
        grid[r][c] = mark
    lines = ["   " + " ".join(row) for row in grid]
    camps = "  ".join(f"{COLOURS[c]} {pos.camp(c)}" for c in pos.colours())
    lines[0] = lines[0] + "   R1 ->"
    lines.append(
        f"   camps: {camps}"
        + (
            "   waiting: " + " ".join(COLOURS[c] for c in pos.colours() if pos.waiting >> c & 1)
            if pos.waiting
            else ""
        )
    )
    lines.append("   " + checker.status("   "))
    return lines
