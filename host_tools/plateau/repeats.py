"""How every reader of a log takes its lines (replay, the index; the club's scoreboard and the
logger taking up a log use Repeats alone). Lines that repeat a numbered event already seen are
dropped: a board resends what the host asks for, and a log or a broker may bring a line twice,
so each numbered event counts once (Repeats). Lines no logger writes are named and not taken
(Reader): a reader that took them blamed the next genuine line, which they contradicted."""

from __future__ import annotations

from collections import OrderedDict
from dataclasses import dataclass

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

    def opened(self, boot: str) -> None:
        """A boot's hello opens it in the log: its numbering starts at 1 (its first event,
        or a gap from 1: a first event past 1 is a jump, lines missing)."""
        b = self._boot(boot)
        if b["last"] is None:
            b["last"] = 0

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


# the logger's own lines: neither numbered by the board nor a link message (no `at`)
LOGGER_LINES = ("gap", "retake", "outage", "bad")
# lines about a boot that decide whether a hello of a new boot was its restart: numbered
# events and the gaps in them (hostlink.Receiver writes no line of a boot before its hello)
_NUMBERING = ("gap",)


@dataclass
class Read:
    """One line as a reader takes it: `fault` (why the line breaks the log's rules: it is not
    taken) or taken, with `odd` (why its number is out of its boot's order: Repeats.odd) and
    `opens` (a hello that opens a boot: its game is the one played from here)."""

    line: int
    ev: dict
    fault: str | None = None
    odd: str | None = None
    opens: bool = False


class Reader:
    """A log's lines as readers take them, in the order of the log (`read`, then `end` at
    its end): repeats dropped (counted in `repeated`), and the lines that break the log's
    rules named as the ones at fault (not taken), so the next genuine line, which they
    contradict, is taken as it is. What hostlink.Receiver and the logger write:

    - a board's event carries its number (`seq`) and a link message `at`: only the logger's
      own lines (gap, retake, outage, bad) carry neither. An event with no number where one
      is due (an `undo` slipped in) is at fault;
    - a boot's first line in the log is its hello (the receiver holds a session's events
      until its hello has come): a numbered event of another boot than the one the last
      hello opened is at fault;
    - a hello of the boot being followed is never behind the numbers the log holds of it (a
      board never goes back on its numbering), and at the number the log is at it names the
      game being played (nothing happened since); a hello of a boot the log left is at fault
      (a board never goes back to a boot) unless a `retake` of that boot comes just before
      it (the logger took it up again: hostlink.Receiver._check_log);
    - a hello of a new boot is a restart only if the lines after it are that boot's: it is
      held (with the lines after it that name no number) until a numbered line or gap says
      which boot goes on. The boot it left going on, the hello was the stray line: it and the
      lines it would have opened are at fault, and it opens nothing.

    Before a log's first hello (a log begun before greetings were logged) a boot is taken as
    opened by its first line. `held` is what waits for that decision: a reader that keeps
    where it got to (the index) keeps it from before the first held line."""

    def __init__(
        self, boots: dict[str, dict] | None = None, boot: str | None = None, game=None
    ) -> None:
        self.repeats = Repeats(boots)
        self.boot = boot if boot is not None else next(reversed(self.repeats.boots), None)
        self.game = game  # the game the boot being followed plays, when known
        self.greeted = self.boot is not None  # a hello (or a boot's first line) seen
        self.retaken: str | None = None  # a retake's boot, until the hello after it
        self.held: list[tuple[int, dict]] = []  # a new boot's hello and the lines after it
        self.repeated = 0

    def read(self, line: int, ev: dict) -> list[Read]:
        """Log line number `line`, holding the event ev: the lines decided by it (none while
        a hello of a new boot waits for what follows it), each taken or at fault."""
        if self.held:
            boot, kind = ev.get("boot"), ev["type"]
            new = self.held[0][1]["boot"]
            numbering = isinstance(boot, str) and ("seq" in ev or kind in _NUMBERING)
            if numbering and boot in (new, self.boot):  # the new boot goes on, or the old
                return self._release(boot == new, line) + self.read(line, ev)
            if kind == "hello" and isinstance(boot, str) and boot != new:
                if boot != self.boot:  # a second restart: the first one said only hello
                    return self._release(True, line) + self.read(line, ev)
                if self._fault(ev, kind, boot):  # a stray hello of the old boot: alone
                    return [Read(line, ev, fault=self._fault(ev, kind, boot))]
                return self._release(False, line) + self.read(line, ev)  # the old boot on
            if numbering:  # a line of a third boot: its own fault (no hello opened it)
                got = self._take(line, ev)
                return [got] if got else []
            self.held.append((line, ev))
            return []
        out = self._take(line, ev)
        return [] if out is None else [out]

    def end(self) -> list[Read]:
        """At the log's end: a hello still held is a restart nothing followed yet."""
        return self._release(True, 0)

    def _release(self, restart: bool, by: int) -> list[Read]:
        """The held hello and the lines after it, as a restart or (`by` the line of the boot
        it left going on) as a stray hello."""
        held, self.held = self.held, []
        if not held:
            return []
        line, hello = held[0]
        if restart:
            self._opened(hello)
            out = [Read(line, hello, opens=True)]
            for n, ev in held[1:]:
                got = self._take(n, ev)
                out += [got] if got else []
            return out
        why = (
            f"a hello of boot {hello['boot']} out of place: the log goes on with boot"
            f" {self.boot} (line {by}), which a board that restarted never does"
        )
        out = [Read(line, hello, fault=why)]
        for n, ev in held[1:]:
            if ev.get("boot") == hello["boot"]:
                out.append(
                    Read(
                        n,
                        ev,
                        fault=f"a line of boot {hello['boot']}, whose hello"
                        f" (line {line}) was out of place",
                    )
                )
            else:
                got = self._take(n, ev)
                out += [got] if got else []
        return out

    def _opened(self, hello: dict) -> None:
        self.boot, self.greeted, self.retaken = hello["boot"], True, None
        self.repeats.opened(self.boot)
        game = hello.get("game")
        self.game = game if isinstance(game, str) else None

    def _take(self, line: int, ev: dict) -> Read | None:
        kind = ev["type"]
        boot = ev.get("boot")
        fault = self._fault(ev, kind, boot)
        if fault:
            return Read(line, ev, fault=fault)
        if kind == "hello" and isinstance(boot, str):
            if boot != self.boot:
                if not self.greeted or boot == self.retaken:
                    self._opened(ev)
                    return Read(line, ev, opens=True)
                self.held.append((line, ev))  # a restart, if what follows says so
                return None
            self.retaken = None
            return Read(line, ev)
        if self.repeats.seen(ev):
            self.repeated += 1
            return None
        if "seq" in ev and isinstance(boot, str) and not self.greeted:
            self.boot, self.greeted = boot, True  # a log without greetings: its first boot
        if kind == "retake":
            self.retaken = boot
        elif kind in ("game", "snapshot") and boot == self.boot:
            game = ev.get("game")
            self.game = game if isinstance(game, str) else self.game
        return Read(line, ev, odd=self.repeats.odd)

    def _fault(self, ev: dict, kind: str, boot: object) -> str | None:
        """Why a line (not held) breaks the log's rules, or None."""
        if "seq" not in ev and "at" not in ev and kind not in LOGGER_LINES:
            return f"{kind} with no number where one is due: an event of the board has one"
        if not isinstance(boot, str) or not self.greeted:
            return None
        if "seq" in ev and boot != self.boot and kind != "retake":
            return f"event #{ev['seq']} of boot {boot}, a boot no hello before it opened"
        if kind != "hello":
            return None
        at = ev.get("at")
        known = self.repeats.boots.get(boot)
        if boot != self.boot:
            if known is not None and boot != self.retaken:
                return (
                    f"a hello of boot {boot} out of place: the log left that boot (a board"
                    " never goes back to one)"
                )
            return None
        last = known["last"] if known else None
        if isinstance(at, int) and last is not None and at < last:
            return (
                f"a hello of boot {boot} out of place: it says the board is at #{at}, the log"
                f" already holds #{last} of it (a board never goes back)"
            )
        game = ev.get("game")
        if at == (last or 0) and self.game is not None and isinstance(game, str):
            if game != self.game:
                return (
                    f"a hello of boot {boot} out of place: it names {game} at #{at}, where the"
                    f" board plays {self.game} (nothing happened since)"
                )
        return None
