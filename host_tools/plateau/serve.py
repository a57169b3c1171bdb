"""`plateau sim --serve`: the simulated table on a serial port of its own (a pty) that any
tool opens as it opens a board: `plateau log`, `send`, `selftest`, `calibrate`, a terminal.

The firmware runs under MicroPython in real time (its console on a pty, as for `plateau sim`),
scripted or idle, and goes on until stopped, as a board does. Between it and the port it
serves sits a relay, because a board talks whether or not anyone listens: while no program
holds the port open, what the table says is dropped (as a board's USB output goes nowhere
with no host) and the table's ring keeps it; the tool that opens the port says hello and gets
what it missed, as from a board. Without the relay the firmware would block once the pty's
buffer filled with unread heartbeats, and the next tool would read minutes-old frames."""

from __future__ import annotations

import os
import select
import tempfile
import termios
import tty
from pathlib import Path

from plateau.sim import Firmware

BACKLOG = 1 << 16  # bytes held for a tool slow to read (a loaded machine), as a USB stack does
IDLE = "table tock players=4\n"
# plateau sim --serve: the table stays on, a year of waits (a script line waits an hour at most)
FOREVER = "# plateau sim --serve: the table stays on\n" + "wait 3600000\n" * 24 * 366


def served_script(script: str | None, folder: str) -> str:
    """The script the firmware plays: the one given (line numbers kept) or an idle table,
    then a wait that outlasts anyone's patience."""
    text = Path(script).read_text() if script else IDLE
    path = Path(folder) / "served.table"
    path.write_text(text.rstrip("\n") + "\n" + FOREVER)
    return str(path)


class Served:
    """The relay: `port` is the pty a tool opens; run() moves bytes until the firmware ends
    or stop() is called."""

    def __init__(self, fw: Firmware):
        self.fw = fw
        self.master, slave = os.openpty()
        tty.setraw(slave)
        self.port = os.ttyname(slave)
        os.close(slave)  # only tools hold it open: its hang-up says nobody listens
        self.table = os.open(fw.port, os.O_RDWR | os.O_NOCTTY)
        tty.setraw(self.table)
        os.set_blocking(self.master, False)
        self.stopped = False
        self.dropped = 0  # bytes the table sent while nobody listened
        self.backlog = bytearray()  # what the table said that the tool has not taken yet
        self._was = False

    def listening(self) -> bool:
        p = select.poll()
        p.register(self.master, select.POLLIN)
        return not any(ev & select.POLLHUP for _, ev in p.poll(0))

    def step(self, timeout: float = 0.05) -> None:
        now = self.listening()
        if now and not self._was:  # a tool opened the port: nothing left over from the last
            termios.tcflush(self.master, termios.TCOFLUSH)
            self.backlog.clear()
        self._was = now
        reads = [self.table] + ([self.master] if now else [])
        writes = [self.master] if now and self.backlog else []
        ready, writable, _ = select.select(reads, writes, [], timeout)
        if self.table in ready:
            data = os.read(self.table, 4096)
            if now:
                self.backlog += data
                over = len(self.backlog) - BACKLOG
                if over > 0:  # a tool that stopped reading: the oldest bytes go
                    del self.backlog[:over]
                    self.dropped += over
            else:
                self.dropped += len(data)
        if writable and self.backlog:
            try:
                n = os.write(self.master, self.backlog)
            except (BlockingIOError, OSError):
                n = 0
            del self.backlog[:n]
        if self.master in ready:
            try:
                data = os.read(self.master, 4096)
            except OSError:  # the tool closed the port between the poll and the read
                data = b""
            if data:
                os.write(self.table, data)

    def run(self) -> None:
        while not self.stopped and not self.fw.finished():
            self.step()

    def close(self) -> None:
        os.close(self.table)
        os.close(self.master)


def serve(script: str | None, say=print, ticks_start: int | None = None, **firmware) -> int:
    """Serves until Ctrl-C or SIGTERM, or until the firmware ends (a `repl` command ends the
    simulated table, and it says so); 0, or 1 if the firmware failed."""
    import signal

    def stop(*_):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)  # `kill` stops it as cleanly as Ctrl-C
    signal.signal(signal.SIGINT, stop)  # Ctrl-C too, even when started with SIGINT ignored
    with tempfile.TemporaryDirectory(prefix="plateau-serve-") as work:
        # a script waits for the first tool that says hello (plateau log, calibrate), so that
        # it plays to someone; an idle table just runs
        wait = ["--wait-host", "--live-wait"] if script else []
        if ticks_start is not None:  # the board's tick counter's start (plateau sim --help)
            wait += ["--ticks-start", str(ticks_start)]
        fw = Firmware(served_script(script, work), "--realtime", *wait, **firmware)
        served = Served(fw)
        what = (
            f"{script}, played from the first hello (plateau log, calibrate)"
            if script
            else "idle (a Tock table for 4)"
        )
        say(f"serving a simulated table on {served.port}: {what}; Ctrl-C to stop")
        say(f"  try: plateau send --port {served.port} snapshot")
        say(f"  or:  export PLATEAU_PORT={served.port}  (then --port auto finds it)")
        ended = False
        try:
            served.run()
            ended = True  # by itself: it failed, or its wait ran out
        except KeyboardInterrupt:
            pass
        finally:
            served.close()
            code = fw.stop()
            err = fw.stderr()
        if ended and code:
            say(err.strip() or f"the simulated table stopped (exit {code})")
            return 1
        if ended:  # its year of waiting is not over: the table left table mode
            say(
                f"the simulated table has ended: a `repl` command hands a board to its REPL "
                f"(safe mode, for mpremote), which the simulator has not; {served.port} is "
                "served no more"
            )
    return 0
