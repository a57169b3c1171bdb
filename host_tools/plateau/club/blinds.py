"""Hold'em's blind levels from a structure file, and where the clock stands.

A structure file is one level a line (`#` starts a comment):

    # small/big  minutes
    1/2   15
    2/4   15
    break 10
    5/10  15

The clock runs from the start of the table's Hold'em game; the last level lasts for ever. The
table's own blinds are set by the operator between hands (`plateau send blinds 2/4`, stacks
kept): the page shows the level due and says when the table's blinds are behind it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

# ASCII digits only: \d also takes "２", which int() reads as 2 but the table refuses
LINE = re.compile(r"(?:([0-9]{1,9})/([0-9]{1,9})|(break))\s+([0-9]{1,4}(?:\.[0-9]+)?)\Z")


@dataclass(frozen=True)
class Level:
    small: int | None  # None: a break
    big: int | None
    minutes: float

    def words(self) -> str:
        return "break" if self.small is None else f"{self.small}/{self.big}"


class StructureError(ValueError):
    pass


def parse(text: str) -> list[Level]:
    levels = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        m = LINE.match(" ".join(line.split()))
        if not m:
            raise StructureError(
                f"line {n}: {raw.strip()!r} is not 'SMALL/BIG MINUTES' or 'break MINUTES'"
            )
        minutes = float(m.group(4))
        if minutes <= 0:
            raise StructureError(f"line {n}: a level lasts more than 0 minutes")
        if m.group(3):
            levels.append(Level(None, None, minutes))
        else:
            small, big = int(m.group(1)), int(m.group(2))
            if not 0 < small <= big:
                raise StructureError(
                    f"line {n}: the small blind is more than 0 and at most the big"
                )
            if big != 2 * small:  # as the table checks its own (games/holdem/game.py)
                raise StructureError(
                    f"line {n}: the big blind is twice the small (H2): "
                    f"{small}/{2 * small}, not {small}/{big}"
                )
            levels.append(Level(small, big, minutes))
    if not any(lv.small is not None for lv in levels):
        raise StructureError("a structure needs at least one level of blinds")
    return levels


def load(path: str | Path) -> list[Level]:
    return parse(Path(path).read_text())


def clock(levels: list[Level], elapsed_s: float) -> dict:
    """Where the clock stands `elapsed_s` after the game started: the level (1-based), its
    blinds, the seconds left in it (None on the last), the next level's blinds."""
    t = max(0.0, elapsed_s)
    for i, lv in enumerate(levels):
        length = lv.minutes * 60
        last = i == len(levels) - 1
        if t < length or last:
            return {
                "level": i + 1,
                "blinds": lv.words(),
                "small": lv.small,
                "big": lv.big,
                "left_s": None if last else round(length - t, 1),
                "next": None if last else levels[i + 1].words(),
            }
        t -= length
    raise AssertionError("unreachable: the last level lasts for ever")
