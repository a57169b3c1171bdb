"""The host's end of the link: frames in, events out, commands back (P1-P4).

Decoding uses the firmware's own `link.frame`, so both ends share one framing."""

from __future__ import annotations

import itertools
import json
import time
from collections.abc import Iterator

import serial

from link import frame  # firmware/link/frame.py, shared

DEAD_AFTER_S = 3.0  # P3: no frame for this long means the link is dead


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
        self._decoder = frame.Decoder()
        self._ids = itertools.count(1)
        self.last_rx = 0.0
        self.bad_frames = 0

    def open(self) -> None:
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
        self._decoder = frame.Decoder()
        self.last_rx = time.monotonic()
        self.send({"cmd": "hello", "boot": self.boot, "seq": self.seq})

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
        while True:
            try:
                data = self._ser.read(4096)
            except (serial.SerialException, OSError) as e:
                raise LinkError(f"link to {self.port} lost: {e}") from e
            if data:
                self.last_rx = time.monotonic()
                before = self._decoder.errors
                for payload in self._decoder.feed(data):
                    ev = self._event(payload)
                    if ev is not None:
                        yield ev
                self.bad_frames += self._decoder.errors - before
            elif time.monotonic() - self.last_rx > DEAD_AFTER_S:
                raise LinkError(f"no heartbeat from {self.port} for {DEAD_AFTER_S:.0f} s")

    def _event(self, payload: bytes) -> dict | None:
        try:
            ev = json.loads(payload)
        except ValueError:
            self.bad_frames += 1
            return None
        if not isinstance(ev, dict) or "type" not in ev:
            self.bad_frames += 1
            return None
        if ev["type"] == "hello" and ev.get("boot") != self.boot:
            self.boot, self.seq = ev.get("boot"), 0  # a new boot numbers from 1 again
        seq = ev.get("seq")
        if not isinstance(seq, int):
            return ev  # a link message (hello, heartbeat, answer...): not numbered
        if ev.get("boot") != self.boot:
            # an event from a boot we have not greeted yet: adopt it (the board restarted)
            self.boot, self.seq = ev.get("boot"), 0
        if seq <= self.seq:
            return None  # a resend we already have
        self.seq = seq
        return ev
