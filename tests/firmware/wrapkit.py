# Across the tick counter's wrap (issue 34): a table script played through the simulated
# firmware with the board's counter (sim.VirtualClock's `start`) at 0 and at points just
# before it wraps, every frame the board writes noted with the world's time it went out at.
# Nothing may depend on what the counter reads: the same frames at the same times, apart
# from the fields that are the counter's reading (a move's "t", a heartbeat's "up"), which
# must read exactly `start` more, modulo the period. Used by the test_sim_wrap_* modules
# (under MicroPython and CPython) and, as a command, by tests/host/test_wrap_games.py:
#   micropython -m wrapkit SCRIPT HWDIR STATEDIR START    (the trace on stdout, a line a frame)
import gc
import json
import sys

from clock import TICKS_MAX
from sim import VirtualClock
from sim.run import Capture, Sim
from sim.script import read

TICKED = ("t", "up")  # the fields that are the counter's reading, not a duration


class Timed(Capture):
    """The board's console: each frame as one line, "ms payload": the world's time it went
    out at (the clock's `now`), the payload with its counter readings taken back to the
    world's time (which differs from them by `start`, and by nothing else) and the boot ids
    numbered in order of appearance (a reset draws a random one). The lines are written to
    `out`, or kept as their times and hashes (a whole table's trace in text would take the
    heap a chip-sized run needs), or compared with those of `ref` as they come."""

    def __init__(self, out=None, ref=None, look=None, keep=-1):
        Capture.__init__(self)
        from array import array

        from link import frame

        self.decoder = frame.Decoder()
        self.clock = None
        self.boots = {}
        self.out = out
        self.ref = ref  # a Timed whose run this one must repeat
        self.look = look  # called with each event, as compared
        self.times = array("i")  # each line's time ...
        self.hashes = array("i")  # ... and its hash (when neither out nor ref)
        self.n = 0  # lines so far
        self.differs = None  # (line number, its line) of the first that differs from ref
        self.keep = keep  # the number of a line to keep whole, as `kept`
        self.kept = None

    def write(self, data):
        if not self.up:
            return
        for payload in self.decoder.feed(data):
            self._line(json.loads(payload))

    def _line(self, ev):
        clock = self.clock
        for k in TICKED:
            if k in ev:
                ev[k] = (ev[k] - clock.start) & TICKS_MAX
        boot = ev.get("boot")
        if boot is not None:
            ev["boot"] = self.boots.setdefault(boot, len(self.boots))
        keys = sorted(ev)
        line = "%d {%s}" % (
            clock.now,
            ",".join("%s:%s" % (json.dumps(k), json.dumps(ev[k])) for k in keys),
        )
        if self.look:
            self.look(ev)
        n = self.n
        self.n = n + 1
        if n == self.keep:
            self.kept = line
        h = hash(line) & 0x3FFFFFFF
        ref = self.ref
        if self.out:
            self.out.write(line + "\n")
        elif ref is None:
            self.times.append(clock.now)
            self.hashes.append(h)
        elif self.differs is None and (n >= ref.n or ref.hashes[n] != h):
            self.differs = (n, line)


def trace(path, hw_dir, state, start, out=None, ref=None, look=None, keep=-1):
    """The frames of the script at `path`, the counter starting at `start` (a Timed, see
    there); the flash folder `state` emptied first."""
    import os

    try:
        for name in os.listdir(state):
            os.remove(state + "/" + name)
    except OSError:
        os.mkdir(state)
    with open(path) as f:
        settings = read(f)
    t = Timed(out, ref, look, keep)
    clock = VirtualClock(start=start)
    t.clock = clock
    Sim(settings, path, clock, t, "00000000", hw_dir, None, state).run()
    return t


def wrap_at(ms):
    """The counter's start at which it wraps `ms` into the script (world time)."""
    return -ms & TICKS_MAX


def starts(times, rand, n):
    """n starts that wrap the counter within seconds before a frame (its time in `times`,
    picked at random: the timers running when it was written, debounce, settle, lockout, a
    heartbeat's period); and one that wraps it in the first pass."""
    out = [wrap_at(1)]
    for _ in range(n):
        out.append(wrap_at(max(1, rand.pick(times) - rand.int(1, 3000))))
    return out


def across(name, script, seed, positions=None, n=4, look=None):
    """Plays `script` (with its `position` files: name -> dict) from 0, `look` seeing each
    event, then from n seeded starts (starts()), asserting each wrote the same frames at
    the same times; AssertionError names the first that differs."""
    from check import Rand, scratch

    folder = _SCRATCH[0] or scratch("wrap")
    _SCRATCH[0] = folder
    for f in positions or {}:
        with open(folder + "/" + f, "w") as out:
            out.write(json.dumps(positions[f]))
    path = folder + "/" + name + ".table"
    with open(path, "w") as f:
        f.write(script)
    flash = folder + "/flash"
    ref = trace(path, "hardware", flash, 0, look=look)
    assert ref.n > 3, ref.n
    for start in starts(ref.times, Rand(seed), n):
        gc.collect()  # the last run's table gone before the next is built (as at a reset)
        got = trace(path, "hardware", flash, start, ref=ref)
        if got.differs is None and got.n == ref.n:
            continue
        at, line = got.differs or (got.n, "(none: %d frames, not %d)" % (got.n, ref.n))
        got = None
        gc.collect()
        was = trace(path, "hardware", flash, 0, ref=ref, keep=at).kept  # its text again
        raise AssertionError(
            "start %d (wraps at %d ms): frame %d differs:\n  from 0: %s\n  wrapped: %s"
            % (start, -start & TICKS_MAX, at, (was or "(none)")[:300], line[:300])
        )


_SCRATCH = [None]  # this process's scratch folder, once made


def counted(into):
    """A `look` counting the events by kind (`ignored` by why: "ignored:lockout") into the
    dict `into`."""

    def look(ev):
        kind = ev.get("type")
        if kind == "ignored":
            kind = "ignored:%s" % ev.get("why")
        into[kind] = into.get(kind, 0) + 1

    return look


def position(pawns, turn="R"):
    """A 4-player classic Tock position: pawns by colour, the rest in camp."""
    full = {}
    for c in "RGBY":
        squares = list(pawns.get(c, []))
        full[c] = squares + ["camp"] * (4 - len(squares))
    return {"rules": "classic", "players": 4, "turn": turn, "pawns": full, "waiting": []}


if __name__ == "__main__":
    trace(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.stdout)
