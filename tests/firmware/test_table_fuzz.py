# Typed garbage through the whole command path (issue 15): raw frames into the link of a
# table playing each game, every JSON type at every key the commands know and at keys they
# do not, huge numbers, deep nesting, text that is not JSON. The board must answer every
# command (done, or refused with the reason), never raise, never take a refusal from a check
# that is missing ("internal error"), and keep a game it can save and resume. Runs under
# pytest and under MicroPython with an ESP32 heap, where MemoryError is part of the garbage.
import json

from check import Rand, scratch

from link import frame
from link.commands import TABLE, all_words
from link.ring import Ring
from sim import VirtualClock

COMMANDS = 10000  # fuzzed commands in all, over the four games
GAMES = ("tock", "weykick", "holdem", "pocha")
MICROPYTHON = __import__("sys").implementation.name == "micropython"
SQUEEZE = 3000  # bytes of heap left free for the last commands of each game ...
SQUEEZED = 200  # ... that many


def names():
    """Every argument name the declarations know, and some they do not."""
    from games import declaration

    out = ["game", "id", "seat", "amount", "", "cmd2", "players ", "é"]
    for decl in TABLE.values():
        out += [d[0] for d in decl]
    for g in GAMES:
        mod = declaration(g)
        out += [d[0] for d in mod.SETTINGS]
        for decl in mod.COMMANDS.values():
            out += [d[0] for d in decl]
    return out


TEXTS = (
    "",
    "1",
    "0",
    "-1",
    "2",
    "10",
    "1/2",
    "0/0",
    "2/1",
    "1/",
    "first-to:10",
    "timed:5",
    "first-to:0",
    "7H",
    "X",
    "es:12B",
    "es:99Z",
    "on",
    "off",
    "tock",
    "pocha",
    "holdem",
    "weykick",
    "classic",
    "toc-fr",
    "no-limit",
    "full",
    "camp",
    "R18",
    "\x00",
    "\u00e9",
    "1000000000",
    "1e9",
    " 4",
    "4 ",
    "NaN",
)
NUMBERS = (
    0,
    1,
    2,
    3,
    4,
    5,
    8,
    10,
    40,
    48,
    -1,
    -100,
    1000000000,
    1000000001,
    2**31,
    2**64,
    -(2**70),
    10**30,
)


def value(r, depth=0):
    """Any JSON value, often one a command could want."""
    k = r.below(12)
    if k == 0:
        return None
    if k == 1:
        return r.below(2) == 1
    if k in (2, 3):
        return r.pick(NUMBERS)
    if k == 4:
        return r.pick((0.5, 1.0, -0.0, 1e308, -1e308, 3.25, 1e-300))
    if k in (5, 6, 7):
        return r.pick(TEXTS)
    if k == 8:
        return "x" * r.below(200)
    if depth > 3:
        return r.below(100)
    if k == 9:
        return [value(r, depth + 1) for _ in range(r.below(4))]
    if k == 10:
        return dict((r.pick(KEYS), value(r, depth + 1)) for _ in range(r.below(4)))
    return position(r)


def position(r):
    """A Tock position (T4) with one part made wrong, or none."""
    pos = {
        "rules": "classic",
        "players": 4,
        "turn": "R",
        "waiting": [],
        "pawns": {c: ["camp", "camp", "camp", "camp"] for c in "RGBY"},
    }
    key = r.pick(("rules", "players", "turn", "waiting", "pawns", "flags", "none"))
    if key != "none":
        pos[key] = value(r, 3)
    return pos


def payload(r, words):
    """One frame's payload: mostly a command object, sometimes not JSON at all."""
    k = r.below(20)
    if k == 0:
        depth = 1 + r.below(500)
        return ("[" * depth + "]" * depth).encode()
    if k == 1:
        return ('{"cmd":"new","game":"holdem","seats":' + "9" * (1 + r.below(400)) + "}").encode()
    if k == 2:
        return bytes(r.below(256) for _ in range(1 + r.below(60)))
    cmd = {"cmd": r.pick(words) if r.below(10) else value(r)}
    if r.below(3) == 0:
        cmd["id"] = value(r) if r.below(2) else r.below(1000)
    for _ in range(r.below(5)):
        cmd[r.pick(KEYS)] = value(r)
    data = json.dumps(cmd).encode()
    return data[:LONGEST]  # cut short when longer than a frame holds: not JSON any more


LONGEST = frame.MAX_FRAME - 20  # a payload the decoder takes whole (COBS and CRC added)


KEYS = names()


def unload():
    """A board plays one game at a time: the last one's code leaves the heap (on an ESP32
    heap the four games' code does not fit at once)."""
    import gc
    import sys

    for name in list(sys.modules):
        if name.startswith("games.") and not name.endswith("settings") and name != "games.base":
            del sys.modules[name]
    gc.collect()


class Wire:
    """The board's transport, counting answers as they go by without allocating (when the
    heap is squeezed, the test must not be the one that runs out): a JSON payload is
    readable as it is inside its COBS frame (only zero bytes are replaced, and every 254th
    byte), and an answer is shorter than that."""

    def __init__(self):
        self.buf = bytearray(32768)
        self.n = 0

    def write(self, data):
        k = min(len(data), len(self.buf) - self.n)
        self.buf[self.n : self.n + k] = data[:k] if k < len(data) else data
        self.n += k

    def count(self, pattern):
        buf = self.buf
        c = 0
        i = buf.find(pattern, 0, self.n)
        while i >= 0:
            c += 1
            i = buf.find(pattern, i + 1, self.n)
        return c

    def counts(self):
        """(answers, done, short of memory, internal errors) written since the last call."""
        got = (
            self.count(b'"type":"answer"'),
            self.count(b'"ok":true'),
            self.count(b"short of memory"),
            self.count(b"the firmware failed"),
        )
        self.n = 0
        return got

    def read(self):
        return b""

    def table_mode(self):
        pass

    def repl_mode(self):
        pass


def fuzz(game, n, seed, squeeze=0):
    """n fuzzed commands to a table playing `game`; raises if the board raises. With
    `squeeze` (MicroPython only), the last SQUEEZED commands each find only that many bytes
    of heap free: the board must refuse what it has no memory for, and go on (an answer it
    had no heap to send, the host sends again). Returns the counts in COUNTS order."""
    from power import power_up

    r = Rand(seed)
    words = all_words() + ["hello", "snapshot", "repl", "bye", "fly", ""]
    flash = scratch("fuzz")
    wire = Wire()
    ring = Ring(4096, 64)
    # The ring of the board that resumes from the saves (below), taken now as a board takes
    # its ring first thing: 4 KB in one piece is not found later in a heap the fuzz has cut up
    spare = Ring(4096, 64)
    table = power_up(wire, VirtualClock(), None, "f00d", ring, flash, game)
    link = table.link
    c = dict((k, 0) for k in COUNTS)
    for i in range(n):
        data = frame.encode(payload(r, words))
        tight = squeeze and i >= n - SQUEEZED
        hellos = link.hellos
        hog = [squeezed(squeeze) if tight else None]  # held while the board works
        table.receive(data)
        table.step()
        hog.pop()
        table.running = True  # a fuzzed `repl` ends the loop: the fuzz goes on
        got = wire.counts()
        answered = got[0] + link.hellos - hellos  # a hello is answered by the board's hello
        c["squeezed" if tight else "commands"] += 1
        c["answered squeezed" if tight else "answered"] += min(answered, 1)
        c["done"] += got[1]
        c["short of memory"] += got[2]
        c["internal errors"] += got[3]
        if i % 500 == 499:  # what the board saved, it can resume
            import gc

            gc.collect()  # a board powers up with an empty heap: the fuzzed one's garbage goes
            again = power_up(wire, VirtualClock(), None, "beef", spare, flash, game)
            link2 = again.link
            assert again.store.error is None, again.store.error
            # every event sent is on flash (one kept, not yet sent for lack of heap, may be)
            assert link.seq - link.unsent() <= link2.seq <= link.seq
            assert link2.boot == link.boot
            c["resumed"] += 1
            wire.n = 0
            again = link2 = None  # the resumed board goes: one board, one heap
    return c


COUNTS = (
    "commands",
    "answered",
    "squeezed",
    "answered squeezed",
    "short of memory",
    "internal errors",
    "done",
    "resumed",
)


def squeezed(free):
    """Heap taken until only about `free` bytes are left, in 512-byte holes (the heap kept
    as long as the result is)."""
    import gc

    gc.collect()
    big = small = None
    try:  # chains, not lists: a list's own growth would fail first and leave room
        while True:
            big = (big, bytearray(512))
    except MemoryError:
        pass
    try:
        while True:
            small = (small, bytearray(8))
    except MemoryError:
        pass
    for _ in range(free // 512):
        if big is not None:
            big = big[0]
    gc.collect()
    return (big, small)


def test_typed_garbage_never_kills_the_board():
    total = dict((k, 0) for k in COUNTS)
    for k in range(len(GAMES)):
        got = fuzz(GAMES[k], COMMANDS // len(GAMES), 7 + k, SQUEEZE if MICROPYTHON else 0)
        for key in COUNTS:
            total[key] += got[key]
        unload()
    line = (
        "fuzz: %d typed-garbage commands through the link to the four games, 0 crashes, "
        "%d internal errors: %d of %d answered (%d done)"
        % (
            total["commands"] + total["squeezed"],
            total["internal errors"],
            total["answered"],
            total["commands"],
            total["done"],
        )
    )
    if total["squeezed"]:
        line += "; %d with about %d B of heap left: %d answered, %d of them short of memory" % (
            total["squeezed"],
            SQUEEZE,
            total["answered squeezed"],
            total["short of memory"],
        )
    line += "; %d saves resumed" % total["resumed"]
    print(line)
    try:
        from conftest import REPORT

        REPORT.append(line)
    except ImportError:  # under MicroPython: printed above
        pass
    assert total["internal errors"] == 0
    assert total["answered"] == total["commands"]  # every frame answered while there is heap
