"""Lines that repeat a numbered event already seen, dropped: what every reader of a log does
(replay, the index, the club's scoreboard), and the logger when it takes up a log. A board
resends what the host asks for, and a log or a broker may bring a line twice: each numbered
event counts once."""

from __future__ import annotations

from collections import OrderedDict

BOOTS_KEPT = 64  # boots whose numbers seen the index remembers (to drop repeated lines)
RANGES_KEPT = 32  # ranges of numbers seen a boot (one in a good log; a damaged line adds one)


class Repeats:
    """Drops lines that repeat a numbered event already seen: per boot, the numbers seen, as
    ranges (one, in a good log). A number out of its boot's order (a jump no gap line says,
    or a step back to a number not seen) is taken, and `odd` says why: a damaged line, or
    lines missing. When the numbering goes on below a jump, the jump was a damaged number:
    it is not held against the event that really bears it (a damaged seq in the middle of a
    log hid every later line of its boot). Bounded: the last BOOTS_KEPT boots, RANGES_KEPT
    ranges a boot (past that the lowest is forgotten: a repeat of it is taken again, which
    loses nothing)."""

    def __init__(self, boots: dict[str, dict] | None = None):
        self.boots: OrderedDict[str, dict] = OrderedDict(boots or {})
        self.odd: str | None = None  # why the event last taken is out of its boot's order

    def seen(self, ev: dict) -> bool:
        self.odd = None
        boot = ev.get("boot")
        if not isinstance(boot, str):
            return False
        kind = ev["type"]
        if kind in ("retake", "gap"):
            b = self._boot(boot)
            if kind == "retake":
                # the logger found lines the board never sent: the numbers from "from" on
                # are taken again (hostlink.Receiver._check_log)
                b["r"] = [[lo, min(hi, ev["from"] - 1)] for lo, hi in b["r"] if lo < ev["from"]]
                b["last"] = ev["from"] - 1
            elif isinstance(ev.get("to"), int):
                b["last"] = ev["to"]  # gone, as the line says: what follows is in order
            b["jump"] = None
            return False
        seq = ev.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return False
        b = self._boot(boot)
        ranges = b["r"]
        if any(lo <= seq <= hi for lo, hi in ranges):
            return True
        last, jump = b["last"], b["jump"]
        if jump is not None and seq < jump:  # the numbering goes on below the jump
            _drop(ranges, jump)
            b["jump"] = None
        elif last is not None and seq > last + 1:
            self.odd = f"event #{seq} of boot {boot} follows #{last}, no gap line between"
            b["jump"] = seq
        elif last is not None and seq <= last:
            self.odd = f"event #{seq} of boot {boot} comes after #{last}"
        else:
            b["jump"] = None  # in order: a jump before it was lines missing, not a damage
        _add(ranges, seq)
        b["last"] = seq
        return False

    def had(self, boot: str, seq: int) -> None:
        """Every number of `boot` up to `seq` seen (a state taken up from there)."""
        self.boots[boot] = up_to(seq)

    def _boot(self, boot: str) -> dict:
        b = self.boots.get(boot)
        if b is None:
            b = self.boots[boot] = {"r": [], "last": None, "jump": None}
        self.boots.move_to_end(boot)
        while len(self.boots) > BOOTS_KEPT:
            self.boots.popitem(last=False)
        return b


def up_to(seq: int) -> dict:
    """A boot's numbers seen, all of them up to `seq` (its last)."""
    return {"r": [[1, seq]] if seq > 0 else [], "last": seq, "jump": None}


def _add(ranges: list[list[int]], n: int) -> None:
    """n into sorted, disjoint ranges [lo, hi] (it is in none of them)."""
    i = 0
    while i < len(ranges) and ranges[i][1] < n:
        i += 1
    if i and ranges[i - 1][1] == n - 1:
        ranges[i - 1][1] = n
        if i < len(ranges) and ranges[i][0] == n + 1:
            ranges[i - 1][1] = ranges.pop(i)[1]
    elif i < len(ranges) and ranges[i][0] == n + 1:
        ranges[i][0] = n
    else:
        ranges.insert(i, [n, n])
    del ranges[:-RANGES_KEPT]


def _drop(ranges: list[list[int]], n: int) -> None:
    """n out of the ranges."""
    for i, (lo, hi) in enumerate(ranges):
        if lo <= n <= hi:
            ranges[i : i + 1] = [r for r in ([lo, n - 1], [n + 1, hi]) if r[0] <= r[1]]
            return


def seen_ok(v: object, count_ok) -> bool:
    """Whether v is a boot's numbers seen as Repeats keeps them: sorted, disjoint ranges, a
    few (each number `count_ok`)."""
    if not isinstance(v, dict) or set(v) != {"r", "last", "jump"}:
        return False
    ranges = v["r"]
    if not isinstance(ranges, list) or len(ranges) > RANGES_KEPT:
        return False
    below = -1
    for r in ranges:
        if not (isinstance(r, list) and len(r) == 2 and all(count_ok(x) for x in r)):
            return False
        if not below < r[0] <= r[1]:
            return False
        below = r[1]
    return all(x is None or count_ok(x) for x in (v["last"], v["jump"]))
