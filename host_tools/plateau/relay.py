"""The hostile serial line of `plateau chaos`: a relay between the simulated board's pty and
the host's, that corrupts, drops, doubles, reorders, delays and cuts bytes (port open), and
unplugs (the host's port disappears, then comes back), both directions.

The relay knows nothing of the protocol: it cuts the byte stream into pieces of random
length and treats each piece by seeded chance; it never looks for a frame, a delimiter or
a field. Faults come as episodes (`plan`), drawn from one seeded random generator: the same
seed, the same faults."""

from __future__ import annotations

import heapq
import math
import os
import random
import select
import time
import tty
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

MAX_CUT_S = 60.0  # longest cut or unplug, in table time
PIECE = (1, 48)  # the relay cuts the stream into pieces of this many bytes
QUEUE_MAX = 1 << 16  # bytes waiting in one direction: more are lost (a USB bridge's buffer)


@dataclass
class Faults:
    """What one direction of the line does to the bytes, for the length of an episode."""

    cut: bool = False  # nothing gets through
    byte_error: float = 0.0  # per byte: a bit flipped, a byte replaced, dropped or added
    drop: float = 0.0  # per piece: lost
    dup: float = 0.0  # per piece: arrives twice
    reorder: float = 0.0  # per piece: held back 5-80 ms, so later pieces overtake it
    delay_ms: float = 0.0  # per piece: a latency up to this (pieces keep their order)
    garbage: float = 0.0  # per piece: random bytes before it


CLEAN = Faults()


@dataclass
class Episode:
    kind: str  # cut, cut-up, cut-down, unplug, noise, storm
    real_s: float  # how long it lasts in real time
    table_s: float  # the same in table time
    down: Faults = field(default_factory=Faults)  # board -> host
    up: Faults = field(default_factory=Faults)  # host -> board


def plan(rng: random.Random, speed: float, max_cut: float = MAX_CUT_S) -> Iterator[Episode]:
    """Faults, one after another, drawn from rng alone (the same seed, the same faults)."""

    def table_length() -> float:
        # a third of cuts long (half the maximum and more), the rest spread over 0.1 s..
        if rng.random() < 0.33:
            return rng.uniform(max_cut / 2, max_cut)
        return math.exp(rng.uniform(math.log(0.1), math.log(max_cut / 2)))

    def noise(heavy: bool) -> Faults:
        return Faults(
            byte_error=math.exp(rng.uniform(math.log(1e-4), math.log(1e-2))) if not heavy else 1e-2,
            drop=rng.uniform(0, 0.05),
            dup=rng.uniform(0, 0.05),
            reorder=rng.uniform(0, 0.05),
            delay_ms=rng.uniform(0, 150),
            garbage=rng.uniform(0, 0.02),
        )

    while True:
        kind = rng.choices(
            ["cut", "cut-up", "cut-down", "unplug", "noise", "storm"], [25, 7, 7, 20, 28, 13]
        )[0]
        if kind in ("noise", "storm"):
            real = rng.uniform(0.5, 5.0)
            down, up = noise(kind == "storm"), noise(kind == "storm")
            if kind == "noise" and rng.random() < 0.3:  # one direction only
                if rng.random() < 0.5:
                    down = Faults()
                else:
                    up = Faults()
            yield Episode(kind, real, real * speed, down, up)
            continue
        table = table_length()
        ep = Episode(kind, table / speed, table)
        ep.down.cut = kind in ("cut", "cut-down")
        ep.up.cut = kind in ("cut", "cut-up")
        yield ep


class Direction:
    """One direction of the line: pieces of bytes on their way, each due at its time."""

    def __init__(self, rng: random.Random, counts: Counter):
        self.rng = rng
        self.counts = counts
        self.faults = CLEAN
        self._queue: list[tuple[float, int, bytes]] = []  # (due, order, piece)
        self._order = 0
        self._last_due = 0.0
        self._queued = 0
        self._out = b""  # what the receiver could not take yet

    def carry(self, data: bytes, now: float) -> None:
        f, rng = self.faults, self.rng
        self.counts["bytes"] += len(data)
        if f.cut:
            self.counts["cut"] += len(data)
            return
        i = 0
        while i < len(data):
            n = rng.randint(*PIECE)
            piece, i = data[i : i + n], i + n
            if rng.random() < f.drop:
                self.counts["dropped"] += len(piece)
                continue
            if f.byte_error:
                piece = self._corrupt(piece, f.byte_error)
            if rng.random() < f.garbage:
                piece = rng.randbytes(rng.randint(1, 20)) + piece
                self.counts["garbage"] += 1
            due = max(now + rng.uniform(0, f.delay_ms) / 1000, self._last_due)
            self._last_due = due
            if rng.random() < f.reorder:
                due += rng.uniform(0.005, 0.08)
                self.counts["reordered"] += 1
            self._push(due, piece)
            if rng.random() < f.dup:
                self._push(due + rng.uniform(0, 0.05), piece)
                self.counts["doubled"] += 1

    def _corrupt(self, piece: bytes, p: float) -> bytes:
        rng = self.rng
        b = bytearray(piece)
        i = int(math.log(1 - rng.random()) / math.log(1 - p))  # next byte hit
        while i < len(b):
            op = rng.random()
            if op < 0.6:
                b[i] ^= 1 << rng.randrange(8)
            elif op < 0.8:
                b[i] = rng.randrange(256)
            elif op < 0.9:
                del b[i]
            else:
                b.insert(i, rng.randrange(256))
            self.counts["corrupted"] += 1
            i += 1 + int(math.log(1 - rng.random()) / math.log(1 - p))
        return bytes(b)

    def _push(self, due: float, piece: bytes) -> None:
        if self._queued + len(piece) > QUEUE_MAX:
            self.counts["overflow"] += len(piece)
            return
        self._order += 1
        heapq.heappush(self._queue, (due, self._order, piece))
        self._queued += len(piece)

    def next_due(self) -> float | None:
        return self._queue[0][0] if self._queue else None

    def deliver(self, now: float, fd: int | None) -> None:
        """Writes what is due to fd (None: unplugged, it is lost; a cut line loses it too)."""
        while self._queue and self._queue[0][0] <= now:
            _, _, piece = heapq.heappop(self._queue)
            self._queued -= len(piece)
            if fd is None or self.faults.cut:
                self.counts["cut"] += len(piece)
            else:
                self._out += piece
        if self._out and fd is not None:
            try:
                n = os.write(fd, self._out)
            except BlockingIOError:
                return
            except OSError:
                n = len(self._out)  # the other end is gone
            self._out = self._out[n:]
            if len(self._out) > QUEUE_MAX:
                self.counts["overflow"] += len(self._out) - QUEUE_MAX
                self._out = self._out[-QUEUE_MAX:]
        elif fd is None:
            self._out = b""


class Relay:
    """The line between the board's pty and the host's: a second pty, reached through a
    symlink at `port` that disappears while unplugged."""

    def __init__(self, board_port: str, port: Path, rng: random.Random):
        self.port = port
        self.board: int | None = os.open(board_port, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
        self.host: int | None = None
        self._host_slave: int | None = None
        self.counts: Counter = Counter()
        self.down = Direction(rng, self.counts)  # board -> host
        self.up = Direction(rng, self.counts)  # host -> board
        self.plug()

    def plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)
        os.set_blocking(master, False)
        # the relay keeps the slave open too, so the host closing its end (to reopen) never
        # leaves the master without a reader
        self.host, self._host_slave = master, slave
        tmp = self.port.with_suffix(".new")
        tmp.unlink(missing_ok=True)
        os.symlink(os.ttyname(slave), tmp)
        os.replace(tmp, self.port)

    def unplug(self) -> None:
        self.port.unlink(missing_ok=True)
        for fd in (self.host, self._host_slave):
            if fd is not None:
                os.close(fd)
        self.host = self._host_slave = None

    def set(self, ep: Episode | None) -> None:
        """Start an episode's faults (None: the line is clean again)."""
        self.down.faults = ep.down if ep else CLEAN
        self.up.faults = ep.up if ep else CLEAN
        if ep and ep.kind == "unplug":
            self.unplug()
        elif self.host is None:
            self.plug()

    def pump(self, timeout: float) -> None:
        """Moves bytes for at most `timeout` seconds."""
        now = time.monotonic()
        dues = [d for d in (self.down.next_due(), self.up.next_due()) if d is not None]
        wait = max(0.0, min([timeout] + [d - now for d in dues]))
        fds = [fd for fd in (self.board, self.host) if fd is not None]
        ready = select.select(fds, [], [], wait)[0]
        now = time.monotonic()
        for fd in ready:
            try:
                data = os.read(fd, 4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if fd == self.board:
                if not data:  # the simulator ended
                    os.close(fd)
                    self.board = None
                    continue
                self.down.carry(data, now)
            else:
                self.up.carry(data, now)
        self.down.deliver(now, self.host)
        self.up.deliver(now, self.board)

    def close(self) -> None:
        self.unplug()
        if self.board is not None:
            os.close(self.board)
            self.board = None
