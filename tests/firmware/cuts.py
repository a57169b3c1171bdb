# Power cuts at chosen points of a simulated table, in this process (CPython or MicroPython):
# the firmware (sim.run.Sim) runs a table script on a flash folder and a world file, as
# `plateau resets` runs it in a process it kills with SIGKILL; here the cut is an exception
# raised at a counted point, the board's RAM is dropped, and a new Sim starts on the same
# flash and table. The points are every step where what survives a cut can change: a write
# to the flash (each file write, rename, remove), the world's record of the table (before
# and after), each frame to the wire, each pass of the loop. A host on the wire logs each
# numbered event once and asks for what it missed after every restart, as `plateau log` does.
import gc
import json
import os

import store
from check import scratch

from link import frame
from sim import VirtualClock
from sim.run import Sim
from sim.script import read
from sim.world import World


class Cut(BaseException):
    """The power goes (no `except Exception` in the firmware stops it, as nothing stops a
    real cut)."""


class Fuse:
    """Counts the points; cuts at the `k`-th point after the world recorded script line
    `line` (each (line, k) of `at`, once), and at the `k`-th point after a restart for each
    k of `again` (a second cut while the board starts, one per restart)."""

    def __init__(self, at=(), again=()):
        self.at = dict(at)
        self.again = list(again)
        self.line = 0
        self.since = 0  # points since the world recorded `line` ...
        self.booted = 0  # ... and since the last restart
        self.cuts = 0
        self.restarting = False

    def point(self):
        self.since += 1
        self.booted += 1
        k = self.at.get(self.line)
        if k is not None and self.since >= k:
            del self.at[self.line]
            self._cut()
        if self.restarting and self.again and self.booted >= self.again[0]:
            self.again.pop(0)
            self._cut()

    def recorded(self, line):
        self.line = line
        self.since = 0

    def _cut(self):
        self.cuts += 1
        raise Cut()


FUSE = Fuse()
MEM = None  # a list: the free heap at each restart (to look at, not checked)


class _Os:
    def rename(self, a, b):
        FUSE.point()
        os.rename(a, b)

    def remove(self, path):
        FUSE.point()
        os.remove(path)

    def mkdir(self, path):
        os.mkdir(path)


class _File:
    """A file being written, a point before each write."""

    def __init__(self, f):
        self.f = f

    def write(self, data):
        FUSE.point()
        return self.f.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.f.close()


def _open(path, mode="r"):
    f = open(path, mode)
    return f if "r" in mode else _File(f)


class _World(World):
    def save(self, line, physical):
        FUSE.point()
        World.save(self, line, physical)
        FUSE.recorded(line)
        FUSE.point()


class _Clock(VirtualClock):
    def sleep_ms(self, ms):
        FUSE.point()
        VirtualClock.sleep_ms(self, ms)


class Host:
    """The other end of the wire: each numbered event logged once (the plays of `kinds`, as
    one line each, in the order of their numbers), a hello after every restart and after a
    hole, with the last number it has."""

    def __init__(self, kinds):
        self.kinds = kinds  # type -> the fields that make the play
        self.decoder = frame.Decoder()
        self.boot = None
        self.seq = 0
        self.have = set()
        self.plays = []  # (boot index, seq, play)
        self.boots = []
        self.inbox = b""
        self.up = True
        self.gaps = 0  # numbers the board said are gone

    def write(self, data):
        FUSE.point()
        for payload in self.decoder.feed(data):
            ev = json.loads(payload)
            if "seq" not in ev:  # a link message: `at` says how far the board numbered
                if ev["type"] == "gap":
                    self.gaps += ev["to"] - ev["from"] + 1
                elif ev["boot"] != self.boot or ev["at"] > self.seq and not self.inbox:
                    self.hello()  # its hello, or a heartbeat: the host asks until it has all
                continue
            boot, seq = ev["boot"], ev["seq"]
            if (boot, seq) in self.have:
                continue
            self.have.add((boot, seq))
            if boot not in self.boots:
                self.boots.append(boot)
            fields = self.kinds.get(ev["type"])
            if fields is not None:
                play = [ev["type"]] + [ev.get(k) for k in fields]
                self.plays.append((self.boots.index(boot), seq, json.dumps(play)))
            if boot != self.boot or seq == self.seq + 1:
                self.boot, self.seq = boot, seq
                while (boot, self.seq + 1) in self.have:  # a hole filled: the run goes on
                    self.seq += 1
            elif seq > self.seq + 1:
                self.hello()  # a hole: ask from the last one it has in a row

    def hello(self):
        if self.inbox:
            return  # asked already: the board has not read it yet
        cmd = {"cmd": "hello", "boot": self.boot, "seq": self.seq if self.boot else 0}
        self.inbox += frame.encode(json.dumps(cmd).encode())

    def restarted(self):
        for _ in self.decoder.feed(b"\x00"):  # what was half-written is lost with the board
            pass  # (one decoder for the whole run: a new one each time fragments the heap)
        self.inbox = b""

    def read(self):
        data = self.inbox
        self.inbox = b""
        return data

    def table_mode(self):
        pass

    def repl_mode(self):
        pass

    def log(self):
        return [p for _, _, p in sorted(self.plays)]


def play(text, kinds, at=(), again=()):
    """Plays script `text`, cut at `at` and `again` (see Fuse): (the plays the host logged, in
    order, the number of cuts made). After a cut the table stands as the world file says (as
    `plateau resets` restarts the simulator on it; the simulated hardware objects are kept,
    powered down and up, as Sim.reset does, so the heap holds one set of them) and the
    firmware starts afresh on the flash."""
    global FUSE
    folder = scratch("cuts")
    path = folder + "/script.table"
    with open(path, "w") as f:
        f.write(text)
    with open(path) as f:
        settings = read(f)
    FUSE = Fuse(at, again)
    host = Host(kinds)
    world = _World(folder + "/world.json")
    real = store.os
    store.os, store.open = _Os(), _open
    try:
        sim = Sim(
            settings,
            path,
            _Clock(),
            host,
            "00000001",
            "hardware",
            None,
            folder + "/flash",
            None,
            world,
        )
        booted = True  # the first boot is never cut (no line done, no restart yet)
        while True:
            try:
                if not booted:
                    sim.boot("%08x" % (FUSE.cuts + 1))
                    booted = True
                sim.run()
                break
            except Cut:
                booted = False
            host.restarted()
            FUSE.restarting = True
            FUSE.booted = 0
            physical = sim.physical
            physical.power_cut()
            physical.reader_chip.lift()  # the table as the world file has it (a card game's)
            stood = world.load()
            if stood:
                sim.done_line = stood[0]
                physical.set_physical(stood[1])
            physical.hardware = None  # a board powers up with an empty heap: the last boot's
            for name in ("table", "game", "link"):  # objects go before the new ones are made
                if hasattr(sim, name):
                    delattr(sim, name)
            gc.collect()
            if MEM is not None:
                MEM.append(gc.mem_free())
    finally:
        store.os, store.open = real, open
    assert host.gaps == 0, "the board said %d events are gone" % host.gaps
    return host.log(), FUSE.cuts
