"""The host's end of the link: frames in, events out, commands back (P1-P4).

Decoding uses the firmware's own `link.frame`, so both ends share one framing."""

from __future__ import annotations

import itertools
import json
import time
from collections import deque
from collections.abc import Iterator

import serial

from link import frame  # firmware/link/frame.py, shared

DEAD_AFTER_S = 3.0  # P3: no frame for this long means the link is dead
_decode = json.JSONDecoder().decode  # on str: json.loads(bytes) sniffs the encoding each time


class FastDecoder:
    """The firmware's frame.Decoder, for CPython: the same frames and errors, but the
    delimiters are found with bytes.find instead of a loop over every byte (the board's way
    suits MicroPython's heap; this one is what lets the host log 50 000 events a second)."""

    def __init__(self, max_frame: int = frame.MAX_FRAME):
        self._buf = bytearray()
        self._max = max_frame
        self.errors = 0
        self.last_error: str | None = None

    def feed(self, data: bytes) -> list[bytes]:
        buf = self._buf
        buf += data
        out = []
        start = 0
        while True:
            end = buf.find(0, start)
            if end < 0:
                break
            if end > start:
                if end - start > self._max:
                    self._fail(f"frame longer than {self._max} bytes")
                else:
                    try:
                        out.append(frame.check(bytes(buf[start:end])))
                    except ValueError as e:
                        self._fail(str(e))
            start = end + 1
        del buf[:start]
        if len(buf) > self._max:  # no delimiter for too long: drop it, resync later
            self._fail(f"frame longer than {self._max} bytes")
            buf.clear()
        return out

    def _fail(self, why: str) -> None:
        self.errors += 1
        self.last_error = why


class LinkError(Exception):
    """A problem a person can act on: the message says what and what to do."""


class HostLink:
    """Reads events from a Plateau board (or the simulator) over a serial port.

    Tracks (boot, seq) of the last numbered event so a reconnect asks only for what was
    missed, and drops repeats, so every numbered event is delivered exactly once."""

    def __init__(self, port: str, baudrate: int = 115200):
        self.port = port
        self.baudrate = baudrate
        self.boot: str | None = None
        self.seq = 0
        self._ser: serial.Serial | None = None
        self._decoder = FastDecoder()
        self._ids = itertools.count(1)
        self.last_rx = 0.0
        self.bad_frames = 0
        self._asked = -1  # the seq we last asked the board to resend after
        self._pending: deque[tuple[dict, bytes]] = deque()
        self.raw: bytes | None = None  # the payload of the event last yielded, as sent

    def open(self, hello: bool = True) -> None:
        try:
            # P5: open without touching DTR/RTS; pulsing them resets an ESP32 (and in one
            # pattern drops an ESP32-S3 into its bootloader).
            ser = serial.Serial()
            ser.port = self.port
            ser.baudrate = self.baudrate
            ser.timeout = 0.05
            ser.dtr = False
            ser.rts = False
            ser.open()
        except serial.SerialException as e:
            raise LinkError(f"cannot open {self.port}: {e}. Is the table plugged in?") from e
        self._ser = ser
        self._decoder = FastDecoder()
        self.last_rx = time.monotonic()
        if hello:
            self.hello()

    def hello(self) -> None:
        """Tell the board what we have: it answers with what we missed (P2)."""
        self.send({"cmd": "hello", "boot": self.boot, "seq": self.seq})
        self._asked = self.seq

    def close(self) -> None:
        if self._ser:
            self._ser.close()
            self._ser = None

    def send(self, cmd: dict) -> int:
        """Send a command; returns its id (the board's `answer` carries it)."""
        if not self._ser:
            raise LinkError("link is not open")
        cmd.setdefault("id", next(self._ids))
        self._ser.write(frame.encode(json.dumps(cmd).encode()))
        return cmd["id"]

    def events(self) -> Iterator[dict]:
        """Yields events as they arrive; numbered events exactly once and in order.
        Ends when the port closes (LinkError) or stays silent longer than DEAD_AFTER_S."""
        assert self._ser is not None
        pending = self._pending  # decoded but not yet taken: kept if a caller stops early
        while True:
            while pending:
                ev, self.raw = pending.popleft()
                yield ev
            try:
                data = self._ser.read(4096)
            except (serial.SerialException, OSError) as e:
                raise LinkError(f"link to {self.port} lost: {e}") from e
            if data:
                self.last_rx = time.monotonic()
                before = self._decoder.errors
                for payload in self._decoder.feed(data):
                    got = self._event(payload)
                    if got is not None:
                        pending.append((got, payload))
                self.bad_frames += self._decoder.errors - before
            elif time.monotonic() - self.last_rx > DEAD_AFTER_S:
                raise LinkError(f"no heartbeat from {self.port} for {DEAD_AFTER_S:.0f} s")

    def _event(self, payload: bytes) -> dict | None:
        try:
            ev = _decode(payload.decode("utf-8"))
        except ValueError:  # UnicodeDecodeError included
            self.bad_frames += 1
            return None
        if not isinstance(ev, dict) or "type" not in ev:
            self.bad_frames += 1
            return None
        if ev["type"] == "hello" and ev.get("boot") != self.boot:
            self.boot, self.seq = ev.get("boot"), 0  # a new boot numbers from 1 again
        seq = ev.get("seq")
        if not isinstance(seq, int):
            # a link message (hello, heartbeat, answer...): not numbered, but it says how far
            # the board has got; if that is past us, events were lost on the way
            at = ev.get("at")
            if (
                isinstance(at, int)
                and at > self.seq
                and ev.get("boot") == self.boot
                and ev["type"] == "heartbeat"
                and self._asked != self.seq
            ):
                self.hello()
            return ev
        if ev.get("boot") != self.boot:
            # an event from a boot we have not greeted yet: adopt it (the board restarted)
            self.boot, self.seq = ev.get("boot"), 0
        if seq <= self.seq:
            return None  # a resend we already have
        if seq > self.seq + 1:
            # a hole (bytes lost on the wire, a link that dropped): ask once for what is
            # missing; the board resends it in order, and this one again after it
            if self._asked != self.seq:
                self.hello()
            return None
        self.seq = seq
        return ev


def follow(link: HostLink, say=print, retry_s: float = 0.5, give_up_s: float | None = None):
    """Events from the board for as long as it takes: when the link drops (unplugged, board
    reset, no heartbeat for 3 s) it says so, reopens the port when it comes back and asks
    for what it missed (P3). Stops after give_up_s without a link, if given."""
    lost_at = None
    while True:
        try:
            link.open()
            if lost_at is not None:
                say(f"link to {link.port} back after {time.monotonic() - lost_at:.1f} s")
            lost_at = None
            yield from link.events()
        except LinkError as e:
            link.close()
            if lost_at is None:
                lost_at = time.monotonic()
                say(f"{e}; reconnecting...")
            if give_up_s is not None and time.monotonic() - lost_at > give_up_s:
                raise
            time.sleep(retry_s)
